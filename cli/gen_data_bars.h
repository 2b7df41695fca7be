/* evolve gen-data --bars TF: OHLCV bars of every generated ticker, built from
 * the market files just written by the same rule as `evolve bars --market`
 * (signals/bars.c), so a strategy config can read long series of bars
 * (docs/signals-spec.md sec. 3's windows need months of 15-minute bars) without
 * rebuilding them from the per-second files on every run. */
#ifndef EVOLVE_CLI_GEN_DATA_BARS_H
#define EVOLVE_CLI_GEN_DATA_BARS_H

#include <stdio.h>

#include "common/status.h"
#include "gendata/gen_data.h"

/* The bars files of o: DIR/bars/TICKER_TF.csv for each ticker, in --tickers
 * order; *paths malloc'ed (gen_data_bars_free). tf_text: the --bars value. */
ev_status gen_data_bars_paths(const gen_data_opts_t *o, const char *tf_text, char ***paths, int *n, ev_error *err);
void gen_data_bars_free(char **paths, int n);

/* Refuses, before anything is generated, a --bars value that is not a
 * timeframe, and a bars file that exists in a directory gen-data did not
 * write (gendata/gen_marker.h). */
ev_status gen_data_bars_check(const gen_data_opts_t *o, const char *tf_text, ev_error *err);

/* Builds and writes every ticker's bars from DIR/market (each file written
 * under a temporary name, then renamed). Progress lines on log (NULL: none). */
ev_status gen_data_bars_write(const gen_data_opts_t *o, const char *tf_text, FILE *log, ev_error *err);

#endif
