#include "gendata/gen_csv.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gendata/fast_format.h"

const char gen_csv_market_header[] =
    "Ticker,Price,Val,Avg,Atr14,Atr28,Rsi,Volume,Adx28,Adx14,Adx7,Volatility Percent,"
    "Volatility Ratio,Time\n";

const char gen_csv_trade_header[] =
    "Date,Trade Id,Ticker,Strategy,Entry Price,Exit Price,Entry Time,Exit Time,Worst Exit Percent,"
    "Entry Volatility Percent,Entry Volatility Ratio,Entry Adx28,Entry Adx14,Entry Adx7,"
    "Trade Best Exit Percent,Trade Percent Change,Shares,Entry Rsi\n";

/* The market file is written in chunks of this many bytes. */
#define WRITE_CHUNK (4u << 20)

/* A price in cents as the trader's files print it: 4 decimals ("23.8200"). */
static char *put_price(char *dst, int32_t cents)
{
    dst = ff_fixed_i64(dst, cents, 2);
    dst[0] = '0';
    dst[1] = '0';
    return dst + 2;
}

static char *put_text(char *dst, const char *s, size_t n)
{
    memcpy(dst, s, n);
    return dst + n;
}

static char *market_row(char *dst, const char *ticker, size_t ticker_len, const gen_row_t *r, int sec)
{
    dst = put_text(dst, ticker, ticker_len);
    *dst++ = ',';
    dst = put_price(dst, r->price_c);
    *dst++ = ',';
    dst = ff_fixed_i64(dst, r->val_q, 4);
    *dst++ = ',';
    dst = ff_fixed_i64(dst, r->avg_q, 4);
    *dst++ = ',';
    dst = ff_fixed_i64(dst, r->atr14_q, 4);
    *dst++ = ',';
    dst = ff_fixed_i64(dst, r->atr28_q, 4);
    *dst++ = ',';
    dst = ff_fixed_i64(dst, r->rsi_c, 2);
    *dst++ = ',';
    dst = ff_i64(dst, r->volume);
    *dst++ = ',';
    dst = ff_fixed_i64(dst, r->adx28_c, 2);
    *dst++ = ',';
    dst = ff_fixed_i64(dst, r->adx14_c, 2);
    *dst++ = ',';
    dst = ff_fixed_i64(dst, r->adx7_c, 2);
    *dst++ = ',';
    dst = ff_fixed_i64(dst, r->volpct_c, 2);
    *dst++ = ',';
    dst = ff_fixed_i64(dst, r->ratio_c, 2);
    *dst++ = ',';
    dst = ff_hms(dst, GEN_OPEN_TIME + sec);
    *dst++ = '\n';
    return dst;
}

/* (price / entry - 1) * 100 on the prices as a reader parses the written text
 * (cents / 100 is the double nearest the decimal, as strtod gives). */
static double percent_change(int32_t price_c, int32_t entry_c)
{
    return ((double)price_c / 100.0 / ((double)entry_c / 100.0) - 1.0) * 100.0;
}

char *gen_csv_trade_row(char *dst, const char *date_mdy, int64_t trade_id, const char *ticker, const gen_trade_t *t,
                        const gen_row_t *entry, int32_t exit_price_c)
{
    static const char *const kinds[] = {"pullback", "dip"};
    const char *kind = kinds[t->kind == GEN_ENTRY_DIP];
    dst = put_text(dst, date_mdy, 10);
    *dst++ = ',';
    dst = ff_i64(dst, trade_id);
    *dst++ = ',';
    dst = put_text(dst, ticker, strlen(ticker));
    *dst++ = ',';
    dst = put_text(dst, kind, strlen(kind));
    *dst++ = ',';
    dst = put_price(dst, entry->price_c);
    *dst++ = ',';
    dst = put_price(dst, exit_price_c);
    *dst++ = ',';
    dst = ff_hms(dst, GEN_OPEN_TIME + t->entry);
    *dst++ = ',';
    dst = ff_hms(dst, GEN_OPEN_TIME + t->exit);
    *dst++ = ',';
    dst = ff_fixed(dst, percent_change(t->worst_c, entry->price_c), 4);
    *dst++ = ',';
    dst = ff_fixed_i64(dst, entry->volpct_c, 2);
    *dst++ = ',';
    dst = ff_fixed_i64(dst, entry->ratio_c, 2);
    *dst++ = ',';
    dst = ff_fixed_i64(dst, entry->adx28_c, 2);
    *dst++ = ',';
    dst = ff_fixed_i64(dst, entry->adx14_c, 2);
    *dst++ = ',';
    dst = ff_fixed_i64(dst, entry->adx7_c, 2);
    *dst++ = ',';
    dst = ff_fixed(dst, percent_change(t->best_c, entry->price_c), 4);
    *dst++ = ',';
    dst = ff_fixed(dst, percent_change(exit_price_c, entry->price_c), 4);
    *dst++ = ',';
    dst = ff_i64(dst, entry->price_c > 0 ? GEN_CSV_TRADE_NOTIONAL_CENTS / entry->price_c : 0);
    *dst++ = ',';
    dst = ff_fixed_i64(dst, entry->rsi_c, 2);
    *dst++ = '\n';
    return dst;
}

static ev_status write_chunk(FILE *f, const char *buf, size_t n, const char *path, ev_error *err)
{
    if (n && fwrite(buf, 1, n, f) != n)
        return ev_fail(err, EV_EIO, "%s: cannot write: %s", path, strerror(errno));
    return EV_OK;
}

ev_status gen_csv_write_market(const char *path, const char *const *tickers, const gen_series_t *const *series,
                               int n_tickers, ev_error *err)
{
    size_t lens[64];
    char *buf, *end;
    FILE *f;
    ev_status st = EV_OK;
    gen_row_t row;
    if (n_tickers > (int)(sizeof lens / sizeof lens[0]))
        return ev_fail(err, EV_EINTERNAL, "too many tickers for one market file");
    for (int t = 0; t < n_tickers; t++)
        lens[t] = strlen(tickers[t]);
    buf = (char *)malloc(WRITE_CHUNK + (size_t)n_tickers * GEN_CSV_ROW_MAX);
    if (!buf)
        return ev_fail(err, EV_ENOMEM, "out of memory for the write buffer of %s", path);
    f = fopen(path, "wb");
    if (!f) {
        free(buf);
        return ev_fail(err, EV_EIO, "%s: cannot create: %s", path, strerror(errno));
    }
    end = put_text(buf, gen_csv_market_header, sizeof gen_csv_market_header - 1);
    for (int sec = 0; sec < GEN_DAY_SECONDS && st == EV_OK; sec++) {
        for (int t = 0; t < n_tickers; t++) {
            if (!series[t]->present[sec])
                continue;
            gen_series_row(series[t], sec, &row);
            end = market_row(end, tickers[t], lens[t], &row, sec);
        }
        if ((size_t)(end - buf) >= WRITE_CHUNK) {
            st = write_chunk(f, buf, (size_t)(end - buf), path, err);
            end = buf;
        }
    }
    if (st == EV_OK)
        st = write_chunk(f, buf, (size_t)(end - buf), path, err);
    if (fclose(f) != 0 && st == EV_OK)
        st = ev_fail(err, EV_EIO, "%s: cannot finish writing: %s", path, strerror(errno));
    free(buf);
    return st;
}
