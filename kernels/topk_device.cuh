/* Exact top-K of device-evaluated genomes, merged into a host topk_t.
 *
 * A selection pass runs over a range of source positions x (genomes of a
 * batch, or dominance cells): every entry the host list's current bar admits
 * (topk_bar_admits: what topk_offer would accept now) is appended to a
 * candidate buffer with an atomic counter. The host reads the count; if the
 * buffer overflowed, the pass is redone on a shorter range (nothing was
 * merged yet, so nothing is offered twice); otherwise grid_topk.cu sorts the
 * candidates by (key desc, index asc), downloads the best min(count, K) and
 * offers them to the host list, which raises the bar for the next pass.
 *
 * Exact: a candidate the bar refuses would be refused by the list later too
 * (the bar only rises), and of a pass's candidates only the best K can enter.
 * Deterministic: the atomics only permute candidates, and the sort order is
 * total because (key, index) is unique. C++ only (a template over sources). */
#ifndef EVOLVE_TOPK_DEVICE_CUH
#define EVOLVE_TOPK_DEVICE_CUH

#include <stdint.h>

#include "fitness/accum.h"
#include "fitness/topk.h"
#include "kernels/cuda_check.h"
#include "kernels/kernel_args.cuh"
#include "kernels/launch.cuh"

/* Candidate buffers of one evaluator. */
typedef struct {
    topk_entry_t *cand;        /* [cap] device: one pass's candidates, unordered */
    unsigned long long *count; /* [1] device: candidates found (may exceed cap) */
    void *sort_temp;           /* CUB merge-sort scratch for cap entries */
    size_t sort_temp_bytes;
    topk_entry_t *host; /* [cap] host: the best of a pass, best first */
    uint32_t cap;
} topk_dev_t;

/* grid_topk.cu (the one file using CUB). */
ev_status topk_dev_init(topk_dev_t *d, uint32_t cap, ev_error *err);
void topk_dev_free(topk_dev_t *d);
/* Sorts the m <= cap candidates of a pass and offers the best min(m, K) to top. */
ev_status topk_dev_merge(topk_dev_t *d, uint32_t m, topk_t *top, ev_error *err);

enum { TOPK_SELECT_THREADS = 256 };

/* Longest pass: a pass evaluates accum_finish (FP64) per position; 2^26 of
 * them stay well under 0.1 s even at a 4060's 1/64-rate FP64. */
#define TOPK_PASS_MOST ((uint64_t)1 << 26)

/* Source concept: `eval_result_t result(uint64_t x) const` and
 * `uint64_t index(uint64_t x) const`, both __device__. */
template <class Source>
__global__ void __launch_bounds__(TOPK_SELECT_THREADS)
    topk_select_kernel(Source src, uint64_t first, uint64_t len, topk_bar_t bar, topk_entry_t *cand,
                       unsigned long long *count, uint32_t cap)
{
    uint64_t step = (uint64_t)gridDim.x * TOPK_SELECT_THREADS;
    for (uint64_t i = (uint64_t)blockIdx.x * TOPK_SELECT_THREADS + threadIdx.x; i < len; i += step) {
        uint64_t x = first + i, key, index;
        unsigned long long slot;
        eval_result_t r = src.result(x);
        key = rank_key(r);
        /* the bar refuses these whatever the index: skip computing it */
        if (key == 0 || bar.closed || (bar.full && key < bar.key))
            continue;
        index = src.index(x);
        if (!topk_bar_admits(&bar, key, index))
            continue;
        slot = atomicAdd(count, 1ull);
        if (slot < cap) {
            cand[slot].key = key;
            cand[slot].index = index;
            cand[slot].r = r;
        }
    }
}

/* Offers the source's positions [0, n) to top, pass by pass. The first pass
 * covers min(n, TOPK_PASS_MOST); each next one twice the last successful one
 * (up to that), and an overflowing pass is redone on a range shrunk by the
 * overflow factor. */
template <class Source>
ev_status topk_dev_offer(topk_dev_t *d, const Source &src, uint64_t n, topk_t *top, ev_error *err)
{
    ev_status st = EV_OK;
    uint64_t at = 0, len = n < TOPK_PASS_MOST ? n : TOPK_PASS_MOST;
    unsigned long long found = 0;
    topk_bar_t bar;
    while (at < n) {
        bar = topk_bar(top);
        if (bar.closed)
            return EV_OK;
        if (len > n - at)
            len = n - at;
        CUDA_TRY(cudaMemset(d->count, 0, sizeof *d->count));
        topk_select_kernel<Source><<<launch_blocks(len, TOPK_SELECT_THREADS), TOPK_SELECT_THREADS>>>(
            src, at, len, bar, d->cand, d->count, d->cap);
        CUDA_TRY_LAUNCH();
        CUDA_TRY(cudaMemcpy(&found, d->count, sizeof found, cudaMemcpyDeviceToHost));
        if (found > d->cap) {
            /* found/cap >= 1, so len at least halves; a 1-long pass finds <= 1 <= cap */
            len = len / (found / d->cap + 1);
            if (len == 0)
                len = 1;
            continue;
        }
        if (found) {
            st = topk_dev_merge(d, (uint32_t)found, top, err);
            if (st != EV_OK)
                return st;
        }
        at += len;
        len = len <= TOPK_PASS_MOST / 2 ? 2 * len : TOPK_PASS_MOST;
    }
    return EV_OK;
fail:
    return st;
}

#endif
