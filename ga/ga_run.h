/* GA mode (SPEC sec. 6, docs/ga.md): a generational GA with islands,
 * elitism, migration and random immigrants, whose population lives on a
 * backend (ga/backend.h GA ops). It keeps the hall of fame, decides when to
 * stop, prints a progress line (ga/ga_progress.h) and hands every generation to
 * an optional observer (the run archive). */
#ifndef EVOLVE_GA_RUN_H
#define EVOLVE_GA_RUN_H

#include <stdint.h>
#include <stdio.h>

#include "common/status.h"
#include "fitness/problem.h"
#include "ga/backend.h"
#include "ga/ga_stop.h"
#include "fitness/topk.h"
#include "operators/ga_settings.h"
#include "operators/ga_snapshot.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One generation's summary. Fitness values are raw (for compound, the log
 * sum: objective_display converts). Pointers are valid during the callback. */
typedef struct {
    uint32_t generation;           /* 0 = the initial population */
    uint64_t feasible;             /* feasible individuals */
    double best, median;           /* of the feasible fitness (0 when none); exact */
    double mean, std;              /* of the finite feasible fitness, in individual order (ga_mean_std_of) */
    uint64_t unique;               /* distinct genomes in the population */
    double diversity;              /* unique / population */
    const uint32_t *island_unique; /* [islands]: distinct genomes per island */
    const double *gene_entropy;    /* [n_genes]: entropy of each gene's values, bits */
    const breed_island_t *islands; /* [islands]: how this generation was made; NULL for generation 0 */
    uint64_t new_evaluations;      /* genomes evaluated for the first time in this generation */
    uint64_t evaluations;          /* unique evaluations so far */
    uint64_t lookups;              /* fitness lookups so far (population x generations) */
    uint64_t ls_evaluations;       /* local search sweeps so far, in evaluations (docs/ga.md "Local search") */
    double hit_rate;               /* 1 - evaluations / lookups */
    double wall_s;                 /* seconds since the run started */
    const topk_t *hof;             /* the hall of fame after this generation */
} ga_gen_stats_t;

/* What an observer is given each generation. genes/results/parents are set
 * only when it asked for them (want_population): genes SoA
 * [n_genes][population], results [population], parents [2][population]
 * (A then B; individuals of the previous generation, -1 where none). */
typedef struct {
    uint32_t population, n_genes, islands;
    const ga_gen_stats_t *stats;
    const uint16_t *genes;
    const eval_result_t *results;
    const int32_t *parents;
} ga_generation_t;

/* A run between two generations (operators/ga_snapshot.h): what a
 * checkpoint keeps (ga_observer_t.on_checkpoint) and, with the dedup cache,
 * what a run resumes from (ga_resume_t). */

/* Where a resumed run starts: a snapshot and the dedup cache's contents.
 * The cache is not part of the snapshot because every genome in it was in
 * some evaluated generation: an archive of the generations can rebuild it
 * (runs/resume.c), and a run restored from both continues bit for bit as
 * if it had never stopped (tests/test_ga_resume.c). */
typedef struct {
    ga_snapshot_t at;
    uint64_t cache_count;
    const uint64_t *cache_index;        /* [cache_count][index_words], least significant word first */
    const eval_result_t *cache_results; /* [cache_count] */
} ga_resume_t;

typedef struct {
    void *ctx;
    int want_population; /* 1: download every generation for on_generation (costs a copy from a device) */
    /* Called after each evaluated generation; an error stops the run with it. */
    ev_status (*on_generation)(void *ctx, const ga_generation_t *gen, ev_error *err);
    /* Snapshots for checkpoints (NULL: none): called after breeding every
     * generation that is a multiple of checkpoint_every (>= 1), and after
     * breeding the next generation when Ctrl-C stops the run, so that the
     * run can resume where it stopped. An error stops the run with it. */
    uint32_t checkpoint_every;
    /* > 0: a generation checkpoint_every asks for is skipped unless this many
     * seconds passed since the last snapshot (the first is always taken), so
     * fast generations are not dominated by checkpoint writes. Where
     * snapshots fall then depends on the clock; resuming from any is exact. */
    double checkpoint_every_s;
    ev_status (*on_checkpoint)(void *ctx, const ga_snapshot_t *snap, ev_error *err);
    /* Asked after each evaluated generation (NULL: never) when no other
     * reason ends the run: nonzero ends it there, complete, with reason
     * GA_STOP_CALLER (the library's callback, lib/). */
    int (*stop_requested)(void *ctx);
} ga_observer_t;

/* One climb of local search (docs/ga.md "Local search"): the genome it
 * ended at, its result, and its cost in evaluations. */
typedef struct {
    uint16_t genes[EV_MAX_PARAMS];
    eval_result_t r;
    uint64_t cost;
} ga_climb_t;

typedef struct {
    uint64_t seed;                 /* the Philox key: a run is a function of (config, seed) */
    uint32_t top;                  /* hall of fame size (config `top`) */
    FILE *progress;                /* the progress line (ga/ga_progress.h), or NULL (quiet) */
    const ga_observer_t *observer; /* or NULL */
    const ga_resume_t *resume;     /* or NULL: start from generation 0 */
    const fit_tables_t *tables;    /* host tables of the problem: local search sweeps them (ga.local_search) */
    /* 1: local search sweeps batches of genomes through the backend's
     * evaluate op (ga/ls_sweep.h), for problems without tables (strategies);
     * tables is then unused. ga_run also sweeps so where the tables have a
     * fold statistic (ga/ga_ls_sweep.h). */
    int ls_batch;
    /* Several processes running one GA (dist/): given this process's stop
     * reason after each generation, answers the one every process takes
     * (the clock and Ctrl-C differ between processes). NULL: one process. */
    ga_stop_reason (*agree_stop)(ga_stop_reason mine);
    /* Several processes (dist/): this one climbs only local search's members
     * j with j % climb_parts == climb_part, then share_climbs(climbs, n)
     * gives every process all n climbs. climb_parts 0 or 1, or batch sweeps
     * (ls_batch, a fold statistic: evaluate shares them out): it climbs all,
     * with no time budget check between climbs (the clocks differ). */
    uint32_t climb_part, climb_parts;
    void (*share_climbs)(ga_climb_t *climbs, uint32_t n);
    /* The clock in seconds (NULL: plat_now): a test steps it to place the time budget. */
    double (*now)(void);
} ga_run_opts_t;

typedef struct {
    ga_stop_reason reason;
    uint32_t generations; /* generations evaluated (the initial one included) */
    uint64_t evaluations; /* unique genomes evaluated */
    uint64_t lookups;
    uint64_t ls_evaluations; /* local search sweeps, in evaluations (counted in max_evaluations) */
    uint64_t ls_improved;    /* genomes local search improved and put into the population (this process) */
    uint32_t restarts;       /* restarts on stall (ga.restart_stall) */
    uint32_t searches_best;  /* searches (restarts + 1) whose best equals the hall of fame's best */
    double hit_rate;
    double seconds;
    int host_ga; /* 1: the backend has no GA ops; the CPU ran the GA, the backend evaluated */
    topk_t hof;  /* the top unique genomes ever evaluated; ga_result_free */
} ga_result_t;

/* Runs the GA on backend b (opened on p) with settings s, from generation 0
 * or from o->resume. On EV_OK the result holds the hall of fame and the stop
 * reason (an interrupted run returns EV_OK with reason "interrupted"; Ctrl-C
 * during the generation that ends the run anyway is not an interruption). */
ev_status ga_run(const backend_ops_t *ops, backend_t *b, const fit_problem_t *p, const ga_settings_t *s,
                 const ga_run_opts_t *o, ga_result_t *res, ev_error *err);
void ga_result_free(ga_result_t *res);

#ifdef __cplusplus
}
#endif
#endif
