#include "io/market_ingest.h"

#include <stdlib.h>
#include <string.h>

#include "common/platform.h"
#include "io/csv_reader.h"
#include "io/ingest_fields.h"
#include "io/stable_sort.h"
#include "io/timeparse.h"

/* OpenMP pragmas that vanish (without an unknown-pragma warning) in a build
 * without OpenMP. */
#ifdef _OPENMP
#define OMP(directive) _Pragma(#directive)
#else
#define OMP(directive)
#endif

/* ---- listing ------------------------------------------------------------- */

static int has_csv_suffix(const char *name)
{
    size_t n = strlen(name);
    const char *s = n >= 4 ? name + n - 4 : "";
    return s[0] == '.' && (s[1] | 0x20) == 'c' && (s[2] | 0x20) == 's' && (s[3] | 0x20) == 'v';
}

static int cmp_day(const void *a, const void *b)
{
    int64_t x = ((const market_file_t *)a)->day, y = ((const market_file_t *)b)->day;
    return (x > y) - (x < y);
}

ev_status market_list_files(const char *dir, market_files_t *out, ev_error *err)
{
    char **names;
    size_t n_names;
    ev_status st;
    plat_stat_t ds;
    memset(out, 0, sizeof *out);
    if (plat_stat(dir, &ds) != 0)
        return ev_fail(err, EV_EIO, "%s: no such market data directory", dir);
    if (!ds.is_dir)
        return ev_fail(err, EV_EIO, "%s: not a directory; expected the market data directory", dir);
    if ((st = plat_list_dir(dir, &names, &n_names, err)) != EV_OK)
        return st;
    out->files = (market_file_t *)calloc(n_names ? n_names : 1, sizeof *out->files);
    if (!out->files) {
        plat_free_names(names, n_names);
        return ev_fail(err, EV_ENOMEM, "out of memory listing %s", dir);
    }
    for (size_t i = 0; i < n_names && st == EV_OK; i++) {
        market_file_t *f = &out->files[out->n];
        plat_stat_t fs;
        char *path;
        if (!has_csv_suffix(names[i]))
            continue;
        if (!(path = plat_path_join(dir, names[i]))) {
            st = ev_fail(err, EV_ENOMEM, "out of memory listing %s", dir);
            break;
        }
        if (plat_stat(path, &fs) == 0 && fs.is_dir) {
            free(path); /* a directory called *.csv is not a market file */
            continue;
        }
        /* A dangling link, a FIFO or a device named *.csv is not skipped. */
        if ((st = plat_check_input(path, "a market data CSV file", &fs, err)) != EV_OK) {
            free(path);
            break;
        }
        if (!time_parse_market_name(names[i], &f->day)) {
            st = ev_fail(err, EV_EDATA,
                         "%s: not a market file name; expected exactly "
                         "Raw_Market_data_MM-DD-YYYY.csv with a real date (move other CSV files "
                         "out of the market directory)",
                         path);
            free(path);
            break;
        }
        f->path = path;
        f->size = fs.size;
        f->mtime_ns = fs.mtime_ns;
        out->n++;
    }
    plat_free_names(names, n_names);
    if (st == EV_OK && out->n == 0)
        st = ev_fail(err, EV_EDATA, "%s: no market file; expected files named Raw_Market_data_MM-DD-YYYY.csv", dir);
    if (st != EV_OK) {
        market_files_free(out);
        return st;
    }
    /* Names are MM-DD-YYYY, so name order is not time order. Days are unique. */
    qsort(out->files, out->n, sizeof *out->files, cmp_day);
    return EV_OK;
}

void market_files_free(market_files_t *m)
{
    for (size_t i = 0; i < m->n; i++)
        free(m->files[i].path);
    free(m->files);
    memset(m, 0, sizeof *m);
}

int market_files_has_day(const market_files_t *m, int64_t day)
{
    size_t lo = 0, hi = m->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (m->files[mid].day < day)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < m->n && m->files[lo].day == day;
}

/* ---- one file ------------------------------------------------------------ */

/* One kept row: the second of the file's day and the price. */
typedef struct {
    int32_t secs;
    float price;
} tick_t;

typedef struct {
    tick_t *v;
    size_t n, cap;
} tick_vec_t;

/* What one file yields; files are read independently, then concatenated. */
typedef struct {
    tick_vec_t *ticks; /* [n_tickers] */
    int64_t rows;
    int64_t duplicates;
    int64_t out_of_order; /* rows earlier than the row before them (same ticker) */
    ev_status st;
    ev_error err;
} file_result_t;

static int push_tick(tick_vec_t *t, int32_t secs, float price)
{
    if (t->n == t->cap) {
        size_t ncap = t->cap ? t->cap * 2 : 4096;
        tick_t *grown = (tick_t *)realloc(t->v, ncap * sizeof *grown);
        if (!grown)
            return 0;
        t->v = grown;
        t->cap = ncap;
    }
    t->v[t->n].secs = secs;
    t->v[t->n].price = price;
    t->n++;
    return 1;
}

static int cmp_tick(const void *a, const void *b, void *ctx)
{
    int32_t x = ((const tick_t *)a)->secs, y = ((const tick_t *)b)->secs;
    (void)ctx;
    return (x > y) - (x < y);
}

/* Sorts a ticker's rows by time (stable) if needed, then keeps the last row
 * of each second. */
static ev_status tidy_ticks(tick_vec_t *t, file_result_t *res)
{
    size_t w = 0;
    int64_t late = 0;
    for (size_t i = 1; i < t->n; i++)
        late += t->v[i].secs < t->v[i - 1].secs;
    if (late) {
        ev_status st = stable_sort(t->v, t->n, sizeof *t->v, cmp_tick, NULL, &res->err);
        if (st != EV_OK)
            return st;
        res->out_of_order += late;
    }
    for (size_t i = 0; i < t->n; i++) {
        if (w > 0 && t->v[w - 1].secs == t->v[i].secs) {
            t->v[w - 1] = t->v[i];
            res->duplicates++;
        } else {
            t->v[w++] = t->v[i];
        }
    }
    t->n = w;
    return EV_OK;
}

/* One kept row's time and price. */
static ev_status parse_tick(const csv_reader_t *r, const csv_row_t *row, int c_price, int c_time, int32_t *secs,
                            float *price, ev_error *err)
{
    csv_field_t f = row->fields[c_time];
    double v = 0;
    num_result nr;
    ev_status st;
    if (!time_parse_clock(f.p, f.n, secs))
        return ingest_field_error(r, row, c_time, "a time of day HH:MM:SS (00:00:00-23:59:59)", err);
    st = ingest_field_double(r, row, c_price, "a positive price", &v, &nr, err);
    if (st != EV_OK)
        return st;
    if (nr != NUM_OK || !ingest_price_ok(v))
        return ingest_field_error(r, row, c_price, "a positive price " INGEST_PRICE_RANGE, err);
    *price = (float)v; /* SPEC sec. 2: (float)strtod of the text */
    return EV_OK;
}

static ev_status read_file(const char *path, const char *const *tickers, int32_t n_tickers, file_result_t *res)
{
    csv_reader_t *r;
    const csv_row_t *row;
    int c_ticker, c_price, c_time;
    ev_error *err = &res->err;
    ev_status st = csv_open(path, 0, &r, err);
    if (st != EV_OK)
        return st;
    if ((st = csv_require_column(r, "Ticker", &c_ticker, err)) != EV_OK ||
        (st = csv_require_column(r, "Price", &c_price, err)) != EV_OK ||
        (st = csv_require_column(r, "Time", &c_time, err)) != EV_OK) {
        csv_close(r);
        return st;
    }
    while ((st = csv_next(r, &row, err)) == EV_OK && row) {
        int32_t secs = 0;
        float price = 0;
        int id;
        /* The ticker decides before anything else is parsed. */
        id = ingest_ticker_id(row->fields[c_ticker], tickers, n_tickers);
        if (id < 0)
            continue;
        if ((st = parse_tick(r, row, c_price, c_time, &secs, &price, err)) != EV_OK)
            break;
        if (!push_tick(&res->ticks[id], secs, price)) {
            st = ev_fail(err, EV_ENOMEM, "%s: out of memory reading the prices", path);
            break;
        }
    }
    res->rows = csv_data_rows(r);
    csv_close(r);
    for (int32_t t = 0; t < n_tickers && st == EV_OK; t++)
        st = tidy_ticks(&res->ticks[t], res);
    return st;
}

/* ---- all files ----------------------------------------------------------- */

static void free_results(file_result_t *res, size_t n, int32_t n_tickers)
{
    if (!res)
        return;
    for (size_t i = 0; i < n; i++) {
        if (!res[i].ticks)
            continue;
        for (int32_t t = 0; t < n_tickers; t++)
            free(res[i].ticks[t].v);
        free(res[i].ticks);
    }
    free(res);
}

/* Concatenates the files' rows ticker by ticker: files are in day order and
 * each file's rows lie within its day, so the result is sorted by (ticker, ts). */
static ev_status assemble(const market_files_t *files, const file_result_t *res, const char *const *tickers,
                          int32_t n_tickers, dataset_t *ds, ev_error *err)
{
    int64_t k = 0, total = 0;
    for (size_t i = 0; i < files->n; i++)
        for (int32_t t = 0; t < n_tickers; t++)
            total += (int64_t)res[i].ticks[t].n;
    ds->price = (float *)malloc((size_t)(total ? total : 1) * sizeof *ds->price);
    ds->ts = (int64_t *)malloc((size_t)(total ? total : 1) * sizeof *ds->ts);
    ds->ticker_begin = (int64_t *)malloc((size_t)n_tickers * sizeof *ds->ticker_begin);
    ds->ticker_end = (int64_t *)malloc((size_t)n_tickers * sizeof *ds->ticker_end);
    if (!ds->price || !ds->ts || !ds->ticker_begin || !ds->ticker_end)
        return ev_fail(err, EV_ENOMEM, "out of memory for %lld market prices", (long long)total);
    for (int32_t t = 0; t < n_tickers; t++) {
        ds->ticker_begin[t] = k;
        for (size_t i = 0; i < files->n; i++) {
            const tick_vec_t *tv = &res[i].ticks[t];
            int64_t day_start = files->files[i].day * TIME_SECONDS_PER_DAY;
            for (size_t j = 0; j < tv->n; j++, k++) {
                ds->price[k] = tv->v[j].price;
                ds->ts[k] = day_start + tv->v[j].secs;
            }
        }
        ds->ticker_end[t] = k;
        if (k == ds->ticker_begin[t])
            return ev_fail(err, EV_EDATA,
                           "ticker %s not found in any market file (%zu file(s) from %s to %s); "
                           "expected rows with Ticker = %s",
                           tickers[t], files->n, plat_basename(files->files[0].path),
                           plat_basename(files->files[files->n - 1].path), tickers[t]);
    }
    ds->n_prices = k;
    return EV_OK;
}

ev_status market_ingest(const market_files_t *files, const char *const *tickers, int32_t n_tickers, FILE *log,
                        dataset_t *ds, int64_t *rows, ev_error *err)
{
    file_result_t *res = (file_result_t *)calloc(files->n, sizeof *res);
    long first_failed = (long)files->n; /* files after a failed one are skipped */
    ev_status st = EV_OK;
    if (!res)
        return ev_fail(err, EV_ENOMEM, "out of memory reading the market files");
    for (size_t i = 0; i < files->n; i++) {
        res[i].ticks = (tick_vec_t *)calloc((size_t)n_tickers, sizeof *res[i].ticks);
        if (!res[i].ticks) {
            free_results(res, files->n, n_tickers);
            return ev_fail(err, EV_ENOMEM, "out of memory reading the market files");
        }
    }
    /* Dynamic schedule: file sizes vary. Only files after the earliest failure
     * are skipped, so the error reported is the serial one. */
    OMP(omp parallel for schedule(dynamic, 1))
    for (long i = 0; i < (long)files->n; i++) {
        long stop;
        OMP(omp atomic read)
        stop = first_failed;
        if (i > stop)
            continue;
        res[i].st = read_file(files->files[i].path, tickers, n_tickers, &res[i]);
        if (res[i].st != EV_OK) {
            OMP(omp critical(market_first_failed))
            if (i < first_failed) {
                OMP(omp atomic write)
                first_failed = i;
            }
        }
    }
    if (first_failed < (long)files->n) {
        *err = res[first_failed].err;
        st = res[first_failed].st;
    }
    ds->market_rows_read = ds->market_duplicates = ds->market_files_unsorted = 0;
    for (size_t i = 0; i < files->n && st == EV_OK; i++) {
        rows[i] = res[i].rows;
        ds->market_rows_read += res[i].rows;
        ds->market_duplicates += res[i].duplicates;
        if (res[i].out_of_order) {
            ds->market_files_unsorted++;
            if (log)
                fprintf(log,
                        "warning: %s: %lld row(s) of kept tickers out of time order; sorted by "
                        "time (stable)\n",
                        files->files[i].path, (long long)res[i].out_of_order);
        }
    }
    if (st == EV_OK)
        st = assemble(files, res, tickers, n_tickers, ds, err);
    free_results(res, files->n, n_tickers);
    return st;
}
