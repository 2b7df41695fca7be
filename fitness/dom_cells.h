/* Dominance-sum cells as structure of arrays, one uint64 array per field the
 * objective needs: count and sum always; + pos (profit_factor); + sumsq
 * lo/hi (sharpe); + lsum and ruin (compound). Each sweep then moves 16 to 56
 * bytes a cell instead of a whole accum_t. Signed fields are kept as two's
 * complement words (uint64 addition wraps exactly like int64). */
#ifndef EVOLVE_DOM_CELLS_H
#define EVOLVE_DOM_CELLS_H

#include <stddef.h>
#include <stdint.h>

#include "common/hd.h"
#include "fitness/accum.h"

typedef struct {
    uint64_t *n, *sum, *pos, *sq_lo, *sq_hi, *lsum, *ruin; /* [cells] each, NULL: not needed */
} dom_cells_t;

/* uint64 words per cell for an objective. */
EV_HD uint32_t dom_cells_words(const objective_prep_t *o)
{
    return 2u + (o->need_pos ? 1u : 0u) + (o->need_sumsq ? 2u : 0u) + (o->need_log ? 2u : 0u);
}

/* Points the needed fields into one allocation of words * cells (the
 * others NULL), in the order count, sum, pos, sq_lo, sq_hi, lsum, ruin. */
EV_HD void dom_cells_bind(dom_cells_t *c, uint64_t *mem, uint64_t cells, const objective_prep_t *o)
{
    uint64_t *at = mem;
    c->n = at;
    c->sum = (at += cells);
    at += cells;
    c->pos = o->need_pos ? at : NULL;
    at += o->need_pos ? cells : 0;
    c->sq_lo = o->need_sumsq ? at : NULL;
    c->sq_hi = o->need_sumsq ? at + cells : NULL;
    at += o->need_sumsq ? 2 * cells : 0;
    c->lsum = o->need_log ? at : NULL;
    c->ruin = o->need_log ? at + cells : NULL;
}

EV_HD accum_t dom_cells_load(const dom_cells_t *c, uint64_t x)
{
    accum_t a;
    accum_init(&a);
    a.n = (int64_t)c->n[x];
    a.sum = (int64_t)c->sum[x];
    if (c->pos)
        a.pos = (int64_t)c->pos[x];
    if (c->sq_lo) {
        a.sumsq.lo = c->sq_lo[x];
        a.sumsq.hi = c->sq_hi[x];
    }
    if (c->lsum) {
        a.lsum = (int64_t)c->lsum[x];
        a.ruin = (int64_t)c->ruin[x];
    }
    return a;
}

EV_HD void dom_cells_store(const dom_cells_t *c, uint64_t x, const accum_t *a)
{
    c->n[x] = (uint64_t)a->n;
    c->sum[x] = (uint64_t)a->sum;
    if (c->pos)
        c->pos[x] = (uint64_t)a->pos;
    if (c->sq_lo) {
        c->sq_lo[x] = a->sumsq.lo;
        c->sq_hi[x] = a->sumsq.hi;
    }
    if (c->lsum) {
        c->lsum[x] = (uint64_t)a->lsum;
        c->ruin[x] = (uint64_t)a->ruin;
    }
}

/* cell x += a (one thread per cell at a time; the device adds atomically). */
EV_HD void dom_cells_add(const dom_cells_t *c, uint64_t x, const accum_t *a)
{
    c->n[x] += (uint64_t)a->n;
    c->sum[x] += (uint64_t)a->sum;
    if (c->pos)
        c->pos[x] += (uint64_t)a->pos;
    if (c->sq_lo) {
        uint64_t lo = c->sq_lo[x] + a->sumsq.lo;
        c->sq_hi[x] += a->sumsq.hi + (lo < c->sq_lo[x] ? 1u : 0u);
        c->sq_lo[x] = lo;
    }
    if (c->lsum) {
        c->lsum[x] += (uint64_t)a->lsum;
        c->ruin[x] += (uint64_t)a->ruin;
    }
}

#endif
