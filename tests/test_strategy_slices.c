/* A strategy backtest run in slices (se_run_steps, atc_run_steps: the device
 * advances every genome of a launch by a bounded number of rows per launch,
 * kernels/strategy_device.cu) equals the backtest run whole: the same trades,
 * bit for bit, for slices of 1, 2, 7 and 500 rows and the whole series; and
 * it has ended after ceil(n_bars / steps) slices, the number of launches the
 * device makes. Random-walk bars, random genomes of both strategies. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "signals/atc_features.h"
#include "signals/atc_params.h"
#include "signals/atc_strategy.h"
#include "signals/bars.h"
#include "signals/features.h"
#include "signals/se_params.h"
#include "signals/se_strategy.h"
#include "tests/support/walk_bars.h"

#define N_BARS 3000
#define CAP 4096

static uint64_t rng = 0x9E3779B97F4A7C15ull;

static int32_t pick(int32_t lo, int32_t hi)
{
    return lo + (int32_t)(walk_uniform(&rng) * (double)(hi - lo + 1));
}

static double between(double lo, double hi)
{
    return lo + walk_uniform(&rng) * (hi - lo);
}

/* Field by field (a struct's padding is not its value), doubles bit for bit. */
static int same_bits(double a, double b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

static int same_se(const se_trade_t *a, const se_trade_t *b, int64_t n)
{
    for (int64_t k = 0; k < n; k++)
        if (a[k].signal_bar != b[k].signal_bar || a[k].entry_bar != b[k].entry_bar || a[k].exit_bar != b[k].exit_bar ||
            a[k].reason != b[k].reason || !same_bits(a[k].entry, b[k].entry) || !same_bits(a[k].exit, b[k].exit) ||
            !same_bits(a[k].stop, b[k].stop) || !same_bits(a[k].tp, b[k].tp) || !same_bits(a[k].risk, b[k].risk) ||
            !same_bits(a[k].pnl, b[k].pnl) || !same_bits(a[k].r_mult, b[k].r_mult))
            return 0;
    return 1;
}

static int same_atc(const atc_trade_t *a, const atc_trade_t *b, int64_t n)
{
    for (int64_t k = 0; k < n; k++)
        if (a[k].signal_bar != b[k].signal_bar || a[k].entry_bar != b[k].entry_bar || a[k].exit_bar != b[k].exit_bar ||
            a[k].reason != b[k].reason || a[k].side != b[k].side || !same_bits(a[k].entry, b[k].entry) ||
            !same_bits(a[k].exit, b[k].exit) || !same_bits(a[k].pnl, b[k].pnl))
            return 0;
    return 1;
}

static const int64_t STEPS[] = {1, 2, 7, 500, N_BARS};

/* The slices a run of n bars takes at `steps` rows each, as the device counts them. */
static int64_t slices(int64_t n, int64_t steps)
{
    return (n + steps - 1) / steps;
}

/* Strategy X's backtest of genome p over series s, whole into `whole` (n
 * trades, counted in *traded when any) and then in slices of each of STEPS
 * into `part`: ended within slices(), the same trades, and an ended run
 * stays ended. */
#define SLICES_EQUAL_WHOLE(X)                                                       \
    do {                                                                            \
        n = X##_backtest(&s, &p, whole, CAP);                                       \
        *traded += n > 0;                                                           \
        for (size_t k = 0; k < sizeof STEPS / sizeof STEPS[0]; k++) {               \
            X##_run_t r;                                                            \
            int64_t calls = 0;                                                      \
            int ended = 0;                                                          \
            memset(part, 0xA5, sizeof part);                                        \
            X##_run_start(&s, &r);                                                  \
            while (!ended && calls < slices(n_bars, STEPS[k])) {                    \
                ended = X##_run_steps(&s, &p, &r, part, CAP, STEPS[k]);             \
                calls++;                                                            \
            }                                                                       \
            CHECK(ended);                                                           \
            CHECK_EQ_I64(n, r.n_trades);                                            \
            CHECK(same_##X(whole, part, n < CAP ? n : CAP));                        \
            CHECK(X##_run_steps(&s, &p, &r, part, CAP, 5) == 1 && r.n_trades == n); \
        }                                                                           \
    } while (0)

static int check_se(se_features_t *f, int64_t n_bars, int *traded)
{
    static se_trade_t whole[CAP], part[CAP];
    se_params_t p;
    se_series_t s;
    ev_error err;
    int64_t n;
    se_params_defaults(&p);
    p.ema_fast = pick(2, 20);
    p.ema_slow = pick(p.ema_fast + 1, 60);
    p.z_window = pick(5, 60);
    p.atr_window = pick(3, 30);
    p.max_hold = pick(1, 60);
    p.vol_z = between(-0.5, 1.5);
    p.tr_z = between(-0.5, 1.5);
    p.cloc_min = between(0.0, 0.8);
    p.atr_stop_mult = between(0.3, 3.0);
    p.reward_r = between(0.5, 4.0);
    p.fee_bp = 2;
    p.slippage_bp = 1;
    if (se_features_series(f, &p, &s, &err) != EV_OK) {
        fprintf(stderr, "se_features_series: %s\n", err.msg);
        return 1;
    }
    SLICES_EQUAL_WHOLE(se);
    return 0;
}

static int check_atc(atc_features_t *f, int64_t n_bars, int *traded)
{
    static atc_trade_t whole[CAP], part[CAP];
    atc_params_t p;
    atc_series_t s;
    ev_error err;
    int64_t n;
    atc_params_defaults(&p);
    for (int k = 0; k < ATC_FAMILIES; k++) {
        p.len[k] = pick(12, 40); /* Wide needs L - 9 >= 3 */
        p.w[k] = between(0.5, 2.0);
    }
    p.robustness = pick(ATC_NARROW, ATC_WIDE);
    p.cutout = pick(0, 200);
    p.long_threshold = between(0.0, 0.3);
    p.short_threshold = -between(0.0, 0.3);
    p.fee_bp = 1;
    if (atc_features_series(f, &p, &s, &err) != EV_OK) {
        fprintf(stderr, "atc_features_series: %s\n", err.msg);
        return 1;
    }
    SLICES_EQUAL_WHOLE(atc);
    return 0;
}

int main(void)
{
    bars_t b;
    se_features_t *sf = NULL;
    atc_features_t *af = NULL;
    ev_error err;
    uint64_t walk = 88172645463325252ULL;
    int se_traded = 0, atc_traded = 0;
    walk_bars(&b, N_BARS, 100, &walk);
    if (se_features_create(&b, &sf, &err) != EV_OK || atc_features_create(&b, &af, &err) != EV_OK) {
        fprintf(stderr, "features: %s\n", err.msg);
        return 1;
    }
    for (int g = 0; g < 60; g++)
        if (check_se(sf, b.n, &se_traded) || (g < 20 && check_atc(af, b.n, &atc_traded)))
            return 1;
    /* the genomes traded: the comparisons compared trades */
    CHECK(se_traded >= 30);
    CHECK(atc_traded >= 10);
    se_features_free(sf);
    atc_features_free(af);
    bars_free(&b);
    return check_exit();
}
