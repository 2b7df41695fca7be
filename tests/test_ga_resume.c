/* The backend GA ops driven by hand: a run stopped after generation 5 and
 * restored from its population and exported dedup cache into a fresh state
 * continues exactly like the uninterrupted run; and a lattice beyond 2^64
 * points (two-word indices) evolves with exact dedup. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ga/ga_plan.h"
#include "ga/ga_run.h"
#include "tests/check.h"
#include "tests/support/ga_fixture.h"

#define GENS 12
#define SPLIT 5

typedef struct {
    const backend_ops_t *ops;
    ga_state_t *g;
    ga_plan_t plan;
    ga_settings_t s;
    uint32_t island_unique[16];
    breed_island_t islands[16];
    ga_hof_entry_t top[8];
} stepper_t;

static void die(const char *what, const ev_error *err)
{
    fprintf(stderr, "%s: %s\n", what, err->msg);
    exit(2);
}

static void stepper_open(stepper_t *st, ga_fixture_t *f)
{
    ev_error err;
    memset(st, 0, sizeof *st);
    st->ops = &backend_cpu_ops;
    fixture_settings(&st->s);
    if (ga_plan_build(&st->plan, &f->p, &st->s, 21, 8, &err))
        die("plan", &err);
    st->plan.evaluate = backend_cpu_ops.evaluate;
    st->plan.evaluate_b = f->b;
    if (st->ops->ga_open(NULL, &st->plan, &st->g, &err))
        die("open", &err);
}

/* Evaluates and ranks the current generation; returns its fingerprint. */
static uint64_t stepper_eval(stepper_t *st)
{
    ga_eval_out_t ev;
    ga_rank_out_t rk;
    ev_error err;
    uint32_t pop = st->plan.ctx.population, ng = (uint32_t)st->plan.ctx.n_genes;
    uint16_t *genes = (uint16_t *)malloc((size_t)pop * ng * sizeof *genes);
    eval_result_t *res = (eval_result_t *)malloc(pop * sizeof *res);
    uint64_t h = UINT64_C(0xCBF29CE484222325);
    memset(&ev, 0, sizeof ev);
    memset(&rk, 0, sizeof rk);
    ev.top = st->top;
    rk.island_unique = st->island_unique;
    if (st->ops->ga_evaluate(st->g, &ev, &err) || st->ops->ga_rank(st->g, &rk, &err) ||
        st->ops->ga_download(st->g, genes, res, NULL, &err))
        die("step", &err);
    h = fnv1a(h, genes, (size_t)pop * ng * sizeof *genes);
    h = fnv1a(h, res, pop * sizeof *res);
    h = fnv1a(h, &ev.new_evals, sizeof ev.new_evals);
    free(genes);
    free(res);
    return h;
}

static void stepper_breed(stepper_t *st, uint32_t gen)
{
    ev_error err;
    ga_plan_islands(&st->plan, &st->s, gen, st->island_unique, st->islands);
    if (st->ops->ga_breed(st->g, gen, st->islands, &err))
        die("breed", &err);
}

static void test_resume(ga_fixture_t *f)
{
    stepper_t a, b, c;
    uint64_t ha[GENS], hc[GENS];
    uint32_t pop, ng;
    uint16_t *genes;
    int32_t *parents;
    uint64_t n, *index;
    eval_result_t *vals;
    ev_error err;

    stepper_open(&a, f);
    a.ops->ga_init_population(a.g, &err);
    for (uint32_t gen = 0; gen < GENS; gen++) {
        if (gen)
            stepper_breed(&a, gen);
        ha[gen] = stepper_eval(&a);
    }

    /* b runs to generation SPLIT (bred, not yet evaluated) and is saved */
    stepper_open(&b, f);
    b.ops->ga_init_population(b.g, &err);
    for (uint32_t gen = 0; gen < SPLIT; gen++) {
        if (gen)
            stepper_breed(&b, gen);
        CHECK_EQ_I64(ha[gen], stepper_eval(&b));
    }
    stepper_breed(&b, SPLIT);
    pop = b.plan.ctx.population;
    ng = (uint32_t)b.plan.ctx.n_genes;
    n = b.ops->ga_cache_count(b.g);
    genes = (uint16_t *)malloc((size_t)pop * ng * sizeof *genes);
    parents = (int32_t *)malloc(2u * pop * sizeof *parents);
    index = (uint64_t *)malloc(n * (uint64_t)b.plan.index_words * sizeof *index);
    vals = (eval_result_t *)malloc(n * sizeof *vals);
    if (b.ops->ga_download(b.g, genes, NULL, parents, &err) || b.ops->ga_cache_export(b.g, index, vals, &err))
        die("save", &err);
    b.ops->ga_close(b.g);

    /* c restores it and carries on */
    stepper_open(&c, f);
    if (c.ops->ga_cache_import(c.g, index, vals, n, &err) || c.ops->ga_set_population(c.g, genes, parents, &err))
        die("restore", &err);
    CHECK_EQ_I64(n, c.ops->ga_cache_count(c.g));
    for (uint32_t gen = SPLIT; gen < GENS; gen++) {
        if (gen > SPLIT)
            stepper_breed(&c, gen);
        hc[gen] = stepper_eval(&c);
        CHECK_EQ_I64(ha[gen], hc[gen]);
    }
    CHECK_EQ_I64(a.ops->ga_cache_count(a.g), c.ops->ga_cache_count(c.g));

    /* misuse is refused, not undefined */
    CHECK_EQ_I64(EV_EINTERNAL, c.ops->ga_breed(c.g, 0, c.islands, &err));
    genes[0] = 60000;
    CHECK_EQ_I64(EV_EDATA, c.ops->ga_set_population(c.g, genes, NULL, &err));
    {
        stepper_t d;
        ga_rank_out_t rk;
        ga_eval_out_t ev;
        memset(&rk, 0, sizeof rk);
        memset(&ev, 0, sizeof ev);
        ev.top = d.top;
        stepper_open(&d, f);
        CHECK_EQ_I64(EV_EINTERNAL, d.ops->ga_evaluate(d.g, &ev, &err));
        d.ops->ga_init_population(d.g, &err);
        CHECK_EQ_I64(EV_EINTERNAL, d.ops->ga_rank(d.g, &rk, &err));
        CHECK_EQ_I64(EV_EINTERNAL, d.ops->ga_breed(d.g, 1, d.islands, &err));
        d.ops->ga_close(d.g);
    }

    free(genes);
    free(parents);
    free(index);
    free(vals);
    a.ops->ga_close(a.g);
    c.ops->ga_close(c.g);
}

/* ---- a lattice of ~1e22 points: indices take two words ---- */

typedef struct {
    uint16_t *genomes; /* [n][16] */
    size_t n, cap;
} genome_log_t;

static ev_status log_gen(void *ctx, const ga_generation_t *g, ev_error *err)
{
    genome_log_t *l = (genome_log_t *)ctx;
    (void)err;
    for (uint32_t i = 0; i < g->population; i++) {
        if (l->n == l->cap) {
            l->cap = l->cap ? 2 * l->cap : 1024;
            l->genomes = (uint16_t *)realloc(l->genomes, l->cap * 16 * sizeof *l->genomes);
            if (!l->genomes)
                exit(2);
        }
        memset(l->genomes + l->n * 16, 0, 16 * sizeof *l->genomes);
        for (uint32_t k = 0; k < g->n_genes; k++)
            l->genomes[l->n * 16 + k] = g->genes[k * g->population + i];
        l->n++;
    }
    return EV_OK;
}

static int cmp_genome(const void *a, const void *b)
{
    return memcmp(a, b, 16 * sizeof(uint16_t));
}

static void test_huge_lattice(void)
{
    ga_fixture_t f;
    ga_settings_t s;
    ga_observer_t obs;
    ga_run_opts_t o;
    ga_result_t res;
    genome_log_t log;
    ev_error err;
    uint64_t distinct = 0;
    fixture_open(&f, 14, 30);
    CHECK(!f.lat.size_fits);
    fixture_settings(&s);
    s.generations = 25;
    memset(&log, 0, sizeof log);
    memset(&obs, 0, sizeof obs);
    obs.ctx = &log;
    obs.want_population = 1;
    obs.on_generation = log_gen;
    memset(&o, 0, sizeof o);
    o.seed = 4;
    o.top = 6;
    o.observer = &obs;
    if (ga_run(&backend_cpu_ops, f.b, &f.p, &s, &o, &res, &err))
        die("huge", &err);
    qsort(log.genomes, log.n, 16 * sizeof *log.genomes, cmp_genome);
    for (size_t j = 0; j < log.n; j++)
        distinct += j == 0 || cmp_genome(log.genomes + j * 16, log.genomes + (j - 1) * 16) != 0;
    printf("huge lattice: %zu lookups, %llu distinct, %llu evaluations\n", log.n, (unsigned long long)distinct,
           (unsigned long long)res.evaluations);
    CHECK_EQ_I64(distinct, res.evaluations);
    CHECK(res.hof.n == 6);
    for (uint32_t i = 0; i < res.hof.n; i++) {
        CHECK(res.hof.e[i].index == UINT64_MAX); /* no one-word index exists */
        CHECK(i == 0 || ranked_before(&res.hof.e[i - 1], &res.hof.e[i]));
        CHECK_EQ_I64(res.hof.e[i].key, rank_key(tables_eval(&f.t.view, res.hof.e[i].genes)));
    }
    free(log.genomes);
    ga_result_free(&res);
    fixture_close(&f);
}

int main(void)
{
    ga_fixture_t f;
    fixture_open(&f, 4, 10);
    test_resume(&f);
    fixture_close(&f);
    test_huge_lattice();
    return check_exit();
}
