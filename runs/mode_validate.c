/* --validate: the GA, then the grid, on one config and backend, into one run
 * file (mode "validate": /ga, /grid and /validate), and the figures of
 * report/validate.h on the terminal, in the file and in the JSON. Not resumable:
 * Ctrl-C discards it. */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "ga/ga_run.h"
#include "ga/grid_pool.h"
#include "runs/grid_record.h"
#include "runs/ga_pbo.h"
#include "runs/ga_record.h"
#include "runs/modes.h"
#include "runs/run_output.h"
#include "report/validate.h"
#include "io/json_summary.h"

static ev_status run_ga_part(session_t *s, run_file_t *rf, const run_reporter_t *rep, ga_result_t *res, ev_error *err)
{
    ga_archive_t ar;
    ga_observer_t obs;
    ga_run_opts_t o;
    char limit[160];
    ev_status st;
    if ((st = ga_archive_init(&ar, rf, s, NULL, err)) != EV_OK)
        return st;
    ga_archive_observer(&ar, &obs);
    memset(&o, 0, sizeof o);
    o.seed = s->cfg.seed;
    o.top = session_hof_capacity(s);
    o.progress = run_log(rep);
    o.observer = &obs;
    session_ls_sweeps(s, &o);
    ga_settings_limit_text(&s->cfg.ga, limit, sizeof limit);
    run_note(rep, "validate: the GA (population %u, %s, seed %llu) on %s\n", s->cfg.ga.population, limit,
             (unsigned long long)s->cfg.seed, s->device);
    st = ga_run(s->ops, s->backend, &s->prob, &s->cfg.ga, &o, res, err);
    if (st == EV_OK && res->reason == GA_STOP_INTERRUPTED) {
        ga_result_free(res);
        st = ev_fail(err, EV_EINTR, "interrupted during the GA part of --validate; nothing was saved");
    }
    if (st == EV_OK && (st = ga_pbo(s, rf, &ar.dims, err)) == EV_OK)
        st = ga_archive_finish(&ar, res, err);
    ga_archive_free(&ar);
    return st;
}

static ev_status write_json(const session_t *s, const run_args_t *a, const validate_figures_t *v,
                            const ga_result_t *res, const reported_t *grid_top, const reported_t *hof,
                            const grid_stats_t *gs, double t0, ev_error *err)
{
    run_summary_t sum;
    cJSON *extra = (cJSON *)validate_json(v, &s->cfg, hof);
    ev_status st;
    if (!extra)
        return ev_fail(err, EV_ENOMEM, "out of memory building the JSON summary");
    run_output_summary(&sum, s, "validate", res, gs, t0);
    sum.extra = extra;
    st = json_summary_write(a->json, &sum, &s->cfg, &s->ds, grid_top, err);
    cJSON_Delete(extra);
    return st;
}

ev_status validate_count(validate_figures_t *v, session_t *s, ev_error *err)
{
    backend_t *cpu = NULL;
    ev_status st;
    if (v->rank_known || !v->ga_feasible)
        return EV_OK;
    if (s->ops->grid_count_better) {
        st = s->ops->grid_count_better(s->backend, v->ga_best_key, &v->better, err);
        v->rank_method = s->ops == &backend_cpu_ops ? "count pass (cpu)" : "count pass (backend)";
    } else {
        if ((st = backend_cpu_ops.open(&cpu, &s->prob, &s->tables, err)) != EV_OK)
            return st;
        st = backend_cpu_ops.grid_count_better(cpu, v->ga_best_key, &v->better, err);
        backend_cpu_ops.close(cpu);
        v->rank_method = "count pass (cpu)";
    }
    v->rank_known = st == EV_OK;
    v->rank = v->better + 1;
    return st;
}

ev_status run_mode_validate(session_t *s, const run_args_t *a, double t0, ev_error *err)
{
    validate_figures_t v;
    ga_result_t res;
    grid_stats_t gs;
    topk_t top, pool;
    grid_cands_t c = {0};
    run_file_t rf;
    ranked_genome_t *grid_top = NULL;
    reported_t grid_rep = {0}, hof_rep = {0};
    ev_status st;
    memset(&res, 0, sizeof res);
    if (!s->cfg.lattice.size_fits)
        return ev_fail(err, EV_ECONFIG,
                       "--validate needs the grid, and a lattice of more than 2^63 points cannot be "
                       "enumerated");
    if ((st = topk_init(&top, s->cfg.top, err)) != EV_OK)
        return st;
    if ((st = topk_init(&pool, s->strategy ? s->cfg.top : grid_pool_size(s->cfg.top), err)) != EV_OK) {
        topk_free(&top);
        return st;
    }
    if ((st = run_output_create_temp(&rf, s, "validate", s->cfg.output, NULL, err)) != EV_OK) {
        topk_free(&pool);
        topk_free(&top);
        return st;
    }
    if ((st = run_ga_part(s, &rf, a->report, &res, err)) == EV_OK &&
        (st = grid_record_run(s, a, &rf, &pool, &top, &c, &gs, NULL, err)) == EV_OK &&
        !(grid_top = topk_ranked_new(&top, &s->prob.shape)))
        st = ev_fail(err, EV_ENOMEM, "out of memory");
    if (st == EV_OK && (st = session_reported(s, grid_top, top.n, &grid_rep, err)) == EV_OK &&
        (st = session_groups(s, &grid_rep, c.ranked, c.n, c.pick, c.n_pick, 0, err)) == EV_OK &&
        (st = session_reported(s, res.hof.e, res.hof.n < top.k ? res.hof.n : top.k, &hof_rep, err)) == EV_OK &&
        (st = session_groups(s, &hof_rep, res.hof.e, res.hof.n, NULL, 0, 1, err)) == EV_OK) {
        validate_compare(&v, &grid_rep, &hof_rep, s->cfg.top, s->cfg.lattice.n_params);
        v.ga_evaluations = res.evaluations;
        v.lattice_size = s->cfg.lattice.size;
        v.ga_share = (double)res.evaluations / (double)s->cfg.lattice.size;
        st = validate_count(&v, s, err);
    }
    if (st == EV_OK && (st = validate_write(&rf, &v, err)) == EV_OK &&
        (st = run_file_attr_str(&rf, "/", "status", "complete", err)) == EV_OK)
        st = run_output_commit(&rf, s->cfg.output, res.generations, err);
    else
        run_output_discard(&rf);
    if (st == EV_OK) {
        if (grid_rep.val)
            grid_rep.val->trials = (double)gs.evaluated;
        if (hof_rep.val)
            hof_rep.val->trials = (double)res.evaluations;
    }
    if (st == EV_OK) {
        run_table_t t = {RUN_TABLE_VALIDATE, &s->cfg, &grid_rep, &hof_rep, &v, NULL, NULL};
        run_table(a->report, &t);
        run_note(a->report, "validate: run file %s\n", s->cfg.output);
    }
    if (st == EV_OK && a->json)
        st = write_json(s, a, &v, &res, &grid_rep, &hof_rep, &gs, t0, err);
    reported_free(&grid_rep);
    reported_free(&hof_rep);
    free(grid_top);
    grid_cands_free(&c);
    topk_free(&pool);
    topk_free(&top);
    ga_result_free(&res);
    return st;
}
