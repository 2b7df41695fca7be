/* The GA's sorts and scans: the one GA file that uses CUB (it compiles
 * slowly, so it stays in one translation unit behind plain-pointer
 * wrappers). CUB's device algorithms report errors as cudaError_t and
 * allocate nothing (the caller passes scratch sized by ga_cub_temp_bytes);
 * the try/catch only guarantees that no C++ exception ever reaches C.
 *
 * DeviceRadixSort is stable, ascending and descending: equal keys keep their
 * input order. The GA relies on that to sort by several keys in passes
 * (least significant first), e.g. (island, rank_key desc, index, individual). */
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>

#include "kernels/ga_device.cuh"

namespace
{

/* Scratch is asked for with the widest key range (more radix passes may need
 * more), so one size covers every call. */
cudaError_t temp_bytes_unsafe(uint32_t n, size_t *bytes)
{
    size_t b = 0, most = 0;
    cudaError_t e;
    int items = (int)n;
    e = cub::DeviceRadixSort::SortPairs(NULL, b, (const uint64_t *)NULL, (uint64_t *)NULL, (const uint32_t *)NULL,
                                        (uint32_t *)NULL, items, 0, 64);
    if (e != cudaSuccess)
        return e;
    most = b > most ? b : most;
    e = cub::DeviceRadixSort::SortPairsDescending(NULL, b, (const uint64_t *)NULL, (uint64_t *)NULL,
                                                  (const uint32_t *)NULL, (uint32_t *)NULL, items, 0, 64);
    if (e != cudaSuccess)
        return e;
    most = b > most ? b : most;
    e = cub::DeviceRadixSort::SortPairs(NULL, b, (const uint32_t *)NULL, (uint32_t *)NULL, (const uint32_t *)NULL,
                                        (uint32_t *)NULL, items, 0, 32);
    if (e != cudaSuccess)
        return e;
    most = b > most ? b : most;
    e = cub::DeviceScan::InclusiveSum(NULL, b, (const uint64_t *)NULL, (uint64_t *)NULL, items);
    if (e != cudaSuccess)
        return e;
    most = b > most ? b : most;
    *bytes = most ? most : 1;
    return cudaSuccess;
}

} // namespace

cudaError_t ga_cub_temp_bytes(uint32_t n, size_t *bytes)
{
    try {
        return temp_bytes_unsafe(n, bytes);
    } catch (...) {
        return cudaErrorUnknown;
    }
}

cudaError_t ga_cub_sort_u64(void *temp, size_t temp_bytes, const uint64_t *kin, uint64_t *kout, const uint32_t *vin,
                            uint32_t *vout, uint32_t n, int end_bit, int descending)
{
    size_t b = temp_bytes;
    try {
        if (descending)
            return cub::DeviceRadixSort::SortPairsDescending(temp, b, kin, kout, vin, vout, (int)n, 0, end_bit);
        return cub::DeviceRadixSort::SortPairs(temp, b, kin, kout, vin, vout, (int)n, 0, end_bit);
    } catch (...) {
        return cudaErrorUnknown;
    }
}

cudaError_t ga_cub_sort_u32(void *temp, size_t temp_bytes, const uint32_t *kin, uint32_t *kout, const uint32_t *vin,
                            uint32_t *vout, uint32_t n, int end_bit)
{
    size_t b = temp_bytes;
    try {
        return cub::DeviceRadixSort::SortPairs(temp, b, kin, kout, vin, vout, (int)n, 0, end_bit);
    } catch (...) {
        return cudaErrorUnknown;
    }
}

cudaError_t ga_cub_sum_u64(void *temp, size_t temp_bytes, const uint64_t *in, uint64_t *out, uint32_t n)
{
    size_t b = temp_bytes;
    try {
        return cub::DeviceScan::InclusiveSum(temp, b, in, out, (int)n);
    } catch (...) {
        return cudaErrorUnknown;
    }
}
