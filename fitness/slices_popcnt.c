#include "fitness/slices_popcnt.h"

#include <stdlib.h>
#include <string.h>

#include "fitness/slices.h"

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#define SLICES_X86 1
#include <immintrin.h>
#else
#define SLICES_X86 0
#endif

static uint64_t and_count_plain(const uint64_t *a, const uint64_t *b, int64_t n)
{
    uint64_t c = 0;
    for (int64_t i = 0; i < n; i++)
        c += slices_popc64(a[i] & b[i]);
    return c;
}

#if SLICES_X86
__attribute__((target("popcnt"))) static uint64_t and_count_popcnt(const uint64_t *a, const uint64_t *b, int64_t n)
{
    uint64_t c0 = 0, c1 = 0;
    int64_t i = 0;
    for (; i + 2 <= n; i += 2) { /* two chains: POPCNT's latency is hidden */
        c0 += (uint64_t)__builtin_popcountll(a[i] & b[i]);
        c1 += (uint64_t)__builtin_popcountll(a[i + 1] & b[i + 1]);
    }
    if (i < n)
        c0 += (uint64_t)__builtin_popcountll(a[i] & b[i]);
    return c0 + c1;
}

/* Mula's AVX2 popcount: each byte's two nibbles looked up, byte sums
 * gathered into 64-bit lanes by SAD every 31 rounds (31 * 8 < 256). */
__attribute__((target("avx2"))) static uint64_t and_count_avx2(const uint64_t *a, const uint64_t *b, int64_t n)
{
    const __m256i lut = _mm256_setr_epi8(0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, 0, 1, 1, 2, 1, 2, 2, 3, 1, 2,
                                         2, 3, 2, 3, 3, 4);
    const __m256i low = _mm256_set1_epi8(0x0f);
    __m256i acc = _mm256_setzero_si256();
    uint64_t lanes[4];
    int64_t i = 0;
    while (i + 4 <= n) {
        __m256i bytes = _mm256_setzero_si256();
        for (int r = 0; r < 31 && i + 4 <= n; r++, i += 4) {
            const __m256i v = _mm256_and_si256(_mm256_loadu_si256((const __m256i *)(const void *)(a + i)),
                                               _mm256_loadu_si256((const __m256i *)(const void *)(b + i)));
            const __m256i lo = _mm256_shuffle_epi8(lut, _mm256_and_si256(v, low));
            const __m256i hi = _mm256_shuffle_epi8(lut, _mm256_and_si256(_mm256_srli_epi16(v, 4), low));
            bytes = _mm256_add_epi8(bytes, _mm256_add_epi8(lo, hi));
        }
        acc = _mm256_add_epi64(acc, _mm256_sad_epu8(bytes, _mm256_setzero_si256()));
    }
    _mm256_storeu_si256((__m256i *)(void *)lanes, acc);
    return lanes[0] + lanes[1] + lanes[2] + lanes[3] + and_count_plain(a + i, b + i, n - i);
}

__attribute__((target("avx512f,avx512vpopcntdq"))) static uint64_t and_count_avx512(const uint64_t *a,
                                                                                    const uint64_t *b, int64_t n)
{
    __m512i acc = _mm512_setzero_si512();
    int64_t i = 0;
    for (; i + 8 <= n; i += 8)
        acc = _mm512_add_epi64(acc, _mm512_popcnt_epi64(_mm512_and_si512(_mm512_loadu_si512((const void *)(a + i)),
                                                                         _mm512_loadu_si512((const void *)(b + i)))));
    if (i < n) {
        const __mmask8 m = (__mmask8)((1u << (n - i)) - 1u);
        acc = _mm512_add_epi64(acc, _mm512_popcnt_epi64(_mm512_and_si512(_mm512_maskz_loadu_epi64(m, a + i),
                                                                         _mm512_maskz_loadu_epi64(m, b + i))));
    }
    return (uint64_t)_mm512_reduce_add_epi64(acc);
}
#endif

int slices_kernel_available(slices_kernel k)
{
    switch (k) {
    case SLICES_KERNEL_PLAIN: return 1;
#if SLICES_X86
    case SLICES_KERNEL_POPCNT: return __builtin_cpu_supports("popcnt") != 0;
    case SLICES_KERNEL_AVX2: return __builtin_cpu_supports("avx2") != 0;
    case SLICES_KERNEL_AVX512:
        return __builtin_cpu_supports("avx512f") != 0 && __builtin_cpu_supports("avx512vpopcntdq") != 0;
#endif
    default: return 0;
    }
}

slices_kernel slices_kernel_best(void)
{
    int k = SLICES_KERNELS - 1;
    while (k > SLICES_KERNEL_PLAIN && !slices_kernel_available((slices_kernel)k))
        k--;
    return (slices_kernel)k;
}

const char *slices_kernel_name(slices_kernel k)
{
    static const char *names[SLICES_KERNELS] = {"plain", "popcnt", "avx2", "avx512-vpopcntdq"};
    return (unsigned)k < SLICES_KERNELS ? names[k] : "?";
}

ev_status slices_kernel_from_env(slices_kernel *k, ev_error *err)
{
    const char *v = getenv(SLICES_KERNEL_ENV);
    *k = slices_kernel_best();
    if (!v || !*v)
        return EV_OK;
    for (int i = 0; i < SLICES_KERNELS; i++)
        if (strcmp(v, slices_kernel_name((slices_kernel)i)) == 0) {
            if (!slices_kernel_available((slices_kernel)i))
                return ev_fail(err, EV_EUSAGE, "environment variable %s is \"%s\": this CPU cannot run it (best: %s)",
                               SLICES_KERNEL_ENV, v, slices_kernel_name(*k));
            *k = (slices_kernel)i;
            return EV_OK;
        }
    return ev_fail(err, EV_EUSAGE,
                   "environment variable %s is \"%s\": expected plain, popcnt, avx2 or avx512-vpopcntdq",
                   SLICES_KERNEL_ENV, v);
}

static uint64_t and_count(slices_kernel kern, const uint64_t *a, const uint64_t *b, int64_t n)
{
    switch (kern) {
#if SLICES_X86
    case SLICES_KERNEL_POPCNT: return and_count_popcnt(a, b, n);
    case SLICES_KERNEL_AVX2: return and_count_avx2(a, b, n);
    case SLICES_KERNEL_AVX512: return and_count_avx512(a, b, n);
#endif
    default: return and_count_plain(a, b, n);
    }
}

void slices_counts(slices_kernel kern, const uint64_t *k, const uint64_t *planes, int64_t nw, int32_t n_planes,
                   uint64_t *cnt)
{
    for (int32_t p = 0; p < n_planes; p++)
        cnt[p] += and_count(kern, k, planes + (int64_t)p * nw, nw);
}

uint64_t slices_and_count(const uint64_t *a, const uint64_t *b, int64_t nw, uint64_t *out)
{
    uint64_t c = 0;
    for (int64_t w = 0; w < nw; w++) {
        out[w] = a[w] & b[w];
        c += slices_popc64(out[w]);
    }
    return c;
}

uint64_t slices_count(slices_kernel kern, const uint64_t *k, int64_t nw)
{
    return and_count(kern, k, k, nw);
}
