/* The GA run loop: per generation evaluate, rank, report, decide, breed,
 * and, when asked, snapshot the bred generation for a checkpoint.
 * Decisions that need no population (stopping, the island plans, the hall of
 * fame) are taken on the host from the small summaries the backend
 * returns; the population itself stays on the backend. The loop's steps are
 * in their own files (ga/ga_run_internal.h); here the run is set up, looped
 * and torn down. */
#include "ga/ga_run.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ga/ga_ls_sweep.h"
#include "ga/ga_plan.h"
#include "ga/ga_run_internal.h"

static ev_status run_loop(ga_run_state_t *r, ga_result_t *res, ev_error *err)
{
    const ga_observer_t *obs = r->o->observer;
    int snapshots = obs && obs->on_checkpoint;
    uint32_t every = snapshots && obs->checkpoint_every ? obs->checkpoint_every : 1;
    uint32_t gen = 0;
    ga_gen_stats_t st;
    ev_status e;
    if (r->o->resume) {
        if ((e = ga_run_restore(r, res, r->o->resume, err)) != EV_OK)
            return e;
        gen = r->o->resume->at.generation;
    } else if ((e = r->gops->ga_init_population(r->g, err)) != EV_OK) {
        return e;
    }
    ga_progress_begin(&r->progress, r->o->progress, gen);
    for (;; gen++) {
        int full = 0;
        if ((e = ga_run_generation(r, gen, res, &st, &full, err)) != EV_OK)
            return e;
        if (full) {
            res->reason = GA_STOP_CACHE_FULL;
            return EV_OK;
        }
        res->reason = ga_run_stop_reason(r, gen, res, st.wall_s);
        if (r->o->agree_stop)
            res->reason = r->o->agree_stop(res->reason);
        if (res->reason != GA_STOP_NONE && !(res->reason == GA_STOP_INTERRUPTED && snapshots))
            return EV_OK;
        if ((e = ga_run_local_search(r, gen, res, err)) != EV_OK)
            return e;
        ga_plan_islands(&r->plan, r->s, gen + 1, r->island_unique, r->islands);
        ga_run_plan_restart(r, gen, res);
        if ((e = r->gops->ga_breed(r->g, gen + 1, r->islands, err)) != EV_OK ||
            (e = ga_run_local_search_put(r, res, err)) != EV_OK)
            return e;
        if (snapshots && (res->reason == GA_STOP_INTERRUPTED || ga_run_snapshot_due(r, gen + 1, every))) {
            if ((e = ga_run_snapshot(r, gen + 1, res, err)) != EV_OK)
                return e;
            r->last_snap = ga_run_now(r);
        }
        if (res->reason == GA_STOP_INTERRUPTED)
            return EV_OK;
    }
}

ev_status ga_run(const backend_ops_t *ops, backend_t *b, const fit_problem_t *p, const ga_settings_t *s,
                 const ga_run_opts_t *o, ga_result_t *res, ev_error *err)
{
    ga_run_state_t r;
    ev_status e;
    memset(res, 0, sizeof *res);
    memset(&r, 0, sizeof r);
    r.p = p;
    r.s = s;
    r.o = o;
    r.t0 = ga_run_now(&r);
    r.search_best = -HUGE_VAL;
    if ((e = ga_plan_build(&r.plan, p, s, o->seed, o->top, err)) != EV_OK)
        return e;
    if (!ga_ls_sweep(ops, b, o, r.plan.ctx.n_genes, r.plan.ctx.n_values, &r.sweep)) {
        if (s->ls_every)
            return ev_fail(err, EV_ECONFIG,
                           "ga.local_search needs the problem's host tables (ga_run_opts_t.tables or the backend's "
                           "host_tables) or batch sweeps (ga_run_opts_t.ls_batch)");
    } else if (r.sweep.t) {
        /* exit pairs and relaxed climbs are the tables' (batch: every pair, no relaxed climbs) */
        r.sweep.skip_exit_pairs = !s->ls_exit_pairs;
        r.has_relaxed = (s->ls_kicks || s->ls_random_relax) && ls_relax_init(&r.relaxed, &r.sweep, s->ls_kick_relax);
    }
    r.plan.evaluate = ops->evaluate;
    r.plan.evaluate_b = b;
    /* A backend without GA ops still evaluates: the CPU's GA drives it. */
    res->host_ga = ops->ga_open == NULL;
    r.gops = res->host_ga ? &backend_cpu_ops : ops;
    if ((e = topk_init(&res->hof, o->top, err)) != EV_OK)
        return e;
    if ((e = ga_run_alloc(&r, err)) == EV_OK) {
        e = r.gops->ga_open(res->host_ga ? NULL : b, &r.plan, &r.g, err);
        if (e == EV_ENOMEM && !res->host_ga && ops != &backend_cpu_ops) {
            /* The device cannot hold the population and its cache, the host
             * can: the CPU's GA ops run it, fitness stays on the device (the
             * same results, bit for bit). Out of memory never ends such a run. */
            if (o->progress)
                fprintf(o->progress,
                        "ga: the %s device cannot hold the GA (%s); the population and its cache move "
                        "to the host, fitness stays on the device\n",
                        ops->name, err->msg);
            res->host_ga = 1;
            r.gops = &backend_cpu_ops;
            e = r.gops->ga_open(NULL, &r.plan, &r.g, err);
        }
        if (e == EV_OK)
            e = run_loop(&r, res, err);
        ga_progress_end(&r.progress);
    }
    res->seconds = ga_run_now(&r) - r.t0;
    ga_run_free(&r);
    if (e != EV_OK)
        ga_result_free(res);
    return e;
}

void ga_result_free(ga_result_t *res)
{
    topk_free(&res->hof);
}
