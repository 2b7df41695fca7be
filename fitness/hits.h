/* The path-based stop/target simulator (SPEC sec. 4), in two equivalent forms
 * shared by the CPU backend and the CUDA kernels:
 *
 *  - outcome_walk: the SPEC loop itself for one (trade, target, stop);
 *  - hits_scan:    one pass over a trade's path that finds, for every lattice
 *                  target and stop level at once, the first second it is hit.
 *
 * Levels are computed in double and rounded once to float32; every comparison
 * is float32 price against float32 level, so all backends decide every hit the
 * same way. */
#ifndef EVOLVE_HITS_H
#define EVOLVE_HITS_H

#include <stdint.h>

#include "common/hd.h"

/* "Never hit": larger than any path offset. */
#define EV_NO_HIT INT32_MAX

/* (float)(e * (1 + pct/100)), computed in double and rounded once. */
EV_HD float level_price(double entry, double pct)
{
    return (float)(entry * (1.0 + pct / 100.0));
}

/* A trailing stop's level at running maximum m (SPEC sec. 4.1): in double,
 * rounded once to float32. */
EV_HD float trail_level(double m, double pct)
{
    return (float)(m * (1.0 - pct / 100.0));
}

/* What happened to one trade under one (target, stop). */
typedef struct {
    int32_t kind;   /* 0: neither hit (logged result), 1: target, 2: stop */
    int32_t offset; /* path offset of the hit second (kind 1, 2) */
} walk_result_t;

/* The SPEC loop: price: the trade's path price[start:end); has_t/has_s say
 * whether the genome has a target/stop at all. */
EV_HD walk_result_t outcome_walk(const float *path, int64_t len, int has_t, float t_level, int has_s, float s_level)
{
    walk_result_t r;
    r.kind = 0;
    r.offset = 0;
    for (int64_t i = 0; i < len; i++) {
        if (has_t && path[i] >= t_level) {
            r.kind = 1;
            r.offset = (int32_t)i;
            return r;
        }
        if (has_s && path[i] <= s_level) {
            r.kind = 2;
            r.offset = (int32_t)i;
            return r;
        }
    }
    return r;
}

/* First-hit offsets of every level along one path, in one pass.
 * t_levels: float[n_t], non-decreasing (targets in lattice order);
 * s_levels: float[n_s], non-decreasing (stops in lattice order, so the last is
 * the closest to the entry and is hit first). Writes hit_t[n_t], hit_s[n_s]
 * (EV_NO_HIT where never hit). First hits are monotone in the level, so two
 * pointers suffice, and the scan ends as soon as every level has been hit. */
EV_HD void hits_scan(const float *path, int64_t len, const float *t_levels, int32_t n_t, const float *s_levels,
                     int32_t n_s, int32_t *hit_t, int32_t *hit_s)
{
    int32_t pt = 0;       /* lowest target not hit yet */
    int32_t ps = n_s - 1; /* highest stop not hit yet */
    for (int32_t i = 0; i < n_t; i++)
        hit_t[i] = EV_NO_HIT;
    for (int32_t i = 0; i < n_s; i++)
        hit_s[i] = EV_NO_HIT;
    for (int64_t i = 0; i < len && (pt < n_t || ps >= 0); i++) {
        float p = path[i];
        while (pt < n_t && p >= t_levels[pt])
            hit_t[pt++] = (int32_t)i;
        while (ps >= 0 && p <= s_levels[ps])
            hit_s[ps--] = (int32_t)i;
    }
}

#endif
