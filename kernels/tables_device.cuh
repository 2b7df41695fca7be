/* First-hit tables in device memory: the layout shared by the .cu files that
 * read them (C++ only; the C world sees the opaque cuda_tables_t). */
#ifndef EVOLVE_TABLES_DEVICE_CUH
#define EVOLVE_TABLES_DEVICE_CUH

#include <stdint.h>

#include "fitness/tables.h"
#include "fitness/tables_layout.h"
#include "kernels/cuda_api.h"
#include "kernels/kernel_args.cuh"

struct cuda_tables {
    fit_tables_t view;        /* layout + device pointers into mem; kernels take it by value */
    void *mem;                /* one cudaMalloc of lay.bytes holding every array, 256-byte aligned each */
    int64_t q_t_len, q_s_len; /* elements of q_t/q_s (and lf_t/lf_s) */
    void *arr[TA_COUNT];      /* device pointer of each array (NULL: absent) */
    tables_layout_t lay;      /* each array's count, element size and offset */
};

/* Allocates the arrays for a layout (view without pointers; see
 * tables_layout) and binds the view to them; contents undefined. */
ev_status tables_device_alloc(cuda_tables_t **out, const fit_tables_t *layout, int64_t q_t_len, int64_t q_s_len,
                              ev_error *err);

/* Copies array `a` (TA_*) from the host; absent or empty arrays are skipped. */
ev_status tables_device_put(cuda_tables_t *t, int a, const void *host, ev_error *err);

#endif
