/* The GA run loop on the CPU backend: determinism (same seed, any thread
 * count, host-GA fallback), dedup counts and the hall of fame against an
 * independent count, elitism, migration and immigrants slot by slot, and the
 * progress line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "ga/ga_run.h"
#include "tests/check.h"
#include "tests/support/ga_fixture.h"

static int same_trace(const trace_t *a, const trace_t *b)
{
    return a->n == b->n && memcmp(a->hash, b->hash, a->n * sizeof a->hash[0]) == 0;
}

static void run_or_die(ga_fixture_t *f, const backend_ops_t *ops, const ga_settings_t *s, uint64_t seed, trace_t *tr,
                       ga_result_t *res)
{
    ev_error err;
    if (fixture_run(f, ops, s, seed, tr, res, &err) != EV_OK) {
        fprintf(stderr, "ga_run: %s\n", err.msg);
        exit(2);
    }
}

static void test_determinism(ga_fixture_t *f)
{
    ga_settings_t s;
    trace_t t1, t2, t3;
    ga_result_t r1, r2, r3;
    backend_ops_t no_ga = backend_cpu_ops;
    fixture_settings(&s);
    run_or_die(f, NULL, &s, 5, &t1, &r1);
    run_or_die(f, NULL, &s, 5, &t2, &r2);
    CHECK_EQ_I64(s.generations, t1.n);
    CHECK(same_trace(&t1, &t2));
    CHECK(fixture_same_top(&r1.hof, &r2.hof));
    CHECK_EQ_I64(r1.evaluations, r2.evaluations);
    ga_result_free(&r2);

    run_or_die(f, NULL, &s, 6, &t3, &r3); /* another seed, another run */
    CHECK(t3.hash[0] != t1.hash[0] && t3.hash[t3.n - 1] != t1.hash[t1.n - 1]);
    ga_result_free(&r3);

#ifdef _OPENMP
    {
        int threads = omp_get_max_threads();
        omp_set_num_threads(threads > 1 ? 1 : 3);
        run_or_die(f, NULL, &s, 5, &t2, &r2);
        omp_set_num_threads(threads);
        CHECK(same_trace(&t1, &t2));
        CHECK(fixture_same_top(&r1.hof, &r2.hof));
        ga_result_free(&r2);
    }
#endif

    /* A backend without GA ops: the CPU GA drives its evaluate, same run. */
    no_ga.ga_open = NULL;
    run_or_die(f, &no_ga, &s, 5, &t2, &r2);
    CHECK(r2.host_ga && !r1.host_ga);
    CHECK(same_trace(&t1, &t2));
    CHECK(fixture_same_top(&r1.hof, &r2.hof));
    ga_result_free(&r2);
    ga_result_free(&r1);
}

/* ---- every evaluated genome, counted independently ---- */

typedef struct {
    uint64_t index;
    eval_result_t r;
} seen_t;

typedef struct {
    const ga_fixture_t *f;
    seen_t *seen;
    size_t n, cap;
    int wrong_fitness;
} census_t;

static ev_status census_gen(void *ctx, const ga_generation_t *g, ev_error *err)
{
    census_t *c = (census_t *)ctx;
    (void)err;
    for (uint32_t i = 0; i < g->population; i++) {
        uint16_t genes[EV_MAX_PARAMS];
        eval_result_t want;
        for (uint32_t k = 0; k < g->n_genes; k++)
            genes[k] = g->genes[k * g->population + i];
        want = tables_eval(&c->f->t.view, genes);
        c->wrong_fitness += memcmp(&want, &g->results[i], sizeof want) != 0;
        if (c->n == c->cap) {
            c->cap = c->cap ? 2 * c->cap : 4096;
            c->seen = (seen_t *)realloc(c->seen, c->cap * sizeof *c->seen);
            if (!c->seen)
                exit(2);
        }
        c->seen[c->n].index = shape_encode(&c->f->p.shape, genes);
        c->seen[c->n++].r = g->results[i];
    }
    return EV_OK;
}

static int cmp_seen(const void *a, const void *b)
{
    uint64_t x = ((const seen_t *)a)->index, y = ((const seen_t *)b)->index;
    return x < y ? -1 : x > y;
}

static void test_dedup_and_hof(ga_fixture_t *f)
{
    ga_settings_t s;
    ga_observer_t obs;
    ga_run_opts_t o;
    ga_result_t res;
    census_t c;
    topk_t want;
    uint64_t distinct = 0;
    ev_error err;
    fixture_settings(&s);
    s.generations = 40;
    memset(&c, 0, sizeof c);
    c.f = f;
    memset(&obs, 0, sizeof obs);
    obs.ctx = &c;
    obs.want_population = 1;
    obs.on_generation = census_gen;
    memset(&o, 0, sizeof o);
    o.seed = 77;
    o.top = 10;
    o.observer = &obs;
    if (ga_run(&backend_cpu_ops, f->b, &f->p, &s, &o, &res, &err) || topk_init(&want, 10, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        exit(2);
    }
    CHECK_EQ_I64(0, c.wrong_fitness);
    qsort(c.seen, c.n, sizeof *c.seen, cmp_seen);
    for (size_t j = 0; j < c.n; j++) {
        if (j > 0 && c.seen[j].index == c.seen[j - 1].index)
            continue;
        distinct++;
        topk_offer(&want, c.seen[j].index, c.seen[j].r);
    }
    printf("dedup: %zu lookups, %llu distinct genomes, %llu unique evaluations, hit rate %.3f\n", c.n,
           (unsigned long long)distinct, (unsigned long long)res.evaluations, res.hit_rate);
    CHECK_EQ_I64(distinct, res.evaluations);
    CHECK_EQ_I64(c.n, res.lookups);
    CHECK_EQ_F64(1.0 - (double)distinct / (double)c.n, res.hit_rate);
    CHECK(distinct < c.n); /* the run did revisit genomes */
    CHECK_EQ_I64(want.n, res.hof.n);
    for (uint32_t i = 0; i < want.n && i < res.hof.n; i++) {
        uint16_t genes[EV_MAX_PARAMS];
        CHECK_EQ_I64(want.e[i].index, res.hof.e[i].index);
        CHECK_EQ_I64(want.e[i].key, res.hof.e[i].key);
        shape_decode(&f->p.shape, want.e[i].index, genes);
        CHECK(memcmp(genes, res.hof.e[i].genes, (size_t)f->p.shape.n_params * sizeof *genes) == 0);
    }
    topk_free(&want);
    free(c.seen);
    ga_result_free(&res);
}

/* ---- elites, migrants and immigrants, slot by slot ---- */

typedef struct {
    const ga_fixture_t *f;
    uint32_t pop, ng;
    uint16_t *prev_genes;
    eval_result_t *prev_res;
    uint64_t *prev_index;
    double prev_best;
    int migrations, immigrants, errors;
} slots_t;

static const slots_t *sort_ctx;

static int cmp_rank(const void *pa, const void *pb)
{
    uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
    uint64_t ka = rank_key(sort_ctx->prev_res[a]), kb = rank_key(sort_ctx->prev_res[b]);
    if (ka != kb)
        return ka > kb ? -1 : 1;
    if (sort_ctx->prev_index[a] != sort_ctx->prev_index[b])
        return sort_ctx->prev_index[a] < sort_ctx->prev_index[b] ? -1 : 1;
    return a < b ? -1 : a > b;
}

/* The previous generation's island in rank order, sorted here independently. */
static void island_order(slots_t *s, uint32_t island, uint32_t size, uint32_t *order)
{
    for (uint32_t j = 0; j < size; j++)
        order[j] = island * size + j;
    sort_ctx = s;
    qsort(order, size, sizeof *order, cmp_rank);
}

static int copies(const slots_t *s, const ga_generation_t *g, uint32_t child, uint32_t parent)
{
    for (uint32_t k = 0; k < s->ng; k++)
        if (g->genes[k * s->pop + child] != s->prev_genes[k * s->pop + parent])
            return 0;
    return g->parents[child] == (int32_t)parent && g->parents[s->pop + child] == -1;
}

static void check_slots(slots_t *s, const ga_generation_t *g)
{
    uint32_t size = g->population / g->islands, order[256], src[256];
    for (uint32_t i = 0; i < g->islands; i++) {
        const breed_island_t *p = &g->stats->islands[i];
        island_order(s, i, size, order);
        island_order(s, p->source, size, src);
        s->migrations += p->migrants > 0;
        s->immigrants += (int)p->immigrants;
        s->errors += p->elites < 1;
        for (uint32_t slot = 0; slot < size; slot++) {
            uint32_t child = i * size + slot;
            int32_t pa = g->parents[child], pb = g->parents[g->population + child];
            if (slot < p->elites)
                s->errors += !copies(s, g, child, order[slot]);
            else if (slot >= size - p->migrants)
                s->errors += !copies(s, g, child, src[slot - (size - p->migrants)]);
            else if (slot >= size - p->migrants - p->immigrants)
                s->errors += pa != -1 || pb != -1;
            else
                s->errors += pa < 0 || (uint32_t)pa / size != i || (pb >= 0 && (uint32_t)pb / size != i);
        }
    }
}

static ev_status slots_gen(void *ctx, const ga_generation_t *g, ev_error *err)
{
    slots_t *s = (slots_t *)ctx;
    (void)err;
    if (g->stats->generation > 0) {
        check_slots(s, g);
        s->errors += g->stats->best < s->prev_best; /* elitism: the best never gets worse */
    } else {
        s->errors += g->stats->islands != NULL;
    }
    s->prev_best = g->stats->best;
    memcpy(s->prev_genes, g->genes, (size_t)s->ng * s->pop * sizeof *g->genes);
    memcpy(s->prev_res, g->results, (size_t)s->pop * sizeof *g->results);
    for (uint32_t i = 0; i < s->pop; i++) {
        uint16_t genes[EV_MAX_PARAMS];
        for (uint32_t k = 0; k < s->ng; k++)
            genes[k] = g->genes[k * s->pop + i];
        s->prev_index[i] = shape_encode(&s->f->p.shape, genes);
    }
    return EV_OK;
}

static void test_slots(ga_fixture_t *f, int selection)
{
    ga_settings_t st;
    ga_observer_t obs;
    ga_run_opts_t o;
    ga_result_t res;
    slots_t s;
    ev_error err;
    fixture_settings(&st);
    st.population = 120;
    st.islands = 3;
    st.generations = 40;
    st.selection = selection;
    st.tournament_k = 4;
    st.truncation = 0.2;
    st.immigrant_diversity = 0.8; /* small islands lose diversity: immigrants arrive */
    st.ls_every = 0;              /* climbed genomes take bred slots: this checks the breeding plan alone */
    memset(&s, 0, sizeof s);
    s.f = f;
    s.pop = st.population;
    s.ng = (uint32_t)f->p.shape.n_params;
    s.prev_genes = (uint16_t *)malloc((size_t)s.ng * s.pop * sizeof *s.prev_genes);
    s.prev_res = (eval_result_t *)malloc(s.pop * sizeof *s.prev_res);
    s.prev_index = (uint64_t *)malloc(s.pop * sizeof *s.prev_index);
    memset(&obs, 0, sizeof obs);
    obs.ctx = &s;
    obs.want_population = 1;
    obs.on_generation = slots_gen;
    memset(&o, 0, sizeof o);
    o.seed = 3;
    o.top = 4;
    o.observer = &obs;
    if (ga_run(&backend_cpu_ops, f->b, &f->p, &st, &o, &res, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        exit(2);
    }
    printf("slots (selection %d): %d migrations, %d immigrants, %d errors\n", selection, s.migrations, s.immigrants,
           s.errors);
    CHECK_EQ_I64(0, s.errors);
    CHECK_EQ_I64((st.generations - 1) / st.migration_every, s.migrations / (int)st.islands);
    CHECK(s.immigrants > 0);
    free(s.prev_genes);
    free(s.prev_res);
    free(s.prev_index);
    ga_result_free(&res);
}

static void test_progress(ga_fixture_t *f)
{
    ga_settings_t s;
    ga_run_opts_t o;
    ga_result_t res;
    ev_error err;
    char line[512];
    int lines = 0, ok = 1;
    unsigned gen[8] = {0};
    FILE *out = tmpfile();
    fixture_settings(&s);
    s.generations = 25;
    memset(&o, 0, sizeof o);
    o.seed = 1;
    o.top = 3;
    o.progress = out;
    if (!out || ga_run(&backend_cpu_ops, f->b, &f->p, &s, &o, &res, &err)) {
        fprintf(stderr, "progress run failed\n");
        exit(2);
    }
    rewind(out);
    while (fgets(line, sizeof line, out)) {
        ok &= strncmp(line, "gen ", 4) == 0 && strstr(line, " best ") && strstr(line, " evals ") &&
              strstr(line, "evals/s") && strstr(line, "ETA") && lines < 8 && sscanf(line, "gen %u/", &gen[lines]) == 1;
        lines++;
    }
    fclose(out);
    /* not a terminal: the first generation, every 10th and the last (ga/ga_progress.h), not 25 lines */
    CHECK_EQ_I64(4, lines);
    CHECK(gen[0] == 1 && gen[1] == 10 && gen[2] == 20 && gen[3] == 25);
    CHECK(ok);
    ga_result_free(&res);
}

int main(void)
{
    ga_fixture_t f;
    fixture_open(&f, 4, 10);
    test_determinism(&f);
    test_dedup_and_hof(&f);
    test_slots(&f, SEL_TOURNAMENT);
    test_slots(&f, SEL_TRUNCATION);
    test_progress(&f);
    fixture_close(&f);
    return check_exit();
}
