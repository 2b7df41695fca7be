/* The bit-sliced evaluator's data on the device, once per dataset: built on
 * the host by fitness/slices_build.c (the CPU backend's own planes), then
 * uploaded as the kept-set rows, the folds' bitsets, the planes of every
 * combination that fit, one after another, and each combination's layout
 * and offset (kernels/slices_device.cuh). */
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "fitness/slices_build.h"
#include "kernels/cuda_check.h"
#include "kernels/eval_device.cuh"
#include "kernels/slices_device.cuh"

/* Host work of building planes at open: trade outcomes over the combinations
 * (~100 ns each, fitness/slices_build.h: about 7 s at the cap); past it the
 * remaining combinations walk. */
#define SLICES_DEV_BUILD_MAX ((uint64_t)1 << 26)
/* The host's kept-set rows and pair outcomes the planes are built from. */
#define SLICES_DEV_HOST_MAX ((uint64_t)256 << 20)

/* The planes of combinations in order on the host, within budget and the
 * build cap; *why names what stopped them (NULL: all built). */
static ev_status host_build(slices_t *sl, const kept_sets_t *ks, uint64_t budget, const char **why, ev_error *err)
{
    ev_status st = slices_open(sl, ks, budget, err);
    uint64_t work = 0;
    *why = NULL;
    if (st != EV_OK)
        return st;
    if (!sl->combo) {
        *why = "their tables do not fit in the device memory allowed for them";
        return EV_OK;
    }
    for (uint64_t c = 0; c < sl->n_combos; c++) {
        if ((work += (uint64_t)ks->t->n_trades) > SLICES_DEV_BUILD_MAX) {
            *why = "building more would take the host several seconds";
            break;
        }
        if ((st = slices_build_combo(sl, c, err)) != EV_OK)
            return st;
        if (sl->state[c] == SLICES_REFUSED) {
            *why = "the rest do not fit in the device memory allowed for them";
            break;
        }
    }
    return EV_OK;
}

/* Device word offset of each combination's planes (SLICES_DEV_NONE: it
 * walks); returns the words of all. */
static uint64_t plane_offsets(const slices_t *sl, uint64_t *off)
{
    uint64_t words = 0;
    for (uint64_t c = 0; c < sl->n_combos; c++) {
        off[c] = SLICES_DEV_NONE;
        if (sl->planes[c] && sl->combo[c].planes <= SLICES_DEV_MAX_PLANES) {
            off[c] = words;
            words += (uint64_t)sl->combo[c].planes * (uint64_t)sl->n_words;
        }
    }
    return words;
}

static ev_status put(cuda_slices_t *s, int slot, const void *host, uint64_t bytes, ev_error *err)
{
    ev_status st = EV_OK;
    CUDA_TRY(cudaMalloc(&s->mem[slot], bytes ? bytes : 8));
    if (host && bytes)
        CUDA_TRY(cudaMemcpy(s->mem[slot], host, bytes, cudaMemcpyHostToDevice));
    return EV_OK;
fail:
    return st;
}

void slices_dev_free(cuda_slices_t *s)
{
    if (!s)
        return;
    slices_dev_scratch_free(s);
    for (int i = 0; i < 6; i++)
        if (s->mem[i])
            cudaFree(s->mem[i]); /* an error here (a dead context) leaves nothing to undo */
    free(s);
}

/* Uploads what the host built: rows, folds, planes, layouts, offsets, counters. */
static ev_status upload(cuda_slices_t *s, const kept_sets_t *ks, const slices_t *sl, ev_error *err)
{
    ev_status st = EV_OK;
    const fit_tables_t *t = ks->t;
    uint64_t rows = 0, words, *off = (uint64_t *)malloc(((size_t)sl->n_combos + 1) * sizeof *off);
    if (!off)
        return ev_fail(err, EV_ENOMEM, "out of host memory for the bit planes' offsets");
    for (int32_t f = 0; f < t->n_filters; f++)
        rows += t->filter_n[f];
    words = plane_offsets(sl, off);
    st = put(s, 0, ks->bits, rows * (uint64_t)ks->n_words * 8u, err);
    if (st == EV_OK && sl->fold_bits)
        st = put(s, 1, sl->fold_bits, (uint64_t)t->n_folds * (uint64_t)sl->n_words * 8u, err);
    if (st == EV_OK)
        st = put(s, 2, NULL, words * 8u, err);
    for (uint64_t c = 0; st == EV_OK && c < sl->n_combos; c++) /* each combination's planes into the arena */
        if (off[c] != SLICES_DEV_NONE &&
            cudaMemcpy((uint64_t *)s->mem[2] + off[c], sl->planes[c],
                       (size_t)sl->combo[c].planes * (size_t)sl->n_words * 8u, cudaMemcpyHostToDevice) != cudaSuccess)
            st = ev_fail(err, EV_ECUDA, "copying the bit planes of exit combination %llu to the device failed",
                         (unsigned long long)c);
    if (st == EV_OK)
        st = put(s, 3, sl->combo, sl->n_combos * sizeof *sl->combo, err);
    if (st == EV_OK)
        st = put(s, 4, off, sl->n_combos * sizeof *off, err);
    if (st == EV_OK && (st = put(s, 5, NULL, 2 * sizeof(unsigned long long), err)) == EV_OK &&
        cudaMemset(s->mem[5], 0, 2 * sizeof(unsigned long long)) != cudaSuccess)
        st = ev_fail(err, EV_ECUDA, "clearing the bit-sliced evaluator's counters failed");
    s->info.bytes = (rows + (sl->fold_bits ? (uint64_t)t->n_folds : 0u)) * (uint64_t)ks->n_words * 8u + words * 8u;
    for (uint64_t c = 0; c < sl->n_combos; c++)
        s->info.combos += off[c] != SLICES_DEV_NONE;
    free(off);
    return st;
}

/* The view of the uploaded arrays. */
static void bind(cuda_slices_t *s, const kept_sets_t *ks, const slices_t *sl, slices_mode mode)
{
    slices_dev_view_t *v = &s->v;
    v->rows = (const uint64_t *)s->mem[0];
    v->fold_bits = (const uint64_t *)s->mem[1];
    v->planes = (const uint64_t *)s->mem[2];
    v->combo = (const slices_combo_t *)s->mem[3];
    v->off = (const uint64_t *)s->mem[4];
    v->blocks_sm = (unsigned long long *)s->mem[5];
    s->n_sl = (unsigned long long *)s->mem[5] + 1;
    memcpy(v->row0, ks->row0, sizeof v->row0);
    v->n_words = ks->n_words;
    v->n_combos = sl->n_combos;
    v->mode = (int32_t)mode;
}

extern "C" ev_status cuda_eval_slices(cuda_eval_t *e, const fit_tables_t *host, slices_mode mode, uint64_t max_bytes,
                                      cuda_slices_info_t *info, ev_error *err)
{
    ev_status st = EV_OK;
    kept_sets_t ks;
    slices_t sl;
    cuda_slices_t *s = NULL;
    const char *why = NULL;
    memset(info, 0, sizeof *info);
    memset(&sl, 0, sizeof sl);
    info->n_combos = tables_exit_combos(host);
    info->max_bytes = max_bytes;
    slices_dev_free(e->sl);
    e->sl = NULL;
    if (mode == SLICES_MODE_WALK || !slices_objective_ok(&host->obj) || host->n_trades == 0)
        return EV_OK;
    if ((st = kept_sets_build(&ks, host, SLICES_DEV_HOST_MAX, err)) != EV_OK)
        return st;
    if (!ks.bits)
        why = "the kept-set rows do not fit in host memory's budget";
    else if ((st = host_build(&sl, &ks, max_bytes, &why, err)) == EV_OK && sl.combo && sl.combos_built > 0 &&
             (s = (cuda_slices_t *)calloc(1, sizeof *s)) == NULL)
        st = ev_fail(err, EV_ENOMEM, "out of host memory for the bit-sliced evaluator");
    if (st == EV_OK && s) {
        if ((st = upload(s, &ks, &sl, err)) == EV_OK && s->info.combos > 0) {
            bind(s, &ks, &sl, mode);
            s->info.n_combos = info->n_combos;
            s->info.max_bytes = max_bytes;
            s->info.walk_why = why;
            e->sl = s;
            s = NULL;
        } else if (st == EV_ENOMEM || st == EV_OK) {
            why = st == EV_OK ? "no combination has planes the device evaluates" : "no device memory for them";
            st = EV_OK;
        }
    }
    slices_dev_free(s);
    slices_free(&sl);
    kept_sets_free(&ks);
    if (e->sl)
        *info = e->sl->info;
    else
        info->walk_why = why ? why : "no combination's planes fit";
    return st;
}

extern "C" cuda_slices_info_t cuda_eval_slices_info(cuda_eval_t *e)
{
    cuda_slices_info_t info;
    unsigned long long blocks = 0;
    memset(&info, 0, sizeof info);
    if (!e || !e->sl)
        return info;
    info = e->sl->info;
    if (cudaMemcpy(&blocks, e->sl->v.blocks_sm, sizeof blocks, cudaMemcpyDeviceToHost) != cudaSuccess)
        (void)cudaGetLastError(); /* a statistic: a dead context shows at the next real call */
    info.blocks_tiled = blocks;
    return info;
}
