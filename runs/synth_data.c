#include "runs/synth_data.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/strutil.h"

#define TICKERS 3
#define SESSION 23400 /* seconds from 9:30 to 16:00 */
#define FEATURES 5

static const char *const tickers[TICKERS] = {"SOXL", "IONQ", "MARA"};
static const char *const features[FEATURES] = {"Entry Volatility Percent", "Entry Volatility Ratio", "Entry Adx28",
                                               "Entry Adx14", "Entry Adx7"};

static uint64_t rnd(uint64_t *s) /* SplitMix64 */
{
    uint64_t z = (*s += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

static double unif(uint64_t *s) /* [0, 1) */
{
    return (double)(rnd(s) >> 11) * (1.0 / 9007199254740992.0);
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* One price a second, a random walk rounded to cents. */
static void fill_prices(dataset_t *ds, int32_t days, uint64_t *s)
{
    for (int32_t k = 0; k < TICKERS; k++) {
        double p = 20.0 + 40.0 * unif(s);
        int64_t at = (int64_t)k * days * SESSION;
        ds->ticker_begin[k] = at;
        ds->ticker_end[k] = at + (int64_t)days * SESSION;
        for (int32_t d = 0; d < days; d++)
            for (int32_t i = 0; i < SESSION; i++, at++) {
                p *= 1.0 + 0.0008 * (unif(s) - 0.5);
                ds->price[at] = (float)(round(p * 100.0) / 100.0);
                ds->ts[at] = INT64_C(1514764800) + (int64_t)d * 86400 + 34200 + i;
            }
    }
}

/* A trade of ticker k entering at session second `entry` (of all days). */
static void fill_trade(dataset_t *ds, int64_t j, int32_t k, int64_t entry, uint64_t *s)
{
    int64_t sec = entry % SESSION, n = ds->n_trades;
    int64_t hold = 60 + (int64_t)(rnd(s) % 7140), left = SESSION - 1 - sec;
    ds->ticker[j] = k;
    ds->trade_id[j] = j + 1;
    ds->source_row[j] = j + 2;
    ds->start[j] = ds->ticker_begin[k] + entry;
    ds->end[j] = ds->start[j] + 1 + (hold < left ? hold : left);
    ds->entry_ts[j] = ds->ts[ds->start[j]];
    ds->exit_ts[j] = ds->ts[ds->end[j] - 1];
    ds->entry_price[j] = (double)ds->price[ds->start[j]] * (1.0 + 0.0004 * (unif(s) - 0.5));
    ds->pct_change[j] = round((3.0 * unif(s) - 1.4) * 1e4) / 1e4;
    ds->features[0 * n + j] = round(120.0 * unif(s)) / 100.0; /* volatility percent 0..1.2 */
    ds->features[1 * n + j] = round(110.0 * unif(s)) / 100.0; /* volatility ratio 0..1.1 */
    for (int f = 2; f < FEATURES; f++)
        ds->features[f * n + j] = round(50.0 + 550.0 * unif(s)) / 10.0; /* adx 5..60 */
}

ev_status synth_dataset(dataset_t *ds, int64_t trades, int32_t days, uint64_t seed, ev_error *err)
{
    uint64_t s = seed;
    int64_t n_prices = (int64_t)TICKERS * days * SESSION, j = 0, *entries = NULL;
    memset(ds, 0, sizeof *ds);
    if (trades < 1 || days < 1)
        return ev_fail(err, EV_EUSAGE, "--synthetic: trades and days must be >= 1");
    ds->n_tickers = TICKERS;
    ds->tickers = (char **)calloc(TICKERS, sizeof(char *));
    ds->ticker_begin = (int64_t *)calloc(TICKERS, sizeof(int64_t));
    ds->ticker_end = (int64_t *)calloc(TICKERS, sizeof(int64_t));
    ds->n_prices = n_prices;
    ds->price = (float *)malloc((size_t)n_prices * sizeof(float));
    ds->ts = (int64_t *)malloc((size_t)n_prices * sizeof(int64_t));
    ds->n_trades = trades;
    ds->ticker = (int32_t *)malloc((size_t)trades * sizeof(int32_t));
    ds->trade_id = (int64_t *)malloc((size_t)trades * sizeof(int64_t));
    ds->source_row = (int64_t *)malloc((size_t)trades * sizeof(int64_t));
    ds->entry_ts = (int64_t *)malloc((size_t)trades * sizeof(int64_t));
    ds->exit_ts = (int64_t *)malloc((size_t)trades * sizeof(int64_t));
    ds->start = (int64_t *)malloc((size_t)trades * sizeof(int64_t));
    ds->end = (int64_t *)malloc((size_t)trades * sizeof(int64_t));
    ds->entry_price = (double *)malloc((size_t)trades * sizeof(double));
    ds->pct_change = (double *)malloc((size_t)trades * sizeof(double));
    ds->n_features = FEATURES;
    ds->feature_names = (char **)calloc(FEATURES, sizeof(char *));
    ds->features = (double *)malloc((size_t)(FEATURES * trades) * sizeof(double));
    entries = (int64_t *)malloc((size_t)trades * sizeof(int64_t));
    if (!ds->tickers || !ds->ticker_begin || !ds->ticker_end || !ds->price || !ds->ts || !ds->ticker || !ds->trade_id ||
        !ds->source_row || !ds->entry_ts || !ds->exit_ts || !ds->start || !ds->end || !ds->entry_price ||
        !ds->pct_change || !ds->feature_names || !ds->features || !entries)
        goto oom;
    for (int k = 0; k < TICKERS; k++)
        if (!(ds->tickers[k] = ev_strdup(tickers[k])))
            goto oom;
    for (int f = 0; f < FEATURES; f++)
        if (!(ds->feature_names[f] = ev_strdup(features[f])))
            goto oom;
    fill_prices(ds, days, &s);
    /* dataset order: ticker, then entry time */
    for (int32_t k = 0; k < TICKERS; k++) {
        int64_t nk = trades / TICKERS + (k < trades % TICKERS);
        for (int64_t i = 0; i < nk; i++)
            entries[i] = (int64_t)(rnd(&s) % (uint64_t)((int64_t)days * SESSION - 60));
        qsort(entries, (size_t)nk, sizeof *entries, cmp_i64);
        for (int64_t i = 0; i < nk; i++, j++)
            fill_trade(ds, j, k, entries[i], &s);
    }
    free(entries);
    return EV_OK;
oom:
    free(entries);
    dataset_free(ds);
    return ev_fail(err, EV_ENOMEM, "out of memory for a synthetic dataset of %lld trades over %d days",
                   (long long)trades, days);
}

/* Appends a parameter whose values are the decimal texts given, parsed as a
 * config's would be (SPEC sec. 3: the doubles nearest the decimals). */
static int add_param(lattice_t *lat, const char *name, param_role role, const char *feature, const char *const *texts,
                     uint32_t n)
{
    param_t *p;
    param_t *grown = (param_t *)realloc(lat->params, ((size_t)lat->n_params + 1) * sizeof *grown);
    if (!grown)
        return -1;
    lat->params = grown;
    p = &lat->params[lat->n_params++];
    memset(p, 0, sizeof *p);
    p->role = role;
    p->dir = FILTER_MIN;
    p->name = ev_strdup(name);
    p->feature = feature ? ev_strdup(feature) : NULL;
    p->n_values = n;
    p->values = (double *)calloc(n, sizeof(double));
    p->value_text = (char **)calloc(n, sizeof(char *));
    if (!p->name || (feature && !p->feature) || !p->values || !p->value_text)
        return -1;
    for (uint32_t i = 0; i < n; i++) {
        p->values[i] = strtod(texts[i], NULL);
        if (!(p->value_text[i] = ev_strdup(texts[i])))
            return -1;
    }
    return 0;
}

/* A range parameter: value i is the decimal (first + i * step) / 10^dec,
 * written out as text first, as a config range is. */
typedef struct {
    int64_t first, step;
    uint32_t n;
    int dec;
} axis_t;

static int add_range(lattice_t *lat, const char *name, param_role role, const char *feature, const axis_t *a)
{
    char(*buf)[32] = (char(*)[32])calloc(a->n, sizeof *buf);
    const char **texts = (const char **)calloc(a->n, sizeof *texts);
    int64_t scale = 1;
    int rc = -1;
    for (int d = 0; d < a->dec; d++)
        scale *= 10;
    if (buf && texts) {
        for (uint32_t i = 0; i < a->n; i++) {
            int64_t v = a->first + (int64_t)i * a->step, m = v < 0 ? -v : v;
            if (a->dec)
                snprintf(buf[i], sizeof buf[i], "%s%lld.%0*lld", v < 0 ? "-" : "", (long long)(m / scale), a->dec,
                         (long long)(m % scale));
            else
                snprintf(buf[i], sizeof buf[i], "%lld", (long long)v);
            texts[i] = buf[i];
        }
        rc = add_param(lat, name, role, feature, texts, a->n);
    }
    free(buf);
    free(texts);
    return rc;
}

/* SPEC sec. 4.1's three exits, 6 values each (bench/exits_grid.sh's): 216
 * combinations of them per (target, stop) pair. */
static int add_exits(lattice_t *lat)
{
    static const char *const trail[] = {"0.1", "0.15", "0.2", "0.25", "0.3", "0.4"};
    static const char *const breakeven[] = {"0.05", "0.1", "0.15", "0.2", "0.3", "0.4"};
    static const char *const hold[] = {"60", "120", "300", "600", "900", "1800"};
    int rc = add_param(lat, "trail", PARAM_TRAIL, NULL, trail, 6);
    rc |= add_param(lat, "breakeven", PARAM_BREAKEVEN, NULL, breakeven, 6);
    return rc | add_param(lat, "max_hold", PARAM_MAX_HOLD, NULL, hold, 6);
}

static int build(lattice_t *lat, const char *full)
{
    char name[32];
    const char *plus = strchr(full, '+');
    int exits = plus && !strcmp(plus, "+x");
    if (plus && !exits)
        return 1;
    snprintf(name, sizeof name, "%.*s", (int)(plus ? plus - full : (ptrdiff_t)strlen(full)), full);
    static const char *const seed_vol[] = {"0", "0.3", "0.4", "0.5", "0.6"};
    static const char *const seed_ratio[] = {"0", "0.2", "0.5", "0.7", "0.8", "0.9", "1"};
    static const char *const seed_adx[] = {"0", "20", "30"};
    static const char *const names[5] = {"volatility", "ratio", "adx28", "adx14", "adx7"};
    static const axis_t big[2][5] = {
        {{0, 2, 30, 2}, {0, 2, 30, 2}, {0, 2, 22, 0}, {0, 2, 22, 0}, {0, 2, 22, 0}},  /* 1e8 */
        {{0, 2, 40, 2}, {0, 2, 40, 2}, {0, 1, 40, 0}, {0, 1, 40, 0}, {0, 1, 40, 0}}}; /* 1.2e9 */
    static const axis_t target = {2, 1, 4, 1}, stop = {-5, 1, 3, 1};                  /* .2 .3 .4 .5 / -.5 -.4 -.3 */
    int which = !strcmp(name, "1e8") ? 0 : !strcmp(name, "1.2e9") ? 1 : -1, rc = 0;
    if (!strcmp(name, "seed")) {
        rc |= add_param(lat, names[0], PARAM_FILTER, features[0], seed_vol, 5);
        rc |= add_param(lat, names[1], PARAM_FILTER, features[1], seed_ratio, 7);
        for (int f = 2; f < 5; f++)
            rc |= add_param(lat, names[f], PARAM_FILTER, features[f], seed_adx, 3);
    } else if (which >= 0) {
        for (int f = 0; f < 5; f++)
            rc |= add_range(lat, names[f], PARAM_FILTER, features[f], &big[which][f]);
    } else {
        return 1;
    }
    rc |= add_range(lat, "target", PARAM_TARGET, NULL, &target);
    rc |= add_range(lat, "stop", PARAM_STOP, NULL, &stop);
    if (exits)
        rc |= add_exits(lat);
    return rc ? -1 : 0;
}

ev_status synth_lattice(lattice_t *lat, const char *name, const dataset_t *ds, ev_error *err)
{
    int rc;
    ev_status st;
    memset(lat, 0, sizeof *lat);
    rc = build(lat, name);
    if (rc > 0)
        return ev_fail(err, EV_EUSAGE,
                       "--lattice: unknown lattice '%s' (expected seed, 1e8 or 1.2e9, each optionally with +x)", name);
    if (rc < 0) {
        lattice_free(lat);
        return ev_fail(err, EV_ENOMEM, "out of memory building lattice '%s'", name);
    }
    st = lattice_finish(lat, err);
    if (st == EV_OK)
        st = lattice_bind(lat, ds, err);
    if (st != EV_OK)
        lattice_free(lat);
    return st;
}
