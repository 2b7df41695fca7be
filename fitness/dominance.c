#include "fitness/dominance.h"

#include <stdlib.h>
#include <string.h>

#include "common/platform.h"
#include "common/progress.h"

#ifdef _OPENMP
#include <omp.h>
#endif

/* The part of the filter lattice one block covers: filters [lead, F) free,
 * the leading ones fixed to lead_genes (mirrored space). */
typedef struct {
    const fit_problem_t *p;
    const fit_tables_t *t;
    int32_t lead;               /* number of fixed leading filters */
    uint64_t cells;             /* prod of n_f over the free filters */
    uint64_t stride[EV_MAX_PARAMS]; /* row-major strides of the free filters */
    accum_t *h;                 /* [cells] */
} block_t;

int dominance_applicable(const fit_problem_t *p)
{
    return !p->obj.need_dd;
}

/* Bins every trade the fixed leading filters keep into its free-filter cell. */
static void block_bin(block_t *b, const uint16_t *lead_genes, int32_t ti, int32_t si)
{
    const fit_tables_t *t = b->t;
    int32_t nf = t->n_filters;
    memset(b->h, 0, b->cells * sizeof *b->h);
    for (int64_t j = 0; j < t->n_trades; j++) {
        const uint16_t *c = t->cells + j * nf;
        uint64_t idx = 0;
        int keep = 1;
        int64_t q, lf;
        for (int32_t f = 0; f < b->lead; f++)
            keep &= lead_genes[f] < c[f];
        for (int32_t f = b->lead; f < nf; f++) {
            keep &= c[f] > 0;
            idx += (uint64_t)(c[f] > 0 ? c[f] - 1 : 0) * b->stride[f];
        }
        if (!keep)
            continue;
        tables_outcome(t, j, ti, si, &q, &lf);
        accum_add(&b->h[idx], &t->obj, q, lf);
    }
}

/* Suffix sums along every free axis: afterwards h[x] sums the trades whose
 * cell is >= x + 1 on every free axis, i.e. those genome x keeps. */
static void block_suffix(block_t *b)
{
    for (int32_t f = b->lead; f < b->t->n_filters; f++) {
        uint64_t n = b->t->filter_n[f], inner = b->stride[f], outer = b->cells / (n * inner);
#pragma omp parallel for schedule(static)
        for (int64_t o = 0; o < (int64_t)outer; o++) {
            accum_t *base = b->h + (uint64_t)o * n * inner;
            for (uint64_t x = n - 1; x-- > 0;)
                for (uint64_t i = 0; i < inner; i++)
                    accum_merge(&base[x * inner + i], &base[(x + 1) * inner + i]);
        }
    }
}

/* Turns every cell of the block into a ranked genome. */
static ev_status block_rank(const block_t *b, const uint16_t *lead_genes, int32_t ti, int32_t si, topk_t *top,
                            ev_error *err)
{
    const fit_tables_t *t = b->t;
    ev_status st = EV_OK;
#pragma omp parallel
    {
        topk_t local;
        uint16_t genes[EV_MAX_PARAMS];
        ev_error lerr;
        int ok = topk_init(&local, top->k, &lerr) == EV_OK;
        if (!ok) {
#pragma omp critical(dominance_err)
            st = ev_fail(err, EV_ENOMEM, "%s", lerr.msg);
        }
        memset(genes, 0, sizeof genes);
        if (t->target_param >= 0)
            genes[t->target_param] = (uint16_t)ti;
        if (t->stop_param >= 0)
            genes[t->stop_param] = (uint16_t)si;
#pragma omp for schedule(static)
        for (int64_t x = 0; x < (int64_t)b->cells; x++) {
            uint64_t rest = (uint64_t)x;
            if (!ok)
                continue;
            for (int32_t f = 0; f < t->n_filters; f++) {
                uint32_t g = f < b->lead ? lead_genes[f] : (uint32_t)(rest / b->stride[f]);
                if (f >= b->lead)
                    rest -= (uint64_t)g * b->stride[f];
                genes[t->filter_param[f]] = (uint16_t)(t->filter_mirror[f] ? t->filter_n[f] - 1u - g : g);
            }
            topk_offer(&local, shape_encode(&b->p->shape, genes), accum_finish(&b->h[x], &t->obj));
        }
        if (ok) {
#pragma omp critical(dominance_merge)
            topk_merge(top, &local);
        }
        topk_free(&local);
    }
    return st;
}

/* Fix as few leading filters as needed for the free cells to fit the budget. */
static void block_plan(block_t *b, uint64_t budget)
{
    const fit_tables_t *t = b->t;
    for (b->lead = 0; b->lead < t->n_filters; b->lead++) {
        uint64_t cells = 1;
        for (int32_t f = b->lead; f < t->n_filters; f++)
            cells *= t->filter_n[f];
        if (cells * sizeof(accum_t) <= budget)
            break;
    }
    b->cells = 1;
    for (int32_t f = t->n_filters - 1; f >= b->lead; f--) {
        b->stride[f] = b->cells;
        b->cells *= t->filter_n[f];
    }
}

static void lead_decode(const block_t *b, uint64_t combo, uint16_t *lead_genes)
{
    for (int32_t f = b->lead - 1; f >= 0; f--) {
        lead_genes[f] = (uint16_t)(combo % b->t->filter_n[f]);
        combo /= b->t->filter_n[f];
    }
}

ev_status dominance_grid(const fit_problem_t *p, const fit_tables_t *t, const dominance_opts_t *opts, topk_t *top,
                         ev_error *err)
{
    block_t b;
    uint64_t combos = 1, done = 0;
    int32_t nt = t->n_targets ? t->n_targets : 1, ns = t->n_stops ? t->n_stops : 1;
    progress_t prog;
    ev_status st = EV_OK;

    if (!dominance_applicable(p))
        return ev_fail(err, EV_EINTERNAL, "dominance sums need an additive objective");
    if (!p->lat->size_fits)
        return ev_fail(err, EV_ECONFIG, "the lattice has more than 2^63 points and cannot be enumerated");
    memset(&b, 0, sizeof b);
    b.p = p;
    b.t = t;
    block_plan(&b, opts && opts->memory_budget ? opts->memory_budget : (uint64_t)512 << 20);
    for (int32_t f = 0; f < b.lead; f++)
        combos *= t->filter_n[f];
    b.h = (accum_t *)malloc(b.cells * sizeof *b.h);
    if (!b.h)
        return ev_fail(err, EV_ENOMEM, "out of memory for %llu dominance cells", (unsigned long long)b.cells);
    progress_start(&prog, opts ? opts->progress : NULL, "grid (dominance sums)", "points", p->lat->size);
    for (int32_t ti = 0; ti < nt && st == EV_OK; ti++)
        for (int32_t si = 0; si < ns && st == EV_OK; si++)
            for (uint64_t c = 0; c < combos && st == EV_OK; c++) {
                uint16_t lead_genes[EV_MAX_PARAMS];
                lead_decode(&b, c, lead_genes);
                block_bin(&b, lead_genes, t->n_targets ? ti : -1, t->n_stops ? si : -1);
                block_suffix(&b);
                st = block_rank(&b, lead_genes, ti, si, top, err);
                done += b.cells;
                progress_update(&prog, done);
                if (st == EV_OK && plat_interrupted())
                    st = ev_fail(err, EV_EINTR, "interrupted after %llu of %llu lattice points",
                                 (unsigned long long)done, (unsigned long long)p->lat->size);
            }
    progress_finish(&prog, done);
    free(b.h);
    return st;
}
