#include "signals/bars.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "common/platform.h"
#include "common/shortest.h"
#include "fitness/validation.h"
#include "io/csv_reader.h"
#include "io/ingest_fields.h"
#include "io/market_ingest.h"
#include "io/numparse.h"
#include "io/timeparse.h"

#define QUOTE_MAX 40

void bars_free(bars_t *b)
{
    free(b->ts);
    free(b->open);
    free(b->high);
    free(b->low);
    free(b->close);
    free(b->volume);
    memset(b, 0, sizeof *b);
}

static ev_status bars_reserve(bars_t *b, int64_t *cap, int64_t need, ev_error *err)
{
    int64_t c = *cap ? *cap : 1024;
    if (need <= *cap)
        return EV_OK;
    while (c < need)
        c *= 2;
#define GROW(f)                                                                             \
    do {                                                                                    \
        void *p_ = realloc(b->f, (size_t)c * sizeof *b->f);                                 \
        if (!p_)                                                                            \
            return ev_fail(err, EV_ENOMEM, "out of memory for %lld bars", (long long)need); \
        b->f = p_;                                                                          \
    } while (0)
    GROW(ts);
    GROW(open);
    GROW(high);
    GROW(low);
    GROW(close);
    GROW(volume);
#undef GROW
    *cap = c;
    return EV_OK;
}

/* ---- timestamps ------------------------------------------------------------ */

/* Epoch seconds (digits, optional '-') or an ISO-8601 date[-time][Z]. */
static int parse_bar_time(csv_field_t f, int64_t *ts, int *epoch)
{
    const char *s;
    size_t n;
    int digits = 1;
    f = csv_trim(f);
    s = f.p;
    n = f.n;
    if (n == 0)
        return 0;
    for (size_t i = (s[0] == '-' ? 1 : 0); i < n; i++)
        if (s[i] < '0' || s[i] > '9')
            digits = 0;
    if (digits && n > (s[0] == '-' ? 1u : 0u)) {
        if (num_parse_int64(s, n, ts) != NUM_OK)
            return 0;
        /* within +-1e11 s (years -1200..5100): the day arithmetic stays exact */
        if (*ts > 100000000000LL || *ts < -100000000000LL)
            return 0;
        *epoch = 1;
        return 1;
    }
    *epoch = 0;
    if (s[n - 1] == 'Z')
        n--;
    if (memchr(s, ' ', n) || memchr(s, 'T', n))
        return time_parse_datetime(s, n, ts);
    {
        int64_t days;
        if (!time_parse_date(s, n, &days))
            return 0;
        *ts = days * TIME_SECONDS_PER_DAY;
        return 1;
    }
}

void bars_format_time(const bars_t *b, int64_t i, char *buf, size_t n)
{
    if (b->ts_epoch)
        snprintf(buf, n, "%lld", (long long)b->ts[i]);
    else
        time_format(b->ts[i], buf, n);
}

/* ---- a bars CSV ------------------------------------------------------------ */

static int field_is(csv_field_t f, const char *s)
{
    f = csv_trim(f);
    return strlen(s) == f.n && memcmp(s, f.p, f.n) == 0;
}

static ev_status read_number(const csv_reader_t *r, const csv_row_t *row, int col, int positive, double *v,
                             ev_error *err)
{
    num_result res;
    ev_status st = ingest_field_double(r, row, col, positive ? "a positive number" : "a number >= 0", v, &res, err);
    if (st != EV_OK)
        return st;
    if (res != NUM_OK || !(positive ? *v > 0 : *v >= 0) || !isfinite(*v))
        return ingest_field_error(r, row, col, positive ? "a positive number" : "a number >= 0", err);
    return EV_OK;
}

ev_status bars_read_csv(const char *path, const char *symbol, bars_t *out, ev_error *err)
{
    csv_reader_t *r = NULL;
    const csv_row_t *row;
    int c_ts, c_o, c_h, c_l, c_c, c_v, c_sym = -1;
    int64_t cap = 0;
    char first_symbol[128] = "";
    int64_t first_symbol_line = 0;
    ev_status st;
    memset(out, 0, sizeof *out);
    if ((st = csv_open(path, 0, &r, err)) != EV_OK)
        return st;
    if ((st = csv_require_column(r, "timestamp", &c_ts, err)) != EV_OK ||
        (st = csv_require_column(r, "open", &c_o, err)) != EV_OK ||
        (st = csv_require_column(r, "high", &c_h, err)) != EV_OK ||
        (st = csv_require_column(r, "low", &c_l, err)) != EV_OK ||
        (st = csv_require_column(r, "close", &c_c, err)) != EV_OK ||
        (st = csv_require_column(r, "volume", &c_v, err)) != EV_OK ||
        (st = csv_optional_column(r, "symbol", &c_sym, err)) != EV_OK)
        goto fail;
    if (symbol && c_sym < 0) {
        st = ev_fail(err, EV_EDATA, "%s: symbol '%s' asked for, but the file has no 'symbol' column", path, symbol);
        goto fail;
    }
    while ((st = csv_next(r, &row, err)) == EV_OK && row) {
        int64_t ts;
        int epoch;
        double o, h, l, c, v;
        int64_t i = out->n;
        if (c_sym >= 0) {
            csv_field_t f = csv_trim(row->fields[c_sym]);
            if (symbol) {
                if (!field_is(f, symbol))
                    continue;
            } else if (!first_symbol_line) {
                if (f.n == 0 || f.n >= sizeof first_symbol) {
                    st = ingest_field_error(r, row, c_sym, "a symbol (1 to 127 characters)", err);
                    goto fail;
                }
                memcpy(first_symbol, f.p, f.n);
                first_symbol[f.n] = '\0';
                first_symbol_line = row->line;
            } else if (!field_is(f, first_symbol)) {
                char shown[4 * QUOTE_MAX + 4];
                st = ev_fail(err, EV_EDATA,
                             "%s:%lld: column 'symbol': a second symbol '%s' (line %lld has '%s'); the file holds "
                             "several symbols: choose one (bars: {csv: FILE, symbol: NAME} or --symbol)",
                             path, (long long)row->line, csv_quote(f, QUOTE_MAX, shown), (long long)first_symbol_line,
                             first_symbol);
                goto fail;
            }
        }
        if (!parse_bar_time(row->fields[c_ts], &ts, &epoch)) {
            st = ingest_field_error(r, row, c_ts,
                                    "epoch seconds or an ISO-8601 date-time (YYYY-MM-DD, YYYY-MM-DDTHH:MM:SS[Z] or "
                                    "YYYY-MM-DD HH:MM:SS)",
                                    err);
            goto fail;
        }
        if (i == 0)
            out->ts_epoch = epoch;
        else if (ts <= out->ts[i - 1]) {
            char prev[32];
            bars_format_time(out, i - 1, prev, sizeof prev);
            st = ingest_field_error(r, row, c_ts,
                                    "a time after the previous bar's (bars must be in time order, "
                                    "one per time)",
                                    err);
            ev_error_prefix(err, "previous bar at %s: ", prev);
            goto fail;
        }
        if ((st = read_number(r, row, c_o, 1, &o, err)) != EV_OK ||
            (st = read_number(r, row, c_h, 1, &h, err)) != EV_OK ||
            (st = read_number(r, row, c_l, 1, &l, err)) != EV_OK ||
            (st = read_number(r, row, c_c, 1, &c, err)) != EV_OK ||
            (st = read_number(r, row, c_v, 0, &v, err)) != EV_OK)
            goto fail;
        if (l > o || l > c || l > h) {
            st = ingest_field_error(r, row, c_l, "a low at most the bar's open, close and high", err);
            goto fail;
        }
        if (h < o || h < c) {
            st = ingest_field_error(r, row, c_h, "a high at least the bar's open and close", err);
            goto fail;
        }
        if ((st = bars_reserve(out, &cap, i + 1, err)) != EV_OK)
            goto fail;
        out->ts[i] = ts;
        out->open[i] = o;
        out->high[i] = h;
        out->low[i] = l;
        out->close[i] = c;
        out->volume[i] = v;
        out->n = i + 1;
    }
    if (st != EV_OK)
        goto fail;
    if (out->n == 0) {
        if (symbol)
            st = ev_fail(err, EV_EDATA, "%s: no bar of symbol '%s'", path, symbol);
        else
            st = ev_fail(err, EV_EDATA, "%s: no bar (expected rows after the header)", path);
        goto fail;
    }
    snprintf(out->symbol, sizeof out->symbol, "%s", symbol ? symbol : first_symbol);
    csv_close(r);
    return EV_OK;
fail:
    csv_close(r);
    bars_free(out);
    return st;
}

/* ---- bars from the market files ----------------------------------------- */

int32_t bars_parse_timeframe(const char *text)
{
    char *end;
    long v;
    int64_t mul = 1;
    if (!text || !*text || *text < '0' || *text > '9')
        return 0;
    v = strtol(text, &end, 10);
    if (!strcmp(end, "s") || !*end)
        mul = 1;
    else if (!strcmp(end, "m"))
        mul = 60;
    else if (!strcmp(end, "h"))
        mul = 3600;
    else if (!strcmp(end, "d"))
        mul = 86400;
    else
        return 0;
    if (v <= 0 || v > 86400 || (int64_t)v * mul > 86400 || 86400 % ((int64_t)v * mul) != 0)
        return 0;
    return (int32_t)(v * mul);
}

typedef struct {
    int64_t ts;
    double price, volume;
    int64_t order; /* file order, for a stable sort */
} tick_t;

static int cmp_tick(const void *a, const void *b)
{
    const tick_t *x = (const tick_t *)a, *y = (const tick_t *)b;
    if (x->ts != y->ts)
        return x->ts < y->ts ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

/* One market file's rows of the ticker, sorted by time; a second given twice keeps the last row. */
static ev_status read_market_day(const market_file_t *file, const char *ticker, tick_t **ticks, int64_t *n,
                                 ev_error *err)
{
    csv_reader_t *r = NULL;
    const csv_row_t *row;
    int c_t, c_p, c_v, c_time;
    int64_t cap = 0, k = 0;
    ev_status st;
    *ticks = NULL;
    *n = 0;
    if ((st = csv_open(file->path, 0, &r, err)) != EV_OK)
        return st;
    if ((st = csv_require_column(r, "Ticker", &c_t, err)) != EV_OK ||
        (st = csv_require_column(r, "Price", &c_p, err)) != EV_OK ||
        (st = csv_require_column(r, "Volume", &c_v, err)) != EV_OK ||
        (st = csv_require_column(r, "Time", &c_time, err)) != EV_OK)
        goto done;
    while ((st = csv_next(r, &row, err)) == EV_OK && row) {
        tick_t t;
        int32_t secs;
        csv_field_t tf = row->fields[c_time];
        if (!field_is(row->fields[c_t], ticker))
            continue;
        if (!time_parse_clock(tf.p, tf.n, &secs)) {
            st = ingest_field_error(r, row, c_time, "a time HH:MM:SS", err);
            goto done;
        }
        if ((st = read_number(r, row, c_p, 1, &t.price, err)) != EV_OK ||
            (st = read_number(r, row, c_v, 0, &t.volume, err)) != EV_OK)
            goto done;
        t.ts = file->day * TIME_SECONDS_PER_DAY + secs;
        t.order = k;
        if (k == cap) {
            int64_t c2 = cap ? 2 * cap : 4096;
            tick_t *p = (tick_t *)realloc(*ticks, (size_t)c2 * sizeof *p);
            if (!p) {
                st = ev_fail(err, EV_ENOMEM, "out of memory reading %s", file->path);
                goto done;
            }
            *ticks = p;
            cap = c2;
        }
        (*ticks)[k++] = t;
    }
    if (st != EV_OK)
        goto done;
    if (k > 1) {
        int64_t m = 0;
        qsort(*ticks, (size_t)k, sizeof **ticks, cmp_tick);
        for (int64_t i = 0; i < k; i++) {
            if (m > 0 && (*ticks)[m - 1].ts == (*ticks)[i].ts)
                (*ticks)[m - 1] = (*ticks)[i]; /* the last row of a second wins */
            else
                (*ticks)[m++] = (*ticks)[i];
        }
        k = m;
    }
    *n = k;
done:
    csv_close(r);
    if (st != EV_OK) {
        free(*ticks);
        *ticks = NULL;
    }
    return st;
}

ev_status bars_from_market(const char *dir, const char *ticker, int32_t tf, bars_t *out, ev_error *err)
{
    market_files_t files;
    int64_t cap = 0;
    ev_status st;
    memset(out, 0, sizeof *out);
    if (tf <= 0 || TIME_SECONDS_PER_DAY % tf != 0)
        return ev_fail(err, EV_EUSAGE, "timeframe of %d s: expected a divisor of a day (1 s to 1 d)", (int)tf);
    if ((st = market_list_files(dir, &files, err)) != EV_OK)
        return st;
    for (size_t f = 0; f < files.n && st == EV_OK; f++) {
        tick_t *ticks;
        int64_t n;
        if ((st = read_market_day(&files.files[f], ticker, &ticks, &n, err)) != EV_OK)
            break;
        for (int64_t i = 0; i < n; i++) {
            const int64_t start = ticks[i].ts - ((ticks[i].ts % tf) + tf) % tf; /* floor to the timeframe */
            int64_t b = out->n - 1;
            if (b < 0 || out->ts[b] != start) {
                if ((st = bars_reserve(out, &cap, out->n + 1, err)) != EV_OK)
                    break;
                b = out->n++;
                out->ts[b] = start;
                out->open[b] = out->high[b] = out->low[b] = out->close[b] = ticks[i].price;
                out->volume[b] = ticks[i].volume;
            } else {
                const double p = ticks[i].price;
                if (p > out->high[b])
                    out->high[b] = p;
                if (p < out->low[b])
                    out->low[b] = p;
                out->close[b] = p;
                out->volume[b] += ticks[i].volume; /* summed oldest to newest */
            }
        }
        free(ticks);
    }
    if (st == EV_OK && out->n == 0)
        st = ev_fail(err, EV_EDATA, "%s: no row of ticker '%s' in any market file", dir, ticker);
    snprintf(out->symbol, sizeof out->symbol, "%s", ticker);
    market_files_free(&files);
    if (st != EV_OK)
        bars_free(out);
    return st;
}

/* ---- writing ------------------------------------------------------------- */

/* ",SYMBOL", quoted ("" for a quote) when it holds a comma, quote or line end. */
static void put_symbol(FILE *f, const char *s)
{
    if (!strpbrk(s, ",\"\r\n")) {
        fprintf(f, ",%s", s);
        return;
    }
    fputs(",\"", f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

ev_status bars_write_csv(const bars_t *b, const char *path, ev_error *err)
{
    char *tmp = plat_temp_name(path);
    FILE *f;
    if (!tmp)
        return ev_fail(err, EV_ENOMEM, "out of memory");
    f = fopen(tmp, "wb");
    if (!f) {
        free(tmp);
        return ev_fail(err, EV_EIO, "%s: cannot create the bars file", path);
    }
    fputs(b->symbol[0] ? BARS_CSV_HEADER_SYMBOL : BARS_CSV_HEADER, f);
    for (int64_t i = 0; i < b->n; i++) {
        const double v[] = {b->open[i], b->high[i], b->low[i], b->close[i], b->volume[i]};
        char t[32], num[EV_SHORTEST_MAX];
        bars_format_time(b, i, t, sizeof t);
        fputs(t, f);
        for (int k = 0; k < 5; k++)
            fprintf(f, ",%s", ev_shortest(num, sizeof num, v[k]));
        if (b->symbol[0])
            put_symbol(f, b->symbol);
        fputc('\n', f);
    }
    if (plat_fclose_written(f) != 0) {
        plat_remove(tmp);
        free(tmp);
        return ev_fail(err, EV_EIO, "%s: cannot write the bars file (disk full?)", path);
    }
    {
        const ev_status st = plat_rename_replace(tmp, path, err);
        if (st != EV_OK)
            plat_remove(tmp);
        free(tmp);
        return st;
    }
}

double *bars_session_ends(const bars_t *b)
{
    double *e = (double *)malloc((size_t)(b->n > 0 ? b->n : 1) * sizeof *e);
    for (int64_t i = 0; e && i < b->n; i++)
        e[i] = i + 1 == b->n || val_day_of(b->ts[i]) != val_day_of(b->ts[i + 1]) ? 1.0 : 0.0;
    return e;
}

uint64_t bars_fingerprint(const bars_t *b)
{
    const size_t n = (size_t)b->n;
    XXH64_state_t *h = XXH64_createState();
    uint64_t out = 0;
    if (!h)
        return 0;
    XXH64_reset(h, 0);
    XXH64_update(h, b->ts, n * sizeof *b->ts);
    XXH64_update(h, b->open, n * sizeof(double));
    XXH64_update(h, b->high, n * sizeof(double));
    XXH64_update(h, b->low, n * sizeof(double));
    XXH64_update(h, b->close, n * sizeof(double));
    XXH64_update(h, b->volume, n * sizeof(double));
    out = XXH64_digest(h);
    XXH64_freeState(h);
    return out;
}
