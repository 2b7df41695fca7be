/* Sums of squares past 64 bits (SPEC sec. 5's exact 128-bit sums): 600
 * trades of +400 % to +460 % (q = 4e8 to 4.6e8 micro-percent, q^2 ~ 1.9e17)
 * sum to about 1.1e20 > 2^64 = 1.8e19, so the dominance sums' suffix pass
 * (fitness/dominance_suffix.c add128) must carry the low words into the high
 * ones several times, and so must every other evaluator's accumulator.
 * Sharpe (the objective that reads the squares) on a lattice of a min
 * filter of 40 values and a max filter of 11:
 * - the reference, tables and dominance evaluators agree bit for bit on every
 *   point and on the ranking (tests/support/fitness_harness.c);
 * - the point that keeps every trade, and the one that keeps the trades of
 *   F >= 20 and G <= 5, equal the sharpe computed here from the outcomes in
 *   long double (mean / sample standard deviation), the squares' sum checked
 *   to be past 2^64 (the test's premise). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fitness/objective_prep.h"
#include "fitness/topk.h"
#include "tests/check.h"
#include "tests/support/builder.h"
#include "tests/support/fitness_harness.h"

#define N_TRADES 600
#define F_VALUES 40
#define G_VALUES 11

static const char *const tick[] = {"T"};
static const char *const feat[] = {"F", "G"};

static double outcome(int i)
{
    return 400.0 + (double)(i % 7) * 10.0;
}

static double feature_f(int i)
{
    return (double)(i % F_VALUES);
}

static double feature_g(int i)
{
    return (double)((i * 7) % G_VALUES);
}

static void build(dataset_t *ds, lattice_t *lat)
{
    static int64_t ts[N_TRADES + 2];
    static float px[N_TRADES + 2];
    double fv[F_VALUES], gv[G_VALUES];
    for (int i = 0; i < N_TRADES + 2; i++) {
        ts[i] = 1000 + i;
        px[i] = 10.0f;
    }
    tb_dataset(ds, 1, tick, 2, feat);
    tb_prices(ds, 0, ts, px, N_TRADES + 2);
    for (int i = 0; i < N_TRADES; i++) {
        const double f[2] = {feature_f(i), feature_g(i)};
        tb_trade(ds, 0, 1000 + i, 1001 + i, 10.0, outcome(i), f);
    }
    for (int v = 0; v < F_VALUES; v++)
        fv[v] = (double)v;
    for (int v = 0; v < G_VALUES; v++)
        gv[v] = (double)v;
    memset(lat, 0, sizeof *lat);
    tb_param(lat, "f", PARAM_FILTER, FILTER_MIN, "F", fv, F_VALUES);
    tb_param(lat, "g", PARAM_FILTER, FILTER_MAX, "G", gv, G_VALUES);
    tb_lattice_done(lat, ds);
}

/* Sharpe of the trades with F >= f_min and G <= g_max, in long double from
 * the quantised outcomes; *sumsq: their squares' sum. */
static double expected_sharpe(double f_min, double g_max, long double *sumsq, int64_t *n)
{
    long double s = 0.0L, ss = 0.0L;
    *n = 0;
    for (int i = 0; i < N_TRADES; i++) {
        long double q;
        if (feature_f(i) < f_min || feature_g(i) > g_max)
            continue;
        q = (long double)llround(outcome(i) * 1e6);
        s += q;
        ss += q * q;
        (*n)++;
    }
    *sumsq = ss;
    {
        long double mean = s / (long double)*n;
        long double var = (ss - s * s / (long double)*n) / (long double)(*n - 1);
        return (double)(mean / sqrtl(var));
    }
}

static void check_point(const dataset_t *ds, const lattice_t *lat, const objective_cfg_t *obj, uint16_t f_gene,
                        uint16_t g_gene, int *mismatches)
{
    uint16_t g[EV_MAX_PARAMS] = {0};
    long double sumsq;
    int64_t n;
    double want = expected_sharpe((double)f_gene, (double)g_gene, &sumsq, &n);
    eval_result_t r;
    g[0] = f_gene;
    g[1] = g_gene;
    r = harness_eval(ds, lat, obj, g, mismatches);
    printf("f >= %u, g <= %u: %lld trades, sum of squares %.4Le (2^64 = %.4e), sharpe %.17g, expected %.17g\n", f_gene,
           g_gene, (long long)r.trades, sumsq, ldexp(1.0, 64), r.fitness, want);
    CHECK(sumsq > ldexpl(1.0L, 64)); /* the premise: the low word overflows */
    CHECK_EQ_I64(n, r.trades);
    CHECK(r.feasible);
    CHECK(fabs(r.fitness - want) <= 1e-12 * fabs(want));
}

/* The lattice points that keep at least 2 trades (sharpe's min_trades): the
 * ranking lists only those. */
static int64_t feasible_points(void)
{
    int64_t points = 0;
    for (int f = 0; f < F_VALUES; f++)
        for (int g = 0; g < G_VALUES; g++) {
            int n = 0;
            for (int i = 0; i < N_TRADES; i++)
                n += feature_f(i) >= f && feature_g(i) <= g;
            points += n >= 2;
        }
    return points;
}

int main(void)
{
    dataset_t ds;
    lattice_t lat;
    objective_cfg_t obj;
    topk_t ranking;
    int mismatches = 0;
    build(&ds, &lat);
    harness_objective(&obj, OBJ_SHARPE);
    obj.min_trades = 2;
    harness_check_all(&ds, &lat, &obj, &ranking, &mismatches);
    CHECK_EQ_I64(feasible_points(), ranking.n);
    topk_free(&ranking);
    check_point(&ds, &lat, &obj, 0, G_VALUES - 1, &mismatches); /* every trade */
    check_point(&ds, &lat, &obj, 20, 5, &mismatches);
    CHECK_EQ_I64(0, mismatches);
    lattice_free(&lat);
    dataset_free(&ds);
    return check_exit();
}
