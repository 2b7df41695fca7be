#include "runs/ga_pbo.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "runs/session_validation.h"
#include "fitness/topk.h"

typedef struct {
    uint64_t key, index;
    eval_result_t r;
} seen_t;

/* Best first (SPEC sec. 5: higher key, then lower index). */
static int cmp_seen(const void *pa, const void *pb)
{
    const seen_t *a = (const seen_t *)pa, *b = (const seen_t *)pb;
    if (a->key != b->key)
        return a->key > b->key ? -1 : 1;
    return (a->index > b->index) - (a->index < b->index);
}

/* best[*n] (sorted, unique) plus best[*n .. *n + add): sorted again, each
 * genome once (the first of equal indices: equal results), at most m kept. */
static void keep_best(seen_t *best, size_t *n, size_t add, size_t m)
{
    size_t k = 0;
    qsort(best, *n + add, sizeof *best, cmp_seen);
    for (size_t i = 0; i < *n + add && k < m; i++)
        if (k == 0 || best[i].index != best[k - 1].index)
            best[k++] = best[i];
    *n = k;
}

/* The best m unique feasible genomes of every archived generation into
 * *out[*n], best first, one generation at a time (memory: m + population). */
static ev_status gather(run_file_t *rf, const run_dims_t *d, size_t m, seen_t **out, size_t *n, ev_error *err)
{
    uint32_t pop = d->population;
    uint64_t *index = (uint64_t *)malloc((size_t)pop * sizeof *index);
    double *fit = (double *)malloc((size_t)pop * sizeof *fit);
    int64_t *trades = (int64_t *)malloc((size_t)pop * sizeof *trades);
    uint8_t *ok = (uint8_t *)malloc(pop);
    seen_t *s = (seen_t *)malloc((m + pop + 1) * sizeof *s);
    ev_status st = EV_OK;
    *n = 0;
    if (!index || !fit || !trades || !ok || !s)
        st = ev_fail(err, EV_ENOMEM, "out of memory gathering the GA's genomes for the PBO");
    for (uint32_t g = 0; st == EV_OK && g < rf->generations; g++) {
        size_t add = 0;
        if ((st = run_file_read_column(rf, COL_INDEX, g, 1, index, err)) != EV_OK ||
            (st = run_file_read_column(rf, COL_FITNESS_RAW, g, 1, fit, err)) != EV_OK ||
            (st = run_file_read_column(rf, COL_TRADES, g, 1, trades, err)) != EV_OK ||
            (st = run_file_read_column(rf, COL_FEASIBLE, g, 1, ok, err)) != EV_OK)
            break;
        for (uint32_t i = 0; i < pop; i++) {
            seen_t *e = &s[*n + add];
            memset(e, 0, sizeof *e);
            e->r.fitness = fit[i];
            e->r.trades = trades[i];
            e->r.feasible = ok[i];
            e->key = rank_key(e->r);
            e->index = index[i];
            add += e->key != 0;
        }
        keep_best(s, n, add, m);
    }
    free(index);
    free(fit);
    free(trades);
    free(ok);
    if (st != EV_OK) {
        free(s);
        s = NULL;
    }
    *out = s;
    return st;
}

ev_status ga_pbo(session_t *s, run_file_t *rf, const run_dims_t *d, ev_error *err)
{
    uint32_t m = s->cfg.validation.pbo_genomes;
    seen_t *seen;
    size_t n;
    topk_t top;
    ev_status st;
    s->pbo = NAN;
    if (!s->validating || !d->has_index || m < 2 || s->prob.obj.need_dd)
        return EV_OK;
    if ((st = gather(rf, d, m, &seen, &n, err)) != EV_OK)
        return st;
    if ((st = topk_init(&top, m, err)) != EV_OK) {
        free(seen);
        return st;
    }
    for (size_t i = 0; i < n; i++)
        topk_offer(&top, seen[i].index, seen[i].r);
    free(seen);
    st = session_validation_pbo_of(s, &top, err);
    topk_free(&top);
    return st;
}
