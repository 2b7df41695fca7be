/* --grid: every lattice point, the exact top-K, recorded in the run file. */
#include <stdlib.h>

#include "runs/grid_record.h"
#include "runs/modes.h"
#include "runs/run_output.h"
#include "io/json_summary.h"
#include "dist/dist.h"
#include "ga/grid_pool.h"

/* rep's strategies below its list, from the grid's candidates (pool), so
 * that the table and the JSON show the K best strategies (ga/grid_pool.h). */
static ev_status more_strategies(session_t *s, const run_args_t *a, topk_t *pool, reported_t *rep, ev_error *err)
{
    grid_opts_t go = {0};
    ranked_genome_t *ranked = NULL, *more = NULL;
    uint32_t *pick = (uint32_t *)malloc((size_t)s->cfg.top * sizeof *pick), n_pick = 0, n_more = 0;
    ev_status st;
    if (!pick)
        return ev_fail(err, EV_ENOMEM, "out of memory");
    go.evaluator = (evaluator_kind)a->evaluator;
    go.batch = a->batch ? a->batch : s->cfg.grid_batch;
    st = grid_pool_strategies(dist_grid_run, dist_first_says, s->ops, s->backend, &s->prob, &s->tables.view, &go,
                              s->cfg.top, pool, &ranked, pick, &n_pick, err);
    if (st == EV_OK && !(more = (ranked_genome_t *)malloc((size_t)s->cfg.top * sizeof *more)))
        st = ev_fail(err, EV_ENOMEM, "out of memory");
    for (uint32_t i = 0; st == EV_OK && i < n_pick; i++)
        if (pick[i] >= rep->n) { /* a strategy the list does not hold: its rank in the whole ranking */
            more[n_more] = ranked[pick[i]];
            pick[n_more++] = pick[i] + 1;
        }
    if (st == EV_OK && n_more)
        st = reported_more(rep, &s->prob, &s->tables.view, more, pick, n_more, err);
    free(more);
    free(ranked);
    free(pick);
    return st;
}

ev_status run_mode_grid(session_t *s, const run_args_t *a, double t0, ev_error *err)
{
    grid_stats_t gs;
    topk_t top, pool;
    run_file_t rf;
    ranked_genome_t *ranked = NULL;
    reported_t rep = {0};
    ev_status st;
    if ((st = topk_init(&top, s->cfg.top, err)) != EV_OK)
        return st;
    if ((st = topk_init(&pool, s->strategy ? s->cfg.top : grid_pool_size(s->cfg.top), err)) != EV_OK) {
        topk_free(&top);
        return st;
    }
    /* The file first: an unwritable output fails before the search. */
    if ((st = run_output_create_temp(&rf, s, "grid", s->cfg.output, err)) != EV_OK) {
        topk_free(&pool);
        topk_free(&top);
        return st;
    }
    st = grid_record_run(s, a, &rf, &pool, &top, &gs, err);
    if (st == EV_OK && (st = run_file_attr_str(&rf, "/", "status", "complete", err)) == EV_OK)
        st = run_output_commit(&rf, s->cfg.output, 0, err);
    else
        run_output_discard(&rf);
    if (st == EV_OK && !(ranked = topk_ranked_new(&top, &s->prob.shape)))
        st = ev_fail(err, EV_ENOMEM, "out of memory");
    if (st == EV_OK)
        st = session_reported(s, ranked, top.n, &rep, err);
    if (st == EV_OK && !s->strategy)
        st = more_strategies(s, a, &pool, &rep, err);
    if (st == EV_OK) {
        if (rep.val)
            rep.val->trials = (double)gs.evaluated;
        run_table_t t = {RUN_TABLE_TOP, &s->cfg, &rep, NULL, NULL, NULL, NULL};
        run_table(a->report, &t);
        run_note(a->report, "grid: run file %s\n", s->cfg.output);
    }
    if (st == EV_OK && a->json) {
        run_summary_t sum;
        run_output_summary(&sum, s, "grid", NULL, &gs, t0);
        st = json_summary_write(a->json, &sum, &s->cfg, &s->ds, &rep, err);
    }
    reported_free(&rep);
    free(ranked);
    topk_free(&pool);
    topk_free(&top);
    return st;
}
