#include "cli/trades_kinds.h"

#include <stdlib.h>
#include <string.h>

#include "signals/atc_config.h"
#include "signals/atc_features.h"
#include "signals/atc_params.h"
#include "signals/features.h"
#include "signals/se_params.h"

/* ---- seller_exhaustion ------------------------------------------------------ */

static void se_defaults(void *g)
{
    se_params_defaults((se_params_t *)g);
}

static ev_status se_set(void *g, const char *n, size_t nn, const char *v, size_t vn, ev_error *err)
{
    return se_params_set((se_params_t *)g, n, nn, v, vn, err);
}

static void se_base(const se_config_t *c, void *g)
{
    se_config_base(c, (se_params_t *)g);
}

static ev_status se_check(const se_config_t *c, const void *g, ev_error *err)
{
    return se_config_check(c, (const se_params_t *)g, err);
}

static ev_status se_store_create(const bars_t *b, void **store, ev_error *err)
{
    se_features_t *f = NULL;
    ev_status st = se_features_create(b, &f, err);
    *store = f;
    return st;
}

static void se_store_free(void *s)
{
    se_features_free((se_features_t *)s);
}

static int64_t se_computed(const void *s)
{
    return se_features_computed((const se_features_t *)s);
}

static int64_t se_lookups(const void *s)
{
    return se_features_lookups((const se_features_t *)s);
}

static ev_status se_write(void *store, const bars_t *b, int64_t g, const void *genome, FILE *f, FILE *mout, int64_t *n,
                          ev_error *err)
{
    se_trade_t *t;
    ev_status st = se_run_genome((se_features_t *)store, (const se_params_t *)genome, &t, n, err);
    if (st != EV_OK)
        return st;
    for (int64_t k = 0; k < *n; k++) {
        char te[32], tx[32];
        bars_format_time(b, t[k].entry_bar, te, sizeof te);
        bars_format_time(b, t[k].exit_bar, tx, sizeof tx);
        fprintf(f, "%lld,%lld,%lld,%lld,%s,%s,%.17g,%.17g,%.17g,%.17g,%.17g,%s,%.17g,%.17g\n", (long long)g,
                (long long)t[k].signal_bar, (long long)t[k].entry_bar, (long long)t[k].exit_bar, te, tx, t[k].entry,
                t[k].exit, t[k].stop, t[k].tp, t[k].risk, se_reason_name(t[k].reason), t[k].pnl, t[k].r_mult);
    }
    if (mout) {
        se_metrics_t m;
        se_metrics(t, *n, &m);
        fprintf(mout, "%lld,%lld,%.17g,%.17g,%.17g,%.17g,%.17g\n", (long long)g, (long long)m.n, m.win_rate, m.avg_r,
                m.total_pnl, m.max_dd, m.sharpe);
    }
    free(t);
    return EV_OK;
}

/* ---- atc ------------------------------------------------------------------ */

static void atc_defaults(void *g)
{
    atc_params_defaults((atc_params_t *)g);
}

static ev_status atc_set(void *g, const char *n, size_t nn, const char *v, size_t vn, ev_error *err)
{
    return atc_params_set((atc_params_t *)g, n, nn, v, vn, err);
}

static void atc_base(const se_config_t *c, void *g)
{
    atc_config_base(c, (atc_params_t *)g);
}

static ev_status atc_cfg_check(const se_config_t *c, const void *g, ev_error *err)
{
    return atc_config_check(c, (const atc_params_t *)g, err);
}

static ev_status atc_check(const void *g, ev_error *err)
{
    return atc_params_check((const atc_params_t *)g, err);
}

static ev_status atc_store_create(const bars_t *b, void **store, ev_error *err)
{
    atc_features_t *f = NULL;
    ev_status st = atc_features_create(b, &f, err);
    *store = f;
    return st;
}

static void atc_store_free(void *s)
{
    atc_features_free((atc_features_t *)s);
}

static int64_t atc_computed(const void *s)
{
    return atc_features_computed((const atc_features_t *)s);
}

static int64_t atc_lookups(const void *s)
{
    return atc_features_lookups((const atc_features_t *)s);
}

static ev_status atc_write(void *store, const bars_t *b, int64_t g, const void *genome, FILE *f, FILE *mout, int64_t *n,
                           ev_error *err)
{
    atc_trade_t *t;
    ev_status st = atc_run_genome((atc_features_t *)store, (const atc_params_t *)genome, &t, n, err);
    (void)mout;
    if (st != EV_OK)
        return st;
    for (int64_t k = 0; k < *n; k++) {
        char te[32], tx[32];
        bars_format_time(b, t[k].entry_bar, te, sizeof te);
        bars_format_time(b, t[k].exit_bar, tx, sizeof tx);
        fprintf(f, "%lld,%lld,%lld,%lld,%s,%s,%s,%.17g,%.17g,%s,%.17g\n", (long long)g, (long long)t[k].signal_bar,
                (long long)t[k].entry_bar, (long long)t[k].exit_bar, te, tx, t[k].side > 0 ? "long" : "short",
                t[k].entry, t[k].exit, atc_reason_name(t[k].reason), t[k].pnl);
    }
    free(t);
    return EV_OK;
}

static const trades_kind_t kinds[] = {
    {"seller_exhaustion", sizeof(se_params_t),
     "genome,signal_bar,entry_bar,exit_bar,entry_time,exit_time,entry,exit,stop,tp,risk,reason,pnl,R\n",
     "genome,n,win_rate,avg_R,total_pnl,max_dd,sharpe\n", se_defaults, se_set, se_base, se_check, NULL, se_store_create,
     se_store_free, se_computed, se_lookups, se_write},
    {"atc", sizeof(atc_params_t),
     "genome,signal_bar,entry_bar,exit_bar,entry_time,exit_time,side,entry,exit,reason,pnl\n", NULL, atc_defaults,
     atc_set, atc_base, atc_cfg_check, atc_check, atc_store_create, atc_store_free, atc_computed, atc_lookups,
     atc_write},
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

int trades_kind_is_header(const char *line)
{
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
        if (!strcmp(line, kinds[k].header))
            return 1;
    return 0;
}
