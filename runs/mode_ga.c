/* The default mode: the GA, written to its run file as it goes
 * (<output>.partial, with a checkpoint), resumable after a crash or Ctrl-C,
 * and moved to <output> when complete. Its hall of fame is the top-K. */
#include <stdlib.h>
#include <string.h>

#include "archive/grid_progress.h"
#include "common/platform.h"
#include "common/test_hooks.h"
#include "dist/dist.h"
#include "ga/ga_run.h"
#include "runs/ga_pbo.h"
#include "runs/ga_record.h"
#include "runs/run_output.h"
#include "runs/run_paths.h"
#include "runs/resume.h"
#include "runs/resume_command.h"
#include "runs/modes.h"
#include "io/json_summary.h"

typedef struct {
    run_paths_t paths;
    run_resume_t rr;
    run_file_t rf;
    ga_archive_t ar;
    int archive_open;
    ranked_genome_t *cand; /* the finished archive's strategy candidates (runs/ga_candidates.h), to free */
    uint32_t n_cand;
} ga_files_t;

static int file_exists(const char *path)
{
    plat_stat_t st;
    return plat_stat(path, &st) == 0;
}

static void note_summary(const run_reporter_t *rep, const session_t *s, const ga_result_t *res)
{
    char share[128] = "";
    if (s->cfg.lattice.size_fits)
        snprintf(share, sizeof share, " (%.4g%% of %llu lattice points)",
                 100.0 * (double)res->evaluations / (double)s->cfg.lattice.size,
                 (unsigned long long)s->cfg.lattice.size);
    run_note(
        rep, "ga: stopped (%s) after %u generation(s): %llu unique evaluations%s, cache hit rate %.1f%%, %.3f s%s\n",
        ga_stop_reason_name(res->reason), res->generations, (unsigned long long)res->evaluations, share,
        100.0 * res->hit_rate, res->seconds, res->host_ga ? " (population on the host, fitness on the backend)" : "");
    if (s->cfg.ga.restart_stall)
        run_note(rep,
                 "ga: %u search(es) (%u restart(s)); %u of them ended in the best fitness found (docs/ga.md "
                 "\"Restarts\")\n",
                 res->restarts + 1, res->restarts, res->searches_best);
}

/* Continues the interrupted run's file: its verified generations copied
 * into a fresh file that then takes the .partial name. */
static ev_status open_resumed(ga_files_t *f, session_t *s, ev_error *err)
{
    run_origin_t o;
    char note[64], *tmp = plat_temp_name(f->paths.partial_path);
    ev_status st;
    if (!tmp)
        return ev_fail(err, EV_ENOMEM, "out of memory");
    snprintf(note, sizeof note, "resumed at generation %u", f->rr.ck.ga.generation);
    run_output_origin(&o, s, "ga", note);
    o.earlier_sessions = f->rr.sessions;
    o.n_earlier_sessions = f->rr.n_sessions;
    if ((st = run_file_create(&f->rf, tmp, &o, err)) == EV_OK &&
        (st = ga_archive_init(&f->ar, &f->rf, s, f->paths.ckpt_path, err)) == EV_OK) {
        f->archive_open = 1;
        st = run_resume_copy(&f->rr, &f->paths, s, &f->ar, err);
    }
    if (st == EV_OK && f->rr.have_state && (st = run_file_flush(&f->rf, err)) == EV_OK &&
        (st = plat_rename_replace(tmp, f->paths.partial_path, err)) == EV_OK) {
        /* the open file now has the .partial name: later messages and the
         * final rename use it */
        size_t n = strlen(f->paths.partial_path) + 1;
        char *name = (char *)realloc(f->rf.path, n > strlen(tmp) + 1 ? n : strlen(tmp) + 1);
        if (name) {
            memcpy(name, f->paths.partial_path, n);
            f->rf.path = name;
        }
        free(tmp);
        return name ? EV_OK : ev_fail(err, EV_ENOMEM, "out of memory");
    }
    if (f->archive_open)
        ga_archive_free(&f->ar);
    f->archive_open = 0;
    run_output_discard(&f->rf);
    free(tmp);
    return st;
}

/* A new run file under the .partial name, and its first checkpoint. */
static ev_status open_fresh(ga_files_t *f, session_t *s, const char *note, ev_error *err)
{
    run_origin_t o;
    ev_status st;
    run_output_origin(&o, s, "ga", note);
    o.earlier_sessions = f->rr.sessions;
    o.n_earlier_sessions = f->rr.n_sessions;
    if ((st = run_file_create(&f->rf, f->paths.partial_path, &o, err)) == EV_OK &&
        (st = ga_archive_init(&f->ar, &f->rf, s, f->paths.ckpt_path, err)) == EV_OK) {
        f->archive_open = 1;
        if ((st = run_file_flush(&f->rf, err)) == EV_OK)
            st = ga_archive_checkpoint_start(&f->ar, err);
    }
    return st;
}

static ev_status open_files(ga_files_t *f, session_t *s, const run_args_t *a, ev_error *err)
{
    ev_status st;
    if (a->resume) {
        if ((st = run_paths_for_resume(&f->paths, a->resume, err)) != EV_OK)
            return st;
        if (grid_progress_is(f->paths.partial_path) == 1)
            return ev_fail(err, EV_ECONFIG, "%s is an interrupted grid: resume it with --grid", f->paths.partial_path);
        if ((st = run_resume_check(&f->rr, &f->paths, s, a->report, err)) != EV_OK)
            return st;
    } else {
        if ((st = run_paths_make(&f->paths, s->cfg.output, err)) != EV_OK)
            return st;
        if (file_exists(f->paths.partial_path))
            return run_refuse_fresh(a, f->paths.partial_path, f->paths.ckpt_path, err);
        plat_remove(f->paths.ckpt_path); /* a stale checkpoint without its run file */
    }
    if (f->rr.have_state) {
        if ((st = open_resumed(f, s, err)) != EV_OK || f->rr.have_state) {
            if (st == EV_OK)
                run_note(a->report, "ga: resuming %s at generation %u\n", f->paths.partial_path,
                         f->rr.ck.ga.generation);
            return st;
        }
    }
    if (a->resume) /* even when quiet: the user should know the run starts over */
        run_warning(a->report, "evolve: note: %s\n", f->rr.why);
    return open_fresh(f, s, a->resume ? "started again (resume found nothing to continue)" : "started", err);
}

static void close_files(ga_files_t *f, int keep)
{
    if (f->archive_open)
        ga_archive_free(&f->ar);
    if (keep) {
        run_file_close(&f->rf, NULL);
    } else if (f->rf.path) {
        run_output_discard(&f->rf);
        plat_remove(f->paths.ckpt_path);
    }
    run_resume_free(&f->rr);
    run_paths_free(&f->paths);
}

static ev_status write_json(const session_t *s, const run_args_t *a, const ga_result_t *res, const reported_t *hof,
                            const uint32_t *basin_best, uint32_t n_basins, double t0, ev_error *err)
{
    run_summary_t sum;
    run_output_summary(&sum, s, "ga", res, NULL, t0);
    sum.basin_best = basin_best;
    sum.n_basins = n_basins;
    return json_summary_write(a->json, &sum, &s->cfg, &s->ds, hof, err);
}

/* report.diverse: the basins of the hall of fame's top K (grouped by
 * session_groups), noted; *best (to free; NULL: not grouped) holds each
 * one's best rank - 1. */
static ev_status hof_basins(const run_args_t *a, const reported_t *hof, uint32_t **best, uint32_t *n, ev_error *err)
{
    char ranks[256] = "";
    *best = NULL;
    *n = 0;
    if (!hof->basin || !hof->n)
        return EV_OK;
    if (!(*best = (uint32_t *)malloc((size_t)hof->n * sizeof **best)))
        return ev_fail(err, EV_ENOMEM, "out of memory grouping the hall of fame into basins");
    for (uint32_t i = 0; i < hof->n; i++) /* basins are numbered in list order */
        if (hof->basin[i] == *n)
            (*best)[(*n)++] = i;
    for (uint32_t i = 0; i < *n; i++) {
        size_t used = strlen(ranks);
        snprintf(ranks + used, sizeof ranks - used, "%s%u", i ? ", " : "", (*best)[i] + 1);
    }
    run_note(a->report,
             "ga: %u basin(s) in the top %u (improving 1-gene moves, docs/ga.md \"Basins\"); each one's best: "
             "rank %s\n",
             *n, hof->n, ranks);
    return EV_OK;
}

/* After ga_run: the file finished and moved into place, or kept for a
 * resume (Ctrl-C), or, on an error, kept only when a checkpoint can resume it. */
static ev_status conclude(ga_files_t *f, const session_t *s, const run_args_t *a, const ga_result_t *res, ev_status st,
                          ev_error *err)
{
    char cmd[2048];
    run_resume_command(a, f->paths.partial_path, cmd, sizeof cmd);
    if (st == EV_OK && (st = ga_archive_finish(&f->ar, res, err)) == EV_OK) {
        f->cand = f->ar.cand; /* the printed list is grouped as the run file's */
        f->n_cand = f->ar.n_cand;
        f->ar.cand = NULL;
    }
    if (st != EV_OK) {
        int resumable = f->ar.checkpoints > 0;
        if (resumable)
            ev_error_prefix(err, "(the run so far is kept in %s; once this is fixed, continue it with: %s) ",
                            f->paths.partial_path, cmd);
        close_files(f, resumable);
        return st;
    }
    if (res->reason == GA_STOP_INTERRUPTED) {
        ev_fail(err, EV_EINTR, "interrupted after %u generation(s); the run so far is in %s. Continue it with:\n  %s",
                res->generations, f->paths.partial_path, cmd);
        close_files(f, 1);
        return EV_EINTR;
    }
    ga_archive_free(&f->ar);
    f->archive_open = 0;
    st = run_output_commit(&f->rf, f->paths.final_path, res->generations, err);
    if (st == EV_OK) {
        test_hook_point("committed", res->generations);
        plat_remove(f->paths.ckpt_path);
    }
    close_files(f, 1);
    return st;
}

/* The archive's observer followed by run_args_t's callback (the library's). */
typedef struct {
    ga_observer_t archive;
    const run_args_t *a;
    int stop;
} ga_chain_t;

static ev_status chain_generation(void *ctx, const ga_generation_t *gen, ev_error *err)
{
    ga_chain_t *c = (ga_chain_t *)ctx;
    ev_status st = c->archive.on_generation(c->archive.ctx, gen, err);
    if (st == EV_OK && c->a->on_generation(c->a->on_generation_ctx, gen))
        c->stop = 1;
    return st;
}

static ev_status chain_checkpoint(void *ctx, const ga_snapshot_t *snap, ev_error *err)
{
    ga_chain_t *c = (ga_chain_t *)ctx;
    return c->archive.on_checkpoint(c->archive.ctx, snap, err);
}

static int chain_stop(void *ctx)
{
    return ((ga_chain_t *)ctx)->stop;
}

static void chain_observer(ga_chain_t *c, const run_args_t *a, ga_observer_t *obs)
{
    c->archive = *obs;
    c->a = a;
    c->stop = 0;
    obs->ctx = c;
    obs->on_generation = chain_generation;
    obs->on_checkpoint = c->archive.on_checkpoint ? chain_checkpoint : NULL;
    obs->stop_requested = chain_stop;
}

ev_status run_mode_ga(session_t *s, const run_args_t *a, double t0, ev_error *err)
{
    ga_chain_t chain;
    ga_files_t f;
    ga_observer_t obs;
    ga_run_opts_t o;
    backend_ops_t ops;
    dist_ga_state_t shared;
    ga_result_t res;
    reported_t hof = {0};
    uint32_t *basin_best = NULL, n_basins = 0;
    char limit[160];
    ev_status st;
    memset(&f, 0, sizeof f);
    f.rf.file = -1;
    memset(&res, 0, sizeof res);
    memset(&o, 0, sizeof o);
    if ((st = open_files(&f, s, a, err)) != EV_OK) {
        close_files(&f, a->resume != NULL);
        return st;
    }
    o.resume = f.rr.have_state ? &f.rr.rs : NULL;
    if ((st = dist_ga_share(&s->cfg.seed, &o.resume, &s->prob, &shared, err)) != EV_OK) {
        close_files(&f, 1);
        return st;
    }
    ga_archive_observer(&f.ar, &obs);
    if (a->on_generation)
        chain_observer(&chain, a, &obs);
    o.seed = s->cfg.seed;
    o.top = session_hof_capacity(s);
    o.progress = run_log(a->report);
    o.observer = &obs;
    session_ls_sweeps(s, &o);
    dist_ga_opts(&o);
    ga_settings_limit_text(&s->cfg.ga, limit, sizeof limit);
    run_note(a->report, "ga: population %u, %s, %u island(s), seed %llu, on %s\n", s->cfg.ga.population, limit,
             s->cfg.ga.islands, (unsigned long long)s->cfg.seed, s->device);
    dist_ga_ops(s->ops, &s->prob, &ops);
    st = ga_run(&ops, s->backend, &s->prob, &s->cfg.ga, &o, &res, err);
    if (st == EV_OK) /* before the final hall of fame is written with it */
        st = ga_pbo(s, &f.rf, &f.ar.dims, err);
    if ((st = conclude(&f, s, a, &res, st, err)) == EV_OK || st == EV_EINTR) {
        ev_error rerr;
        uint32_t n = res.hof.n < s->cfg.top ? res.hof.n : s->cfg.top;
        ev_status rst = session_reported(s, res.hof.e, n, &hof, &rerr);
        if (rst == EV_OK)
            rst = f.cand ? session_groups(s, &hof, f.cand, f.n_cand, NULL, 0, 1, &rerr)
                         : session_groups(s, &hof, res.hof.e, res.hof.n, NULL, 0, 1, &rerr);
        if (rst != EV_OK) {
            *err = rerr;
            st = rst;
        } else {
            run_table_t t = {RUN_TABLE_TOP, &s->cfg, &hof, NULL, NULL, NULL, NULL};
            note_summary(a->report, s, &res);
            run_note(a->report, "ga: run file %s%s\n", s->cfg.output,
                     st == EV_EINTR ? RUN_PARTIAL_SUFFIX " (interrupted: --resume continues it)" : "");
            if (hof.val)
                hof.val->trials = (double)res.evaluations;
            run_table(a->report, &t);
        }
    }
    if (st == EV_OK)
        st = hof_basins(a, &hof, &basin_best, &n_basins, err);
    if (st == EV_OK && a->json)
        st = write_json(s, a, &res, &hof, basin_best, n_basins, t0, err);
    free(basin_best);
    free(f.cand);
    reported_free(&hof);
    ga_result_free(&res);
    dist_ga_share_free(&shared);
    return st;
}
