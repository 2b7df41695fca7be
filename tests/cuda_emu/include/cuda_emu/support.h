/* The checks the emulated runtime, scheduler and CUB twins share
 * (the .cpp files of tests/cuda_emu implement them). */
#ifndef EVOLVE_CUDA_EMU_SUPPORT_H
#define EVOLVE_CUDA_EMU_SUPPORT_H

#include <cstddef>
#include <cstdint>

namespace emu
{

/* Prints "emu: " and the message to stderr and aborts: what a GPU would
 * punish with a fault, a hang or a wrong result. */
[[noreturn]] void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Sets the error cudaGetLastError returns next, and returns e. */
cudaError_t set_last_error(cudaError_t e);

/* While one exists, device memory may be touched by this process (kernels,
 * the CUB twins, copies); outside, AddressSanitizer reports any host access. */
class DeviceScope
{
  public:
    DeviceScope();
    ~DeviceScope();
    DeviceScope(const DeviceScope &) = delete;
    DeviceScope &operator=(const DeviceScope &) = delete;
};

/* [p, p + bytes) lies in one live device allocation; else fail() naming what, where. */
void check_device_range(const void *p, size_t bytes, const char *what, const char *file, int line);
/* true when p points into (or one past) a live device allocation. */
bool is_device_pointer(const void *p);

/* The next draw of the schedule's random stream (EVOLVE_EMU_SCHEDULE). */
uint64_t schedule_draw(void);

/* The poison byte of fresh device and shared memory and of CUB scratch after use. */
enum { POISON = 0xA5 };

} // namespace emu

#endif
