/* gen-data's model pieces in isolation: the counter RNG, the price process,
 * the indicators (golden series and a naive Wilder reference) and the trade
 * picker (windows, no overlaps, rows at entry and exit). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gendata/gen_indicators.h"
#include "gendata/gen_prices.h"
#include "gendata/gen_rng.h"
#include "gendata/gen_trades.h"
#include "tests/check.h"

#define W GEN_WARMUP_SECONDS

static void check_rng(void)
{
    const uint64_t key = gen_rng_key(1, 2, gen_rng_name_hash("SOXL"), GEN_STREAM_PATH);
    double sum = 0.0, sum_z = 0.0, sum_zz = 0.0, lo = 1.0, hi = 0.0;
    const int n = 200000;
    for (int i = 0; i < n; i++) {
        double u = gen_rng_uniform(key, (uint64_t)i), z0, z1;
        sum += u;
        lo = u < lo ? u : lo;
        hi = u > hi ? u : hi;
        gen_rng_normal2(key, (uint64_t)i, &z0, &z1);
        sum_z += z0 + z1;
        sum_zz += z0 * z0 + z1 * z1;
    }
    CHECK(lo > 0.0 && hi < 1.0);
    CHECK(fabs(sum / n - 0.5) < 0.005);
    CHECK(fabs(sum_z / (2 * n)) < 0.01);
    CHECK(fabs(sum_zz / (2 * n) - 1.0) < 0.02);
    /* A pure function of its inputs; every part of the key matters. */
    CHECK(gen_rng_u64(key, 5) == gen_rng_u64(key, 5));
    CHECK(gen_rng_key(1, 2, 3, 4) != gen_rng_key(2, 2, 3, 4));
    CHECK(gen_rng_key(1, 2, 3, 4) != gen_rng_key(1, 3, 3, 4));
    CHECK(gen_rng_key(1, 2, 3, 4) != gen_rng_key(1, 2, 4, 4));
    CHECK(gen_rng_key(1, 2, 3, 4) != gen_rng_key(1, 2, 3, 5));
    CHECK(gen_rng_name_hash("SOXL") != gen_rng_name_hash("SOXS"));
}

/* A realistic series: SOXL on day `day` of seed 3, indicators computed. */
static void make_series(gen_series_t *s, const gen_shape_t *shape, double *rel, int day)
{
    gen_profile_t p;
    double sigma[1], level = 30.0;
    uint64_t th = gen_rng_name_hash("SOXL");
    gen_profile_for("SOXL", &p);
    gen_prices_day_sigmas(&p, 3, th, 1, sigma);
    gen_prices_path(shape, sigma[0], 3, day, th, rel);
    gen_prices_tape(&p, shape, sigma[0], level, 3, day, th, rel, s->price_c, s->volume, s->present);
    gen_indicators_compute(s);
}

static void check_prices(const gen_shape_t *shape, gen_series_t *s, double *rel)
{
    double *rel2 = (double *)malloc(GEN_SERIES_SECONDS * sizeof *rel2);
    double sq = 0.0, ret, sigma[3], level[3], day_ret[3] = {0.01, -0.02, 0.0};
    gen_profile_t p;
    int missing = 0;
    for (int i = 0; i < GEN_DAY_SECONDS; i++)
        sq += shape->vol[i] * shape->vol[i];
    CHECK(fabs(sq / GEN_DAY_SECONDS - 1.0) < 1e-12);
    CHECK(shape->vol[0] > 1.5 * shape->vol[GEN_DAY_SECONDS / 2]);
    CHECK(shape->vol[GEN_DAY_SECONDS - 1] > shape->vol[GEN_DAY_SECONDS / 2]);

    gen_profile_for("NVDA", &p);
    CHECK(p.price == 480.0);
    gen_profile_for("ZZZZ", &p);
    CHECK(p.price == 50.0);
    gen_profile_for("SOXL", &p);
    gen_prices_day_sigmas(&p, 3, 77, 3, sigma);
    for (int d = 0; d < 3; d++)
        CHECK(sigma[d] > 0.2 * p.day_range / 1.75 && sigma[d] < 5.0 * p.day_range / 1.75);
    gen_prices_day_levels(&p, 3, 77, 3, sigma, day_ret, level);
    for (int d = 0; d < 3; d++)
        CHECK(level[d] > 0.8 * p.price && level[d] < 1.25 * p.price);

    /* The same arguments give the same bits; another day another path. */
    ret = gen_prices_path(shape, 0.03, 3, 5, 77, rel);
    CHECK(gen_prices_path(shape, 0.03, 3, 5, 77, rel2) == ret);
    CHECK(memcmp(rel, rel2, GEN_SERIES_SECONDS * sizeof *rel) == 0);
    CHECK(ret == rel[GEN_SERIES_SECONDS - 1] - rel[W]);
    gen_prices_path(shape, 0.03, 3, 6, 77, rel2);
    CHECK(memcmp(rel, rel2, GEN_SERIES_SECONDS * sizeof *rel) != 0);
    free(rel2);

    make_series(s, shape, rel, 0);
    CHECK_EQ_I64(3000, s->price_c[W]); /* the open is the level, to the cent */
    for (int i = 0; i < GEN_DAY_SECONDS; i++) {
        missing += !s->present[i];
        CHECK(s->volume[i] >= 1);
    }
    CHECK(missing > 0.002 * GEN_DAY_SECONDS && missing < 0.01 * GEN_DAY_SECONDS);
}

/* Fills the whole series (warm-up included) from price(i). */
static void fill_series(gen_series_t *s, int32_t (*price)(int))
{
    for (int i = 0; i < GEN_SERIES_SECONDS; i++)
        s->price_c[i] = price(i);
    for (int t = 0; t < GEN_DAY_SECONDS; t++) {
        s->volume[t] = 100;
        s->present[t] = 1;
    }
    gen_indicators_compute(s);
}

static int32_t flat(int i)
{
    (void)i;
    return 2500;
}

static int32_t ramp(int i)
{
    return 1000 + i; /* +1 cent a second */
}

static void check_golden(gen_series_t *s)
{
    gen_row_t r;
    fill_series(s, flat);
    gen_series_row(s, 100, &r);
    CHECK_EQ_I64(2500, r.price_c);
    CHECK_EQ_I64(250000, r.avg_q);
    CHECK_EQ_I64(250000, r.val_q);
    CHECK_EQ_I64(0, r.atr14_q);
    CHECK_EQ_I64(0, r.atr28_q);
    CHECK_EQ_I64(100, r.ratio_c); /* atr28 = 0: 1.00 */
    CHECK_EQ_I64(5000, r.rsi_c);  /* no gains, no losses: 50 */
    CHECK_EQ_I64(0, r.adx14_c);
    CHECK_EQ_I64(0, r.volpct_c);

    /* A steady climb: every bar spans 59 cents and opens 1 cent above the
     * last close, so TR = 60 cents, +DM = 60, -DM = 0: ADX 100, RSI 100. */
    fill_series(s, ramp);
    gen_series_row(s, 0, &r);
    CHECK_EQ_I64(1000 + W, r.price_c);
    CHECK_EQ_I64(6000, r.atr14_q);
    CHECK_EQ_I64(6000, r.atr28_q);
    CHECK_EQ_I64(100, r.ratio_c);
    CHECK_EQ_I64(10000, r.rsi_c);
    CHECK_EQ_I64(10000, r.adx28_c);
    CHECK_EQ_I64(10000, r.adx14_c);
    CHECK_EQ_I64(10000, r.adx7_c);
    /* round(0.6 / 82.00 * 100, 2) = round(0.7317..., 2) */
    CHECK_EQ_I64(73, r.volpct_c);
    /* Avg: the mean of the 300 prices up to this second, 4 decimals. */
    CHECK_EQ_I64((1000 + W) * 100 - 14950, r.avg_q); /* 8050.50 cents */
}

/* A deliberately naive Wilder ATR/RSI, compared with the rows' values. */
static void check_reference(gen_series_t *s)
{
    double atr14 = 0.0, up = 0.0, down = 0.0, prev_c = 0.0;
    int bad = 0;
    for (int b = 0; b < GEN_BARS; b++) {
        double h = -1e300, l = 1e300, c = s->price_c[60 * b + 59], tr;
        for (int k = 0; k < 60; k++) {
            h = fmax(h, s->price_c[60 * b + k]);
            l = fmin(l, s->price_c[60 * b + k]);
        }
        tr = b == 0 ? h - l : fmax(h - l, fmax(fabs(h - prev_c), fabs(l - prev_c)));
        atr14 = b < 14 ? (atr14 * b + tr) / (b + 1) : (atr14 * 13 + tr) / 14;
        if (b > 0) {
            int n = b < 14 ? b : 14;
            double g = fmax(c - prev_c, 0.0), lo = fmax(prev_c - c, 0.0);
            up = b <= 14 ? (up * (n - 1) + g) / n : (up * 13 + g) / 14;
            down = b <= 14 ? (down * (n - 1) + lo) / n : (down * 13 + lo) / 14;
        }
        prev_c = c;
        if (b >= 20) {
            double rsi = down > 0 ? 100 - 100 / (1 + up / down) : up > 0 ? 100 : 50;
            bad += llabs(s->bar[b].atr14_q - llround(atr14 * 100)) > 1;
            bad += llabs(s->bar[b].rsi_c - llround(rsi * 100)) > 1;
            bad += s->bar[b].adx14_c < 0 || s->bar[b].adx14_c > 10000;
        }
    }
    CHECK_EQ_I64(0, bad);
    /* A row carries the last completed bar: 09:30:00..09:30:59 see bar W/60 - 1. */
    for (int sec = 0; sec < 120; sec += 59) {
        gen_row_t r;
        gen_series_row(s, sec, &r);
        CHECK_EQ_I64(s->bar[(W + sec) / 60 - 1].atr14_q, r.atr14_q);
    }
}

static void check_trades_of(gen_series_t *s, int count)
{
    gen_trade_t *t = (gen_trade_t *)malloc((size_t)count * sizeof *t);
    int bad = 0;
    gen_trades_pick(s, count, 9, 0, 5, 2, t);
    for (int k = 0; k < count; k++) {
        int32_t lo = s->price_c[W + t[k].entry], hi = lo;
        for (int sec = t[k].entry; sec <= t[k].exit; sec++) {
            if (!s->present[sec])
                continue;
            lo = s->price_c[W + sec] < lo ? s->price_c[W + sec] : lo;
            hi = s->price_c[W + sec] > hi ? s->price_c[W + sec] : hi;
        }
        bad += t[k].ticker != 2 || t[k].entry < 0 || t[k].exit >= GEN_DAY_SECONDS;
        bad += !(t[k].exit > t[k].entry) || t[k].exit - t[k].entry > GEN_TRADE_MAX_HOLD;
        bad += !s->present[t[k].entry] || !s->present[t[k].exit];
        bad += k > 0 && !(t[k - 1].exit < t[k].entry); /* one position at a time */
        bad += t[k].worst_c != lo || t[k].best_c != hi;
    }
    CHECK_EQ_I64(0, bad);
    free(t);
}

static void check_trades(gen_series_t *s, const gen_shape_t *shape, double *rel)
{
    gen_trade_t two[2];
    make_series(s, shape, rel, 1);
    check_trades_of(s, 1);
    check_trades_of(s, 40);
    check_trades_of(s, GEN_TRADES_PER_TICKER_DAY_MAX);
    /* Not a single row: entries and exits are given rows. */
    memset(s->present, 0, sizeof s->present);
    check_trades_of(s, 25);
    /* Sorting: entry second first, then ticker position. */
    two[0].entry = 50;
    two[0].ticker = 3;
    two[1].entry = 50;
    two[1].ticker = 1;
    gen_trades_sort(two, 2);
    CHECK(two[0].ticker == 1 && two[1].ticker == 3);
}

int main(void)
{
    gen_shape_t *shape = (gen_shape_t *)malloc(sizeof *shape);
    gen_series_t *s = (gen_series_t *)malloc(sizeof *s);
    double *rel = (double *)malloc(GEN_SERIES_SECONDS * sizeof *rel);
    if (!shape || !s || !rel)
        return 1;
    gen_shape_init(shape);
    check_rng();
    check_prices(shape, s, rel);
    check_golden(s);
    make_series(s, shape, rel, 2);
    check_reference(s);
    check_trades(s, shape, rel);
    free(shape);
    free(s);
    free(rel);
    return check_exit();
}
