/* Host twins of the CUB algorithms evolve calls (kernels/ga_sort.cu,
 * kernels/grid_topk.cu), with CUB's contract checked: a call with null
 * scratch only reports the bytes it needs; a real call needs at least that
 * much scratch, inside one device allocation (the scratch is clobbered, as
 * CUB clobbers it); inputs and outputs are device memory; radix sorts are
 * stable, merge sort is not (equal keys are shuffled on purpose, by the
 * schedule's draws). The caller's file and line come from __builtin_FILE. */
#ifndef EVOLVE_CUDA_EMU_CUB_H
#define EVOLVE_CUDA_EMU_CUB_H

#include <algorithm>
#include <cstring>
#include <type_traits>
#include <utility>
#include <vector>

namespace emu
{

/* Scratch bytes each algorithm asks for: grows with n, like CUB's. */
inline size_t scratch_bytes(long long n, size_t per_item)
{
    return 1024 + (size_t)(n > 0 ? n : 0) * per_item;
}

/* true when the call is only a size query (and answers it). */
inline bool scratch_ok(const char *call, void *temp, size_t &bytes, size_t need, long long n, const char *file,
                       int line)
{
    if (n < 0)
        fail("%s at %s:%d: %lld items", call, file, line, n);
    if (!temp) {
        bytes = need;
        return false;
    }
    if (bytes < need)
        fail(
            "%s at %s:%d: %zu bytes of scratch, the call needs %zu: ask CUB for the size (null scratch) with this "
            "call's arguments first",
            call, file, line, bytes, need);
    check_device_range(temp, need, call, file, line);
    count_call(Count::cub, file, line, call, 0);
    return true;
}

template <class T> void check_items(const char *call, const T *p, long long n, const char *file, int line)
{
    if (n)
        check_device_range(p, (size_t)n * sizeof(T), call, file, line);
}

template <class K> K radix_bits(K k, int begin_bit, int end_bit)
{
    using U = std::make_unsigned_t<K>;
    U u = (U)k >> begin_bit;
    int w = end_bit - begin_bit;
    return (K)(w >= (int)(8 * sizeof(U)) ? u : u & (U)(((U)1 << w) - 1));
}

template <class K, class V>
cudaError_t radix_sort_pairs(const char *call, bool descending, void *temp, size_t &bytes, const K *kin, K *kout,
                             const V *vin, V *vout, long long n, int begin_bit, int end_bit, const char *file, int line)
{
    static_assert(std::is_integral_v<K>, "the twin sorts integer keys only");
    size_t need = scratch_bytes(n, sizeof(K) + sizeof(V));
    if (!scratch_ok(call, temp, bytes, need, n, file, line))
        return cudaSuccess;
    if (begin_bit < 0 || end_bit > (int)(8 * sizeof(K)) || begin_bit >= end_bit)
        fail("%s at %s:%d: bits [%d, %d) of a %zu-bit key", call, file, line, begin_bit, end_bit, 8 * sizeof(K));
    check_items(call, kin, n, file, line);
    check_items(call, kout, n, file, line);
    check_items(call, vin, n, file, line);
    check_items(call, vout, n, file, line);
    DeviceScope scope{temp, kin, kout, vin, vout};
    std::vector<std::pair<K, V>> items((size_t)n);
    for (long long i = 0; i < n; i++)
        items[(size_t)i] = {kin[i], vin[i]};
    std::stable_sort(items.begin(), items.end(), [&](const auto &a, const auto &b) {
        K x = radix_bits(a.first, begin_bit, end_bit), y = radix_bits(b.first, begin_bit, end_bit);
        return descending ? y < x : x < y;
    });
    memset(temp, POISON, need);
    for (long long i = 0; i < n; i++) {
        kout[i] = items[(size_t)i].first;
        vout[i] = items[(size_t)i].second;
    }
    return cudaSuccess;
}

template <class I, class O, class Op>
cudaError_t inclusive_scan(const char *call, void *temp, size_t &bytes, const I *in, O *out, Op op, long long n,
                           const char *file, int line)
{
    size_t need = scratch_bytes(n / 128 + 1, sizeof(O));
    if (!scratch_ok(call, temp, bytes, need, n, file, line))
        return cudaSuccess;
    check_items(call, in, n, file, line);
    check_items(call, out, n, file, line);
    DeviceScope scope{temp, in, out};
    std::vector<O> acc((size_t)n);
    for (long long i = 0; i < n; i++)
        acc[(size_t)i] = i ? (O)op(acc[(size_t)i - 1], in[i]) : (O)in[i];
    memset(temp, POISON, need);
    std::copy(acc.begin(), acc.end(), out);
    return cudaSuccess;
}

template <class K, class Less>
cudaError_t merge_sort_keys(const char *call, void *temp, size_t &bytes, K *keys, long long n, Less less,
                            const char *file, int line)
{
    size_t need = scratch_bytes(n, sizeof(K));
    if (!scratch_ok(call, temp, bytes, need, n, file, line))
        return cudaSuccess;
    check_items(call, keys, n, file, line);
    DeviceScope scope{temp, keys};
    std::vector<K> v(keys, keys + n);
    std::stable_sort(v.begin(), v.end(), less);
    for (size_t i = 0; i < v.size();) { /* not stable: shuffle each run of equal keys */
        size_t j = i + 1;
        while (j < v.size() && !less(v[i], v[j]) && !less(v[j], v[i]))
            j++;
        for (size_t k = j - i; k > 1; k--)
            std::swap(v[i + k - 1], v[i + schedule_draw() % k]);
        i = j;
    }
    memset(temp, POISON, need);
    std::copy(v.begin(), v.end(), keys);
    return cudaSuccess;
}

} // namespace emu

namespace cub
{

struct DeviceRadixSort {
    template <class K, class V, class N>
    static cudaError_t SortPairs(void *temp, size_t &bytes, const K *kin, K *kout, const V *vin, V *vout, N n,
                                 int begin_bit = 0, int end_bit = sizeof(K) * 8, cudaStream_t = 0,
                                 const char *file = __builtin_FILE(), int line = __builtin_LINE())
    {
        return emu::radix_sort_pairs("cub::DeviceRadixSort::SortPairs", false, temp, bytes, kin, kout, vin, vout,
                                     (long long)n, begin_bit, end_bit, file, line);
    }
    template <class K, class V, class N>
    static cudaError_t SortPairsDescending(void *temp, size_t &bytes, const K *kin, K *kout, const V *vin, V *vout, N n,
                                           int begin_bit = 0, int end_bit = sizeof(K) * 8, cudaStream_t = 0,
                                           const char *file = __builtin_FILE(), int line = __builtin_LINE())
    {
        return emu::radix_sort_pairs("cub::DeviceRadixSort::SortPairsDescending", true, temp, bytes, kin, kout, vin,
                                     vout, (long long)n, begin_bit, end_bit, file, line);
    }
};

struct DeviceScan {
    template <class I, class O, class N>
    static cudaError_t InclusiveSum(void *temp, size_t &bytes, const I *in, O *out, N n, cudaStream_t = 0,
                                    const char *file = __builtin_FILE(), int line = __builtin_LINE())
    {
        return emu::inclusive_scan(
            "cub::DeviceScan::InclusiveSum", temp, bytes, in, out, [](const O &a, const I &b) { return a + b; },
            (long long)n, file, line);
    }
    template <class I, class O, class Op, class N>
    static cudaError_t InclusiveScan(void *temp, size_t &bytes, const I *in, O *out, Op op, N n, cudaStream_t = 0,
                                     const char *file = __builtin_FILE(), int line = __builtin_LINE())
    {
        return emu::inclusive_scan("cub::DeviceScan::InclusiveScan", temp, bytes, in, out, op, (long long)n, file,
                                   line);
    }
};

struct DeviceMergeSort {
    template <class K, class N, class Less>
    static cudaError_t SortKeys(void *temp, size_t &bytes, K *keys, N n, Less less, cudaStream_t = 0,
                                const char *file = __builtin_FILE(), int line = __builtin_LINE())
    {
        return emu::merge_sort_keys("cub::DeviceMergeSort::SortKeys", temp, bytes, keys, (long long)n, less, file,
                                    line);
    }
};

} // namespace cub

#endif
