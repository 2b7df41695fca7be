/* The CUDA backend: the vtable of ga/backend.h over the kernels' C API
 * (kernels/cuda_api.h). Compiled only when CUDA is built.
 *
 * Sizing (why the numbers):
 *  - A fitness launch costs genomes x trades "trade evaluations" of ~20-60
 *    integer instructions each (filters, hit lookups, 64/128-bit adds).
 *    Both target GPUs have 64 INT32 lanes per SM; an RTX 4060 (24 SMs,
 *    ~2.5 GHz) peaks near 4e9 evaluations/s per SM, and a pessimistic
 *    sustained rate (sharpe's 128-bit products, 16 filters, divergence) is
 *    5e8/s per SM. A launch gets EVALS_PER_SM_LAUNCH = 1e8 evaluations per SM:
 *    2.4e9 on a 4060, 0.2 s at the pessimistic rate (10x under the 2 s
 *    Windows watchdog), ~50 ms typically; 1.3e10 on an H100 (132 SMs), a full
 *    wave of ~260,000 genomes at 50,000 trades.
 *  - A grid batch is BATCH_LAUNCHES launches (progress and Ctrl-C are
 *    answered between batches, well under 2 s), at most a quarter of the
 *    free device memory (24 B of results + 2 B per gene per genome), at
 *    most 2^26 genomes and at most the lattice.
 *  - Top-K selection gathers up to TOPK_CAP candidates per pass (40 B each,
 *    twice, plus sort scratch: ~120 MiB), less on a small free memory.
 *  - Dominance blocks get grid.dominance_budget bytes, or half the free
 *    memory when it is 0.
 *  - The GA ops keep the population and the dedup cache on the device
 *    (kernels/ga_*.cu); new genomes are evaluated through this backend's
 *    evaluator in launches of launch_max genomes. cuda_ga_open checks the
 *    free memory itself. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ga/backend.h"
#include "ga/backend_twin.h"
#include "kernels/backend_cuda.h"
#include "kernels/cuda_api.h"

#define EVALS_PER_SM_LAUNCH 1e8
#define BATCH_LAUNCHES 8
#define BATCH_MOST ((uint64_t)1 << 26)
#define TOPK_CAP ((uint32_t)1 << 20)
#define TOPK_BYTES_PER_CAND 128 /* 2 x 40 B device + sort scratch, rounded up */

struct backend {
    const fit_problem_t *p;
    cuda_tables_t *t;
    cuda_eval_t *e;
    cuda_eval_sizes_t sizes;
    const fit_tables_t *host; /* the host tables open was given (local search sweeps them) */
    char desc[512];
    /* Tests only (bench/gpu-check.sh, tests/test_gpu_probe.py --cuda): with
     * EVOLVE_TEST_CUDA_CORRUPT=FIELD[:N] every host-genes evaluate gets one
     * result wrong (ga/backend_twin.h), so the GPU probe must stop the run. */
    const char *corrupt;
    char planes[128]; /* the bit planes on the device, for the description ("" without) */
};

/* The bit planes (kernels/cuda_api.h, cuda_eval_slices) may take this share
 * of the free device memory: beside the batches' quarter and the GA's own
 * sizing, which counts them as taken. */
#define SLICES_SHARE 4

/* The bit-sliced evaluator, as EVOLVE_EVALUATOR says (auto when unset). When
 * some exit combinations' planes do not fit, one line says so: those walk,
 * with the same results, slower. */
static ev_status open_slices(backend_t *b, uint64_t budget, ev_error *err)
{
    cuda_slices_info_t info;
    slices_mode mode;
    ev_status st = slices_mode_from_env(&mode, err);
    if (st == EV_OK)
        st = cuda_eval_slices(b->e, b->host, mode, budget, &info, err);
    if (st != EV_OK)
        return st;
    if (info.walk_why)
        fprintf(stderr,
                "cuda backend: bit planes for %llu of %llu exit combinations (%s; allowed: %.1f MiB, a quarter of the "
                "free device memory); the others take the walk, with the same results\n",
                (unsigned long long)info.combos, (unsigned long long)info.n_combos, info.walk_why,
                (double)info.max_bytes / 1048576.0);
    if (info.combos)
        snprintf(b->planes, sizeof b->planes, "; bit planes of %llu exit combination%s (%.1f MiB)",
                 (unsigned long long)info.combos, info.combos == 1 ? "" : "s", (double)info.bytes / 1048576.0);
    return EV_OK;
}

uint64_t cuda_batch_bound(const lattice_t *lat)
{
    /* not 1024 for a lattice too big to enumerate: the GA's launches of new
     * genomes (launch_max <= batch_max) would use a sliver of the GPU */
    if (!lat->size_fits)
        return UINT64_MAX;
    return lat->size > 1024 ? lat->size : 1024;
}

/* A batch never exceeds the lattice (size_max): a small problem gets small
 * buffers; larger GA populations are evaluated in batches. */
void cuda_plan_sizes(cuda_eval_sizes_t *s, uint64_t free_bytes, int sms, int64_t n_trades, int32_t n_params,
                     uint64_t size_max)
{
    double per_launch = EVALS_PER_SM_LAUNCH * (double)(sms > 0 ? sms : 1);
    double trades = (double)(n_trades > 0 ? n_trades : 1);
    double launch = per_launch / trades;
    uint64_t mem_batch = free_bytes / 4 / (sizeof(eval_result_t) + 2u * (uint64_t)(n_params > 0 ? n_params : 1));
    uint64_t topk_mem = free_bytes / 16 / TOPK_BYTES_PER_CAND;

    s->launch_max = launch < 32.0 ? 32 : launch > (double)BATCH_MOST ? BATCH_MOST : (uint64_t)launch;
    s->batch_max = s->launch_max * BATCH_LAUNCHES;
    if (s->batch_max > BATCH_MOST)
        s->batch_max = BATCH_MOST;
    if (s->batch_max > size_max)
        s->batch_max = size_max;
    if (s->batch_max > mem_batch)
        s->batch_max = mem_batch > 0 ? mem_batch : 1;
    if (s->launch_max > s->batch_max)
        s->launch_max = s->batch_max;
    s->topk_cap = topk_mem < TOPK_CAP ? (uint32_t)(topk_mem > 1024 ? topk_mem : 1024) : TOPK_CAP;
}

static void cuda_close(backend_t *b)
{
    if (!b)
        return;
    cuda_eval_close(b->e);
    cuda_tables_free(b->t);
    free(b);
}

static ev_status cuda_open(backend_t **out, const fit_problem_t *p, const tables_host_t *tables, ev_error *err)
{
    backend_t *b;
    ev_status st;
    uint64_t free_bytes = 0, total_bytes = 0;
    int sms = 0;
    const char *origin = "built on the device";
    char dev[256];

    *out = NULL;
    if (cuda_device_unavailable(dev, sizeof dev))
        return ev_fail(err, EV_ENODEV, "the cuda backend needs a CUDA device: %s", dev);
    b = (backend_t *)calloc(1, sizeof *b);
    if (!b)
        return ev_fail(err, EV_ENOMEM, "out of memory");
    b->host = &tables->view;
    b->p = p;
    b->corrupt = getenv("EVOLVE_TEST_CUDA_CORRUPT");
    /* the device builds the target and stop tables; SPEC sec. 4.1's exits are
     * built on the host (fitness/more_exits.h) and uploaded with the rest */
    if (tables->view.more_exits) {
        origin = "uploaded from the host";
        st = cuda_tables_upload(&b->t, tables, err);
    } else {
        st = cuda_tables_build(&b->t, p, tables->cells, err);
    }
    if (st == EV_ENOMEM && !tables->view.more_exits) {
        /* the prices did not fit beside the tables: the host built them too */
        origin = "uploaded from the host";
        st = cuda_tables_upload(&b->t, tables, err);
    }
    if (st == EV_OK)
        st = cuda_device_memory(&free_bytes, &total_bytes, &sms, err);
    if (st == EV_OK) {
        cuda_plan_sizes(&b->sizes, free_bytes, sms, p->ds->n_trades, p->shape.n_params, cuda_batch_bound(p->lat));
        st = cuda_eval_open(&b->e, b->t, &p->shape, &b->sizes, err);
    }
    if (st == EV_OK)
        st = open_slices(b, free_bytes / SLICES_SHARE, err);
    if (st == EV_OK)
        st = cuda_device_describe(dev, sizeof dev, err);
    if (st != EV_OK) {
        ev_error_prefix(err, "cuda backend: ");
        cuda_close(b);
        return st;
    }
    snprintf(b->desc, sizeof b->desc, "%s; tables %s (%.1f MiB); %llu genomes a launch, %llu a batch%s", dev, origin,
             (double)cuda_tables_bytes(b->t) / 1048576.0, (unsigned long long)b->sizes.launch_max,
             (unsigned long long)b->sizes.batch_max, b->planes);
    *out = b;
    return EV_OK;
}

static void cuda_describe(backend_t *b, char *buf, size_t n)
{
    snprintf(buf, n, "%s", b->desc);
}

static ev_status cuda_evaluate(backend_t *b, const uint16_t *genes, uint64_t n, eval_result_t *out, ev_error *err)
{
    ev_status st = cuda_eval_genes(b->e, genes, n, out, err);
    if (st == EV_OK && b->corrupt)
        backend_twin_device_fault(out, n, b->corrupt);
    return st;
}

static ev_status cuda_grid_batch(backend_t *b, uint64_t first, uint64_t count, topk_t *top, ev_error *err)
{
    return cuda_eval_grid(b->e, first, count, top, err);
}

static uint64_t cuda_grid_batch_max(backend_t *b)
{
    return b->sizes.batch_max;
}

static ev_status cuda_grid_dominance(backend_t *b, const dominance_opts_t *opts, topk_t *top, ev_error *err)
{
    uint64_t budget = opts ? opts->memory_budget : 0, free_bytes = 0, total_bytes = 0;
    int sms = 0;
    ev_status st;
    if (budget == 0) {
        st = cuda_device_memory(&free_bytes, &total_bytes, &sms, err);
        if (st != EV_OK)
            return st;
        budget = free_bytes / 2;
    }
    return cuda_dominance_grid(b->e, b->p, budget, opts ? opts->progress : NULL, opts ? opts->hook : NULL, top, err);
}

/* ---- GA ops: the population lives on the device (kernels/ga_*.cu); its
 * state (cuda_ga_t) is this backend's ga_state_t, so the ops other than open
 * are the kernels' functions themselves. */

static ev_status cuda_ga_open_op(backend_t *b, const ga_plan_t *plan, ga_state_t **out, ev_error *err)
{
    ev_status st;
    *out = NULL;
    if (!b)
        return ev_fail(err, EV_EINTERNAL, "the cuda GA ops need an open cuda backend");
    /* the GA evaluates in its own arrays: the batch buffers (the GPU probe's,
     * say) would only take memory from it */
    cuda_eval_trim(b->e);
    if ((st = cuda_ga_open(out, b->e, plan, err)) != EV_OK) {
        ev_error_prefix(err, "cuda backend: ");
        *out = NULL;
    }
    return st;
}

static const fit_tables_t *cuda_host_tables(backend_t *b)
{
    return b ? b->host : NULL;
}

const backend_ops_t backend_cuda_ops = {
    .name = "cuda",
    .open = cuda_open,
    .close = cuda_close,
    .describe = cuda_describe,
    .evaluate = cuda_evaluate,
    .grid_batch = cuda_grid_batch,
    .grid_batch_max = cuda_grid_batch_max,
    .grid_dominance = cuda_grid_dominance,
    .ga_open = cuda_ga_open_op,
    .ga_close = cuda_ga_close,
    .ga_init_population = cuda_ga_init_population,
    .ga_set_population = cuda_ga_set_population,
    .ga_evaluate = cuda_ga_evaluate,
    .ga_rank = cuda_ga_rank,
    .ga_breed = cuda_ga_breed,
    .ga_download = cuda_ga_download,
    .ga_cache_count = cuda_ga_cache_count,
    .ga_cache_export = cuda_ga_cache_export,
    .ga_cache_import = cuda_ga_cache_import,
    .host_tables = cuda_host_tables,
};
