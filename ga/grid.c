#include "ga/grid.h"

#include <stdio.h>
#include <string.h>

#include "common/platform.h"
#include "common/progress.h"
#include "fitness/eval_reference.h"

static const char *const evaluator_names[] = {"auto", "reference", "tables", "dominance"};

const char *evaluator_name(evaluator_kind e)
{
    return (e >= EVAL_AUTO && e <= EVAL_DOMINANCE) ? evaluator_names[e] : "unknown";
}

int evaluator_from_name(const char *name)
{
    for (int e = EVAL_AUTO; e <= EVAL_DOMINANCE; e++)
        if (!strcmp(evaluator_names[e], name))
            return e;
    return -1;
}

/* The reference evaluator runs on the host whatever the backend: it is the
 * definition, not a fast path. */
static ev_status reference_batch(const fit_problem_t *p, uint64_t first, uint64_t count, grid_sink_t *sink,
                                 ev_error *err)
{
    ev_status st = EV_OK;
#pragma omp parallel
    {
        grid_sink_t local;
        ev_error lerr;
        int ok = grid_sink_local(&local, sink, &lerr) == EV_OK;
        if (!ok) {
#pragma omp critical(reference_err)
            st = ev_fail(err, EV_ENOMEM, "%s", lerr.msg);
        }
#pragma omp for schedule(dynamic, 1)
        for (int64_t i = 0; i < (int64_t)count; i++) {
            uint16_t g[EV_MAX_PARAMS];
            if (!ok)
                continue;
            shape_decode(&p->shape, first + (uint64_t)i, g);
            grid_sink_offer(&local, first + (uint64_t)i, g, reference_eval(p, g));
        }
#pragma omp critical(reference_merge)
        if (ok)
            grid_sink_merge(sink, &local);
        grid_sink_local_free(&local);
    }
    return st;
}

uint64_t grid_batch_points(const backend_ops_t *ops, backend_t *b, const grid_opts_t *opts, evaluator_kind ev)
{
    uint64_t batch = ev == EVAL_REFERENCE ? 64 : ops->grid_batch_max(b);
    return opts->batch && opts->batch < batch ? opts->batch : batch;
}

ev_status grid_eval_batch(const backend_ops_t *ops, backend_t *b, const fit_problem_t *p, evaluator_kind ev,
                          uint64_t first, uint64_t count, topk_t *top, grid_heat_t *heat, ev_error *err)
{
    if (ev == EVAL_REFERENCE) {
        grid_sink_t sink = grid_sink_of(top, heat);
        return reference_batch(p, first, count, &sink, err);
    }
    return heat ? ops->grid_batch_heat(b, first, count, top, heat, err) : ops->grid_batch(b, first, count, top, err);
}

ev_status grid_count_better_passes(backend_t *b, const lattice_t *lat, uint64_t batch, grid_pass_fn pass, uint64_t key,
                                   uint64_t *count, ev_error *err)
{
    grid_sink_t sink = grid_sink_of(NULL, NULL);
    ev_status st = EV_OK;
    sink.count_better = 1;
    sink.better_than = key;
    *count = 0;
    if (!lat->size_fits)
        return ev_fail(err, EV_ECONFIG, "the lattice has more than 2^63 points and cannot be enumerated");
    for (uint64_t first = 0; first < lat->size && st == EV_OK; first += batch) {
        st = pass(b, first, lat->size - first < batch ? lat->size - first : batch, &sink, err);
        if (st == EV_OK && first + batch < lat->size && plat_interrupted())
            st = ev_fail(err, EV_EINTR, "interrupted while counting the lattice points better than the GA's best");
    }
    *count = sink.count;
    return st;
}

/* auto: dominance sums where the objective is additive and their blocks
 * (one sum set per fold for a fold statistic) fit the budget, else tables,
 * said in one line when only the memory stands in the way. */
static evaluator_kind auto_evaluator(const backend_ops_t *ops, const fit_problem_t *p, uint64_t budget)
{
    if (!dominance_applicable(p) || !ops->grid_dominance)
        return EVAL_TABLES;
    if (dominance_fits(p, budget))
        return EVAL_DOMINANCE;
    fprintf(stderr,
            "evolve: note: dominance sums with one set per fold (%d) would leave blocks of under %llu cells in "
            "their memory budget: the grid runs on the tables evaluator\n",
            p->agg != AGG_ALL ? p->n_folds : 1, (unsigned long long)DOMINANCE_MIN_BLOCK);
    return EVAL_TABLES;
}

/* heat: NULL, or a heatmap the chosen path can fill (checked by the caller). */
static ev_status batched(const backend_ops_t *ops, backend_t *b, const fit_problem_t *p, const grid_opts_t *opts,
                         evaluator_kind ev, topk_t *top, grid_heat_t *heat, uint64_t *done, ev_error *err)
{
    uint64_t size = p->lat->size;
    uint64_t batch = grid_batch_points(ops, b, opts, ev);
    progress_t prog;
    ev_status st = EV_OK;
    uint64_t start = opts->hook ? opts->hook->start : 0;
    progress_start(&prog, opts->progress, ev == EVAL_REFERENCE ? "grid (reference)" : "grid (tables)", "points", size);
    *done = start < size ? start : size;
    progress_from(&prog, *done);
    for (uint64_t first = *done; first < size && st == EV_OK; first += batch) {
        uint64_t count = size - first < batch ? size - first : batch;
        if ((st = grid_eval_batch(ops, b, p, ev, first, count, top, heat, err)) == EV_OK)
            st = grid_pass_step(opts->hook, &prog, *done = first + count, size, err);
    }
    progress_finish(&prog, *done);
    return st;
}

ev_status grid_pick_evaluator(const backend_ops_t *ops, const fit_problem_t *p, evaluator_kind asked,
                              uint64_t dominance_budget, evaluator_kind *ev, ev_error *err)
{
    if (!p->lat->size_fits)
        return ev_fail(err, EV_ECONFIG,
                       "the lattice has more than 2^63 points: it can be evolved (GA) but not enumerated (--grid)");
    if (p->agg != AGG_ALL && asked == EVAL_REFERENCE)
        return ev_fail(err, EV_EUSAGE,
                       "--evaluator reference: objective.aggregate (a fold statistic) runs on the tables or dominance "
                       "evaluator; use auto, tables or dominance");
    *ev = asked == EVAL_AUTO ? auto_evaluator(ops, p, dominance_budget) : asked;
    if (*ev == EVAL_DOMINANCE && !dominance_applicable(p))
        return ev_fail(
            err, EV_EUSAGE, "--evaluator dominance: objective '%s'%s depends on the order of trades; use tables",
            objective_name((objective_kind)p->obj_cfg.kind), p->obj.has_max_dd ? " with max_drawdown_pct" : "");
    if (*ev == EVAL_DOMINANCE && !ops->grid_dominance)
        return ev_fail(err, EV_EUSAGE, "--evaluator dominance is not available on the %s backend", ops->name);
    return EV_OK;
}

grid_heat_t *grid_heat_for(const backend_ops_t *ops, const grid_opts_t *opts, evaluator_kind ev)
{
    if (opts->heat && ev != EVAL_REFERENCE &&
        !(ev == EVAL_DOMINANCE ? ops->grid_dominance_heat != NULL : ops->grid_batch_heat != NULL))
        return NULL;
    return opts->heat;
}

ev_status grid_run(const backend_ops_t *ops, backend_t *b, const fit_problem_t *p, const grid_opts_t *opts, topk_t *top,
                   grid_stats_t *stats, ev_error *err)
{
    evaluator_kind ev;
    double t0 = plat_now();
    grid_heat_t *heat;
    ev_status st;
    memset(stats, 0, sizeof *stats);
    if ((st = grid_pick_evaluator(ops, p, opts->evaluator, opts->dominance_budget, &ev, err)) != EV_OK)
        return st;
    stats->evaluator = ev;
    /* The heatmap comes out of the same pass where the path has a heat op. */
    heat = grid_heat_for(ops, opts, ev);
    stats->heat_filled = heat != NULL;
    if (ev == EVAL_DOMINANCE) {
        dominance_opts_t d;
        memset(&d, 0, sizeof d);
        d.memory_budget = opts->dominance_budget;
        d.progress = opts->progress;
        d.hook = opts->hook;
        st = heat ? ops->grid_dominance_heat(b, &d, top, heat, err) : ops->grid_dominance(b, &d, top, err);
        stats->evaluated = st == EV_OK ? p->lat->size : 0;
    } else {
        st = batched(ops, b, p, opts, ev, top, heat, &stats->evaluated, err);
    }
    stats->seconds = plat_now() - t0;
    return st;
}
