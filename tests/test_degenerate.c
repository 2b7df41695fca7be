/* Degenerate objectives (SPEC sec. 5) on hand-made trades, on one backend:
 *
 * - sharpe with zero variance (two trades of +0.5 %) is infeasible, NaN, and
 *   says "zero variance"; the ranking holds the other two points only;
 * - profit_factor and calmar at +inf rank by total return, then by more
 *   trades, then by the lower index, above every finite value;
 *
 * through the backend's evaluate and its grid (tables and, where it applies,
 * dominance sums), and on the CPU also the reference evaluator and the
 * harness's batch orders. The rank values (inf_rank_value) are checked on
 * their own: ordered, above 2^64, shown as +inf.
 *
 * test_degenerate [cpu|cuda]: cuda exits 77 where no CUDA backend opens (the
 * emulated build runs it, tests/cuda_emu). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fitness/dominance.h"
#include "fitness/objective_prep.h"
#include "fitness/problem.h"
#include "fitness/tables.h"
#include "ga/backend.h"
#include "ga/grid.h"
#include "runs/backend_registry.h"
#include "tests/check.h"
#include "tests/support/builder.h"
#include "tests/support/fitness_harness.h"

static const char *const tick[] = {"T"};
static const char *const feat[] = {"F"};

/* One trade a second apart, feature f, logged outcome pct (no path event). */
static void trade(dataset_t *ds, int64_t at, double f, double pct)
{
    tb_trade(ds, 0, at, at + 1, 10.0, pct, &f);
}

/* A max filter on F with values 1..n: point i keeps the trades with F <= i + 1. */
static void problem(dataset_t *ds, lattice_t *lat, const double *f, const double *pct, int n_trades, int n_values)
{
    static const int64_t ts[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
    static const float px[] = {10, 10, 10, 10, 10, 10, 10, 10, 10, 10};
    double v[8];
    tb_dataset(ds, 1, tick, 1, feat);
    tb_prices(ds, 0, ts, px, 10);
    for (int j = 0; j < n_trades; j++)
        trade(ds, j, f[j], pct[j]);
    for (int i = 0; i < n_values; i++)
        v[i] = i + 1.0;
    memset(lat, 0, sizeof *lat);
    tb_param(lat, "f", PARAM_FILTER, FILTER_MAX, "F", v, (uint32_t)n_values);
    tb_lattice_done(lat, ds);
}

typedef struct {
    const backend_ops_t *ops;
    backend_t *b;
} on_t;

static void die(const char *what, const ev_error *err)
{
    fprintf(stderr, "test_degenerate: %s: %s\n", what, err->msg);
    exit(2);
}

/* The backend's whole ranking by one evaluator, as indices, best first. */
static uint32_t ranking(const on_t *on, const fit_problem_t *p, evaluator_kind ev, uint64_t *idx)
{
    grid_opts_t o;
    grid_stats_t s;
    topk_t top;
    ev_error err;
    memset(&o, 0, sizeof o);
    o.evaluator = ev;
    if (topk_init(&top, (uint32_t)p->lat->size, &err) != EV_OK || grid_run(on->ops, on->b, p, &o, &top, &s, &err))
        die("grid", &err);
    uint32_t n = top.n;
    for (uint32_t i = 0; i < n; i++)
        idx[i] = top.e[i].index;
    topk_free(&top);
    return n;
}

/* Every grid evaluator on this backend gives exactly want[n]. */
static void check_rankings(const on_t *on, const fit_problem_t *p, const uint64_t *want, uint32_t n)
{
    uint64_t got[8];
    for (int d = 0; d < 2; d++) {
        uint32_t m;
        if (d && !dominance_applicable(p))
            continue;
        m = ranking(on, p, d ? EVAL_DOMINANCE : EVAL_TABLES, got);
        CHECK_EQ_I64(n, m);
        for (uint32_t i = 0; i < n && i < m; i++)
            CHECK_EQ_I64(want[i], got[i]);
    }
}

/* Opens `name` on p; 0 when it is cuda and cannot open here. */
static int open_on(const char *name, fit_problem_t *p, tables_host_t *t, on_t *on)
{
    ev_error err;
    if (tables_build(t, p, &err) != EV_OK)
        die("tables", &err);
    if (backend_find(name, &on->ops, &err) != EV_OK || on->ops->open(&on->b, p, t, &err) != EV_OK) {
        if (strcmp(name, "cuda"))
            die(name, &err);
        printf("test_degenerate: skipped: no CUDA backend here: %s\n", err.msg);
        tables_free(t);
        return 0;
    }
    return 1;
}

static void close_on(on_t *on, tables_host_t *t)
{
    on->ops->close(on->b);
    tables_free(t);
}

/* Trades F=1: +0.5, +0.5; F=2: +0.3; F=3: -1.0. Point 0 keeps the two
 * equal outcomes: zero variance. */
static int zero_variance(const char *backend)
{
    static const double f[] = {1, 1, 2, 3}, pct[] = {0.5, 0.5, 0.3, -1.0};
    static const uint64_t want[] = {1, 2}; /* sharpe(point 1) = 2.79 > sharpe(point 2) = 0.08 */
    dataset_t ds;
    lattice_t lat;
    objective_cfg_t obj;
    fit_problem_t p;
    tables_host_t t;
    on_t on;
    eval_result_t r[3];
    const uint16_t genes[3] = {0, 1, 2};
    int mismatches = 0;
    ev_error err;
    problem(&ds, &lat, f, pct, 4, 3);
    harness_objective(&obj, OBJ_SHARPE);
    if (problem_init(&p, &ds, &lat, &obj, &err) != EV_OK)
        die("problem", &err);
    if (!open_on(backend, &p, &t, &on)) {
        problem_free(&p);
        lattice_free(&lat);
        dataset_free(&ds);
        return 0;
    }
    if (on.ops->evaluate(on.b, genes, 3, r, &err) != EV_OK)
        die("evaluate", &err);
    CHECK_EQ_I64(0, r[0].feasible);
    CHECK_EQ_I64(2, r[0].trades);
    CHECK(isnan(r[0].fitness));
    CHECK_STR("zero variance", objective_infeasible_why(&obj, r[0]));
    CHECK(objective_infeasible_why(&obj, r[1]) == NULL && r[1].feasible);
    /* (1.3/3) / sd(0.5, 0.5, 0.3), computed apart: sd = sqrt(0.04/3 * ... ) */
    CHECK(fabs(r[1].fitness -
               (1.3 / 3.0) / sqrt(((0.5 - 1.3 / 3) * (0.5 - 1.3 / 3) * 2 + (0.3 - 1.3 / 3) * (0.3 - 1.3 / 3)) / 2.0)) <
          1e-12);
    check_rankings(&on, &p, want, 2);
    if (!strcmp(backend, "cpu")) {
        topk_t all;
        eval_result_t x = harness_eval(&ds, &lat, &obj, genes, &mismatches); /* the reference, with the tables */
        CHECK(!x.feasible && isnan(x.fitness));
        harness_check_all(&ds, &lat, &obj, &all, &mismatches);
        CHECK_EQ_I64(2, all.n);
        topk_free(&all);
        CHECK_EQ_I64(0, mismatches);
    }
    close_on(&on, &t);
    problem_free(&p);
    lattice_free(&lat);
    dataset_free(&ds);
    return 1;
}

/* Trades F=1: +0.5; F=2: 0; F=3: +0.25; F=4: -1.0. Points 0..2 have no loss
 * and no drawdown: (sum, trades) = (0.5, 1), (0.5, 2), (0.75, 3); point 3 a
 * finite value. SPEC sec. 5: 2, 1, 0, then 3 (the old order was 0, 1, 2). */
static void inf_ties(const char *backend, objective_kind kind)
{
    static const double f[] = {1, 2, 3, 4}, pct[] = {0.5, 0.0, 0.25, -1.0};
    static const uint64_t want[] = {2, 1, 0, 3};
    dataset_t ds;
    lattice_t lat;
    objective_cfg_t obj;
    fit_problem_t p;
    tables_host_t t;
    on_t on;
    eval_result_t r[4];
    const uint16_t genes[4] = {0, 1, 2, 3};
    int mismatches = 0;
    ev_error err;
    problem(&ds, &lat, f, pct, 4, 4);
    harness_objective(&obj, kind);
    if (problem_init(&p, &ds, &lat, &obj, &err) != EV_OK)
        die("problem", &err);
    if (!open_on(backend, &p, &t, &on))
        exit(2); /* zero_variance opened it a moment ago */
    if (on.ops->evaluate(on.b, genes, 4, r, &err) != EV_OK)
        die("evaluate", &err);
    CHECK_EQ_F64(inf_rank_value(500000, 1), r[0].fitness);
    CHECK_EQ_F64(inf_rank_value(500000, 2), r[1].fitness);
    CHECK_EQ_F64(inf_rank_value(750000, 3), r[2].fitness);
    for (int i = 0; i < 3; i++)
        CHECK(r[i].feasible && objective_display(&obj, r[i].fitness) == HUGE_VAL);
    CHECK(r[3].feasible && isfinite(objective_display(&obj, r[3].fitness)));
    check_rankings(&on, &p, want, 4);
    if (!strcmp(backend, "cpu")) {
        topk_t all;
        harness_check_all(&ds, &lat, &obj, &all, &mismatches);
        CHECK_EQ_I64(4, all.n);
        for (uint32_t i = 0; i < all.n && i < 4; i++)
            CHECK_EQ_I64(want[i], all.e[i].index);
        topk_free(&all);
        CHECK_EQ_I64(0, mismatches);
    }
    close_on(&on, &t);
    problem_free(&p);
    lattice_free(&lat);
    dataset_free(&ds);
}

/* The rank values alone: by sum, then trades; above 2^64 and below +inf. */
static void rank_values(void)
{
    const double a = inf_rank_value(-5, 7), b = inf_rank_value(0, 1), c = inf_rank_value(0, 2),
                 d = inf_rank_value(INT64_MAX, INT64_MAX);
    CHECK(a < b && b < c && c < d && d < HUGE_VAL);
    CHECK(a >= 18446744073709551616.0 && inf_rank_is(a) && inf_rank_is(d));
    CHECK(!inf_rank_is(9.2e18) && !inf_rank_is(HUGE_VAL) && !inf_rank_is(-a));
    CHECK_EQ_F64(inf_rank_value(INT64_C(1) << 50, 1), inf_rank_value(INT64_C(1) << 51, 1)); /* clamped */
}

int main(int argc, char **argv)
{
    const char *backend = argc > 1 ? argv[1] : "cpu";
    rank_values();
    if (!zero_variance(backend))
        return 77;
    inf_ties(backend, OBJ_PROFIT_FACTOR);
    inf_ties(backend, OBJ_CALMAR);
    return check_exit();
}
