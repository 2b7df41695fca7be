#include "fitness/dominance.h"

#include <stdlib.h>
#include <string.h>

#include "common/parallel.h"
#include "fitness/dom_cells.h"
#include "fitness/dominance_cell.h"

#ifdef _OPENMP
#include <omp.h>
#endif

/* One block of cells (fitness/dominance_cell.h) and its sums. */
typedef struct {
    const fit_problem_t *p;
    const fit_tables_t *t;
    dom_plan_t plan;
    uint64_t sums;   /* plan.cells x the sum sets (dominance_sets) */
    uint64_t *words; /* the field arrays, back to back */
    dom_cells_t c;   /* [sums] each, pointing into words */
} block_t;

int dominance_applicable(const fit_problem_t *p)
{
    return !p->obj.need_dd;
}

/* uint64 words per lattice cell: the objective's fields once per sum set. */
static uint64_t cell_words(const fit_tables_t *t)
{
    return (uint64_t)dom_cells_words(&t->obj) * (uint64_t)dominance_sets(t);
}

int dominance_fits(const fit_problem_t *p, uint64_t budget)
{
    fit_tables_t layout;
    dom_plan_t plan;
    uint64_t full = 1;
    tables_layout(&layout, p);
    for (int32_t f = 0; f < layout.n_filters; f++)
        full *= layout.filter_n[f];
    dominance_plan(&plan, &layout, budget ? budget : DOMINANCE_DEFAULT_BUDGET, cell_words(&layout) * sizeof(uint64_t));
    return plan.cells >= (full < DOMINANCE_MIN_BLOCK ? full : DOMINANCE_MIN_BLOCK);
}

/* Bins every trade the fixed leading filters keep into its free-filter cell. */
static void block_bin(block_t *b, const uint16_t *lead_genes, const tables_exits_t *x)
{
    const fit_tables_t *t = b->t;
    memset(b->words, 0, b->sums * dom_cells_words(&t->obj) * sizeof *b->words);
    for (int64_t j = 0; j < t->n_trades; j++) {
        uint64_t idx;
        int64_t q, lf;
        accum_t a;
        if (!dominance_trade_cell(&b->plan, lead_genes, t->cells + j * t->n_filters, &idx))
            continue;
        tables_outcome(t, j, x, &q, &lf);
        accum_init(&a);
        accum_add(&a, &t->obj, q, lf);
        dom_cells_add(&b->c, dominance_trade_set(t, j) * b->plan.cells + idx, &a);
    }
}

static void add_row(uint64_t *dst, const uint64_t *src, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        dst[i] += src[i];
}

/* The 128-bit sum of squares: the low words carry into the high ones. */
static void add_row128(uint64_t *lo, uint64_t *hi, const uint64_t *slo, const uint64_t *shi, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++) {
        uint64_t l = lo[i] + slo[i];
        hi[i] += shi[i] + (l < lo[i] ? 1u : 0u);
        lo[i] = l;
    }
}

/* Suffix sums along every free axis: afterwards cell x sums the trades whose
 * cell is >= x + 1 on every free axis, i.e. those genome x keeps (per sum
 * set: the sets are the outermost axis). Rows of `inner` consecutive cells
 * are added field by field (contiguous, so the compiler vectorises them). */
static void block_suffix(block_t *b)
{
    const dom_cells_t *c = &b->c;
    for (int32_t f = b->plan.lead; f < b->t->n_filters; f++) {
        uint64_t n = b->t->filter_n[f], inner = b->plan.stride[f], outer = b->sums / (n * inner);
#pragma omp parallel for schedule(static) if ((double)b->sums >= EV_PARALLEL_MIN_WORK)
        for (int64_t o = 0; o < (int64_t)outer; o++) {
            uint64_t base = (uint64_t)o * n * inner;
            for (uint64_t x = n - 1; x-- > 0;) {
                uint64_t d = base + x * inner, s = d + inner;
                add_row(c->n + d, c->n + s, inner);
                add_row(c->sum + d, c->sum + s, inner);
                if (c->pos)
                    add_row(c->pos + d, c->pos + s, inner);
                if (c->sq_lo)
                    add_row128(c->sq_lo + d, c->sq_hi + d, c->sq_lo + s, c->sq_hi + s, inner);
                if (c->lsum) {
                    add_row(c->lsum + d, c->lsum + s, inner);
                    add_row(c->ruin + d, c->ruin + s, inner);
                }
            }
        }
    }
}

/* Free-filter coordinates (mirrored space) of cell x, then the genome genes. */
static void coords_decode(const dom_plan_t *plan, uint64_t x, uint32_t *coord)
{
    for (int32_t f = plan->lead; f < plan->n_filters; f++) {
        coord[f] = (uint32_t)(x / plan->stride[f]);
        x -= (uint64_t)coord[f] * plan->stride[f];
    }
}

static void coords_genes(const dom_plan_t *plan, const fit_tables_t *t, const uint16_t *lead_genes,
                         const uint32_t *coord, uint16_t *genes)
{
    for (int32_t f = 0; f < plan->n_filters; f++) {
        uint32_t g = f < plan->lead ? lead_genes[f] : coord[f];
        genes[t->filter_param[f]] = (uint16_t)(t->filter_mirror[f] ? t->filter_n[f] - 1u - g : g);
    }
}

/* The next cell in row-major order: an odometer, so no division per cell. */
static void coords_next(const dom_plan_t *plan, const fit_tables_t *t, uint32_t *coord)
{
    for (int32_t f = plan->n_filters - 1; f >= plan->lead; f--) {
        if (++coord[f] < t->filter_n[f])
            return;
        coord[f] = 0;
    }
}

/* Turns every cell of the block into an evaluated genome for the sink. */
static ev_status block_rank(const block_t *b, const uint16_t *lead_genes, const tables_exits_t *exits,
                            grid_sink_t *sink, ev_error *err)
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
        tables_exit_genes(t, exits, genes);
        {
            /* Contiguous chunks per thread: decode the first cell, then step. */
            int nth = 1, me = 0;
            uint64_t cells = b->plan.cells, x0, x1;
            uint32_t coord[EV_MAX_PARAMS];
#ifdef _OPENMP
            nth = omp_get_num_threads();
            me = omp_get_thread_num();
#endif
            x0 = (cells + (uint64_t)nth - 1) / (uint64_t)nth * (uint64_t)me;
            x1 = x0 + (cells + (uint64_t)nth - 1) / (uint64_t)nth;
            if (x0 > cells)
                x0 = cells;
            if (x1 > cells)
                x1 = cells;
            coords_decode(&b->plan, x0, coord);
            for (uint64_t x = x0; ok && x < x1; x++) {
                coords_genes(&b->plan, t, lead_genes, coord, genes);
                grid_sink_offer(&local, shape_encode(&b->p->shape, genes), genes,
                                dominance_cell_result(t, &b->c, b->plan.cells, x));
                coords_next(&b->plan, t, coord);
            }
        }
        if (ok) {
#pragma omp critical(dominance_merge)
            grid_sink_merge(sink, &local);
        }
        grid_sink_local_free(&local);
    }
    return st;
}

ev_status dominance_first_block(const dom_plan_t *plan, uint64_t exit_combos, uint64_t start, uint64_t *block,
                                ev_error *err)
{
    *block = start / plan->cells;
    if (start % plan->cells == 0 && *block <= exit_combos * plan->combos)
        return EV_OK;
    return ev_fail(err, EV_ECONFIG,
                   "the checkpoint's %llu points end no block of this pass's dominance sums (%llu cells a block, "
                   "%llu blocks): the memory for the sums changed since it was written",
                   (unsigned long long)start, (unsigned long long)plan->cells,
                   (unsigned long long)(exit_combos * plan->combos));
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
    uint64_t done = 0, first = 0;
    const uint64_t exits = tables_exit_combos(t);
    const grid_progress_hook_t *hook = opts ? opts->hook : NULL;
    progress_t prog;
    ev_status st = EV_OK;

    if (!dominance_applicable(p))
        return ev_fail(err, EV_EINTERNAL, "dominance sums need an additive objective");
    if (!p->lat->size_fits)
        return ev_fail(err, EV_ECONFIG, "the lattice has more than 2^63 points and cannot be enumerated");
    memset(&b, 0, sizeof b);
    b.p = p;
    b.t = t;
    dominance_plan(&b.plan, t, opts && opts->memory_budget ? opts->memory_budget : DOMINANCE_DEFAULT_BUDGET,
                   cell_words(t) * sizeof(uint64_t));
    b.sums = b.plan.cells * (uint64_t)dominance_sets(t);
    b.words = (uint64_t *)malloc(b.sums * dom_cells_words(&t->obj) * sizeof *b.words);
    if (!b.words)
        return ev_fail(err, EV_ENOMEM, "out of memory for %llu dominance cells", (unsigned long long)b.plan.cells);
    dom_cells_bind(&b.c, b.words, b.sums, &t->obj);
    st = dominance_first_block(&b.plan, exits, hook ? hook->start : 0, &first, err);
    progress_start(&prog, opts ? opts->progress : NULL, "grid (dominance sums)", "points", p->lat->size);
    progress_from(&prog, done = first * b.plan.cells);
    /* every combination of the exits' values (target, stop, SPEC sec. 4.1's),
     * then the blocks of the fixed leading filters */
    for (uint64_t blk = first; blk < exits * b.plan.combos && st == EV_OK; blk++) {
        const tables_exits_t x = tables_exit_combo(t, blk / b.plan.combos);
        uint16_t lead_genes[EV_MAX_PARAMS];
        dominance_lead_decode(&b.plan, t, blk % b.plan.combos, lead_genes);
        block_bin(&b, lead_genes, &x);
        block_suffix(&b);
        if ((st = block_rank(&b, lead_genes, &x, sink, err)) == EV_OK)
            st = grid_pass_step(hook, &prog, done += b.plan.cells, p->lat->size, err);
    }
    progress_finish(&prog, done);
    free(b.words);
    return st;
}
