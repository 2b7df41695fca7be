#include "runs/run_guard.h"

#include <stdio.h>
#include <stdlib.h>

#include "archive/checkpoint.h"
#include "archive/run_schema.h"
#include "runs/run_paths.h"
#include "common/platform.h"
#include "io/dataset_h5_layout.h"
#include "io/output_guard.h"

typedef struct {
    const char *path, *what;
} named_t;

/* The kinds and the distinctness of the outputs, the run file being run_file. */
static ev_status check(const config_t *cfg, const run_args_t *a, const char *run_file, ev_error *err)
{
    const char *cache = cfg->dataset_is_cache ? cfg->dataset_path : NULL;
    named_t out[] = {
        {run_file, "run file (output)"}, {cache, "dataset cache (data.cache)"}, {a->json, "--json summary"}};
    named_t in[] = {{cfg->path, "config"},
                    {cfg->trades_path, "trade log (data.trades)"},
                    {cfg->market_dir, "market directory (data.market_dir)"},
                    {cache ? NULL : cfg->dataset_path, "dataset (data.dataset)"}};
    ev_status st;
    if ((st = output_check_h5(run_file, RUN_FORMAT, out[0].what, "an evolve run file", err)) != EV_OK ||
        (cache && (st = output_check_h5(cache, DATASET_H5_FORMAT, out[1].what, "an evolve dataset", err)) != EV_OK) ||
        (a->json && (st = output_check_json(a->json, out[2].what, err)) != EV_OK))
        return st;
    for (size_t i = 0; i < sizeof out / sizeof out[0] && st == EV_OK; i++) {
        for (size_t j = 0; j < sizeof in / sizeof in[0] && st == EV_OK; j++)
            st = output_check_distinct(out[i].path, out[i].what, in[j].path, in[j].what, err);
        for (size_t j = 0; j < i && st == EV_OK; j++)
            st = output_check_distinct(out[i].path, out[i].what, out[j].path, out[j].what, err);
    }
    return st;
}

/* The output's lock; refused naming the process that holds it. */
static ev_status take(const run_paths_t *p, int resume, plat_lock_t **lock, ev_error *err)
{
    char who[64] = "another process";
    long holder;
    ev_status st = plat_lock_take(p->lock_path, lock, &holder, err);
    if (st == EV_OK || holder < 0)
        return st;
    if (holder > 0)
        snprintf(who, sizeof who, "process %ld", holder);
    return ev_fail(err, EV_EBUSY, "%s: another evolve run (%s) is writing this output now; wait for it to finish%s",
                   p->final_path, who, resume ? "" : ", or give this run another output (--output)");
}

/* 1 when the run file's directory exists. */
static int have_dir(const run_paths_t *p)
{
    char *dir = plat_dirname(p->final_path);
    plat_stat_t ps;
    int yes = dir && plat_stat(dir, &ps) == 0 && ps.is_dir;
    free(dir);
    return yes;
}

ev_status run_guard_outputs(const config_t *cfg, const run_args_t *a, plat_lock_t **lock, ev_error *err)
{
    run_paths_t p;
    ev_status st = a->resume ? run_paths_for_resume(&p, a->resume, err) : run_paths_make(&p, cfg->output, err);
    int locked;
    *lock = NULL;
    if (st != EV_OK)
        return st;
    /* The lock first where it can be taken, so the checks never read the
     * files of a live run mid-write; a missing directory is made only once
     * the checks passed (a refused command leaves nothing behind). */
    if ((locked = have_dir(&p)) != 0)
        st = take(&p, a->resume != NULL, lock, err);
    if (st == EV_OK)
        st = check(cfg, a, p.final_path, err);
    /* a fresh GA run removes a stale checkpoint beside its output: only a checkpoint */
    if (st == EV_OK && !a->grid && !a->validate && !a->resume)
        st = output_check_h5(p.ckpt_path, CHECKPOINT_FORMAT, "GA checkpoint", "an evolve checkpoint", err);
    if (st == EV_OK && !locked && (st = run_paths_make_dir(&p, err)) == EV_OK)
        st = take(&p, a->resume != NULL, lock, err);
    if (st == EV_OK)
        run_paths_remove_temps(&p, run_err(a->report));
    run_paths_free(&p);
    return st;
}
