/* signals/ strategy atc: the moving averages, robustness lengths, cross
 * states, equity steps and warm-up on hand-computed values, and seed 002's
 * growth-factor bug.
 *
 * The bug: the seed's CUDA kernel built g[i] = exp(La*i) as a running product
 * (growth *= exp(La)) once per strided loop iteration, so with T threads a
 * bar's growth was exp(La*i/T), and even with one thread it drifted by
 * rounding. The check: every layer-1 equity evolve computes, at every bar,
 * equals bit for bit an oracle written here from docs/signals-spec.md sec. 2.5 with
 * g = exp(lambda*(i - cutout)) taken from i alone. Oracles carrying the bug
 * (one thread, and four strided threads) are shown to disagree with it, so
 * the check catches the bug coming back. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "signals/atc_features.h"
#include "signals/atc_ma.h"
#include "signals/atc_params.h"
#include "signals/atc_strategy.h"
#include "signals/bars.h"
#include "tests/support/walk_bars.h"

static void test_moving_averages(void)
{
    const double x[6] = {1, 2, 3, 4, 5, 7};
    double y[6], raw[6];
    atc_ema(x, 6, 3, y); /* a = 0.5: seed (1+2+3)/3 = 2 at bar 2 */
    CHECK(isnan(y[1]));
    CHECK_EQ_F64(2, y[2]);
    CHECK_EQ_F64(3, y[3]);   /* 0.5*4 + 0.5*2 */
    CHECK_EQ_F64(4, y[4]);   /* 0.5*5 + 0.5*3 */
    CHECK_EQ_F64(5.5, y[5]); /* 0.5*7 + 0.5*4 */
    atc_wma(x, 6, 3, y);
    CHECK(isnan(y[1]));
    CHECK_EQ_F64(14.0 / 6.0, y[2]); /* (1*1 + 2*2 + 3*3) / 6 */
    CHECK_EQ_F64((1 * 4.0 + 2 * 5.0 + 3 * 7.0) / 6.0, y[5]);
    atc_sma(x, 6, 2, y);
    CHECK_EQ_F64(6, y[5]);
    /* DEMA: e1 = EMA(3) above; e2 seeded with e1[2] = 2: e2[3] = 0.5*3 + 0.5*2 = 2.5, DEMA = 2*3 - 2.5 */
    atc_dema(x, 6, 3, y);
    CHECK(isnan(y[1]));
    CHECK_EQ_F64(2, y[2]);
    CHECK_EQ_F64(3.5, y[3]);
    /* LSMA of a line is the line's newest value */
    {
        const double line[6] = {3, 5, 7, 9, 11, 13};
        atc_lsma(line, 6, 4, y);
        CHECK(isnan(y[2]));
        CHECK_EQ_F64(9, y[3]);
        CHECK_EQ_F64(13, y[5]);
    }
    /* HMA(4): h = 2, s = 2; first defined at L+s-2 = 4; raw = 2*WMA2 - WMA4 */
    atc_hma(x, 6, 4, raw, y);
    CHECK(isnan(y[3]));
    {
        const double w2_3 = (3.0 + 2 * 4.0) / 3.0, w4_3 = (1.0 + 2 * 2.0 + 3 * 3.0 + 4 * 4.0) / 10.0;
        const double w2_4 = (4.0 + 2 * 5.0) / 3.0, w4_4 = (2.0 + 2 * 3.0 + 3 * 4.0 + 4 * 5.0) / 10.0;
        const double r3 = 2.0 * w2_3 - w4_3, r4 = 2.0 * w2_4 - w4_4;
        CHECK_EQ_F64((r3 + 2 * r4) / 3.0, y[4]);
    }
    /* KAMA(2): held at x0 for i < 2; at 2: noise 1+1, signal 2, ER 1, sc = 0.666^2 */
    atc_kama(x, 6, 2, y);
    CHECK_EQ_F64(1, y[0]);
    CHECK_EQ_F64(1, y[1]);
    {
        const double t = 1.0 * (0.666 - 0.064) + 0.064;
        CHECK_EQ_F64(1 + (t * t) * (3 - 1), y[2]);
    }
    {
        const double flat[4] = {5, 5, 5, 5};
        atc_kama(flat, 4, 2, y); /* noise 0: ER 0 */
        CHECK_EQ_F64(5, y[3]);
    }
    CHECK_EQ_I64(7, atc_isqrt(63));
    CHECK_EQ_I64(8, atc_isqrt(64));
    CHECK_EQ_I64(0, atc_isqrt(0));
}

static void test_lengths_and_warmup(void)
{
    const int32_t want[3][9] = {{20, 21, 22, 23, 24, 19, 18, 17, 16},
                                {20, 21, 22, 24, 26, 19, 18, 16, 14},
                                {20, 21, 23, 25, 27, 19, 17, 15, 13}};
    atc_params_t p;
    ev_error err;
    for (int r = 0; r < 3; r++)
        for (int k = 0; k < 9; k++)
            CHECK_EQ_I64(want[r][k], atc_member_len(20, r, k));
    atc_params_defaults(&p);
    /* Medium, all lengths 28: slowest member 34; HMA(34) first at 34 + 5 - 2 = 37 */
    CHECK_EQ_I64(38, atc_warmup_bar(&p));
    p.hma_as_sma = 1;
    CHECK_EQ_I64(34, atc_warmup_bar(&p)); /* the others: 34 - 1 = 33 */
    p.cutout = 50;
    CHECK_EQ_I64(51, atc_warmup_bar(&p));
    atc_params_defaults(&p);
    p.len[ATC_LSMA] = 9; /* Medium: 9 - 6 = 3, the least */
    CHECK(atc_params_check(&p, &err) == EV_OK);
    p.len[ATC_LSMA] = 8;
    CHECK(atc_params_check(&p, &err) == EV_EUSAGE);
    p.len[ATC_LSMA] = 9;
    p.robustness = ATC_WIDE;
    CHECK(atc_params_check(&p, &err) == EV_EUSAGE);
    CHECK(atc_params_assign(&p, "robustness=narrow", &err) == EV_OK && p.robustness == ATC_NARROW);
    CHECK(atc_params_assign(&p, "La=0.05", &err) == EV_OK && p.la == 0.05);
    CHECK(atc_params_assign(&p, "cutout=-1", &err) == EV_EUSAGE);
    CHECK_EQ_F64(0.05 / 1000.0, atc_lambda(p.la));
    CHECK_EQ_F64(1.0 - 0.03 / 100.0, atc_decay(0.03));
}

static void test_states_and_equity(void)
{
    /* close against a flat MA of 10: up at 2 (9 -> 11), held, down at 5 (10 -> 9: prev == MA counts) */
    const double c[7] = {9, 9, 11, 12, 10, 9, 9};
    const double m[7] = {NAN, 10, 10, 10, 10, 10, 10};
    int8_t s[7];
    double a = 0.7;
    atc_cross_state(c, m, 7, s);
    CHECK_EQ_I64(0, s[0]);
    CHECK_EQ_I64(0, s[1]);
    CHECK_EQ_I64(1, s[2]);
    CHECK_EQ_I64(1, s[4]); /* 10 is not below 10 */
    CHECK_EQ_I64(-1, s[5]);
    CHECK_EQ_I64(-1, s[6]);
    /* e = (e*d)*(1+a) with a = r for p > 0, -r for p < 0, 0 for p == 0 (or NaN), floor 0.25 */
    CHECK_EQ_F64((2.0 * 0.99) * (1.0 + 0.1), atc_equity_step(2.0, 1.0, 0.1, 0.99, 0, &a));
    CHECK_EQ_F64(0.1, a);
    CHECK_EQ_F64((2.0 * 0.99) * (1.0 - 0.1), atc_equity_step(2.0, -0.5, 0.1, 0.99, 0, &a));
    CHECK_EQ_F64(2.0 * 0.99, atc_equity_step(2.0, 0.0, 0.1, 0.99, 0, &a));
    a = 0.2; /* pine_sticky_a: p == 0 keeps the previous bar's a */
    CHECK_EQ_F64((2.0 * 0.99) * (1.0 + 0.2), atc_equity_step(2.0, 0.0, 0.1, 0.99, 1, &a));
    CHECK_EQ_F64(2.0 * 0.99, atc_equity_step(2.0, NAN, 0.1, 0.99, 1, &a));
    CHECK_EQ_F64(0.25, atc_equity_step(0.26, 1.0, -0.5, 0.99, 0, &a));
    CHECK_EQ_F64(0.12, atc_round2(0.125)); /* 12.5 exactly: ties to even */
    CHECK_EQ_F64(-0.12, atc_round2(-0.125));
    CHECK_EQ_F64(1, atc_cut(0.5, 0.49, -0.49));
    CHECK_EQ_F64(0, atc_cut(0.49, 0.49, -0.49));
    CHECK_EQ_F64(-1, atc_cut(-0.5, 0.49, -0.49));
    CHECK_EQ_F64(0, atc_cut(NAN, 0.49, -0.49));
}

/* ---- layer 2 (sec. 2.7): each family's equity starts at its own weight ---------
 * Three bars, cutout 1. Family f's 9 states are all sign[f] on every bar,
 * so L1_f is sign[f] exactly and Cut(L1_f) too (|1| > 0.49). At the cutout
 * S_f = max(w_f, 0.25), the next bar max((S_f d)(1 + sign[f] r), 0.25);
 * Average = sum_f Cut * S_f / sum_f S_f in family order. */

static void layer2_average(const atc_params_t *p, const int8_t sign[ATC_FAMILIES], double avg[3])
{
    static const double open[3] = {100, 101, 103}, close[3] = {100, 101, 103}, growth[3] = {1.0, 1.0, 1.0};
    const double ret[3] = {NAN, 0.01, 0.02};
    int8_t st[ATC_FAMILIES][3];
    atc_series_t s;
    atc_state_t state;
    memset(&s, 0, sizeof s);
    memset(&state, 0, sizeof state);
    s.n = 3;
    s.open = open;
    s.close = close;
    s.ret = ret;
    s.growth = growth;
    for (int f = 0; f < ATC_FAMILIES; f++) {
        memset(st[f], sign[f], sizeof st[f]);
        for (int k = 0; k < ATC_MEMBERS; k++)
            s.state[f][k] = st[f];
    }
    for (int64_t i = 0; i < 3; i++)
        avg[i] = atc_average_step(&s, p, atc_decay(p->de), i, &state);
}

static void test_layer2_weights(void)
{
    /* ema .. kama; kama's 0.2 is floored to 0.25 as a starting equity */
    static const double w[ATC_FAMILIES] = {2.0, 0.5, 1.0, 1.5, 1.25, 0.2};
    atc_params_t p;
    const double r = 0.02 * 1.0; /* bar 2's return times its growth */
    atc_params_defaults(&p);
    p.cutout = 1;
    memcpy(p.w, w, sizeof w);
    /* one family long at a time: Average at the cutout is its share of the weights */
    for (int g = 0; g < ATC_FAMILIES; g++) {
        int8_t sign[ATC_FAMILIES] = {0, 0, 0, 0, 0, 0};
        double avg[3], num = 0.0, den = 0.0, num2 = 0.0, den2 = 0.0;
        sign[g] = 1;
        layer2_average(&p, sign, avg);
        for (int f = 0; f < ATC_FAMILIES; f++) {
            const double s1 = fmax(w[f], 0.25);
            const double s2 = fmax((s1 * atc_decay(p.de)) * (1.0 + (f == g ? r : 0.0)), 0.25);
            num += (f == g) * s1;
            den += s1;
            num2 += (f == g) * s2;
            den2 += s2;
        }
        CHECK_EQ_F64(0.0, avg[0]);
        CHECK_EQ_F64(num / den, avg[1]);
        CHECK_EQ_F64(num2 / den2, avg[2]);
    }
    /* ema long, hma short, the rest flat: (2 - 0.5) / 6.45 at the cutout */
    {
        const int8_t sign[ATC_FAMILIES] = {1, -1, 0, 0, 0, 0};
        const double d = atc_decay(p.de);
        double avg[3], s[ATC_FAMILIES], num = 0.0, den = 0.0;
        layer2_average(&p, sign, avg);
        CHECK_EQ_F64((2.0 - 0.5) / (2.0 + 0.5 + 1.0 + 1.5 + 1.25 + 0.25), avg[1]);
        for (int f = 0; f < ATC_FAMILIES; f++) {
            s[f] = fmax((fmax(w[f], 0.25) * d) * (1.0 + sign[f] * r), 0.25);
            num += sign[f] * s[f];
            den += s[f];
        }
        CHECK_EQ_F64(num / den, avg[2]);
    }
}

/* ---- the store: each (MA, length) once, shared, found without computing -------- */

static void test_store(void)
{
    bars_t b;
    atc_features_t *f;
    atc_params_t p, q;
    atc_series_t s1, s2, s3;
    ev_error err;
    uint64_t seed = 7;
    walk_bars(&b, 500, 100, &seed);
    CHECK(atc_features_create(&b, &f, &err) == EV_OK);
    atc_params_defaults(&p); /* all lengths 28, Medium: 9 lengths x 6 families, all distinct per family */
    CHECK(!atc_features_find(f, &p, &s1));
    CHECK(atc_features_series(f, &p, &s1, &err) == EV_OK);
    CHECK_EQ_I64(54 + 1, atc_features_computed(f)); /* and La's growth table */
    CHECK_EQ_I64(54 * 500 + 8 * 500, (int64_t)atc_features_bytes(f));
    q = p;
    q.len[ATC_EMA] = 29; /* members 29, 30, 31, 33, 35, 28, 27, 25, 23: 31, 33, 35, 25, 23 are new */
    CHECK(atc_features_series(f, &q, &s2, &err) == EV_OK);
    CHECK_EQ_I64(55 + 5, atc_features_computed(f));
    CHECK(s2.state[ATC_EMA][1] == s1.state[ATC_EMA][2]); /* 30: computed for 28's members, shared */
    CHECK(atc_features_find(f, &q, &s3));
    CHECK(memcmp(&s2, &s3, sizeof s2) == 0);
    CHECK_EQ_I64(2 * 55, atc_features_lookups(f));
    q.la = 0.05; /* another La: its growth table is not there yet */
    CHECK(!atc_features_find(f, &q, &s3));
    q.la = p.la;
    q.hma_as_sma = 1; /* the HMA family's states become SMA ones: not yet there */
    CHECK(!atc_features_find(f, &q, &s3));
    atc_features_clear(f);
    CHECK_EQ_I64(0, (int64_t)atc_features_bytes(f));
    CHECK(!atc_features_find(f, &p, &s3));
    CHECK(atc_features_series(f, &p, &s3, &err) == EV_OK);
    CHECK_EQ_I64(60 + 55, atc_features_computed(f)); /* computed again after a clear: counted again */
    q = p;
    q.len[ATC_WMA] = 8; /* Medium: 8 - 6 = 2 < 3 */
    CHECK(!atc_params_feasible(&q));
    CHECK(!atc_features_find(f, &q, &s3));
    CHECK(atc_features_series(f, &q, &s3, &err) == EV_EUSAGE);
    /* put and get by index: every parameter */
    for (int k = 0; atc_param_names[k]; k++) {
        const double v = k == ATC_ROBUSTNESS_PARAM ? 2 : k >= 21 ? 1 : k < 6 || k == 15 ? 17 : 0.25;
        atc_params_put(&q, k, v);
        CHECK_EQ_F64(v, atc_params_get(&q, k));
    }
    atc_features_free(f);
    bars_free(&b);
}

/* ---- the trade rule (sec. 2.8) on hand-made states ------------------------------
 * With all 54 states equal to one array st, every L1 is st exactly (num is
 * +-den, summed alike) and so is Average: the direction follows st. */

#define NT 30

static int64_t hand_trades(const int8_t *st, const double *open, const double *end, const atc_params_t *p,
                           atc_trade_t *out)
{
    static double ret[NT], close[NT], growth[NT];
    atc_series_t s;
    int64_t n;
    for (int i = 0; i < NT; i++) {
        close[i] = 100;
        ret[i] = i ? 0.0 : NAN;
        growth[i] = 1.0;
    }
    s.n = NT;
    s.open = open;
    s.close = close;
    s.ret = ret;
    s.growth = growth;
    s.session_end = end; /* read only with flat_at_close */
    for (int f = 0; f < ATC_FAMILIES; f++)
        for (int k = 0; k < ATC_MEMBERS; k++)
            s.state[f][k] = st;
    n = atc_backtest(&s, p, out, 8);
    CHECK_EQ_I64(n, atc_backtest(&s, p, NULL, 0)); /* the device's counting pass: no room, the same count */
    return n;
}

/* The hand tests' genome: every length 7, Narrow, no costs. */
static void hand_params(atc_params_t *p)
{
    atc_params_defaults(p);
    for (int f = 0; f < ATC_FAMILIES; f++)
        p->len[f] = 7;
    p->robustness = ATC_NARROW;
    p->hma_as_sma = 1; /* slowest member 11, first defined at 10: B = 11 */
    p->fee_bp = p->slippage_bp = 0;
}

static void test_trade_rule(void)
{
    int8_t st[NT];
    double open[NT];
    atc_params_t p;
    atc_trade_t t[8];
    int64_t n;
    hand_params(&p);
    CHECK_EQ_I64(11, atc_warmup_bar(&p));
    for (int i = 0; i < NT; i++) {
        open[i] = 100 + i;
        st[i] = (int8_t)(i >= 5 && i <= 8 ? 1 : i >= 15 && i <= 19 ? 1 : i >= 20 && i <= 24 ? -1 : i >= 25 ? 1 : 0);
    }
    st[NT - 1] = -1; /* a change on the last bar: ignored */
    n = hand_trades(st, open, NULL, &p, t);
    /* the cross at 5 is before B: ignored; long at 16 (cross at 15), reversed at 21, again at 26;
     * the long opened at 26 is open at the end: dropped */
    CHECK_EQ_I64(2, n);
    CHECK_EQ_I64(15, t[0].signal_bar);
    CHECK_EQ_I64(16, t[0].entry_bar);
    CHECK_EQ_I64(21, t[0].exit_bar);
    CHECK_EQ_I64(1, t[0].side);
    CHECK_EQ_I64(ATC_SIGNAL, t[0].reason);
    CHECK_EQ_F64(5, t[0].pnl); /* 121 - 116 */
    CHECK_EQ_I64(21, t[1].entry_bar);
    CHECK_EQ_I64(26, t[1].exit_bar);
    CHECK_EQ_I64(-1, t[1].side);
    CHECK_EQ_F64(-5, t[1].pnl); /* short: 121 - 126 */
    /* costs: fee = (entry + exit) * (fee_bp + slippage_bp) / 10000, pnl = gain - fee */
    p.fee_bp = 3;
    p.slippage_bp = 2;
    n = hand_trades(st, open, NULL, &p, t);
    CHECK_EQ_I64(2, n);
    CHECK_EQ_F64((121.0 - 116.0) - (116.0 + 121.0) * (3.0 + 2.0) / 10000.0, t[0].pnl);
    CHECK_EQ_F64((121.0 - 126.0) - (121.0 + 126.0) * (3.0 + 2.0) / 10000.0, t[1].pnl);
    /* already long-looking at B (crossed before it): flat until the next cross, here the short at 20 */
    for (int i = 5; i < 15; i++)
        st[i] = 1;
    n = hand_trades(st, open, NULL, &p, t);
    CHECK_EQ_I64(1, n);
    CHECK_EQ_I64(20, t[0].signal_bar);
    CHECK_EQ_I64(-1, t[0].side);
    /* a cutout past the crosses: Average is 0 before it, and B moves to cutout + 1 */
    p.cutout = 22;
    CHECK_EQ_I64(23, atc_warmup_bar(&p));
    n = hand_trades(st, open, NULL, &p, t);
    CHECK_EQ_I64(0, n); /* long at 26 (cross at 25) stays open: dropped */
}

/* strategy.session.flat_at_close on test_trade_rule's crosses, sessions
 * ending at bars 17 and 29 (the last): the long entered at 16 closes at bar
 * 17's close ("session") and stays flat until the next cross (the short at
 * 20, entered at 21, reversed at 26 as before); the long opened at 26 closes
 * at the last bar's close instead of being dropped. */
static void test_flat_at_close(void)
{
    int8_t st[NT];
    double open[NT], end[NT];
    atc_params_t p;
    atc_trade_t t[8];
    int64_t n;
    hand_params(&p);
    p.flat_at_close = 1;
    for (int i = 0; i < NT; i++) {
        open[i] = 100 + i;
        end[i] = i == 17 || i == NT - 1;
        st[i] = (int8_t)(i >= 15 && i <= 19 ? 1 : i >= 20 && i <= 24 ? -1 : i >= 25 ? 1 : 0);
    }
    n = hand_trades(st, open, end, &p, t);
    CHECK_EQ_I64(3, n);
    CHECK_EQ_I64(16, t[0].entry_bar);
    CHECK_EQ_I64(17, t[0].exit_bar);
    CHECK_EQ_I64(ATC_SESSION, t[0].reason);
    CHECK_EQ_F64(100 - 116, t[0].pnl); /* the close of bar 17 is 100 */
    CHECK_EQ_I64(21, t[1].entry_bar);
    CHECK_EQ_I64(26, t[1].exit_bar);
    CHECK_EQ_I64(-1, t[1].side);
    CHECK_EQ_I64(ATC_SIGNAL, t[1].reason);
    CHECK_EQ_I64(26, t[2].entry_bar);
    CHECK_EQ_I64(NT - 1, t[2].exit_bar);
    CHECK_EQ_I64(ATC_SESSION, t[2].reason);
    CHECK_EQ_F64(100 - 126, t[2].pnl);
    CHECK_STR("session", atc_reason_name(t[2].reason));
    p.flat_at_close = 0; /* the default: the same bars hold overnight (test_trade_rule's 2 trades) */
    CHECK_EQ_I64(2, hand_trades(st, open, end, &p, t));
}

/* ---- seed 002's growth-factor bug ---------------------------------------------- */

static uint64_t rng_state = 0x2545F4914F6CDD1DULL;

static double uniform(void)
{
    return walk_uniform(&rng_state);
}

static void make_bars(bars_t *b, int64_t n)
{
    walk_bars(b, n, 100, &rng_state);
}

enum { GROWTH_CLOSED = 0, GROWTH_RUNNING = 1, GROWTH_STRIDED = 4 };

/* Layer-1 equity of one member from docs/signals-spec.md sec. 2.5: growth GROWTH_CLOSED
 * is exp(lambda*(i - cutout)); GROWTH_RUNNING a running product over the bars
 * (one thread); GROWTH_STRIDED four threads striding over the bars, each
 * multiplying its own running product once per iteration (seed 002). */
static void oracle_equity(const bars_t *b, const int8_t *s, double lambda, double d, int32_t cutout, int growth,
                          double *e)
{
    double run[GROWTH_STRIDED] = {1, 1, 1, 1};
    for (int64_t i = cutout; i < b->n; i++) {
        double g, r, a;
        if (growth == GROWTH_CLOSED)
            g = exp(lambda * (double)(i - cutout));
        else {
            const int t = growth == GROWTH_RUNNING ? 0 : (int)((i - cutout) % GROWTH_STRIDED);
            g = run[t];
            run[t] *= exp(lambda);
        }
        if (i == cutout) {
            e[i] = 1.0;
            continue;
        }
        r = (b->close[i] - b->close[i - 1]) / b->close[i - 1] * g;
        a = s[i - 1] > 0 ? r : s[i - 1] < 0 ? -r : 0.0;
        e[i] = (e[i - 1] * d) * (1.0 + a);
        if (e[i] < 0.25)
            e[i] = 0.25;
    }
}

/* How many bars of evolve's equity of family f, member k differ from the
 * oracle's (bits). */
static int64_t equity_mismatches(const bars_t *b, atc_features_t *store, const atc_params_t *p, int f, int k,
                                 int growth)
{
    atc_series_t s;
    atc_state_t st;
    ev_error err;
    const double lambda = atc_lambda(p->la), d = atc_decay(p->de);
    double *e = (double *)malloc((size_t)b->n * sizeof(double));
    int64_t bad = 0;
    memset(&st, 0, sizeof st);
    if (atc_features_series(store, p, &s, &err) != EV_OK) {
        free(e);
        return -1;
    }
    oracle_equity(b, s.state[f][k], lambda, d, p->cutout, growth, e);
    for (int64_t i = 0; i < b->n; i++) {
        atc_average_step(&s, p, d, i, &st);
        if (i >= p->cutout && memcmp(&st.e1[f][k], &e[i], sizeof(double)) != 0)
            bad++;
    }
    free(e);
    return bad;
}

static void test_growth_factor_bug(void)
{
    bars_t b;
    atc_features_t *store;
    atc_params_t p;
    ev_error err;
    int64_t bad_closed = 0, bad_running = 0, bad_strided = 0;
    make_bars(&b, 3000);
    CHECK(atc_features_create(&b, &store, &err) == EV_OK);
    for (int g = 0; g < 6; g++) {
        atc_params_defaults(&p);
        for (int f = 0; f < ATC_FAMILIES; f++)
            p.len[f] = 10 + (int32_t)(uniform() * 40);
        p.la = (double)(1 + (int)(uniform() * 100)) / 200.0; /* 0.005 .. 0.5 (Pine's bound) */
        p.de = (double)(1 + (int)(uniform() * 25)) / 100.0;
        p.cutout = g % 2 ? 10 * (int32_t)(uniform() * 10) : 0;
        for (int f = 0; f < ATC_FAMILIES; f++)
            for (int k = 0; k < ATC_MEMBERS; k += 4) {
                bad_closed += equity_mismatches(&b, store, &p, f, k, GROWTH_CLOSED);
                bad_running += equity_mismatches(&b, store, &p, f, k, GROWTH_RUNNING);
                bad_strided += equity_mismatches(&b, store, &p, f, k, GROWTH_STRIDED);
            }
    }
    /* evolve: the closed form, bit for bit, at every bar */
    CHECK_EQ_I64(0, bad_closed);
    /* the check catches the bug: both running products disagree with evolve */
    CHECK(bad_running > 0);
    CHECK(bad_strided > 1000);
    atc_features_free(store);
    bars_free(&b);
}

int main(void)
{
    test_moving_averages();
    test_lengths_and_warmup();
    test_states_and_equity();
    test_layer2_weights();
    test_trade_rule();
    test_flat_at_close();
    test_store();
    test_growth_factor_bug();
    return check_failures ? 1 : 0;
}
