/* The tables evaluator on the device. Without fold statistics a warp shares
 * one genome: lane l walks the l-th of 32 contiguous slices of the trades
 * (equity order) into a joinable accumulator (fitness/accum_seg.h), and the
 * lanes join in slice order by shuffles, so the sums, the drawdown included,
 * are accum_add's sequential ones bit for bit; lane 0 finishes. A genome then
 * costs 1/32 of a trade walk in latency, which is what bounded a generation
 * (one thread walking 50,000 trades: ~25 ms on an H100, bench/RESULTS.md).
 * With fold statistics (16 accumulators a genome) each thread keeps its own
 * genome and walks every trade (tables_eval_folds).
 *
 * Two entry points: genomes as host SoA genes (GA populations) and lattice
 * ranges [first, first + count) decoded from their 64-bit linear index
 * (grid), whose results go through the device top-K (topk_device.cuh).
 * Genes (host or the device GA's) go first through the bit-sliced evaluator
 * when it has planes (slices_device.cuh), which takes the genomes it pays
 * for and leaves the rest to the walk here. */
#include <cstdlib>
#include <cstring>

#include "kernels/eval_device.cuh"
#include "kernels/mem_retry.h"
#include "kernels/slices_device.cuh"

enum { FIT_THREADS = 128, FIT_WARP = 32 };
static_assert(FIT_THREADS % FIT_WARP == 0, "a block holds whole warps: a warp's genome is one");

/* Largest launch: keeps gridDim.x = launch * lanes / FIT_THREADS far below 2^31 - 1. */
#define FIT_LAUNCH_MOST ((uint64_t)1 << 30)

/* Threads per genome for these tables: a warp, or one with fold statistics. */
static __host__ __device__ uint32_t fit_lanes(const fit_tables_t &t)
{
    return t.agg == AGG_ALL ? (uint32_t)FIT_WARP : 1u;
}

static __device__ void shfl_down_i64(int64_t *x, unsigned by)
{
    *x = (int64_t)__shfl_down_sync(0xFFFFFFFFu, (long long)*x, by);
}

/* Only the sums the objective reads travel (o's flags are the same in every
 * lane, so every lane shuffles the same fields). */
static __device__ void shfl_down_seg(accum_seg_t *s, const objective_prep_t *o, unsigned by)
{
    shfl_down_i64(&s->a.n, by);
    shfl_down_i64(&s->a.sum, by);
    if (o->need_pos)
        shfl_down_i64(&s->a.pos, by);
    if (o->need_sumsq) {
        int64_t lo = (int64_t)s->a.sumsq.lo, hi = (int64_t)s->a.sumsq.hi;
        shfl_down_i64(&lo, by);
        shfl_down_i64(&hi, by);
        s->a.sumsq.lo = (uint64_t)lo;
        s->a.sumsq.hi = (uint64_t)hi;
    }
    if (o->need_log) {
        shfl_down_i64(&s->a.lsum, by);
        shfl_down_i64(&s->a.ruin, by);
    }
    if (o->need_dd) {
        shfl_down_i64(&s->a.equity, by);
        shfl_down_i64(&s->a.peak, by);
        shfl_down_i64(&s->a.maxdd, by);
        shfl_down_i64(&s->trough, by);
    }
}

/* Genome `genes` by the whole warp (every lane calls it with the same genes);
 * the result is lane 0's. */
static __device__ eval_result_t tables_eval_warp(const fit_tables_t *t, const uint16_t *genes)
{
    const unsigned lane = threadIdx.x & (FIT_WARP - 1u);
    tables_genome_t g;
    accum_seg_t s, next;
    int64_t j0, j1;
    tables_genome(t, genes, &g);
    accum_seg_init(&s);
    accum_seg_slice(t->n_trades, lane, FIT_WARP, &j0, &j1);
    tables_accum_range(t, &g, j0, j1, &s);
    /* a tree in slice order: at step `by`, lane l (a multiple of 2 by) holds
     * slices [l, l + by) and joins lane l + by's [l + by, l + 2 by) */
    for (unsigned by = 1; by < FIT_WARP; by *= 2) {
        next = s;
        shfl_down_seg(&next, &t->obj, by);
        if ((lane & (2 * by - 1)) == 0)
            accum_seg_join(&s, &next, &t->obj);
    }
    return accum_finish(&s.a, &t->obj);
}

/* Genome i of [0, count) and whether this thread writes its result: a warp's
 * genome (lane 0 writes) or the thread's own. The whole warp leaves together
 * (i is the same for all its lanes), so the shuffles see every lane. */
static __device__ bool fit_genome(const fit_tables_t &t, uint64_t count, uint64_t *i, bool *writes)
{
    const uint64_t tid = (uint64_t)blockIdx.x * FIT_THREADS + threadIdx.x, lanes = fit_lanes(t);
    *i = tid / lanes;
    *writes = tid % lanes == 0;
    return *i < count;
}

static __device__ eval_result_t fit_eval(const fit_tables_t *t, const uint16_t *g)
{
    return t->agg == AGG_ALL ? tables_eval_warp(t, g) : tables_eval_folds(t, g);
}

/* Genome i of [0, count): gene k is genes[k * stride + i]; out[i]. */
__global__ void __launch_bounds__(FIT_THREADS)
    fitness_genes_kernel(fit_tables_t t, const uint16_t *genes, uint64_t stride, int32_t n_params, uint64_t count,
                         eval_result_t *out)
{
    uint64_t i;
    bool writes;
    uint16_t g[EV_MAX_PARAMS];
    eval_result_t r;
    if (!fit_genome(t, count, &i, &writes))
        return;
    for (int32_t k = 0; k < n_params; k++)
        g[k] = genes[(uint64_t)k * stride + i];
    r = fit_eval(&t, g);
    if (writes)
        out[i] = r;
}

/* Lattice point first + i for i in [0, count); out[i]. */
__global__ void __launch_bounds__(FIT_THREADS)
    fitness_lattice_kernel(fit_tables_t t, lattice_shape_t shape, uint64_t first, uint64_t count, eval_result_t *out)
{
    uint64_t i;
    bool writes;
    uint16_t g[EV_MAX_PARAMS];
    eval_result_t r;
    if (!fit_genome(t, count, &i, &writes))
        return;
    shape_decode(&shape, first + i, g);
    r = fit_eval(&t, g);
    if (writes)
        out[i] = r;
}

/* Blocks for `count` genomes of these tables (count <= FIT_LAUNCH_MOST). */
static unsigned fit_blocks(const fit_tables_t &t, uint64_t count)
{
    return (unsigned)((count * fit_lanes(t) + FIT_THREADS - 1) / FIT_THREADS);
}

/* A grid batch as a top-K source: result x of the batch is lattice point first + x. */
struct lattice_source {
    const eval_result_t *results;
    uint64_t first;
    __device__ eval_result_t result(uint64_t x) const
    {
        return results[x];
    }
    __device__ uint64_t index(uint64_t x) const
    {
        return first + x;
    }
};
KERNEL_ARG_POINTERS(lattice_source, results)

extern "C" ev_status cuda_eval_open(cuda_eval_t **out, const cuda_tables_t *t, const lattice_shape_t *shape,
                                    const cuda_eval_sizes_t *sizes, ev_error *err)
{
    ev_status st = EV_OK;
    cuda_eval_t *e;
    *out = NULL;
    e = (cuda_eval_t *)calloc(1, sizeof *e);
    if (!e)
        return ev_fail(err, EV_ENOMEM, "out of host memory");
    e->t = t;
    e->shape = *shape;
    e->sizes = *sizes;
    if (e->sizes.batch_max == 0)
        e->sizes.batch_max = 1;
    if (e->sizes.launch_max == 0)
        e->sizes.launch_max = 1;
    if (e->sizes.launch_max > FIT_LAUNCH_MOST)
        e->sizes.launch_max = FIT_LAUNCH_MOST;
    if (e->sizes.launch_max > e->sizes.batch_max)
        e->sizes.launch_max = e->sizes.batch_max;
    /* out of memory: fewer candidates a selection pass (passes get shorter,
     * the top-K is the same), down to 1,024, said once */
    for (uint32_t first = e->sizes.topk_cap;;) {
        uint64_t next;
        st = topk_dev_init(&e->topk, e->sizes.topk_cap, err); /* says itself what failed */
        if (st != EV_ENOMEM || (next = mem_retry_smaller(e->sizes.topk_cap, 1024, 1)) == 0)
            break;
        (void)cudaGetLastError(); /* an allocation failure is not sticky: clear it */
        e->sizes.topk_cap = (uint32_t)next;
        mem_retry_note("top-K candidates a pass", first, next);
    }
    if (st != EV_OK) {
        cuda_eval_close(e);
        return st;
    }
    *out = e;
    return EV_OK;
}

/* The smallest genome batch worth retrying at after out of memory: one
 * warp-aligned block of launches (every result is the same at any size). */
#define BATCH_FLOOR ((uint64_t)1024)

/* The batch buffers (results, genes), allocated on first use: they may take
 * a quarter of the free memory, and the device GA, which evaluates its new
 * genomes in its own arrays (cuda_eval_device_genes), never needs them.
 * Out of memory (something else took it since open) halves the batch and
 * retries (kernels/mem_retry.h), said once; only a failure at BATCH_FLOOR
 * genomes is an error, naming the need and the free memory. */
static ev_status batch_buffers(cuda_eval_t *e, ev_error *err)
{
    ev_status st = EV_OK;
    uint64_t np = (uint64_t)(e->shape.n_params > 0 ? e->shape.n_params : 1), first = e->sizes.batch_max;
    if (e->results)
        return EV_OK;
    for (;;) {
        void *results = NULL, *genes = NULL;
        uint64_t next;
        size_t free_bytes = 0, total_bytes = 0;
        cudaError_t ce = cudaMalloc(&results, e->sizes.batch_max * sizeof *e->results);
        if (ce == cudaSuccess)
            ce = cudaMalloc(&genes, e->sizes.batch_max * np * sizeof *e->genes);
        if (ce == cudaSuccess) {
            e->results = (eval_result_t *)results; /* both or neither */
            e->genes = (uint16_t *)genes;
            if (e->sizes.batch_max < first)
                mem_retry_note("genome batches", first, e->sizes.batch_max);
            return EV_OK;
        }
        if (results)
            cudaFree(results);
        if (ce != cudaErrorMemoryAllocation) {
            CUDA_TRY(ce); /* names the statement; goes to fail */
        }
        (void)cudaGetLastError(); /* an allocation failure is not sticky: clear it */
        next = mem_retry_smaller(e->sizes.batch_max, BATCH_FLOOR, 32);
        if (next == 0) {
            if (cudaMemGetInfo(&free_bytes, &total_bytes) != cudaSuccess)
                (void)cudaGetLastError();
            return ev_fail(err, EV_ENOMEM,
                           "genome batches do not fit in device memory even at %llu genomes (%.1f MiB needed, %.1f "
                           "MiB free of %.1f MiB): close other programs using the GPU, or run with --backend cpu",
                           (unsigned long long)e->sizes.batch_max,
                           (double)(e->sizes.batch_max * (sizeof(eval_result_t) + np * 2)) / 1048576.0,
                           (double)free_bytes / 1048576.0, (double)total_bytes / 1048576.0);
        }
        e->sizes.batch_max = next;
        if (e->sizes.launch_max > next)
            e->sizes.launch_max = next;
    }
fail:
    return st;
}

extern "C" ev_status cuda_eval_time_launch(cuda_eval_t *e, uint64_t count, double *seconds, ev_error *err)
{
    ev_status st = EV_OK;
    cudaEvent_t t0 = NULL, t1 = NULL;
    float ms = 0.0f;
    *seconds = 0.0;
    if (count == 0)
        return EV_OK;
    if (count > e->sizes.launch_max)
        count = e->sizes.launch_max;
    if ((st = batch_buffers(e, err)) != EV_OK)
        return st;
    if (count > e->sizes.launch_max) /* the batch may have shrunk */
        count = e->sizes.launch_max;
    CUDA_TRY(cudaEventCreate(&t0));
    CUDA_TRY(cudaEventCreate(&t1));
    CUDA_TRY(cudaEventRecord(t0));
    fitness_lattice_kernel<<<fit_blocks(e->t->view, count), FIT_THREADS>>>(e->t->view, e->shape, 0, count, e->results);
    CUDA_TRY_LAUNCH();
    CUDA_TRY(cudaEventRecord(t1));
    CUDA_TRY(cudaEventSynchronize(t1));
    CUDA_TRY(cudaEventElapsedTime(&ms, t0, t1));
    *seconds = (double)ms / 1e3;
fail:
    if (t0)
        cudaEventDestroy(t0);
    if (t1)
        cudaEventDestroy(t1);
    return st;
}

extern "C" cuda_eval_sizes_t cuda_eval_sizes(const cuda_eval_t *e)
{
    return e->sizes;
}

extern "C" void cuda_eval_trim(cuda_eval_t *e)
{
    if (!e)
        return;
    /* errors here (a dead context) leave nothing to undo */
    if (e->results)
        cudaFree(e->results);
    if (e->genes)
        cudaFree(e->genes);
    e->results = NULL;
    e->genes = NULL;
    if (e->sl)
        slices_dev_scratch_free(e->sl);
}

extern "C" void cuda_eval_close(cuda_eval_t *e)
{
    if (!e)
        return;
    cuda_eval_trim(e);
    slices_dev_free(e->sl);
    topk_dev_free(&e->topk);
    free(e);
}

extern "C" ev_status cuda_eval_genes(cuda_eval_t *e, const uint16_t *genes, uint64_t n, eval_result_t *out,
                                     ev_error *err)
{
    ev_status st = EV_OK;
    int32_t np = e->shape.n_params;
    uint64_t c;
    if (n && (st = batch_buffers(e, err)) != EV_OK)
        return st;
    for (uint64_t i0 = 0; i0 < n; i0 += c) {
        c = n - i0 < e->sizes.batch_max ? n - i0 : e->sizes.batch_max;
        /* row k of the batch: genes[k * n + i0 .. + c) -> e->genes[k * c ..]; a
         * batch of all n genomes is the rows as they lie: one copy */
        if (c == n)
            CUDA_TRY(cudaMemcpy(e->genes, genes, (uint64_t)np * n * sizeof *genes, cudaMemcpyHostToDevice));
        for (int32_t k = 0; c < n && k < np; k++)
            CUDA_TRY(cudaMemcpy(e->genes + (uint64_t)k * c, genes + (uint64_t)k * n + i0, c * sizeof *genes,
                                cudaMemcpyHostToDevice));
        if ((st = cuda_eval_device_genes(e, e->genes, c, c, e->results, err)) != EV_OK)
            return st;
        /* synchronous: also reports any fault of the launches above */
        CUDA_TRY(cudaMemcpy(out + i0, e->results, c * sizeof *out, cudaMemcpyDeviceToHost));
    }
    return EV_OK;
fail:
    return st;
}

/* The walk (fitness_genes_kernel) on n device genomes, launch by launch. */
static ev_status walk_genes(cuda_eval_t *e, const uint16_t *genes, uint64_t stride, uint64_t n, eval_result_t *out,
                            ev_error *err)
{
    ev_status st = EV_OK;
    for (uint64_t l0 = 0; l0 < n; l0 += e->sizes.launch_max) {
        uint64_t l = n - l0 < e->sizes.launch_max ? n - l0 : e->sizes.launch_max;
        fitness_genes_kernel<<<fit_blocks(e->t->view, l), FIT_THREADS>>>(e->t->view, genes + l0, stride,
                                                                         e->shape.n_params, l, out + l0);
        CUDA_TRY_LAUNCH();
    }
    return EV_OK;
fail:
    return st;
}

/* With the bit planes (kernels/slices_device.cuh): the batch split into the
 * sliced genomes, sorted by exit combination, and those that walk; each
 * part in launches of launch_max, the results scattered back. */
ev_status cuda_eval_device_genes(cuda_eval_t *e, const uint16_t *genes, uint64_t stride, uint64_t n, eval_result_t *out,
                                 ev_error *err)
{
    ev_status st;
    int split = 0;
    uint64_t n_sl = 0;
    if (e->sl &&
        (st = slices_dev_split(e->sl, e->t->view, genes, stride, e->shape.n_params, n, &split, &n_sl, err)) != EV_OK)
        return st;
    if (!split)
        return walk_genes(e, genes, stride, n, out, err);
    for (uint64_t l0 = 0; l0 < n_sl; l0 += e->sizes.launch_max) {
        uint64_t l = n_sl - l0 < e->sizes.launch_max ? n_sl - l0 : e->sizes.launch_max;
        if ((st = slices_dev_eval(e->sl, e->t->view, e->shape.n_params, n, l0, l, err)) != EV_OK)
            return st;
    }
    if ((st = walk_genes(e, e->sl->genes + n_sl, n, n - n_sl, e->sl->res + n_sl, err)) != EV_OK)
        return st;
    return slices_dev_scatter(e->sl, n, out, err);
}

extern "C" ev_status cuda_eval_grid(cuda_eval_t *e, uint64_t first, uint64_t count, topk_t *top, ev_error *err)
{
    ev_status st = EV_OK;
    uint64_t c;
    lattice_source src;
    if (count && (st = batch_buffers(e, err)) != EV_OK)
        return st;
    for (uint64_t b0 = 0; b0 < count; b0 += c) {
        c = count - b0 < e->sizes.batch_max ? count - b0 : e->sizes.batch_max;
        for (uint64_t l0 = 0; l0 < c; l0 += e->sizes.launch_max) {
            uint64_t l = c - l0 < e->sizes.launch_max ? c - l0 : e->sizes.launch_max;
            fitness_lattice_kernel<<<fit_blocks(e->t->view, l), FIT_THREADS>>>(e->t->view, e->shape, first + b0 + l0, l,
                                                                               e->results + l0);
            CUDA_TRY_LAUNCH();
        }
        src.results = e->results;
        src.first = first + b0;
        st = topk_dev_offer(&e->topk, src, c, top, err); /* same stream: runs after the launches */
        if (st != EV_OK)
            return st;
    }
    return EV_OK;
fail:
    return st;
}
