/* A GA run's checkpoints (docs/ga.md "Checkpoints and resume"): when a bred
 * generation is snapshotted, the snapshot handed to the observer, and a
 * resumed run put back where its snapshot left it, exactly. */
#include "ga/ga_run_internal.h"

#include <string.h>

/* Whether bred generation gen is snapshotted: every `every` generations, at
 * least checkpoint_every_s seconds apart when that is set. */
int ga_run_snapshot_due(const ga_run_state_t *r, uint32_t gen, uint32_t every)
{
    double min_s = r->o->observer->checkpoint_every_s;
    if (gen % every != 0)
        return 0;
    return !(min_s > 0) || r->last_snap == 0 || ga_run_now(r) - r->last_snap >= min_s;
}

/* Hands the observer generation `gen`, bred and not yet evaluated. */
ev_status ga_run_snapshot(ga_run_state_t *r, uint32_t gen, const ga_result_t *res, ev_error *err)
{
    ga_snapshot_t snap;
    ev_status e;
    if ((e = r->gops->ga_download(r->g, r->snap_genes, NULL, r->snap_parents, err)) != EV_OK)
        return e;
    memset(&snap, 0, sizeof snap);
    snap.generation = gen;
    snap.population = r->plan.ctx.population;
    snap.n_genes = (uint32_t)r->plan.ctx.n_genes;
    snap.islands = r->plan.ctx.islands;
    snap.last_improvement = r->last_improvement;
    snap.last_restart = r->last_restart;
    snap.restarts = res->restarts;
    snap.search_improved = r->search_improved;
    snap.searches_best = r->searches_best;
    snap.search_best = r->search_best;
    snap.evaluations = res->evaluations;
    snap.lookups = res->lookups;
    snap.ls_evaluations = res->ls_evaluations;
    snap.hof_k = res->hof.k;
    snap.elapsed_s = ga_run_now(r) - r->t0;
    snap.genes = r->snap_genes;
    snap.parents = r->snap_parents;
    snap.plans = r->islands;
    snap.hof_n = res->hof.n;
    snap.hof = res->hof.e;
    return r->o->observer->on_checkpoint(r->o->observer->ctx, &snap, err);
}

/* Puts a resumed run where its snapshot left it: cache, population, hall of
 * fame, counters, the plans that made the population, the clock. */
ev_status ga_run_restore(ga_run_state_t *r, ga_result_t *res, const ga_resume_t *rs, ev_error *err)
{
    const ga_snapshot_t *at = &rs->at;
    ga_snapshot_t run; /* this run's shape */
    char why[512];
    ev_status e;
    memset(&run, 0, sizeof run);
    run.population = r->plan.ctx.population;
    run.n_genes = (uint32_t)r->plan.ctx.n_genes;
    run.islands = r->plan.ctx.islands;
    run.hof_k = res->hof.k;
    if (!ga_snapshot_fits(at, &run, r->plan.ctx.n_values, why, sizeof why))
        return ev_fail(err, EV_EDATA, "the saved GA state does not fit this run: %s", why);
    if (rs->cache_count != at->evaluations)
        return ev_fail(err, EV_EDATA, "the saved GA state does not fit this run: %llu cached of %llu evaluated",
                       (unsigned long long)rs->cache_count, (unsigned long long)at->evaluations);
    if ((e = r->gops->ga_cache_import(r->g, rs->cache_index, rs->cache_results, rs->cache_count, err)) != EV_OK ||
        (e = r->gops->ga_set_population(r->g, at->genes, at->parents, err)) != EV_OK)
        return e;
    for (uint32_t j = 0; j < at->hof_n; j++)
        topk_insert(&res->hof, &at->hof[j]);
    r->best_key = res->hof.n ? res->hof.e[0].key : 0;
    r->last_improvement = at->last_improvement;
    r->last_restart = at->last_restart;
    res->restarts = at->restarts;
    r->search_improved = at->search_improved;
    r->searches_best = at->searches_best;
    r->search_best = at->search_best;
    memcpy(r->islands, at->plans, (size_t)at->islands * sizeof *r->islands);
    res->evaluations = at->evaluations;
    res->lookups = at->lookups;
    res->ls_evaluations = at->ls_evaluations;
    res->hit_rate = 1.0 - (double)res->evaluations / (double)res->lookups;
    res->generations = at->generation;
    r->t0 = ga_run_now(r) - at->elapsed_s;
    return EV_OK;
}
