#include "runs/grid_resume.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/platform.h"
#include "common/strutil.h"
#include "common/test_hooks.h"
#include "dist/dist.h"
#include "ga/grid_pool.h"
#include "runs/resume_command.h"
#include "runs/run_identity.h"

static int file_exists(const char *path)
{
    plat_stat_t st;
    return plat_stat(path, &st) == 0;
}

static uint64_t lattice_points(const grid_resume_t *g)
{
    return g->s->cfg.lattice.size;
}

/* The progress must be this run's and fit its pass: the identity and the
 * evaluator refuse the resume (the user asked for another run); a lattice or
 * pool of another size is a damaged file: the grid starts over. */
static ev_status check_was(grid_resume_t *g, session_t *s, const run_args_t *a, ev_error *err)
{
    const grid_progress_t *w = &g->was;
    run_identity_t was = w->id, now;
    evaluator_kind ev;
    uint32_t pool_k = s->strategy ? s->cfg.top : grid_pool_size(s->cfg.top);
    ev_status st;
    run_identity_of(s, &now);
    if (s->cfg.seed_random && was.seed != now.seed) {
        /* "seed: random" means the seed drawn when the run started */
        run_warning(a->report, "evolve: seed: random: continuing with the run's seed %" PRIu64 "\n", was.seed);
        s->cfg.seed = now.seed = was.seed;
    }
    if ((st = run_identity_compare(&was, &now, g->paths.partial_path, NULL, s, err)) != EV_OK ||
        (st = grid_pick_evaluator(s->ops, &s->prob, (evaluator_kind)a->evaluator, 0, &ev, err)) != EV_OK)
        return st;
    if (strcmp(w->evaluator, evaluator_name(ev)) != 0)
        return ev_fail(err, EV_ECONFIG,
                       "cannot resume %s: its points were evaluated by the %s evaluator, in that evaluator's order, "
                       "and this command runs %s: pass --evaluator %s",
                       g->paths.partial_path, w->evaluator, evaluator_name(ev), w->evaluator);
    if (w->points == lattice_points(g) && w->pool.k == pool_k) {
        g->resumed = 1;
        snprintf(g->session, sizeof g->session, "resumed at point %" PRIu64 " of %" PRIu64, w->done, w->points);
    } else {
        run_warning(a->report,
                    "evolve: note: %s holds %" PRIu64 " points and a pool of %u, this grid %" PRIu64
                    " and %u: the grid starts again from its first point\n",
                    g->paths.partial_path, w->points, w->pool.k, lattice_points(g), pool_k);
    }
    return EV_OK;
}

/* --resume RUN: the progress read (a damaged one: the grid starts over). */
static ev_status open_resumed(grid_resume_t *g, session_t *s, const run_args_t *a, ev_error *err)
{
    const char *partial = g->paths.partial_path;
    ev_error why;
    ev_status st;
    char *final;
    if (!g->keep)
        return ev_fail(err, EV_EUSAGE,
                       "a grid is resumed on one process: the sharded grid under mpirun keeps no progress (run the "
                       "--resume command without mpirun, or start the grid over)");
    if (!file_exists(partial))
        return ev_fail(err, EV_ECONFIG,
                       "%s: no interrupted grid to resume (%s is a GA's checkpoint: resume it "
                       "without --grid)",
                       a->resume, g->paths.ckpt_path);
    if (!(final = ev_strdup(g->paths.final_path)))
        return ev_fail(err, EV_ENOMEM, "out of memory");
    free(s->cfg.output); /* the run file is the one resumed */
    s->cfg.output = final;
    if ((st = grid_progress_read(partial, &g->was, &why)) == EV_OK)
        return check_was(g, s, a, err);
    if (st == EV_EBUSY)
        return ev_fail(err, st, "%s", why.msg);
    if (grid_progress_is(partial) < 0)
        return ev_fail(err, EV_ECONFIG,
                       "%s is not an interrupted grid (an interrupted GA run is resumed without --grid): %s", partial,
                       why.msg);
    /* even when quiet: the user should know the grid starts over */
    run_warning(a->report, "evolve: note: %s; the grid starts again from its first point\n", why.msg);
    return EV_OK;
}

ev_status grid_resume_open(grid_resume_t *g, session_t *s, const run_args_t *a, ev_error *err)
{
    ev_status st;
    memset(g, 0, sizeof *g);
    g->s = s;
    g->every_s = s->cfg.grid_checkpoint_s;
    g->keep = dist_size() == 1;
    snprintf(g->session, sizeof g->session, a->resume ? "started again (resume found nothing to continue)" : "started");
    if (a->resume) {
        if ((st = run_paths_for_resume(&g->paths, a->resume, err)) != EV_OK)
            return st;
        return open_resumed(g, s, a, err);
    }
    if ((st = run_paths_make(&g->paths, s->cfg.output, err)) != EV_OK)
        return st;
    return file_exists(g->paths.partial_path) ? run_refuse_fresh(a, g->paths.partial_path, NULL, err) : EV_OK;
}

static ev_status save_now(grid_resume_t *g, uint64_t done, ev_error *err)
{
    grid_progress_t p;
    ev_status st;
    memset(&p, 0, sizeof p);
    run_identity_of(g->s, &p.id);
    p.evaluator = g->evaluator;
    p.points = lattice_points(g);
    p.done = done;
    p.seconds = grid_resume_seconds_before(g) + (plat_now() - g->t0);
    p.pool = *g->pool;
    if (g->heat)
        p.heat = *g->heat;
    p.serial = g->writes++;
    if ((st = grid_progress_write(g->paths.partial_path, &p, err)) == EV_OK)
        g->saved = done;
    g->last = plat_now(); /* from the write's end: a slow disk is not written to back to back */
    return st;
}

/* The hook after every block: saved when the interval has passed, when the
 * pass is done and on Ctrl-C (the pass then stops at this block). */
static ev_status on_block(void *ctx, uint64_t done, ev_error *err)
{
    grid_resume_t *g = (grid_resume_t *)ctx;
    test_hook_delay();
    if (done < lattice_points(g) && !plat_interrupted() && plat_now() - g->last < g->every_s)
        return EV_OK;
    return save_now(g, done, err);
}

ev_status grid_resume_bind(grid_resume_t *g, grid_opts_t *opts, topk_t *pool, const run_reporter_t *rep, ev_error *err)
{
    const grid_progress_t *w;
    evaluator_kind ev;
    grid_heat_t *heat;
    ev_status st;
    if (!g || !g->keep)
        return EV_OK;
    w = &g->was;
    if ((st = grid_pick_evaluator(g->s->ops, &g->s->prob, opts->evaluator, opts->dominance_budget, &ev, err)) != EV_OK)
        return st;
    heat = grid_heat_for(g->s->ops, opts, ev);
    g->evaluator = evaluator_name(ev);
    g->pool = pool;
    g->heat = heat;
    g->hook.at = on_block;
    g->hook.ctx = g;
    opts->hook = &g->hook;
    g->t0 = g->last = plat_now();
    if (!g->resumed)
        return EV_OK;
    if (!heat != !w->heat.key || (heat && (heat->px != w->heat.px || heat->py != w->heat.py || heat->nx != w->heat.nx ||
                                           heat->ny != w->heat.ny)))
        return ev_fail(err, EV_EDATA, "%s: its heatmap is not this run's (report.heatmap); delete it to start over",
                       g->paths.partial_path);
    pool->n = w->pool.n;
    memcpy(pool->e, w->pool.e, (size_t)w->pool.n * sizeof *pool->e);
    if (heat)
        memcpy(heat->key, w->heat.key, (size_t)heat->nx * heat->ny * sizeof *heat->key);
    g->hook.start = g->saved = w->done;
    run_note(rep, "grid: resuming %s at point %" PRIu64 " of %" PRIu64 " (%.1f%% done) with the %s evaluator\n",
             g->paths.partial_path, w->done, w->points, w->points ? 100.0 * (double)w->done / (double)w->points : 100.0,
             g->evaluator);
    return EV_OK;
}

double grid_resume_seconds_before(const grid_resume_t *g)
{
    return g && g->resumed ? g->was.seconds : 0.0;
}

ev_status grid_resume_end(grid_resume_t *g, const run_args_t *a, ev_status st, ev_error *err)
{
    char cmd[2048];
    if (st == EV_OK) {
        plat_remove(g->paths.partial_path);
        return EV_OK;
    }
    if (!g->keep || !g->paths.partial_path || !file_exists(g->paths.partial_path))
        return st;
    run_resume_command(a, g->paths.partial_path, cmd, sizeof cmd);
    if (st == EV_EINTR)
        return ev_fail(err, EV_EINTR,
                       "interrupted after %" PRIu64 " of %" PRIu64
                       " lattice points; the grid so far is in %s. "
                       "Continue it with:\n  %s",
                       g->saved, lattice_points(g), g->paths.partial_path, cmd);
    ev_error_prefix(err, "(the grid so far is kept in %s; once this is fixed, continue it with: %s) ",
                    g->paths.partial_path, cmd);
    return st;
}

void grid_resume_free(grid_resume_t *g)
{
    grid_progress_free(&g->was);
    run_paths_free(&g->paths);
    memset(g, 0, sizeof *g);
}
