/* The race of exits (SPEC sec. 4, 4.1; tables_first_exit) one role at a
 * time, for the sweeps (fitness/sweep.c): a trade's roles that a sweep holds
 * fixed are raced once, then each swept value only joins that winner, where
 * tables_outcome would race every role again for every value (and stalled on
 * a copy of the exits per value: bench/RESULTS.md "Exit-role lattices on the
 * CPU").
 *
 * An event's key orders the race: its second first, then the role on a tie
 * (target 1, stop 2, breakeven 3, trail 4, time stop 5, tables_first_exit's
 * order); the logged result is role 0 at EV_NO_HIT, so any real hit beats it
 * and a role never hit (EV_NO_HIT) never does. Same outcome as
 * tables_outcome, bit for bit. */
#ifndef EVOLVE_EXIT_RACE_H
#define EVOLVE_EXIT_RACE_H

#include <stddef.h>
#include <stdint.h>

#include "fitness/tables.h"

/* Race levels as fitness/sweep.c numbers its dimensions: 1 target, 2 stop,
 * 3 + r the tables' more[r]; 0 none. */
enum { RACE_TARGET = 1, RACE_STOP = 2, RACE_MORE = 3, RACE_LEVELS = 3 + MORE_EXITS };

/* The winner so far: its key, outcome and log factor (0 unless compound). */
typedef struct {
    int64_t key;
    int64_t q, lf;
} race_t;

/* One role's values for one trade: first-hit seconds and the outcomes there. */
typedef struct {
    const int32_t *hit;
    const int64_t *q;
    const int64_t *lf; /* NULL unless compound */
    int64_t role;
} race_row_t;

/* Role `level`'s row of trade j (the level's parameter is present). */
static inline race_row_t race_row(const fit_tables_t *t, int64_t j, int level)
{
    race_row_t r;
    r.role = level;
    if (level == RACE_TARGET || level == RACE_STOP) {
        const int64_t n = level == RACE_TARGET ? t->n_targets : t->n_stops;
        const int64_t at = t->fill_price ? j * n : 0; /* fill level: one outcome per level */
        r.hit = (level == RACE_TARGET ? t->hit_t : t->hit_s) + j * n;
        r.q = (level == RACE_TARGET ? t->q_t : t->q_s) + at;
        r.lf = t->need_lf ? (level == RACE_TARGET ? t->lf_t : t->lf_s) + at : NULL;
        return r;
    }
    {
        const tables_more_t *m = &t->more[level - RACE_MORE];
        r.hit = m->hit + j * m->n;
        r.q = m->q + j * m->n;
        r.lf = t->need_lf ? m->lf + j * m->n : NULL;
    }
    return r;
}

/* Value i of a row joins the race. */
static inline race_t race_step(race_t w, const race_row_t *row, int32_t i)
{
    const int64_t key = (int64_t)row->hit[i] * 8 + row->role;
    if (key < w.key) {
        w.key = key;
        w.q = row->q[i];
        w.lf = row->lf ? row->lf[i] : 0;
    }
    return w;
}

/* Value index of level in exits x (-1: that role is absent). */
static inline int32_t race_index(const tables_exits_t *x, int level)
{
    return level == RACE_TARGET ? x->ti : level == RACE_STOP ? x->si : x->mi[level - RACE_MORE];
}

/* Trade j's race under exits x without the levels skip1 and skip2 (0: none):
 * the logged result, then every other present role. */
static inline race_t race_fixed(const fit_tables_t *t, int64_t j, const tables_exits_t *x, int skip1, int skip2)
{
    race_t w;
    w.key = (int64_t)EV_NO_HIT * 8;
    w.q = t->q_log[j];
    w.lf = t->need_lf ? t->lf_log[j] : 0;
    for (int level = RACE_TARGET; level < RACE_LEVELS; level++) {
        const int32_t i = race_index(x, level);
        if (i >= 0 && level != skip1 && level != skip2) {
            const race_row_t row = race_row(t, j, level);
            w = race_step(w, &row, i);
        }
    }
    return w;
}

#endif
