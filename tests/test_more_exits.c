/* SPEC sec. 4.1 on hand-built paths: the trailing stop (its running maximum
 * starting at the entry price, a hit at equality), the breakeven (armed at
 * equality, out at the entry the next second), the time stop (missing
 * seconds, max_hold 0, a hold past the path), and every pair of events that
 * can meet in one second, decided in the order target, stop, breakeven,
 * trail, time stop. Each case checks the reference loop's outcome against
 * the value worked out here, the tables against the reference
 * (harness_eval), and the tables' exit reason and second. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fitness/eval_reference.h"
#include "fitness/hits.h"
#include "fitness/problem.h"
#include "fitness/tables.h"
#include "fitness/trade_stats.h"
#include "tests/check.h"
#include "tests/support/builder.h"
#include "tests/support/fitness_harness.h"

static int mismatches = 0;
static const char *const tick[] = {"T"};
static const char *const feat[] = {"F"};
#define E 100.0 /* every trade's entry price */
#define LOGGED 0.7

/* The exits of a case; NAN: the lattice has no such parameter. */
typedef struct {
    double t, s, trail, breakeven, hold;
    int fill_price;
} exits_in_t;

static const exits_in_t NONE = {NAN, NAN, NAN, NAN, NAN, 0};

static void param_if(lattice_t *lat, const char *name, param_role role, double v)
{
    if (v == v)
        tb_param(lat, name, role, FILTER_MIN, NULL, &v, 1);
}

/* One trade entered at E at ts[0] (path ts[n], prices path[n]), the lattice
 * of x's single values. want_pct: the outcome (percent) the rules give;
 * want_reason / want_offset: the exit and its path second. */
static void check_case(const char *name, const float *path, const int64_t *ts, int n, exits_in_t x, double want_pct,
                       int want_reason, int want_offset)
{
    dataset_t ds;
    lattice_t lat;
    objective_cfg_t obj;
    fit_problem_t p;
    tables_host_t t;
    tables_genome_t g;
    ev_error err;
    uint16_t genes[EV_MAX_PARAMS] = {0};
    double zero = 0.0, f = 1.0;
    int64_t q, lf;
    int32_t offset = -1, reason;
    eval_result_t r;
    tb_dataset(&ds, 1, tick, 1, feat);
    tb_prices(&ds, 0, ts, path, n);
    tb_trade(&ds, 0, ts[0], ts[n - 1], E, LOGGED, &f);
    memset(&lat, 0, sizeof lat);
    tb_param(&lat, "f", PARAM_FILTER, FILTER_MIN, "F", &zero, 1);
    param_if(&lat, "target", PARAM_TARGET, x.t);
    param_if(&lat, "stop", PARAM_STOP, x.s);
    param_if(&lat, "trail", PARAM_TRAIL, x.trail);
    param_if(&lat, "breakeven", PARAM_BREAKEVEN, x.breakeven);
    param_if(&lat, "hold", PARAM_MAX_HOLD, x.hold);
    tb_lattice_done(&lat, &ds);
    harness_objective(&obj, OBJ_TOTAL_RETURN);
    obj.fill = x.fill_price ? FILL_PRICE : FILL_LEVEL;
    r = harness_eval(&ds, &lat, &obj, genes, &mismatches); /* reference == tables */
    if (r.fitness != (double)llround(want_pct * 1e6) / 1e6 || r.trades != 1) {
        fprintf(stderr, "%s: outcome %.17g (%lld trades), expected %.17g\n", name, r.fitness, (long long)r.trades,
                (double)llround(want_pct * 1e6) / 1e6);
        mismatches++;
    }
    if (problem_init(&p, &ds, &lat, &obj, &err) != EV_OK || tables_build(&t, &p, &err) != EV_OK) {
        fprintf(stderr, "%s: %s\n", name, err.msg);
        mismatches++;
    } else {
        kept_trade_t *k = NULL;
        int64_t kept = 0;
        trade_stats_t stats;
        tables_genome(&t.view, genes, &g);
        reason = tables_first_exit(&t.view, 0, &g.x, &offset, &q, &lf);
        /* the trader statistics count the exit under its reason */
        if (kept_trades(&p, &t.view, genes, &k, &kept, &err) != EV_OK ||
            trade_stats_of(k, kept, &stats, &err) != EV_OK || kept != 1 || stats.exits[want_reason] != 1) {
            fprintf(stderr, "%s: the trader statistics do not count one %s exit\n", name,
                    exit_reason_name(want_reason));
            mismatches++;
        }
        free(k);
        if (reason != want_reason || (reason && offset != want_offset)) {
            fprintf(stderr, "%s: exit %s at second %d, expected %s at %d\n", name, exit_reason_name(reason), offset,
                    exit_reason_name(want_reason), want_offset);
            mismatches++;
        }
        tables_free(&t);
        problem_free(&p);
    }
    lattice_free(&lat);
    dataset_free(&ds);
}

/* Consecutive seconds from 1000. */
static const int64_t secs[] = {1000, 1001, 1002, 1003, 1004, 1005, 1006, 1007};

static double pct_at(float price)
{
    return ((double)price / E - 1.0) * 100.0;
}

static void trailing(void)
{
    exits_in_t x = NONE;
    const float flat_then_down[] = {100.0f, 99.7f, 99.5f, 99.0f};
    const float new_high[] = {100.0f, 101.0f, 100.6f, 100.49f, 99.0f};
    const float never[] = {100.0f, 100.2f, 99.9f};
    x.trail = 0.5; /* from the entry: level (float)(100 * 0.995) = 99.5 */
    check_case("trail from the entry, hit at equality", flat_then_down, secs, 4, x, pct_at(99.5f), EXIT_TRAIL, 2);
    x.fill_price = 1;
    check_case("trail at equality, fill: price", flat_then_down, secs, 4, x, pct_at(99.5f), EXIT_TRAIL, 2);
    x.fill_price = 0;
    /* the maximum rises to 101: level (float)(101 * 0.995) = 100.495, hit by 100.49 */
    check_case("trail below a new high", new_high, secs, 5, x, pct_at(trail_level(101.0, 0.5)), EXIT_TRAIL, 3);
    check_case("trail never hit", never, secs, 3, x, LOGGED, EXIT_LOGGED, 0);
}

static void breakeven(void)
{
    exits_in_t x = NONE;
    const float arm_then_out[] = {100.2f, 100.5f, 100.0f, 101.0f};
    const float below_before_arming[] = {99.9f, 100.5f, 100.3f};
    const float at_entry[] = {100.0f, 99.0f, 101.0f};
    x.breakeven = 0.5; /* armed at (float)100.5, out at <= (float)100 */
    check_case("breakeven armed at equality, out at the entry the next second", arm_then_out, secs, 4, x, 0.0,
               EXIT_BREAKEVEN, 2);
    x.fill_price = 1;
    check_case("breakeven, fill: price", arm_then_out, secs, 4, x, 0.0, EXIT_BREAKEVEN, 2);
    x.fill_price = 0;
    check_case("breakeven: below the entry before arming is no exit", below_before_arming, secs, 3, x, LOGGED,
               EXIT_LOGGED, 0);
    /* a breakeven so small that its level rounds to the entry's float: armed
     * at second 0, out from second 1 on, never in the second that arms it */
    x.breakeven = 1e-9;
    x.fill_price = 1;
    check_case("breakeven level equal to the entry: out the next second", at_entry, secs, 3, x, pct_at(99.0f),
               EXIT_BREAKEVEN, 1);
}

static void time_stop(void)
{
    exits_in_t x = NONE;
    const int64_t gaps[] = {1000, 1001, 1005, 1006, 1007};
    const float path[] = {100.1f, 100.2f, 100.3f, 100.4f, 100.5f};
    x.hold = 3; /* the last second <= 1003 is 1001 (1002..1004 are missing) */
    check_case("max_hold 3 over missing seconds", path, gaps, 5, x, pct_at(100.2f), EXIT_TIME, 1);
    x.hold = 5;
    check_case("max_hold 5 reaches 1005", path, gaps, 5, x, pct_at(100.3f), EXIT_TIME, 2);
    x.hold = 0;
    check_case("max_hold 0 exits at the first second", path, gaps, 5, x, pct_at(100.1f), EXIT_TIME, 0);
    x.hold = 7;
    check_case("max_hold to the path's last second changes nothing", path, gaps, 5, x, LOGGED, EXIT_LOGGED, 0);
    x.hold = 600;
    check_case("max_hold past the path changes nothing", path, gaps, 5, x, LOGGED, EXIT_LOGGED, 0);
}

/* Two events in one second: the first in SPEC's order wins. (Target with
 * breakeven or trail cannot meet: those need a price at or below the entry
 * or a running maximum the target would have taken first.) */
static void ties(void)
{
    exits_in_t x;
    const float stop_with_be[] = {100.6f, 99.0f, 99.0f};
    const float down[] = {100.0f, 99.0f, 99.0f};
    const float be_with_trail[] = {100.6f, 100.0f, 100.0f};
    const float up[] = {100.0f, 101.0f, 99.0f};
    x = NONE;
    x.s = -0.5;
    x.breakeven = 0.5;
    check_case("stop before breakeven", stop_with_be, secs, 3, x, -0.5, EXIT_STOP, 1);
    x = NONE;
    x.s = -0.5;
    x.trail = 0.5;
    check_case("stop before trail", down, secs, 3, x, -0.5, EXIT_STOP, 1);
    x = NONE;
    x.s = -0.5;
    x.hold = 1;
    check_case("stop before time", down, secs, 3, x, -0.5, EXIT_STOP, 1);
    x = NONE;
    x.breakeven = 0.5;
    x.trail = 0.5; /* level (float)(100.6 * 0.995) = 100.097 >= 100 */
    check_case("breakeven before trail", be_with_trail, secs, 3, x, 0.0, EXIT_BREAKEVEN, 1);
    x = NONE;
    x.breakeven = 0.5;
    x.hold = 1;
    check_case("breakeven before time", be_with_trail, secs, 3, x, 0.0, EXIT_BREAKEVEN, 1);
    x = NONE;
    x.trail = 0.5;
    x.hold = 1;
    check_case("trail before time", down, secs, 3, x, pct_at(99.5f), EXIT_TRAIL, 1);
    x = NONE;
    x.t = 0.5;
    x.hold = 1;
    check_case("target before time", up, secs, 3, x, 0.5, EXIT_TARGET, 1);
    x = NONE;
    x.t = 5.0;
    x.s = -5.0;
    check_case("target and stop only: unchanged", up, secs, 3, x, LOGGED, EXIT_LOGGED, 0);
}

int main(void)
{
    trailing();
    breakeven();
    time_stop();
    ties();
    CHECK_EQ_I64(0, mismatches);
    return check_exit();
}
