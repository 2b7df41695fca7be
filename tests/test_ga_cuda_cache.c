/* The CUDA GA ops against the CPU's beyond one generation (label gpu; exits
 * 77 where no device exists):
 *  - whole runs (ga_run): identical traces (every generation's genes,
 *    results, parents and exact statistics), hall of fame and counters, and
 *    the device really ran the GA (host_ga == 0);
 *  - a cache too small for the run: both stop with "cache full" at the same
 *    generation, the failed generation changes nothing, the caches agree;
 *  - resume: a run stopped, saved (population and cache export) and restored
 *    into a fresh state continues exactly, across backends in every
 *    direction (CPU -> CUDA, CUDA -> CPU, CUDA -> CUDA);
 *  - cache import edge cases with 1-4 word indices (words of all ones,
 *    duplicates within and across imports, more entries than a population,
 *    past capacity) and misuse of the ops.
 * With --self-check the CPU ops stand in for CUDA (no device needed). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runs/backend_registry.h"
#include "ga/ga_plan.h"
#include "ga/ga_run.h"
#include "kernels/cuda_api.h"
#include "tests/check.h"
#include "tests/support/builder.h"
#include "tests/support/ga_fixture.h"
#include "tests/support/ga_pair.h"

static const backend_ops_t *cuda_ops;
static backend_t *cuda_b; /* opened on the fixture's problem */

static void die(const char *what, const ev_error *err)
{
    fprintf(stderr, "test_ga_cuda_cache: %s: %s\n", what, err->msg);
    exit(2);
}

static int same_hof(const topk_t *a, const topk_t *b)
{
    return a->n == b->n && memcmp(a->e, b->e, a->n * sizeof *a->e) == 0;
}

/* ga_run on the CPU and on CUDA with the trace observer; 1 when identical. */
static int same_runs(ga_fixture_t *f, const ga_settings_t *s, uint64_t seed, ga_stop_reason *reason)
{
    static trace_t tr[2];
    ga_result_t res[2];
    ga_observer_t obs[2];
    ga_run_opts_t o;
    ev_error err;
    int same;
    for (int k = 0; k < 2; k++) {
        trace_observer(&obs[k], &tr[k]);
        memset(&o, 0, sizeof o);
        o.seed = seed;
        o.top = 10;
        o.observer = &obs[k];
        if (ga_run(k ? cuda_ops : &backend_cpu_ops, k ? cuda_b : f->b, &f->p, s, &o, &res[k], &err) != EV_OK)
            die("ga_run", &err);
    }
    same = tr[0].n == tr[1].n && memcmp(tr[0].hash, tr[1].hash, tr[0].n * sizeof tr[0].hash[0]) == 0 &&
           same_hof(&res[0].hof, &res[1].hof) && res[0].reason == res[1].reason &&
           res[0].generations == res[1].generations && res[0].evaluations == res[1].evaluations &&
           res[0].lookups == res[1].lookups && res[0].hit_rate == res[1].hit_rate && !res[1].host_ga;
    printf("run (pop %u, %u islands, seed %llu): %u generations, %llu evaluations, stop reason %d: %s\n", s->population,
           s->islands, (unsigned long long)seed, res[1].generations, (unsigned long long)res[1].evaluations,
           (int)res[1].reason, same ? "identical" : "differ");
    if (!same)
        fprintf(stderr, "runs differ: %u/%u generations, %llu/%llu evaluations, reasons %d/%d, host_ga %d\n",
                res[0].generations, res[1].generations, (unsigned long long)res[0].evaluations,
                (unsigned long long)res[1].evaluations, (int)res[0].reason, (int)res[1].reason, res[1].host_ga);
    *reason = res[0].reason;
    ga_result_free(&res[0]);
    ga_result_free(&res[1]);
    return same;
}

static void test_runs(ga_fixture_t *f)
{
    ga_settings_t s;
    ga_stop_reason why;
    fixture_settings(&s);
    CHECK(same_runs(f, &s, 5, &why));
    CHECK_EQ_I64(GA_STOP_GENERATIONS, why);
    s.population = 600;
    s.islands = 3;
    s.generations = 400;
    s.stall_generations = 8;
    CHECK(same_runs(f, &s, 6, &why));
    CHECK_EQ_I64(GA_STOP_STALL, why);
}

/* 1 MiB holds 16,384 one-word genomes: a population of 4096 fills it in a
 * few generations. */
static void test_cache_full(ga_fixture_t *f)
{
    ga_settings_t s;
    ga_stop_reason why;
    ga_pair_t x;
    int bad;
    fixture_settings(&s);
    s.population = 4096;
    s.islands = 4;
    s.generations = 60;
    s.cache_max_mb = 1;
    s.mutation_rate = 0.4;
    CHECK(same_runs(f, &s, 8, &why));
    CHECK_EQ_I64(GA_STOP_CACHE_FULL, why);

    ga_pair_open(&x, cuda_ops, &f->p, &f->t, &s, 8, 10);
    bad = ga_pair_run(&x);
    printf("cache full: after generation %u, %llu genomes cached, %s\n", x.gen,
           (unsigned long long)x.side[1].ops->ga_cache_count(x.side[1].g), bad ? x.what : "identical");
    CHECK_EQ_I64(0, bad);
    CHECK(x.full);
    CHECK(x.side[1].ops->ga_cache_count(x.side[1].g) + x.side[1].ev.new_evals > x.plan.cache_capacity);
    CHECK(ga_pair_same_cache(&x)); /* the failed generation inserted nothing */
    {
        /* nothing evaluated: results of the bred population cannot be read */
        ev_error err;
        CHECK_EQ_I64(EV_EINTERNAL, x.side[1].ops->ga_download(x.side[1].g, NULL, x.side[1].results, NULL, &err));
    }
    ga_pair_close(&x);
}

/* ---- resume across backends ---- */

#define GENS 12
#define SPLIT 5

typedef struct {
    const backend_ops_t *ops;
    ga_state_t *g;
    ga_plan_t plan;
    ga_settings_t s;
    uint32_t unique[16];
    breed_island_t islands[16];
    ga_hof_entry_t top[8];
} stepper_t;

static void stepper_open(stepper_t *st, ga_fixture_t *f, const backend_ops_t *ops)
{
    ev_error err;
    memset(st, 0, sizeof *st);
    st->ops = ops;
    fixture_settings(&st->s);
    st->s.islands = 4;
    st->s.migration_every = 3;
    if (ga_plan_build(&st->plan, &f->p, &st->s, 21, 8, &err) != EV_OK)
        die("plan", &err);
    st->plan.evaluate = backend_cpu_ops.evaluate;
    st->plan.evaluate_b = f->b;
    if (ops->ga_open(ops == cuda_ops ? cuda_b : NULL, &st->plan, &st->g, &err) != EV_OK)
        die("open", &err);
}

/* Evaluates and ranks; the fingerprint of the generation. */
static uint64_t stepper_eval(stepper_t *st)
{
    uint32_t pop = st->plan.ctx.population, ng = (uint32_t)st->plan.ctx.n_genes;
    uint16_t *genes = (uint16_t *)malloc((size_t)pop * ng * sizeof *genes);
    eval_result_t *res = (eval_result_t *)malloc(pop * sizeof *res);
    int32_t *par = (int32_t *)malloc(2u * pop * sizeof *par);
    uint64_t h = UINT64_C(0xCBF29CE484222325);
    ga_eval_out_t ev;
    ga_rank_out_t rk;
    ev_error err;
    memset(&ev, 0, sizeof ev);
    memset(&rk, 0, sizeof rk);
    ev.top = st->top;
    rk.island_unique = st->unique;
    if (!genes || !res || !par || st->ops->ga_evaluate(st->g, &ev, &err) || st->ops->ga_rank(st->g, &rk, &err) ||
        st->ops->ga_download(st->g, genes, res, par, &err))
        die("step", &err);
    h = fnv1a(h, genes, (size_t)pop * ng * sizeof *genes);
    h = fnv1a(h, res, pop * sizeof *res);
    h = fnv1a(h, par, 2u * pop * sizeof *par);
    h = fnv1a(h, &ev.new_evals, sizeof ev.new_evals);
    h = fnv1a(h, st->top, ev.n_top * sizeof *st->top);
    h = fnv1a(h, st->unique, st->plan.ctx.islands * sizeof *st->unique);
    h = fnv1a(h, &rk.median, sizeof rk.median);
    free(genes);
    free(res);
    free(par);
    return h;
}

static void stepper_breed(stepper_t *st, uint32_t gen)
{
    ev_error err;
    ga_plan_islands(&st->plan, &st->s, gen, st->unique, st->islands);
    if (st->ops->ga_breed(st->g, gen, st->islands, &err))
        die("breed", &err);
}

static void resume(ga_fixture_t *f, const backend_ops_t *from, const backend_ops_t *to, const uint64_t *want,
                   uint64_t want_cached)
{
    stepper_t b, c;
    uint32_t pop, ng;
    uint16_t *genes;
    int32_t *parents;
    uint64_t n, *index;
    eval_result_t *vals;
    ev_error err;
    int bad = 0;
    stepper_open(&b, f, from);
    if (b.ops->ga_init_population(b.g, &err))
        die("init", &err);
    for (uint32_t gen = 0; gen < SPLIT; gen++) {
        if (gen)
            stepper_breed(&b, gen);
        bad += want[gen] != stepper_eval(&b);
    }
    stepper_breed(&b, SPLIT);
    pop = b.plan.ctx.population;
    ng = (uint32_t)b.plan.ctx.n_genes;
    n = b.ops->ga_cache_count(b.g);
    genes = (uint16_t *)malloc((size_t)pop * ng * sizeof *genes);
    parents = (int32_t *)malloc(2u * pop * sizeof *parents);
    index = (uint64_t *)malloc((n + 1) * (uint64_t)b.plan.index_words * sizeof *index);
    vals = (eval_result_t *)malloc((n + 1) * sizeof *vals);
    if (!genes || !parents || !index || !vals || b.ops->ga_download(b.g, genes, NULL, parents, &err) ||
        b.ops->ga_cache_export(b.g, index, vals, &err))
        die("save", &err);
    b.ops->ga_close(b.g);

    stepper_open(&c, f, to);
    if (c.ops->ga_cache_import(c.g, index, vals, n, &err) || c.ops->ga_set_population(c.g, genes, parents, &err))
        die("restore", &err);
    CHECK_EQ_I64(n, c.ops->ga_cache_count(c.g));
    for (uint32_t gen = SPLIT; gen < GENS; gen++) {
        if (gen > SPLIT)
            stepper_breed(&c, gen);
        bad += want[gen] != stepper_eval(&c);
    }
    CHECK_EQ_I64(want_cached, c.ops->ga_cache_count(c.g));
    printf("resume %s -> %s at generation %d: %s\n", from->name, to->name, SPLIT, bad ? "differs" : "identical");
    CHECK_EQ_I64(0, bad);
    c.ops->ga_close(c.g);
    free(genes);
    free(parents);
    free(index);
    free(vals);
}

static void test_resume(ga_fixture_t *f)
{
    stepper_t a;
    uint64_t want[GENS], cached;
    ev_error err;
    stepper_open(&a, f, &backend_cpu_ops);
    if (a.ops->ga_init_population(a.g, &err))
        die("init", &err);
    for (uint32_t gen = 0; gen < GENS; gen++) {
        if (gen)
            stepper_breed(&a, gen);
        want[gen] = stepper_eval(&a);
    }
    cached = a.ops->ga_cache_count(a.g);
    a.ops->ga_close(a.g);
    resume(f, cuda_ops, cuda_ops, want, cached);
    resume(f, cuda_ops, &backend_cpu_ops, want, cached);
    resume(f, &backend_cpu_ops, cuda_ops, want, cached);
}

/* ---- cache import edge cases ---- */

static void import_both(ga_pair_t *x, const uint64_t *index, const eval_result_t *vals, uint64_t n, ev_status want)
{
    ev_error err;
    for (int k = 0; k < 2; k++)
        CHECK_EQ_I64(want, x->side[k].ops->ga_cache_import(x->side[k].g, index, vals, n, &err));
}

static void test_import(ga_fixture_t *f)
{
    enum { N = 3000 };
    for (int32_t words = 1; words <= 4; words++) {
        static uint64_t index[N * 4];
        static eval_result_t vals[N];
        uint64_t rng = 99 + (uint64_t)words;
        ga_settings_t s;
        ga_pair_t x;
        fixture_settings(&s); /* a population of 64: imports go in many chunks */
        ga_pair_open(&x, cuda_ops, &f->p, &f->t, &s, 1, 4);
        for (int k = 0; k < 2; k++) {
            /* a cache-only state: the ops never compute an index here */
            ga_plan_t plan = x.plan;
            ev_error err;
            plan.index_words = words;
            plan.evaluate = backend_cpu_ops.evaluate;
            plan.evaluate_b = f->b;
            x.side[k].ops->ga_close(x.side[k].g);
            if (x.side[k].ops->ga_open(k ? x.side[k].b : NULL, &plan, &x.side[k].g, &err) != EV_OK)
                die("ga_open", &err);
        }
        x.plan.index_words = words;
        for (uint32_t j = 0; j < N; j++) {
            for (int32_t w = 0; w < words; w++) {
                uint64_t r = tb_rand(&rng);
                /* words of all ones (never all of them), zeros, small numbers */
                index[j * (uint32_t)words + (uint32_t)w] = r % 5 == 0 ? UINT64_MAX : r % 5 == 1 ? 0 : r % 7;
            }
            if (words == 1 && index[j] == UINT64_MAX)
                index[j] = j;
            if (words > 1 && index[j * (uint32_t)words] == UINT64_MAX)
                index[j * (uint32_t)words + 1] = 3; /* not all ones */
            memset(&vals[j], 0, sizeof vals[j]);
            vals[j].fitness = (double)j;
            vals[j].trades = (int64_t)j;
            vals[j].feasible = (int32_t)(j % 2);
        }
        import_both(&x, index, vals, N / 2, EV_OK);
        import_both(&x, index + (N / 3) * (uint32_t)words, vals + N / 3, N - N / 3, EV_OK); /* overlaps */
        CHECK_EQ_I64(x.side[0].ops->ga_cache_count(x.side[0].g), x.side[1].ops->ga_cache_count(x.side[1].g));
        CHECK(ga_pair_same_cache(&x));
        printf("import, %d-word indices: %llu distinct of %d entries, same on both\n", words,
               (unsigned long long)x.side[1].ops->ga_cache_count(x.side[1].g), N + N / 2 - N / 3);
        ga_pair_close(&x);
    }
    {
        /* more distinct entries than 1 MiB holds (16,384 one-word genomes): refused on both */
        enum { M = 20000 };
        uint64_t *ix = (uint64_t *)malloc(M * sizeof *ix);
        eval_result_t *vs = (eval_result_t *)calloc(M, sizeof *vs);
        ga_settings_t s;
        ga_pair_t x;
        fixture_settings(&s);
        s.cache_max_mb = 1;
        ga_pair_open(&x, cuda_ops, &f->p, &f->t, &s, 1, 4);
        for (uint32_t j = 0; ix && j < M; j++)
            ix[j] = 7u * j + 1u;
        if (!ix || !vs)
            exit(2);
        import_both(&x, ix, vs, M, EV_ECONFIG);
        ix[3] = UINT64_MAX; /* the empty-slot mark is no index */
        import_both(&x, ix, vs, 5, EV_EDATA);
        ga_pair_close(&x);
        free(ix);
        free(vs);
    }
}

static void test_misuse(ga_fixture_t *f)
{
    stepper_t d;
    ga_rank_out_t rk;
    ga_eval_out_t ev;
    ev_error err;
    uint16_t *genes;
    memset(&rk, 0, sizeof rk);
    memset(&ev, 0, sizeof ev);
    stepper_open(&d, f, cuda_ops);
    ev.top = d.top;
    CHECK_EQ_I64(EV_EINTERNAL, d.ops->ga_evaluate(d.g, &ev, &err));
    CHECK_EQ_I64(EV_OK, d.ops->ga_init_population(d.g, &err));
    CHECK_EQ_I64(EV_EINTERNAL, d.ops->ga_rank(d.g, &rk, &err));
    CHECK_EQ_I64(EV_EINTERNAL, d.ops->ga_breed(d.g, 1, d.islands, &err));
    CHECK_EQ_I64(EV_OK, d.ops->ga_evaluate(d.g, &ev, &err));
    CHECK_EQ_I64(EV_OK, d.ops->ga_rank(d.g, &rk, &err));
    CHECK_EQ_I64(EV_EINTERNAL, d.ops->ga_breed(d.g, 0, d.islands, &err));
    d.islands[0].elites = d.plan.ctx.island_size + 1; /* a plan past the island */
    CHECK_EQ_I64(EV_EINTERNAL, d.ops->ga_breed(d.g, 1, d.islands, &err));
    genes = (uint16_t *)calloc((size_t)d.plan.ctx.population * (size_t)d.plan.ctx.n_genes, sizeof *genes);
    genes[0] = 60000;
    CHECK_EQ_I64(EV_EDATA, d.ops->ga_set_population(d.g, genes, NULL, &err));
    free(genes);
    d.ops->ga_close(d.g);
}

/* --self-check: the CPU ops stand in for CUDA (no device needed), which
 * checks the harness and the expectations (cache full, stall) themselves. */
int main(int argc, char **argv)
{
    ga_fixture_t f;
    ev_error err;
    int self_check = argc > 1 && !strcmp(argv[1], "--self-check");
    if (self_check) {
        cuda_ops = &backend_cpu_ops;
        printf("self-check: the CPU ops on both sides\n");
    } else {
        if (cuda_device_count() <= 0) {
            printf("test_ga_cuda_cache: no CUDA device on this machine: skipped\n");
            return CHECK_SKIP_CODE;
        }
        if (backend_find("cuda", &cuda_ops, &err) != EV_OK)
            die("device", &err);
    }
    fixture_open(&f, 4, 10);
    if (cuda_ops->open(&cuda_b, &f.p, &f.t, &err) != EV_OK)
        die("cuda open", &err);
    test_runs(&f);
    test_cache_full(&f);
    test_resume(&f);
    test_import(&f);
    test_misuse(&f);
    cuda_ops->close(cuda_b);
    fixture_close(&f);
    return check_exit();
}
