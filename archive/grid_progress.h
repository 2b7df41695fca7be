/* The progress of a grid run: a small HDF5 file at <output>.partial, written
 * under a temporary name and renamed into place every grid.checkpoint_every_s
 * seconds (and on Ctrl-C), so it is always whole. A grid's run file is
 * written only when the grid is complete; until then this file is the run.
 *
 * It holds what `--resume` needs to continue the pass exactly: the run's
 * identity (as the GA checkpoint's: a resume with another config, seed,
 * dataset, evolve or backend is refused), the evaluator and how many points
 * of its order are done, the exact top-K pool of those points and the
 * heatmap folded from them. Both are order-independent (the top-K is a total
 * order, the heatmap a maximum), so the rest of the pass ends with the file
 * an uninterrupted run writes. */
#ifndef EVOLVE_GRID_PROGRESS_H
#define EVOLVE_GRID_PROGRESS_H

#include <stdint.h>

#include "archive/identity.h"
#include "common/status.h"
#include "fitness/grid_sink.h"
#include "fitness/topk.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GRID_PROGRESS_FORMAT "evolve-grid-progress"
#define GRID_PROGRESS_VERSION 1

typedef struct {
    run_identity_t id; /* all must match for a resume (runs/run_identity.h) */
    /* the pass */
    const char *evaluator; /* the evaluator's name (ga/grid.h) */
    uint64_t points;       /* the lattice's points */
    uint64_t done;         /* points of the evaluator's order in pool and heat */
    double seconds;        /* search seconds spent on them, over every session */
    topk_t pool;           /* the exact top-K of those points */
    grid_heat_t heat;      /* their heatmap; key NULL: none */
    uint32_t serial;       /* the writer's count of its writes, from 0 (not stored: EVOLVE_TEST_KILL=grid_progress:N) */
} grid_progress_t;

/* Writes atomically (temporary name, then rename); the caller's arrays are
 * only read. */
ev_status grid_progress_write(const char *path, const grid_progress_t *g, ev_error *err);

/* 1 when path is a grid progress file, -1 when it is a readable HDF5 file of
 * another kind (a GA's run file), 0 otherwise (absent, or damaged). */
int grid_progress_is(const char *path);

/* Reads one (allocating its strings, pool and heatmap: grid_progress_free);
 * EV_EDATA, naming the file, when it is not one or is damaged. */
ev_status grid_progress_read(const char *path, grid_progress_t *g, ev_error *err);
void grid_progress_free(grid_progress_t *g);

#ifdef __cplusplus
}
#endif
#endif
