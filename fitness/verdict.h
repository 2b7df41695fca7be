/* The verdict (docs/report.md "The verdict"): rank 1 of a reported list
 * against each baseline (fitness/baseline.h) on every part of the days, in
 * sample and out of sample (the holdout, each fold, each walk-forward test
 * window), as differences with their trade counts, and the deflated Sharpe
 * ratio and the PBO with a plain reading. One computation for every place
 * that shows it: the terminal, `evolve report`, the page, the JSON, the run
 * file (GROUP/verdict) and Python. */
#ifndef EVOLVE_VERDICT_H
#define EVOLVE_VERDICT_H

#include <stddef.h>
#include <stdint.h>

#include "common/status.h"
#include "fitness/baseline.h"
#include "fitness/reported.h"
#include "fitness/walk_forward.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The readings' thresholds (docs/report.md states them). */
#define VERDICT_DSR_SIGNIFICANT 0.95
#define VERDICT_PBO_OVERFIT 0.5
/* A DSR below this prints as "< 1e-6" with its z-score, never as 0.000. */
#define VERDICT_DSR_FLOOR 1e-6

/* The kinds of part; a fold or a test window also carries its number; the
 * chain is a walk-forward's test windows one after another. */
typedef enum { VPART_IN_SAMPLE = 0, VPART_HOLDOUT, VPART_FOLD, VPART_WINDOW, VPART_CHAIN } verdict_part_kind;

/* One side of a comparison on one part. */
typedef struct {
    double value; /* as reported */
    int64_t trades;
    int32_t feasible;
} verdict_side_t;

typedef struct {
    int32_t kind;   /* verdict_part_kind */
    int32_t number; /* a fold's or a window's, from 1; 0 otherwise */
} verdict_part_t;

typedef struct {
    uint32_t n_base, n_parts;
    int32_t kind[BASELINE_KINDS]; /* baseline j's kind */
    verdict_part_t *part;         /* [n_parts] */
    verdict_side_t *best;         /* [n_parts]: rank 1 (a window's winner on a walk-forward) */
    verdict_side_t *base;         /* [n_base * n_parts]: baseline j on part p at j * n_parts + p */
    double dsr, dsr_z;            /* rank 1's deflated Sharpe ratio and its z-score; NaN: none */
    double trials;                /* the DSR's N (0: unknown) */
    double pbo;                   /* NaN: none */
    char headline[512];           /* the first line: rank 1 against the trade log, in and out of sample */
    char dsr_text[256], pbo_text[256];
} verdict_t;

/* The verdict of top (its rank 1, baselines and validation; trials as the
 * top table's DSR). An empty verdict (n_base 0) says so in its headline. */
ev_status verdict_of_list(verdict_t *v, const reported_t *top, double trials, ev_error *err);

/* What a walk-forward's verdict is made of: each test window's winner
 * (test_value[w], test[w].r) and each baseline there (base_value / base at
 * w * n_base + j), and the chain of the test windows, the winners' and each
 * baseline's (base_chained NULL: not known, a run file written before). */
typedef struct {
    int32_t n_windows, n_base;
    const double *test_value;
    const ranked_genome_t *test;
    const int32_t *base_kind;
    const double *base_value;
    const eval_result_t *base;
    double chained_value;
    eval_result_t chained;
    const double *base_chained_value; /* [n_base] */
    const eval_result_t *base_chained;
} verdict_walk_t;

/* A walk-forward's: each test window and the chain, winners against baselines. */
ev_status verdict_of_walk(verdict_t *v, const verdict_walk_t *w, ev_error *err);
/* The same of a walk-forward's outcome. */
ev_status verdict_of_wf(verdict_t *v, const wf_result_t *r, ev_error *err);
void verdict_free(verdict_t *v);

/* Rank 1 less baseline j on part p (NaN when both are the same infinity). */
double verdict_diff(const verdict_t *v, uint32_t j, uint32_t p);
/* "in sample", "holdout", "fold 3", "window 2", "chained". */
void verdict_part_name(char *buf, size_t n, const verdict_part_t *p);
/* "your trade log", "the loosest point", "your baseline". */
const char *verdict_base_words(int32_t kind);
/* A DSR as read: "0.973", "2.1e-04", "< 1e-6 (z = -4.86)", "-". */
void verdict_dsr_format(char *buf, size_t n, double dsr, double z);
/* A DSR in a table's column: as verdict_dsr_format but "<1e-6" alone (the
 * verdict prints rank 1's z-score). */
void verdict_dsr_cell(char *buf, size_t n, double dsr);
/* A value the verdict prints: 2 decimals, more where that would read 0. */
void verdict_num(char *buf, size_t n, double v, int sign);

#ifdef __cplusplus
}
#endif
#endif
