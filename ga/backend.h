/* The backend interface: one vtable per compute backend (CPU, CUDA). The
 * search drivers (grid, GA) only talk to this; the build switch decides which
 * backends are compiled and registered (runs/backend_registry.c), nothing else. */
#ifndef EVOLVE_BACKEND_H
#define EVOLVE_BACKEND_H

#include <stdint.h>

#include "common/status.h"
#include "fitness/accum.h"
#include "fitness/dominance.h"
#include "fitness/grid_sink.h"
#include "fitness/problem.h"
#include "fitness/tables.h"
#include "fitness/topk.h"
#include "operators/ga_types.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct backend backend_t;   /* each implementation defines its own */
typedef struct ga_state ga_state_t; /* a GA population on a backend; each implementation defines its own */

typedef struct {
    const char *name; /* "cpu", "cuda" */

    /* Prepares for one problem: keeps (CPU) or uploads (CUDA) the tables,
     * which the caller keeps alive until close. */
    ev_status (*open)(backend_t **b, const fit_problem_t *p, const tables_host_t *tables, ev_error *err);
    void (*close)(backend_t *b);

    /* Human-readable device description for provenance ("CPU, 2 threads"). */
    void (*describe)(backend_t *b, char *buf, size_t n);

    /* Tables evaluator on n genomes given as host SoA genes: gene k of genome i
     * is genes[k * n + i]. */
    ev_status (*evaluate)(backend_t *b, const uint16_t *genes, uint64_t n, eval_result_t *out, ev_error *err);

    /* Tables evaluator on the lattice points [first, first + count), offered to
     * top. count <= grid_batch_max(b). */
    ev_status (*grid_batch)(backend_t *b, uint64_t first, uint64_t count, topk_t *top, ev_error *err);
    uint64_t (*grid_batch_max)(backend_t *b);

    /* Dominance sums over the whole lattice (additive objectives), or NULL when
     * the backend has none. */
    ev_status (*grid_dominance)(backend_t *b, const dominance_opts_t *opts, topk_t *top, ev_error *err);

    /* ---- GA (docs/ga.md). The population, its fitness and the dedup cache
     * live on the backend; per generation only ga_eval_out_t and
     * ga_rank_out_t cross to the host, plus what ga_download is asked for.
     * All NULL: the driver runs the CPU backend's GA ops and evaluates new
     * genomes through this backend's `evaluate` (ga_plan_t.evaluate).
     * Call order per run: ga_open, ga_init_population (or ga_set_population),
     * then per generation ga_evaluate, ga_rank, ga_breed; ga_close.
     * Every result must equal the CPU backend's bit for bit (mean/std of
     * ga_rank_out_t excepted): same draws (operators/breed.h), same ranking. */

    /* plan: copied. b may be NULL for the CPU ops (they evaluate through
     * plan->evaluate). */
    ev_status (*ga_open)(backend_t *b, const ga_plan_t *plan, ga_state_t **g, ev_error *err);
    void (*ga_close)(ga_state_t *g);
    /* Generation 0: breed_initial for every individual. */
    ev_status (*ga_init_population)(ga_state_t *g, ev_error *err);
    /* A given population (resume): genes SoA [n_genes][population]; parents
     * [2][population] or NULL (all -1). */
    ev_status (*ga_set_population)(ga_state_t *g, const uint16_t *genes, const int32_t *parents, ev_error *err);
    /* Fitness of every individual: a genome in the dedup cache reuses its
     * stored result; distinct new genomes are evaluated once each (duplicates
     * within the generation too) and inserted. out->top gets the best of the
     * new ones. When they would not fit (cache_full) nothing changes. */
    ev_status (*ga_evaluate)(ga_state_t *g, ga_eval_out_t *out, ev_error *err);
    /* Ranks each island: rank_key descending, the lower linear index on ties,
     * then the lower individual; and the population's summaries. */
    ev_status (*ga_rank)(ga_state_t *g, ga_rank_out_t *out, ev_error *err);
    /* Replaces the ranked population with generation `generation` (>= 1):
     * breed_child for every child, by islands[islands]'s plans. */
    ev_status (*ga_breed)(ga_state_t *g, uint32_t generation, const breed_island_t *islands, ev_error *err);
    /* Copies the current population to the host; any pointer may be NULL.
     * genes: SoA [n_genes][population]; results [population] (after
     * ga_evaluate); parents [2][population] (A, then B; -1 where none). */
    ev_status (*ga_download)(ga_state_t *g, uint16_t *genes, eval_result_t *results, int32_t *parents, ev_error *err);
    /* The dedup cache: its size, its entries (index [n][index_words] words,
     * least significant first, and results [n]; order unspecified), and
     * entries to restore (resume; fails past cache_capacity). */
    uint64_t (*ga_cache_count)(ga_state_t *g);
    ev_status (*ga_cache_export)(ga_state_t *g, uint64_t *index, eval_result_t *results, ev_error *err);
    ev_status (*ga_cache_import)(ga_state_t *g, const uint64_t *index, const eval_result_t *results, uint64_t n,
                                 ev_error *err);

    /* ---- Optional grid extras: NULL where a backend has none; the drivers
     * then fall back to the CPU backend (the heatmap: runs/grid_record.c; the
     * grid rank: runs/mode_validate.c). Results must equal
     * the CPU backend's exactly (they are integers and rank keys). */

    /* grid_batch that also folds every point into heat (fitness/grid_sink.h):
     * the best rank_key per cell of two parameters, for the report's heatmap.
     * top may be NULL (heatmap only). */
    ev_status (*grid_batch_heat)(backend_t *b, uint64_t first, uint64_t count, topk_t *top, grid_heat_t *heat,
                                 ev_error *err);
    /* grid_dominance likewise (NULL where grid_dominance is). */
    ev_status (*grid_dominance_heat)(backend_t *b, const dominance_opts_t *opts, topk_t *top, grid_heat_t *heat,
                                     ev_error *err);
    /* The number of lattice points whose rank_key is strictly greater than
     * key, over the whole lattice (validate: the grid rank of the GA's best is
     * 1 + count, so ties share a rank). */
    ev_status (*grid_count_better)(backend_t *b, uint64_t key, uint64_t *count, ev_error *err);

    /* The host tables the backend was opened with (every backend gets them
     * from open), or NULL: the GA's local search sweeps them on the host
     * (docs/ga.md "Local search"), also for a device-resident population. */
    const fit_tables_t *(*host_tables)(backend_t *b);
} backend_ops_t;

extern const backend_ops_t backend_cpu_ops;

#ifdef __cplusplus
}
#endif
#endif
