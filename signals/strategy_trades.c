#include "signals/strategy_trades.h"

#include <stdlib.h>

#include "signals/atc_strategy.h"
#include "signals/se_strategy.h"

int32_t strategy_exit_reason(int32_t reason)
{
    switch (reason) {
    case SE_TP: return EXIT_TARGET;
    case SE_STOP:
    case SE_STOP_GAP: return EXIT_STOP;
    default: /* SE_TIME, ATC_SIGNAL */ return EXIT_LOGGED;
    }
}

ev_status strategy_genome_kept(strategy_t *s, const uint16_t *genes, kept_trade_t **out, int32_t **part, int64_t *n,
                               ev_error *err)
{
    const int64_t *ts = strategy_ops(s)->bar_ts(strategy_state(s));
    strategy_trade_t *t = NULL;
    int64_t *q;
    int feasible;
    ev_status st = strategy_genome_outcomes(s, genes, &q, part, &t, n, &feasible, err);
    *out = NULL;
    if (st != EV_OK)
        return st;
    if (feasible && !(*out = (kept_trade_t *)malloc(((size_t)*n + 1) * sizeof **out)))
        st = ev_fail(err, EV_ENOMEM, "out of memory for a genome's trades");
    for (int64_t k = 0; st == EV_OK && *out && k < *n; k++) {
        (*out)[k].trade = k;
        (*out)[k].q = q[k];
        (*out)[k].entry_ts = ts[t[k].entry_bar];
        (*out)[k].exit_ts = ts[t[k].exit_bar];
        (*out)[k].reason = strategy_exit_reason(t[k].reason);
        (*out)[k].pad_ = 0;
    }
    free(q);
    free(t);
    if (st != EV_OK || !feasible) {
        free(*out);
        free(*part);
        *out = NULL;
        *part = NULL;
        *n = 0;
    }
    return st;
}

/* The trades of k[n] in the holdout (want 1) or not (want 0), in order, into m[]. */
static int64_t pick(const kept_trade_t *k, const int32_t *part, int64_t n, int want, kept_trade_t *m)
{
    int64_t c = 0;
    for (int64_t j = 0; j < n; j++)
        if ((part[j] == VAL_HOLDOUT) == want)
            m[c++] = k[j];
    return c;
}

ev_status strategy_genome_stats(strategy_t *s, const uint16_t *genes, trade_stats_t *counted, trade_stats_t *holdout,
                                ev_error *err)
{
    kept_trade_t *k, *m = NULL;
    int32_t *part;
    int64_t n;
    ev_status st = strategy_genome_kept(s, genes, &k, &part, &n, err);
    if (st == EV_OK && !(m = (kept_trade_t *)malloc(((size_t)n + 1) * sizeof *m)))
        st = ev_fail(err, EV_ENOMEM, "out of memory computing trade statistics");
    if (st == EV_OK && counted)
        st = trade_stats_of(m, pick(k, part, n, 0, m), counted, err);
    if (st == EV_OK && holdout)
        st = trade_stats_of(m, pick(k, part, n, 1, m), holdout, err);
    free(m);
    free(k);
    free(part);
    return st;
}
