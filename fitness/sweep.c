#include "fitness/sweep.h"

#include <stdlib.h>
#include <string.h>

#include "common/bits.h"
#include "fitness/exit_race.h"
#include "fitness/sweep_cache.h"
#include "fitness/sweep_levels.h"
#include "fitness/sweep_row.h"

/* One swept gene: a filter (its bucket is the trade's cell, 0..n) or a level
 * (target, stop or an exit of SPEC sec. 4.1: every value is a bucket). */
typedef struct {
    int32_t gene;   /* -1: none (a 1-D sweep's second dimension) */
    int32_t filter; /* filter number, -1 for target/stop */
    int32_t level;  /* RACE_TARGET, RACE_STOP, RACE_MORE + r (fitness/exit_race.h), 0: filter or none */
    uint32_t n;     /* values */
    uint32_t m;     /* buckets: n + 1 for a filter, n for a level, 1 for none */
    int32_t mirror; /* filter direction max */
} dim_t;

int32_t sweep_exit_level(const fit_tables_t *t, int32_t k)
{
    if (k < 0)
        return 0;
    if (k == t->target_param)
        return RACE_TARGET;
    if (k == t->stop_param)
        return RACE_STOP;
    for (int r = 0; r < MORE_EXITS; r++)
        if (k == t->more[r].param)
            return RACE_MORE + r;
    return 0;
}

static void dim_of(const fit_tables_t *t, int32_t k, dim_t *d)
{
    memset(d, 0, sizeof *d);
    d->gene = k;
    d->filter = -1;
    d->m = 1;
    d->n = 1;
    if (k < 0)
        return;
    d->level = sweep_exit_level(t, k);
    if (d->level) {
        d->n = d->m = (uint32_t)(d->level == RACE_TARGET ? t->n_targets
                                 : d->level == RACE_STOP ? t->n_stops
                                                         : t->more[d->level - RACE_MORE].n);
        return;
    }
    for (int32_t f = 0; f < t->n_filters; f++)
        if (t->filter_param[f] == k) {
            d->filter = f;
            d->n = t->filter_n[f];
            d->m = d->n + 1;
            d->mirror = t->filter_mirror[f];
        }
}

uint32_t sweep_gene_values(const fit_tables_t *t, int32_t k)
{
    dim_t d;
    dim_of(t, k, &d);
    return d.n;
}

int sweep_uses_sums(const fit_tables_t *t, int32_t k1, int32_t k2)
{
    dim_t a, b;
    dim_of(t, k1, &a);
    dim_of(t, k2, &b);
    return !(t->obj.need_dd && (a.filter >= 0 || b.filter >= 0));
}

uint64_t sweep_cost(const fit_tables_t *t, int32_t k1, int32_t k2)
{
    dim_t a, b;
    dim_of(t, k1, &a);
    dim_of(t, k2, &b);
    if (!sweep_uses_sums(t, k1, k2))
        return (uint64_t)a.n * b.n;
    return (uint64_t)(a.level ? a.n : 1) * (b.level ? b.n : 1);
}

/* The bucket of value v: a filter value v' = v (mirrored for max) keeps the
 * trades of cells > v', whose suffix sum sits at v' + 1. */
static uint32_t bucket_of(const dim_t *d, uint32_t v)
{
    if (d->gene < 0)
        return 0;
    if (d->filter < 0)
        return v;
    return (d->mirror ? d->n - 1u - v : v) + 1u;
}

/* Plain evaluation of every neighbour (the fallback). */
static void sweep_plain(const fit_tables_t *t, const uint16_t *genes, const dim_t *a, const dim_t *b,
                        eval_result_t *out)
{
    uint16_t g[EV_MAX_PARAMS];
    int32_t ng = t->n_filters + (t->target_param >= 0) + (t->stop_param >= 0);
    for (int r = 0; r < MORE_EXITS; r++)
        ng += t->more[r].param >= 0;
    memcpy(g, genes, (size_t)ng * sizeof *g);
    for (uint32_t v1 = 0; v1 < a->n; v1++)
        for (uint32_t v2 = 0; v2 < b->n; v2++) {
            g[a->gene] = (uint16_t)v1;
            if (b->gene >= 0)
                g[b->gene] = (uint16_t)v2;
            out[(uint64_t)v1 * b->n + v2] = tables_eval(t, g);
        }
}

/* How a sweep adds a trade: lv (two swept levels, fitness/sweep_levels.h),
 * row (one swept level, fitness/sweep_row.h), else bucket by bucket. */
typedef struct {
    sweep_levels_t *lv;
    sweep_row_t *row;
} adder_t;

/* Trade j (kept by every filter but the swept ones) into the buckets. */
static void bucket_trade(const fit_tables_t *t, const sweep_cache_t *cache, const tables_genome_t *g, const dim_t *a,
                         const dim_t *b, const adder_t *add, accum_t *B, int64_t j)
{
    const uint16_t *c = t->cells + j * t->n_filters;
    const uint32_t lo1 = a->filter >= 0 ? c[a->filter] : 0, hi1 = a->filter >= 0 ? lo1 + 1 : a->m;
    const uint32_t lo2 = b->filter >= 0 ? c[b->filter] : 0, hi2 = b->filter >= 0 ? lo2 + 1 : b->m;
    const race_t fixed =
        cache ? sweep_cache_race(cache, j, &g->x, a->level, b->level) : race_fixed(t, j, &g->x, a->level, b->level);
    race_row_t ra, rb;
    if (a->level)
        ra = race_row(t, j, a->level);
    if (b->level)
        rb = race_row(t, j, b->level);
    if (add->lv) {
        sweep_levels_add(add->lv, &t->obj, fixed, &ra, &rb, B);
        return;
    }
    if (add->row) { /* the other dimension is a filter (its cell picks the row) or none */
        sweep_row_add(add->row, &t->obj, a->level ? lo2 : lo1, fixed, a->level ? &ra : &rb);
        return;
    }
    for (uint32_t i1 = lo1; i1 < hi1; i1++) {
        const race_t w1 = a->level ? race_step(fixed, &ra, (int32_t)i1) : fixed;
        accum_t *row = B + (uint64_t)i1 * b->m;
        for (uint32_t i2 = lo2; i2 < hi2; i2++) {
            const race_t w = b->level ? race_step(w1, &rb, (int32_t)i2) : w1;
            accum_add(&row[i2], &t->obj, w.q, w.lf);
        }
    }
}

/* The row sums into the buckets: row r, value i is bucket (i, r) when the
 * level is the first dimension, else (r, i). */
static void rows_into(const sweep_row_t *sr, const dim_t *a, const dim_t *b, accum_t *B)
{
    for (uint32_t r = 0; r < sr->rows; r++)
        for (uint32_t i = 0; i < sr->n; i++)
            sweep_row_get(sr, r, i, &B[a->level ? (uint64_t)i * b->m + r : (uint64_t)r * b->m + i]);
}

/* The buckets' sums: B[i1 * b->m + i2]. One pass over the trades in equity
 * order; a trade must pass every filter but the swept ones (from cache's
 * filter rows, 64 trades a word, when it has them). Its fixed exits race
 * once, each swept level's values then join that winner
 * (fitness/exit_race.h; from cache's columns when not NULL); add says how
 * a trade is added. */
static void sweep_buckets(const fit_tables_t *t, sweep_cache_t *cache, const uint16_t *genes, const dim_t *a,
                          const dim_t *b, const adder_t *add, accum_t *B)
{
    tables_genome_t g;
    const uint64_t *kept = NULL;
    tables_genome(t, genes, &g);
    if (cache) {
        sweep_cache_set(cache, &g.x, a->level, b->level);
        kept = sweep_cache_kept(cache, g.gf, a->filter, b->filter);
    }
    for (uint64_t i = 0; i < (uint64_t)a->m * b->m; i++)
        accum_init(&B[i]);
    if (kept) {
        for (int64_t w = 0; w < cache->ks.n_words; w++)
            for (uint64_t x = kept[w]; x; x &= x - 1)
                bucket_trade(t, cache, &g, a, b, add, B, (w << 6) + bits_ctz64(x));
    } else {
        for (int64_t j = 0; j < t->n_trades; j++) {
            const uint16_t *c = t->cells + j * t->n_filters;
            int keep = 1;
            for (int32_t f = 0; f < t->n_filters; f++)
                keep &= f == a->filter || f == b->filter || g.gf[f] < c[f];
            if (keep)
                bucket_trade(t, cache, &g, a, b, add, B, j);
        }
    }
    if (add->lv)
        sweep_levels_finish(add->lv, B);
    if (add->row)
        rows_into(add->row, a, b, B);
    /* Suffix sums over the filter dimensions: bucket x then holds cells >= x. */
    if (a->filter >= 0)
        for (uint32_t i1 = a->m - 1; i1-- > 0;)
            for (uint32_t i2 = 0; i2 < b->m; i2++)
                accum_merge(&B[(uint64_t)i1 * b->m + i2], &B[(uint64_t)(i1 + 1) * b->m + i2]);
    if (b->filter >= 0)
        for (uint32_t i1 = 0; i1 < a->m; i1++)
            for (uint32_t i2 = b->m - 1; i2-- > 0;)
                accum_merge(&B[(uint64_t)i1 * b->m + i2], &B[(uint64_t)i1 * b->m + i2 + 1]);
}

/* Every value's result from its bucket. Neighbouring buckets often hold
 * the same sums (filter values between two trades' cells, levels that no
 * kept trade tells apart), and accum_finish is a function of the sums alone:
 * an equal bucket reuses the result before it (sharpe's divisions and square
 * root were a sixth of a small sweep). */
static void finish_all(const fit_tables_t *t, const dim_t *a, const dim_t *b, const accum_t *B, eval_result_t *out)
{
    const accum_t *last = NULL;
    eval_result_t r;
    memset(&r, 0, sizeof r);
    for (uint32_t v1 = 0; v1 < a->n; v1++)
        for (uint32_t v2 = 0; v2 < b->n; v2++) {
            const accum_t *x = &B[(uint64_t)bucket_of(a, v1) * b->m + bucket_of(b, v2)];
            if (!last || memcmp(x, last, sizeof *x) != 0)
                r = accum_finish(x, &t->obj);
            out[(uint64_t)v1 * b->n + v2] = r;
            last = x;
        }
}

static ev_status sweep_dims(const fit_tables_t *t, sweep_cache_t *cache, const uint16_t *genes, const dim_t *a,
                            const dim_t *b, eval_result_t *out, ev_error *err)
{
    accum_t *B;
    sweep_levels_t lv;
    sweep_row_t sr;
    adder_t add = {NULL, NULL};
    /* the additive sums take two levels at once, or one level's row at once;
     * the drawdown adds in order */
    const int levels = a->level && b->level && !t->obj.need_dd;
    const int row = !a->level != !b->level && !t->obj.need_dd && (!t->obj.need_log || t->need_lf);
    if (!sweep_uses_sums(t, a->gene, b->gene)) {
        sweep_plain(t, genes, a, b, out);
        return EV_OK;
    }
    B = (accum_t *)malloc((size_t)a->m * b->m * sizeof *B);
    if (!B)
        return ev_fail(err, EV_ENOMEM, "out of memory for a neighbourhood sweep (%u x %u values)", a->n, b->n);
    /* the difference arrays (3 x B's size) and the rows are optional: without
     * the memory the cells are added one by one */
    if (levels && sweep_levels_init(&lv, a->n, b->n, NULL) == EV_OK)
        add.lv = &lv;
    if (row && sweep_row_init(&sr, &t->obj, a->level ? b->m : a->m, a->level ? a->n : b->n, NULL) == EV_OK)
        add.row = &sr;
    sweep_buckets(t, cache, genes, a, b, &add, B);
    if (add.lv)
        sweep_levels_free(&lv);
    if (add.row)
        sweep_row_free(&sr);
    finish_all(t, a, b, B, out);
    free(B);
    return EV_OK;
}

ev_status sweep_gene_cached(const fit_tables_t *t, sweep_cache_t *cache, const uint16_t *genes, int32_t k,
                            eval_result_t *out, ev_error *err)
{
    dim_t a, b;
    dim_of(t, k, &a);
    dim_of(t, -1, &b);
    return sweep_dims(t, cache, genes, &a, &b, out, err);
}

ev_status sweep_pair_cached(const fit_tables_t *t, sweep_cache_t *cache, const uint16_t *genes, int32_t k1, int32_t k2,
                            eval_result_t *out, ev_error *err)
{
    dim_t a, b;
    if (k1 == k2)
        return ev_fail(err, EV_EUSAGE, "a pair sweep needs two different genes (%d twice)", k1);
    dim_of(t, k1, &a);
    dim_of(t, k2, &b);
    return sweep_dims(t, cache, genes, &a, &b, out, err);
}

ev_status sweep_gene(const fit_tables_t *t, const uint16_t *genes, int32_t k, eval_result_t *out, ev_error *err)
{
    return sweep_gene_cached(t, NULL, genes, k, out, err);
}

ev_status sweep_pair(const fit_tables_t *t, const uint16_t *genes, int32_t k1, int32_t k2, eval_result_t *out,
                     ev_error *err)
{
    return sweep_pair_cached(t, NULL, genes, k1, k2, out, err);
}
