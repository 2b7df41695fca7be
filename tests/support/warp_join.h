/* The CUDA tables evaluator's join of its lanes' slices (kernels/fitness.cu,
 * tables_eval_warp), on the CPU: at step `by` = 1, 2, 4, ..., lane l (a
 * multiple of 2 by) joins lane l + by, so s[0] ends holding every slice in
 * order. For the tests that check that tree against the sequential sums. */
#ifndef EVOLVE_TESTS_WARP_JOIN_H
#define EVOLVE_TESTS_WARP_JOIN_H

#include "fitness/accum_seg.h"

static inline void warp_join(accum_seg_t *s, uint32_t lanes, const objective_prep_t *o)
{
    for (uint32_t by = 1; by < lanes; by *= 2)
        for (uint32_t l = 0; l + by < lanes; l += 2 * by)
            accum_seg_join(&s[l], &s[l + by], o);
}

#endif
