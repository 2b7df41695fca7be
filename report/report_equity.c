#include "report/report_equity.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fitness/validation.h"
#include "io/timeparse.h"
#include "report/chart.h"
#include "report/replay.h"
#include "report/report_versus.h"

/* The replayed trades by trading day (they come in entry-time order). */
typedef struct {
    int64_t n;
    int64_t *day, *trades, *sum; /* [n]: day number, kept trades, sum of q */
    int32_t *part;               /* [n]: the day's part */
} days_t;

static void days_free(days_t *d)
{
    free(d->day);
    free(d->trades);
    free(d->sum);
    free(d->part);
}

static ev_status days_make(days_t *d, const replay_t *rp, ev_error *err)
{
    size_t m = (size_t)rp->n + 1;
    memset(d, 0, sizeof *d);
    d->day = (int64_t *)malloc(m * sizeof *d->day);
    d->trades = (int64_t *)malloc(m * sizeof *d->trades);
    d->sum = (int64_t *)malloc(m * sizeof *d->sum);
    d->part = (int32_t *)malloc(m * sizeof *d->part);
    if (!d->day || !d->trades || !d->sum || !d->part) {
        days_free(d);
        return ev_fail(err, EV_ENOMEM, "out of memory");
    }
    for (int64_t i = 0; i < rp->n; i++) {
        int64_t day = val_day_of(rp->ds.entry_ts[rp->k[i].trade]);
        if (d->n == 0 || d->day[d->n - 1] != day) {
            d->day[d->n] = day;
            d->trades[d->n] = 0;
            d->sum[d->n] = 0;
            d->part[d->n] = rp->part[i];
            d->n++;
        }
        d->trades[d->n - 1]++;
        d->sum[d->n - 1] += rp->k[i].q;
    }
    return EV_OK;
}

/* YYYY-MM-DD of a day number. */
static void day_text(char *buf, size_t n, int64_t day)
{
    int64_t y;
    int m, dd;
    time_civil_from_days(day, &y, &m, &dd);
    snprintf(buf, n, "%04lld-%02d-%02d", (long long)y, m, dd);
}

static void print_days(FILE *out, const replay_t *rp, const days_t *d)
{
    int64_t cum = 0;
    fprintf(out, "top-1 (rank 1 of the %s list) per trading day: kept trades, result (sum of outcomes, %%):\n",
            rp->list);
    fprintf(out, "day         trades      result %%  cumulative %%  part\n");
    for (int64_t i = 0; i < d->n; i++) {
        char date[12];
        cum += d->sum[i];
        day_text(date, sizeof date, d->day[i]);
        fprintf(out, "%s  %6lld  %12.6f  %12.6f  %s\n", date, (long long)d->trades[i], (double)d->sum[i] / 1e6,
                (double)cum / 1e6, d->part[i] == VAL_HOLDOUT ? "holdout" : "in_sample");
    }
}

/* equity.svg: the cumulative result over the trades; daily.svg: the result
 * per day as bars. Holdout trades and days are shaded. */
static ev_status draw(const replay_t *rp, const days_t *d, const report_run_t *r, const char *dir, FILE *log,
                      ev_error *err)
{
    size_t n = (size_t)rp->n + 1, nd = (size_t)d->n + 1;
    double *x = (double *)malloc(n * sizeof *x), *cum = (double *)malloc(n * sizeof *cum);
    double *dx = (double *)malloc(nd * sizeof *dx), *ins = (double *)malloc(nd * sizeof *ins);
    double *hold = (double *)malloc(nd * sizeof *hold);
    uint8_t *shade = (uint8_t *)malloc(n), *dshade = (uint8_t *)malloc(nd);
    char(*date)[12] = (char(*)[12])malloc(nd * sizeof *date);
    const char **dtext = (const char **)malloc(nd * sizeof *dtext);
    char sub[512];
    int64_t c = 0;
    line_chart_t lc;
    chart_series_t eq[1], bars[2];
    ev_status st = EV_OK;
    if (!x || !cum || !dx || !ins || !hold || !shade || !dshade || !date || !dtext)
        st = ev_fail(err, EV_ENOMEM, "out of memory for the equity curve");
    for (int64_t i = 0; st == EV_OK && i < rp->n; i++) {
        c += rp->k[i].q;
        x[i] = (double)(i + 1);
        cum[i] = (double)c / 1e6;
        shade[i] = rp->part[i] == VAL_HOLDOUT;
    }
    for (int64_t i = 0; st == EV_OK && i < d->n; i++) {
        int h = d->part[i] == VAL_HOLDOUT;
        dx[i] = (double)(i + 1);
        ins[i] = h ? NAN : (double)d->sum[i] / 1e6;
        hold[i] = h ? (double)d->sum[i] / 1e6 : NAN;
        dshade[i] = (uint8_t)h;
        day_text(date[i], sizeof date[i], d->day[i]);
        dtext[i] = date[i];
    }
    eq[0] = (chart_series_t){"cumulative result (sum of outcomes)", cum, "#1f77b4", 0};
    bars[0] = (chart_series_t){"in-sample day", ins, "#1f77b4", 0};
    bars[1] = (chart_series_t){"holdout day", hold, "#ff7f0e", 0};
    snprintf(sub, sizeof sub, "rank 1 of the %s list (%s %.6g), %lld kept trades over the whole dataset", rp->list,
             objective_name((objective_kind)r->obj.kind), rp->value, (long long)rp->n);
    memset(&lc, 0, sizeof lc);
    lc.title = "Equity curve of the top-1";
    lc.subtitle = sub;
    lc.x_label = "trade (entry-time order)";
    lc.y_label = "cumulative result, %";
    lc.x = x;
    lc.n = (size_t)rp->n;
    lc.series = eq;
    lc.n_series = 1;
    lc.shade = rp->has_holdout ? shade : NULL;
    lc.shade_label = "holdout trades";
    if (st == EV_OK)
        st = chart_write(dir, "equity.svg", 0, &lc, log, err);
    lc.title = "Result per trading day of the top-1";
    lc.x_label = "trading day (days with kept trades)";
    lc.y_label = "result of the day, %";
    lc.x = dx;
    lc.n = (size_t)d->n;
    lc.series = bars;
    lc.n_series = rp->has_holdout ? 2 : 1;
    lc.shade = rp->has_holdout ? dshade : NULL;
    lc.shade_label = "holdout days";
    lc.bars = 1;
    lc.x_text = dtext;
    if (st == EV_OK)
        st = chart_write(dir, "daily.svg", 0, &lc, log, err);
    free(x);
    free(cum);
    free(dx);
    free(ins);
    free(hold);
    free(shade);
    free(dshade);
    free(date);
    free(dtext);
    return st;
}

ev_status report_equity(report_run_t *r, const char *dataset, const char *dir, FILE *out, FILE *log, ev_error *err)
{
    replay_t rp;
    days_t d;
    ev_error why;
    ev_status st;
    if ((r->has_grid ? r->top.list.n : r->hof.list.n) == 0 || r->strategy)
        return EV_OK; /* no genome to draw, or a strategy's bars (not replayed here) */
    memset(&why, 0, sizeof why);
    if ((st = replay_load(&rp, r, NULL, 1, dataset, &why)) != EV_OK) {
        replay_free(&rp);
        if (dataset || st == EV_ENOMEM) {
            *err = why;
            return st;
        }
        if (log)
            fprintf(log, "report: no equity curve (it replays the top-1 on the run's dataset): %s\n", why.msg);
        return EV_OK;
    }
    if (log)
        fprintf(log, "report: the top-1 replayed on dataset %s (found by %s)\n", rp.dataset_path, rp.dataset_how);
    if ((st = days_make(&d, &rp, err)) == EV_OK) {
        print_days(out, &rp, &d);
        st = draw(&rp, &d, r, dir, log, err);
        if (st == EV_OK)
            st = report_versus(&rp, r, dir, log, err);
        days_free(&d);
    }
    replay_free(&rp);
    return st;
}
