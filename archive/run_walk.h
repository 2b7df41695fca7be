/* A walk-forward's outcome (fitness/walk_forward.h) in a run file:
 * /walk_forward (results/README.md). */
#ifndef EVOLVE_RUN_WALK_H
#define EVOLVE_RUN_WALK_H

#include "archive/run_file.h"
#include "common/status.h"
#include "fitness/walk_forward.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A walk-forward's baselines on each test window, as stored
 * (/walk_forward/baselines): window w's j-th at w * n_base + j. */
typedef struct {
    size_t n_windows, n_base;
    char **names;     /* [n_base] */
    double *fitness;  /* as reported */
    eval_result_t *r; /* trades and feasible */
    /* [n_base] over the chained test windows; NULL in a file written before they were stored */
    double *chained_fitness;
    eval_result_t *chained;
} run_walk_base_t;

/* search: "grid" or "ga". */
ev_status run_file_write_walk_forward(run_file_t *rf, const wf_result_t *r, const char *search, ev_error *err);
/* The stored baselines into *b (n_base 0 when the file has none);
 * run_walk_base_free. */
ev_status run_file_read_walk_baselines(run_file_t *rf, run_walk_base_t *b, ev_error *err);
void run_walk_base_free(run_walk_base_t *b);
/* Each window's train_first_day, train_last_day, test_first_day and
 * test_last_day (days since 1970-01-01) into day[0..3], new arrays of *n
 * (free each). */
ev_status run_file_read_walk_days(run_file_t *rf, int64_t *day[4], size_t *n, ev_error *err);

#ifdef __cplusplus
}
#endif
#endif
