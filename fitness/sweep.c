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
    const race_t fixed = cache ? sweep_cache_race(cache, j) : race_fixed(t, j, &g->x, a->level, b->level);
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

/* Kept trades whose lines are on their way (prefetch_trade). */
#define SWEEP_AHEAD 8

/* Inlined: GCC finds a function that only prefetches free of effects and
 * drops its calls. */
#if defined(__GNUC__) || defined(__clang__)
#define SWEEP_PREFETCH(p) __builtin_prefetch(p)
#define PREFETCH_FN static inline __attribute__((always_inline)) void
#else
#define SWEEP_PREFETCH(p) ((void)(p))
#define PREFETCH_FN static void
#endif

/* Every cache line of bytes at p. */
PREFETCH_FN prefetch_span(const void *p, size_t bytes)
{
    for (size_t off = 0; off < bytes; off += 64)
        SWEEP_PREFETCH((const char *)p + off);
}

/* Trade j's lines a sweep will read: the swept levels' rows, the cache's
 * columns of the raced roles and the cells. Kept trades are sparse (a sweep
 * of a small kept set touches each row once), so without this each row was
 * a wait on memory (bench/RESULTS.md "... the sweeps' rows"). */
PREFETCH_FN prefetch_trade(const fit_tables_t *t, const sweep_cache_t *cache, const dim_t *a, const dim_t *b, int64_t j)
{
    const dim_t *d[2] = {a, b};
    for (int k = 0; k < 2; k++)
        if (d[k]->level) {
            const race_row_t r = race_row(t, j, d[k]->level);
            prefetch_span(r.hit, d[k]->n * sizeof *r.hit);
            prefetch_span(r.q, d[k]->n * sizeof *r.q);
            if (r.lf)
                prefetch_span(r.lf, d[k]->n * sizeof *r.lf);
        }
    for (int32_t k = 0; k < cache->n_act; k++) {
        SWEEP_PREFETCH(cache->act_key[k] + j);
        SWEEP_PREFETCH(cache->act_q[k] + j);
    }
    SWEEP_PREFETCH(t->cells + j * t->n_filters);
}

/* The next set bit of kept from (*w, *x) on, as a trade; -1 past the end. */
static int64_t next_kept(const uint64_t *kept, int64_t nw, int64_t *w, uint64_t *x)
{
    while (!*x) {
        if (++*w >= nw)
            return -1;
        *x = kept[*w];
    }
    {
        const int64_t j = (*w << 6) + bits_ctz64(*x);
        *x &= *x - 1;
        return j;
    }
}

/* A sweep of filters alone (no level swept), the climbs' most common kind:
 * each kept trade adds its fixed exits' outcome to its cells' bucket, no
 * more than that per trade (bucket_trade and the prefetch ring cost twice
 * this loop on small kept sets; bench/RESULTS.md "Filter sweeps' own loop"). */
static void bucket_filters(const fit_tables_t *t, const sweep_cache_t *cache, const uint64_t *kept, const dim_t *a,
                           const dim_t *b, accum_t *B)
{
    const int32_t f2 = b->filter;
    for (int64_t w = 0; w < cache->ks.n_words; w++)
        for (uint64_t x = kept[w]; x; x &= x - 1) {
            const int64_t j = (w << 6) + bits_ctz64(x);
            const uint16_t *c = t->cells + j * t->n_filters;
            const race_t fixed = sweep_cache_race(cache, j);
            accum_add(&B[(uint64_t)c[a->filter] * b->m + (f2 >= 0 ? c[f2] : 0)], &t->obj, fixed.q, fixed.lf);
        }
}

/* The buckets' sums: B[i1 * b->m + i2], or add->row's. One pass over the trades in equity
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
    for (uint64_t i = 0; !add->row && i < (uint64_t)a->m * b->m; i++)
        accum_init(&B[i]);
    if (kept && !a->level && !b->level) {
        bucket_filters(t, cache, kept, a, b, B);
    } else if (kept) { /* each trade's lines asked for SWEEP_AHEAD trades before */
        int64_t ahead[SWEEP_AHEAD], w = 0;
        uint64_t x = kept[0];
        for (int k = 0; k < SWEEP_AHEAD; k++)
            if ((ahead[k] = next_kept(kept, cache->ks.n_words, &w, &x)) >= 0)
                prefetch_trade(t, cache, a, b, ahead[k]);
        for (int k = 0; ahead[k] >= 0; k = (k + 1) % SWEEP_AHEAD) {
            const int64_t j = ahead[k];
            if ((ahead[k] = next_kept(kept, cache->ks.n_words, &w, &x)) >= 0)
                prefetch_trade(t, cache, a, b, ahead[k]);
            bucket_trade(t, cache, &g, a, b, add, B, j);
        }
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
    if (add->row) { /* its own sums, B unused */
        if (a->filter >= 0 || b->filter >= 0)
            sweep_row_suffix(add->row);
        return;
    }
    if (add->lv)
        sweep_levels_finish(add->lv, B);
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

static int accum_same(const accum_t *x, const accum_t *y)
{
    return x->n == y->n && x->sum == y->sum && x->pos == y->pos && x->sumsq.lo == y->sumsq.lo &&
           x->sumsq.hi == y->sumsq.hi && x->lsum == y->lsum && x->ruin == y->ruin && x->equity == y->equity &&
           x->peak == y->peak && x->maxdd == y->maxdd;
}

/* Bucket (i1, i2)'s sums, and its trade count alone. */
static void bucket_sums(const dim_t *a, const dim_t *b, const accum_t *B, const sweep_row_t *sr, uint32_t i1,
                        uint32_t i2, accum_t *x)
{
    if (sr)
        sweep_row_sums(sr, a->level ? i2 : i1, a->level ? i1 : i2, x);
    else
        *x = B[(uint64_t)i1 * b->m + i2];
}

static int64_t bucket_n(const dim_t *a, const dim_t *b, const accum_t *B, const sweep_row_t *sr, uint32_t i1,
                        uint32_t i2)
{
    return sr ? sr->count[a->level ? i2 : i1] : B[(uint64_t)i1 * b->m + i2].n;
}

/* Where value (v1, v2), whose bucket (i1, i2) holds n trades, keeps the same trades as
 * a neighbour: 1 the value above it along a filter a, 2 the value to its left
 * along a filter b, 0 neither. Two neighbouring values' buckets along a
 * filter are suffix sums, one a subset of the other, so the same count means
 * the same trades (no kept trade's cell lies between). */
static int same_trades(const dim_t *a, const dim_t *b, const accum_t *B, const sweep_row_t *sr, uint32_t v1,
                       uint32_t v2, uint32_t i1, uint32_t i2, int64_t n)
{
    if (a->filter >= 0 && v1 && bucket_n(a, b, B, sr, bucket_of(a, v1 - 1), i2) == n)
        return 1;
    if (b->filter >= 0 && v2 && bucket_n(a, b, B, sr, i1, bucket_of(b, v2 - 1)) == n)
        return 2;
    return 0;
}

static void put(eval_result_t *o, const eval_result_t *r)
{
    /* field by field: a copy of the whole struct read it back as other
     * words than were stored, a store-forwarding stall a value */
    o->fitness = r->fitness;
    o->trades = r->trades;
    o->feasible = r->feasible;
    o->pad_ = r->pad_;
}

/* Every value's result from its bucket (of B, or of the row sums sr).
 * accum_finish is a function of the sums alone, and neighbouring buckets
 * often hold the same sums: along a filter the same trades (same_trades);
 * elsewhere (levels that no kept trade tells apart) the sums are compared.
 * An equal bucket takes its neighbour's result (sharpe's divisions and
 * square root were most of a small sweep). */
static void finish_all(const fit_tables_t *t, const dim_t *a, const dim_t *b, const accum_t *B, const sweep_row_t *sr,
                       eval_result_t *out)
{
    accum_t last, x;
    eval_result_t r;
    memset(&r, 0, sizeof r);
    accum_init(&last);
    for (uint32_t v1 = 0; v1 < a->n; v1++) {
        const uint32_t i1 = bucket_of(a, v1);
        for (uint32_t v2 = 0; v2 < b->n; v2++) {
            const uint32_t i2 = bucket_of(b, v2);
            eval_result_t *o = &out[(uint64_t)v1 * b->n + v2];
            const int same = same_trades(a, b, B, sr, v1, v2, i1, i2, bucket_n(a, b, B, sr, i1, i2));
            if (same) {
                put(o, same == 1 ? o - b->n : o - 1);
                continue;
            }
            bucket_sums(a, b, B, sr, i1, i2, &x);
            if ((v1 | v2) == 0 || !accum_same(&x, &last)) {
                r = accum_finish(&x, &t->obj);
                last = x;
            }
            put(o, &r);
        }
    }
}

/* finish_all's best alone (sweep_best_cached): value 0 is finished, then
 * only the values that may beat every value before them. Fewer kept trades
 * than min_trades: infeasible, rank_key 0. The same trades as a neighbour
 * (same_trades), or the same sums as the value finished last: the same
 * result as a value before. */
static void finish_best(const fit_tables_t *t, const dim_t *a, const dim_t *b, const accum_t *B, const sweep_row_t *sr,
                        sweep_best_t *best)
{
    accum_t last, x;
    accum_init(&last); /* value 0 is finished before it is compared */
    for (uint32_t v1 = 0; v1 < a->n; v1++) {
        const uint32_t i1 = bucket_of(a, v1), up = v1 ? bucket_of(a, v1 - 1) : 0;
        /* row sums of a filter (or none) and a level: the row's values share
         * its count, so a row that the tests below skip is skipped whole */
        if (sr && !a->level && v1 &&
            (sr->count[i1] < t->obj.min_trades || (a->filter >= 0 && sr->count[up] == sr->count[i1])))
            continue;
        for (uint32_t v2 = 0; v2 < b->n; v2++) {
            const uint32_t i2 = bucket_of(b, v2);
            const int64_t n = bucket_n(a, b, B, sr, i1, i2);
            const int first = (v1 | v2) == 0;
            eval_result_t r;
            uint64_t key;
            if (!first && (n < t->obj.min_trades || same_trades(a, b, B, sr, v1, v2, i1, i2, n)))
                continue;
            bucket_sums(a, b, B, sr, i1, i2, &x);
            if (!first && accum_same(&x, &last))
                continue;
            r = accum_finish(&x, &t->obj);
            last = x;
            key = rank_key(r);
            if (first || key > best->key) {
                best->at = (uint64_t)v1 * b->n + v2;
                best->key = key;
                best->r = r;
            }
        }
    }
}

void sweep_best_of(const eval_result_t *out, uint64_t n, sweep_best_t *best)
{
    best->at = 0;
    best->key = rank_key(out[0]);
    best->r = out[0];
    for (uint64_t v = 1; v < n; v++) {
        const uint64_t key = rank_key(out[v]);
        if (key > best->key) {
            best->at = v;
            best->key = key;
            best->r = out[v];
        }
    }
}

/* Every value's result into out, or only the best into *best (out NULL). */
static ev_status sweep_dims(const fit_tables_t *t, sweep_cache_t *cache, const uint16_t *genes, const dim_t *a,
                            const dim_t *b, eval_result_t *out, sweep_best_t *best, ev_error *err)
{
    accum_t *B = NULL;
    sweep_levels_t lv;
    sweep_row_t sr;
    adder_t add = {NULL, NULL};
    /* the additive sums take two levels at once, or one level's row at once;
     * the drawdown adds in order */
    const int levels = a->level && b->level && !t->obj.need_dd;
    const int row = !a->level != !b->level && !t->obj.need_dd && (!t->obj.need_log || t->need_lf);
    if (!sweep_uses_sums(t, a->gene, b->gene)) {
        const uint64_t n = (uint64_t)a->n * b->n;
        eval_result_t *all = out ? out : (eval_result_t *)malloc((size_t)n * sizeof *all);
        if (!all)
            return ev_fail(err, EV_ENOMEM, "out of memory for a neighbourhood sweep (%u x %u values)", a->n, b->n);
        sweep_plain(t, genes, a, b, all);
        if (best) {
            sweep_best_of(all, n, best);
            free(all);
        }
        return EV_OK;
    }
    /* the rows and the difference arrays (3 x B's size) are optional:
     * without the memory the cells are added one by one */
    if (row) { /* a climb's cache lends its arrays */
        sweep_row_t *s = cache ? &cache->row : &sr;
        const uint32_t rows = a->level ? b->m : a->m, n = a->level ? a->n : b->n;
        if ((cache ? sweep_row_reset(s, &t->obj, rows, n, NULL) : sweep_row_init(s, &t->obj, rows, n, NULL)) == EV_OK)
            add.row = s;
    }
    if (!add.row && !(B = (accum_t *)malloc((size_t)a->m * b->m * sizeof *B)))
        return ev_fail(err, EV_ENOMEM, "out of memory for a neighbourhood sweep (%u x %u values)", a->n, b->n);
    if (levels && sweep_levels_init(&lv, a->n, b->n, NULL) == EV_OK)
        add.lv = &lv;
    sweep_buckets(t, cache, genes, a, b, &add, B);
    if (add.lv)
        sweep_levels_free(&lv);
    if (best)
        finish_best(t, a, b, B, add.row, best);
    else
        finish_all(t, a, b, B, add.row, out);
    if (add.row == &sr)
        sweep_row_free(&sr);
    free(B);
    return EV_OK;
}

/* Genes k1 and k2 (-1: a gene sweep) swept into out, or their best into *best. */
static ev_status sweep_genes(const fit_tables_t *t, sweep_cache_t *cache, const uint16_t *genes, int32_t k1, int32_t k2,
                             eval_result_t *out, sweep_best_t *best, ev_error *err)
{
    dim_t a, b;
    if (k1 == k2)
        return ev_fail(err, EV_EUSAGE, "a pair sweep needs two different genes (%d twice)", k1);
    dim_of(t, k1, &a);
    dim_of(t, k2, &b);
    return sweep_dims(t, cache, genes, &a, &b, out, best, err);
}

ev_status sweep_gene_cached(const fit_tables_t *t, sweep_cache_t *cache, const uint16_t *genes, int32_t k,
                            eval_result_t *out, ev_error *err)
{
    return sweep_genes(t, cache, genes, k, -1, out, NULL, err);
}

ev_status sweep_pair_cached(const fit_tables_t *t, sweep_cache_t *cache, const uint16_t *genes, int32_t k1, int32_t k2,
                            eval_result_t *out, ev_error *err)
{
    return sweep_genes(t, cache, genes, k1, k2, out, NULL, err);
}

ev_status sweep_best_cached(const fit_tables_t *t, sweep_cache_t *cache, const uint16_t *genes, int32_t k1, int32_t k2,
                            sweep_best_t *best, ev_error *err)
{
    return sweep_genes(t, cache, genes, k1, k2, NULL, best, err);
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
