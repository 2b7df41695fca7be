#include "runs/grid_record.h"

#include <stdlib.h>
#include <string.h>

#include "archive/run_heat.h"
#include "archive/run_baseline.h"
#include "archive/run_groups.h"
#include "archive/run_stats.h"
#include "archive/run_validation.h"
#include "archive/run_verdict.h"
#include "runs/session_validation.h"
#include "dist/dist.h"
#include "ga/grid_pool.h"

/* The heatmap on the CPU backend, for a backend without the heat ops: a
 * second pass over the lattice (dominance sums where they apply). */
static ev_status heat_on_cpu(session_t *s, grid_heat_t *heat, ev_error *err)
{
    backend_t *cpu = NULL;
    grid_opts_t go;
    grid_stats_t gs;
    topk_t none;
    ev_status st;
    if ((st = topk_init(&none, 1, err)) != EV_OK)
        return st;
    if ((st = backend_cpu_ops.open(&cpu, &s->prob, &s->tables, err)) == EV_OK) {
        memset(&go, 0, sizeof go);
        go.heat = heat;
        st = grid_run(&backend_cpu_ops, cpu, &s->prob, &go, &none, &gs, err);
        backend_cpu_ops.close(cpu);
    }
    topk_free(&none);
    return st;
}

/* The heatmap's pair, or 0 (none: fewer than two parameters, or too many
 * cells to keep). */
static int heat_prepare(session_t *s, grid_heat_t *heat, const run_reporter_t *rep)
{
    const lattice_t *lat = &s->cfg.lattice;
    const char *bad = NULL;
    int32_t px, py;
    ev_error herr;
    if (run_heat_pair(lat, (const char *const *)s->cfg.heatmap, &px, &py, &bad) != 1)
        return 0; /* names were checked when the config was read */
    if (grid_heat_init(heat, px, py, lat->params[px].n_values, lat->params[py].n_values, &herr) != EV_OK) {
        run_note(rep, "grid: no heatmap: %s\n", herr.msg);
        return 0;
    }
    return 1;
}

int grid_record_opts(session_t *s, const run_args_t *a, grid_opts_t *go, grid_heat_t *heat, const run_reporter_t *rep)
{
    int want_heat;
    memset(go, 0, sizeof *go);
    memset(heat, 0, sizeof *heat);
    go->evaluator = (evaluator_kind)a->evaluator;
    go->batch = a->batch ? a->batch : s->cfg.grid_batch;
    go->progress = run_log(rep);
    want_heat = heat_prepare(s, heat, rep);
    go->heat = want_heat ? heat : NULL;
    return want_heat;
}

const char *grid_record_evaluator(const session_t *s, const grid_stats_t *gs)
{
    return s->strategy ? "backtest" : evaluator_name(gs->evaluator);
}

void grid_cands_free(grid_cands_t *c)
{
    free(c->ranked);
    free(c->pick);
    memset(c, 0, sizeof *c);
}

/* The pool grown until it holds the K best strategies (ga/grid_pool.h); the
 * reruns run on every rank, as rank 0 decides. */
static ev_status pool_strategies(session_t *s, const run_args_t *a, topk_t *pool, grid_cands_t *c, ev_error *err)
{
    grid_opts_t go = {0};
    ev_status st;
    memset(c, 0, sizeof *c);
    if (s->strategy)
        return EV_OK;
    if (!(c->pick = (uint32_t *)malloc(((size_t)s->cfg.top + 1) * sizeof *c->pick)))
        return ev_fail(err, EV_ENOMEM, "out of memory");
    go.evaluator = (evaluator_kind)a->evaluator;
    go.batch = a->batch ? a->batch : s->cfg.grid_batch;
    st = grid_pool_strategies(dist_grid_run, dist_first_says, s->ops, s->backend, &s->prob, &s->tables.view, &go,
                              s->cfg.top, pool, &c->ranked, c->pick, &c->n_pick, err);
    c->n = pool->n;
    return st;
}

static ev_status record(session_t *s, run_file_t *rf, const topk_t *top, const grid_cands_t *c, const grid_stats_t *gs,
                        ev_error *err)
{
    ranked_genome_t *ranked = topk_ranked_new(top, &s->prob.shape);
    reported_t rep = {0};
    ev_status st;
    if (!ranked)
        return ev_fail(err, EV_ENOMEM, "out of memory");
    if ((st = session_reported(s, ranked, top->n, &rep, err)) == EV_OK &&
        (st = session_groups(s, &rep, c->ranked, c->n, c->pick, c->n_pick, 0, err)) == EV_OK &&
        (st = run_file_write_ranked(rf, "grid/top", rep.e, rep.value, top->n, top->k, err)) == EV_OK &&
        (st = run_file_write_groups(rf, "grid", "grid/top", &rep, err)) == EV_OK &&
        (st = run_file_write_validation(rf, "grid", &rep, gs->evaluated, err)) == EV_OK &&
        (st = run_file_write_stats(rf, "grid/trader_stats", rep.stats, rep.n, err)) == EV_OK &&
        (st = run_file_write_baselines(rf, "grid", &rep, err)) == EV_OK &&
        (st = run_file_write_list_verdict(rf, "grid", &rep, (double)gs->evaluated, err)) == EV_OK &&
        (st = run_file_attr_str(rf, "grid", "evaluator", grid_record_evaluator(s, gs), err)) == EV_OK &&
        (st = run_file_attr_u64(rf, "grid", "points_evaluated", gs->evaluated, err)) == EV_OK &&
        (st = run_file_attr_u64(rf, "grid", "top", top->k, err)) == EV_OK)
        st = run_file_attr_f64(rf, "grid", "seconds", gs->seconds, err);
    reported_free(&rep);
    free(ranked);
    return st;
}

ev_status grid_record_run(session_t *s, const run_args_t *a, run_file_t *rf, topk_t *pool, topk_t *top, grid_cands_t *c,
                          grid_stats_t *gs, grid_resume_t *gr, ev_error *err)
{
    grid_opts_t go;
    grid_heat_t heat;
    const run_reporter_t *rep = a->report;
    int want_heat = grid_record_opts(s, a, &go, &heat, rep);
    ev_status st;
    if (!s->strategy)
        run_note(rep, "grid: %llu lattice points x %lld trades on %s\n", (unsigned long long)s->cfg.lattice.size,
                 (long long)s->ds.n_trades, s->device);
    else
        run_note(rep, "grid: %llu lattice points, each backtested, on %s\n", (unsigned long long)s->cfg.lattice.size,
                 s->device);
    memset(c, 0, sizeof *c);
    if ((st = grid_resume_bind(gr, &go, pool, rep, err)) == EV_OK &&
        (st = dist_grid_run(s->ops, s->backend, &s->prob, &go, pool, gs, err)) == EV_OK)
        gs->seconds += grid_resume_seconds_before(gr);
    if (st == EV_OK && (st = pool_strategies(s, a, pool, c, err)) == EV_OK)
        grid_pool_head(top, pool);
    if (st == EV_OK && want_heat && !gs->heat_filled) {
        if (s->cfg.lattice.size <= GRID_HEAT_FALLBACK_MAX) {
            st = heat_on_cpu(s, &heat, err);
        } else {
            want_heat = 0;
            run_note(rep,
                     "grid: no heatmap: the %s backend cannot fold one into its pass, and %llu points are "
                     "more than a CPU pass is worth (%llu)\n",
                     s->ops->name, (unsigned long long)s->cfg.lattice.size, (unsigned long long)GRID_HEAT_FALLBACK_MAX);
        }
    }
    if (st == EV_OK)
        run_note(rep, "grid: %llu points in %.3f s with the %s evaluator (%.3g points/s)\n",
                 (unsigned long long)gs->evaluated, gs->seconds, grid_record_evaluator(s, gs),
                 gs->seconds > 0 ? (double)gs->evaluated / gs->seconds : 0.0);
    if (st == EV_OK && s->validating)
        st = session_validation_pbo(s, err);
    if (st == EV_OK)
        st = record(s, rf, top, c, gs, err);
    if (st == EV_OK && want_heat)
        st = run_file_write_heat(rf, &heat, &s->cfg.lattice, &s->cfg.objective, s->cfg.lattice.size, err);
    if (want_heat)
        grid_heat_free(&heat);
    return st;
}
