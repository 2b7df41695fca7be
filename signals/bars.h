/* OHLCV bars for the signal strategies: read from a bars CSV, or built from
 * the trader's market CSVs at a timeframe. The rules are in docs/signals.md. */
#ifndef EVOLVE_SIGNALS_BARS_H
#define EVOLVE_SIGNALS_BARS_H

#include <stddef.h>

#include <stdint.h>
#include <stdio.h>

#include "common/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    int64_t n;
    int64_t *ts; /* seconds since 1970-01-01 (wall clock, no zone), strictly increasing */
    double *open, *high, *low, *close, *volume;
    int ts_epoch;     /* 1: the file wrote epoch seconds (trades are written alike); 0: date-times */
    char symbol[128]; /* the symbol (ticker) of the bars, "" when the source names none */
} bars_t;

void bars_free(bars_t *b);

/* Reads a bars CSV: header timestamp,open,high,low,close,volume (any order,
 * more columns ignored) and optionally symbol. Timestamps are epoch seconds
 * (digits) or ISO-8601 date-times (YYYY-MM-DD, then 'T' or ' ' and HH:MM:SS,
 * optionally a trailing 'Z'; or a date alone for daily bars). With a symbol
 * column, `symbol` picks the rows (NULL: the file must hold one symbol),
 * and out->symbol is the rows' symbol. Every bad row is an error naming the
 * file, line and column. */
ev_status bars_read_csv(const char *path, const char *symbol, bars_t *out, ev_error *err);

/* Builds bars of `tf_seconds` (a divisor of 86400: 1 s to 1 day) from the
 * market files Raw_Market_data_MM-DD-YYYY.csv of dir, for one ticker. */
ev_status bars_from_market(const char *dir, const char *ticker, int32_t tf_seconds, bars_t *out, ev_error *err);

/* "1s", "10s", "1m", "15m", "1h", "1d" or a number of seconds -> seconds; 0
 * when the text is none of these or does not divide a day. */
int32_t bars_parse_timeframe(const char *text);

/* The first lines bars_write_csv writes, without and with a symbol. */
#define BARS_CSV_HEADER "timestamp,open,high,low,close,volume\n"
#define BARS_CSV_HEADER_SYMBOL "timestamp,open,high,low,close,volume,symbol\n"

/* Writes the bars as a bars CSV (timestamps as they were read: epoch
 * seconds or "YYYY-MM-DD HH:MM:SS"; numbers as the shortest text that reads
 * back as the same double), with a last column `symbol` when b->symbol is
 * known, so that bars_read_csv reads the file back with or without it. */
ev_status bars_write_csv(const bars_t *b, const char *path, ev_error *err);

/* A malloc'ed series of b->n doubles: 1 at each session's last bar (the
 * last bar of its day, val_day_of as a validation: splits the days, and the
 * last bar of the data),
 * else 0 (strategy.session.flat_at_close); NULL when memory runs out. */
double *bars_session_ends(const bars_t *b);

/* XXH64 of the bars' times and OHLCV: a resumed run must see the same bars. */
uint64_t bars_fingerprint(const bars_t *b);

/* The text of a bar's time as the bars were read. buf: at least 32 bytes. */
void bars_format_time(const bars_t *b, int64_t i, char *buf, size_t n);

#ifdef __cplusplus
}
#endif
#endif
