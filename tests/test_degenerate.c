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
 * their own: ordered, above 2^64, shown as +inf; equal outcomes' reported
 * moments (the DSR's, the trader's sharpe) are those of zero variance.
 *
 * test_degenerate [cpu|cuda]: cuda exits 77 where no CUDA backend opens (the
 * emulated build runs it, tests/cuda_emu). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fitness/dominance.h"
#include "fitness/dsr.h"
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

/* One problem on one backend. */
typedef struct {
    dataset_t ds;
    lattice_t lat;
    objective_cfg_t obj;
    fit_problem_t p;
    tables_host_t t;
    on_t on;
} case_t;

/* Builds the problem and opens `backend` on it; 0 when it is cuda and
 * cannot open here (nothing left to close). */
static int case_open(case_t *c, const double *f, const double *pct, int n_trades, int n_values, objective_kind kind,
                     const char *backend)
{
    ev_error err;
    problem(&c->ds, &c->lat, f, pct, n_trades, n_values);
    harness_objective(&c->obj, kind);
    if (problem_init(&c->p, &c->ds, &c->lat, &c->obj, &err) != EV_OK || tables_build(&c->t, &c->p, &err) != EV_OK)
        die("problem", &err);
    if (backend_find(backend, &c->on.ops, &err) == EV_OK && c->on.ops->open(&c->on.b, &c->p, &c->t, &err) == EV_OK)
        return 1;
    if (strcmp(backend, "cuda"))
        die(backend, &err);
    printf("test_degenerate: skipped: no CUDA backend here: %s\n", err.msg);
    tables_free(&c->t);
    problem_free(&c->p);
    lattice_free(&c->lat);
    dataset_free(&c->ds);
    return 0;
}

static void case_close(case_t *c)
{
    c->on.ops->close(c->on.b);
    tables_free(&c->t);
    problem_free(&c->p);
    lattice_free(&c->lat);
    dataset_free(&c->ds);
}

/* Every genome through the backend's evaluate. */
static void case_eval(const case_t *c, eval_result_t *r)
{
    const uint16_t genes[4] = {0, 1, 2, 3};
    ev_error err;
    if (c->on.ops->evaluate(c->on.b, genes, c->lat.size, r, &err) != EV_OK)
        die("evaluate", &err);
}

/* On the CPU also: the reference agrees with the tables genome by genome,
 * and every evaluator and batch order of the harness ranks want[n]. */
static void case_harness(case_t *c, const uint64_t *want, uint32_t n)
{
    topk_t all;
    int mismatches = 0;
    harness_check_all(&c->ds, &c->lat, &c->obj, &all, &mismatches);
    CHECK_EQ_I64(n, all.n);
    for (uint32_t i = 0; i < all.n && i < n; i++)
        CHECK_EQ_I64(want[i], all.e[i].index);
    topk_free(&all);
    CHECK_EQ_I64(0, mismatches);
}

/* Trades F=1: +0.5, +0.5; F=2: +0.3; F=3: -1.0. Point 0 keeps the two
 * equal outcomes: zero variance. */
static int zero_variance(const char *backend)
{
    static const double f[] = {1, 1, 2, 3}, pct[] = {0.5, 0.5, 0.3, -1.0};
    static const uint64_t want[] = {1, 2}; /* sharpe(point 1) = 3.75 > sharpe(point 2) = 0.10 */
    const double m = 1.3 / 3.0, sd = sqrt(((0.5 - m) * (0.5 - m) * 2 + (0.3 - m) * (0.3 - m)) / 2.0);
    case_t c;
    eval_result_t r[3];
    if (!case_open(&c, f, pct, 4, 3, OBJ_SHARPE, backend))
        return 0;
    case_eval(&c, r);
    CHECK_EQ_I64(0, r[0].feasible);
    CHECK_EQ_I64(2, r[0].trades);
    CHECK(isnan(r[0].fitness));
    CHECK_STR("zero variance", objective_infeasible_why(&c.obj, r[0]));
    CHECK(objective_infeasible_why(&c.obj, r[1]) == NULL && r[1].feasible);
    CHECK(fabs(r[1].fitness - m / sd) < 1e-12); /* mean / sample sd of 0.5, 0.5, 0.3 */
    check_rankings(&c.on, &c.p, want, 2);
    if (!strcmp(backend, "cpu"))
        case_harness(&c, want, 2);
    case_close(&c);
    return 1;
}

/* Trades F=1: +0.5; F=2: 0; F=3: +0.25; F=4: -1.0. Points 0..2 have no loss
 * and no drawdown: (sum, trades) = (0.5, 1), (0.5, 2), (0.75, 3); point 3 a
 * finite value. SPEC sec. 5: 2, 1, 0, then 3 (the old order was 0, 1, 2). */
static void inf_ties(const char *backend, objective_kind kind)
{
    static const double f[] = {1, 2, 3, 4}, pct[] = {0.5, 0.0, 0.25, -1.0};
    static const uint64_t want[] = {2, 1, 0, 3};
    case_t c;
    eval_result_t r[4];
    if (!case_open(&c, f, pct, 4, 4, kind, backend))
        exit(2); /* zero_variance opened it a moment ago */
    case_eval(&c, r);
    CHECK_EQ_F64(inf_rank_value(500000, 1), r[0].fitness);
    CHECK_EQ_F64(inf_rank_value(500000, 2), r[1].fitness);
    CHECK_EQ_F64(inf_rank_value(750000, 3), r[2].fitness);
    for (int i = 0; i < 3; i++)
        CHECK(r[i].feasible && objective_display(&c.obj, r[i].fitness) == HUGE_VAL);
    CHECK(r[3].feasible && isfinite(objective_display(&c.obj, r[3].fitness)));
    check_rankings(&c.on, &c.p, want, 4);
    if (!strcmp(backend, "cpu"))
        case_harness(&c, want, 4);
    case_close(&c);
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

/* The reported moments of equal outcomes (the DSR's inputs, the trader's
 * sharpe): zero variance on the integers, so SR 0, skew 0, kurtosis 3, never
 * the 1e15 that the doubles' rounding of +0.1 % thirty times gives. */
static void equal_moments(void)
{
    int64_t q[30];
    trade_moments_t m;
    for (int n = 2; n <= 30; n++) {
        for (int j = 0; j < n; j++)
            q[j] = n % 2 ? 100000 : -150000; /* +0.1 %, -0.15 % */
        trade_moments(q, n, &m);
        CHECK(m.n == n && m.sharpe == 0.0 && m.skew == 0.0 && m.kurt == 3.0);
    }
    q[29] = -150001; /* one micro-percent apart: a variance, a real ratio */
    trade_moments(q, 30, &m);
    CHECK(m.sharpe < -1e4 && isfinite(m.sharpe));
}

int main(int argc, char **argv)
{
    const char *backend = argc > 1 ? argv[1] : "cpu";
    rank_values();
    equal_moments();
    if (!zero_variance(backend))
        return 77;
    inf_ties(backend, OBJ_PROFIT_FACTOR);
    inf_ties(backend, OBJ_CALMAR);
    return check_exit();
}
