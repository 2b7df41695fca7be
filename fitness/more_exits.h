/* The exits of SPEC sec. 4.1 for one trade, per value of their parameter:
 * the path offset where each value exits (EV_NO_HIT: never) and the outcome
 * there, micro-percent less costs. Values are strictly increasing, and each
 * event's first second is monotone in its value (a wider trail, a higher
 * breakeven or a longer hold never exits earlier), so each role is one pass
 * over the path; `off` (+inf, always last) is never hit. The first-hit tables
 * (fitness/tables.c) store these; the
 * reference (fitness/eval_reference.c) walks the same rules second by second. */
#ifndef EVOLVE_MORE_EXITS_H
#define EVOLVE_MORE_EXITS_H

#include <stdint.h>

#include "common/hd.h"
#include "fitness/accum.h"
#include "fitness/hits.h"

/* A value of `off` (SPEC sec. 4.1: +inf, the last value): never an event. */
EV_HD int more_off(double v)
{
    return v == ev_pos_inf();
}

/* trail x[n]: running maximum m_i = max(e, path[0..i]) in double, level
 * trail_level(m_i, x), hit where path[i] <= level; a larger x has a lower
 * level at every second, so values are hit in order. */
EV_HD void more_trail(const float *path, int64_t len, double e, const double *x, int32_t n, int fill_price,
                      double cost_pct, int32_t *hit, int64_t *q)
{
    double m = e;
    int32_t v = 0;
    for (int64_t i = 0; i < len && v < n; i++) {
        if ((double)path[i] > m)
            m = (double)path[i];
        while (v < n && !more_off(x[v])) {
            const float level = trail_level(m, x[v]);
            if (!(path[i] <= level))
                break;
            hit[v] = (int32_t)i;
            q[v] = outcome_quantise_hd(((double)(fill_price ? path[i] : level) / e - 1.0) * 100.0, cost_pct);
            v++;
        }
    }
    for (; v < n; v++) {
        hit[v] = EV_NO_HIT;
        q[v] = 0;
    }
}

/* breakeven y[n]: armed at the first second with path >= level_price(e, y),
 * then out at the first later second with path <= (float)e, filled at the
 * entry (0 %) or at the price. Values arm in order (their levels increase);
 * a second at or below the entry takes every value armed before it. */
EV_HD void more_breakeven(const float *path, int64_t len, double e, const double *y, int32_t n, int fill_price,
                          double cost_pct, int32_t *hit, int64_t *q)
{
    const float entry = (float)e;
    int32_t armed = 0, out = 0;
    for (int64_t i = 0; i < len && out < n; i++) {
        if (path[i] <= entry)
            for (; out < armed; out++) {
                hit[out] = (int32_t)i;
                q[out] = outcome_quantise_hd(fill_price ? ((double)path[i] / e - 1.0) * 100.0 : 0.0, cost_pct);
            }
        while (armed < n && !more_off(y[armed]) && path[i] >= level_price(e, y[armed]))
            armed++; /* from the next second on */
    }
    for (; out < n; out++) {
        hit[out] = EV_NO_HIT;
        q[out] = 0;
    }
}

/* max_hold h[n] (whole seconds): k = the last path second with timestamp <=
 * entry + h (the first if none), an exit at its price when k is before the
 * path's last second. ts: the path's timestamps. */
EV_HD void more_hold(const float *path, const int64_t *ts, int64_t len, int64_t entry_ts, double e, const double *h,
                     int32_t n, double cost_pct, int32_t *hit, int64_t *q)
{
    int64_t k = 0;
    for (int32_t v = 0; v < n; v++) {
        if (more_off(h[v])) {
            hit[v] = EV_NO_HIT;
            q[v] = 0;
            continue;
        }
        const int64_t until = entry_ts + (int64_t)h[v];
        while (k + 1 < len && ts[k + 1] <= until)
            k++;
        hit[v] = k + 1 < len ? (int32_t)k : EV_NO_HIT;
        q[v] = k + 1 < len ? outcome_quantise_hd(((double)path[k] / e - 1.0) * 100.0, cost_pct) : 0;
    }
}

#endif
