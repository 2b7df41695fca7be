/* gen-data's run: plans the days, generates them in parallel, writes every
 * file under a temporary name and moves the whole set into place at the end.
 *
 * Two passes over the days keep them independent: pass 1 simulates each
 * ticker-day's path only for its open-to-close return, which fixes every
 * day's opening level (a cheap sequential chain); pass 2 simulates the same
 * paths again (same bits, counter-based draws), rounds them at the known
 * level and writes the files. Each day's output depends on nothing but the
 * options, so the thread count cannot change a byte. */
#include "gendata/gen_data.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/platform.h"
#include "gendata/fast_format.h"
#include "gendata/gen_calendar.h"
#include "gendata/gen_csv.h"
#include "gendata/gen_indicators.h"
#include "gendata/gen_marker.h"
#include "gendata/gen_prices.h"
#include "gendata/gen_rng.h"
#include "gendata/gen_trades.h"

#define TRADE_LOG_NAME "all_trade_logs.csv"

typedef struct {
    const gen_data_opts_t *o;
    int n_trade;                    /* trade tickers ... */
    int trade_idx[GEN_MAX_TICKERS]; /* ... as positions in o->tickers */
    const char *names[GEN_MAX_TICKERS];
    gen_profile_t profile[GEN_MAX_TICKERS];
    uint64_t hash[GEN_MAX_TICKERS]; /* RNG key part of each ticker */
    gen_shape_t *shape;
    gen_date_t *dates;              /* [days] */
    double *sigma, *level;          /* [ticker * days + day]: sd of the day's return; open, $ */
    char **final_path, **temp_path; /* [days + 1]: market files, then the trade log */
    char **trade_text;              /* [days]: the day's trade-log rows */
    size_t *trade_len;
    int64_t *rows; /* [days]: market rows written */
    /* Shared between threads, guarded by the "gen_state" critical section. */
    int done, stop_day;
    ev_error first_err; /* the failure of the earliest failing day */
    double t0;
    FILE *log;
} run_t;

/* ---- how --trades is spread ------------------------------------------------
 * Slot k = day * n_trade + j (trade ticker j on day `day`) gets floor(N / K)
 * trades, and the N mod K remaining ones go to evenly spaced slots (a
 * Bresenham spread): trades before slot k = k * base + floor(k * rem / K). */

static int64_t trades_before(const run_t *r, int64_t slot)
{
    int64_t slots = (int64_t)r->o->days * r->n_trade;
    if (slots == 0) /* no trade tickers: --trades is 0 (checked) */
        return 0;
    return slot * (r->o->trades / slots) + slot * (r->o->trades % slots) / slots;
}

static int trades_in(const run_t *r, int day, int j)
{
    int64_t k = (int64_t)day * r->n_trade + j;
    return (int)(trades_before(r, k + 1) - trades_before(r, k));
}

/* ---- checks, before anything is created ------------------------------------ */

static ev_status resolve_trade_tickers(run_t *r, ev_error *err)
{
    const gen_data_opts_t *o = r->o;
    static const char *const defaults[] = {"SOXL", "IONQ", "MARA"};
    r->n_trade = 0;
    if (o->n_trade_tickers < 0) {
        for (int d = 0; d < 3; d++)
            for (int t = 0; t < o->n_tickers; t++)
                if (!strcmp(o->tickers[t], defaults[d]))
                    r->trade_idx[r->n_trade++] = t;
        if (r->n_trade == 0)
            r->trade_idx[r->n_trade++] = 0;
        return EV_OK;
    }
    for (int j = 0; j < o->n_trade_tickers; j++) {
        int found = -1;
        for (int t = 0; t < o->n_tickers; t++)
            if (!strcmp(o->tickers[t], o->trade_tickers[j]))
                found = t;
        if (found < 0)
            return ev_fail(err, EV_EUSAGE, "--trade-tickers: %s is not among --tickers", o->trade_tickers[j]);
        r->trade_idx[r->n_trade++] = found;
    }
    return EV_OK;
}

static ev_status check_options(run_t *r, ev_error *err)
{
    const gen_data_opts_t *o = r->o;
    gen_date_t last;
    int64_t capacity;
    if (!o->out_dir || !*o->out_dir)
        return ev_fail(err, EV_EUSAGE, "--out: an output directory is required");
    if (o->days < 1 || o->days > GEN_MAX_DAYS)
        return ev_fail(err, EV_EUSAGE, "--days: expected 1 to %d trading days, got %d", GEN_MAX_DAYS, o->days);
    if (!gen_date_valid(o->start_year, o->start_month, o->start_day) || o->start_year < 1900)
        return ev_fail(err, EV_EUSAGE, "--start: %04d-%02d-%02d is not a calendar date from 1900 on", o->start_year,
                       o->start_month, o->start_day);
    if (o->n_tickers < 1 || o->n_tickers > GEN_MAX_TICKERS)
        return ev_fail(err, EV_EUSAGE, "--tickers: expected 1 to %d tickers", GEN_MAX_TICKERS);
    if (o->trades < 0)
        return ev_fail(err, EV_EUSAGE, "--trades: expected a count >= 0");
    if (resolve_trade_tickers(r, err) != EV_OK)
        return EV_EUSAGE;
    if (o->trades > 0 && r->n_trade == 0)
        return ev_fail(err, EV_EUSAGE, "--trade-tickers: no ticker to trade, but --trades is %lld",
                       (long long)o->trades);
    capacity = (int64_t)o->days * (r->n_trade ? r->n_trade : 1) * GEN_TRADES_PER_TICKER_DAY_MAX;
    if (o->trades > capacity)
        return ev_fail(err, EV_EUSAGE,
                       "--trades: %lld trades do not fit: with one position at "
                       "a time a ticker holds at most %d trades a day, so %d day(s) x %d trade "
                       "ticker(s) hold at most %lld",
                       (long long)o->trades, GEN_TRADES_PER_TICKER_DAY_MAX, o->days, r->n_trade, (long long)capacity);
    r->dates = (gen_date_t *)malloc((size_t)o->days * sizeof *r->dates);
    if (!r->dates)
        return ev_fail(err, EV_ENOMEM, "out of memory for %d days", o->days);
    gen_weekdays((gen_date_t){o->start_year, o->start_month, o->start_day}, o->days, r->dates);
    last = r->dates[o->days - 1];
    if (last.year > 9999)
        return ev_fail(err, EV_EUSAGE, "--days: %d weekdays from --start run past the year 9999", o->days);
    return EV_OK;
}

/* ---- pass 1: opening levels ------------------------------------------------ */

static ev_status plan_levels(run_t *r, ev_error *err)
{
    const gen_data_opts_t *o = r->o;
    const int days = o->days;
    double *ret = (double *)malloc((size_t)o->n_tickers * (size_t)days * sizeof *ret);
    int failed = 0; /* 1: out of memory, 2: interrupted */
    if (!ret)
        return ev_fail(err, EV_ENOMEM, "out of memory planning %d days", days);
    for (int t = 0; t < o->n_tickers; t++)
        gen_prices_day_sigmas(&r->profile[t], o->seed, r->hash[t], days, r->sigma + (size_t)t * days);
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic, 1)
#endif
    for (int d = 0; d < days; d++) {
        double *rel;
        int stop;
#ifdef _OPENMP
#pragma omp critical(gen_state)
#endif
        {
            if (!failed && plat_interrupted())
                failed = 2;
            stop = failed;
        }
        rel = stop ? NULL : (double *)malloc(GEN_SERIES_SECONDS * sizeof *rel);
        if (!rel) {
#ifdef _OPENMP
#pragma omp critical(gen_state)
#endif
            failed = failed ? failed : 1;
            continue;
        }
        for (int t = 0; t < o->n_tickers; t++)
            ret[(size_t)t * days + d] =
                gen_prices_path(r->shape, r->sigma[(size_t)t * days + d], o->seed, d, r->hash[t], rel);
        free(rel);
    }
    if (!failed)
        for (int t = 0; t < o->n_tickers; t++)
            gen_prices_day_levels(&r->profile[t], o->seed, r->hash[t], days, r->sigma + (size_t)t * days,
                                  ret + (size_t)t * days, r->level + (size_t)t * days);
    free(ret);
    if (failed == 2)
        return ev_fail(err, EV_EINTR, "interrupted; no files were left behind");
    if (failed)
        return ev_fail(err, EV_ENOMEM, "out of memory simulating the price paths");
    return EV_OK;
}

/* ---- pass 2: one day's files ------------------------------------------------ */

static ev_status day_trades(run_t *r, int d, gen_series_t *series, ev_error *err)
{
    const gen_data_opts_t *o = r->o;
    int n = 0, cap = 0;
    int64_t id = 1 + trades_before(r, (int64_t)d * r->n_trade);
    gen_trade_t *trades;
    char date[10], *end;
    gen_row_t entry;
    for (int j = 0; j < r->n_trade; j++)
        cap += trades_in(r, d, j);
    trades = (gen_trade_t *)malloc((size_t)(cap ? cap : 1) * sizeof *trades);
    r->trade_text[d] = (char *)malloc((size_t)cap * GEN_CSV_ROW_MAX + 1);
    if (!trades || !r->trade_text[d]) {
        free(trades);
        return ev_fail(err, EV_ENOMEM, "out of memory for the trades of day %d", d + 1);
    }
    for (int j = 0; j < r->n_trade; j++) {
        int t = r->trade_idx[j], count = trades_in(r, d, j);
        gen_trades_pick(&series[t], count, o->seed, d, r->hash[t], t, trades + n);
        n += count;
    }
    gen_trades_sort(trades, n);
    ff_mdy(date, r->dates[d].year, r->dates[d].month, r->dates[d].day, '/');
    end = r->trade_text[d];
    for (int k = 0; k < n; k++) {
        const gen_trade_t *tr = &trades[k];
        gen_series_row(&series[tr->ticker], tr->entry, &entry);
        end = gen_csv_trade_row(end, date, id + k, r->names[tr->ticker], tr, &entry,
                                series[tr->ticker].price_c[GEN_WARMUP_SECONDS + tr->exit]);
    }
    r->trade_len[d] = (size_t)(end - r->trade_text[d]);
    free(trades);
    return EV_OK;
}

static ev_status run_day(run_t *r, int d, ev_error *err)
{
    const gen_data_opts_t *o = r->o;
    const gen_series_t *cseries[GEN_MAX_TICKERS];
    gen_series_t *series = (gen_series_t *)malloc((size_t)o->n_tickers * sizeof *series);
    double *rel = (double *)malloc(GEN_SERIES_SECONDS * sizeof *rel);
    ev_status st = EV_OK;
    if (!series || !rel) {
        st = ev_fail(err, EV_ENOMEM, "out of memory for day %d", d + 1);
        goto done;
    }
    r->rows[d] = 0;
    for (int t = 0; t < o->n_tickers; t++) {
        size_t k = (size_t)t * o->days + d;
        gen_prices_path(r->shape, r->sigma[k], o->seed, d, r->hash[t], rel);
        gen_prices_tape(&r->profile[t], r->shape, r->sigma[k], r->level[k], o->seed, d, r->hash[t], rel,
                        series[t].price_c, series[t].volume, series[t].present);
        gen_indicators_compute(&series[t]);
        cseries[t] = &series[t];
    }
    st = day_trades(r, d, series, err); /* may give a row to a second that had none */
    if (st != EV_OK)
        goto done;
    for (int t = 0; t < o->n_tickers; t++)
        for (int s = 0; s < GEN_DAY_SECONDS; s++)
            r->rows[d] += series[t].present[s];
    st = gen_csv_write_market(r->temp_path[d], r->names, cseries, o->n_tickers, err);
done:
    free(series);
    free(rel);
    return st;
}

/* Called by each thread around its day: whether to go on (no failure and no
 * Ctrl-C so far), and the bookkeeping after. Of the days that ran, the
 * earliest failing one gives the message. */
static int day_begin(run_t *r)
{
    int go;
#ifdef _OPENMP
#pragma omp critical(gen_state)
#endif
    {
        if (r->stop_day < 0 && plat_interrupted()) {
            r->stop_day = 0;
            ev_fail(&r->first_err, EV_EINTR, "interrupted; no files were left behind");
        }
        go = r->stop_day < 0;
    }
    return go;
}

static void day_end(run_t *r, int d, ev_status st, const ev_error *err)
{
#ifdef _OPENMP
#pragma omp critical(gen_state)
#endif
    {
        if (st != EV_OK && (r->stop_day < 0 || d < r->stop_day)) {
            r->stop_day = d;
            r->first_err = *err;
        }
        r->done++;
        if (st == EV_OK && r->log && r->done * 10 / r->o->days != (r->done - 1) * 10 / r->o->days)
            fprintf(r->log, "gen-data: %d of %d days written (%.1f s)\n", r->done, r->o->days, plat_now() - r->t0);
    }
}

static void generate_days(run_t *r)
{
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic, 1)
#endif
    for (int d = 0; d < r->o->days; d++) {
        ev_error derr;
        ev_status st;
        if (!day_begin(r))
            continue;
        st = run_day(r, d, &derr);
        day_end(r, d, st, &derr);
    }
}

/* ---- files ------------------------------------------------------------------ */

static ev_status make_paths(run_t *r, ev_error *err)
{
    const int days = r->o->days;
    char *market_dir = plat_path_join(r->o->out_dir, "market");
    char name[64];
    ev_status st = EV_OK;
    if (!market_dir)
        return ev_fail(err, EV_ENOMEM, "out of memory");
    for (int d = 0; d <= days && st == EV_OK; d++) {
        if (d < days) {
            char *end = name + sizeof "Raw_Market_data_" - 1;
            memcpy(name, "Raw_Market_data_", sizeof "Raw_Market_data_" - 1);
            end = ff_mdy(end, r->dates[d].year, r->dates[d].month, r->dates[d].day, '-');
            memcpy(end, ".csv", sizeof ".csv");
            r->final_path[d] = plat_path_join(market_dir, name);
        } else {
            r->final_path[d] = plat_path_join(r->o->out_dir, TRADE_LOG_NAME);
        }
        r->temp_path[d] = r->final_path[d] ? plat_temp_name(r->final_path[d]) : NULL;
        if (!r->temp_path[d])
            st = ev_fail(err, EV_ENOMEM, "out of memory");
    }
    if (st == EV_OK)
        st = gen_marker_check(r->o->out_dir, r->final_path, days + 1, err);
    if (st == EV_OK)
        st = plat_mkdirs(market_dir, err);
    free(market_dir);
    return st;
}

static ev_status write_trade_log(const run_t *r, ev_error *err)
{
    const char *path = r->temp_path[r->o->days];
    FILE *f = fopen(path, "wb");
    int ok;
    if (!f)
        return ev_fail(err, EV_EIO, "%s: cannot create: %s", path, strerror(errno));
    ok = fputs(gen_csv_trade_header, f) >= 0;
    for (int d = 0; d < r->o->days && ok; d++)
        ok = fwrite(r->trade_text[d], 1, r->trade_len[d], f) == r->trade_len[d];
    if (!ok) {
        ev_fail(err, EV_EIO, "%s: cannot write: %s", path, strerror(errno));
        fclose(f);
        return EV_EIO;
    }
    if (fclose(f) != 0)
        return ev_fail(err, EV_EIO, "%s: cannot finish writing: %s", path, strerror(errno));
    return EV_OK;
}

/* Marks the directory as gen-data's, then moves every temporary file into
 * place; on a failure takes back the ones already moved (and a marker it
 * created), so a failed run leaves none of its files. */
static ev_status commit_files(const run_t *r, ev_error *err)
{
    int created;
    if (gen_marker_write(r->o->out_dir, &created, err) != EV_OK)
        return EV_EIO;
    for (int i = 0; i <= r->o->days; i++) {
        if (plat_rename_replace(r->temp_path[i], r->final_path[i], err) != EV_OK) {
            for (int k = 0; k < i; k++)
                plat_remove(r->final_path[k]);
            if (created)
                gen_marker_remove(r->o->out_dir);
            return EV_EIO;
        }
    }
    return EV_OK;
}

static void summarize(const run_t *r)
{
    int64_t rows = 0, bytes = 0;
    plat_stat_t st;
    for (int d = 0; d <= r->o->days; d++) {
        if (d < r->o->days)
            rows += r->rows[d];
        if (plat_stat(r->final_path[d], &st) == 0)
            bytes += st.size;
    }
    fprintf(r->log,
            "gen-data: wrote %d market file%s (%d tickers, %lld rows) and %lld trades to "
            "%s: %.1f MB in %.1f s\n",
            r->o->days, r->o->days == 1 ? "" : "s", r->o->n_tickers, (long long)rows, (long long)r->o->trades,
            r->o->out_dir, bytes / 1e6, plat_now() - r->t0);
}

static void run_free(run_t *r)
{
    int n = r->o->days + 1;
    for (int i = 0; i < n; i++) {
        if (r->temp_path && r->temp_path[i]) {
            plat_remove(r->temp_path[i]); /* gone already after a commit */
            free(r->temp_path[i]);
        }
        if (r->final_path)
            free(r->final_path[i]);
        if (r->trade_text && i < n - 1)
            free(r->trade_text[i]);
    }
    free(r->temp_path);
    free(r->final_path);
    free(r->trade_text);
    free(r->trade_len);
    free(r->rows);
    free(r->dates);
    free(r->sigma);
    free(r->level);
    free(r->shape);
}

static ev_status run_alloc(run_t *r, ev_error *err)
{
    const size_t days = (size_t)r->o->days, cells = (size_t)r->o->n_tickers * days;
    r->temp_path = (char **)calloc(days + 1, sizeof *r->temp_path);
    r->final_path = (char **)calloc(days + 1, sizeof *r->final_path);
    r->trade_text = (char **)calloc(days, sizeof *r->trade_text);
    r->trade_len = (size_t *)calloc(days, sizeof *r->trade_len);
    r->rows = (int64_t *)calloc(days, sizeof *r->rows);
    r->sigma = (double *)malloc(cells * sizeof *r->sigma);
    r->level = (double *)malloc(cells * sizeof *r->level);
    r->shape = (gen_shape_t *)malloc(sizeof *r->shape);
    if (!r->temp_path || !r->final_path || !r->trade_text || !r->trade_len || !r->rows || !r->sigma || !r->level ||
        !r->shape)
        return ev_fail(err, EV_ENOMEM, "out of memory for %zu days", days);
    gen_shape_init(r->shape);
    for (int t = 0; t < r->o->n_tickers; t++) {
        r->names[t] = r->o->tickers[t];
        gen_profile_for(r->o->tickers[t], &r->profile[t]);
        r->hash[t] = gen_rng_name_hash(r->o->tickers[t]);
    }
    return EV_OK;
}

ev_status gen_data_run(const gen_data_opts_t *o, FILE *log, ev_error *err)
{
    run_t r;
    ev_status st;
    memset(&r, 0, sizeof r);
    r.o = o;
    r.log = o->quiet ? NULL : log;
    r.stop_day = -1;
    r.t0 = plat_now();
    st = check_options(&r, err);
    if (st == EV_OK)
        st = run_alloc(&r, err);
    if (st == EV_OK)
        st = make_paths(&r, err);
    if (st == EV_OK)
        st = plan_levels(&r, err);
    if (st == EV_OK) {
        generate_days(&r);
        if (r.stop_day >= 0) {
            if (err)
                *err = r.first_err;
            st = r.first_err.status;
        }
    }
    if (st == EV_OK)
        st = write_trade_log(&r, err);
    if (st == EV_OK && plat_interrupted())
        st = ev_fail(err, EV_EINTR, "interrupted; no files were left behind");
    if (st == EV_OK)
        st = commit_files(&r, err);
    if (st == EV_OK && r.log)
        summarize(&r);
    if (r.temp_path || r.dates)
        run_free(&r);
    return st;
}
