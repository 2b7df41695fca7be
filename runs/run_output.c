#include "runs/run_output.h"

#include <stdlib.h>
#include <string.h>

#include "common/platform.h"
#include "common/strutil.h"
#include "common/test_hooks.h"
#include "ga/ga_stop.h"
#include "runs/grid_record.h"
#include "runs/run_paths.h"

void run_output_origin(run_origin_t *o, const session_t *s, const char *mode, const char *session)
{
    memset(o, 0, sizeof *o);
    o->cfg = &s->cfg;
    o->ds = &s->ds;
    o->mode = mode;
    o->backend = s->ops->name;
    o->device = s->device;
    o->session = session;
    o->probe = s->probe[0] ? s->probe : NULL;
}

ev_status run_output_create_temp(run_file_t *rf, const session_t *s, const char *mode, const char *final,
                                 const char *session, ev_error *err)
{
    run_paths_t p;
    run_origin_t o;
    char *tmp;
    ev_status st;
    memset(rf, 0, sizeof *rf);
    rf->file = -1;
    if ((st = run_paths_make(&p, final, err)) != EV_OK)
        return st;
    st = run_paths_make_dir(&p, err);
    run_paths_free(&p);
    if (st != EV_OK)
        return st;
    if (!(tmp = plat_temp_name(final)))
        return ev_fail(err, EV_ENOMEM, "out of memory");
    run_output_origin(&o, s, mode, session ? session : "started");
    st = run_file_create(rf, tmp, &o, err);
    if (st != EV_OK && rf->path)
        run_output_discard(rf);
    else if (st != EV_OK)
        plat_remove(tmp);
    free(tmp);
    return st;
}

ev_status run_output_commit(run_file_t *rf, const char *final, uint32_t generations, ev_error *err)
{
    size_t n = rf->path ? strlen(rf->path) + 1 : 0;
    char *tmp = n ? (char *)malloc(n) : NULL;
    ev_status st;
    if (!tmp) {
        run_output_discard(rf);
        return ev_fail(err, EV_ENOMEM, "%s: out of memory finishing the run file", final);
    }
    memcpy(tmp, rf->path, n); /* run_file_close frees rf->path */
    st = run_file_close(rf, err);
    if (st == EV_OK) {
        test_hook_point("finalize", generations);
        st = plat_rename_replace(tmp, final, err);
    }
    if (st != EV_OK)
        plat_remove(tmp);
    free(tmp);
    return st;
}

void run_output_discard(run_file_t *rf)
{
    char *path = ev_strdup(rf->path); /* run_file_close frees rf->path */
    run_file_close(rf, NULL);
    if (path)
        plat_remove(path);
    free(path);
}

void run_output_summary(run_summary_t *sum, const session_t *s, const char *mode, const ga_result_t *ga,
                        const grid_stats_t *grid, double t0)
{
    memset(sum, 0, sizeof *sum);
    sum->mode = mode;
    sum->backend = s->ops->name;
    sum->device = s->device;
    if (grid) {
        sum->evaluator = grid_record_evaluator(s, grid);
        sum->evaluated = grid->evaluated;
    } else if (ga) {
        sum->evaluated = ga->evaluations;
    }
    if (ga) {
        sum->has_ga = 1;
        sum->unique_evaluations = ga->evaluations;
        sum->ls_evaluations = ga->ls_evaluations;
        sum->restarts = ga->restarts;
        sum->searches_best = ga->searches_best;
        sum->generations = ga->generations;
        sum->termination = ga_stop_reason_name(ga->reason);
    }
    sum->seconds_load = s->seconds_load;
    sum->seconds_tables = s->seconds_tables;
    /* validate: the GA's seconds plus the grid's, in that order */
    sum->seconds_search = ga && grid ? ga->seconds + grid->seconds : ga ? ga->seconds : grid ? grid->seconds : 0.0;
    sum->seconds_total = plat_now() - t0;
}
