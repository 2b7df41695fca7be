#include "signals/features.h"

#include <stdlib.h>
#include <string.h>

#include "common/parallel.h"
#include "signals/indicators.h"

enum { SER_EMA = 0, SER_ATR, SER_VOLZ, SER_TRZ };

typedef struct {
    int kind;
    int32_t a, b;
    double *v;
} series_t;

struct se_features {
    const bars_t *bars;
    double *tr, *cloc, *session_end;
    series_t *ser;
    int64_t n_ser, cap_ser;
    int64_t lookups, computed;
};

ev_status se_features_create(const bars_t *b, se_features_t **out, ev_error *err)
{
    se_features_t *f = (se_features_t *)calloc(1, sizeof *f);
    const int64_t n = b->n;
    *out = NULL;
    if (!f)
        return ev_fail(err, EV_ENOMEM, "out of memory for the indicator store");
    f->bars = b;
    f->tr = (double *)malloc((size_t)(n ? n : 1) * sizeof(double));
    f->cloc = (double *)malloc((size_t)(n ? n : 1) * sizeof(double));
    f->session_end = bars_session_ends(b);
    if (!f->tr || !f->cloc || !f->session_end) {
        se_features_free(f);
        return ev_fail(err, EV_ENOMEM, "out of memory for the indicators of %lld bars", (long long)n);
    }
    for (int64_t i = 0; i < n; i++) {
        f->tr[i] = ind_true_range_at(b->high, b->low, b->close, i);
        f->cloc[i] = ind_close_location(b->high[i], b->low[i], b->close[i]);
    }
    *out = f;
    return EV_OK;
}

void se_features_free(se_features_t *f)
{
    if (!f)
        return;
    for (int64_t i = 0; i < f->n_ser; i++)
        free(f->ser[i].v);
    free(f->ser);
    free(f->tr);
    free(f->cloc);
    free(f->session_end);
    free(f);
}

int64_t se_features_computed(const se_features_t *f)
{
    return f->computed;
}

uint64_t se_features_bytes(const se_features_t *f)
{
    return (uint64_t)f->n_ser * (uint64_t)f->bars->n * sizeof(double);
}

void se_features_clear(se_features_t *f)
{
    for (int64_t i = 0; i < f->n_ser; i++)
        free(f->ser[i].v);
    f->n_ser = 0;
}

int64_t se_features_lookups(const se_features_t *f)
{
    return f->lookups;
}

static const double *find(const se_features_t *f, int kind, int32_t a, int32_t b)
{
    for (int64_t i = 0; i < f->n_ser; i++)
        if (f->ser[i].kind == kind && f->ser[i].a == a && f->ser[i].b == b)
            return f->ser[i].v;
    return NULL;
}

static ev_status get(se_features_t *f, int kind, int32_t a, int32_t b, const double **out, ev_error *err);

/* A window function at every bar: each bar is a function of its own window
 * alone, so the bars are shared among threads and the bits do not depend on
 * how many there are. z: 1 for the z-score, 0 for the mean. */
static void window_series(const double *x, int64_t n, int32_t w, int z, double *v)
{
    const double work = (double)n * (double)w * (z ? 3.0 : 1.0);
    (void)work;
#ifdef _OPENMP
#pragma omp parallel for schedule(static) if (work >= EV_PARALLEL_MIN_WORK)
#endif
    for (int64_t i = 0; i < n; i++)
        v[i] = z ? ind_zscore_at(x, i, w) : ind_sma_at(x, i, w);
}

static ev_status compute(se_features_t *f, int kind, int32_t a, int32_t b, double *v, ev_error *err)
{
    const bars_t *bars = f->bars;
    const int64_t n = bars->n;
    ev_status st;
    switch (kind) {
    case SER_EMA: ind_ema_pandas(bars->close, n, a, v); return EV_OK;
    case SER_ATR: window_series(f->tr, n, a, 0, v); return EV_OK;
    case SER_VOLZ: window_series(bars->volume, n, a, 1, v); return EV_OK;
    default: { /* SER_TRZ: zscore(ATR(a) * a, b), the product in binary64 first */
        const double *atr;
        double *prod;
        if ((st = get(f, SER_ATR, a, 0, &atr, err)) != EV_OK)
            return st;
        prod = (double *)malloc((size_t)(n ? n : 1) * sizeof(double));
        if (!prod)
            return ev_fail(err, EV_ENOMEM, "out of memory for the indicators of %lld bars", (long long)n);
        for (int64_t i = 0; i < n; i++)
            prod[i] = atr[i] * (double)a;
        window_series(prod, n, b, 1, v);
        free(prod);
        return EV_OK;
    }
    }
}

static ev_status get(se_features_t *f, int kind, int32_t a, int32_t b, const double **out, ev_error *err)
{
    const double *have = find(f, kind, a, b);
    series_t *s;
    ev_status st;
    f->lookups++;
    if (have) {
        *out = have;
        return EV_OK;
    }
    if (f->n_ser == f->cap_ser) {
        int64_t c = f->cap_ser ? 2 * f->cap_ser : 16;
        series_t *p = (series_t *)realloc(f->ser, (size_t)c * sizeof *p);
        if (!p)
            return ev_fail(err, EV_ENOMEM, "out of memory for the indicator store");
        f->ser = p;
        f->cap_ser = c;
    }
    {
        double *v = (double *)malloc((size_t)(f->bars->n ? f->bars->n : 1) * sizeof(double));
        if (!v)
            return ev_fail(err, EV_ENOMEM, "out of memory for the indicators of %lld bars", (long long)f->bars->n);
        if ((st = compute(f, kind, a, b, v, err)) != EV_OK) {
            free(v);
            return st;
        }
        /* compute may have added the ATR a tr_z needs: append after it */
        s = &f->ser[f->n_ser];
        if (f->n_ser == f->cap_ser) {
            int64_t c = 2 * f->cap_ser;
            series_t *p = (series_t *)realloc(f->ser, (size_t)c * sizeof *p);
            if (!p) {
                free(v);
                return ev_fail(err, EV_ENOMEM, "out of memory for the indicator store");
            }
            f->ser = p;
            f->cap_ser = c;
            s = &f->ser[f->n_ser];
        }
        s->kind = kind;
        s->a = a;
        s->b = b;
        s->v = v;
        f->n_ser++;
        f->computed++;
        *out = v;
    }
    return EV_OK;
}

/* The bars' part of a genome's series. */
static void series_bars(const se_features_t *f, se_series_t *s)
{
    memset(s, 0, sizeof *s);
    s->n = f->bars->n;
    s->open = f->bars->open;
    s->high = f->bars->high;
    s->low = f->bars->low;
    s->close = f->bars->close;
    s->cloc = f->cloc;
    s->session_end = f->session_end;
}

int se_features_find(const se_features_t *f, const se_params_t *p, se_series_t *s)
{
    series_bars(f, s);
    s->ema_fast = find(f, SER_EMA, p->ema_fast, 0);
    s->ema_slow = find(f, SER_EMA, p->ema_slow, 0);
    s->atr = find(f, SER_ATR, p->atr_window, 0);
    s->vol_z = find(f, SER_VOLZ, p->z_window, 0);
    s->tr_z = find(f, SER_TRZ, p->atr_window, p->z_window);
    return s->ema_fast && s->ema_slow && s->atr && s->vol_z && s->tr_z;
}

ev_status se_features_series(se_features_t *f, const se_params_t *p, se_series_t *s, ev_error *err)
{
    ev_status st;
    if (p->ema_fast < 1 || p->ema_slow < 1 || p->z_window < 1 || p->atr_window < 1 || p->max_hold < 1)
        return ev_fail(err, EV_ECONFIG,
                       "seller_exhaustion: ema_fast, ema_slow, z_window, atr_window and max_hold must be at least 1 "
                       "bar (got %d, %d, %d, %d, %d)",
                       (int)p->ema_fast, (int)p->ema_slow, (int)p->z_window, (int)p->atr_window, (int)p->max_hold);
    series_bars(f, s);
    if ((st = get(f, SER_EMA, p->ema_fast, 0, &s->ema_fast, err)) != EV_OK ||
        (st = get(f, SER_EMA, p->ema_slow, 0, &s->ema_slow, err)) != EV_OK ||
        (st = get(f, SER_ATR, p->atr_window, 0, &s->atr, err)) != EV_OK ||
        (st = get(f, SER_VOLZ, p->z_window, 0, &s->vol_z, err)) != EV_OK ||
        (st = get(f, SER_TRZ, p->atr_window, p->z_window, &s->tr_z, err)) != EV_OK)
        return st;
    return EV_OK;
}

ev_status se_run_genome(se_features_t *f, const se_params_t *p, se_trade_t **trades, int64_t *n, ev_error *err)
{
    se_series_t s;
    int64_t k;
    ev_status st;
    *trades = NULL;
    *n = 0;
    if ((st = se_features_series(f, p, &s, err)) != EV_OK)
        return st;
    k = se_backtest(&s, p, NULL, 0);
    if (k > 0) {
        *trades = (se_trade_t *)malloc((size_t)k * sizeof **trades);
        if (!*trades)
            return ev_fail(err, EV_ENOMEM, "out of memory for %lld trades", (long long)k);
        se_backtest(&s, p, *trades, k);
    }
    *n = k;
    return EV_OK;
}

const char *se_reason_name(int32_t reason)
{
    switch (reason) {
    case SE_STOP_GAP: return "stop_gap";
    case SE_STOP: return "stop";
    case SE_TP: return "tp";
    case SE_TIME: return "time";
    case SE_SESSION: return "session";
    default: return "?";
    }
}
