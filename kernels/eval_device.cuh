/* The scratch of one CUDA evaluator (cuda_eval_t), shared by fitness.cu and
 * dominance.cu. C++ only; the C world sees the opaque type. */
#ifndef EVOLVE_EVAL_DEVICE_CUH
#define EVOLVE_EVAL_DEVICE_CUH

#include <stdint.h>

#include "fitness/lattice_shape.h"
#include "kernels/cuda_api.h"
#include "kernels/tables_device.cuh"
#include "kernels/topk_device.cuh"

struct cuda_eval {
    const cuda_tables_t *t;   /* device tables (not owned) */
    lattice_shape_t shape;    /* linear index <-> genes */
    cuda_eval_sizes_t sizes;  /* batch_max, launch_max, topk_cap */
    eval_result_t *results;   /* [batch_max] device: one batch's results */
    uint16_t *genes;          /* [n_params][batch_max] device: one batch's SoA genes */
    topk_dev_t topk;          /* selection-pass buffers */
};

#endif
