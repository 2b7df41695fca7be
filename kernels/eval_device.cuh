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
    const cuda_tables_t *t;  /* device tables (not owned) */
    lattice_shape_t shape;   /* linear index <-> genes */
    cuda_eval_sizes_t sizes; /* batch_max, launch_max, topk_cap */
    eval_result_t *results;  /* [batch_max] device: one batch's results */
    uint16_t *genes;         /* [n_params][batch_max] device: one batch's SoA genes */
    topk_dev_t topk;         /* selection-pass buffers */
    cuda_slices_t *sl;       /* the bit-sliced evaluator (kernels/slices_device.cuh), NULL: the walk only */
};

/* The tables evaluator on n genomes already on the device (the GA's new
 * genomes): gene k of genome i at genes[k * stride + i]; results into out
 * (device). Launches of at most sizes.launch_max genomes, so each stays
 * short; asynchronous (stream order). fitness.cu. */
ev_status cuda_eval_device_genes(cuda_eval_t *e, const uint16_t *genes, uint64_t stride, uint64_t n, eval_result_t *out,
                                 ev_error *err);

#endif
