#include "io/trades_ingest.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/strutil.h"
#include "io/csv_reader.h"
#include "io/ingest_fields.h"
#include "io/timeparse.h"
#include "io/trades_internal.h"

const char *const ingest_standard_features[] = {
    "Entry Volatility Percent", "Entry Volatility Ratio",  "Entry Adx28", "Entry Adx14", "Entry Adx7",
    "Worst Exit Percent",       "Trade Best Exit Percent",
};
const int ingest_n_standard_features = (int)(sizeof ingest_standard_features / sizeof ingest_standard_features[0]);

/* Column indexes of the header; -1 for an absent optional one. */
typedef struct {
    int date, ticker, entry_price, entry_time, exit_time, pct_change;
    int trade_id;  /* optional: the data row number stands in */
    int *features; /* [n_features] */
} trade_columns_t;

static int name_listed(char **names, int32_t n, const char *name)
{
    for (int32_t i = 0; i < n; i++)
        if (strcmp(names[i], name) == 0)
            return 1;
    return 0;
}

static ev_status add_feature(trade_list_t *list, trade_columns_t *cols, const char *name, int col, ev_error *err)
{
    char *copy;
    if (name_listed(list->feature_names, list->n_features, name))
        return EV_OK; /* an extra feature that is also a standard one */
    if (!(copy = ev_strdup(name)))
        return ev_fail(err, EV_ENOMEM, "out of memory");
    list->feature_names[list->n_features] = copy;
    cols->features[list->n_features++] = col;
    return EV_OK;
}

/* Required columns, then the kept features: the standard ones present in the
 * header, then the requested extras (which must be there). */
static ev_status resolve_columns(const csv_reader_t *r, const ingest_opts_t *opts, trade_list_t *list,
                                 trade_columns_t *cols, ev_error *err)
{
    int max_features = ingest_n_standard_features + opts->n_extra_features;
    ev_status st;
    if ((st = csv_require_column(r, "Date", &cols->date, err)) != EV_OK ||
        (st = csv_require_column(r, "Ticker", &cols->ticker, err)) != EV_OK ||
        (st = csv_require_column(r, "Entry Price", &cols->entry_price, err)) != EV_OK ||
        (st = csv_require_column(r, "Entry Time", &cols->entry_time, err)) != EV_OK ||
        (st = csv_require_column(r, "Exit Time", &cols->exit_time, err)) != EV_OK ||
        (st = csv_require_column(r, "Trade Percent Change", &cols->pct_change, err)) != EV_OK)
        return st;
    if ((st = csv_optional_column(r, "Trade Id", &cols->trade_id, err)) != EV_OK)
        return st;
    cols->features = (int *)malloc((size_t)max_features * sizeof *cols->features);
    list->feature_names = (char **)calloc((size_t)max_features, sizeof *list->feature_names);
    if (!cols->features || !list->feature_names)
        return ev_fail(err, EV_ENOMEM, "out of memory");
    for (int i = 0; i < ingest_n_standard_features; i++) {
        int col;
        if ((st = csv_optional_column(r, ingest_standard_features[i], &col, err)) != EV_OK)
            return st;
        if (col >= 0 && (st = add_feature(list, cols, ingest_standard_features[i], col, err)))
            return st;
    }
    for (int32_t i = 0; i < opts->n_extra_features; i++) {
        int col;
        if ((st = csv_require_column(r, opts->extra_features[i], &col, err)) != EV_OK) {
            ev_error_prefix(err, "feature '%s' was asked for: ", opts->extra_features[i]);
            return st;
        }
        if ((st = add_feature(list, cols, opts->extra_features[i], col, err)) != EV_OK)
            return st;
    }
    return EV_OK;
}

/* Entry/Exit Time: HH:MM:SS on the row's date, or a full date and time. */
static ev_status parse_when(const csv_reader_t *r, const csv_row_t *row, int col, int64_t day, int64_t *ts,
                            ev_error *err)
{
    csv_field_t f = row->fields[col];
    int32_t secs;
    if (time_parse_clock(f.p, f.n, &secs)) {
        *ts = day * TIME_SECONDS_PER_DAY + secs;
        return EV_OK;
    }
    if (time_parse_datetime(f.p, f.n, ts))
        return EV_OK;
    return ingest_field_error(r, row, col, "a time HH:MM:SS (or a date and time YYYY-MM-DD HH:MM:SS)", err);
}

/* A number that may be missing (a drop), but never text. */
static ev_status parse_value(const csv_reader_t *r, const csv_row_t *row, int col, int32_t code, double *v,
                             trade_rec_t *rec, ev_error *err)
{
    num_result nr;
    ev_status st = ingest_field_double(r, row, col, "a number (or an empty field)", v, &nr, err);
    if (st != EV_OK)
        return st;
    if (nr == NUM_EMPTY)
        *v = (double)NAN;
    if (nr != NUM_OK && rec->bad_value == TRADE_VALUE_NONE)
        rec->bad_value = code;
    return EV_OK;
}

/* A row of a kept ticker -> rec and its features (feat[n_features]). */
static ev_status parse_row(const csv_reader_t *r, const csv_row_t *row, const trade_columns_t *c, int32_t n_features,
                           trade_rec_t *rec, double *feat, ev_error *err)
{
    csv_field_t f;
    int64_t day;
    ev_status st;
    rec->bad_value = TRADE_VALUE_NONE;
    rec->source_row = row->line;
    rec->trade_id = csv_data_rows(r);
    f = row->fields[c->date];
    if (!time_parse_date(f.p, f.n, &day))
        return ingest_field_error(r, row, c->date, "a date MM/DD/YYYY, MM-DD-YYYY or YYYY-MM-DD", err);
    if ((st = parse_when(r, row, c->entry_time, day, &rec->entry_ts, err)) != EV_OK ||
        (st = parse_when(r, row, c->exit_time, day, &rec->exit_ts, err)) != EV_OK)
        return st;
    if (c->trade_id >= 0) {
        f = row->fields[c->trade_id];
        if (num_parse_int64(f.p, f.n, &rec->trade_id) != NUM_OK)
            return ingest_field_error(r, row, c->trade_id, "an integer trade id", err);
    }
    if ((st = parse_value(r, row, c->entry_price, TRADE_VALUE_ENTRY_PRICE, &rec->entry_price, rec, err)) != EV_OK)
        return st;
    if (rec->bad_value == TRADE_VALUE_NONE && !ingest_price_ok(rec->entry_price))
        return ingest_field_error(r, row, c->entry_price, "a positive entry price " INGEST_PRICE_RANGE, err);
    if ((st = parse_value(r, row, c->pct_change, TRADE_VALUE_PCT_CHANGE, &rec->pct_change, rec, err)) != EV_OK)
        return st;
    if (fabs(rec->pct_change) > INGEST_MAX_ABS_PCT && isfinite(rec->pct_change))
        return ingest_field_error(r, row, c->pct_change,
                                  "a percent change within +-1e5 % (outcomes are summed as 64-bit "
                                  "integers of micro-percent)",
                                  err);
    for (int32_t i = 0; i < n_features; i++)
        if ((st = parse_value(r, row, c->features[i], i, &feat[i], rec, err)) != EV_OK)
            return st;
    if (rec->exit_ts < rec->entry_ts) {
        char a[32], b[32];
        time_format(rec->entry_ts, a, sizeof a);
        time_format(rec->exit_ts, b, sizeof b);
        return ev_fail(err, EV_EPARSE,
                       "%s:%lld: column '%s': the exit (%s) is before the entry (%s); expected an "
                       "exit time at or after the entry time (write an overnight exit as "
                       "YYYY-MM-DD HH:MM:SS)",
                       csv_path(r), (long long)row->line, csv_column_name(r, c->exit_time), b, a);
    }
    return EV_OK;
}

static ev_status grow_list(trade_list_t *list, ev_error *err)
{
    size_t ncap = list->cap ? list->cap * 2 : 1024;
    trade_rec_t *rec = (trade_rec_t *)realloc(list->rec, ncap * sizeof *rec);
    double *feat;
    if (rec)
        list->rec = rec;
    feat = (double *)realloc(list->feat, ncap * (size_t)(list->n_features ? list->n_features : 1) * sizeof *feat);
    if (!rec || !feat)
        return ev_fail(err, EV_ENOMEM, "%s: out of memory reading the trades", list->path);
    list->feat = feat;
    list->cap = ncap;
    return EV_OK;
}

struct trades_log {
    const ingest_opts_t *opts;
    csv_reader_t *r;
    trade_columns_t cols;
    trade_list_t list;
};

static ev_status read_log(trades_log_t *t, dataset_t *ds, ev_error *err)
{
    const ingest_opts_t *opts = t->opts;
    trade_list_t *list = &t->list;
    const csv_row_t *row;
    ev_status st;
    while ((st = csv_next(t->r, &row, err)) == EV_OK && row) {
        int id = ingest_ticker_id(row->fields[t->cols.ticker], opts->tickers, opts->n_tickers);
        if (id < 0) {
            ds->trades_other_ticker++;
            continue;
        }
        if (list->n == list->cap && (st = grow_list(list, err)) != EV_OK)
            break;
        list->rec[list->n].ticker = id;
        st = parse_row(t->r, row, &t->cols, list->n_features, &list->rec[list->n],
                       list->feat + list->n * (size_t)list->n_features, err);
        if (st != EV_OK)
            break;
        list->n++;
    }
    ds->trades_read = csv_data_rows(t->r);
    return st;
}

static ev_status check_not_empty(const ingest_opts_t *opts, const trade_list_t *list, const dataset_t *ds,
                                 ev_error *err)
{
    char names[512];
    size_t k = 0;
    if (ds->trades_read == 0)
        return ev_fail(err, EV_EDATA,
                       "%s: the trade log has no data rows; expected at least one "
                       "trade below the header",
                       list->path);
    if (list->n > 0)
        return EV_OK;
    names[0] = '\0';
    for (int32_t i = 0; i < opts->n_tickers && k + 1 < sizeof names; i++)
        k += (size_t)snprintf(names + k, sizeof names - k, "%s%s", i ? ", " : "", opts->tickers[i]);
    return ev_fail(err, EV_EDATA,
                   "%s: none of its %lld trade(s) is of the kept tickers (%s); expected rows with "
                   "those tickers in column 'Ticker' (choose them with --tickers or data.tickers)",
                   list->path, (long long)ds->trades_read, names);
}

void trades_close(trades_log_t *t)
{
    if (!t)
        return;
    if (t->list.feature_names)
        for (int32_t i = 0; i < t->list.n_features; i++)
            free(t->list.feature_names[i]);
    free(t->list.feature_names);
    free(t->list.rec);
    free(t->list.feat);
    free(t->cols.features);
    csv_close(t->r);
    free(t);
}

ev_status trades_open(const ingest_opts_t *opts, trades_log_t **out, ev_error *err)
{
    trades_log_t *t = (trades_log_t *)calloc(1, sizeof *t);
    ev_status st;
    *out = NULL;
    if (!t)
        return ev_fail(err, EV_ENOMEM, "out of memory");
    t->opts = opts;
    t->list.path = opts->trades_path;
    st = csv_open(opts->trades_path, 0, &t->r, err);
    if (st == EV_OK)
        st = resolve_columns(t->r, opts, &t->list, &t->cols, err);
    if (st != EV_OK) {
        trades_close(t);
        return st;
    }
    *out = t;
    return EV_OK;
}

ev_status trades_ingest(trades_log_t *t, const market_files_t *days, dataset_t *ds, int64_t *rows, ev_error *err)
{
    ev_status st = read_log(t, ds, err);
    *rows = csv_data_rows(t->r);
    if (st == EV_OK)
        st = check_not_empty(t->opts, &t->list, ds, err);
    if (st == EV_OK)
        st = trades_place(t->opts, days, &t->list, ds, err);
    return st;
}
