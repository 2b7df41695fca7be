/* The suffix sums of dominance sums (fitness/dominance_rank.h): axis by axis
 * over a whole block, or tiled so that each sweep runs on a slice in cache. */
#include <string.h>

#include "common/parallel.h"
#include "fitness/dominance_suffix.h"

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

/* Cells [d, d + n) += cells [s, s + n), field by field (contiguous, so the
 * compiler vectorises them). */
static void add_cells(const dom_cells_t *c, uint64_t d, uint64_t s, uint64_t n)
{
    add_row(c->n + d, c->n + s, n);
    add_row(c->sum + d, c->sum + s, n);
    if (c->pos)
        add_row(c->pos + d, c->pos + s, n);
    if (c->sq_lo)
        add_row128(c->sq_lo + d, c->sq_hi + d, c->sq_lo + s, c->sq_hi + s, n);
    if (c->lsum) {
        add_row(c->lsum + d, c->lsum + s, n);
        add_row(c->ruin + d, c->ruin + s, n);
    }
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

/* A plane of the last two axes: `rows` rows of len cells, the last row
 * scanned, then each row's running sum plus the next row, already final:
 * both axes in one pass over the plane (in L1), where the row adds of len
 * cells each would be short. */
static void plane_row(uint64_t *v, uint64_t rows, uint64_t len)
{
    scan_row(v + (rows - 1) * len, len);
    for (uint64_t r = rows - 1; r-- > 0;) {
        uint64_t acc = 0, *row = v + r * len;
        for (uint64_t x = len; x-- > 0;)
            row[x] = (acc += row[x]) + row[len + x];
    }
}

static void plane_row128(uint64_t *lo, uint64_t *hi, uint64_t rows, uint64_t len)
{
    scan_row128(lo + (rows - 1) * len, hi + (rows - 1) * len, len);
    for (uint64_t r = rows - 1; r-- > 0;) {
        uint64_t al = 0, ah = 0, *rlo = lo + r * len, *rhi = hi + r * len;
        for (uint64_t x = len; x-- > 0;) {
            add128(&al, &ah, rlo[x], rhi[x]);
            rlo[x] = al;
            rhi[x] = ah;
            add128(&rlo[x], &rhi[x], rlo[len + x], rhi[len + x]);
        }
    }
}

static void plane_cells(const dom_cells_t *c, uint64_t base, uint64_t rows, uint64_t len)
{
    plane_row(c->n + base, rows, len);
    plane_row(c->sum + base, rows, len);
    if (c->pos)
        plane_row(c->pos + base, rows, len);
    if (c->sq_lo)
        plane_row128(c->sq_lo + base, c->sq_hi + base, rows, len);
    if (c->lsum) {
        plane_row(c->lsum + base, rows, len);
        plane_row(c->ruin + base, rows, len);
    }
}

/* One line of an axis: n rows of `inner` cells from base, each row plus the
 * suffix sum of the rows after it. */
static void sweep_line(const dom_cells_t *c, uint64_t base, uint64_t n, uint64_t inner)
{
    if (inner == 1) {
        scan_cells(c, base, n);
        return;
    }
    for (uint64_t x = n - 1; x-- > 0;)
        add_cells(c, base + x * inner, base + (x + 1) * inner, inner);
}

/* Cell x sums the trades whose cell is >= x + 1 on every free axis (per sum
 * set: the sets are the outermost axis). */
void dominance_suffix(const dom_block_t *b, int parallel)
{
    const uint64_t sums = b->plan->cells * (uint64_t)dominance_sets(b->t);
    for (int32_t f = b->plan->lead; f < b->t->n_filters; f++) {
        uint64_t n = b->t->filter_n[f], inner = b->plan->stride[f], outer = sums / (n * inner);
#pragma omp parallel for schedule(static) if (parallel && (double)sums >= EV_PARALLEL_MIN_WORK)
        for (int64_t o = 0; o < (int64_t)outer; o++)
            sweep_line(b->c, (uint64_t)o * n * inner, n, inner);
    }
}

/* The suffix sums along the free axes [f, n_filters) of the sub-block at
 * base (one sum set; filter_n[f] slices of stride[f] cells). One within
 * `tile` bytes is swept axis by axis; a larger one slice by slice along f,
 * last first: each slice summed alone (recursively), then the next slice,
 * already final, added into it: the suffix sum along f. */
static void suffix_tile(const dom_block_t *b, int32_t f, uint64_t base, uint64_t cell_bytes, uint64_t tile)
{
    const dom_plan_t *plan = b->plan;
    uint64_t n, inner;
    if (f >= plan->n_filters)
        return;
    n = b->t->filter_n[f];
    inner = plan->stride[f];
    if (n * inner * cell_bytes <= tile || f >= plan->n_filters - 2) {
        const int32_t last = plan->n_filters - 1;
        for (int32_t g = f; g < last - 1; g++) {
            uint64_t ng = b->t->filter_n[g], ig = plan->stride[g];
            for (uint64_t o = 0; o < n * inner / (ng * ig); o++)
                sweep_line(b->c, base + o * ng * ig, ng, ig);
        }
        if (f == last) /* one axis: a line */
            sweep_line(b->c, base, n, 1);
        else /* the last two axes, plane by plane */
            for (uint64_t o = 0, plane = plan->stride[last - 1] * b->t->filter_n[last - 1]; o < n * inner / plane; o++)
                plane_cells(b->c, base + o * plane, b->t->filter_n[last - 1], b->t->filter_n[last]);
        return;
    }
    for (uint64_t x = n; x-- > 0;) {
        suffix_tile(b, f + 1, base + x * inner, cell_bytes, tile);
        if (x + 1 < n)
            add_cells(b->c, base + x * inner, base + (x + 1) * inner, inner);
    }
}

void dominance_suffix_rank(const dom_block_t *b, grid_sink_t *s, const topk_bar_t *shared)
{
    const dom_plan_t *plan = b->plan;
    const int32_t f = plan->lead;
    const uint64_t sets = (uint64_t)dominance_sets(b->t), tile = b->tile_bytes ? b->tile_bytes : DOM_TILE_BYTES;
    const uint64_t cell_bytes = (uint64_t)dom_cells_words(&b->t->obj) * sizeof(uint64_t);
    uint64_t n, inner, ranked = plan->cells; /* cells [ranked, cells) are ranked */
    if (f >= plan->n_filters || plan->cells * sets * cell_bytes <= tile) {
        dominance_suffix(b, 0);
        dominance_rank_range(b, s, shared, 0, plan->cells);
        return;
    }
    /* the first free axis' slices, last first: each final once the next one
     * is added into it, and ranked (a tile's worth at a time: a cursor is
     * placed per call) while it is still in cache */
    n = b->t->filter_n[f];
    inner = plan->stride[f];
    for (uint64_t x = n; x-- > 0;) {
        for (uint64_t set = 0; set < sets; set++) {
            uint64_t base = set * plan->cells + x * inner;
            suffix_tile(b, f + 1, base, cell_bytes, tile);
            if (x + 1 < n)
                add_cells(b->c, base, base + inner, inner);
        }
        if ((ranked - x * inner) * sets * cell_bytes >= tile || x == 0) {
            dominance_rank_range(b, s, shared, x * inner, ranked);
            ranked = x * inner;
        }
    }
}
