/* Dominance sums on the device (fitness/dominance.h explains the method;
 * fitness/dominance_cell.h holds the geometry shared with the CPU).
 *
 * Per (target, stop) pair and block of cells:
 *   1. zero the block's sums (cudaMemset, per field);
 *   2. bin: one thread per trade adds its outcome (accum_add on a fresh
 *      accumulator) into its cell with 64-bit atomicAdd: integer adds are
 *      exact and commutative, so the sums do not depend on thread order;
 *   3. suffix sums: one launch per free filter axis, one thread per line of
 *      that axis walking it from the top (memory-bound: read + write once);
 *   4. rank: a top-K selection pass (topk_device.cuh) whose source turns a
 *      cell into accum_finish -> rank_key, and into its genome's index.
 * Sums are structure-of-arrays, one uint64 array per field the objective
 * needs (count, sum; + pos; + sumsq lo/hi; + lsum, ruin), so each pass moves
 * 16 to 56 bytes a cell instead of the 88 of an accum_t. A fold statistic
 * (objective.aggregate) keeps one set of sums per fold (dominance_sets): the
 * sets are the block's outermost axis, the suffix pass sweeps each, and the
 * rank step aggregates a cell's sets with dominance_cell_result, as the CPU. */
#include <cstring>

#include "common/progress.h"
#include "fitness/dom_cells.h"
#include "fitness/dominance.h"
#include "fitness/dominance_cell.h"
#include "kernels/mem_retry.h"
#include "kernels/eval_device.cuh"

enum { DOM_THREADS = 256 };

/* Fixed leading genes of a block, by value into kernels. */
typedef struct {
    uint16_t g[EV_MAX_PARAMS];
} dom_lead_t;
KERNEL_ARG_PLAIN(dom_lead_t)

/* cell x += a, atomically per word. The 128-bit add carries exactly: the
 * thread whose low-word add wrapped (old + lo < old) adds the carry to the
 * high word, so the high word receives one carry per wrap, in any order. */
__device__ __forceinline__ unsigned long long *dom_word(uint64_t *field, uint64_t x)
{
    return reinterpret_cast<unsigned long long *>(field + x); /* both 64-bit: atomicAdd's type */
}

__device__ __forceinline__ void dom_atomic_add(const dom_cells_t &c, uint64_t x, const accum_t &a)
{
    atomicAdd(dom_word(c.n, x), (unsigned long long)a.n);
    atomicAdd(dom_word(c.sum, x), (unsigned long long)a.sum);
    if (c.pos)
        atomicAdd(dom_word(c.pos, x), (unsigned long long)a.pos);
    if (c.sq_lo) {
        unsigned long long lo = a.sumsq.lo, old = atomicAdd(dom_word(c.sq_lo, x), lo);
        atomicAdd(dom_word(c.sq_hi, x), (unsigned long long)a.sumsq.hi + (old + lo < old ? 1ull : 0ull));
    }
    if (c.lsum) {
        atomicAdd(dom_word(c.lsum, x), (unsigned long long)a.lsum);
        atomicAdd(dom_word(c.ruin, x), (unsigned long long)a.ruin);
    }
}

/* Step 2: trade j (equity order) into its cell of the block, if it has one,
 * in its fold's sum set. */
__global__ void __launch_bounds__(DOM_THREADS)
    dom_bin_kernel(fit_tables_t t, dom_plan_t plan, dom_lead_t lead, tables_exits_t exits, dom_cells_t c)
{
    uint64_t step = (uint64_t)gridDim.x * DOM_THREADS;
    for (uint64_t j = (uint64_t)blockIdx.x * DOM_THREADS + threadIdx.x; j < (uint64_t)t.n_trades; j += step) {
        uint64_t x;
        int64_t q, lf;
        accum_t a;
        if (!dominance_trade_cell(&plan, lead.g, t.cells + j * (uint64_t)t.n_filters, &x))
            continue;
        tables_outcome(&t, (int64_t)j, &exits, &q, &lf);
        accum_init(&a);
        accum_add(&a, &t.obj, q, lf);
        dom_atomic_add(c, dominance_trade_set(&t, (int64_t)j) * plan.cells + x, a);
    }
}

/* Step 3, one free axis of n values and cell stride `inner`: line L = (o, i)
 * covers cells o * n * inner + x * inner + i, x = 0..n-1; afterwards cell x
 * holds the sum over x..n-1 (accum_merge, as the CPU). Consecutive threads
 * take consecutive i, so loads coalesce whenever inner >= 32. */
__global__ void __launch_bounds__(DOM_THREADS)
    dom_suffix_kernel(dom_cells_t c, uint64_t lines, uint64_t n, uint64_t inner)
{
    uint64_t step = (uint64_t)gridDim.x * DOM_THREADS;
    for (uint64_t line = (uint64_t)blockIdx.x * DOM_THREADS + threadIdx.x; line < lines; line += step) {
        uint64_t o = line / inner, i = line - o * inner, base = o * n * inner + i;
        accum_t acc = dom_cells_load(&c, base + (n - 1) * inner);
        for (uint64_t x = n - 1; x-- > 0;) {
            accum_t cur = dom_cells_load(&c, base + x * inner);
            accum_merge(&cur, &acc);
            dom_cells_store(&c, base + x * inner, &cur);
            acc = cur;
        }
    }
}

/* Step 4: a cell of the block as a top-K source. */
struct dom_source {
    dom_cells_t c;
    fit_tables_t t; /* layout: filter params, mirrors, sizes; the objective */
    dom_plan_t plan;
    dom_lead_t lead;
    dom_lead_t base; /* genes with the pair's target and stop set */
    lattice_shape_t shape;
    __device__ eval_result_t result(uint64_t x) const
    {
        return dominance_cell_result(&t, &c, plan.cells, x);
    }
    __device__ uint64_t index(uint64_t x) const
    {
        uint16_t g[EV_MAX_PARAMS];
        for (int k = 0; k < EV_MAX_PARAMS; k++)
            g[k] = base.g[k];
        dominance_cell_genes(&plan, &t, lead.g, x, g);
        return shape_encode(&shape, g);
    }
};
KERNEL_ARG_POINTERS(dom_source, c, t)

/* Bytes per lattice cell: every field once per sum set. */
extern "C" uint64_t cuda_dominance_cell_bytes(const fit_tables_t *t)
{
    return 8u * dom_cells_words(&t->obj) * (uint64_t)dominance_sets(t);
}

/* Steps 1-3 for one block of one combination of the exits' values. */
static ev_status block_sums(const fit_tables_t *t, const dom_plan_t *plan, const dom_lead_t *lead,
                            const tables_exits_t *exits, unsigned long long *mem, const dom_cells_t *c, ev_error *err)
{
    ev_status st = EV_OK;
    uint64_t sums = plan->cells * (uint64_t)dominance_sets(t);
    CUDA_TRY(cudaMemset(mem, 0, plan->cells * cuda_dominance_cell_bytes(t)));
    if (t->n_trades > 0) {
        dom_bin_kernel<<<launch_blocks((uint64_t)t->n_trades, DOM_THREADS), DOM_THREADS>>>(*t, *plan, *lead, *exits,
                                                                                           *c);
        CUDA_TRY_LAUNCH();
    }
    for (int32_t f = plan->lead; f < t->n_filters; f++) {
        uint64_t n = t->filter_n[f], lines = sums / n;
        if (n < 2)
            continue;
        dom_suffix_kernel<<<launch_blocks(lines, DOM_THREADS), DOM_THREADS>>>(*c, lines, n, plan->stride[f]);
        CUDA_TRY_LAUNCH();
    }
    return EV_OK;
fail:
    return st;
}

extern "C" ev_status cuda_dominance_grid(cuda_eval_t *e, const fit_problem_t *p, uint64_t budget, FILE *progress,
                                         const grid_progress_hook_t *hook, topk_t *top, ev_error *err)
{
    ev_status st = EV_OK;
    const fit_tables_t *t = &e->t->view;
    const uint64_t exit_combos = tables_exit_combos(t);
    uint64_t per = cuda_dominance_cell_bytes(t), done = 0, first = 0;
    unsigned long long *mem = NULL;
    dom_source src;
    progress_t prog;

    if (!dominance_applicable(p))
        return ev_fail(err, EV_EINTERNAL, "dominance sums need an additive objective");
    if (!p->lat->size_fits)
        return ev_fail(err, EV_ECONFIG, "the lattice has more than 2^63 points and cannot be enumerated");
    memset(&src, 0, sizeof src);
    src.t = *t;
    src.shape = e->shape;
    dominance_plan(&src.plan, t, budget, per);
    /* out of memory: smaller blocks (more leading filters fixed), said once;
     * an error only where the smallest block does not fit */
    for (;;) {
        uint64_t cells = src.plan.cells, smaller;
        size_t free_bytes = 0, total_bytes = 0;
        cudaError_t ce = cudaMalloc(&mem, src.plan.cells * per);
        if (ce == cudaSuccess)
            break;
        if (ce != cudaErrorMemoryAllocation) {
            CUDA_TRY(ce);
        }
        (void)cudaGetLastError(); /* not sticky: clear it */
        mem = NULL;
        while ((smaller = mem_retry_smaller(budget, per, per)) != 0) {
            budget = smaller;
            dominance_plan(&src.plan, t, budget, per);
            if (src.plan.cells < cells)
                break;
        }
        if (src.plan.cells >= cells) {
            if (cudaMemGetInfo(&free_bytes, &total_bytes) != cudaSuccess)
                (void)cudaGetLastError();
            return ev_fail(err, EV_ENOMEM,
                           "dominance sums: the smallest block, %llu cells, needs %.1f MiB of device memory and %.1f "
                           "MiB are free: close other programs using the GPU, or use --evaluator tables",
                           (unsigned long long)cells, (double)(cells * per) / 1048576.0,
                           (double)free_bytes / 1048576.0);
        }
        mem_retry_note("dominance blocks (cells)", cells, src.plan.cells);
    }
    dom_cells_bind(&src.c, reinterpret_cast<uint64_t *>(mem), src.plan.cells * (uint64_t)dominance_sets(t), &t->obj);
    st = dominance_first_block(&src.plan, exit_combos, hook ? hook->start : 0, &first, err);
    progress_start(&prog, progress, "grid (dominance sums, cuda)", "points", p->lat->size);
    progress_from(&prog, done = first * src.plan.cells);
    /* every combination of the exits' values (target, stop, SPEC sec. 4.1's),
     * then the blocks of the fixed leading filters */
    for (uint64_t blk = first; blk < exit_combos * src.plan.combos && st == EV_OK; blk++) {
        const tables_exits_t exits = tables_exit_combo(t, blk / src.plan.combos);
        dominance_lead_decode(&src.plan, t, blk % src.plan.combos, src.lead.g);
        tables_exit_genes(t, &exits, src.base.g);
        st = block_sums(t, &src.plan, &src.lead, &exits, mem, &src.c, err);
        if (st == EV_OK)
            st = topk_dev_offer(&e->topk, src, src.plan.cells, top, err);
        if (st == EV_OK)
            st = grid_pass_step(hook, &prog, done += src.plan.cells, p->lat->size, err);
    }
    progress_finish(&prog, done);
    cudaFree(mem);
    return st;
fail:
    if (st == EV_ENOMEM)
        ev_error_prefix(err,
                        "dominance sums: a block of %llu cells needs %.1f MiB of device memory (lower "
                        "grid.dominance_budget, or free the GPU): ",
                        (unsigned long long)src.plan.cells, (double)(src.plan.cells * per) / 1048576.0);
    return st;
}
