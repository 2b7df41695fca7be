/* The compact, copyable shape of a lattice, used by every evaluator and
 * kernel: sizes and row-major strides, and the linear index <-> genes maps. */
#ifndef EVOLVE_LATTICE_SHAPE_H
#define EVOLVE_LATTICE_SHAPE_H

#include <stdint.h>

#include "common/hd.h"
#include "fitness/lattice.h"

typedef struct {
    int32_t n_params;
    int32_t pad_;
    uint32_t n_values[EV_MAX_PARAMS];
    uint64_t stride[EV_MAX_PARAMS]; /* stride[k] = prod_{j>k} n_values[j] (valid when size fits) */
} lattice_shape_t;
EV_STATIC_ASSERT(sizeof(lattice_shape_t) == 8 + 4 * EV_MAX_PARAMS + 8 * EV_MAX_PARAMS,
                 "lattice_shape_t layout is shared with CUDA");

/* index = sum_k g_k * stride_k (SPEC sec. 3) */
EV_HD uint64_t shape_encode(const lattice_shape_t *s, const uint16_t *genes)
{
    uint64_t idx = 0;
    for (int32_t k = 0; k < s->n_params; k++)
        idx += (uint64_t)genes[k] * s->stride[k];
    return idx;
}

EV_HD void shape_decode(const lattice_shape_t *s, uint64_t idx, uint16_t *genes)
{
    for (int32_t k = 0; k < s->n_params; k++) {
        genes[k] = (uint16_t)(idx / s->stride[k]);
        idx -= (uint64_t)genes[k] * s->stride[k];
    }
}

#ifdef __cplusplus
extern "C" {
#endif
/* Fills a shape from a lattice (strides are computed only when size_fits). */
void lattice_shape_from(lattice_shape_t *s, const lattice_t *lat);
#ifdef __cplusplus
}
#endif

#endif
