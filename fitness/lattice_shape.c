#include "fitness/lattice_shape.h"

#include <string.h>

void lattice_shape_from(lattice_shape_t *s, const lattice_t *lat)
{
    memset(s, 0, sizeof *s);
    s->n_params = lat->n_params;
    for (int32_t k = 0; k < lat->n_params; k++)
        s->n_values[k] = lat->params[k].n_values;
    if (lat->size_fits) {
        uint64_t stride = 1;
        for (int32_t k = lat->n_params - 1; k >= 0; k--) {
            s->stride[k] = stride;
            stride *= s->n_values[k];
        }
    }
}
