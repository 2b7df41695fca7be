#include "fitness/dominance.h"

#include <stdlib.h>
#include <string.h>

#include "common/parallel.h"
#include "common/platform.h"
#include "common/progress.h"
#include "fitness/dominance_cell.h"

#ifdef _OPENMP
#include <omp.h>
#endif

/* One block of cells (fitness/dominance_cell.h) and its sums. */
typedef struct {
    const fit_problem_t *p;
    const fit_tables_t *t;
    dom_plan_t plan;
    accum_t *h; /* [plan.cells] */
} block_t;

int dominance_applicable(const fit_problem_t *p)
{
    return !p->obj.need_dd;
}

/* Bins every trade the fixed leading filters keep into its free-filter cell. */
static void block_bin(block_t *b, const uint16_t *lead_genes, int32_t ti, int32_t si)
{
    const fit_tables_t *t = b->t;
    memset(b->h, 0, b->plan.cells * sizeof *b->h);
    for (int64_t j = 0; j < t->n_trades; j++) {
        uint64_t idx;
        int64_t q, lf;
        if (!dominance_trade_cell(&b->plan, lead_genes, t->cells + j * t->n_filters, &idx))
            continue;
        tables_outcome(t, j, ti, si, &q, &lf);
        accum_add(&b->h[idx], &t->obj, q, lf);
    }
}

/* Suffix sums along every free axis: afterwards h[x] sums the trades whose
 * cell is >= x + 1 on every free axis, i.e. those genome x keeps. */
static void block_suffix(block_t *b)
{
    for (int32_t f = b->plan.lead; f < b->t->n_filters; f++) {
        uint64_t n = b->t->filter_n[f], inner = b->plan.stride[f], outer = b->plan.cells / (n * inner);
#pragma omp parallel for schedule(static) if ((double)b->plan.cells >= EV_PARALLEL_MIN_WORK)
        for (int64_t o = 0; o < (int64_t)outer; o++) {
            accum_t *base = b->h + (uint64_t)o * n * inner;
            for (uint64_t x = n - 1; x-- > 0;)
                for (uint64_t i = 0; i < inner; i++)
                    accum_merge(&base[x * inner + i], &base[(x + 1) * inner + i]);
        }
    }
}

/* Turns every cell of the block into an evaluated genome for the sink. */
static ev_status block_rank(const block_t *b, const uint16_t *lead_genes, int32_t ti, int32_t si, grid_sink_t *sink,
                            ev_error *err)
{
    const fit_tables_t *t = b->t;
    ev_status st = EV_OK;
#pragma omp parallel if ((double)b->plan.cells * 8.0 >= EV_PARALLEL_MIN_WORK)
    {
        grid_sink_t local;
        uint16_t genes[EV_MAX_PARAMS];
        ev_error lerr;
        int ok = grid_sink_local(&local, sink, &lerr) == EV_OK;
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
        for (int64_t x = 0; x < (int64_t)b->plan.cells; x++) {
            if (!ok)
                continue;
            dominance_cell_genes(&b->plan, t, lead_genes, (uint64_t)x, genes);
            grid_sink_offer(&local, shape_encode(&b->p->shape, genes), genes, accum_finish(&b->h[x], &t->obj));
        }
        if (ok) {
#pragma omp critical(dominance_merge)
            grid_sink_merge(sink, &local);
        }
        grid_sink_local_free(&local);
    }
    return st;
}

void dominance_plan(dom_plan_t *b, const fit_tables_t *t, uint64_t budget, uint64_t bytes_per_cell)
{
    uint64_t per = bytes_per_cell ? bytes_per_cell : 1;
    memset(b, 0, sizeof *b);
    b->n_filters = t->n_filters;
    for (b->lead = 0; b->lead < t->n_filters; b->lead++) {
        uint64_t cells = 1;
        for (int32_t f = b->lead; f < t->n_filters; f++)
            cells *= t->filter_n[f];
        if (cells <= budget / per)
            break;
    }
    b->cells = 1;
    for (int32_t f = t->n_filters - 1; f >= b->lead; f--) {
        b->stride[f] = b->cells;
        b->cells *= t->filter_n[f];
    }
    b->combos = 1;
    for (int32_t f = 0; f < b->lead; f++)
        b->combos *= t->filter_n[f];
}

ev_status dominance_grid(const fit_problem_t *p, const fit_tables_t *t, const dominance_opts_t *opts, topk_t *top,
                         ev_error *err)
{
    grid_sink_t sink;
    memset(&sink, 0, sizeof sink);
    sink.top = top;
    return dominance_grid_sink(p, t, opts, &sink, err);
}

ev_status dominance_grid_sink(const fit_problem_t *p, const fit_tables_t *t, const dominance_opts_t *opts,
                              grid_sink_t *sink, ev_error *err)
{
    block_t b;
    uint64_t done = 0;
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
    dominance_plan(&b.plan, t, opts && opts->memory_budget ? opts->memory_budget : (uint64_t)512 << 20,
                   sizeof(accum_t));
    b.h = (accum_t *)malloc(b.plan.cells * sizeof *b.h);
    if (!b.h)
        return ev_fail(err, EV_ENOMEM, "out of memory for %llu dominance cells", (unsigned long long)b.plan.cells);
    progress_start(&prog, opts ? opts->progress : NULL, "grid (dominance sums)", "points", p->lat->size);
    for (int32_t ti = 0; ti < nt && st == EV_OK; ti++)
        for (int32_t si = 0; si < ns && st == EV_OK; si++)
            for (uint64_t c = 0; c < b.plan.combos && st == EV_OK; c++) {
                uint16_t lead_genes[EV_MAX_PARAMS];
                dominance_lead_decode(&b.plan, t, c, lead_genes);
                block_bin(&b, lead_genes, t->n_targets ? ti : -1, t->n_stops ? si : -1);
                block_suffix(&b);
                st = block_rank(&b, lead_genes, ti, si, sink, err);
                done += b.plan.cells;
                progress_update(&prog, done);
                if (st == EV_OK && plat_interrupted())
                    st = ev_fail(err, EV_EINTR, "interrupted after %llu of %llu lattice points",
                                 (unsigned long long)done, (unsigned long long)p->lat->size);
            }
    progress_finish(&prog, done);
    free(b.h);
    return st;
}
