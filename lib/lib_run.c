/* libevolve: evolve_run, the searches of `evolve CONFIG [--grid|--validate]`
 * through the same session and modes as the command (runs/), so a run from
 * the library writes the command's run file, bit for bit. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archive/run_file.h"
#include "runs/modes.h"
#include "runs/run_guard.h"
#include "runs/run_name.h"
#include "runs/session.h"
#include "common/platform.h"
#include "ga/grid.h"
#include "fitness/objective_prep.h"
#include "lib/lib_core.h"

typedef struct {
    const evolve_run_opts *o;
} run_cb_t;

/* The library's reporter (runs/reporter.h): notes when verbose and
 * warnings on stderr, as the command prints them, and both to the caller's
 * on_message; no table. */
static void note_line(void *user, const char *line)
{
    const evolve_run_opts *o = ((const run_cb_t *)user)->o;
    if (o->verbose)
        fputs(line, stderr);
    if (o->on_message)
        o->on_message(o->user, EVOLVE_NOTE, line);
}

static void warning_line(void *user, const char *line)
{
    const evolve_run_opts *o = ((const run_cb_t *)user)->o;
    fputs(line, stderr);
    if (o->on_message)
        o->on_message(o->user, EVOLVE_WARNING, line);
}

static int forward_generation(void *ctx, const ga_generation_t *g)
{
    const run_cb_t *c = (const run_cb_t *)ctx;
    const ga_gen_stats_t *s = g->stats;
    evolve_generation out;
    memset(&out, 0, sizeof out);
    out.generation = s->generation;
    out.feasible = s->feasible;
    out.best = s->best;
    out.median = s->median;
    out.mean = s->mean;
    out.std = s->std;
    out.unique = s->unique;
    out.diversity = s->diversity;
    out.new_evaluations = s->new_evaluations;
    out.evaluations = s->evaluations;
    out.lookups = s->lookups;
    out.hit_rate = s->hit_rate;
    out.wall_s = s->wall_s;
    out.hof_best_raw = s->hof && s->hof->n ? s->hof->e[0].r.fitness : NAN;
    return c->o->on_generation(c->o->user, &out);
}

static ev_status overrides(session_t *s, const evolve_run_opts *o, const run_args_t *a, ev_error *err)
{
    if (o->top > 0)
        s->cfg.top = o->top > CONFIG_TOP_MAX ? CONFIG_TOP_MAX : o->top;
    if (o->seed_given) {
        s->cfg.seed = o->seed;
        s->cfg.seed_random = 0;
    }
    return run_name_output(&s->cfg, a, err); /* the mode's run file, as the command's */
}

/* What the run file says about the finished run. */
static void read_info(const char *path, const char *mode, evolve_run_info *info)
{
    run_file_t rf;
    ev_error e;
    char *reason = NULL;
    uint64_t u = 0;
    double sec = 0;
    if (run_file_open(&rf, path, &e) != EV_OK)
        return;
    if (!strcmp(mode, "grid")) {
        if (run_file_read_u64(&rf, "grid", "points_evaluated", &u, &e) == EV_OK)
            info->evaluations = u;
        if (run_file_read_f64(&rf, "grid", "seconds", &sec, &e) == EV_OK)
            info->seconds = sec;
    } else if (run_file_has(&rf, "ga")) {
        if (run_file_read_str(&rf, "ga", "stop_reason", 1, &reason, &e) == EV_OK && reason)
            snprintf(info->stop_reason, sizeof info->stop_reason, "%s", reason);
        free(reason);
        if (run_file_read_u64(&rf, "ga", "evaluations", &u, &e) == EV_OK)
            info->evaluations = u;
        if (run_file_read_f64(&rf, "ga", "seconds", &sec, &e) == EV_OK)
            info->seconds = sec;
        info->generations = rf.generations;
    }
    run_file_close(&rf, NULL);
}

static int locked_run(evolve_ctx *ctx, const char *config_path, const evolve_run_opts *opts, evolve_run_info *info)
{
    static const evolve_run_opts none;
    const evolve_run_opts *o = opts ? opts : &none;
    const char *mode = o->mode ? o->mode : "ga";
    run_args_t a;
    run_cb_t cb;
    session_t s;
    session_opts_t so;
    run_reporter_t rep;
    plat_lock_t *lock = NULL;
    ev_error e;
    ev_status st;
    double t0 = plat_now();
    if (!ctx || !config_path)
        return lib_usage(ctx, "evolve_run: NULL context or config path");
    if (info)
        memset(info, 0, sizeof *info);
    memset(&a, 0, sizeof a);
    a.config = config_path;
    a.backend = o->backend ? o->backend : "auto";
    a.evaluator = EVAL_AUTO;
    memset(&rep, 0, sizeof rep);
    rep.log = o->verbose ? stderr : NULL;
    rep.err = stderr;
    rep.note = o->verbose || o->on_message ? note_line : NULL;
    rep.warning = warning_line;
    rep.user = &cb;
    cb.o = o;
    a.report = &rep;
    a.grid = !strcmp(mode, "grid");
    a.validate = !strcmp(mode, "validate");
    a.output = o->output;
    if (!a.grid && !a.validate && strcmp(mode, "ga"))
        return lib_usage(ctx, "evolve_run: mode must be ga, grid or validate");
    if (o->on_generation) {
        a.on_generation = forward_generation;
        a.on_generation_ctx = &cb;
    }
    memset(&e, 0, sizeof e);
    st = session_load_config(&s, config_path, &e);
    if (st == EV_OK)
        st = overrides(&s, o, &a, &e);
    if (st == EV_OK)
        st = run_guard_outputs(&s.cfg, &a, &lock, &e);
    memset(&so, 0, sizeof so); /* the probe always runs here: no --no-gpu-probe */
    so.backend = a.backend;
    so.report = &rep;
    if (st == EV_OK)
        st = session_open(&s, &so, &e);
    if (st == EV_OK) {
        if (a.grid)
            st = run_mode_grid(&s, &a, t0, &e);
        else if (a.validate)
            st = run_mode_validate(&s, &a, t0, &e);
        else
            st = run_mode_ga(&s, &a, t0, &e);
    }
    if (st == EV_OK && info) {
        snprintf(info->run_file, sizeof info->run_file, "%s", s.cfg.output);
        read_info(s.cfg.output, mode, info);
    }
    session_close(&s);
    plat_lock_release(lock);
    return lib_result(ctx, st, &e);
}

/* ---- the exported calls: HDF5 is entered by one thread at a time (common/platform.h) ---- */

EVOLVE_API int evolve_run(evolve_ctx *ctx, const char *config_path, const evolve_run_opts *opts, evolve_run_info *info)
{
    int rc_;
    plat_hdf5_lock();
    rc_ = locked_run(ctx, config_path, opts, info);
    plat_hdf5_unlock();
    return rc_;
}
