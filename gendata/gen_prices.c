#include "gendata/gen_prices.h"

#include <math.h>
#include <string.h>

#include "gendata/gen_rng.h"

/* ---- model constants (per-second units unless stated) --------------------
 * Calibrated so that the mean session high-low range of the generated cent
 * prices matches gen_profile_t.day_range (docs/gen-data.md has the figures). */

/* Mean session range divided by the open-to-close sd: sqrt(8/pi) = 1.60 for a
 * Brownian path; jumps, noise and volatility clustering widen it a little. */
#define RANGE_PER_SIGMA 1.75
/* Shares of the day's return variance: trends, jumps, diffusion (sum 1). */
#define TREND_SHARE 0.50
#define JUMPS_PER_DAY 3.0
#define JUMP_SD 0.12 /* one jump's log-size sd, in units of sigma_day */
#define DIFFUSION_SHARE (1.0 - TREND_SHARE - JUMPS_PER_DAY * JUMP_SD * JUMP_SD)
/* Trend: a per-second drift held for a minute, AR(1) from minute to minute;
 * its stationary sd is set so trends carry TREND_SHARE of the day's variance
 * (var of the day's drift sum = 3600 * n_min * sd^2 * (1 + phi) / (1 - phi)).
 * Trends are what make ADX climb and pullbacks in an uptrend pay. */
#define TREND_HALF_LIFE_MIN 15.0
/* Log-volatility: AR(1) stepped every LOGVOL_STEP s, stationary sd 0.35; a
 * jump kicks it up (volatility follows news). */
#define LOGVOL_HALF_LIFE 1200.0 /* seconds */
#define LOGVOL_STEP 10          /* seconds between its steps; divides 60 */
#define LOGVOL_SD 0.35
#define JUMP_LOGVOL_KICK 0.6
/* Microstructure noise: the written log price is the efficient one plus an
 * AR(1) deviation whose stationary variance is NOISE_VARS minutes of
 * diffusion variance. It reverts within a minute, so it widens one-minute
 * bars (the ATRs) to their real-world size relative to the daily range
 * without adding much to the daily range itself. */
#define NOISE_HALF_LIFE 10.0 /* seconds */
#define NOISE_VARS 1.5
/* Day level: volatility regime (log AR(1) from day to day), overnight gap sd
 * (units of sigma_day), pull of the log level towards the profile's price
 * per day, spread of the first day's level (log). */
#define REGIME_SD 0.15
#define REGIME_PHI 0.7
#define GAP_SD 0.35
#define LEVEL_PULL 0.01
#define START_SPREAD 0.05
/* Tape: share of (ticker, second) rows left out. */
#define MISSING_SHARE 0.005

static const struct {
    const char *name;
    gen_profile_t p;
} g_profiles[] = {
    {"SOXL", {30.0, 0.050, 60e6}},  {"IONQ", {12.0, 0.060, 15e6}},   {"MARA", {20.0, 0.070, 40e6}},
    {"NVDA", {480.0, 0.025, 45e6}}, {"TSLA", {240.0, 0.030, 110e6}}, {"AMD", {140.0, 0.025, 55e6}},
    {"TQQQ", {50.0, 0.025, 70e6}},
};

void gen_profile_for(const char *ticker, gen_profile_t *out)
{
    const gen_profile_t generic = {50.0, 0.030, 10e6};
    *out = generic;
    for (size_t i = 0; i < sizeof g_profiles / sizeof g_profiles[0]; i++)
        if (!strcmp(g_profiles[i].name, ticker))
            *out = g_profiles[i].p;
}

void gen_shape_init(gen_shape_t *shape)
{
    double sum_sq = 0.0, norm;
    for (int s = 0; s < GEN_DAY_SECONDS; s++) {
        /* Open burst decaying over ~30 min, a gentler ramp into the close. */
        double m = 1.0 + 1.2 * exp(-s / 1800.0) + 0.5 * exp(-(GEN_DAY_SECONDS - 1 - s) / 1500.0);
        shape->vol[s] = m;
        sum_sq += m * m;
    }
    norm = sqrt(sum_sq / GEN_DAY_SECONDS);
    for (int s = 0; s < GEN_DAY_SECONDS; s++)
        shape->vol[s] /= norm;
}

static double typical_sigma_day(const gen_profile_t *p)
{
    return p->day_range / RANGE_PER_SIGMA;
}

void gen_prices_day_sigmas(const gen_profile_t *p, uint64_t seed, uint64_t ticker_hash, int days, double *sigma_day)
{
    const double innov = REGIME_SD * sqrt(1.0 - REGIME_PHI * REGIME_PHI);
    double g = 0.0;
    for (int d = 0; d < days; d++) {
        double z = gen_rng_normal(gen_rng_key(seed, (uint64_t)d, ticker_hash, GEN_STREAM_DAILY), 0);
        g = d == 0 ? REGIME_SD * z : REGIME_PHI * g + innov * z;
        /* exp(g - sd^2/2) has mean 1: the regime varies sigma, not its level. */
        sigma_day[d] = typical_sigma_day(p) * exp(g - 0.5 * REGIME_SD * REGIME_SD);
    }
}

double gen_prices_path(const gen_shape_t *shape, double sigma_day, uint64_t seed, int day, uint64_t ticker_hash,
                       double *rel)
{
    const uint64_t kpath = gen_rng_key(seed, (uint64_t)day, ticker_hash, GEN_STREAM_PATH);
    const uint64_t kjump = gen_rng_key(seed, (uint64_t)day, ticker_hash, GEN_STREAM_JUMP);
    const uint64_t kslow = gen_rng_key(seed, (uint64_t)day, ticker_hash, GEN_STREAM_SLOW);
    const double sigma_sec = sigma_day * sqrt(DIFFUSION_SHARE / GEN_DAY_SECONDS);
    /* Log-volatility steps every LOGVOL_STEP seconds (it moves on a scale of
     * minutes), so its exp() is not paid every second. */
    const double h_phi = exp(-log(2.0) * LOGVOL_STEP / LOGVOL_HALF_LIFE);
    const double h_innov = LOGVOL_SD * sqrt(1.0 - h_phi * h_phi);
    const double h_var = LOGVOL_SD * LOGVOL_SD;
    const double m_phi = exp(-log(2.0) / TREND_HALF_LIFE_MIN);
    const double m_sd =
        sigma_day * sqrt(TREND_SHARE * (1.0 - m_phi) / (3600.0 * (GEN_DAY_SECONDS / 60) * (1.0 + m_phi)));
    const double m_innov = m_sd * sqrt(1.0 - m_phi * m_phi);
    const double jump_p = JUMPS_PER_DAY / GEN_DAY_SECONDS;
    const double jump_sd = JUMP_SD * sigma_day;
    const double u_phi = exp(-log(2.0) / NOISE_HALF_LIFE);
    const double u_gain = sqrt(NOISE_VARS * 60.0 * (1.0 - u_phi * u_phi)); /* x the second's sd */
    double h, mu, z_ret, z_noise, z_h, z_mu, x = 0.0, u = 0.0, vol = 0.0;

    /* Slow-stream pair 0 starts both slow states at their stationary laws;
     * pair 1 + i / LOGVOL_STEP gives the log-volatility shock of the step
     * starting at second i and, at whole minutes, the drift shock (the drift
     * half of other pairs goes unused). */
    gen_rng_normal2(kslow, 0, &h, &mu);
    h *= LOGVOL_SD;
    mu *= m_sd;
    for (int i = 0; i < GEN_SERIES_SECONDS; i++) {
        double shape_vol = i < GEN_WARMUP_SECONDS ? 1.0 : shape->vol[i - GEN_WARMUP_SECONDS];
        double sd;
        if (i % LOGVOL_STEP == 0) {
            gen_rng_normal2(kslow, 1 + (uint64_t)(i / LOGVOL_STEP), &z_h, &z_mu);
            if (i > 0)
                h = h_phi * h + h_innov * z_h;
            if (i > 0 && i % 60 == 0)
                mu = m_phi * mu + m_innov * z_mu;
            vol = sigma_sec * exp(h - h_var); /* mean square sigma_sec^2 */
        }
        sd = vol * shape_vol;
        /* Second i: path pair i (return, noise); jump draw 4i decides a
         * jump, jump pair 2i + 1 (draws 4i+2, 4i+3) sizes it. */
        gen_rng_normal2(kpath, (uint64_t)i, &z_ret, &z_noise);
        x += mu + sd * z_ret - 0.5 * sd * sd;
        u = u_phi * u + u_gain * sd * z_noise;
        if (gen_rng_uniform(kjump, 4 * (uint64_t)i) < jump_p) {
            x += jump_sd * gen_rng_normal(kjump, 2 * (uint64_t)i + 1);
            h += JUMP_LOGVOL_KICK;
            vol = sigma_sec * exp(h - h_var);
        }
        rel[i] = x + u;
    }
    return rel[GEN_SERIES_SECONDS - 1] - rel[GEN_WARMUP_SECONDS];
}

void gen_prices_day_levels(const gen_profile_t *p, uint64_t seed, uint64_t ticker_hash, int days,
                           const double *sigma_day, const double *day_return, double *open_level)
{
    const double log_home = log(p->price);
    for (int d = 0; d < days; d++) {
        uint64_t key = gen_rng_key(seed, (uint64_t)d, ticker_hash, GEN_STREAM_DAILY);
        double z = gen_rng_normal(key, 1);
        if (d == 0) {
            open_level[0] = p->price * exp(START_SPREAD * z);
        } else {
            double log_close = log(open_level[d - 1]) + day_return[d - 1];
            double gap = -LEVEL_PULL * (log_close - log_home) + GAP_SD * sigma_day[d] * z;
            open_level[d] = exp(log_close + gap);
        }
    }
}

void gen_prices_tape(const gen_profile_t *p, const gen_shape_t *shape, double sigma_day, double open_level,
                     uint64_t seed, int day, uint64_t ticker_hash, const double *rel, int32_t *price_c, int32_t *volume,
                     uint8_t *present)
{
    const uint64_t ktape = gen_rng_key(seed, (uint64_t)day, ticker_hash, GEN_STREAM_TAPE);
    const double cents_open = open_level * 100.0;
    const double rel_open = rel[GEN_WARMUP_SECONDS];
    const double sigma_sec = sigma_day / sqrt((double)GEN_DAY_SECONDS);
    const double vol_per_sec = p->day_volume / GEN_DAY_SECONDS;

    for (int i = 0; i < GEN_SERIES_SECONDS; i++) {
        long long c = llround(cents_open * exp(rel[i] - rel_open));
        price_c[i] = (int32_t)(c < 1 ? 1 : c > INT32_MAX ? INT32_MAX : c);
    }
    for (int s = 0; s < GEN_DAY_SECONDS; s++) {
        int i = GEN_WARMUP_SECONDS + s;
        /* Volume follows the intraday curve and the size of the move, with
         * exponential noise (draw 2s); draw 2s+1 decides a missing row. */
        double move = fabs(rel[i] - rel[i - 1]) / (sigma_sec * shape->vol[s]);
        double activity = 0.5 + 0.5 * (move < 4.0 ? move : 4.0);
        double v = vol_per_sec * shape->vol[s] * activity * -log(gen_rng_uniform(ktape, 2 * (uint64_t)s));
        volume[s] = v < 1.0 ? 1 : v > 1e9 ? 1000000000 : (int32_t)llround(v);
        present[s] = gen_rng_uniform(ktape, 2 * (uint64_t)s + 1) >= MISSING_SHARE;
    }
}
