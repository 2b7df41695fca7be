/* gen-data: realistic sample and benchmark data in the trader's formats
 * (SPEC sec. 1), since the trader's own logs cannot be shipped.
 *
 * Writes OUT/market/Raw_Market_data_MM-DD-YYYY.csv (one per weekday from the
 * start date) and OUT/all_trade_logs.csv. The output is a pure function of
 * the options: counter-based randomness keyed by (seed, day, ticker, stream),
 * so any thread count gives the same bytes. Every file is written under a
 * temporary name; all of them are moved into place only when every one is
 * complete, and a failure removes them, leaving nothing behind. */
#ifndef EVOLVE_IO_GEN_DATA_H
#define EVOLVE_IO_GEN_DATA_H

#include <stdint.h>
#include <stdio.h>

#include "common/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GEN_MAX_TICKERS 32
#define GEN_TICKER_CHARS 16 /* a name has 1..15 characters: A-Z 0-9 . - */
#define GEN_MAX_DAYS 20000  /* ~80 years of weekdays */

typedef struct {
    const char *out_dir;
    int days;                               /* weekdays to write, 1..GEN_MAX_DAYS */
    int start_year, start_month, start_day; /* first date; a weekend moves to Monday */
    int n_tickers;                          /* columns of every market file, in this order */
    char tickers[GEN_MAX_TICKERS][GEN_TICKER_CHARS];
    int n_trade_tickers; /* -1: SOXL, IONQ, MARA where listed, else the first ticker */
    char trade_tickers[GEN_MAX_TICKERS][GEN_TICKER_CHARS];
    int64_t trades; /* exact number of trades in the log, >= 0 */
    uint64_t seed;
    int quiet; /* no progress lines on log */
} gen_data_opts_t;

/* The defaults: 5 days from 2024-01-02, SOXL,IONQ,MARA,NVDA,TSLA,AMD,TQQQ,
 * trades for SOXL,IONQ,MARA, 600 trades, seed 1, out_dir NULL. */
void gen_data_opts_default(gen_data_opts_t *o);

/* Parses "A,B,C" into names[*n]; `what` names the option in messages. An
 * empty list is accepted only when allow_empty. EV_EUSAGE on a malformed list:
 * empty names, bad characters, names over 15 characters, duplicates, more than
 * GEN_MAX_TICKERS names. */
ev_status gen_data_parse_tickers(const char *list, const char *what, int allow_empty, char (*names)[GEN_TICKER_CHARS],
                                 int *n, ev_error *err);

/* Parses "YYYY-MM-DD" (a real calendar date, years 1900..9999). */
ev_status gen_data_parse_date(const char *s, int *year, int *month, int *day, ev_error *err);

/* Generates the data set. Progress and a summary go to log (NULL: silent).
 * EV_EUSAGE for options that cannot work (days out of range, trade tickers not
 * among the tickers, more trades than fit), EV_EIO for files, EV_EINTR when
 * interrupted (plat_interrupted); on any failure no file is left behind. */
ev_status gen_data_run(const gen_data_opts_t *o, FILE *log, ev_error *err);

#ifdef __cplusplus
}
#endif
#endif
