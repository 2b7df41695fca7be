/* The exits of one genome, per trade in trade order, for a climb's sweeps
 * (fitness/sweep.h, ga/local_search.c): a climb sweeps gene after gene of a
 * genome whose exit values rarely change, and every sweep races each kept
 * trade's fixed exits. From the first-hit tables that is a cache line per
 * trade and role (each role's row holds all its values); from these columns
 * it is a few contiguous words. A role's column is rebuilt when the genome's
 * value of that role changes (bench/RESULTS.md "Exit-role lattices on the
 * CPU"). Results are those of fitness/exit_race.h's race_fixed, bit for bit.
 * It also holds the filters' kept-trade bitsets (fitness/kept_sets.h), so a
 * sweep visits only the trades the genome's other filters keep instead of
 * testing every trade's cells. */
#ifndef EVOLVE_SWEEP_CACHE_H
#define EVOLVE_SWEEP_CACHE_H

#include <stdint.h>

#include "common/status.h"
#include "fitness/exit_race.h"
#include "fitness/kept_sets.h"
#include "fitness/sweep_row.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    const fit_tables_t *t;
    int32_t at[RACE_LEVELS];   /* the value each role's column holds; -1: none yet */
    int64_t *key[RACE_LEVELS]; /* [n_trades] per present role (race key) */
    int64_t *q[RACE_LEVELS];   /* [n_trades]: its outcome there */
    int64_t *lf[RACE_LEVELS];  /* [n_trades]: its log factor (compound), else NULL */
    kept_sets_t ks;            /* the filters' kept-trade rows (ks.bits NULL: past the budget) */
    uint64_t *kept;            /* [ks.n_words]: sweep_cache_kept's set */
    sweep_row_t row;           /* the row sums' arrays, for the climb's sweeps (fitness/sweep_row.h) */
    /* the roles the last sweep_cache_set races, in level order: their columns */
    int32_t n_act;
    const int64_t *act_key[RACE_LEVELS], *act_q[RACE_LEVELS], *act_lf[RACE_LEVELS];
} sweep_cache_t;

ev_status sweep_cache_init(sweep_cache_t *c, const fit_tables_t *t, ev_error *err);
void sweep_cache_free(sweep_cache_t *c);

/* Brings the columns of every present role but skip1 and skip2 (0: none)
 * to the values of exits x, and lists them for sweep_cache_race. */
void sweep_cache_set(sweep_cache_t *c, const tables_exits_t *x, int skip1, int skip2);

/* The trades every filter but f1 and f2 (-1: none) keeps under the mirrored
 * filter genes gf, 64 a word (kept_sets.h's rows ANDed); NULL without rows. */
const uint64_t *sweep_cache_kept(sweep_cache_t *c, const uint16_t *gf, int32_t f1, int32_t f2);

/* == race_fixed(c->t, j, x, skip1, skip2) of the last sweep_cache_set(c, x,
 * skip1, skip2): the roles it races from their columns, without a test per
 * role and trade of which roles take part. */
static inline race_t sweep_cache_race(const sweep_cache_t *c, int64_t j)
{
    race_t w;
    w.key = (int64_t)EV_NO_HIT * 8;
    w.q = c->t->q_log[j];
    w.lf = c->t->need_lf ? c->t->lf_log[j] : 0;
    for (int32_t k = 0; k < c->n_act; k++)
        if (c->act_key[k][j] < w.key) {
            w.key = c->act_key[k][j];
            w.q = c->act_q[k][j];
            w.lf = c->act_lf[k] ? c->act_lf[k][j] : 0;
        }
    return w;
}

#ifdef __cplusplus
}
#endif
#endif
