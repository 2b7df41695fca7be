#include "fitness/sweep_cache.h"

#include <stdlib.h>
#include <string.h>

/* The filters' rows up to 16 MB (kept_sets_build also builds every exit
 * combination's outcomes when they fit in it: only for a handful of
 * combinations next to the rows' size, cheap then). */
#define SWEEP_CACHE_ROW_BYTES ((uint64_t)16 << 20)

/* Value index count of role `level` (0: absent). */
static int32_t role_values(const fit_tables_t *t, int level)
{
    return level == RACE_TARGET ? t->n_targets : level == RACE_STOP ? t->n_stops : t->more[level - RACE_MORE].n;
}

ev_status sweep_cache_init(sweep_cache_t *c, const fit_tables_t *t, ev_error *err)
{
    const size_t n = (size_t)t->n_trades + 1;
    int failed = 0;
    memset(c, 0, sizeof *c);
    c->t = t;
    for (int level = RACE_TARGET; level < RACE_LEVELS; level++) {
        c->at[level] = -1;
        if (!role_values(t, level))
            continue;
        c->key[level] = (int64_t *)malloc(n * sizeof *c->key[level]);
        c->q[level] = (int64_t *)malloc(n * sizeof *c->q[level]);
        c->lf[level] = t->need_lf ? (int64_t *)malloc(n * sizeof *c->lf[level]) : NULL;
        failed |= !c->key[level] || !c->q[level] || (t->need_lf && !c->lf[level]);
    }
    /* rows within the budget (optional: without them a sweep tests cells) */
    if (!failed && kept_sets_build(&c->ks, t, SWEEP_CACHE_ROW_BYTES, err) == EV_OK && c->ks.bits)
        failed |= !(c->kept = (uint64_t *)malloc(((size_t)c->ks.n_words + 1) * sizeof *c->kept));
    if (failed) {
        sweep_cache_free(c);
        return ev_fail(err, EV_ENOMEM, "out of memory for a climb's exit columns (%lld trades)",
                       (long long)t->n_trades);
    }
    return EV_OK;
}

void sweep_cache_free(sweep_cache_t *c)
{
    for (int level = 0; level < RACE_LEVELS; level++) {
        free(c->key[level]);
        free(c->q[level]);
        free(c->lf[level]);
    }
    kept_sets_free(&c->ks);
    free(c->kept);
    sweep_row_free(&c->row);
    memset(c, 0, sizeof *c);
}

/* Role `level`'s column at value i: race_row's entries, trade by trade,
 * with the row strides worked out once (a target's or stop's outcome is one
 * per level unless fill: price). */
static void column(sweep_cache_t *c, int level, int32_t i)
{
    const fit_tables_t *t = c->t;
    const race_row_t r = race_row(t, 0, level);
    const int64_t n = role_values(t, level), qs = level >= RACE_MORE || t->fill_price ? n : 0;
    const int32_t *hit = r.hit + i;
    const int64_t *q = r.q + i;
    int64_t *key = c->key[level], *cq = c->q[level];
    for (int64_t j = 0; j < t->n_trades; j++) {
        key[j] = (int64_t)hit[j * n] * 8 + level;
        cq[j] = q[j * qs];
    }
    if (c->lf[level])
        for (int64_t j = 0; j < t->n_trades; j++)
            c->lf[level][j] = r.lf[i + j * qs];
}

void sweep_cache_set(sweep_cache_t *c, const tables_exits_t *x, int skip1, int skip2)
{
    c->n_act = 0;
    for (int level = RACE_TARGET; level < RACE_LEVELS; level++) {
        const int32_t i = race_index(x, level);
        if (i < 0 || level == skip1 || level == skip2)
            continue;
        c->act_key[c->n_act] = c->key[level];
        c->act_q[c->n_act] = c->q[level];
        c->act_lf[c->n_act++] = c->lf[level];
        if (c->at[level] == i)
            continue;
        column(c, level, i);
        c->at[level] = i;
    }
}

const uint64_t *sweep_cache_kept(sweep_cache_t *c, const uint16_t *gf, int32_t f1, int32_t f2)
{
    const kept_sets_t *ks = &c->ks;
    const int64_t nw = ks->n_words;
    if (!ks->bits)
        return NULL;
    for (int64_t w = 0; w < nw; w++)
        c->kept[w] = ~UINT64_C(0);
    if (c->t->n_trades & 63)
        c->kept[nw - 1] = (UINT64_C(1) << (c->t->n_trades & 63)) - 1;
    for (int32_t f = 0; f < c->t->n_filters; f++) {
        const uint64_t *r = ks->bits + (ks->row0[f] + gf[f]) * nw;
        if (f == f1 || f == f2)
            continue;
        for (int64_t w = 0; w < nw; w++)
            c->kept[w] &= r[w];
    }
    return c->kept;
}
