/* The bit-sliced evaluator on the device (issue 34; fitness/slices.h): the
 * kept-trade rows of every filter value, the folds' trade bitsets and the
 * bit planes of each exit combination, uploaded once per dataset, and the
 * scratch that splits a batch of genomes into the sliced ones (sorted by
 * exit combination) and those that walk. C++ only; fitness.cu drives it
 * (cuda_eval_device_genes), slices_device.cu holds the kernels. */
#ifndef EVOLVE_SLICES_DEVICE_CUH
#define EVOLVE_SLICES_DEVICE_CUH

#include <stdint.h>

#include "fitness/slices.h"
#include "fitness/tables.h"
#include "kernels/cuda_api.h"
#include "kernels/kernel_args.cuh"

/* A combination with more planes walks: every additive objective's planes
 * fit (sharpe at most 64 + 126, profit_factor 127, compound 65), and the
 * per-thread counts stay at 1.5 KB. */
#define SLICES_DEV_MAX_PLANES 192
/* No planes for combination c: off[c] of the view. */
#define SLICES_DEV_NONE UINT64_MAX

/* What the kernels read (by value). */
typedef struct {
    const uint64_t *rows;          /* filter f, mirrored gene g at (row0[f] + g) * n_words */
    const uint64_t *fold_bits;     /* [n_folds][n_words], NULL without a fold statistic */
    const uint64_t *planes;        /* every built combination's planes, one after another */
    const slices_combo_t *combo;   /* [n_combos] */
    const uint64_t *off;           /* [n_combos]: word offset of c's planes, SLICES_DEV_NONE: c walks */
    unsigned long long *blocks_sm; /* blocks that read a shared-memory tile (a statistic) */
    int64_t row0[EV_MAX_PARAMS];
    int64_t n_words;
    uint64_t n_combos;
    int32_t mode; /* slices_mode: auto or slices (walk uploads nothing) */
} slices_dev_view_t;
KERNEL_ARG_POINTERS(slices_dev_view_t, rows, fold_bits, planes, combo, off, blocks_sm)

struct cuda_slices {
    slices_dev_view_t v;
    void *mem[6]; /* the view's allocations, freed at close */
    cuda_slices_info_t info;
    /* split scratch for up to cap genomes, allocated on first use */
    uint64_t cap;
    uint64_t *key_a, *key_b;
    uint32_t *perm_a, *perm_b;
    uint16_t *genes;          /* [n_params][cap]: the batch in sorted order */
    eval_result_t *res;       /* [cap]: results in sorted order */
    unsigned long long *n_sl; /* genomes of the batch that take the slices */
    void *temp;
    size_t temp_bytes;
    int scratch_failed; /* no memory for the scratch: every batch walks (said once) */
};

/* Frees the split scratch (slices_dev_split allocates it again). */
void slices_dev_scratch_free(cuda_slices_t *s);
/* Frees everything (NULL: nothing). slices_upload.cu. */
void slices_dev_free(cuda_slices_t *s);

/* Splits genomes [0, n) (gene k of genome i at genes[k * stride + i]) for
 * tables t: s->genes holds them with the sliced ones first, sorted by exit
 * combination, *n_sl of them. *split 0: no scratch (out of device memory,
 * said once); the caller walks the batch as it is. Synchronises (n_sl). */
ev_status slices_dev_split(cuda_slices_t *s, const fit_tables_t &t, const uint16_t *genes, uint64_t stride,
                           int32_t n_params, uint64_t n, int *split, uint64_t *n_sl, ev_error *err);
/* The sliced genomes [first, first + count) of s->genes (stride n) into s->res. */
ev_status slices_dev_eval(cuda_slices_t *s, const fit_tables_t &t, int32_t n_params, uint64_t n, uint64_t first,
                          uint64_t count, ev_error *err);
/* out[i] of each genome i of the split batch from s->res. */
ev_status slices_dev_scatter(cuda_slices_t *s, uint64_t n, eval_result_t *out, ev_error *err);

#endif
