/* A deceptive landscape (tests/support/deceptive.h): the optimum and the
 * strong local optimum are what the construction says (a small instance
 * against the grid; no 1-gene move improves the local optimum, by sweeps),
 * and on a 12-gene lattice (16^12 points) the default GA reaches the optimum
 * in at least 9 of 10 seeds within its evaluation budget, while the old
 * settings (no local search, no restarts) do not.
 * usage: test_ga_deceptive [seeds [budget]] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fitness/problem.h"
#include "fitness/sweep.h"
#include "fitness/tables.h"
#include "ga/backend.h"
#include "ga/ga_run.h"
#include "ga/grid.h"
#include "tests/check.h"
#include "tests/support/deceptive.h"
#include "tests/support/fitness_harness.h"
#include "tests/support/ga_quality.h"

typedef struct {
    dataset_t ds;
    lattice_t lat;
    fit_problem_t p;
    tables_host_t t;
    backend_t *b;
    uint16_t optimum[EV_MAX_PARAMS], local[EV_MAX_PARAMS];
    double best_pct, local_pct;
} land_t;

static void land_open(land_t *l, int32_t n_easy, uint32_t n_values)
{
    deceptive_opts_t o;
    objective_cfg_t obj;
    ev_error err;
    o.n_easy = n_easy;
    o.n_values = n_values;
    memset(l, 0, sizeof *l);
    deceptive_build(&o, &l->ds, &l->lat, l->optimum, l->local, &l->best_pct, &l->local_pct);
    harness_objective(&obj, OBJ_TOTAL_RETURN);
    if (problem_init(&l->p, &l->ds, &l->lat, &obj, &err) || tables_build(&l->t, &l->p, &err) ||
        backend_cpu_ops.open(&l->b, &l->p, &l->t, &err)) {
        fprintf(stderr, "setup: %s\n", err.msg);
        exit(2);
    }
}

static void land_close(land_t *l)
{
    backend_cpu_ops.close(l->b);
    tables_free(&l->t);
    problem_free(&l->p);
    lattice_free(&l->lat);
    dataset_free(&l->ds);
}

/* The construction, checked: the grid's best is the optimum (unique), the
 * local optimum's fitness is as built, and no 1-gene move improves it. */
static void check_small(void)
{
    land_t l;
    topk_t grid;
    grid_opts_t go;
    grid_stats_t gs;
    ev_error err;
    eval_result_t out[16];
    eval_result_t at;
    land_open(&l, 2, 6);
    memset(&go, 0, sizeof go);
    go.evaluator = EVAL_DOMINANCE;
    if (topk_init(&grid, 2, &err) || grid_run(&backend_cpu_ops, l.b, &l.p, &go, &grid, &gs, &err)) {
        fprintf(stderr, "grid: %s\n", err.msg);
        exit(2);
    }
    CHECK_EQ_I64(shape_encode(&l.p.shape, l.optimum), grid.e[0].index);
    CHECK_EQ_F64(l.best_pct, grid.e[0].r.fitness);
    CHECK(grid.e[1].key < grid.e[0].key);
    at = tables_eval(&l.t.view, l.local);
    CHECK_EQ_F64(l.local_pct, at.fitness);
    for (int32_t k = 0; k < l.lat.n_params; k++) {
        CHECK_EQ_I64(EV_OK, sweep_gene(&l.t.view, l.local, k, out, &err));
        for (uint32_t v = 0; v < l.lat.params[k].n_values; v++)
            CHECK(rank_key(out[v]) <= rank_key(at));
    }
    printf("small instance: optimum %.2f %% (the grid's unique best), local optimum %.2f %%\n", l.best_pct,
           l.local_pct);
    topk_free(&grid);
    land_close(&l);
}

/* Seeds (of `seeds`) whose run reaches the optimum. */
static int wins(land_t *l, const ga_settings_t *s, int seeds, const char *what)
{
    uint64_t want = rank_key(tables_eval(&l->t.view, l->optimum));
    int won = 0;
    double secs = 0, evals = 0;
    for (int seed = 1; seed <= seeds; seed++) {
        ga_run_opts_t o;
        ga_result_t res;
        ev_error err;
        memset(&o, 0, sizeof o);
        o.seed = (uint64_t)seed;
        o.top = 5;
        o.tables = &l->t.view;
        if (ga_run(&backend_cpu_ops, l->b, &l->p, s, &o, &res, &err) != EV_OK) {
            fprintf(stderr, "%s: %s\n", what, err.msg);
            exit(2);
        }
        won += res.hof.n && res.hof.e[0].key == want;
        secs += res.seconds;
        evals += (double)(res.evaluations + res.ls_evaluations);
        ga_result_free(&res);
    }
    printf("%s: optimum in %d of %d seeds (%.0f evaluations, %.2f s a run on average)\n", what, won, seeds,
           evals / seeds, secs / seeds);
    return won;
}

int main(int argc, char **argv)
{
    int seeds = argc > 1 ? atoi(argv[1]) : 10;
    uint64_t budget = argc > 2 ? strtoull(argv[2], NULL, 10) : 100000;
    land_t l;
    ga_settings_t s;
    int now, old;
    check_small();
    land_open(&l, 9, 32);
    ga_settings_default(&s);
    s.max_evaluations = budget;
    s.population = ga_population_auto(budget, 0, 1);
    now = wins(&l, &s, seeds, "default settings");
    ga_settings_default(&s);
    s.max_evaluations = budget;
    s.ls_every = 0;
    s.restart_stall = 0;
    old = wins(&l, &s, seeds, "old settings (no local search, no restarts)");
    CHECK(now * 10 >= seeds * 9);
    CHECK(old * 10 < seeds * 9);
    land_close(&l);
    return check_exit();
}
