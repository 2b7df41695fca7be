/* The C interface to everything in kernels/: plain prototypes, no CUDA types.
 * Compiled only when the CUDA backend is built (EVOLVE_HAVE_CUDA).
 *
 * Every function that can fail returns ev_status and fills err with the
 * failing CUDA statement, file and line (kernels/cuda_check.h); out-of-memory
 * errors are EV_ENOMEM and say what to reduce. All work runs on device 0 and
 * the legacy default stream; every function returns with its work finished. */
#ifndef EVOLVE_CUDA_API_H
#define EVOLVE_CUDA_API_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/status.h"
#include "fitness/accum.h"
#include "fitness/grid_sink.h"
#include "fitness/lattice_shape.h"
#include "fitness/problem.h"
#include "fitness/slices_eval.h"
#include "fitness/tables.h"
#include "fitness/topk.h"
#include "operators/ga_types.h"
#include "kernels/strategy_cuda.h"
#include "signals/strategy_pack.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the device (kernels/device_info.cu) ---------------------------------- */

/* Number of usable CUDA devices (0 when there is no driver or device). */
int cuda_device_count(void);

/* 0 when a device can be used; else 1 and why not in why[n] (no driver, a
 * driver older than this build's CUDA, no device), for the message that
 * refuses --backend cuda: a trader with a GPU needs to know what to fix. */
int cuda_device_unavailable(char *why, size_t n);

/* Name, memory and compute capability of device 0, for provenance:
 * "NVIDIA H100 80GB HBM3 (sm_90, 79.1 GiB, driver 13.0)". */
ev_status cuda_device_describe(char *buf, size_t n, ev_error *err);

/* The CUDA versions, as CUDA numbers them (12040 = 12.4): the newest CUDA
 * the installed driver supports (0: no driver) and the runtime this evolve
 * was built with (linked statically). For `evolve doctor`. */
void cuda_versions(int *driver, int *runtime);

/* One device as `evolve doctor` describes it. */
typedef struct {
    char name[256];
    int major, minor;     /* compute capability */
    int sms;              /* streaming multiprocessors */
    int watchdog;         /* 1: kernels run under a time limit (the device drives a display: Windows' 2 s TDR) */
    int integrated;       /* 1: shares the host's memory */
    uint64_t total_bytes; /* device memory */
    uint64_t free_bytes;  /* free now */
} cuda_device_props_t;

/* Device dev (0 .. cuda_device_count() - 1); leaves device 0 current. */
ev_status cuda_device_props(int dev, cuda_device_props_t *p, ev_error *err);

/* What sizing needs: free and total device memory (bytes) and the number of
 * streaming multiprocessors of device 0. */
ev_status cuda_device_memory(uint64_t *free_bytes, uint64_t *total_bytes, int *sm_count, ev_error *err);

/* Peak rates of device 0 for benchmark floors: 32-bit integer operations per
 * second (SMs x 64 INT32 lanes x clock) and DRAM bytes per second (2 x memory
 * clock x bus width). 0 when the driver does not report the clocks. */
ev_status cuda_device_peaks(double *int_ops_per_s, double *bytes_per_s, ev_error *err);

/* ---- first-hit tables in device memory (kernels/tables_device.cu) --------- */

/* Device copies of every table array plus a fit_tables_t view of them;
 * read-only once built, freed by cuda_tables_free. */
typedef struct cuda_tables cuda_tables_t;

/* Uploads host-built tables as they are. */
ev_status cuda_tables_upload(cuda_tables_t **out, const tables_host_t *host, ev_error *err);

/* Builds the tables on the device from the problem's dataset: the cells
 * (uint16[n_trades][n_filters], equity order: double compares, done on the
 * host by tables_build) are uploaded; the first-hit offsets, the logged and
 * fill-price outcomes are computed on the device by the shared HD code
 * (tables_trade_hits); compound log factors are computed on the host from
 * those outcomes (log1p runs once, on the host; SPEC sec. 5). The prices are
 * on the device only while building. */
ev_status cuda_tables_build(cuda_tables_t **out, const fit_problem_t *p, const uint16_t *cells, ev_error *err);

/* Copies device tables back into freshly malloc'ed host arrays (free with
 * tables_free), so tests can compare them byte for byte with tables_build. */
ev_status cuda_tables_download(const cuda_tables_t *t, tables_host_t *host, ev_error *err);

/* Bytes of device memory the tables hold. */
uint64_t cuda_tables_bytes(const cuda_tables_t *t);

void cuda_tables_free(cuda_tables_t *t);

/* ---- fitness and grid evaluation (kernels/fitness.cu, grid_topk.cu) ------- */

/* Scratch for evaluating genomes against one set of device tables. */
typedef struct cuda_eval cuda_eval_t;

typedef struct {
    uint64_t batch_max;  /* genomes per batch: device buffers for results and genes (>= 1) */
    uint64_t launch_max; /* genomes per kernel launch, so a launch stays short (>= 1) */
    uint32_t topk_cap;   /* top-K candidates gathered per selection pass (>= 1) */
} cuda_eval_sizes_t;

/* Allocates topk_cap candidates (40 B, twice, plus sort scratch); batch_max
 * results (24 B) and genes (2 B x n_params) follow on the first
 * cuda_eval_genes or cuda_eval_grid (the device GA never needs them). t must
 * outlive the scratch. */
ev_status cuda_eval_open(cuda_eval_t **out, const cuda_tables_t *t, const lattice_shape_t *shape,
                         const cuda_eval_sizes_t *sizes, ev_error *err);
void cuda_eval_close(cuda_eval_t *e);

/* Times one fitness launch over the lattice points [0, count) (count <=
 * the launch size, and the lattice's size), the longest kind of launch a
 * run makes, for `evolve doctor`'s check against Windows' 2 s watchdog. */
ev_status cuda_eval_time_launch(cuda_eval_t *e, uint64_t count, double *seconds, ev_error *err);

/* The launch and batch sizes in use (after any shrinking on out of memory). */
cuda_eval_sizes_t cuda_eval_sizes(const cuda_eval_t *e);

/* Frees the batch buffers (allocated again on the next batch): the device
 * GA calls it before sizing itself, so a probe's or a grid's batches do not
 * hold a quarter of the memory it needs. */
void cuda_eval_trim(cuda_eval_t *e);

/* Tables evaluator on n genomes given as host SoA genes (gene k of genome i
 * is genes[k * n + i]); out[n] on the host. Any n: batches of batch_max. */
ev_status cuda_eval_genes(cuda_eval_t *e, const uint16_t *genes, uint64_t n, eval_result_t *out, ev_error *err);

/* Tables evaluator on the lattice points [first, first + count), offered to
 * top exactly as topk_offer would (any count: batches of batch_max). */
ev_status cuda_eval_grid(cuda_eval_t *e, uint64_t first, uint64_t count, topk_t *top, ev_error *err);

/* ---- the bit-sliced evaluator (kernels/slices_device.cu; fitness/slices.h) - */

typedef struct cuda_slices cuda_slices_t;

typedef struct {
    uint64_t n_combos;     /* exit combinations of the tables */
    uint64_t combos;       /* combinations with planes on the device (the rest walk) */
    uint64_t bytes;        /* device bytes: kept-set rows, fold bitsets, planes */
    uint64_t max_bytes;    /* the budget they were built in */
    const char *walk_why;  /* NULL: every combination has planes (or the objective walks); else why some walk */
    uint64_t sliced;       /* genomes evaluated by the slices so far */
    uint64_t walked;       /* genomes of split batches that walked */
    uint64_t blocks_tiled; /* blocks that shared one combination's planes through shared memory */
} cuda_slices_info_t;

/* Builds on the host (fitness/slices_build.h) the kept-set rows, fold
 * bitsets and planes of as many exit combinations as fit in max_bytes and
 * in about 2^26 trade outcomes of work, uploads them, and from then on
 * cuda_eval_genes and the device GA evaluate each genome whose combination
 * has planes by the slices (mode slices) or when they cost less than the
 * walk (auto); mode walk, a drawdown objective or no device memory for them
 * (info->walk_why, not an error) leave the walk alone. Once per dataset. */
ev_status cuda_eval_slices(cuda_eval_t *e, const fit_tables_t *host, slices_mode mode, uint64_t max_bytes,
                           cuda_slices_info_t *info, ev_error *err);

/* What the slices did so far (synchronises; zeros without slices). */
cuda_slices_info_t cuda_eval_slices_info(cuda_eval_t *e);

/* ---- dominance sums (kernels/dominance.cu) -------------------------------- */

/* Bytes per lattice cell of the device dominance sums for these tables'
 * objective (only the fields it needs: count and sum, + pos, + 128-bit sum
 * of squares, + log sum and ruin count), once per fold for a fold statistic. */
uint64_t cuda_dominance_cell_bytes(const fit_tables_t *t);

/* Every lattice point by dominance sums (additive objectives), merged into
 * top: the same top-K, bit for bit, as dominance_grid. budget: bytes for one
 * block of cells (leading filters are fixed block by block beyond it);
 * progress: a progress line, or NULL; hook: where the pass starts and whom
 * it tells after each block, or NULL (fitness/dominance.h). */
ev_status cuda_dominance_grid(cuda_eval_t *e, const fit_problem_t *p, uint64_t budget, FILE *progress,
                              const grid_progress_hook_t *hook, topk_t *top, ev_error *err);

/* ---- the GA on the device (kernels/ga_*.cu; docs/ga.md) ------------------ */

/* A GA population, its fitness and its dedup cache in device memory: the GA
 * ops of ga/backend.h, each equal to the CPU ops' bit for bit (ga_rank_out_t's
 * mean and std excepted). It is the CUDA backend's ga_state_t, so every op
 * but ga_open goes into the vtable as is. */
typedef struct ga_state cuda_ga_t;

/* Checks the device memory (cudaMemGetInfo) and allocates the population,
 * scratch and the first dedup table; EV_ENOMEM says what to lower. e: the
 * backend's evaluator (its device tables and launch sizes), which must
 * outlive the state. plan: copied. */
ev_status cuda_ga_open(cuda_ga_t **out, cuda_eval_t *e, const ga_plan_t *plan, ev_error *err);

/* The device buffers cuda_ga_open allocates (kernels/ga_state.cu's one list,
 * from which it also sums the need it checks against free memory, allocates
 * and frees): the state's arrays, CUB scratch of cub_temp_bytes (which only
 * a device can tell) and, last, the first dedup cache table. Fills
 * list[CUDA_GA_BUFFERS] unless NULL; returns the total, the need. Needs no
 * device. The plan must be one cuda_ga_open accepts. */
enum { CUDA_GA_BUFFERS = 25 };
typedef struct {
    const char *name; /* the member of the state, or "dedup cache" */
    uint64_t bytes;   /* at least one element */
} cuda_ga_buffer_t;
uint64_t cuda_ga_device_bytes(const ga_plan_t *plan, uint64_t cub_temp_bytes, cuda_ga_buffer_t *list);
void cuda_ga_close(cuda_ga_t *g);
ev_status cuda_ga_init_population(cuda_ga_t *g, ev_error *err);
ev_status cuda_ga_set_population(cuda_ga_t *g, const uint16_t *genes, const int32_t *parents, ev_error *err);
ev_status cuda_ga_evaluate(cuda_ga_t *g, ga_eval_out_t *out, ev_error *err);
ev_status cuda_ga_rank(cuda_ga_t *g, ga_rank_out_t *out, ev_error *err);
ev_status cuda_ga_breed(cuda_ga_t *g, uint32_t generation, const breed_island_t *islands, ev_error *err);
ev_status cuda_ga_download(cuda_ga_t *g, uint16_t *genes, eval_result_t *results, int32_t *parents, ev_error *err);
uint64_t cuda_ga_cache_count(cuda_ga_t *g);
/* Entries in no particular order (it depends on the order in which device
 * threads claimed slots, so it may differ between runs; the set does not). */
ev_status cuda_ga_cache_export(cuda_ga_t *g, uint64_t *index, eval_result_t *results, ev_error *err);
ev_status cuda_ga_cache_import(cuda_ga_t *g, const uint64_t *index, const eval_result_t *results, uint64_t n,
                               ev_error *err);

/* ---- strategy backtests (kernels/strategy_device.cu) ---------------------- */

/* One packed job of strategy genomes (signals/strategy_pack.h): its distinct
 * series uploaded once, then one thread per genome runs the strategy's EV_HD
 * backtest in slices, as `plan` says (kernels/strategy_cuda.h: groups of
 * plan->genomes, each advanced plan->steps rows per launch); counts[pk->count]
 * trades per genome, *pct (malloc'ed, NULL without trades) their outcomes in
 * percent and *bar (likewise) their entry bars, genome after genome.
 * EV_ENOMEM when the device's memory cannot hold the job (retry with fewer
 * genomes). */
ev_status cuda_strategy_run(const strategy_pack_t *pk, strategy_launch_t plan, int64_t *counts, double **pct,
                            int64_t **bar, ev_error *err);

#ifdef __cplusplus
}
#endif
#endif
