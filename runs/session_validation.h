/* A session's validation: block (docs/config.md): the days split into a
 * holdout and in-sample folds, the search narrowed to the in-sample trades,
 * and every reported genome scored per part (fitness/validation.h). */
#ifndef EVOLVE_SESSION_VALIDATION_H
#define EVOLVE_SESSION_VALIDATION_H

#include <stdio.h>

#include "runs/session.h"
#include "common/status.h"
#include "fitness/reported.h"
#include "fitness/topk.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Lattice points whose per-trade Sharpe ratio estimates its variance over
 * the evaluated genomes (all of them on smaller lattices). */
#define SESSION_SHARPE_SAMPLE 4096u

/* With objective.aggregate: the split must give 2 to EV_AGG_MAX_FOLDS folds. */
ev_status session_validation_check_folds(const session_t *s, ev_error *err);

/* After the dataset is loaded, before the lattice is bound: splits the days
 * with the config's seed, moves the whole dataset to s->ds_full and leaves
 * the in-sample trades in s->ds. log: a line on the split, or NULL. */
ev_status session_validation_split(session_t *s, const run_reporter_t *rep, ev_error *err);

/* After the in-sample problem is set up, before its tables: with
 * objective.aggregate, the problem's folds (the search ranks by a fold
 * statistic). */
void session_validation_folds(session_t *s);

/* After the in-sample problem is set up: the whole dataset's problem and
 * CPU first-hit tables, to score reported genomes on every part. */
ev_status session_validation_tables(session_t *s, ev_error *err);

/* Scores r's genomes per part into r->val (r->split = the split). The
 * in-sample score must equal the search's fitness bit for bit; a difference
 * is an internal error. */
ev_status session_validation_rows(const session_t *s, reported_t *r, ev_error *err);

/* Hands v (rows scored per part, with plateau and holdout statistics) to r
 * (r->val, r->split = s's split, owned by r from now) with the session's
 * PBO and Sharpe variance; then rank_by: plateau reorders r, else every
 * row's in-sample score must equal the search's bit for bit (a difference
 * is an internal error). Shared by trade logs and strategies. */
ev_status session_validation_attach(const session_t *s, reported_t *r, val_rows_t *v, ev_error *err);

/* The PBO over the best cfg.validation.pbo_genomes lattice points (a CPU
 * grid pass on the in-sample problem) and pbo_blocks day blocks, into s->pbo
 * (NaN when it does not apply: no candidates, too few days, an objective
 * that is not additive over blocks). For the grid. */
ev_status session_validation_pbo(session_t *s, ev_error *err);

/* The PBO over the candidates in cand and pbo_blocks day blocks, into
 * s->pbo (the GA's: its best evaluated genomes, runs/ga_pbo.c). */
ev_status session_validation_pbo_of(session_t *s, const topk_t *cand, ev_error *err);

void session_validation_free(session_t *s);

#ifdef __cplusplus
}
#endif
#endif
