/* Golden answers on tiny hand-made paths (SPEC sec. 4-5), each computed by
 * hand in the comments; every case also checks reference == tables. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fitness/objective_prep.h"
#include "fitness/topk.h"
#include "tests/check.h"
#include "tests/support/builder.h"
#include "tests/support/fitness_harness.h"

static int mismatches = 0;
static const char *const tick[] = {"T", "U"};
static const char *const feat[] = {"F"};

/* One trade entered at 100 with the given path; a lattice of one target and
 * one stop value (NAN: none); returns the reference fitness (= the outcome). */
static double one_trade(const float *path, int n, double entry, double pct, double t, double s, int fill, double cost)
{
    dataset_t ds;
    lattice_t lat;
    objective_cfg_t obj;
    int64_t ts[16];
    uint16_t g[EV_MAX_PARAMS] = {0};
    double zero = 0.0, f = 1.0;
    eval_result_t r;
    for (int i = 0; i < n; i++)
        ts[i] = 1000 + i;
    tb_dataset(&ds, 1, tick, 1, feat);
    tb_prices(&ds, 0, ts, path, n);
    tb_trade(&ds, 0, 1000, 1000 + n - 1, entry, pct, &f);
    memset(&lat, 0, sizeof lat);
    tb_param(&lat, "f", PARAM_FILTER, FILTER_MIN, "F", &zero, 1);
    if (t == t)
        tb_param(&lat, "target", PARAM_TARGET, FILTER_MIN, NULL, &t, 1);
    if (s == s)
        tb_param(&lat, "stop", PARAM_STOP, FILTER_MIN, NULL, &s, 1);
    tb_lattice_done(&lat, &ds);
    harness_objective(&obj, OBJ_TOTAL_RETURN);
    obj.fill = fill;
    obj.cost_pct = cost;
    r = harness_eval(&ds, &lat, &obj, g, &mismatches);
    CHECK_EQ_I64(1, r.trades);
    lattice_free(&lat);
    dataset_free(&ds);
    return r.fitness;
}

static void test_outcomes(void)
{
    const float target_first[] = {100.0f, 100.1f, 100.35f, 99.5f};
    const float stop_first[] = {100.0f, 99.8f, 99.6f, 101.0f};
    const float neither[] = {100.1f, 99.9f, 100.2f};
    const float first_second[] = {100.4f, 99.0f};
    const float last_second[] = {100.0f, 100.1f, 99.6f};
    const float at_target[] = {100.0f, 100.5f};
    float below_target[] = {100.0f, 0.0f};
    const float at_stop[] = {100.0f, 99.5f};
    const float jump_up[] = {100.0f, 101.0f};
    const float jump_down[] = {100.0f, 98.0f};

    /* target level (float)(100 * 1.003) = 100.3f: hit at 100.35 before the 99.5 */
    CHECK_EQ_F64(0.3, one_trade(target_first, 4, 100.0, 0.7, 0.3, -0.3, FILL_LEVEL, 0));
    /* stop level 99.7f: 99.6 hits first */
    CHECK_EQ_F64(-0.3, one_trade(stop_first, 4, 100.0, 0.7, 0.3, -0.3, FILL_LEVEL, 0));
    /* neither level is reached: the logged Trade Percent Change */
    CHECK_EQ_F64(0.15, one_trade(neither, 3, 100.0, 0.15, 0.3, -0.3, FILL_LEVEL, 0));
    /* the entry second itself counts */
    CHECK_EQ_F64(0.3, one_trade(first_second, 2, 100.0, 0.7, 0.3, -0.3, FILL_LEVEL, 0));
    /* the last second (exit time inclusive) counts */
    CHECK_EQ_F64(-0.3, one_trade(last_second, 3, 100.0, 0.7, 0.3, -0.3, FILL_LEVEL, 0));
    /* (float)(100 * (1 + 0.5/100)) == 100.5f: a price exactly at the level hits */
    CHECK_EQ_F64(0.5, one_trade(at_target, 2, 100.0, 0.1, 0.5, -0.5, FILL_LEVEL, 0));
    /* one float below the level does not */
    below_target[1] = nextafterf(100.5f, 0.0f);
    CHECK_EQ_F64(0.1, one_trade(below_target, 2, 100.0, 0.1, 0.5, -0.5, FILL_LEVEL, 0));
    /* (float)(100 * (1 - 0.5/100)) == 99.5f: exactly at the stop hits */
    CHECK_EQ_F64(-0.5, one_trade(at_stop, 2, 100.0, 0.1, 0.5, -0.5, FILL_LEVEL, 0));
    /* fill: price records the return at the hit second: (101/100 - 1) * 100
     * = 1.0000000000000009 -> 1000000 micro-percent -> 1.0 */
    CHECK_EQ_F64(1.0, one_trade(jump_up, 2, 100.0, 0.1, 0.3, -0.3, FILL_PRICE, 0));
    CHECK_EQ_F64(-2.0, one_trade(jump_down, 2, 100.0, 0.1, 0.3, -0.3, FILL_PRICE, 0));
    /* cost_pct is subtracted from every kept outcome before quantisation */
    CHECK_EQ_F64(0.25, one_trade(target_first, 4, 100.0, 0.7, 0.3, -0.3, FILL_LEVEL, 0.05));
    CHECK_EQ_F64(0.1, one_trade(neither, 3, 100.0, 0.15, 0.3, -0.3, FILL_LEVEL, 0.05));
    /* no target and no stop parameter: always the logged result */
    CHECK_EQ_F64(0.7, one_trade(target_first, 4, 100.0, 0.7, NAN, NAN, FILL_LEVEL, 0));
    /* only a stop */
    CHECK_EQ_F64(-0.3, one_trade(stop_first, 4, 100.0, 0.7, NAN, -0.3, FILL_LEVEL, 0));
    /* entry price below the first path price: 100.4 >= (float)(99.9 * 1.003) = 100.1997f */
    CHECK_EQ_F64(0.3, one_trade(first_second, 2, 99.9, 0.7, 0.3, -0.3, FILL_LEVEL, 0));
}

/* Four trades on two tickers entered at t = 1, 2, 3, 4 with logged outcomes
 * 1.0, -0.5, 2.0, -1.0 (tickers alternate, so dataset order differs from
 * entry order). No target/stop: outcomes are the logged ones. */
static void objectives_dataset(dataset_t *ds, lattice_t *lat)
{
    const int64_t ts[] = {1, 2, 3, 4, 5};
    const float px[] = {10, 10, 10, 10, 10};
    const double f = 1.0, zero = 0.0;
    tb_dataset(ds, 2, tick, 1, feat);
    tb_prices(ds, 0, ts, px, 5);
    tb_prices(ds, 1, ts, px, 5);
    tb_trade(ds, 0, 1, 2, 10.0, 1.0, &f);  /* entry order 1 */
    tb_trade(ds, 0, 3, 4, 10.0, 2.0, &f);  /* entry order 3 */
    tb_trade(ds, 1, 2, 3, 10.0, -0.5, &f); /* entry order 2 */
    tb_trade(ds, 1, 4, 5, 10.0, -1.0, &f); /* entry order 4 */
    memset(lat, 0, sizeof *lat);
    tb_param(lat, "f", PARAM_FILTER, FILTER_MIN, "F", &zero, 1);
    tb_lattice_done(lat, ds);
}

static eval_result_t eval_objective(objective_kind kind, int64_t min_trades, double max_dd)
{
    dataset_t ds;
    lattice_t lat;
    objective_cfg_t obj;
    uint16_t g[EV_MAX_PARAMS] = {0};
    eval_result_t r;
    objectives_dataset(&ds, &lat);
    harness_objective(&obj, kind);
    obj.min_trades = min_trades;
    if (max_dd > 0) {
        obj.has_max_drawdown = 1;
        obj.max_drawdown_pct = max_dd;
    }
    r = harness_eval(&ds, &lat, &obj, g, &mismatches);
    lattice_free(&lat);
    dataset_free(&ds);
    return r;
}

static void test_objectives(void)
{
    eval_result_t r;
    double var, sharpe;
    objective_cfg_t cfg;
    CHECK_EQ_F64(1.5, eval_objective(OBJ_TOTAL_RETURN, 0, 0).fitness);
    CHECK_EQ_F64(0.375, eval_objective(OBJ_MEAN, 0, 0).fitness);
    /* deviations .625 -.875 1.625 -1.375: squares sum 5.6875, / 3 */
    var = 5.6875 / 3.0;
    sharpe = 0.375 / sqrt(var);
    r = eval_objective(OBJ_SHARPE, 0, 0);
    CHECK(fabs(r.fitness - sharpe) < 1e-12);
    CHECK_EQ_F64(2.0, eval_objective(OBJ_PROFIT_FACTOR, 0, 0).fitness); /* 3.0 / 1.5 */
    /* 1.01 * 0.995 * 1.02 * 0.99 = 1.01479851 */
    harness_objective(&cfg, OBJ_COMPOUND);
    r = eval_objective(OBJ_COMPOUND, 0, 0);
    CHECK(fabs(objective_display(&cfg, r.fitness) - 1.479851) < 1e-9);
    /* equity in entry order 1, .5, 2.5, 1.5: max drawdown 1.0 (in dataset
     * order it would be 1.5) -> calmar 1.5 */
    CHECK_EQ_F64(1.5, eval_objective(OBJ_CALMAR, 0, 0).fitness);
    /* the drawdown constraint: 1.0 > 0.9 is infeasible, 1.0 is not > 1.0 */
    CHECK_EQ_I64(0, eval_objective(OBJ_TOTAL_RETURN, 0, 0.9).feasible);
    CHECK_EQ_I64(1, eval_objective(OBJ_TOTAL_RETURN, 0, 1.0).feasible);
    /* min_trades: 4 kept */
    CHECK_EQ_I64(1, eval_objective(OBJ_TOTAL_RETURN, 4, 0).feasible);
    CHECK_EQ_I64(0, eval_objective(OBJ_TOTAL_RETURN, 5, 0).feasible);
}

/* Filters: min keeps feature >= v, max keeps feature <= v, compared in double;
 * equal fitness ranks by lower linear index; infeasible genomes never rank. */
static void test_filters_and_ranking(void)
{
    dataset_t ds;
    lattice_t lat;
    objective_cfg_t obj;
    topk_t rank;
    const int64_t ts[] = {1, 2, 3, 4, 5, 6, 7, 8};
    const float px[] = {10, 10, 10, 10, 10, 10, 10, 10};
    const double lo[] = {0.0, 0.7, 5.0};   /* min filter on F */
    const double hi[] = {0.3, 0.7, 100.0}; /* max filter on F */
    const double f1 = 0.7, f2 = 0.3, f3 = 9.0;
    tb_dataset(&ds, 1, tick, 1, feat);
    tb_prices(&ds, 0, ts, px, 8);
    tb_trade(&ds, 0, 1, 2, 10.0, 1.0, &f1);  /* F = 0.7 (exactly a lattice value) */
    tb_trade(&ds, 0, 3, 4, 10.0, -2.0, &f2); /* F = 0.3 */
    tb_trade(&ds, 0, 5, 6, 10.0, 0.5, &f3);  /* F = 9 */
    memset(&lat, 0, sizeof lat);
    tb_param(&lat, "lo", PARAM_FILTER, FILTER_MIN, "F", lo, 3);
    tb_param(&lat, "hi", PARAM_FILTER, FILTER_MAX, "F", hi, 3);
    tb_lattice_done(&lat, &ds);
    harness_objective(&obj, OBJ_TOTAL_RETURN);
    obj.min_trades = 1;
    harness_check_all(&ds, &lat, &obj, &rank, &mismatches);
    /* Hand ranking (index = 3*lo + hi):
     *  lo>=0.7 keeps {0.7, 9}; with hi<=100 both: 1.5 (index 5); hi<=0.7 keeps 0.7: 1.0 (index 4)
     *  lo>=0 & hi<=100: all, -0.5 (index 2); lo>=5 & hi<=100: 9 only: 0.5 (index 8)
     *  lo>=0 & hi<=0.7: {0.7, 0.3}: -1.0 (index 1); lo>=0 & hi<=0.3: {0.3}: -2 (index 0)
     *  index 3 (lo .7, hi .3), 6 and 7 (lo 5, hi .3/.7) keep nothing: infeasible (min_trades 1) */
    CHECK_EQ_I64(6, rank.n);
    if (rank.n == 6) {
        const uint64_t want[] = {5, 4, 8, 2, 1, 0};
        const double fit[] = {1.5, 1.0, 0.5, -0.5, -1.0, -2.0};
        for (int i = 0; i < 6; i++) {
            CHECK_EQ_I64(want[i], rank.e[i].index);
            CHECK_EQ_F64(fit[i], rank.e[i].r.fitness);
        }
    }
    topk_free(&rank);
    lattice_free(&lat);

    /* Ties: two thresholds that keep the same trades tie; the lower index wins. */
    {
        const double t2[] = {0.0, 0.1};
        memset(&lat, 0, sizeof lat);
        tb_param(&lat, "loose", PARAM_FILTER, FILTER_MIN, "F", t2, 2);
        tb_lattice_done(&lat, &ds);
        harness_check_all(&ds, &lat, &obj, &rank, &mismatches);
        CHECK_EQ_I64(2, rank.n);
        if (rank.n == 2) {
            CHECK_EQ_I64(0, rank.e[0].index);
            CHECK_EQ_I64(1, rank.e[1].index);
            CHECK_EQ_F64(rank.e[0].r.fitness, rank.e[1].r.fitness);
        }
        topk_free(&rank);
        lattice_free(&lat);
    }
    dataset_free(&ds);
}

/* Edge cases of the objectives' definitions. */
static void test_objective_edges(void)
{
    dataset_t ds;
    lattice_t lat;
    objective_cfg_t obj;
    uint16_t g[EV_MAX_PARAMS] = {0};
    const int64_t ts[] = {1, 2, 3};
    const float px[] = {10, 10, 10};
    const double f = 1.0, zero = 0.0;
    eval_result_t r;
    tb_dataset(&ds, 1, tick, 1, feat);
    tb_prices(&ds, 0, ts, px, 3);
    tb_trade(&ds, 0, 1, 2, 10.0, 0.4, &f);
    memset(&lat, 0, sizeof lat);
    tb_param(&lat, "f", PARAM_FILTER, FILTER_MIN, "F", &zero, 1);
    tb_lattice_done(&lat, &ds);
    harness_objective(&obj, OBJ_SHARPE); /* one trade: sharpe needs n >= 2 */
    r = harness_eval(&ds, &lat, &obj, g, &mismatches);
    CHECK_EQ_I64(0, r.feasible);
    harness_objective(&obj, OBJ_PROFIT_FACTOR); /* no losses: +inf (its rank value), feasible */
    r = harness_eval(&ds, &lat, &obj, g, &mismatches);
    CHECK(r.feasible && inf_rank_is(r.fitness) && r.fitness == inf_rank_value(400000, 1));
    CHECK(isinf(objective_display(&obj, r.fitness)) && objective_display(&obj, r.fitness) > 0);
    harness_objective(&obj, OBJ_CALMAR); /* no drawdown: +inf */
    r = harness_eval(&ds, &lat, &obj, g, &mismatches);
    CHECK(r.feasible && inf_rank_is(r.fitness) && r.fitness == inf_rank_value(400000, 1));
    CHECK(isinf(objective_display(&obj, r.fitness)) && objective_display(&obj, r.fitness) > 0);
    lattice_free(&lat);
    dataset_free(&ds);

    /* Ruin: an outcome of -100 % makes compound -100 and ranks below all else. */
    tb_dataset(&ds, 1, tick, 1, feat);
    tb_prices(&ds, 0, ts, px, 3);
    tb_trade(&ds, 0, 1, 2, 10.0, -100.0, &f);
    memset(&lat, 0, sizeof lat);
    tb_param(&lat, "f", PARAM_FILTER, FILTER_MIN, "F", &zero, 1);
    tb_lattice_done(&lat, &ds);
    harness_objective(&obj, OBJ_COMPOUND);
    r = harness_eval(&ds, &lat, &obj, g, &mismatches);
    CHECK_EQ_F64(-100.0, objective_display(&obj, r.fitness));
    CHECK(r.feasible && rank_key(r) > 0);
    lattice_free(&lat);
    dataset_free(&ds);
}

int main(void)
{
    test_outcomes();
    test_objectives();
    test_filters_and_ranking();
    test_objective_edges();
    CHECK_EQ_I64(0, mismatches);
    return check_exit();
}
