/* --grid: every lattice point, the exact top-K. */
#include <stdlib.h>
#include <string.h>

#include "common/platform.h"
#include "ga/grid.h"
#include "ga/run_modes.h"
#include "ga/top_table.h"
#include "io/json_summary.h"

ev_status run_mode_grid(session_t *s, const run_args_t *a, double t0, ev_error *err)
{
    grid_opts_t go;
    grid_stats_t gs;
    topk_t top;
    ranked_genome_t *ranked = NULL;
    run_summary_t sum;
    FILE *log = a->quiet ? NULL : stderr;
    ev_status st;
    memset(&go, 0, sizeof go);
    go.evaluator = (evaluator_kind)a->evaluator;
    go.batch = a->batch;
    go.progress = log;
    if ((st = topk_init(&top, s->cfg.top, err)) != EV_OK)
        return st;
    if (log)
        fprintf(log, "grid: %llu lattice points x %lld trades on %s\n", (unsigned long long)s->cfg.lattice.size,
                (long long)s->ds.n_trades, s->device);
    st = grid_run(s->ops, s->backend, &s->prob, &go, &top, &gs, err);
    if (st == EV_OK && !(ranked = (ranked_genome_t *)calloc(top.n + 1u, sizeof *ranked)))
        st = ev_fail(err, EV_ENOMEM, "out of memory");
    if (st == EV_OK) {
        topk_to_ranked(&top, &s->prob.shape, ranked);
        if (log)
            fprintf(log, "grid: %llu points in %.3f s with the %s evaluator (%.3g points/s)\n",
                    (unsigned long long)gs.evaluated, gs.seconds, evaluator_name(gs.evaluator),
                    gs.seconds > 0 ? (double)gs.evaluated / gs.seconds : 0.0);
        top_table_print(stdout, &s->cfg, ranked, top.n);
    }
    if (st == EV_OK && a->json) {
        memset(&sum, 0, sizeof sum);
        sum.mode = "grid";
        sum.backend = s->ops->name;
        sum.device = s->device;
        sum.evaluator = evaluator_name(gs.evaluator);
        sum.evaluated = gs.evaluated;
        sum.seconds_load = s->seconds_load;
        sum.seconds_tables = s->seconds_tables;
        sum.seconds_search = gs.seconds;
        sum.seconds_total = plat_now() - t0;
        st = json_summary_write(a->json, &sum, &s->cfg, &s->ds, ranked, top.n, err);
    }
    free(ranked);
    topk_free(&top);
    return st;
}

