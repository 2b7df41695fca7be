#include "tests/support/ga_pair.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ga/ga_plan.h"

static void die(const char *what, const ev_error *err)
{
    fprintf(stderr, "ga_pair: %s: %s\n", what, err ? err->msg : "");
    exit(2);
}

static void *must(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    if (!p)
        die("out of memory", NULL);
    return p;
}

/* Records a difference (the first one's description is kept). */
static int differ(ga_pair_t *x, const char *fmt, ...) EV_PRINTF(2, 3);

static int differ(ga_pair_t *x, const char *fmt, ...)
{
    if (!x->what[0]) {
        va_list ap;
        int n = snprintf(x->what, sizeof x->what, "generation %u: ", x->gen);
        va_start(ap, fmt);
        vsnprintf(x->what + n, sizeof x->what - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return 1;
}

void ga_pair_open(ga_pair_t *x, const backend_ops_t *ops, const fit_problem_t *p, const tables_host_t *t,
                  const ga_settings_t *s, uint64_t seed, uint32_t top)
{
    ev_error err;
    memset(x, 0, sizeof *x);
    x->p = p;
    x->s = *s;
    if (ga_plan_build(&x->plan, p, s, seed, top, &err) != EV_OK)
        die("plan", &err);
    x->side[0].ops = &backend_cpu_ops;
    x->side[1].ops = ops;
    x->islands = (breed_island_t *)must(x->plan.ctx.islands, sizeof *x->islands);
    for (int k = 0; k < 2; k++) {
        ga_side_t *sd = &x->side[k];
        ga_plan_t plan = x->plan;
        size_t pop = x->plan.ctx.population, ng = (size_t)x->plan.ctx.n_genes;
        if (sd->ops->open(&sd->b, p, t, &err) != EV_OK)
            die("backend open", &err);
        plan.evaluate = sd->ops->evaluate;
        plan.evaluate_b = sd->b;
        if (sd->ops->ga_open(k == 0 ? NULL : sd->b, &plan, &sd->g, &err) != EV_OK)
            die("ga_open", &err);
        sd->genes = (uint16_t *)must(ng * pop, sizeof *sd->genes);
        sd->results = (eval_result_t *)must(pop, sizeof *sd->results);
        sd->parents = (int32_t *)must(2 * pop, sizeof *sd->parents);
        sd->top = (ga_hof_entry_t *)must(x->plan.top_k, sizeof *sd->top);
        sd->unique = (uint32_t *)must(x->plan.ctx.islands, sizeof *sd->unique);
        sd->counts = (uint32_t *)must(x->plan.gene_values, sizeof *sd->counts);
    }
}

void ga_pair_close(ga_pair_t *x)
{
    for (int k = 0; k < 2; k++) {
        ga_side_t *sd = &x->side[k];
        if (sd->g)
            sd->ops->ga_close(sd->g);
        if (sd->b)
            sd->ops->close(sd->b);
        free(sd->genes);
        free(sd->results);
        free(sd->parents);
        free(sd->top);
        free(sd->unique);
        free(sd->counts);
    }
    free(x->islands);
    memset(x, 0, sizeof *x);
}

void ga_pair_init(ga_pair_t *x)
{
    ev_error err;
    for (int k = 0; k < 2; k++)
        if (x->side[k].ops->ga_init_population(x->side[k].g, &err) != EV_OK)
            die("ga_init_population", &err);
    x->gen = 0;
    x->full = 0;
}

static int same_double(double a, double b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

static int compare_eval(ga_pair_t *x)
{
    const ga_eval_out_t *a = &x->side[0].ev, *b = &x->side[1].ev;
    if (a->distinct != b->distinct || a->new_evals != b->new_evals || a->cache_full != b->cache_full)
        return differ(x, "evaluate: distinct %llu/%llu, new %llu/%llu, cache_full %d/%d (cpu/other)",
                      (unsigned long long)a->distinct, (unsigned long long)b->distinct,
                      (unsigned long long)a->new_evals, (unsigned long long)b->new_evals, a->cache_full, b->cache_full);
    if (a->cache_full)
        return 0;
    if (a->n_top != b->n_top)
        return differ(x, "evaluate: %u new top entries on the cpu, %u on the other", a->n_top, b->n_top);
    for (uint32_t i = 0; i < a->n_top; i++)
        if (memcmp(&a->top[i], &b->top[i], sizeof a->top[i]) != 0)
            return differ(x, "evaluate: new top entry %u: cpu key %llu index %llu, other key %llu index %llu", i,
                          (unsigned long long)a->top[i].key, (unsigned long long)a->top[i].index,
                          (unsigned long long)b->top[i].key, (unsigned long long)b->top[i].index);
    return 0;
}

static int compare_rank(ga_pair_t *x)
{
    const ga_rank_out_t *a = &x->side[0].rk, *b = &x->side[1].rk;
    int bad = 0;
    if (memcmp(a->island_unique, b->island_unique, x->plan.ctx.islands * sizeof *a->island_unique) != 0)
        bad += differ(x, "rank: distinct genomes per island differ (island 0: %u/%u)", a->island_unique[0],
                      b->island_unique[0]);
    if (memcmp(a->gene_counts, b->gene_counts, x->plan.gene_values * sizeof *a->gene_counts) != 0)
        bad += differ(x, "rank: gene histograms differ");
    if (a->feasible != b->feasible || !same_double(a->best, b->best) || !same_double(a->median, b->median))
        bad +=
            differ(x, "rank: feasible %llu/%llu, best %.17g/%.17g, median %.17g/%.17g", (unsigned long long)a->feasible,
                   (unsigned long long)b->feasible, a->best, b->best, a->median, b->median);
    if (!same_double(a->mean, b->mean) || !same_double(a->std, b->std)) /* one order: ga_mean_std_of */
        bad += differ(x, "rank: mean %.17g/%.17g, std %.17g/%.17g", a->mean, b->mean, a->std, b->std);
    return bad;
}

static int compare_population(ga_pair_t *x)
{
    const ga_side_t *a = &x->side[0], *b = &x->side[1];
    size_t pop = x->plan.ctx.population, ng = (size_t)x->plan.ctx.n_genes;
    int bad = 0;
    if (memcmp(a->genes, b->genes, ng * pop * sizeof *a->genes) != 0)
        bad += differ(x, "the populations' genes differ");
    for (size_t i = 0; i < pop; i++)
        if (memcmp(&a->results[i], &b->results[i], sizeof a->results[i]) != 0) {
            bad += differ(x, "individual %zu: cpu %.17g/%lld/%d, other %.17g/%lld/%d", i, a->results[i].fitness,
                          (long long)a->results[i].trades, a->results[i].feasible, b->results[i].fitness,
                          (long long)b->results[i].trades, b->results[i].feasible);
            break;
        }
    if (memcmp(a->parents, b->parents, 2 * pop * sizeof *a->parents) != 0)
        bad += differ(x, "the parents differ");
    return bad;
}

int ga_pair_step(ga_pair_t *x)
{
    ev_error err;
    int bad = 0;
    for (int k = 0; k < 2; k++) {
        ga_side_t *sd = &x->side[k];
        memset(&sd->ev, 0, sizeof sd->ev);
        sd->ev.top = sd->top;
        if (sd->ops->ga_evaluate(sd->g, &sd->ev, &err) != EV_OK)
            die("ga_evaluate", &err);
    }
    x->checks++;
    bad += compare_eval(x);
    x->full = x->side[0].ev.cache_full;
    if (bad || x->full)
        return bad;
    for (int k = 0; k < 2; k++) {
        ga_side_t *sd = &x->side[k];
        memset(&sd->rk, 0, sizeof sd->rk);
        sd->rk.island_unique = sd->unique;
        sd->rk.gene_counts = sd->counts;
        if (sd->ops->ga_rank(sd->g, &sd->rk, &err) != EV_OK ||
            sd->ops->ga_download(sd->g, sd->genes, sd->results, sd->parents, &err) != EV_OK)
            die("ga_rank/ga_download", &err);
    }
    bad += compare_rank(x);
    bad += compare_population(x);
    if (x->side[0].ops->ga_cache_count(x->side[0].g) != x->side[1].ops->ga_cache_count(x->side[1].g))
        bad += differ(x, "cache sizes %llu/%llu", (unsigned long long)x->side[0].ops->ga_cache_count(x->side[0].g),
                      (unsigned long long)x->side[1].ops->ga_cache_count(x->side[1].g));
    return bad;
}

void ga_pair_breed(ga_pair_t *x)
{
    ev_error err;
    ga_plan_islands(&x->plan, &x->s, x->gen + 1, x->side[0].unique, x->islands);
    for (int k = 0; k < 2; k++)
        if (x->side[k].ops->ga_breed(x->side[k].g, x->gen + 1, x->islands, &err) != EV_OK)
            die("ga_breed", &err);
    x->gen++;
}

int ga_pair_run(ga_pair_t *x)
{
    int bad = 0;
    ga_pair_init(x);
    for (;;) {
        bad += ga_pair_step(x);
        if (bad || x->full || x->gen + 1 >= x->s.generations)
            return bad;
        ga_pair_breed(x);
    }
}

static int32_t sort_words;

static int cmp_entry(const void *pa, const void *pb)
{
    const uint64_t *a = (const uint64_t *)pa, *b = (const uint64_t *)pb;
    for (int32_t w = sort_words - 1; w >= 0; w--)
        if (a[w] != b[w])
            return a[w] < b[w] ? -1 : 1;
    return 0;
}

void ga_cache_sorted(const backend_ops_t *ops, ga_state_t *g, int32_t words, uint64_t *n, uint64_t **index,
                     eval_result_t **results)
{
    ev_error err;
    uint64_t m = ops->ga_cache_count(g);
    size_t rec = (size_t)words + 3; /* words, then the 24-byte result */
    uint64_t *tmp = (uint64_t *)must((size_t)m * rec, sizeof *tmp);
    uint64_t *ix = (uint64_t *)must((size_t)m * (size_t)words, sizeof *ix);
    eval_result_t *rs = (eval_result_t *)must((size_t)m, sizeof *rs);
    if (ops->ga_cache_export(g, ix, rs, &err) != EV_OK)
        die("ga_cache_export", &err);
    for (uint64_t j = 0; j < m; j++) {
        memcpy(tmp + j * rec, ix + j * (uint64_t)words, (size_t)words * sizeof *ix);
        memcpy(tmp + j * rec + words, &rs[j], sizeof rs[j]);
    }
    sort_words = words;
    qsort(tmp, (size_t)m, rec * sizeof *tmp, cmp_entry);
    for (uint64_t j = 0; j < m; j++) {
        memcpy(ix + j * (uint64_t)words, tmp + j * rec, (size_t)words * sizeof *ix);
        memcpy(&rs[j], tmp + j * rec + words, sizeof rs[j]);
    }
    free(tmp);
    *n = m;
    *index = ix;
    *results = rs;
}

int ga_pair_same_cache(ga_pair_t *x)
{
    uint64_t n[2], *ix[2];
    eval_result_t *rs[2];
    int32_t w = x->plan.index_words;
    int same;
    for (int k = 0; k < 2; k++)
        ga_cache_sorted(x->side[k].ops, x->side[k].g, w, &n[k], &ix[k], &rs[k]);
    same = n[0] == n[1] && memcmp(ix[0], ix[1], (size_t)n[0] * (size_t)w * sizeof *ix[0]) == 0 &&
           memcmp(rs[0], rs[1], (size_t)n[0] * sizeof *rs[0]) == 0;
    for (int k = 0; k < 2; k++) {
        free(ix[k]);
        free(rs[k]);
    }
    return same;
}
