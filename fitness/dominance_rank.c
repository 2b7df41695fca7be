#include "fitness/dominance_rank.h"

#include <string.h>

#include "common/parallel.h"

static void add_row(uint64_t *dst, const uint64_t *src, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        dst[i] += src[i];
}

/* lo:hi += slo:shi, a 128-bit sum of squares: the low word carries into the
 * high one (the rows' adds and the last axis' running sums alike). */
static inline void add128(uint64_t *lo, uint64_t *hi, uint64_t slo, uint64_t shi)
{
    uint64_t l = *lo + slo;
    *hi += shi + (l < *lo ? 1u : 0u);
    *lo = l;
}

static void add_row128(uint64_t *lo, uint64_t *hi, const uint64_t *slo, const uint64_t *shi, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        add128(&lo[i], &hi[i], slo[i], shi[i]);
}

/* Along a row of n single cells (the last axis, stride 1): a running sum,
 * no row adds of one cell each. */
static void scan_row(uint64_t *v, uint64_t n)
{
    uint64_t acc = 0;
    for (uint64_t x = n; x-- > 0;)
        v[x] = acc += v[x];
}

/* The same for the 128-bit sums of squares. */
static void scan_row128(uint64_t *lo, uint64_t *hi, uint64_t n)
{
    uint64_t al = 0, ah = 0;
    for (uint64_t x = n; x-- > 0;) {
        add128(&al, &ah, lo[x], hi[x]);
        lo[x] = al;
        hi[x] = ah;
    }
}

static void scan_cells(const dom_cells_t *c, uint64_t base, uint64_t n)
{
    scan_row(c->n + base, n);
    scan_row(c->sum + base, n);
    if (c->pos)
        scan_row(c->pos + base, n);
    if (c->sq_lo)
        scan_row128(c->sq_lo + base, c->sq_hi + base, n);
    if (c->lsum) {
        scan_row(c->lsum + base, n);
        scan_row(c->ruin + base, n);
    }
}

/* Cell x sums the trades whose cell is >= x + 1 on every free axis (per sum
 * set: the sets are the outermost axis). Rows of `inner` consecutive cells
 * are added field by field (contiguous, so the compiler vectorises them). */
void dominance_suffix(const dom_block_t *b, int parallel)
{
    const dom_cells_t *c = b->c;
    const uint64_t sums = b->plan->cells * (uint64_t)dominance_sets(b->t);
    for (int32_t f = b->plan->lead; f < b->t->n_filters; f++) {
        uint64_t n = b->t->filter_n[f], inner = b->plan->stride[f], outer = sums / (n * inner);
#pragma omp parallel for schedule(static) if (parallel && (double)sums >= EV_PARALLEL_MIN_WORK)
        for (int64_t o = 0; o < (int64_t)outer; o++) {
            uint64_t base = (uint64_t)o * n * inner;
            if (inner == 1) {
                scan_cells(c, base, n);
                continue;
            }
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

void dominance_rank_range(const dom_block_t *b, grid_sink_t *s, const topk_bar_t *shared, uint64_t x0, uint64_t x1)
{
    const topk_bar_t open = {0, 0, 0, 0};
    const topk_bar_t *outer = shared ? shared : &open;
    cursor_t k;
    topk_bar_t bar = {0, 0, 0, 1}; /* no top-K: closed */
    if (s->top)
        bar = topk_bar(s->top);
    cursor_at(&k, b, x0);
    for (uint64_t x = x0; x < x1; x++) {
        eval_result_t r = dominance_cell_result(b->t, b->c, b->plan->cells, x);
        uint64_t key = rank_key(r);
        if (topk_bar_admits(&bar, key, k.index) && topk_bar_admits(outer, key, k.index)) {
            if (s->pend)
                grid_sink_pend(s, k.index, r);
            else
                topk_offer(s->top, k.index, r);
            bar = topk_bar(s->top);
        }
        if (s->heat)
            grid_heat_offer(s->heat, k.genes, key);
        s->count += (uint64_t)(s->count_better && key > s->better_than);
        cursor_next(&k, b);
    }
}
