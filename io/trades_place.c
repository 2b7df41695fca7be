/* Drops, price paths and trade order (SPEC sec. 2). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/stable_sort.h"
#include "io/timeparse.h"
#include "io/trades_internal.h"

/* A trade that survived the drops. */
typedef struct {
    size_t rec;         /* index into the list, i.e. file order */
    int64_t start, end; /* price path [start, end) */
} kept_t;

/* First index in ts[lo, hi) with ts >= key (upper = 0) or ts > key (upper = 1). */
static int64_t search_ts(const int64_t *ts, int64_t lo, int64_t hi, int64_t key, int upper)
{
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (ts[mid] < key || (upper && ts[mid] == key))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static int64_t floor_day(int64_t ts)
{
    int64_t d = ts / TIME_SECONDS_PER_DAY;
    return ts % TIME_SECONDS_PER_DAY < 0 ? d - 1 : d;
}

/* The drop reason of a trade (checked in SPEC order), or -1 when kept; the
 * path of a kept trade in *k. */
static int classify(const trade_rec_t *t, const market_files_t *days, const dataset_t *ds, kept_t *k)
{
    if (t->bad_value != TRADE_VALUE_NONE)
        return DROP_NON_FINITE;
    if (!market_files_has_day(days, floor_day(t->entry_ts)))
        return DROP_NO_MARKET_DAY;
    k->start = search_ts(ds->ts, ds->ticker_begin[t->ticker], ds->ticker_end[t->ticker], t->entry_ts, 0);
    k->end = search_ts(ds->ts, ds->ticker_begin[t->ticker], ds->ticker_end[t->ticker], t->exit_ts, 1);
    return k->start >= k->end ? DROP_EMPTY_PATH : -1;
}

/* The highest price of a kept trade's path as a move from its entry, in
 * percent (what `fill: price` records at a target hit there) must stay
 * within INGEST_MAX_ABS_PCT; prices are positive, so the lowest is > -100 %. */
static ev_status check_path_move(const trade_list_t *list, const dataset_t *ds, const trade_rec_t *t, const kept_t *k,
                                 ev_error *err)
{
    float hi = 0;
    double move;
    for (int64_t i = k->start; i < k->end; i++)
        hi = ds->price[i] > hi ? ds->price[i] : hi;
    move = ((double)hi / t->entry_price - 1.0) * 100.0; /* as tables.h computes it */
    if (move <= INGEST_MAX_ABS_PCT)
        return EV_OK;
    return ev_fail(err, EV_EDATA,
                   "%s:%lld: column 'Entry Price': the %s price reaches %g during the trade, "
                   "%.4g %% above the entry price %g; expected moves within +-1e5 %% (outcomes "
                   "are summed as 64-bit integers of micro-percent; is the entry price in the "
                   "market's unit?)",
                   list->path, (long long)t->source_row, ds->tickers[t->ticker], (double)hi, move, t->entry_price);
}

/* Why a trade was dropped, in words: "Entry Adx7 is empty, NaN or inf", ... */
static void describe_drop(const trade_list_t *list, const dataset_t *ds, const trade_rec_t *t, int reason, char *buf,
                          size_t n)
{
    char a[32], b[32];
    int64_t y;
    int m, d;
    time_format(t->entry_ts, a, sizeof a);
    time_format(t->exit_ts, b, sizeof b);
    if (reason == DROP_NON_FINITE) {
        const char *col = t->bad_value == TRADE_VALUE_ENTRY_PRICE  ? "Entry Price"
                          : t->bad_value == TRADE_VALUE_PCT_CHANGE ? "Trade Percent Change"
                                                                   : list->feature_names[t->bad_value];
        snprintf(buf, n, "column '%s' is empty, NaN or inf", col);
    } else if (reason == DROP_NO_MARKET_DAY) {
        time_civil_from_days(floor_day(t->entry_ts), &y, &m, &d);
        snprintf(buf, n, "no market file for its entry day (Raw_Market_data_%02d-%02d-%04lld.csv)", m, d, (long long)y);
    } else {
        snprintf(buf, n, "no %s price from its entry %s to its exit %s", ds->tickers[t->ticker], a, b);
    }
}

static int cmp_kept(const void *a, const void *b, void *ctx)
{
    const trade_rec_t *rec = (const trade_rec_t *)ctx;
    const trade_rec_t *x = &rec[((const kept_t *)a)->rec], *y = &rec[((const kept_t *)b)->rec];
    if (x->ticker != y->ticker)
        return x->ticker < y->ticker ? -1 : 1;
    return (x->entry_ts > y->entry_ts) - (x->entry_ts < y->entry_ts);
}

static ev_status alloc_trades(dataset_t *ds, size_t n, int32_t n_features, ev_error *err)
{
    size_t m = n ? n : 1;
    ds->ticker = (int32_t *)malloc(m * sizeof *ds->ticker);
    ds->trade_id = (int64_t *)malloc(m * sizeof *ds->trade_id);
    ds->source_row = (int64_t *)malloc(m * sizeof *ds->source_row);
    ds->entry_ts = (int64_t *)malloc(m * sizeof *ds->entry_ts);
    ds->exit_ts = (int64_t *)malloc(m * sizeof *ds->exit_ts);
    ds->start = (int64_t *)malloc(m * sizeof *ds->start);
    ds->end = (int64_t *)malloc(m * sizeof *ds->end);
    ds->entry_price = (double *)malloc(m * sizeof *ds->entry_price);
    ds->pct_change = (double *)malloc(m * sizeof *ds->pct_change);
    ds->features = (double *)malloc(m * (size_t)(n_features ? n_features : 1) * sizeof *ds->features);
    if (!ds->ticker || !ds->trade_id || !ds->source_row || !ds->entry_ts || !ds->exit_ts || !ds->start || !ds->end ||
        !ds->entry_price || !ds->pct_change || !ds->features)
        return ev_fail(err, EV_ENOMEM, "out of memory for %zu trades", n);
    return EV_OK;
}

/* Kept trades in dataset order -> ds; features become feature-major. */
static ev_status fill_trades(trade_list_t *list, const kept_t *kept, size_t n, dataset_t *ds, ev_error *err)
{
    int32_t nf = list->n_features;
    ev_status st = alloc_trades(ds, n, nf, err);
    if (st != EV_OK)
        return st;
    for (size_t j = 0; j < n; j++) {
        const trade_rec_t *t = &list->rec[kept[j].rec];
        ds->ticker[j] = t->ticker;
        ds->trade_id[j] = t->trade_id;
        ds->source_row[j] = t->source_row;
        ds->entry_ts[j] = t->entry_ts;
        ds->exit_ts[j] = t->exit_ts;
        ds->start[j] = kept[j].start;
        ds->end[j] = kept[j].end;
        ds->entry_price[j] = t->entry_price;
        ds->pct_change[j] = t->pct_change;
        for (int32_t f = 0; f < nf; f++)
            ds->features[(size_t)f * n + j] = list->feat[kept[j].rec * (size_t)nf + (size_t)f];
    }
    ds->n_trades = (int64_t)n;
    ds->n_features = nf;
    ds->feature_names = list->feature_names;
    list->feature_names = NULL;
    return EV_OK;
}

static ev_status all_dropped(const trade_list_t *list, const dataset_t *ds, ev_error *err)
{
    return ev_fail(err, EV_EDATA,
                   "%s: all %zu trade(s) of the kept tickers were dropped (no_market_day %lld, "
                   "empty_path %lld, non_finite %lld); expected at least one trade with market "
                   "prices during it and finite values",
                   list->path, list->n, (long long)ds->drops[DROP_NO_MARKET_DAY], (long long)ds->drops[DROP_EMPTY_PATH],
                   (long long)ds->drops[DROP_NON_FINITE]);
}

ev_status trades_place(const ingest_opts_t *opts, const market_files_t *days, trade_list_t *list, dataset_t *ds,
                       ev_error *err)
{
    kept_t *kept = (kept_t *)malloc((list->n ? list->n : 1) * sizeof *kept);
    size_t n = 0;
    ev_status st = EV_OK;
    char why[256];
    if (!kept)
        return ev_fail(err, EV_ENOMEM, "out of memory for %zu trades", list->n);
    for (int r = 0; r < DROP_REASON_COUNT; r++)
        ds->drops[r] = 0;
    for (size_t i = 0; i < list->n && st == EV_OK; i++) {
        const trade_rec_t *t = &list->rec[i];
        int reason = classify(t, days, ds, &kept[n]);
        if (reason < 0) {
            st = check_path_move(list, ds, t, &kept[n], err);
            kept[n++].rec = i;
            continue;
        }
        describe_drop(list, ds, t, reason, why, sizeof why);
        if (opts->strict)
            st = ev_fail(err, EV_EDATA,
                         "%s:%lld: trade dropped (%s): %s; with --strict (data.strict) "
                         "every drop is an error",
                         list->path, (long long)t->source_row, drop_reason_name((drop_reason)reason), why);
        else if (opts->log && ds->drops[reason] == 0)
            fprintf(opts->log, "note: %s:%lld: trade dropped (%s): %s (the first of its kind)\n", list->path,
                    (long long)t->source_row, drop_reason_name((drop_reason)reason), why);
        ds->drops[reason]++;
    }
    if (st == EV_OK && n == 0)
        st = all_dropped(list, ds, err);
    if (st == EV_OK && n > INGEST_MAX_TRADES)
        st = ev_fail(err, EV_EDATA,
                     "%s: %zu trades kept; expected at most %d (their outcomes are "
                     "summed as 64-bit integers of micro-percent)",
                     list->path, n, INGEST_MAX_TRADES);
    if (st == EV_OK)
        st = stable_sort(kept, n, sizeof *kept, cmp_kept, list->rec, err);
    if (st == EV_OK)
        st = fill_trades(list, kept, n, ds, err);
    free(kept);
    return st;
}
