/* Search quality on a planted landscape (tests/support/planted.h): the GA
 * must reach the grid's best fitness (computed by dominance sums) in at least
 * `need` of `seeds` seeds while evaluating less than 1 % of the lattice.
 * usage: test_ga_quality [seeds need [filters values levels]]
 * (default 20 19 5 10 6: a lattice of 3.6 million points) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fitness/problem.h"
#include "fitness/tables.h"
#include "ga/backend.h"
#include "ga/ga_run.h"
#include "ga/grid.h"
#include "tests/check.h"
#include "tests/support/fitness_harness.h"
#include "tests/support/ga_quality.h"
#include "tests/support/planted.h"

int main(int argc, char **argv)
{
    int seeds = argc > 1 ? atoi(argv[1]) : 20, need = argc > 2 ? atoi(argv[2]) : 19, wins = 0;
    planted_opts_t po;
    dataset_t ds;
    lattice_t lat;
    objective_cfg_t obj;
    fit_problem_t p;
    tables_host_t t;
    backend_t *b;
    ev_error err;
    topk_t grid;
    grid_opts_t go;
    grid_stats_t gs;
    uint16_t optimum[EV_MAX_PARAMS];
    ga_settings_t s;
    double evals_sum = 0, hit_sum = 0;
    uint64_t budget;

    planted_defaults(&po);
    po.n_filters = argc > 3 ? atoi(argv[3]) : 5;
    po.n_values = argc > 4 ? (uint32_t)atoi(argv[4]) : 10;
    po.n_targets = po.n_stops = argc > 5 ? (uint32_t)atoi(argv[5]) : 6;
    planted_build(&po, &ds, &lat, optimum);
    harness_objective(&obj, OBJ_TOTAL_RETURN);
    if (problem_init(&p, &ds, &lat, &obj, &err) || tables_build(&t, &p, &err) ||
        backend_cpu_ops.open(&b, &p, &t, &err) || topk_init(&grid, 2, &err)) {
        fprintf(stderr, "setup: %s\n", err.msg);
        return 2;
    }
    memset(&go, 0, sizeof go);
    go.evaluator = EVAL_DOMINANCE;
    if (grid_run(&backend_cpu_ops, b, &p, &go, &grid, &gs, &err)) {
        fprintf(stderr, "grid: %s\n", err.msg);
        return 2;
    }
    /* The landscape is what it claims: the planted genome is the unique optimum. */
    {
        uint64_t planted_index = shape_encode(&p.shape, optimum);
        CHECK(lat.size >= 1000000);
        CHECK_EQ_I64(planted_index, grid.e[0].index);
        CHECK(grid.e[1].key < grid.e[0].key);
    }
    budget = lat.size / 100;
    printf("lattice %llu points, %lld trades, optimum %.6g (grid %.2fs), budget %llu evaluations\n",
           (unsigned long long)lat.size, (long long)ds.n_trades, grid.e[0].r.fitness, gs.seconds,
           (unsigned long long)budget);

    quality_settings(&s);
    for (int seed = 1; seed <= seeds; seed++) {
        ga_run_opts_t o;
        ga_observer_t obs;
        ga_result_t res;
        quality_watch_t w;
        int hit;
        quality_watch(&obs, &w, grid.e[0].key);
        memset(&o, 0, sizeof o);
        o.seed = (uint64_t)seed;
        o.top = 5;
        o.observer = &obs;
        s.max_evaluations = budget - s.population; /* the last generation may add up to a population */
        if (ga_run(&backend_cpu_ops, b, &p, &s, &o, &res, &err)) {
            fprintf(stderr, "seed %d: %s\n", seed, err.msg);
            return 2;
        }
        hit = res.hof.n && res.hof.e[0].key == grid.e[0].key && res.hof.e[0].index == grid.e[0].index;
        wins += hit;
        CHECK(res.evaluations < budget);
        evals_sum += (double)res.evaluations;
        hit_sum += (double)w.evals_at_hit;
        printf(
            "seed %2d: %s after %llu unique evaluations (%.3f%% of the lattice), stopped by %s at generation %u "
            "with %llu\n",
            seed, hit ? "optimum" : "MISSED", (unsigned long long)w.evals_at_hit,
            100.0 * (double)w.evals_at_hit / (double)lat.size, ga_stop_reason_name(res.reason), res.generations,
            (unsigned long long)res.evaluations);
        ga_result_free(&res);
    }
    printf(
        "success %d/%d; mean unique evaluations per run %.0f (%.3f%% of the lattice); mean to reach the optimum "
        "%.0f\n",
        wins, seeds, evals_sum / seeds, 100.0 * evals_sum / seeds / (double)lat.size, wins ? hit_sum / wins : 0.0);
    CHECK(wins >= need);
    topk_free(&grid);
    backend_cpu_ops.close(b);
    tables_free(&t);
    problem_free(&p);
    lattice_free(&lat);
    dataset_free(&ds);
    return check_exit();
}
