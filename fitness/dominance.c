#include "fitness/dominance.h"

#include <stdlib.h>
#include <string.h>

#include "common/parallel.h"
#include "fitness/dom_cells.h"
#include "fitness/dominance_cell.h"
#include "fitness/dominance_many.h"
#include "fitness/dominance_rank.h"
#include "fitness/dominance_suffix.h"

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

/* Turns every cell of the block into an evaluated genome for the sink: each
 * thread ranks a contiguous chunk into its own twin of the sink. */
static ev_status block_rank(const block_t *b, const uint16_t *lead_genes, const tables_exits_t *exits,
                            grid_sink_t *sink, ev_error *err)
{
    const dom_block_t v = {b->p, b->t, &b->plan, &b->c, lead_genes, exits, 0};
    const topk_bar_t shared = sink->top ? topk_bar(sink->top) : (topk_bar_t){0, 0, 0, 0};
    ev_status st = EV_OK;
#pragma omp parallel if ((double)b->plan.cells * 8.0 >= EV_PARALLEL_MIN_WORK)
    {
        grid_sink_t local;
        ev_error lerr;
        int nth = 1, me = 0;
        uint64_t cells = b->plan.cells, x0, x1;
        if (grid_sink_local(&local, sink, &lerr) != EV_OK) {
#pragma omp critical(dominance_err)
            st = ev_fail(err, EV_ENOMEM, "%s", lerr.msg);
        } else {
#ifdef _OPENMP
            nth = omp_get_num_threads();
            me = omp_get_thread_num();
#endif
            x0 = (cells + (uint64_t)nth - 1) / (uint64_t)nth * (uint64_t)me;
            x1 = x0 + (cells + (uint64_t)nth - 1) / (uint64_t)nth;
            dominance_rank_range(&v, &local, &shared, x0 < cells ? x0 : cells, x1 < cells ? x1 : cells);
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
    const uint64_t budget = opts && opts->memory_budget ? opts->memory_budget : DOMINANCE_DEFAULT_BUDGET;
    progress_t prog;
    uint32_t group;
    int threads = 1;
    ev_status st = EV_OK;

    if (!dominance_applicable(p))
        return ev_fail(err, EV_EINTERNAL, "dominance sums need an additive objective");
    if (!p->lat->size_fits)
        return ev_fail(err, EV_ECONFIG, "the lattice has more than 2^63 points and cannot be enumerated");
    memset(&b, 0, sizeof b);
    b.p = p;
    b.t = t;
    dominance_plan(&b.plan, t, budget, cell_words(t) * sizeof(uint64_t));
#ifdef _OPENMP
    threads = omp_get_max_threads();
#endif
    b.sums = b.plan.cells * (uint64_t)dominance_sets(t);
    if ((st = dominance_first_block(&b.plan, exits, hook ? hook->start : 0, &first, err)) != EV_OK)
        return st;
    progress_start(&prog, opts ? opts->progress : NULL, "grid (dominance sums)", "points", p->lat->size);
    progress_from(&prog, done = first * b.plan.cells);
    group = opts && opts->by_block ? 0
                                   : dominance_many_group(&b.plan, cell_words(t) * sizeof(uint64_t) * b.plan.cells,
                                                          exits, budget, threads);
    if (group) { /* many combinations of one block each: whole combinations per thread */
        st = dominance_many_pass(p, t, &b.plan, group, opts ? opts->tile_bytes : 0, first, sink, hook, &prog, &done,
                                 err);
        progress_finish(&prog, done);
        return st;
    }
    b.words = (uint64_t *)malloc(b.sums * dom_cells_words(&t->obj) * sizeof *b.words);
    if (!b.words)
        return ev_fail(err, EV_ENOMEM, "out of memory for %llu dominance cells", (unsigned long long)b.plan.cells);
    dom_cells_bind(&b.c, b.words, b.sums, &t->obj);
    /* every combination of the exits' values (target, stop, SPEC sec. 4.1's),
     * then the blocks of the fixed leading filters */
    for (uint64_t blk = first; blk < exits * b.plan.combos && st == EV_OK; blk++) {
        const tables_exits_t x = tables_exit_combo(t, blk / b.plan.combos);
        uint16_t lead_genes[EV_MAX_PARAMS];
        dominance_lead_decode(&b.plan, t, blk % b.plan.combos, lead_genes);
        const dom_block_t v = {p, t, &b.plan, &b.c, lead_genes, &x, 0};
        block_bin(&b, lead_genes, &x);
        dominance_suffix(&v, 1);
        if ((st = block_rank(&b, lead_genes, &x, sink, err)) == EV_OK)
            st = grid_pass_step(hook, &prog, done += b.plan.cells, p->lat->size, err);
    }
    progress_finish(&prog, done);
    free(b.words);
    return st;
}
