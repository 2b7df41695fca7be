#include "runs/trades_kinds.h"

#include <stdlib.h>
#include <string.h>

#include "common/shortest.h"
#include "signals/atc_config.h"
#include "signals/atc_features.h"
#include "signals/atc_params.h"
#include "signals/features.h"
#include "signals/se_params.h"
#include "signals/strategy.h"
#include "signals/strategy_hd.h"

/* The table's thin adapters, one set per strategy: the signals/ entry points
 * are parallel (PREFIX_params_defaults, PREFIX_params_set, PREFIX_config_base,
 * PREFIX_config_check, PREFIX_features_*), so one template serves both. */
#define KIND_ADAPTERS(P, GENOME, STORE)                                                                    \
    static void P##_defaults_v(void *g)                                                                    \
    {                                                                                                      \
        P##_params_defaults((GENOME *)g);                                                                  \
    }                                                                                                      \
    static ev_status P##_set_v(void *g, const char *n, size_t nn, const char *v, size_t vn, ev_error *err) \
    {                                                                                                      \
        return P##_params_set((GENOME *)g, n, nn, v, vn, err);                                             \
    }                                                                                                      \
    static void P##_base_v(const se_config_t *c, void *g)                                                  \
    {                                                                                                      \
        P##_config_base(c, (GENOME *)g);                                                                   \
    }                                                                                                      \
    static ev_status P##_config_check_v(const se_config_t *c, const void *g, ev_error *err)                \
    {                                                                                                      \
        return P##_config_check(c, (const GENOME *)g, err);                                                \
    }                                                                                                      \
    static ev_status P##_store_create_v(const bars_t *b, void **store, ev_error *err)                      \
    {                                                                                                      \
        STORE *f = NULL;                                                                                   \
        ev_status st = P##_features_create(b, &f, err);                                                    \
        *store = f;                                                                                        \
        return st;                                                                                         \
    }                                                                                                      \
    static void P##_store_free_v(void *s)                                                                  \
    {                                                                                                      \
        P##_features_free((STORE *)s);                                                                     \
    }                                                                                                      \
    static int64_t P##_computed_v(const void *s)                                                           \
    {                                                                                                      \
        return P##_features_computed((const STORE *)s);                                                    \
    }                                                                                                      \
    static int64_t P##_lookups_v(const void *s)                                                            \
    {                                                                                                      \
        return P##_features_lookups((const STORE *)s);                                                     \
    }

KIND_ADAPTERS(se, se_params_t, se_features_t)
KIND_ADAPTERS(atc, atc_params_t, atc_features_t)

/* ---- the trade rows --------------------------------------------------------- */

/* The columns every strategy's row starts with:
 * genome,signal_bar,entry_bar,exit_bar,entry_time,exit_time */
static void row_head(FILE *f, const bars_t *b, int64_t g, int64_t signal_bar, int64_t entry_bar, int64_t exit_bar)
{
    char te[32], tx[32];
    bars_format_time(b, entry_bar, te, sizeof te);
    bars_format_time(b, exit_bar, tx, sizeof tx);
    fprintf(f, "%lld,%lld,%lld,%lld,%s,%s", (long long)g, (long long)signal_bar, (long long)entry_bar,
            (long long)exit_bar, te, tx);
}

/* The numbers v[n], each with a comma before it, as the shortest text
 * that reads back as the same double. */
static void put_numbers(FILE *f, const double *v, int n)
{
    char buf[EV_SHORTEST_MAX];
    for (int k = 0; k < n; k++)
        fprintf(f, ",%s", ev_shortest(buf, sizeof buf, v[k]));
}

/* A trade's outcome_pct: its outcome as the fitness sums it (micro-percent,
 * cost_pct subtracted) in percent, then the row's end. */
static void row_tail(FILE *f, double pnl, double entry, double cost_pct)
{
    const double o = (double)strategy_outcome_q(strategy_trade_pct(pnl, entry), cost_pct) / 1e6;
    put_numbers(f, &o, 1);
    fputc('\n', f);
}

static ev_status se_write(void *store, const bars_t *b, int64_t g, const void *genome, double cost_pct, FILE *f,
                          FILE *mout, int64_t *n, ev_error *err)
{
    se_trade_t *t;
    ev_status st = se_run_genome((se_features_t *)store, (const se_params_t *)genome, &t, n, err);
    if (st != EV_OK)
        return st;
    for (int64_t k = 0; k < *n; k++) {
        const double prices[] = {t[k].entry, t[k].exit, t[k].stop, t[k].tp, t[k].risk};
        const double result[] = {t[k].pnl, t[k].r_mult};
        row_head(f, b, g, t[k].signal_bar, t[k].entry_bar, t[k].exit_bar);
        put_numbers(f, prices, 5);
        fprintf(f, ",%s", se_reason_name(t[k].reason));
        put_numbers(f, result, 2);
        row_tail(f, t[k].pnl, t[k].entry, cost_pct);
    }
    if (mout) {
        se_metrics_t m;
        se_metrics(t, *n, &m);
        const double v[] = {m.win_rate, m.avg_r, m.total_pnl, m.max_dd, m.sharpe};
        fprintf(mout, "%lld,%lld", (long long)g, (long long)m.n);
        put_numbers(mout, v, 5);
        fputc('\n', mout);
    }
    free(t);
    return EV_OK;
}

static ev_status atc_check_v(const void *g, ev_error *err)
{
    return atc_params_check((const atc_params_t *)g, err);
}

static ev_status atc_write(void *store, const bars_t *b, int64_t g, const void *genome, double cost_pct, FILE *f,
                           FILE *mout, int64_t *n, ev_error *err)
{
    atc_trade_t *t;
    ev_status st = atc_run_genome((atc_features_t *)store, (const atc_params_t *)genome, &t, n, err);
    (void)mout;
    if (st != EV_OK)
        return st;
    for (int64_t k = 0; k < *n; k++) {
        const double prices[] = {t[k].entry, t[k].exit};
        row_head(f, b, g, t[k].signal_bar, t[k].entry_bar, t[k].exit_bar);
        fputs(t[k].side > 0 ? ",long" : ",short", f);
        put_numbers(f, prices, 2);
        fprintf(f, ",%s", atc_reason_name(t[k].reason));
        put_numbers(f, &t[k].pnl, 1);
        row_tail(f, t[k].pnl, t[k].entry, cost_pct);
    }
    free(t);
    return EV_OK;
}

static const trades_kind_t kinds[] = {
    {"seller_exhaustion", sizeof(se_params_t),
     "genome,signal_bar,entry_bar,exit_bar,entry_time,exit_time,entry,exit,stop,tp,risk,reason,pnl,R,outcome_pct\n",
     "genome,n,win_rate,avg_R,total_pnl,max_dd,sharpe\n", se_defaults_v, se_set_v, se_base_v, se_config_check_v, NULL,
     se_store_create_v, se_store_free_v, se_computed_v, se_lookups_v, se_write},
    {"atc", sizeof(atc_params_t),
     "genome,signal_bar,entry_bar,exit_bar,entry_time,exit_time,side,entry,exit,reason,pnl,outcome_pct\n", NULL,
     atc_defaults_v, atc_set_v, atc_base_v, atc_config_check_v, atc_check_v, atc_store_create_v, atc_store_free_v,
     atc_computed_v, atc_lookups_v, atc_write},
};

const trades_kind_t *trades_kind_of(int type)
{
    return type == STRATEGY_ATC ? &kinds[1] : &kinds[0];
}

const trades_kind_t *trades_kind_named(const char *name)
{
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
        if (!strcmp(name, kinds[k].name))
            return &kinds[k];
    return NULL;
}

size_t trades_kind_marks(const char **out, size_t cap)
{
    size_t n = 0;
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        if (n < cap)
            out[n++] = kinds[k].header;
        if (kinds[k].metrics_header && n < cap)
            out[n++] = kinds[k].metrics_header;
    }
    if (n < cap)
        out[n] = NULL;
    return n;
}
