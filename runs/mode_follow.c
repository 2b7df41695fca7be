/* The part of ranks 1..K-1 of `mpirun -n K evolve CONFIG [--grid]`
 * (dist/dist.h): the same search as rank 0, without files, tables or
 * progress; rank 0 merges (grid) or shares (GA) and records. */
#include <string.h>

#include "runs/grid_record.h"
#include "runs/modes.h"
#include "dist/dist.h"
#include "ga/grid_pool.h"

static ev_status follow_grid(session_t *s, const run_args_t *a, ev_error *err)
{
    grid_opts_t go;
    grid_heat_t heat;
    grid_stats_t gs;
    topk_t top;
    int want_heat = grid_record_opts(s, a, &go, &heat, NULL);
    ev_status st = topk_init(&top, s->strategy ? s->cfg.top : grid_pool_size(s->cfg.top), err);
    if (st == EV_OK)
        st = dist_grid_run(s->ops, s->backend, &s->prob, &go, &top, &gs, err);
    /* the strategies' reruns, as rank 0 decides them (ga/grid_pool.h) */
    go.progress = NULL;
    go.heat = NULL;
    for (int reruns = 0; st == EV_OK && !s->strategy && dist_first_says(0); reruns++) {
        uint32_t grow = reruns ? grid_pool_last(top.k) : grid_pool_size(top.k);
        topk_free(&top);
        if ((st = topk_init(&top, grow, err)) == EV_OK)
            st = dist_grid_run(s->ops, s->backend, &s->prob, &go, &top, &gs, err);
    }
    topk_free(&top);
    if (want_heat)
        grid_heat_free(&heat);
    return st;
}

static ev_status follow_ga(session_t *s, ev_error *err)
{
    backend_ops_t ops;
    dist_ga_state_t shared;
    ga_run_opts_t o;
    ga_result_t res;
    ev_status st;
    memset(&o, 0, sizeof o);
    o.seed = s->cfg.seed;
    if ((st = dist_ga_share(&o.seed, &o.resume, &s->prob, &shared, err)) != EV_OK)
        return st;
    o.top = session_hof_capacity(s); /* as rank 0's, whose local search reads it */
    session_ls_sweeps(s, &o);
    dist_ga_opts(&o);
    dist_ga_ops(s->ops, &s->prob, &ops);
    if ((st = ga_run(&ops, s->backend, &s->prob, &s->cfg.ga, &o, &res, err)) == EV_OK)
        ga_result_free(&res);
    dist_ga_share_free(&shared);
    return st;
}

ev_status run_mode_follow(session_t *s, const run_args_t *a, ev_error *err)
{
    return a->grid ? follow_grid(s, a, err) : follow_ga(s, err);
}
