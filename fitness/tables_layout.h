/* The first-hit tables (fitness/tables.h) as one block of memory: each array's
 * element count and size, whether the layout has it, and the 256-byte aligned
 * total. The CUDA backend allocates its device tables by it
 * (kernels/tables_device.cu); any host can size them with it (the 8 GB card's
 * budget at the user's scale: tests/test_more_exits.c, kernels/README.md). */
#ifndef EVOLVE_TABLES_LAYOUT_H
#define EVOLVE_TABLES_LAYOUT_H

#include <stdint.h>

#include "fitness/tables.h"

#ifdef __cplusplus
extern "C" {
#endif

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

typedef struct {
    uint64_t count[TA_COUNT];  /* elements of each array */
    uint32_t elem[TA_COUNT];   /* bytes per element */
    uint8_t present[TA_COUNT]; /* 0: the layout has no such array (its pointer NULL) */
    uint64_t offset[TA_COUNT]; /* where a present array starts, 256-byte aligned */
    uint64_t bytes;            /* the whole block (256 at least) */
} tables_layout_t;

/* The layout of v's arrays (v: n_trades, n_filters, n_targets, n_stops,
 * need_lf, agg, more[].n and .param; no pointers needed); q_t_len, q_s_len:
 * elements of q_t and q_s (n_targets and n_stops, times n_trades with
 * fill: price). */
void tables_layout_plan(const fit_tables_t *v, int64_t q_t_len, int64_t q_s_len, tables_layout_t *out);

#ifdef __cplusplus
}
#endif
#endif
