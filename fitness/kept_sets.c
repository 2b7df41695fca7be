#include "fitness/kept_sets.h"

#include <stdlib.h>
#include <string.h>

#include "common/bits.h"

/* Resolving the race of exits once per (trade, combination of exit values)
 * instead of once per (genome, trade), where the arrays fit. */
static void build_pairs(kept_sets_t *ks, uint64_t max_bytes)
{
    const fit_tables_t *t = ks->t;
    const uint64_t combos = tables_exit_combos(t), n = combos * (uint64_t)t->n_trades;
    if (n * 8u * (t->need_lf ? 2u : 1u) > max_bytes)
        return;
    ks->pair_q = (int64_t *)malloc((n + 1) * sizeof *ks->pair_q);
    ks->pair_lf = t->need_lf ? (int64_t *)malloc((n + 1) * sizeof *ks->pair_lf) : NULL;
    if (!ks->pair_q || (t->need_lf && !ks->pair_lf)) { /* optional: fall back quietly */
        free(ks->pair_q);
        free(ks->pair_lf);
        ks->pair_q = ks->pair_lf = NULL;
        return;
    }
    for (uint64_t c = 0; c < combos; c++) {
        const tables_exits_t x = tables_exit_combo(t, c);
        const uint64_t base = c * (uint64_t)t->n_trades;
        for (int64_t j = 0; j < t->n_trades; j++) {
            int64_t lf;
            tables_outcome(t, j, &x, &ks->pair_q[base + (uint64_t)j], &lf);
            if (ks->pair_lf)
                ks->pair_lf[base + (uint64_t)j] = lf;
        }
    }
}

ev_status kept_sets_build(kept_sets_t *ks, const fit_tables_t *t, uint64_t max_bytes, ev_error *err)
{
    uint64_t rows = 0;
    memset(ks, 0, sizeof *ks);
    ks->t = t;
    ks->n_words = (t->n_trades + 63) / 64;
    for (int32_t f = 0; f < t->n_filters; f++) {
        ks->row0[f] = (int64_t)rows;
        rows += t->filter_n[f];
    }
    if (rows * (uint64_t)ks->n_words * 8u > max_bytes)
        return EV_OK;
    ks->bits = (uint64_t *)calloc(rows * (uint64_t)ks->n_words + 1, sizeof *ks->bits);
    if (!ks->bits)
        return ev_fail(err, EV_ENOMEM, "out of memory for the kept-trade bitsets");
    /* Row (f, g) holds the trades with g < cell_f: a trade with cell c marks
     * row c-1 of its filter, and each row takes in the rows above it (one OR
     * a word, where setting rows 0 .. c-1 bit by bit was 3-4 % of a short
     * run that builds them per climb: bench/RESULTS.md). */
    for (int64_t j = 0; j < t->n_trades; j++) {
        uint64_t bit = UINT64_C(1) << (j & 63);
        int64_t w = j >> 6;
        for (int32_t f = 0; f < t->n_filters; f++) {
            uint16_t c = t->cells[j * t->n_filters + f];
            if (c)
                ks->bits[(ks->row0[f] + c - 1) * ks->n_words + w] |= bit;
        }
    }
    for (int32_t f = 0; f < t->n_filters; f++)
        for (int64_t g = (int64_t)t->filter_n[f] - 2; g >= 0; g--) {
            uint64_t *row = ks->bits + (ks->row0[f] + g) * ks->n_words;
            for (int64_t w = 0; w < ks->n_words; w++)
                row[w] |= row[w + ks->n_words];
        }
    build_pairs(ks, max_bytes);
    return EV_OK;
}

void kept_sets_free(kept_sets_t *ks)
{
    free(ks->bits);
    free(ks->pair_q);
    free(ks->pair_lf);
    memset(ks, 0, sizeof *ks);
}

ev_status kept_scratch_init(kept_scratch_t *s, const kept_sets_t *ks, ev_error *err)
{
    memset(s, 0, sizeof *s);
    s->words = (uint64_t *)malloc(((size_t)ks->n_words + 1) * sizeof *s->words);
    if (!s->words)
        return ev_fail(err, EV_ENOMEM, "out of memory for a kept-trade scratch set");
    return EV_OK;
}

void kept_scratch_free(kept_scratch_t *s)
{
    free(s->words);
    memset(s, 0, sizeof *s);
}

static void kept_compute(const kept_sets_t *ks, kept_scratch_t *s, const tables_genome_t *g)
{
    const fit_tables_t *t = ks->t;
    int64_t nw = ks->n_words;
    if (t->n_filters == 0) {
        for (int64_t w = 0; w < nw; w++)
            s->words[w] = ~UINT64_C(0);
        if (t->n_trades & 63)
            s->words[nw - 1] = (UINT64_C(1) << (t->n_trades & 63)) - 1;
    } else {
        const uint64_t *r0 = ks->bits + (ks->row0[0] + g->gf[0]) * nw;
        memcpy(s->words, r0, (size_t)nw * sizeof *s->words);
        for (int32_t f = 1; f < t->n_filters; f++) {
            const uint64_t *r = ks->bits + (ks->row0[f] + g->gf[f]) * nw;
            for (int64_t w = 0; w < nw; w++)
                s->words[w] &= r[w];
        }
    }
    memcpy(s->gf, g->gf, sizeof s->gf);
    s->valid = 1;
}

/* objective.aggregate: the kept trades into their folds' sums (as tables_eval_folds). */
static eval_result_t kept_sets_eval_folds(const kept_sets_t *ks, const kept_scratch_t *s, const tables_genome_t *g)
{
    const fit_tables_t *t = ks->t;
    accum_t a[EV_AGG_MAX_FOLDS];
    const int64_t *pl, *pq = kept_sets_pair_row(ks, &g->x, &pl);
    for (int32_t f = 0; f < t->n_folds; f++)
        accum_init(&a[f]);
    for (int64_t w = 0; w < ks->n_words; w++)
        for (uint64_t x = s->words[w]; x; x &= x - 1) {
            int64_t j = (w << 6) + bits_ctz64(x);
            int64_t q, lf;
            if (pq) {
                q = pq[j];
                lf = pl ? pl[j] : 0;
            } else {
                tables_outcome(t, j, &g->x, &q, &lf);
            }
            accum_add(&a[t->fold[j]], &t->obj, q, lf);
        }
    return fold_aggregate(a, t->n_folds, t->agg, &t->obj);
}

const uint64_t *kept_sets_genome(const kept_sets_t *ks, kept_scratch_t *s, const uint16_t *genes, tables_genome_t *g)
{
    const fit_tables_t *t = ks->t;
    tables_genome(t, genes, g);
    if (!s->valid || memcmp(s->gf, g->gf, (size_t)t->n_filters * sizeof g->gf[0]) != 0)
        kept_compute(ks, s, g);
    return s->words;
}

eval_result_t kept_sets_walk(const kept_sets_t *ks, const kept_scratch_t *s, const tables_genome_t *g)
{
    const fit_tables_t *t = ks->t;
    accum_t a;
    const int64_t *pl, *pq;
    if (t->agg != AGG_ALL)
        return kept_sets_eval_folds(ks, s, g);
    accum_init(&a);
    if ((pq = kept_sets_pair_row(ks, &g->x, &pl)) != NULL) {
        for (int64_t w = 0; w < ks->n_words; w++)
            for (uint64_t x = s->words[w]; x; x &= x - 1) {
                int64_t j = (w << 6) + bits_ctz64(x);
                accum_add(&a, &t->obj, pq[j], pl ? pl[j] : 0);
            }
        return accum_finish(&a, &t->obj);
    }
    for (int64_t w = 0; w < ks->n_words; w++)
        for (uint64_t x = s->words[w]; x; x &= x - 1) {
            int64_t j = (w << 6) + bits_ctz64(x);
            int64_t q, lf;
            tables_outcome(t, j, &g->x, &q, &lf);
            accum_add(&a, &t->obj, q, lf);
        }
    return accum_finish(&a, &t->obj);
}

eval_result_t kept_sets_eval(const kept_sets_t *ks, kept_scratch_t *s, const uint16_t *genes)
{
    tables_genome_t g;
    (void)kept_sets_genome(ks, s, genes, &g);
    return kept_sets_walk(ks, s, &g);
}
