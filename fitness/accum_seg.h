/* A contiguous run of trades as a joinable accumulator: accum.h's sums plus
 * the lowest point of the run's own equity curve, so that two runs, one after
 * the other, join into the accumulator of both (the drawdown too), with
 * integer operations only. Lanes that each accumulate a slice of a genome's
 * trades and then join in slice order therefore give accum_add's sequential
 * result bit for bit (kernels/fitness.cu: a warp per genome).
 *
 * Within a run, `a` starts at equity 0 with peak 0 (accum_init), so a.equity
 * is the run's sum, a.peak its highest prefix (>= 0), a.maxdd its largest
 * drawdown from a peak inside it, and trough its lowest prefix (<= 0). */
#ifndef EVOLVE_ACCUM_SEG_H
#define EVOLVE_ACCUM_SEG_H

#include <stdint.h>

#include "common/hd.h"
#include "fitness/accum.h"

typedef struct {
    accum_t a;
    int64_t trough; /* lowest equity of the run, relative to its start (<= 0); need_dd only */
} accum_seg_t;

EV_HD void accum_seg_init(accum_seg_t *s)
{
    accum_init(&s->a);
    s->trough = 0;
}

EV_HD void accum_seg_add(accum_seg_t *s, const objective_prep_t *o, int64_t q, int64_t lf)
{
    accum_add(&s->a, o, q, lf);
    if (o->need_dd && s->a.equity < s->trough)
        s->trough = s->a.equity;
}

EV_HD int64_t accum_seg_max(int64_t x, int64_t y)
{
    return x > y ? x : y;
}

/* x = x followed by y. A drawdown of the joined run either lies inside x,
 * inside y, or falls from x's peak to y's trough (shifted by x's sum). */
EV_HD void accum_seg_join(accum_seg_t *x, const accum_seg_t *y, const objective_prep_t *o)
{
    const int64_t base = x->a.equity;
    accum_merge(&x->a, &y->a);
    if (!o->need_dd)
        return;
    x->a.maxdd = accum_seg_max(accum_seg_max(x->a.maxdd, y->a.maxdd), x->a.peak - (base + y->trough));
    x->a.peak = accum_seg_max(x->a.peak, base + y->a.peak);
    if (base + y->trough < x->trough)
        x->trough = base + y->trough;
    x->a.equity = base + y->a.equity;
}

/* Slice `lane` of `lanes` over n trades: [*j0, *j1), contiguous, in order. */
EV_HD void accum_seg_slice(int64_t n, uint32_t lane, uint32_t lanes, int64_t *j0, int64_t *j1)
{
    const int64_t per = (n + (int64_t)lanes - 1) / (int64_t)lanes;
    int64_t a = (int64_t)lane * per, b = a + per;
    *j0 = a < n ? a : n;
    *j1 = b < n ? b : n;
}

#endif
