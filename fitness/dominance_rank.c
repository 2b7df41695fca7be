#include "fitness/dominance_rank.h"

#include <string.h>

/* A cell's place as the odometer steps it: free-filter coordinates
 * (mirrored space), the genome's genes and its linear index. */
typedef struct {
    uint32_t coord[EV_MAX_PARAMS];
    uint16_t genes[EV_MAX_PARAMS];
    uint64_t index;
    uint64_t step[EV_MAX_PARAMS]; /* the index's change when coord[f] grows by one (mod 2^64) */
} cursor_t;

static void cursor_at(cursor_t *k, const dom_block_t *b, uint64_t x)
{
    const dom_plan_t *plan = b->plan;
    const fit_tables_t *t = b->t;
    memset(k, 0, sizeof *k);
    tables_exit_genes(t, b->exits, k->genes);
    for (int32_t f = 0; f < plan->n_filters; f++) {
        uint32_t g = f < plan->lead ? b->lead_genes[f] : (uint32_t)(x / plan->stride[f]);
        uint64_t s = b->p->shape.stride[t->filter_param[f]];
        if (f >= plan->lead) {
            x -= (uint64_t)g * plan->stride[f];
            k->coord[f] = g;
        }
        k->genes[t->filter_param[f]] = (uint16_t)(t->filter_mirror[f] ? t->filter_n[f] - 1u - g : g);
        k->step[f] = t->filter_mirror[f] ? (uint64_t)0 - s : s;
    }
    k->index = shape_encode(&b->p->shape, k->genes);
}

/* The next cell in row-major order: the last free filter fastest. */
static void cursor_next(cursor_t *k, const dom_block_t *b)
{
    const fit_tables_t *t = b->t;
    for (int32_t f = b->plan->n_filters - 1; f >= b->plan->lead; f--) {
        uint16_t *g = &k->genes[t->filter_param[f]];
        int mirror = t->filter_mirror[f];
        if (++k->coord[f] < t->filter_n[f]) {
            *g = (uint16_t)(mirror ? *g - 1u : *g + 1u);
            k->index += k->step[f];
            return;
        }
        k->coord[f] = 0;
        *g = (uint16_t)(mirror ? t->filter_n[f] - 1u : 0u);
        k->index -= k->step[f] * (uint64_t)(t->filter_n[f] - 1u);
    }
}

/* Moves the cursor m cells along the last free axis, within its row. */
static void cursor_along(cursor_t *k, const dom_block_t *b, uint64_t m)
{
    const int32_t f = b->plan->n_filters - 1;
    uint16_t *g = &k->genes[b->t->filter_param[f]];
    k->coord[f] += (uint32_t)m;
    *g = (uint16_t)(b->t->filter_mirror[f] ? *g - m : *g + m);
    k->index += k->step[f] * m;
}

static uint64_t cell_key(const dom_block_t *b, uint64_t x)
{
    return rank_key(dominance_cell_result(b->t, b->c, b->plan->cells, x));
}

/* The cell of [x, e) with the highest key, for total_return over all days:
 * its key is monotone in the sum (a double of it over 1e6) among the cells
 * that keep min_trades, and 0 elsewhere, so the feasible cell with the
 * largest sum has it, without a key per cell. e: none is feasible. */
static uint64_t best_sum_cell(const dom_block_t *b, uint64_t x, uint64_t e)
{
    const int64_t min_trades = b->t->obj.min_trades;
    uint64_t best = e;
    for (uint64_t i = x; i < e; i++)
        if ((int64_t)b->c->n[i] >= min_trades && (best == e || (int64_t)b->c->sum[i] > (int64_t)b->c->sum[best]))
            best = i;
    return best;
}

/* Cells [x, e) of one row: the highest key among them (the heatmap's, per
 * cell where the row's last free axis is a heatmap axis, and the count's). */
static uint64_t row_key(const dom_block_t *b, grid_sink_t *s, cursor_t *k, uint64_t x, uint64_t e, int fast,
                        int heat_cells)
{
    const int32_t f = b->plan->n_filters - 1;
    uint16_t *g = heat_cells ? &k->genes[b->t->filter_param[f]] : NULL, g0 = g ? *g : 0;
    uint64_t top = 0;
    if (fast) {
        uint64_t best = best_sum_cell(b, x, e);
        return best < e ? cell_key(b, best) : 0;
    }
    for (uint64_t i = x; i < e; i++) {
        uint64_t key = cell_key(b, i);
        top = key > top ? key : top;
        if (g) {
            *g = (uint16_t)(b->t->filter_mirror[f] ? g0 - (i - x) : g0 + (i - x));
            grid_heat_offer(s->heat, k->genes, key);
        }
        s->count += (uint64_t)(s->count_better && key > s->better_than);
    }
    if (g)
        *g = g0;
    return top;
}

void dominance_rank_range(const dom_block_t *b, grid_sink_t *s, const topk_bar_t *shared, uint64_t x0, uint64_t x1)
{
    const topk_bar_t open = {0, 0, 0, 0};
    const topk_bar_t *outer = shared ? shared : &open;
    const fit_tables_t *t = b->t;
    const int32_t last = b->plan->n_filters - 1;
    const int free_axes = b->plan->lead <= last;
    /* a row: the cells along the last free axis (one cell when none is free) */
    const uint64_t row = free_axes ? t->filter_n[last] : 1;
    const int32_t varies = free_axes ? t->filter_param[last] : -1; /* the gene a row steps */
    const int heat_cells = s->heat && (s->heat->px == varies || s->heat->py == varies);
    const int fast = t->agg == AGG_ALL && t->obj.kind == OBJ_TOTAL_RETURN && !s->count_better && !heat_cells;
    const uint64_t step =
        free_axes ? (t->filter_mirror[last] ? (uint64_t)0 - b->p->shape.stride[varies] : b->p->shape.stride[varies])
                  : 0;
    cursor_t k;
    topk_bar_t bar = {0, 0, 0, 1}; /* no top-K: closed */
    if (s->top)
        bar = topk_bar(s->top);
    cursor_at(&k, b, x0);
    for (uint64_t x = x0; x < x1;) {
        const uint64_t e = (x / row + 1) * row < x1 ? (x / row + 1) * row : x1;
        const uint64_t top = row_key(b, s, &k, x, e, fast, heat_cells);
        if (s->heat && !heat_cells)
            grid_heat_offer(s->heat, k.genes, top);
        /* index 0 ranks before every cell of the row: a bar that refuses the
         * row's best key with it refuses each of the row's cells */
        for (uint64_t i = x; i < e && topk_bar_admits(&bar, top, 0) && topk_bar_admits(outer, top, 0); i++) {
            eval_result_t r = dominance_cell_result(t, b->c, b->plan->cells, i);
            uint64_t key = rank_key(r), index = k.index + step * (i - x);
            if (!topk_bar_admits(&bar, key, index) || !topk_bar_admits(outer, key, index))
                continue;
            if (s->pend)
                grid_sink_pend(s, index, r);
            else
                topk_offer(s->top, index, r);
            bar = topk_bar(s->top);
        }
        if (e < x1) {
            if (free_axes)
                cursor_along(&k, b, e - x - 1);
            cursor_next(&k, b);
        }
        x = e;
    }
}
