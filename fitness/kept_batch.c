#include "fitness/kept_batch.h"

#include <stdlib.h>
#include <string.h>

#include "common/bits.h"

ev_status kept_batch_init(kept_batch_t *b, const kept_sets_t *ks, uint32_t cap, ev_error *err)
{
    const fit_tables_t *t = ks->t;
    const size_t c = cap ? cap : 1;
    memset(b, 0, sizeof *b);
    b->ks = ks;
    b->cap = (uint32_t)c;
    b->folds = t->agg == AGG_ALL ? 1 : t->n_folds;
    b->kept = (uint64_t *)malloc(((size_t)ks->n_words * c + 1) * sizeof *b->kept);
    b->x = (tables_exits_t *)malloc(c * sizeof *b->x);
    b->pq = (const int64_t **)malloc(c * sizeof *b->pq);
    b->pl = (const int64_t **)malloc(c * sizeof *b->pl);
    b->acc = (accum_t *)malloc(c * (size_t)b->folds * sizeof *b->acc);
    if (!b->kept || !b->x || !b->pq || !b->pl || !b->acc) {
        kept_batch_free(b);
        return ev_fail(err, EV_ENOMEM, "out of memory for a batch of %zu kept-trade walks", c);
    }
    return EV_OK;
}

void kept_batch_free(kept_batch_t *b)
{
    free(b->kept);
    free(b->x);
    free(b->pq);
    free(b->pl);
    free(b->acc);
    memset(b, 0, sizeof *b);
}

uint32_t kept_batch_add(kept_batch_t *b, const uint64_t *kept, const tables_genome_t *g)
{
    const kept_sets_t *ks = b->ks;
    const uint32_t i = b->n++;
    for (int64_t w = 0; w < ks->n_words; w++)
        b->kept[(size_t)w * b->cap + i] = kept[w];
    b->x[i] = g->x;
    b->pq[i] = kept_sets_pair_row(ks, &g->x, &b->pl[i]);
    for (int32_t f = 0; f < b->folds; f++)
        accum_init(&b->acc[(size_t)i * (size_t)b->folds + (size_t)f]);
    return i;
}

/* The kept trades of word w, for every genome of the batch. */
static void walk_word(kept_batch_t *b, int64_t w)
{
    const fit_tables_t *t = b->ks->t;
    const objective_prep_t obj = t->obj; /* a local: no store of the sums can alias it */
    const uint64_t *row = b->kept + (size_t)w * b->cap;
    for (uint32_t i = 0; i < b->n; i++) {
        accum_t *a = b->acc + (size_t)i * (size_t)b->folds;
        for (uint64_t x = row[i]; x; x &= x - 1) {
            const int64_t j = (w << 6) + bits_ctz64(x);
            int64_t q, lf;
            if (b->pq[i]) {
                q = b->pq[i][j];
                lf = b->pl[i] ? b->pl[i][j] : 0;
            } else {
                tables_outcome(t, j, &b->x[i], &q, &lf);
            }
            accum_add(b->folds > 1 ? &a[t->fold[j]] : a, &obj, q, lf);
        }
    }
}

void kept_batch_walk(kept_batch_t *b, eval_result_t *out)
{
    const fit_tables_t *t = b->ks->t;
    for (int64_t w = 0; w < b->ks->n_words; w++)
        walk_word(b, w);
    for (uint32_t i = 0; i < b->n; i++) {
        accum_t *a = b->acc + (size_t)i * (size_t)b->folds;
        out[i] = t->agg == AGG_ALL ? accum_finish(a, &t->obj) : fold_aggregate(a, t->n_folds, t->agg, &t->obj);
    }
    b->n = 0;
}
