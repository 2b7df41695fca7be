/* One swept exit level's values for one trade at a time, for the additive
 * objectives (fitness/sweep.c: a level alone or against one filter). Every
 * value v of the level wins against the trade's fixed roles or loses to
 * them, so the trade adds its row's outcome at v or the fixed winner's; the
 * sums are kept one array per sum (n values contiguous) instead of accum_t
 * per bucket, so a row is a few vector instructions per 4 values where
 * accum_add was ~25 per value (bench/RESULTS.md "Exit-role lattices: the
 * sweeps' rows"). The same integers as accum_add adds, bit for bit:
 * sweep_row_get hands them back as accum_t sums.
 *
 * Squares: |q| below 2^32 (4,295 %) squares within 64 bits; a row with a
 * larger outcome is corrected to the exact 128-bit square after the vector
 * loop. The drawdown (calmar, max_drawdown_pct) needs the trades in order
 * per bucket: callers keep accum_add for it. */
#ifndef EVOLVE_SWEEP_ROW_H
#define EVOLVE_SWEEP_ROW_H

#include <stddef.h>
#include <stdint.h>

#include "common/status.h"
#include "fitness/accum.h"
#include "fitness/exit_race.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    uint32_t rows, n; /* rows (a filter's buckets, or 1) of n values */
    size_t cap;       /* cells the arrays hold (sweep_row_reset reuses them) */
    uint32_t cap_rows;
    int avx2;        /* 1: the AVX2 build of the loop (chosen by the CPU; a test may clear it) */
    int64_t *count;  /* [rows]: trades added to the row (each to all its values) */
    int64_t *sum;    /* [rows * n] */
    int64_t *pos;    /* [rows * n] profit_factor, else NULL */
    uint64_t *sq_lo; /* [rows * n] sharpe: the sum of squares' two words, else NULL */
    uint64_t *sq_hi;
    int64_t *lsum; /* [rows * n] compound, else NULL */
    int64_t *ruin;
} sweep_row_t;

/* Zeroed sums for rows x n values under objective o. */
ev_status sweep_row_init(sweep_row_t *s, const objective_prep_t *o, uint32_t rows, uint32_t n, ev_error *err);
/* The same on s's arrays from an earlier init or reset (one objective's),
 * grown when too small: a climb's sweeps share them (fitness/sweep_cache.h). */
ev_status sweep_row_reset(sweep_row_t *s, const objective_prep_t *o, uint32_t rows, uint32_t n, ev_error *err);
void sweep_row_free(sweep_row_t *s);

/* One trade into row `row`: value i gets r's outcome at i where r's key
 * there beats fixed.key (fitness/exit_race.h's race_step), else fixed's. */
void sweep_row_add(sweep_row_t *s, const objective_prep_t *o, uint32_t row, race_t fixed, const race_row_t *r);

/* Row r's sums become those of rows r and above (a filter's suffix sums,
 * fitness/sweep.h: bucket r then holds the trades of cells >= r). */
void sweep_row_suffix(sweep_row_t *s);

/* *a = the sums of (row, value i) (no drawdown). Inline: called for
 * every value of every sweep. */
static inline void sweep_row_sums(const sweep_row_t *s, uint32_t row, uint32_t i, accum_t *a)
{
    const size_t at = (size_t)row * s->n + i;
    accum_init(a);
    a->n = s->count[row];
    a->sum = s->sum[at];
    if (s->pos)
        a->pos = s->pos[at];
    if (s->sq_lo) {
        a->sumsq.lo = s->sq_lo[at];
        a->sumsq.hi = s->sq_hi[at];
    }
    if (s->lsum) {
        a->lsum = s->lsum[at];
        a->ruin = s->ruin[at];
    }
}

#ifdef __cplusplus
}
#endif
#endif
