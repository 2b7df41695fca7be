#include "signals/atc_features.h"

#include <stdlib.h>
#include <string.h>

#include "signals/atc_params.h"

/* A shared series: a cross state (kind a family or ATC_SMA, len its length)
 * or a growth table (kind GROWTH, la its La). */
enum { GROWTH = ATC_SMA + 1 };

typedef struct {
    int kind;
    int32_t len;
    double la;
    void *data; /* int8_t[n] state or double[n] growth */
} atc_entry_t;

struct atc_features {
    const bars_t *bars;
    double *ret, *session_end;
    double *ma, *scratch; /* work for one MA at a time */
    atc_entry_t *ent;
    int64_t n_ent, cap_ent;
    int64_t computed, lookups;
};

static size_t bytes(int64_t n, size_t each)
{
    return (size_t)(n > 0 ? n : 1) * each;
}

ev_status atc_features_create(const bars_t *b, atc_features_t **out, ev_error *err)
{
    atc_features_t *f = (atc_features_t *)calloc(1, sizeof *f);
    *out = NULL;
    if (!f)
        return ev_fail(err, EV_ENOMEM, "out of memory for the atc store");
    f->bars = b;
    f->ret = (double *)malloc(bytes(b->n, sizeof(double)));
    f->ma = (double *)malloc(bytes(b->n, sizeof(double)));
    f->scratch = (double *)malloc(bytes(b->n, sizeof(double)));
    f->session_end = bars_session_ends(b);
    if (!f->ret || !f->ma || !f->scratch || !f->session_end) {
        atc_features_free(f);
        return ev_fail(err, EV_ENOMEM, "out of memory for the atc series of %lld bars", (long long)b->n);
    }
    for (int64_t i = 0; i < b->n; i++)
        f->ret[i] = atc_return_at(b->close, i);
    *out = f;
    return EV_OK;
}

void atc_features_clear(atc_features_t *f)
{
    for (int64_t i = 0; i < f->n_ent; i++)
        free(f->ent[i].data);
    f->n_ent = 0;
}

uint64_t atc_features_bytes(const atc_features_t *f)
{
    uint64_t total = 0;
    for (int64_t i = 0; i < f->n_ent; i++)
        total += (uint64_t)bytes(f->bars->n, f->ent[i].kind == GROWTH ? sizeof(double) : 1);
    return total;
}

void atc_features_free(atc_features_t *f)
{
    if (!f)
        return;
    atc_features_clear(f);
    free(f->ent);
    free(f->ret);
    free(f->session_end);
    free(f->ma);
    free(f->scratch);
    free(f);
}

int64_t atc_features_computed(const atc_features_t *f)
{
    return f->computed;
}

int64_t atc_features_lookups(const atc_features_t *f)
{
    return f->lookups;
}

static const void *find(const atc_features_t *f, int kind, int32_t len, double la)
{
    for (int64_t i = 0; i < f->n_ent; i++)
        if (f->ent[i].kind == kind && f->ent[i].len == len && f->ent[i].la == la)
            return f->ent[i].data;
    return NULL;
}

/* The series (kind, len, la), computed when the store lacks it. */
static ev_status get(atc_features_t *f, int kind, int32_t len, double la, const void **out, ev_error *err)
{
    const bars_t *b = f->bars;
    atc_entry_t *e;
    f->lookups++;
    if ((*out = find(f, kind, len, la)) != NULL)
        return EV_OK;
    if (f->n_ent == f->cap_ent) {
        const int64_t c = f->cap_ent ? 2 * f->cap_ent : 64;
        atc_entry_t *p = (atc_entry_t *)realloc(f->ent, (size_t)c * sizeof *p);
        if (!p)
            return ev_fail(err, EV_ENOMEM, "out of memory for the atc store");
        f->ent = p;
        f->cap_ent = c;
    }
    e = &f->ent[f->n_ent];
    e->data = malloc(bytes(b->n, kind == GROWTH ? sizeof(double) : 1));
    if (!e->data)
        return ev_fail(err, EV_ENOMEM, "out of memory for the atc series of %lld bars", (long long)b->n);
    e->kind = kind;
    e->len = len;
    e->la = la;
    if (kind == GROWTH) {
        /* g[j] = exp(lambda * j) from j alone: a genome of cutout c reads g[i - c] */
        const double lambda = atc_lambda(la);
        double *g = (double *)e->data;
        for (int64_t j = 0; j < b->n; j++)
            g[j] = atc_growth(lambda, j);
    } else {
        atc_ma(kind, b->close, b->n, len, f->scratch, f->ma);
        atc_cross_state(b->close, f->ma, b->n, (int8_t *)e->data);
    }
    f->n_ent++;
    f->computed++;
    *out = e->data;
    return EV_OK;
}

static void series_head(const atc_features_t *f, atc_series_t *s)
{
    memset(s, 0, sizeof *s);
    s->n = f->bars->n;
    s->open = f->bars->open;
    s->close = f->bars->close;
    s->ret = f->ret;
    s->session_end = f->session_end;
}

static int kind_of(const atc_params_t *p, int fam)
{
    return fam == ATC_HMA && p->hma_as_sma ? ATC_SMA : fam;
}

ev_status atc_features_series(atc_features_t *f, const atc_params_t *p, atc_series_t *s, ev_error *err)
{
    const void *v;
    ev_status st;
    if ((st = atc_params_check(p, err)) != EV_OK)
        return st;
    series_head(f, s);
    for (int fam = 0; fam < ATC_FAMILIES; fam++)
        for (int k = 0; k < ATC_MEMBERS; k++) {
            if ((st = get(f, kind_of(p, fam), atc_member_len(p->len[fam], p->robustness, k), 0.0, &v, err)) != EV_OK)
                return st;
            s->state[fam][k] = (const int8_t *)v;
        }
    if ((st = get(f, GROWTH, 0, p->la, &v, err)) != EV_OK)
        return st;
    s->growth = (const double *)v;
    return EV_OK;
}

int atc_features_find(const atc_features_t *f, const atc_params_t *p, atc_series_t *s)
{
    if (!atc_params_feasible(p))
        return 0;
    series_head(f, s);
    for (int fam = 0; fam < ATC_FAMILIES; fam++)
        for (int k = 0; k < ATC_MEMBERS; k++)
            if (!(s->state[fam][k] =
                      (const int8_t *)find(f, kind_of(p, fam), atc_member_len(p->len[fam], p->robustness, k), 0.0)))
                return 0;
    return (s->growth = (const double *)find(f, GROWTH, 0, p->la)) != NULL;
}

ev_status atc_run_genome(atc_features_t *f, const atc_params_t *p, atc_trade_t **trades, int64_t *n, ev_error *err)
{
    atc_series_t s;
    int64_t k, cap = 256;
    ev_status st;
    *trades = NULL;
    *n = 0;
    if ((st = atc_features_series(f, p, &s, err)) != EV_OK)
        return st;
    /* one pass when the trades fit the first guess (the pass is the cost) */
    for (;;) {
        atc_trade_t *t = (atc_trade_t *)realloc(*trades, (size_t)cap * sizeof *t);
        if (!t) {
            free(*trades);
            *trades = NULL;
            return ev_fail(err, EV_ENOMEM, "out of memory for %lld trades", (long long)cap);
        }
        *trades = t;
        k = atc_backtest(&s, p, t, cap);
        if (k <= cap)
            break;
        cap = k;
    }
    if (k == 0) {
        free(*trades);
        *trades = NULL;
    }
    *n = k;
    return EV_OK;
}

const char *atc_reason_name(int32_t reason)
{
    return reason == ATC_SIGNAL ? "signal" : reason == ATC_SESSION ? "session" : "?";
}
