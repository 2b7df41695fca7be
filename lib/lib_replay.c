/* libevolve: the trader statistics of a run's lists and a reported genome's trades (report/replay.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "archive/run_stats.h"
#include "common/platform.h"
#include "common/strutil.h"
#include "fitness/trade_stats.h"
#include "fitness/validation.h"
#include "lib/lib_core.h"
#include "report/replay.h"
#include "report/report.h"

/* The rows copied out of the replay (the run file and dataset are closed once they are read). */
struct evolve_replay {
    const char *list; /* "grid" or "ga" */
    uint32_t rank;
    int64_t n;
    int32_t n_tickers;
    char **tickers;
    int32_t *ticker, *reason, *holdout; /* [n] each */
    int64_t *trade_id, *entry_ts, *exit_ts, *q;
    double *entry_price;
};

EVOLVE_API const char *evolve_trade_stat_name(int i)
{
    return i >= 0 && i < TRADE_STAT_FIELDS ? trade_stat_fields[i].name : NULL;
}

EVOLVE_API const char *evolve_exit_reason_name(int reason)
{
    return reason >= 0 && reason < EXIT_REASONS ? exit_reason_name(reason) : NULL;
}

static int locked_trader_stats(evolve_ctx *ctx, evolve_runfile *r, const char *list, int holdout, uint32_t *n,
                               uint8_t *shown, double *out)
{
    ranked_genome_t *e = NULL;
    double *value = NULL;
    trade_stats_t *st = NULL;
    uint32_t got = 0;
    char path[96];
    ev_error err;
    ev_status s;
    if (!r || !list || !n || (strcmp(list, "grid") && strcmp(list, "ga")))
        return lib_usage(ctx, "evolve_runfile_trader_stats: NULL run file or count, or a list other than grid or ga");
    snprintf(path, sizeof path, "%s/%strader_stats", list, holdout ? "validation/out_of_sample_" : "");
    *n = 0;
    if (!run_file_has(&r->rf, path))
        return lib_result(ctx, EV_OK, NULL);
    if ((s = run_file_read_ranked(&r->rf, !strcmp(list, "grid") ? "grid/top" : "ga/hall_of_fame", &e, &value, &got,
                                  &err)) == EV_OK &&
        (s = run_file_read_stats(&r->rf, path, got, &st, &err)) == EV_OK && (shown || out)) {
        for (int f = 0; f < TRADE_STAT_FIELDS; f++) {
            int on = got && trade_stat_shown(&st[0], f);
            if (shown)
                shown[f] = (uint8_t)on;
            for (uint32_t i = 0; out && i < got; i++)
                out[(size_t)f * got + i] = on ? trade_stat_get(&st[i], f) : NAN;
        }
    }
    if (s == EV_OK)
        *n = got;
    free(e);
    free(value);
    free(st);
    return lib_result(ctx, s, &err);
}

EVOLVE_API int evolve_runfile_trader_stats(evolve_ctx *ctx, evolve_runfile *rf, const char *list, int holdout,
                                           uint32_t *n, uint8_t *shown, double *out)
{
    int rc_;
    plat_hdf5_lock();
    rc_ = locked_trader_stats(ctx, rf, list, holdout, n, shown, out);
    plat_hdf5_unlock();
    return rc_;
}

EVOLVE_API void evolve_replay_close(evolve_replay *h)
{
    if (!h)
        return;
    for (int32_t i = 0; h->tickers && i < h->n_tickers; i++)
        free(h->tickers[i]);
    free(h->tickers);
    free(h->ticker);
    free(h->reason);
    free(h->holdout);
    free(h->trade_id);
    free(h->entry_ts);
    free(h->exit_ts);
    free(h->q);
    free(h->entry_price);
    free(h);
}

/* The replay's kept trades as the arrays evolve_replay_trades points to. */
static ev_status columns(evolve_replay *h, const replay_t *rp, ev_error *err)
{
    size_t m = (size_t)rp->n + 1;
    h->list = !strcmp(rp->list, "grid") ? "grid" : "ga";
    h->rank = rp->rank;
    h->n = rp->n;
    h->tickers = (char **)calloc((size_t)rp->ds.n_tickers + 1, sizeof *h->tickers);
    h->ticker = (int32_t *)malloc(m * sizeof *h->ticker);
    h->reason = (int32_t *)malloc(m * sizeof *h->reason);
    h->holdout = (int32_t *)malloc(m * sizeof *h->holdout);
    h->trade_id = (int64_t *)malloc(m * sizeof *h->trade_id);
    h->entry_ts = (int64_t *)malloc(m * sizeof *h->entry_ts);
    h->exit_ts = (int64_t *)malloc(m * sizeof *h->exit_ts);
    h->q = (int64_t *)malloc(m * sizeof *h->q);
    h->entry_price = (double *)malloc(m * sizeof *h->entry_price);
    if (!h->tickers || !h->ticker || !h->reason || !h->holdout || !h->trade_id || !h->entry_ts || !h->exit_ts ||
        !h->q || !h->entry_price)
        return ev_fail(err, EV_ENOMEM, "out of memory");
    for (h->n_tickers = 0; h->n_tickers < rp->ds.n_tickers; h->n_tickers++)
        if (!(h->tickers[h->n_tickers] = ev_strdup(rp->ds.tickers[h->n_tickers])))
            return ev_fail(err, EV_ENOMEM, "out of memory");
    for (int64_t i = 0; i < rp->n; i++) {
        const kept_trade_t *k = &rp->k[i];
        h->ticker[i] = rp->ds.ticker[k->trade];
        h->trade_id[i] = rp->ds.trade_id[k->trade];
        h->entry_ts[i] = rp->ds.entry_ts[k->trade];
        h->entry_price[i] = rp->ds.entry_price[k->trade];
        h->exit_ts[i] = k->exit_ts;
        h->reason[i] = k->reason;
        h->q[i] = k->q;
        h->holdout[i] = rp->part[i] == VAL_HOLDOUT;
    }
    return EV_OK;
}

EVOLVE_API int evolve_replay_open(evolve_ctx *ctx, const char *run_file, const char *list, uint32_t rank,
                                  const char *dataset, evolve_replay **out)
{
    evolve_replay *h;
    report_run_t run;
    replay_t rp;
    ev_error err;
    ev_status st;
    if (!run_file || !out)
        return lib_usage(ctx, "evolve_replay_open: NULL run file or output");
    *out = NULL;
    if (!(h = (evolve_replay *)calloc(1, sizeof *h)))
        return lib_result(ctx, ev_fail(&err, EV_ENOMEM, "out of memory"), &err);
    memset(&rp, 0, sizeof rp);
    plat_hdf5_lock();
    if ((st = report_load(&run, run_file, &err)) == EV_OK &&
        (st = replay_load(&rp, &run, list, rank, dataset, &err)) == EV_OK)
        st = columns(h, &rp, &err);
    replay_free(&rp);
    report_free(&run);
    plat_hdf5_unlock();
    if (st != EV_OK) {
        evolve_replay_close(h);
        return lib_result(ctx, st, &err);
    }
    *out = h;
    return lib_result(ctx, EV_OK, NULL);
}

EVOLVE_API int evolve_replay_trades_get(evolve_ctx *ctx, const evolve_replay *h, evolve_replay_trades *out)
{
    if (!h || !out)
        return lib_usage(ctx, "evolve_replay_trades_get: NULL replay or output");
    out->list = h->list;
    out->rank = h->rank;
    out->n = h->n;
    out->n_tickers = h->n_tickers;
    out->tickers = (const char *const *)h->tickers;
    out->ticker = h->ticker;
    out->trade_id = h->trade_id;
    out->entry_ts = h->entry_ts;
    out->entry_price = h->entry_price;
    out->exit_ts = h->exit_ts;
    out->reason = h->reason;
    out->q = h->q;
    out->holdout = h->holdout;
    return lib_result(ctx, EV_OK, NULL);
}
