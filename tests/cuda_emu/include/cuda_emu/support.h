/* The checks the emulated runtime, scheduler and CUB twins share
 * (the .cpp files of tests/cuda_emu implement them). */
#ifndef EVOLVE_CUDA_EMU_SUPPORT_H
#define EVOLVE_CUDA_EMU_SUPPORT_H

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <vector>

namespace emu
{

/* Prints "emu: " and the message to stderr and aborts: what a GPU would
 * punish with a fault, a hang or a wrong result. */
[[noreturn]] void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Sets the error cudaGetLastError returns next, and returns e. */
cudaError_t set_last_error(cudaError_t e);

/* While one exists, the device allocations holding the given pointers may
 * be touched by this process (a kernel: those its arguments point into and
 * those add_pointed_allocations names; a copy, a set, a CUB twin: those of
 * its ranges); any other access of device memory, by host code or by a
 * kernel, is reported by AddressSanitizer. Only the named allocations are
 * unpoisoned: poisoning all of them at every launch cost more than the
 * kernels. Null pointers and host pointers are skipped. */
class DeviceScope
{
  public:
    DeviceScope(const void *const *ptrs, size_t n);
    DeviceScope(std::initializer_list<const void *> ptrs) : DeviceScope(ptrs.begin(), ptrs.size())
    {
    }
    ~DeviceScope();
    DeviceScope(const DeviceScope &) = delete;
    DeviceScope &operator=(const DeviceScope &) = delete;

  private:
    std::vector<uintptr_t> held_; /* the allocations this scope opened (their start) */
};

/* Adds to ptrs the allocations a copy from host memory carried a pointer
 * into (device structs holding device pointers: a kernel may follow them). */
void add_pointed_allocations(std::vector<const void *> &ptrs);

/* [p, p + bytes) lies in one live device allocation; else fail() naming what, where. */
void check_device_range(const void *p, size_t bytes, const char *what, const char *file, int line);
/* true when p points into (or one past) a live device allocation. */
bool is_device_pointer(const void *p);

/* The next draw of the schedule's random stream (EVOLVE_EMU_SCHEDULE). */
uint64_t schedule_draw(void);

/* The counted calls (tests/cuda_emu/counters.h): kind, call site, the
 * kernel or algorithm (or null), the bytes of a copy. */
enum class Count { launch, cub, h2d, d2h, d2d, memset, sync, malloc, free, host_alloc, host_free };
void count_call(Count kind, const char *file, int line, const char *name, uint64_t bytes);
/* A launch counted, and traced with its grid and block (which blocks and threads TSan saw run). */
void count_launch(const char *file, int line, const char *kernel, dim3 grid, dim3 block);

/* The poison byte of fresh device and shared memory and of CUB scratch after use. */
enum { POISON = 0xA5 };

} // namespace emu

#endif
