/* First-hit tables in device memory: the layout shared by the .cu files that
 * read them (C++ only; the C world sees the opaque cuda_tables_t). */
#ifndef EVOLVE_TABLES_DEVICE_CUH
#define EVOLVE_TABLES_DEVICE_CUH

#include <stdint.h>

#include "fitness/tables.h"
#include "kernels/cuda_api.h"

/* The arrays of fit_tables_t, in one order for upload, download and layout. */
enum {
    TA_CELLS = 0, /* uint16[n_trades][n_filters] */
    TA_HIT_T,     /* int32[n_trades][n_targets] */
    TA_HIT_S,     /* int32[n_trades][n_stops] */
    TA_Q_T,       /* int64[q_t_len] */
    TA_Q_S,       /* int64[q_s_len] */
    TA_Q_LOG,     /* int64[n_trades] */
    TA_LF_T,      /* int64[q_t_len], compound only */
    TA_LF_S,      /* int64[q_s_len], compound only */
    TA_LF_LOG,    /* int64[n_trades], compound only */
    TA_FOLD,      /* uint8[n_trades], objective.aggregate only */
    TA_MORE_HIT,  /* TA_MORE_HIT + r: int32[n_trades][more[r].n], SPEC sec. 4.1's exit r (MORE_EXITS of them) */
    TA_MORE_Q = TA_MORE_HIT + MORE_EXITS, /* + r: int64[n_trades][more[r].n] */
    TA_MORE_LF = TA_MORE_Q + MORE_EXITS,  /* + r: likewise, compound only */
    TA_COUNT = TA_MORE_LF + MORE_EXITS
};

struct cuda_tables {
    fit_tables_t view;        /* layout + device pointers into mem; kernels take it by value */
    void *mem;                /* one cudaMalloc holding every array, 256-byte aligned each */
    uint64_t bytes;           /* size of mem */
    int64_t q_t_len, q_s_len; /* elements of q_t/q_s (and lf_t/lf_s) */
    void *arr[TA_COUNT];      /* device pointer of each array (NULL: absent) */
    uint64_t count[TA_COUNT]; /* elements of each array */
    uint32_t elem[TA_COUNT];  /* bytes per element */
};

/* Allocates the arrays for a layout (view without pointers; see
 * tables_layout) and binds the view to them; contents undefined. */
ev_status tables_device_alloc(cuda_tables_t **out, const fit_tables_t *layout, int64_t q_t_len, int64_t q_s_len,
                              ev_error *err);

/* Copies array `a` (TA_*) from the host; absent or empty arrays are skipped. */
ev_status tables_device_put(cuda_tables_t *t, int a, const void *host, ev_error *err);

#endif
