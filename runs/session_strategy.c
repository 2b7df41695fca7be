#include "runs/session_strategy.h"

#include <stdlib.h>
#include <string.h>

#include "runs/backend_registry.h"
#include "runs/backend_strategy.h"
#include "runs/gpu_probe.h"
#include "runs/session_strategy_validation.h"
#include "common/platform.h"
#include "fitness/objective_prep.h"
#include "signals/strategy_trades.h"

ev_status session_strategy_open(session_t *s, const session_opts_t *opts, ev_error *err)
{
    double t0 = plat_now();
    const strategy_ops_t *so;
    const backend_ops_t *found;
    ev_status st;
    /* what a strategy cannot do yet is refused before any bar is read */
    if ((st = strategy_validation_refuse(s, err)) != EV_OK ||
        (st = backend_find(opts->backend, &found, err)) != EV_OK ||
        (st = strategy_open(s->cfg.strategy_type, s->cfg.path, &s->cfg.lattice, &s->cfg.objective, &s->strategy,
                            err)) != EV_OK)
        return st;
    if (s->cfg.baseline.present &&
        (st = strategy_open_pinned(s->cfg.strategy_type, s->cfg.path, &s->cfg.lattice, &s->cfg.objective,
                                   &s->cfg.baseline, &s->base_strategy, err)) != EV_OK)
        return st;
    so = strategy_ops(s->strategy);
    /* The run file's dataset identity is the bars': a resume on other bars is refused. */
    s->ds.content_hash = so->fingerprint(strategy_state(s->strategy));
    if ((st = problem_init(&s->prob, &s->ds, &s->cfg.lattice, &s->cfg.objective, err)) != EV_OK ||
        (st = strategy_validation_open(s, opts, err)) != EV_OK)
        return st;
    s->ops = backend_strategy_for(found);
    if ((st = backend_strategy_open(s->ops, &s->backend, s->strategy, &s->prob, err)) != EV_OK)
        return st;
    s->ops->describe(s->backend, s->device, sizeof s->device);
    run_note(opts->report, "strategy %s: %lld bars from %s; %llu lattice points\n", so->name,
             (long long)so->n_bars(strategy_state(s->strategy)), s->cfg.path, (unsigned long long)s->cfg.lattice.size);
    s->seconds_load = plat_now() - t0;
    /* a device proves itself against the CPU before the first generation or grid batch */
    if (s->ops != &backend_strategy_ops && (st = gpu_probe_session(s, opts, err)) != EV_OK)
        return st;
    return EV_OK;
}

void session_strategy_close(session_t *s)
{
    strategy_close(s->strategy);
    strategy_close(s->base_strategy);
    s->strategy = NULL;
    s->base_strategy = NULL;
}

void session_strategy_note(const session_t *s, const run_reporter_t *rep)
{
    const strategy_ops_t *so = strategy_ops(s->strategy);
    const void *state = strategy_state(s->strategy);
    double prep, bt;
    strategy_timing(s->strategy, &prep, &bt);
    run_note(rep,
             "strategy %s: %lld indicator series computed (%.1f MiB held, %lld bytes each); %.3f s in indicators, "
             "%.3f s in backtests (%.1f%% indicators); backtest scratch %.1f KiB per thread\n",
             so->name, (long long)so->series_computed(state), (double)so->cache_bytes(state) / 1048576.0,
             (long long)so->n_bars(state) * 8, prep, bt, prep + bt > 0 ? 100.0 * prep / (prep + bt) : 0.0,
             (double)(so->scratch_bytes(state) + (size_t)so->max_trades(state) * sizeof(double)) / 1024.0);
}

/* (prod(1 + q_j / 1e8) - 1) * 100 over the genome's trades (reported.c's
 * rule), those that count (not VAL_HOLDOUT under strategy_set_split). */
static ev_status compound_value(strategy_t *st, const uint16_t *genes, double *value, ev_error *err)
{
    int64_t *q, n;
    int32_t *part;
    int feasible;
    double prod = 1.0;
    ev_status e = strategy_genome_outcomes(st, genes, &q, &part, NULL, &n, &feasible, err);
    if (e != EV_OK)
        return e;
    for (int64_t k = 0; k < n; k++) {
        if (part[k] == VAL_HOLDOUT)
            continue;
        if (q[k] <= EV_RUIN_Q) {
            prod = 0.0;
            break;
        }
        prod *= 1.0 + (double)q[k] / 1e8;
    }
    free(q);
    free(part);
    *value = (prod - 1.0) * 100.0;
    return EV_OK;
}

ev_status session_strategy_values(const session_t *s, const ranked_genome_t *e, uint32_t n, double *value,
                                  ev_error *err)
{
    const int compound = s->cfg.objective.kind == OBJ_COMPOUND;
    ev_status st = EV_OK;
    for (uint32_t i = 0; i < n && st == EV_OK; i++) {
        value[i] = objective_display(&s->cfg.objective, e[i].r.fitness);
        if (compound && e[i].r.feasible)
            st = compound_value(s->strategy, e[i].genes, &value[i], err);
    }
    return st;
}

ev_status session_strategy_reported(const session_t *s, const ranked_genome_t *e, uint32_t n, reported_t *r,
                                    ev_error *err)
{
    ev_status st;
    memset(r, 0, sizeof *r);
    r->e = e;
    r->n = n;
    if (!(r->value = (double *)malloc((n ? n : 1) * sizeof *r->value)))
        return ev_fail(err, EV_ENOMEM, "out of memory computing the reported values");
    if (!(r->stats = (trade_stats_t *)calloc((size_t)n + 1, sizeof *r->stats))) {
        reported_free(r);
        return ev_fail(err, EV_ENOMEM, "out of memory computing trade statistics");
    }
    st = session_strategy_values(s, e, n, r->value, err);
    for (uint32_t i = 0; st == EV_OK && i < n; i++) /* over the trades that count, as the values */
        st = strategy_genome_stats(s->strategy, e[i].genes, &r->stats[i], NULL, err);
    if (st == EV_OK && s->cfg.validation.enabled)
        st = strategy_validation_rows(s, r, err);
    if (st != EV_OK)
        reported_free(r);
    return st;
}
