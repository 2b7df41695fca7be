#include "report/report_versus.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "archive/run_validation.h"
#include "fitness/validation.h"
#include "io/timeparse.h"
#include "report/chart.h"

/* The dataset's trading days (of its trades' entries) and their parts. */
typedef struct {
    int64_t *day;
    int32_t n;
    uint8_t *holdout; /* [n] */
    char (*text)[12];
    const char **label;
} axis_t;

static void axis_free(axis_t *a)
{
    free(a->day);
    free(a->holdout);
    free(a->text);
    free(a->label);
}

static ev_status axis_make(axis_t *a, const replay_t *rp, report_run_t *r, ev_error *err)
{
    int64_t *days = NULL;
    int32_t *part = NULL, nd = 0;
    ev_status st = val_days(&rp->ds, &a->day, &a->n, err);
    if (st != EV_OK)
        return st;
    a->holdout = (uint8_t *)calloc((size_t)a->n + 1, 1);
    a->text = (char(*)[12])calloc((size_t)a->n + 1, sizeof *a->text);
    a->label = (const char **)calloc((size_t)a->n + 1, sizeof *a->label);
    if (!a->holdout || !a->text || !a->label)
        return ev_fail(err, EV_ENOMEM, "out of memory");
    if ((st = run_file_read_day_parts(&r->rf, rp->list, &days, &part, &nd, err)) != EV_OK)
        return st;
    for (int32_t i = 0, j = 0; i < nd; i++) { /* the run's split: both lists ascending */
        while (j < a->n && a->day[j] < days[i])
            j++;
        if (j < a->n && a->day[j] == days[i])
            a->holdout[j] = part[i] == VAL_HOLDOUT;
    }
    free(days);
    free(part);
    for (int32_t j = 0; j < a->n; j++) {
        int64_t y;
        int m, d;
        time_civil_from_days(a->day[j], &y, &m, &d);
        snprintf(a->text[j], sizeof a->text[j], "%04lld-%02d-%02d", (long long)y, m, d);
        a->label[j] = a->text[j];
    }
    return EV_OK;
}

/* y[j]: the cumulative sum of k's outcomes up to the end of day j, percent. */
static void cumulate(const axis_t *a, const replay_t *rp, const kept_trade_t *k, int64_t n, double *y)
{
    int64_t sum = 0, i = 0;
    for (int32_t j = 0; j < a->n; j++) {
        for (; i < n && val_day_of(rp->ds.entry_ts[k[i].trade]) <= a->day[j]; i++)
            sum += k[i].q;
        y[j] = (double)sum / 1e6;
    }
}

/* Baseline point b's kept trades on rp's dataset, as the run evaluated it. */
static ev_status baseline_trades(const replay_t *rp, report_run_t *r, const baseline_point_t *b, kept_trade_t **k,
                                 int64_t *n, ev_error *err)
{
    lattice_t lat;
    fit_problem_t p;
    tables_host_t t;
    uint16_t genes[EV_MAX_PARAMS];
    ev_status st;
    memset(&p, 0, sizeof p);
    memset(&t, 0, sizeof t);
    memset(genes, 0, sizeof genes);
    if ((st = baseline_lattice(&lat, &r->lat, b, err)) != EV_OK)
        return st;
    if ((st = lattice_bind(&lat, &rp->ds, err)) == EV_OK &&
        (st = problem_init(&p, &rp->ds, &lat, &r->obj, err)) == EV_OK && (st = tables_build(&t, &p, err)) == EV_OK)
        st = kept_trades(&p, &t.view, genes, k, n, err);
    tables_free(&t);
    problem_free(&p);
    lattice_free(&lat);
    return st;
}

static const char *const colors[] = {"#1f77b4", "#555555", "#2ca02c", "#d62728"};

ev_status report_versus(const replay_t *rp, report_run_t *r, const char *dir, FILE *log, ev_error *err)
{
    const reported_t *l = r->has_grid ? &r->top.list : &r->hof.list;
    const reported_base_t *b = l->base;
    chart_series_t s[1 + BASELINE_KINDS];
    double *y[1 + BASELINE_KINDS] = {NULL};
    char names[1 + BASELINE_KINDS][48];
    axis_t a;
    double *x = NULL;
    line_chart_t lc;
    int ns = 0;
    ev_status st;
    memset(&a, 0, sizeof a);
    if (!b || !b->n)
        return EV_OK;
    if ((st = axis_make(&a, rp, r, err)) == EV_OK && !(x = (double *)malloc(((size_t)a.n + 1) * sizeof *x)))
        st = ev_fail(err, EV_ENOMEM, "out of memory");
    for (int32_t j = 0; st == EV_OK && j < a.n; j++)
        x[j] = (double)(j + 1);
    for (uint32_t i = 0; st == EV_OK && i <= b->n; i++) {
        kept_trade_t *k = NULL;
        int64_t n = 0;
        if (!(y[ns] = (double *)malloc(((size_t)a.n + 1) * sizeof *y[ns]))) {
            st = ev_fail(err, EV_ENOMEM, "out of memory");
            break;
        }
        if (i == 0) { /* rank 1 first, then each baseline */
            cumulate(&a, rp, rp->k, rp->n, y[ns]);
            snprintf(names[ns], sizeof names[ns], "rank 1");
        } else if ((st = baseline_trades(rp, r, &b->point[i - 1], &k, &n, err)) == EV_OK) {
            cumulate(&a, rp, k, n, y[ns]);
            snprintf(names[ns], sizeof names[ns], "%s", baseline_name(b->kind[i - 1]));
        }
        free(k);
        s[ns] = (chart_series_t){names[ns], y[ns], colors[ns % 4], ns > 0};
        ns++;
    }
    memset(&lc, 0, sizeof lc);
    lc.title = "Rank 1 and the baselines";
    lc.subtitle = "cumulative result (sum of kept trades' outcomes) at the end of each trading day, whole dataset";
    lc.x_label = "trading day";
    lc.y_label = "cumulative result, %";
    lc.x = x;
    lc.n = (size_t)a.n;
    lc.series = s;
    lc.n_series = ns;
    lc.shade = a.holdout;
    lc.shade_label = "holdout days";
    lc.x_text = a.label;
    if (st == EV_OK)
        st = chart_write(dir, "versus.svg", 0, &lc, log, err);
    for (int i = 0; i < ns; i++)
        free(y[i]);
    free(x);
    axis_free(&a);
    return st;
}
