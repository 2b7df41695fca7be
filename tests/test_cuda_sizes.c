/* The CUDA backend's sizing (kernels/backend_cuda.h) with the numbers of the two
 * target GPUs, on any machine (no device needed): launches stay under the
 * Windows watchdog's budget, batches under a quarter of the free memory,
 * and a lattice too big to enumerate (GA only) does not shrink the GA's
 * fitness launches to 1024 genomes. */
#include <stdio.h>
#include <string.h>

#include "kernels/backend_cuda.h"
#include "tests/check.h"

#define GIB ((uint64_t)1 << 30)

static void test_bound(void)
{
    lattice_t lat;
    memset(&lat, 0, sizeof lat);
    lat.size_fits = 1;
    lat.size = 720;
    CHECK_EQ_I64(1024, cuda_batch_bound(&lat));
    lat.size = 1000000007;
    CHECK_EQ_I64(1000000007, cuda_batch_bound(&lat));
    lat.size_fits = 0; /* 2^63 points or more: size is not valid */
    lat.size = 0;
    CHECK(cuda_batch_bound(&lat) == UINT64_MAX);
}

/* One device and problem: the invariants every plan must keep. */
static void check_plan(const char *what, uint64_t free_bytes, int sms, int64_t trades, int32_t params, uint64_t bound,
                       cuda_eval_sizes_t *s)
{
    cuda_plan_sizes(s, free_bytes, sms, trades, params, bound);
    printf("%s: %llu genomes a launch, %llu a batch, %u top-K candidates\n", what, (unsigned long long)s->launch_max,
           (unsigned long long)s->batch_max, s->topk_cap);
    CHECK(s->launch_max >= 1 && s->launch_max <= s->batch_max);
    CHECK(s->batch_max <= bound);
    CHECK(s->batch_max * (24 + 2 * (uint64_t)params) <= free_bytes / 4);
    /* 1e8 trade evaluations per SM a launch (0.2 s at a pessimistic 5e8/s per
     * SM), unless the 32-genome floor applies */
    CHECK(s->launch_max == 32 || (double)s->launch_max * (double)trades <= 1e8 * sms);
    CHECK(s->topk_cap >= 1024);
}

static void test_plans(void)
{
    lattice_t ga_only;
    cuda_eval_sizes_t s;
    memset(&ga_only, 0, sizeof ga_only);
    /* RTX 4060: 24 SMs, ~7 GiB free; H100: 132 SMs, ~78 GiB free */
    check_plan("4060, 50,000 trades, GA-only lattice", 7 * GIB, 24, 50000, 16, cuda_batch_bound(&ga_only), &s);
    CHECK_EQ_I64(48000, s.launch_max);
    check_plan("H100, 50,000 trades, GA-only lattice", 78 * GIB, 132, 50000, 16, cuda_batch_bound(&ga_only), &s);
    CHECK(s.launch_max >= 260000);
    check_plan("4060, 600 trades, 720 points", 7 * GIB, 24, 600, 5, 1024, &s);
    CHECK_EQ_I64(1024, s.batch_max);
    check_plan("4060, 10 million trades", 7 * GIB, 24, 10000000, 7, UINT64_MAX, &s);
    CHECK_EQ_I64(240, s.launch_max);
    check_plan("4060, 600 trades, 1.2e9 points", 7 * GIB, 24, 600, 7, 1200000000, &s);
    check_plan("a nearly full GPU", 64ull << 20, 24, 600, 7, UINT64_MAX, &s);
}

int main(void)
{
    test_bound();
    test_plans();
    return check_exit();
}
