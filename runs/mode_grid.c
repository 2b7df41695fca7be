/* --grid: every lattice point, the exact top-K, recorded in the run file;
 * the pass's progress kept in <output>.partial until then (--resume). */
#include <stdlib.h>
#include <string.h>

#include "runs/grid_record.h"
#include "runs/grid_resume.h"
#include "runs/modes.h"
#include "runs/run_output.h"
#include "io/json_summary.h"
#include "ga/grid_pool.h"

ev_status run_mode_grid(session_t *s, const run_args_t *a, double t0, ev_error *err)
{
    grid_stats_t gs;
    topk_t top, pool;
    grid_cands_t c = {0};
    run_file_t rf;
    ranked_genome_t *ranked = NULL;
    reported_t rep = {0};
    grid_resume_t gr;
    ev_status st;
    memset(&top, 0, sizeof top);
    memset(&pool, 0, sizeof pool);
    /* The files first: an unwritable output fails before the search. */
    if ((st = grid_resume_open(&gr, s, a, err)) != EV_OK || (st = topk_init(&top, s->cfg.top, err)) != EV_OK ||
        (st = topk_init(&pool, s->strategy ? s->cfg.top : grid_pool_size(s->cfg.top), err)) != EV_OK ||
        (st = run_output_create_temp(&rf, s, "grid", s->cfg.output, gr.session, err)) != EV_OK) {
        topk_free(&pool);
        topk_free(&top);
        grid_resume_free(&gr);
        return st;
    }
    st = grid_record_run(s, a, &rf, &pool, &top, &c, &gs, &gr, err);
    if (st == EV_OK && (st = run_file_attr_str(&rf, "/", "status", "complete", err)) == EV_OK)
        st = run_output_commit(&rf, s->cfg.output, 0, err);
    else
        run_output_discard(&rf);
    st = grid_resume_end(&gr, a, st, err);
    grid_resume_free(&gr);
    if (st == EV_OK && !(ranked = topk_ranked_new(&top, &s->prob.shape)))
        st = ev_fail(err, EV_ENOMEM, "out of memory");
    if (st == EV_OK)
        st = session_reported(s, ranked, top.n, &rep, err);
    if (st == EV_OK) /* the strategies below the list, so that it shows the K best */
        st = session_groups(s, &rep, c.ranked, c.n, c.pick, c.n_pick, 0, err);
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
    grid_cands_free(&c);
    topk_free(&pool);
    topk_free(&top);
    return st;
}
