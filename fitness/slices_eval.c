#include "fitness/slices_eval.h"

#include <stdlib.h>
#include <string.h>

/* The cost model, in units of one kept trade of a dense walk (ctz, outcome
 * lookup, accumulate; about 5 ns here): a walk costs one per kept trade plus
 * WALK_SPARSE per word that holds one (a mispredicted branch and a cache
 * line: sparse kept sets walk at 30-50 ns a trade), the slices one plane
 * word (AND, popcount, add) each at the kernel's cost. Measured per genome,
 * random genomes at 50,000 trades, 2-core AMD EPYC without AVX-512
 * (bench/RESULTS.md, "Bit-sliced evaluator"); AVX-512's from the issue's
 * study (8 words an instruction), not measured here. */
#define WALK_SPARSE 8.0
static const double plane_cost_of[SLICES_KERNELS] = {0.3, 0.08, 0.08, 0.03};

int slices_mode_parse(const char *s, slices_mode *m)
{
    static const char *names[] = {"auto", "walk", "slices"};
    for (int i = 0; i < 3; i++)
        if (s && strcmp(s, names[i]) == 0) {
            *m = (slices_mode)i;
            return 1;
        }
    return 0;
}

ev_status slices_mode_from_env(slices_mode *m, ev_error *err)
{
    const char *v = getenv(SLICES_MODE_ENV);
    *m = SLICES_MODE_AUTO;
    if (!v || !*v || slices_mode_parse(v, m))
        return EV_OK;
    return ev_fail(err, EV_EUSAGE, "environment variable %s is \"%s\": expected auto, walk or slices", SLICES_MODE_ENV,
                   v);
}

void slices_eval_init(slices_eval_t *e, const kept_sets_t *ks, const slices_t *sl, slices_mode mode, slices_kernel kern)
{
    e->ks = ks;
    e->sl = sl;
    e->mode = mode;
    e->kern = kern;
    e->plane_cost = plane_cost_of[e->kern];
    if (!ks->pair_q)
        e->plane_cost /= 3.0; /* the walk resolves each kept trade's race of exits itself */
}

ev_status slices_scratch_init(slices_scratch_t *s, const slices_eval_t *e, ev_error *err)
{
    memset(s, 0, sizeof *s);
    if (kept_scratch_init(&s->k, e->ks, err) != EV_OK)
        return EV_ENOMEM;
    s->masked = (uint64_t *)malloc(((size_t)e->ks->n_words + 1) * sizeof *s->masked);
    if (!s->masked) {
        kept_scratch_free(&s->k);
        return ev_fail(err, EV_ENOMEM, "out of memory for a fold's kept-trade set");
    }
    return EV_OK;
}

void slices_scratch_free(slices_scratch_t *s)
{
    kept_scratch_free(&s->k);
    free(s->masked);
    memset(s, 0, sizeof *s);
}

/* The sums of kept set k (n trades) under combination c's planes. */
static void sliced_accum(const slices_eval_t *e, slices_scratch_t *s, uint64_t c, const uint64_t *k, uint64_t n,
                         accum_t *a)
{
    const slices_combo_t *cb = &e->sl->combo[c];
    memset(s->cnt, 0, (size_t)cb->planes * sizeof s->cnt[0]);
    slices_counts(e->kern, k, e->sl->planes[c], e->sl->n_words, cb->planes, s->cnt);
    slices_accum(cb, &e->ks->t->obj, (int64_t)n, s->cnt, a);
}

static eval_result_t sliced(const slices_eval_t *e, slices_scratch_t *s, uint64_t c, const uint64_t *k, uint64_t n)
{
    const fit_tables_t *t = e->ks->t;
    accum_t a[EV_AGG_MAX_FOLDS];
    if (t->agg == AGG_ALL) {
        sliced_accum(e, s, c, k, n, &a[0]);
        return accum_finish(&a[0], &t->obj);
    }
    for (int32_t f = 0; f < t->n_folds; f++) {
        const uint64_t nf =
            slices_and_count(k, e->sl->fold_bits + (int64_t)f * e->sl->n_words, e->sl->n_words, s->masked);
        sliced_accum(e, s, c, s->masked, nf, &a[f]);
    }
    return fold_aggregate(a, t->n_folds, t->agg, &t->obj);
}

int slices_eval_sliced(const slices_eval_t *e, slices_scratch_t *s, const uint16_t *genes, tables_genome_t *g,
                       const uint64_t **k, eval_result_t *out)
{
    *k = kept_sets_genome(e->ks, &s->k, genes, g);
    if (e->mode != SLICES_MODE_WALK && e->sl->combo) {
        const uint64_t c = tables_exit_combo_of(e->ks->t, &g->x);
        if (slices_planes(e->sl, c)) {
            const uint64_t n = slices_count(e->kern, *k, e->ks->n_words);
            const double folds = e->ks->t->agg == AGG_ALL ? 1.0 : (double)e->ks->t->n_folds + 0.1;
            const double nw = (double)e->ks->n_words;
            const double walk = (double)n + WALK_SPARSE * ((double)n < nw ? (double)n : nw);
            if (e->mode == SLICES_MODE_SLICES || walk > (double)e->sl->combo[c].planes * nw * folds * e->plane_cost) {
                s->slices++;
                *out = sliced(e, s, c, *k, n);
                return 1;
            }
        }
    }
    s->walks++;
    return 0;
}

eval_result_t slices_eval(const slices_eval_t *e, slices_scratch_t *s, const uint16_t *genes)
{
    tables_genome_t g;
    const uint64_t *k;
    eval_result_t r;
    return slices_eval_sliced(e, s, genes, &g, &k, &r) ? r : kept_sets_walk(e->ks, &s->k, &g);
}
