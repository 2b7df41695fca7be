/* Why a GA run stops: every termination reason, and settings errors. The
 * Ctrl-C case runs last (the interrupt flag cannot be cleared). */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/platform.h"
#include "ga/ga_run.h"
#include "operators/dedup_table.h"
#include "tests/check.h"
#include "tests/support/ga_fixture.h"

static ga_result_t run(ga_fixture_t *f, const ga_settings_t *s, const ga_observer_t *obs)
{
    ga_run_opts_t o;
    ga_result_t res;
    ev_error err;
    memset(&o, 0, sizeof o);
    o.seed = 9;
    o.top = 5;
    o.observer = obs;
    if (ga_run(&backend_cpu_ops, f->b, &f->p, s, &o, &res, &err) != EV_OK) {
        fprintf(stderr, "ga_run: %s\n", err.msg);
        exit(2);
    }
    printf("stopped by %s after %u generations, %llu evaluations\n", ga_stop_reason_name(res.reason), res.generations,
           (unsigned long long)res.evaluations);
    return res;
}

static void test_limits(ga_fixture_t *f)
{
    ga_settings_t s;
    ga_result_t r;

    fixture_settings(&s);
    s.generations = 7;
    r = run(f, &s, NULL);
    CHECK_EQ_I64(GA_STOP_GENERATIONS, r.reason);
    CHECK_EQ_I64(7, r.generations);
    CHECK_STR("generations", ga_stop_reason_name(r.reason));
    ga_result_free(&r);

    fixture_settings(&s);
    s.generations = 1000;
    s.max_evaluations = 300;
    s.ls_every = 0; /* unique evaluations alone; the sweeps' share is the next case */
    r = run(f, &s, NULL);
    CHECK_EQ_I64(GA_STOP_MAX_EVALUATIONS, r.reason);
    CHECK(r.evaluations >= 300 && r.evaluations < 300 + s.population);
    ga_result_free(&r);

    /* local search's sweeps count towards the budget (ga/ga_stop.h): climbs
     * every generation end the run before the unique evaluations alone reach it */
    fixture_settings(&s);
    s.generations = 100; /* bounded: sweeps uncounted, the run would climb on for long */
    s.max_evaluations = 2000;
    s.ls_every = 1;
    r = run(f, &s, NULL);
    printf("with local search: %llu evaluations + %llu of sweeps\n", (unsigned long long)r.evaluations,
           (unsigned long long)r.ls_evaluations);
    CHECK_EQ_I64(GA_STOP_MAX_EVALUATIONS, r.reason);
    CHECK(r.ls_evaluations > 0);
    CHECK(r.evaluations + r.ls_evaluations >= 2000);
    CHECK(r.evaluations < 2000);
    ga_result_free(&r);

    fixture_settings(&s);
    s.generations = 100000;
    s.stall_generations = 8;
    r = run(f, &s, NULL);
    CHECK_EQ_I64(GA_STOP_STALL, r.reason);
    CHECK(r.generations > 8 && r.generations < 100000);
    ga_result_free(&r);

    fixture_settings(&s);
    s.generations = 100000;
    s.time_budget_s = 1e-9;
    r = run(f, &s, NULL);
    CHECK_EQ_I64(GA_STOP_TIME_BUDGET, r.reason);
    CHECK_EQ_I64(1, r.generations);
    ga_result_free(&r);
}

/* ga_stop_check's budget: unique evaluations plus local search's, reached
 * at the sum exactly, whichever part holds it. */
static void test_budget_sum(void)
{
    ga_settings_t s;
    ga_stop_input_t in;
    fixture_settings(&s);
    s.generations = 1000;
    s.max_evaluations = 300;
    memset(&in, 0, sizeof in);
    in.generation = 3;
    in.last_improvement = 3;
    in.evaluations = 100;
    in.ls_evaluations = 199;
    CHECK_EQ_I64(GA_STOP_NONE, ga_stop_check(&s, &in));
    in.ls_evaluations = 200;
    CHECK_EQ_I64(GA_STOP_MAX_EVALUATIONS, ga_stop_check(&s, &in));
    in.evaluations = 0;
    in.ls_evaluations = 300;
    CHECK_EQ_I64(GA_STOP_MAX_EVALUATIONS, ga_stop_check(&s, &in));
    in.evaluations = 299;
    in.ls_evaluations = 0;
    CHECK_EQ_I64(GA_STOP_NONE, ga_stop_check(&s, &in));
}

/* 1 MiB holds 16384 genomes of one-word indices (32-byte slots, half full):
 * the run stops before a generation that would overflow it, never evicts. */
static void test_cache_full(ga_fixture_t *f)
{
    ga_settings_t s;
    ga_result_t r;
    CHECK_EQ_I64(16384, ga_cache_capacity(1, 1));
    CHECK_EQ_I64(UINT64_C(1) << 24, ga_cache_capacity(1024, 1));
    CHECK_EQ_I64(8192, ga_cache_capacity(1, 2)); /* 40-byte slots: 16384 slots fit */
    fixture_settings(&s);
    s.population = 4096;
    s.islands = 4;
    s.generations = 1000;
    s.cache_max_mb = 1;
    r = run(f, &s, NULL);
    CHECK_EQ_I64(GA_STOP_CACHE_FULL, r.reason);
    CHECK_STR("cache full", ga_stop_reason_name(r.reason));
    CHECK(r.evaluations <= 16384 && r.evaluations > 16384 - 4096);
    ga_result_free(&r);
    /* a cache smaller than one generation is refused up front */
    {
        ga_run_opts_t o;
        ga_result_t res;
        ev_error err;
        memset(&o, 0, sizeof o);
        o.top = 5;
        s.population = 32768;
        CHECK_EQ_I64(EV_ECONFIG, ga_run(&backend_cpu_ops, f->b, &f->p, &s, &o, &res, &err));
        CHECK_CONTAINS(err.msg, "ga.cache_max_mb");
    }
}

/* A tiny lattice (1 filter of 2 values x 6 targets x 6 stops = 72 points)
 * with a huge generations: once every point is evaluated the run stops,
 * rather than spinning through cached genomes. */
static void test_lattice_exhausted(void)
{
    ga_fixture_t tiny;
    ga_settings_t s;
    ga_result_t r;
    fixture_open(&tiny, 1, 2);
    CHECK_EQ_I64(72, tiny.lat.size);
    fixture_settings(&s);
    s.population = 16;
    s.islands = 1;
    s.generations = 4000000000u;
    r = run(&tiny, &s, NULL);
    CHECK_EQ_I64(GA_STOP_LATTICE_EXHAUSTED, r.reason);
    CHECK_STR("lattice exhausted", ga_stop_reason_name(r.reason));
    CHECK_EQ_I64(72, r.evaluations);
    CHECK(r.generations < 100000);
    ga_result_free(&r);
    fixture_close(&tiny);
}

static void test_bad_settings(ga_fixture_t *f)
{
    ga_settings_t s;
    ga_run_opts_t o;
    ga_result_t res;
    ev_error err;
    memset(&o, 0, sizeof o);
    o.top = 5;
    fixture_settings(&s);
    s.population = 65;
    CHECK_EQ_I64(EV_ECONFIG, ga_run(&backend_cpu_ops, f->b, &f->p, &s, &o, &res, &err));
    CHECK_CONTAINS(err.msg, "ga.islands");
    fixture_settings(&s);
    s.crossover_rate = 1.5;
    CHECK_EQ_I64(EV_ECONFIG, ga_run(&backend_cpu_ops, f->b, &f->p, &s, &o, &res, &err));
    CHECK_CONTAINS(err.msg, "ga.crossover.rate");
    fixture_settings(&s);
    s.migration_count = 32;
    CHECK_EQ_I64(EV_ECONFIG, ga_run(&backend_cpu_ops, f->b, &f->p, &s, &o, &res, &err));
    CHECK_CONTAINS(err.msg, "ga.migration.count");
    fixture_settings(&s);
    s.ls_every = 1;
    s.ls_depth = 3;
    CHECK_EQ_I64(EV_ECONFIG, ga_run(&backend_cpu_ops, f->b, &f->p, &s, &o, &res, &err));
    CHECK_CONTAINS(err.msg, "ga.local_search");
    {
        /* local search needs host tables: neither the options nor the backend give them */
        backend_ops_t no_tables = backend_cpu_ops;
        no_tables.host_tables = NULL;
        fixture_settings(&s);
        s.ls_every = 1;
        CHECK_EQ_I64(EV_ECONFIG, ga_run(&no_tables, f->b, &f->p, &s, &o, &res, &err));
        CHECK_CONTAINS(err.msg, "ga.local_search needs");
        o.tables = &f->t.view;
        CHECK_EQ_I64(EV_OK, ga_run(&no_tables, f->b, &f->p, &s, &o, &res, &err));
        CHECK(res.ls_evaluations > 0);
        ga_result_free(&res);
        o.tables = NULL;
    }
    fixture_settings(&s);
    o.top = 0;
    CHECK_EQ_I64(EV_ECONFIG, ga_run(&backend_cpu_ops, f->b, &f->p, &s, &o, &res, &err));
    CHECK_CONTAINS(err.msg, "top");
}

static ev_status press_ctrl_c(void *ctx, const ga_generation_t *g, ev_error *err)
{
    (void)ctx;
    (void)err;
    if (g->stats->generation == 2)
        raise(SIGINT);
    return EV_OK;
}

static void test_interrupt(ga_fixture_t *f)
{
    ga_settings_t s;
    ga_observer_t obs;
    ga_result_t r;
    memset(&obs, 0, sizeof obs);
    obs.on_generation = press_ctrl_c;
    plat_install_interrupt();
    fixture_settings(&s);
    s.generations = 1000;
    r = run(f, &s, &obs);
    CHECK_EQ_I64(GA_STOP_INTERRUPTED, r.reason);
    CHECK_EQ_I64(3, r.generations); /* the generation under way was finished */
    CHECK(r.hof.n > 0);
    ga_result_free(&r);
}

/* A clock of one second a reading: where the time budget falls is then fixed. */
static double clock_s;
static double stepped_clock(void)
{
    return clock_s += 1.0;
}

/* The time budget stops local search between climbs (one step's climbs can cost many
 * generations' time): the budget runs out at the clock's third reading, after the first
 * generation, so one climb runs (the first, or with threads the one whose thread read the
 * clock first) and the other 15 do not. */
static void test_budget_in_climbs(ga_fixture_t *f)
{
    ga_settings_t s;
    ga_run_opts_t o;
    ga_result_t all, one;
    ev_error err;
    fixture_settings(&s);
    s.generations = 2; /* the first generation, its climbs, the second */
    s.ls_every = 1;
    s.ls_random = 16;
    memset(&o, 0, sizeof o);
    o.seed = 9;
    o.top = 5;
    if (ga_run(&backend_cpu_ops, f->b, &f->p, &s, &o, &all, &err) != EV_OK) {
        fprintf(stderr, "ga_run: %s\n", err.msg);
        exit(2);
    }
    s.generations = 1000;
    s.time_budget_s = 2.5; /* readings: 1 the start, 2 the first generation's end, 3 the first climb's check */
    o.now = stepped_clock;
    clock_s = 0.0;
    if (ga_run(&backend_cpu_ops, f->b, &f->p, &s, &o, &one, &err) != EV_OK) {
        fprintf(stderr, "ga_run: %s\n", err.msg);
        exit(2);
    }
    printf(
        "one generation's climbs: %llu evaluations of sweeps; stopped by the budget mid-step: %llu (%u generations)\n",
        (unsigned long long)all.ls_evaluations, (unsigned long long)one.ls_evaluations, one.generations);
    CHECK_EQ_I64(GA_STOP_TIME_BUDGET, one.reason);
    CHECK_EQ_I64(2, one.generations);
    CHECK(one.ls_evaluations > 0);
    CHECK(one.ls_evaluations * 4 < all.ls_evaluations);
    ga_result_free(&all);
    ga_result_free(&one);
}

int main(void)
{
    ga_fixture_t f;
    fixture_open(&f, 4, 12);
    test_budget_sum();
    test_limits(&f);
    test_budget_in_climbs(&f);
    test_cache_full(&f);
    test_lattice_exhausted();
    test_bad_settings(&f);
    test_interrupt(&f);
    fixture_close(&f);
    return check_exit();
}
