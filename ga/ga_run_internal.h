/* ga_run's state and its parts (ga/ga_run.h), internal to ga/: the run's
 * buffers and clock (ga_run_state.c), a generation's evaluation, ranking and
 * report (ga_run_generation.c), the stop and restart decisions
 * (ga_run_decide.c), the memetic step (ga_run_climbs.c), checkpoints and
 * resume (ga_run_snapshot.c); ga_run.c sets the run up and loops over them. */
#ifndef EVOLVE_GA_RUN_INTERNAL_H
#define EVOLVE_GA_RUN_INTERNAL_H

#include <stdint.h>

#include "common/status.h"
#include "ga/ga_progress.h"
#include "ga/ga_run.h"
#include "ga/ls_relax.h"
#include "ga/ls_sweep.h"
#include "operators/ga_types.h"

typedef struct {
    const backend_ops_t *gops; /* whose GA ops run: the backend's, or the CPU's (host_ga) */
    ga_state_t *g;
    ga_plan_t plan;
    const fit_problem_t *p;
    const ga_settings_t *s;
    const ga_run_opts_t *o;
    ls_sweep_t sweep;     /* what local search climbs with (ga_ls_sweep; sweep.t NULL: batches
                           * through the backend's evaluate) */
    ls_relaxed_t relaxed; /* relaxed climbs' first part (kicks; random_relax: random starts too) */
    int has_relaxed;
    ga_hof_entry_t *top;     /* [top_k] */
    uint32_t *island_unique; /* [islands] */
    uint32_t *gene_counts;   /* [gene_values] */
    double *entropy;         /* [n_genes] */
    breed_island_t *islands; /* [islands] */
    uint16_t *dl_genes;      /* observer downloads, when asked for */
    eval_result_t *dl_results;
    int32_t *dl_parents;
    uint16_t *snap_genes; /* checkpoint snapshots, when the observer takes them */
    int32_t *snap_parents;
    ga_climb_t *climbs;  /* [ls_members + ls_random]: local search's climbs of one generation */
    uint16_t *ls_genes;  /* [ls_members + ls_random][n_genes]: climbed genomes for the next generation */
    uint32_t n_ls;       /* of them, waiting to be put in */
    uint32_t n_top;      /* entries of top from the last evaluation */
    uint16_t *inj_genes; /* [n_genes][population], [2][population]: the population they go into */
    int32_t *inj_parents;
    uint32_t last_improvement;
    uint32_t last_restart; /* the last generation a restart made (0: none) */
    /* The current search (docs/ga.md "Restarts"): from the run's start or the
     * last restart, its best population fitness and when that last improved;
     * and how many ended searches reached the hall of fame's best. */
    double search_best;
    uint32_t search_improved;
    uint32_t searches_best;
    uint64_t best_key; /* the hall of fame's best rank_key (0: none) */
    double t0;
    double last_snap; /* ga_run_now() of the last snapshot (0: none yet) */
    ga_progress_t progress;
} ga_run_state_t;

/* ga_run_opts_t.now, else the platform's clock. */
double ga_run_now(const ga_run_state_t *r);

/* The run's buffers (r->plan sized), the observer's and local search's only
 * when asked for; ga_run_free also closes r->g. */
ev_status ga_run_alloc(ga_run_state_t *r, ev_error *err);
void ga_run_free(ga_run_state_t *r);

/* Evaluates and ranks generation `gen`, updates the hall of fame and the
 * counters, reports it (observer, progress line); *full when the cache
 * could not take it. */
ev_status ga_run_generation(ga_run_state_t *r, uint32_t gen, ga_result_t *res, ga_gen_stats_t *st, int *full,
                            ev_error *err);

/* Why to stop after generation gen, or GA_STOP_NONE. */
ga_stop_reason ga_run_stop_reason(const ga_run_state_t *r, uint32_t gen, const ga_result_t *res, double wall_s);

/* Turns r->islands' plans for generation gen + 1 into a restart when the
 * current search has stalled (ga.restart_stall). */
void ga_run_plan_restart(ga_run_state_t *r, uint32_t gen, ga_result_t *res);

/* Local search's climbs after generation gen, when it is due; the improved
 * genomes wait for ga_run_local_search_put, which puts them into the bred
 * generation. */
ev_status ga_run_local_search(ga_run_state_t *r, uint32_t gen, ga_result_t *res, ev_error *err);
ev_status ga_run_local_search_put(ga_run_state_t *r, ga_result_t *res, ev_error *err);

/* Checkpoints: whether bred generation gen is due, the snapshot handed to
 * the observer, and a resumed run put back where a snapshot left it. */
int ga_run_snapshot_due(const ga_run_state_t *r, uint32_t gen, uint32_t every);
ev_status ga_run_snapshot(ga_run_state_t *r, uint32_t gen, const ga_result_t *res, ev_error *err);
ev_status ga_run_restore(ga_run_state_t *r, ga_result_t *res, const ga_resume_t *rs, ev_error *err);

#endif
