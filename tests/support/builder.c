#include "tests/support/builder.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/strutil.h"

static void *grow(void *p, size_t n, size_t size)
{
    void *q = realloc(p, (n ? n : 1) * size);
    if (!q) {
        fprintf(stderr, "test builder: out of memory\n");
        exit(2);
    }
    return q;
}

static char *dup_str(const char *s)
{
    char *d = ev_strdup(s);
    if (!d)
        exit(2);
    return d;
}

void tb_dataset(dataset_t *ds, int32_t n_tickers, const char *const *tickers, int32_t n_features,
                const char *const *features)
{
    memset(ds, 0, sizeof *ds);
    ds->n_tickers = n_tickers;
    ds->tickers = (char **)grow(NULL, (size_t)n_tickers, sizeof(char *));
    ds->ticker_begin = (int64_t *)grow(NULL, (size_t)n_tickers, sizeof(int64_t));
    ds->ticker_end = (int64_t *)grow(NULL, (size_t)n_tickers, sizeof(int64_t));
    for (int32_t i = 0; i < n_tickers; i++) {
        ds->tickers[i] = dup_str(tickers[i]);
        ds->ticker_begin[i] = ds->ticker_end[i] = 0;
    }
    ds->n_features = n_features;
    ds->feature_names = (char **)grow(NULL, (size_t)n_features, sizeof(char *));
    for (int32_t f = 0; f < n_features; f++)
        ds->feature_names[f] = dup_str(features[f]);
}

void tb_prices(dataset_t *ds, int32_t ticker, const int64_t *ts, const float *price, int64_t n)
{
    int64_t at = ds->n_prices;
    ds->price = (float *)grow(ds->price, (size_t)(at + n), sizeof(float));
    ds->ts = (int64_t *)grow(ds->ts, (size_t)(at + n), sizeof(int64_t));
    memcpy(ds->price + at, price, (size_t)n * sizeof(float));
    memcpy(ds->ts + at, ts, (size_t)n * sizeof(int64_t));
    ds->ticker_begin[ticker] = at;
    ds->ticker_end[ticker] = at + n;
    ds->n_prices = at + n;
}

void tb_trade(dataset_t *ds, int32_t ticker, int64_t entry_ts, int64_t exit_ts, double entry_price, double pct_change,
              const double *features)
{
    int64_t j = ds->n_trades, n = j + 1, s, e;
    ds->ticker = (int32_t *)grow(ds->ticker, (size_t)n, sizeof(int32_t));
    ds->trade_id = (int64_t *)grow(ds->trade_id, (size_t)n, sizeof(int64_t));
    ds->source_row = (int64_t *)grow(ds->source_row, (size_t)n, sizeof(int64_t));
    ds->entry_ts = (int64_t *)grow(ds->entry_ts, (size_t)n, sizeof(int64_t));
    ds->exit_ts = (int64_t *)grow(ds->exit_ts, (size_t)n, sizeof(int64_t));
    ds->start = (int64_t *)grow(ds->start, (size_t)n, sizeof(int64_t));
    ds->end = (int64_t *)grow(ds->end, (size_t)n, sizeof(int64_t));
    ds->entry_price = (double *)grow(ds->entry_price, (size_t)n, sizeof(double));
    ds->pct_change = (double *)grow(ds->pct_change, (size_t)n, sizeof(double));
    /* features are feature-major: re-layout on every append (tests are tiny) */
    {
        double *nf = (double *)grow(NULL, (size_t)(ds->n_features * n), sizeof(double));
        for (int32_t f = 0; f < ds->n_features; f++) {
            if (j)
                memcpy(nf + f * n, ds->features + f * j, (size_t)j * sizeof(double));
            nf[f * n + j] = features ? features[f] : 0.0;
        }
        free(ds->features);
        ds->features = nf;
    }
    for (s = ds->ticker_begin[ticker]; s < ds->ticker_end[ticker] && ds->ts[s] < entry_ts; s++)
        ;
    for (e = s; e < ds->ticker_end[ticker] && ds->ts[e] <= exit_ts; e++)
        ;
    ds->ticker[j] = ticker;
    ds->trade_id[j] = j + 1;
    ds->source_row[j] = j + 2;
    ds->entry_ts[j] = entry_ts;
    ds->exit_ts[j] = exit_ts;
    ds->start[j] = s;
    ds->end[j] = e;
    ds->entry_price[j] = entry_price;
    ds->pct_change[j] = pct_change;
    ds->n_trades = n;
}

void tb_param(lattice_t *lat, const char *name, param_role role, filter_dir dir, const char *feature,
              const double *values, uint32_t n)
{
    param_t *p;
    lat->params = (param_t *)grow(lat->params, (size_t)lat->n_params + 1, sizeof(param_t));
    p = &lat->params[lat->n_params++];
    memset(p, 0, sizeof *p);
    p->name = dup_str(name);
    p->role = role;
    p->dir = dir;
    p->feature = feature ? dup_str(feature) : NULL;
    p->n_values = n;
    p->values = (double *)grow(NULL, n, sizeof(double));
    p->value_text = (char **)grow(NULL, n, sizeof(char *));
    for (uint32_t i = 0; i < n; i++) {
        char buf[64];
        p->values[i] = values[i];
        snprintf(buf, sizeof buf, "%.17g", values[i]);
        p->value_text[i] = dup_str(buf);
    }
}

void tb_lattice_done(lattice_t *lat, const dataset_t *ds)
{
    ev_error err;
    if (lattice_finish(lat, &err) != EV_OK || lattice_bind(lat, ds, &err) != EV_OK) {
        fprintf(stderr, "test builder: bad lattice: %s\n", err.msg);
        exit(2);
    }
}

uint64_t tb_rand(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

double tb_uniform(uint64_t *state)
{
    return (double)(tb_rand(state) >> 11) * (1.0 / 9007199254740992.0);
}
