#include "runs/session.h"

#include <string.h>

#include <stdlib.h>

#include "runs/backend_registry.h"
#include "runs/session_baseline.h"
#include "runs/session_strategy.h"
#include "runs/session_validation.h"
#include "common/platform.h"
#include "fitness/reported_groups.h"
#include "ga/grid_pool.h"
#include "common/strutil.h"
#include "runs/gpu_probe.h"
#include "io/dataset_source.h"
#include "io/ingest.h"

static int name_listed(const char *name, const char *const *list, int n)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(name, list[i]))
            return 1;
    return 0;
}

/* A filter on a trade-log column outside the standard features needs that
 * column ingested too: add it to data.features, so the user need not repeat it. */
static ev_status request_filter_features(config_t *cfg, ev_error *err)
{
    for (int32_t k = 0; k < cfg->lattice.n_params; k++) {
        const char *f = cfg->lattice.params[k].feature;
        char **grown;
        if (cfg->lattice.params[k].role != PARAM_FILTER ||
            name_listed(f, ingest_standard_features, ingest_n_standard_features) ||
            name_listed(f, (const char *const *)cfg->extra_features, cfg->n_extra_features))
            continue;
        grown = (char **)realloc(cfg->extra_features, ((size_t)cfg->n_extra_features + 1) * sizeof *grown);
        if (!grown)
            return ev_fail(err, EV_ENOMEM, "out of memory");
        cfg->extra_features = grown;
        if (!(grown[cfg->n_extra_features] = ev_strdup(f)))
            return ev_fail(err, EV_ENOMEM, "out of memory");
        cfg->n_extra_features++;
    }
    return EV_OK;
}

ev_status session_load_config(session_t *s, const char *config_path, ev_error *err)
{
    memset(s, 0, sizeof *s);
    return config_load(config_path, &s->cfg, err);
}

ev_status session_open(session_t *s, const session_opts_t *opts, ev_error *err)
{
    double t0 = plat_now(), t1;
    ev_status st;
    config_cap_top(&s->cfg); /* after --top */
    if (s->cfg.strategy_type)
        return session_strategy_open(s, opts, err);
    if ((st = backend_find(opts->backend, &s->ops, err)) != EV_OK)
        return st;
    if (s->cfg.dataset_is_cache && (st = request_filter_features(&s->cfg, err)) != EV_OK)
        return st;
    if ((st = dataset_obtain(&s->cfg, &s->ds, run_log(opts->report), err)) != EV_OK)
        return st;
    if (s->ds.n_trades == 0)
        return ev_fail(err, EV_EDATA, "%s: no trade is left to evaluate after the drops listed above",
                       s->cfg.dataset_path ? s->cfg.dataset_path : s->cfg.path);
    if (s->cfg.validation.enabled && (st = session_validation_split(s, opts->report, err)) != EV_OK)
        return st;
    if ((st = lattice_bind(&s->cfg.lattice, &s->ds, err)) != EV_OK) {
        ev_error_prefix(err, "%s: ", s->cfg.path);
        return st;
    }
    if ((st = problem_init(&s->prob, &s->ds, &s->cfg.lattice, &s->cfg.objective, err)) != EV_OK)
        return st;
    if (s->validating)
        session_validation_folds(s);
    else if (s->cfg.objective.aggregate != AGG_ALL)
        return ev_fail(err, EV_ECONFIG, "%s: objective.aggregate needs a validation: block with folds", s->cfg.path);
    t1 = plat_now();
    s->seconds_load = t1 - t0;
    if ((st = tables_build(&s->tables, &s->prob, err)) != EV_OK)
        return st;
    if (s->validating && (st = session_validation_tables(s, err)) != EV_OK)
        return st;
    if ((st = s->ops->open(&s->backend, &s->prob, &s->tables, err)) != EV_OK)
        return st;
    s->ops->describe(s->backend, s->device, sizeof s->device);
    /* a device backend proves itself against the CPU before the first batch */
    if (s->ops != &backend_cpu_ops && (st = gpu_probe_session(s, opts, err)) != EV_OK)
        return st;
    s->seconds_tables = plat_now() - t1;
    return EV_OK;
}

void session_ls_sweeps(const session_t *s, ga_run_opts_t *o)
{
    o->tables = s->strategy ? NULL : &s->tables.view;
    o->ls_batch = s->strategy != NULL;
}

void session_close(session_t *s)
{
    if (s->backend)
        s->ops->close(s->backend);
    tables_free(&s->tables);
    problem_free(&s->prob);
    dataset_free(&s->ds);
    session_validation_free(s);
    session_strategy_close(s);
    config_free(&s->cfg);
    memset(s, 0, sizeof *s);
}

ev_status session_reported(const session_t *s, const ranked_genome_t *e, uint32_t n, reported_t *r, ev_error *err)
{
    ev_status st;
    if (s->strategy) {
        st = session_strategy_reported(s, e, n, r, err);
    } else {
        st = reported_make(r, &s->prob, &s->tables.view, e, n, err);
        if (st == EV_OK && s->validating && (st = session_validation_rows(s, r, err)) != EV_OK)
            reported_free(r);
        if (st == EV_OK && (st = reported_strategies(r, &s->prob, &s->tables.view, err)) != EV_OK)
            reported_free(r);
    }
    if (st == EV_OK && (st = session_baselines(s, r, err)) != EV_OK)
        reported_free(r);
    return st;
}

uint32_t session_hof_capacity(const session_t *s)
{
    return s->strategy ? s->cfg.top : grid_pool_size(s->cfg.top);
}

ev_status session_groups(const session_t *s, reported_t *r, const ranked_genome_t *cand, uint32_t n_cand,
                         const uint32_t *pick, uint32_t n_pick, int basins, ev_error *err)
{
    uint32_t *own = NULL;
    ev_status st;
    if (s->strategy || !r->strat)
        return EV_OK;
    if (!pick) {
        if (!(own = (uint32_t *)malloc(((size_t)s->cfg.top + 1) * sizeof *own)))
            return ev_fail(err, EV_ENOMEM, "out of memory grouping the candidates into strategies");
        strat_first(&s->tables.view, cand, n_cand, s->cfg.top, own, &n_pick);
        pick = own;
    }
    st = reported_pool(r, &s->prob, &s->tables.view, cand, n_cand, pick, n_pick, err);
    if (st == EV_OK && basins && s->cfg.report_diverse)
        st = reported_basins(r, &s->prob, &s->tables.view, err);
    free(own);
    return st;
}
