#include "fitness/dataset.h"

#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

const char *drop_reason_name(drop_reason r)
{
    switch (r) {
    case DROP_NO_MARKET_DAY: return "no_market_day";
    case DROP_EMPTY_PATH: return "empty_path";
    case DROP_NON_FINITE: return "non_finite";
    case DROP_REASON_COUNT: break;
    }
    return "unknown";
}

static void free_strings(char **s, int32_t n)
{
    if (!s)
        return;
    for (int32_t i = 0; i < n; i++)
        free(s[i]);
    free(s);
}

void dataset_free(dataset_t *ds)
{
    if (!ds)
        return;
    free_strings(ds->tickers, ds->n_tickers);
    free(ds->price);
    free(ds->ts);
    free(ds->ticker_begin);
    free(ds->ticker_end);
    free(ds->ticker);
    free(ds->trade_id);
    free(ds->source_row);
    free(ds->entry_ts);
    free(ds->exit_ts);
    free(ds->start);
    free(ds->end);
    free(ds->entry_price);
    free(ds->pct_change);
    free_strings(ds->feature_names, ds->n_features);
    free(ds->features);
    for (int32_t i = 0; i < ds->n_sources; i++) {
        free(ds->sources[i].path);
        free(ds->sources[i].kind);
    }
    free(ds->sources);
    free(ds->tool_version);
    free(ds->created_utc);
    memset(ds, 0, sizeof *ds);
}

int dataset_feature_index(const dataset_t *ds, const char *name)
{
    for (int32_t f = 0; f < ds->n_features; f++)
        if (strcmp(ds->feature_names[f], name) == 0)
            return f;
    return -1;
}

static void hash_bytes(XXH64_state_t *h, const void *p, size_t n)
{
    if (n)
        XXH64_update(h, p, n);
}

uint64_t dataset_content_hash(const dataset_t *ds)
{
    XXH64_state_t *h = XXH64_createState();
    size_t np = (size_t)ds->n_prices, nt = (size_t)ds->n_trades, nk = (size_t)ds->n_tickers;
    uint64_t out;
    if (!h)
        return 0;
    XXH64_reset(h, 0);
    for (int32_t i = 0; i < ds->n_tickers; i++)
        hash_bytes(h, ds->tickers[i], strlen(ds->tickers[i]) + 1);
    hash_bytes(h, ds->price, np * sizeof *ds->price);
    hash_bytes(h, ds->ts, np * sizeof *ds->ts);
    hash_bytes(h, ds->ticker_begin, nk * sizeof *ds->ticker_begin);
    hash_bytes(h, ds->ticker_end, nk * sizeof *ds->ticker_end);
    hash_bytes(h, ds->ticker, nt * sizeof *ds->ticker);
    hash_bytes(h, ds->entry_ts, nt * sizeof *ds->entry_ts);
    hash_bytes(h, ds->exit_ts, nt * sizeof *ds->exit_ts);
    hash_bytes(h, ds->start, nt * sizeof *ds->start);
    hash_bytes(h, ds->end, nt * sizeof *ds->end);
    hash_bytes(h, ds->entry_price, nt * sizeof *ds->entry_price);
    hash_bytes(h, ds->pct_change, nt * sizeof *ds->pct_change);
    for (int32_t f = 0; f < ds->n_features; f++)
        hash_bytes(h, ds->feature_names[f], strlen(ds->feature_names[f]) + 1);
    hash_bytes(h, ds->features, (size_t)ds->n_features * nt * sizeof *ds->features);
    out = XXH64_digest(h);
    XXH64_freeState(h);
    return out;
}
