/* Shared by the libFuzzer harnesses of tests/fuzz (README.md there).
 *
 * Each harness writes its input to files in a private temporary directory,
 * runs one of evolve's readers on them and aborts (so libFuzzer reports a
 * crash and saves the input) when
 *   - a function fails without a message, with a message that is not one
 *     readable line of text, or with EV_EINTERNAL (a bug by definition);
 *   - an accepted dataset, config or run file breaks SPEC sec. 1-3 or the
 *     promises of the reader's header;
 * and, through the build flags, on any ASan/UBSan/LeakSanitizer report. */
#ifndef EVOLVE_FUZZ_COMMON_H
#define EVOLVE_FUZZ_COMMON_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/platform.h"
#include "common/status.h"
#include "fitness/dataset.h"
#include "io/ingest.h"
#include "io/ingest_fields.h"
#include "io/timeparse.h"

/* An invariant that does not hold: print it and abort. */
#define FZ_ASSERT(cond, ...)                                                                             \
    do {                                                                                                 \
        if (!(cond)) {                                                                                   \
            fprintf(stderr, "\nfuzz: invariant broken at %s:%d: %s\nfuzz: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                                                \
            fputc('\n', stderr);                                                                         \
            abort();                                                                                     \
        }                                                                                                \
    } while (0)

/* Separates the files of one input (market days, then the trade log). */
#define FZ_FILE_MARK "\n@@file@@\n"

/* The process's own directory under $TMPDIR (or /tmp), made on first use and
 * emptied at exit (every harness writes fixed names into it). */
static char fz_dir_path[512];

static inline void fz_remove_tree(const char *dir)
{
    char **names;
    size_t n;
    ev_error err;
    if (plat_list_dir(dir, &names, &n, &err) != EV_OK)
        return;
    for (size_t i = 0; i < n; i++) {
        char *p = plat_path_join(dir, names[i]);
        plat_stat_t st;
        if (p && plat_stat(p, &st) == 0 && st.is_dir)
            fz_remove_tree(p);
        else if (p)
            plat_remove(p);
        free(p);
    }
    plat_free_names(names, n);
    rmdir(dir);
}

static inline void fz_cleanup(void)
{
    if (fz_dir_path[0])
        fz_remove_tree(fz_dir_path);
}

static inline const char *fz_dir(void)
{
    if (!fz_dir_path[0]) {
        const char *t = getenv("TMPDIR");
        snprintf(fz_dir_path, sizeof fz_dir_path, "%s/evolve-fuzz-XXXXXX", t && t[0] ? t : "/tmp");
        if (!mkdtemp(fz_dir_path)) {
            perror("fuzz: mkdtemp");
            abort();
        }
        atexit(fz_cleanup);
    }
    return fz_dir_path;
}

/* fz_dir()/name, in a static buffer per slot (0..7). */
static inline const char *fz_path(int slot, const char *name)
{
    static char buf[8][640];
    snprintf(buf[slot & 7], sizeof buf[0], "%s/%s", fz_dir(), name);
    return buf[slot & 7];
}

static inline void fz_write(const char *path, const uint8_t *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f || (n && fwrite(data, 1, n, f) != n) || fclose(f) != 0) {
        perror(path);
        abort();
    }
}

static inline void fz_mkdir(const char *path)
{
    ev_error err;
    if (plat_mkdirs(path, &err) != EV_OK) {
        fprintf(stderr, "fuzz: %s\n", err.msg);
        abort();
    }
}

/* Splits data at FZ_FILE_MARK into at most max parts; returns the count. */
static inline size_t fz_split(const uint8_t *data, size_t size, const uint8_t **part, size_t *len, size_t max)
{
    size_t n = 0, ml = strlen(FZ_FILE_MARK);
    const uint8_t *p = data, *end = data + size;
    while (n + 1 < max) {
        const uint8_t *m = NULL;
        for (const uint8_t *q = p; q + ml <= end; q++)
            if (*q == '\n' && memcmp(q, FZ_FILE_MARK, ml) == 0) {
                m = q;
                break;
            }
        if (!m)
            break;
        part[n] = p;
        len[n++] = (size_t)(m - p);
        p = m + ml;
    }
    part[n] = p;
    len[n++] = (size_t)(end - p);
    return n;
}

/* 1 when s is valid UTF-8 without control characters other than tab and
 * newline: a message shows no raw bytes of a broken file. */
static inline int fz_clean_text(const char *s)
{
    const unsigned char *u = (const unsigned char *)s;
    while (*u) {
        unsigned c = *u, k;
        if (c < 0x80) {
            if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f)
                return 0;
            u++;
            continue;
        }
        k = c >= 0xf0 && c <= 0xf4 ? 3 : c >= 0xe0 ? 2 : c >= 0xc2 && c < 0xe0 ? 1 : 0;
        if (!k || c > 0xf4)
            return 0;
        for (unsigned i = 1; i <= k; i++)
            if ((u[i] & 0xc0) != 0x80)
                return 0;
        u += k + 1;
    }
    return 1;
}

static inline void fz_err_reset(ev_error *err)
{
    memset(err, 0, sizeof *err);
}

/* The status convention of common/status.h: a failure carries a complete,
 * readable message; EV_EINTERNAL is a bug. */
static inline void fz_check_status(ev_status st, const ev_error *err, const char *what)
{
    if (st == EV_OK)
        return;
    FZ_ASSERT(st > EV_OK && st <= EV_EINTERNAL, "%s: status %d is not an ev_status", what, (int)st);
    FZ_ASSERT(st != EV_EINTERNAL, "%s: internal error: %s", what, err->msg);
    FZ_ASSERT(memchr(err->msg, 0, sizeof err->msg) != NULL, "%s: message not terminated", what);
    FZ_ASSERT(err->msg[0] != '\0', "%s: status %d (%s) without a message", what, (int)st, ev_status_str(st));
    FZ_ASSERT(fz_clean_text(err->msg), "%s: message with raw bytes: %s", what, err->msg);
}

/* ---- SPEC sec. 2 invariants of a dataset ---------------------------------- */

static inline int fz_has_day(const int64_t *days, size_t n_days, int64_t day)
{
    for (size_t i = 0; i < n_days; i++)
        if (days[i] == day)
            return 1;
    return 0;
}

static inline int64_t fz_floor_day(int64_t ts)
{
    int64_t d = ts / TIME_SECONDS_PER_DAY;
    return ts % TIME_SECONDS_PER_DAY < 0 ? d - 1 : d;
}

/* The market half: every kept ticker has prices, in [begin, end) ranges that
 * tile [0, n_prices) in ticker order; prices positive finite float32;
 * timestamps strictly increasing per ticker (after dedup) and on a day that
 * has a market file (days: NULL to skip that check). */
static inline void fz_check_market(const dataset_t *ds, int32_t n_tickers, const int64_t *days, size_t n_days)
{
    int64_t k = 0;
    FZ_ASSERT(ds->n_prices >= n_tickers, "n_prices %lld < %d tickers", (long long)ds->n_prices, (int)n_tickers);
    for (int32_t t = 0; t < n_tickers; t++) {
        FZ_ASSERT(ds->ticker_begin[t] == k, "ticker %d begins at %lld, expected %lld", (int)t,
                  (long long)ds->ticker_begin[t], (long long)k);
        FZ_ASSERT(ds->ticker_end[t] > ds->ticker_begin[t], "ticker %d has no price", (int)t);
        k = ds->ticker_end[t];
        for (int64_t i = ds->ticker_begin[t]; i < ds->ticker_end[t]; i++) {
            FZ_ASSERT(isfinite(ds->price[i]) && ds->price[i] > 0 && ingest_price_ok((double)ds->price[i]),
                      "price[%lld] = %g", (long long)i, (double)ds->price[i]);
            FZ_ASSERT(i == ds->ticker_begin[t] || ds->ts[i] > ds->ts[i - 1],
                      "ticker %d: ts[%lld] = %lld not after ts[%lld] = %lld", (int)t, (long long)i,
                      (long long)ds->ts[i], (long long)(i - 1), (long long)ds->ts[i - 1]);
            FZ_ASSERT(!days || fz_has_day(days, n_days, fz_floor_day(ds->ts[i])), "ts[%lld] = %lld on no market day",
                      (long long)i, (long long)ds->ts[i]);
        }
    }
    FZ_ASSERT(k == ds->n_prices, "ticker ranges cover %lld of %lld prices", (long long)k, (long long)ds->n_prices);
    FZ_ASSERT(ds->market_rows_read >= ds->n_prices + ds->market_duplicates,
              "%lld market rows read, %lld prices kept and %lld duplicates", (long long)ds->market_rows_read,
              (long long)ds->n_prices, (long long)ds->market_duplicates);
}

/* First index in ts[lo, hi) with ts >= key (upper 0) or ts > key (upper 1), by a plain scan. */
static inline int64_t fz_scan(const int64_t *ts, int64_t lo, int64_t hi, int64_t key, int upper)
{
    while (lo < hi && (ts[lo] < key || (upper && ts[lo] == key)))
        lo++;
    return lo;
}

/* The trade half (SPEC sec. 2) and the counts. */
static inline void fz_check_trades(const dataset_t *ds, const int64_t *days, size_t n_days)
{
    int64_t dropped = 0;
    FZ_ASSERT(ds->n_trades >= 1, "accepted with %lld trades", (long long)ds->n_trades);
    FZ_ASSERT(ds->n_features >= 0 && (ds->n_features == 0 || ds->feature_names), "%d features", (int)ds->n_features);
    for (int32_t f = 0; f < ds->n_features; f++)
        FZ_ASSERT(ds->feature_names[f] && ds->feature_names[f][0], "feature %d has no name", (int)f);
    for (int64_t j = 0; j < ds->n_trades; j++) {
        int32_t k = ds->ticker[j];
        int64_t b, e;
        FZ_ASSERT(k >= 0 && k < ds->n_tickers, "trade %lld: ticker id %d", (long long)j, (int)k);
        b = ds->ticker_begin[k];
        e = ds->ticker_end[k];
        FZ_ASSERT(ds->entry_ts[j] <= ds->exit_ts[j], "trade %lld: exit before entry", (long long)j);
        FZ_ASSERT(!days || fz_has_day(days, n_days, fz_floor_day(ds->entry_ts[j])),
                  "trade %lld: entry %lld on a day without a market file", (long long)j, (long long)ds->entry_ts[j]);
        FZ_ASSERT(ds->start[j] == fz_scan(ds->ts, b, e, ds->entry_ts[j], 0), "trade %lld: start %lld", (long long)j,
                  (long long)ds->start[j]);
        FZ_ASSERT(ds->end[j] == fz_scan(ds->ts, b, e, ds->exit_ts[j], 1), "trade %lld: end %lld", (long long)j,
                  (long long)ds->end[j]);
        FZ_ASSERT(ds->start[j] < ds->end[j], "trade %lld: empty path [%lld, %lld)", (long long)j,
                  (long long)ds->start[j], (long long)ds->end[j]);
        FZ_ASSERT(isfinite(ds->entry_price[j]) && ingest_price_ok(ds->entry_price[j]), "trade %lld: entry price %g",
                  (long long)j, ds->entry_price[j]);
        FZ_ASSERT(isfinite(ds->pct_change[j]) && fabs(ds->pct_change[j]) <= INGEST_MAX_ABS_PCT,
                  "trade %lld: percent change %g", (long long)j, ds->pct_change[j]);
        for (int64_t i = ds->start[j]; i < ds->end[j]; i++)
            FZ_ASSERT(((double)ds->price[i] / ds->entry_price[j] - 1.0) * 100.0 <= INGEST_MAX_ABS_PCT,
                      "trade %lld: the path moves beyond 1e5 %%", (long long)j);
        for (int32_t f = 0; f < ds->n_features; f++)
            FZ_ASSERT(isfinite(ds->features[(size_t)f * (size_t)ds->n_trades + (size_t)j]),
                      "trade %lld: feature %s not finite", (long long)j, ds->feature_names[f]);
        if (j > 0) {
            int order = ds->ticker[j - 1] < k ||
                        (ds->ticker[j - 1] == k &&
                         (ds->entry_ts[j - 1] < ds->entry_ts[j] ||
                          (ds->entry_ts[j - 1] == ds->entry_ts[j] && ds->source_row[j - 1] < ds->source_row[j])));
            FZ_ASSERT(order, "trades %lld and %lld out of dataset order", (long long)(j - 1), (long long)j);
        }
    }
    for (int r = 0; r < DROP_REASON_COUNT; r++) {
        FZ_ASSERT(ds->drops[r] >= 0, "drops[%d] = %lld", r, (long long)ds->drops[r]);
        dropped += ds->drops[r];
    }
    FZ_ASSERT(ds->n_trades + dropped + ds->trades_other_ticker == ds->trades_read,
              "%lld kept + %lld dropped + %lld of other tickers != %lld rows read", (long long)ds->n_trades,
              (long long)dropped, (long long)ds->trades_other_ticker, (long long)ds->trades_read);
}

/* A whole dataset from ingest: market, trades, provenance, hash. */
static inline void fz_check_dataset(const dataset_t *ds, int32_t n_tickers, const int64_t *days, size_t n_days)
{
    int64_t market_rows = 0, trade_rows = -1;
    FZ_ASSERT(ds->n_tickers == n_tickers, "%d tickers, expected %d", (int)ds->n_tickers, (int)n_tickers);
    fz_check_market(ds, n_tickers, days, n_days);
    fz_check_trades(ds, days, n_days);
    FZ_ASSERT(ds->n_sources == (int32_t)n_days + 1, "%d sources for %zu market files and a log", (int)ds->n_sources,
              n_days);
    for (int32_t i = 0; i < ds->n_sources; i++) {
        if (strcmp(ds->sources[i].kind, "market") == 0)
            market_rows += ds->sources[i].rows;
        else if (strcmp(ds->sources[i].kind, "trades") == 0)
            trade_rows = ds->sources[i].rows;
        else
            FZ_ASSERT(0, "source %d of kind '%s'", (int)i, ds->sources[i].kind);
    }
    FZ_ASSERT(market_rows == ds->market_rows_read, "market sources list %lld rows, market_rows_read %lld",
              (long long)market_rows, (long long)ds->market_rows_read);
    FZ_ASSERT(trade_rows == ds->trades_read, "the trades source lists %lld rows, trades_read %lld",
              (long long)trade_rows, (long long)ds->trades_read);
    FZ_ASSERT(ds->content_hash == dataset_content_hash(ds), "content hash does not match the arrays");
}

/* Two datasets hold the same arrays and counts (a write and read back). */
static inline void fz_check_same(const dataset_t *a, const dataset_t *b)
{
    FZ_ASSERT(a->n_tickers == b->n_tickers && a->n_prices == b->n_prices && a->n_trades == b->n_trades &&
                  a->n_features == b->n_features && a->n_sources == b->n_sources,
              "sizes differ after a round trip");
    FZ_ASSERT(dataset_content_hash(a) == dataset_content_hash(b) && a->content_hash == b->content_hash,
              "arrays differ after a round trip");
    FZ_ASSERT(memcmp(a->drops, b->drops, sizeof a->drops) == 0 && a->trades_read == b->trades_read &&
                  a->trades_other_ticker == b->trades_other_ticker && a->market_rows_read == b->market_rows_read &&
                  a->market_duplicates == b->market_duplicates &&
                  a->market_files_unsorted == b->market_files_unsorted && a->input_fingerprint == b->input_fingerprint,
              "counts differ after a round trip");
    for (int32_t t = 0; t < a->n_tickers; t++)
        FZ_ASSERT(strcmp(a->tickers[t], b->tickers[t]) == 0, "ticker %d differs", (int)t);
    for (int32_t f = 0; f < a->n_features; f++)
        FZ_ASSERT(strcmp(a->feature_names[f], b->feature_names[f]) == 0, "feature %d differs", (int)f);
    for (int32_t i = 0; i < a->n_sources; i++)
        FZ_ASSERT(strcmp(a->sources[i].path, b->sources[i].path) == 0 &&
                      strcmp(a->sources[i].kind, b->sources[i].kind) == 0 && a->sources[i].rows == b->sources[i].rows,
                  "source %d differs", (int)i);
}

#endif
