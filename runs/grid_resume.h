/* A grid run that keeps its progress: `evolve CONFIG --grid` saves the pass
 * so far in <output>.partial (archive/grid_progress.h) every
 * grid.checkpoint_every_s seconds, when the pass ends, and on Ctrl-C;
 * `evolve CONFIG --grid --resume RUN.h5` continues it and ends with the run
 * file an uninterrupted run writes.
 *
 * The pass's order decides what "done" means (ga/grid.h: the tables by
 * linear index, the dominance sums by exit combination and block), so a
 * resume must run the evaluator the progress was saved by, and a resume
 * with another config, seed, top, dataset, evolve or backend is refused
 * naming what differs (runs/run_identity.h). A damaged progress file is
 * not resumed from: the grid starts over, saying so (same result, more
 * time). What the grid does after its pass (the strategies' reruns with a
 * larger pool, validation's PBO pass, a heatmap on the CPU for a backend
 * that cannot fold one) keeps no progress of its own: a resume after the
 * pass ended runs those again from the pass's saved pool. Under mpirun the
 * sharded grid keeps no progress, and a resume is refused there. */
#ifndef EVOLVE_GRID_RESUME_H
#define EVOLVE_GRID_RESUME_H

#include <stdint.h>

#include "archive/grid_progress.h"
#include "common/status.h"
#include "ga/grid.h"
#include "runs/modes.h"
#include "runs/run_paths.h"
#include "runs/session.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    run_paths_t paths;   /* final_path: the run file; partial_path: the progress */
    grid_progress_t was; /* the progress resumed from (was.done: 0 when none) */
    int resumed;         /* 1: the pass continues from was */
    char session[160];   /* this process's line in /provenance/sessions */
    /* the hook's state */
    const session_t *s;
    const char *evaluator;
    const topk_t *pool;
    const grid_heat_t *heat; /* NULL: the pass folds no heatmap */
    double every_s, t0, last;
    uint64_t saved; /* points of the latest progress file (0: none written) */
    uint32_t writes;
    int keep; /* 1: progress is saved (one process) */
    grid_progress_hook_t hook;
} grid_resume_t;

/* The run's files; on --resume the progress read and checked against this
 * run (EV_ECONFIG naming what differs); a fresh run refuses an existing
 * <output>.partial, printing the command that resumes it. Under mpirun no
 * progress is kept. */
ev_status grid_resume_open(grid_resume_t *g, session_t *s, const run_args_t *a, ev_error *err);

/* The pass about to run (its options, evaluator, pool and heatmap, empty;
 * g NULL: a grid that keeps no progress, --validate's):
 * on a resume they are filled from the progress and opts->hook starts the
 * pass where it stopped; the hook saves the progress from then on. */
ev_status grid_resume_bind(grid_resume_t *g, grid_opts_t *opts, topk_t *pool, const run_reporter_t *rep, ev_error *err);

/* The search seconds before this process (0 for a fresh run). */
double grid_resume_seconds_before(const grid_resume_t *g);

/* After the run: complete (st EV_OK, the run file in place): the progress
 * removed; interrupted or failed with progress saved: err says where it is
 * and how to continue. */
ev_status grid_resume_end(grid_resume_t *g, const run_args_t *a, ev_status st, ev_error *err);

void grid_resume_free(grid_resume_t *g);

#ifdef __cplusplus
}
#endif
#endif
