/* A GA run and a grid on the CPU backend with the bit-sliced evaluator
 * forced (EVOLVE_EVALUATOR=slices) give the same generations (every
 * generation's genes, results and parents, fingerprinted), the same hall of
 * fame and the same grid top-K as with the walk forced, and as `auto`, for
 * every objective (calmar walks in every mode). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/platform.h"
#include "fitness/slices_eval.h"
#include "ga/grid.h"
#include "tests/check.h"
#include "tests/support/fitness_harness.h"
#include "tests/support/ga_fixture.h"

typedef struct {
    trace_t trace;
    ga_result_t ga;
    topk_t grid;
} runs_t;

/* The fixture's problem under objective kind, its backend opened in mode. */
static void reopen(ga_fixture_t *f, objective_kind kind, const char *mode)
{
    objective_cfg_t obj;
    ev_error err;
    backend_cpu_ops.close(f->b);
    tables_free(&f->t);
    problem_free(&f->p);
    harness_objective(&obj, kind);
    obj.min_trades = 3;
    obj.cost_pct = 0.01;
    obj.fill = FILL_PRICE; /* outcomes of every low bit */
    plat_setenv(SLICES_MODE_ENV, mode);
    if (problem_init(&f->p, &f->ds, &f->lat, &obj, &err) || tables_build(&f->t, &f->p, &err) ||
        backend_cpu_ops.open(&f->b, &f->p, &f->t, &err)) {
        fprintf(stderr, "reopen: %s\n", err.msg);
        exit(2);
    }
}

static void run_both(ga_fixture_t *f, runs_t *r)
{
    ga_settings_t s;
    grid_opts_t o;
    grid_stats_t gs;
    ev_error err;
    fixture_settings(&s);
    s.ls_every = 5; /* climbs too: their sweeps and the evaluations they feed back */
    if (fixture_run(f, NULL, &s, 11, &r->trace, &r->ga, &err) != EV_OK) {
        fprintf(stderr, "ga_run: %s\n", err.msg);
        exit(2);
    }
    memset(&o, 0, sizeof o);
    o.evaluator = EVAL_TABLES; /* not the dominance sums: the backend's evaluator */
    if (topk_init(&r->grid, 50, &err) != EV_OK ||
        grid_run(&backend_cpu_ops, f->b, &f->p, &o, &r->grid, &gs, &err) != EV_OK) {
        fprintf(stderr, "grid: %s\n", err.msg);
        exit(2);
    }
}

int main(void)
{
    static const char *const modes[] = {"walk", "slices", "auto"};
    ga_fixture_t f;
    fixture_open(&f, 4, 8); /* 4 filters x 8 values, 6 targets, 6 stops: 147,456 points */
    for (int k = 0; k < OBJ_COUNT; k++) {
        runs_t r[3];
        for (int m = 0; m < 3; m++) {
            reopen(&f, (objective_kind)k, modes[m]);
            run_both(&f, &r[m]);
        }
        for (int m = 1; m < 3; m++) {
            int same_gens = r[m].trace.n == r[0].trace.n &&
                            memcmp(r[m].trace.hash, r[0].trace.hash, r[0].trace.n * sizeof r[0].trace.hash[0]) == 0;
            CHECK(same_gens);
            CHECK(fixture_same_top(&r[m].ga.hof, &r[0].ga.hof));
            CHECK_EQ_I64(r[m].ga.evaluations, r[0].ga.evaluations);
            CHECK(fixture_same_top(&r[m].grid, &r[0].grid));
            if (!same_gens || !fixture_same_top(&r[m].grid, &r[0].grid))
                fprintf(stderr, "objective %s: %s differs from walk\n", objective_name((objective_kind)k), modes[m]);
        }
        CHECK(r[0].grid.n == 50 && r[0].ga.hof.n > 0);
        printf(
            "%-14s GA %u generations, %llu evaluations, best %.17g; grid top-50 best %.17g: walk == slices == "
            "auto\n",
            objective_name((objective_kind)k), r[0].trace.n, (unsigned long long)r[0].ga.evaluations,
            r[0].ga.hof.e[0].r.fitness, r[0].grid.e[0].r.fitness);
        for (int m = 0; m < 3; m++) {
            ga_result_free(&r[m].ga);
            topk_free(&r[m].grid);
        }
    }
    fixture_close(&f);
    return check_exit();
}
