/* dataset_obtain: a dataset file as named, or the config's CSVs through a
 * cache file keyed by the content of the inputs (io/ingest_key.h): the
 * shared cache (io/dataset_cache.h), or the file data.cache names. */
#include "io/dataset_source.h"

#include <stdlib.h>

#include "common/plat_cache.h"
#include "common/plat_lock.h"
#include "common/platform.h"
#include "io/dataset_cache.h"
#include "io/dataset_h5.h"
#include "io/dataset_h5_layout.h"
#include "io/ingest.h"
#include "io/ingest_key.h"
#include "io/output_guard.h"

static const char *const default_tickers[] = {"SOXL", "IONQ", "MARA"};

static ingest_opts_t opts_from_config(const config_t *cfg, FILE *log)
{
    ingest_opts_t o;
    o.market_dir = cfg->market_dir;
    o.trades_path = cfg->trades_path;
    o.tickers = cfg->n_tickers > 0 ? (const char *const *)cfg->tickers : default_tickers;
    o.n_tickers = cfg->n_tickers > 0 ? cfg->n_tickers : 3;
    o.extra_features = (const char *const *)cfg->extra_features;
    o.n_extra_features = cfg->n_extra_features;
    o.strict = cfg->strict;
    o.log = log;
    return o;
}

/* Reads the cached dataset when it exists and was built from the same inputs
 * and options (1); 0 when it must be rebuilt (a cache problem is never an
 * error: it is rebuilt). */
static int try_cache(const char *path, const ingest_opts_t *o, uint64_t fp, dataset_t *ds, FILE *log)
{
    plat_stat_t ps;
    uint64_t cached;
    ev_error why;
    if (plat_stat(path, &ps) != 0)
        return 0;
    if (dataset_read_fingerprint(path, &cached, &why) != EV_OK) {
        if (log)
            fprintf(log, "note: cannot reuse %s (%s); rebuilding it\n", path, why.msg);
        return 0;
    }
    if (cached != fp) {
        if (log)
            fprintf(log,
                    "note: the inputs or ingest options changed since %s was built; "
                    "rebuilding it\n",
                    path);
        return 0;
    }
    if (dataset_read_h5(path, ds, &why) != EV_OK || ingest_restamp_sources(o, ds, &why) != EV_OK) {
        if (log)
            fprintf(log, "warning: %s; rebuilding it\n", why.msg);
        dataset_free(ds);
        return 0;
    }
    plat_touch(path); /* its last use, which the cache's cap goes by */
    if (log)
        fprintf(log, "reusing cached dataset %s\n", path);
    return 1;
}

static ev_status build_and_cache(const ingest_opts_t *o, const char *path, int shared, dataset_t *ds, FILE *log,
                                 ev_error *err)
{
    ev_status st = ingest_build(o, ds, err);
    if (st != EV_OK)
        return st;
    ingest_print_summary(ds, log);
    st = dataset_write_h5(ds, path, err);
    if (st != EV_OK) {
        ev_error_prefix(err, "writing the dataset cache: ");
        dataset_free(ds);
    } else {
        if (log)
            fprintf(log, "wrote dataset %s\n", path);
        if (shared)
            dataset_cache_built(path, o, log);
    }
    return st;
}

static void say_waiting(long holder, const void *ctx)
{
    const char *path = (const char *)ctx;
    if (holder > 0)
        fprintf(stderr, "evolve: note: waiting for process %ld, which is building the dataset cache %s\n", holder,
                path);
    else
        fprintf(stderr, "evolve: note: waiting for another process, which is building the dataset cache %s\n", path);
}

/* One process builds a cache at a time (its lock file beside it); one that
 * waited reuses what the other built. */
static ev_status build_once(const ingest_opts_t *o, const char *path, int shared, uint64_t fp, dataset_t *ds, FILE *log,
                            ev_error *err)
{
    char *lock_path = plat_lock_path(path), *dir = plat_dirname(path);
    plat_lock_t *lock = NULL;
    ev_status st = lock_path && dir ? plat_mkdirs(dir, err) : ev_fail(err, EV_ENOMEM, "out of memory");
    free(dir); /* the cache's folder first: its lock file lies there */
    if (st != EV_OK) {
        ev_error_prefix(err, "writing the dataset cache: ");
        free(lock_path);
        return st;
    }
    st = plat_lock_take(lock_path, &lock, &(long){0}, err);
    if (st == EV_EBUSY && (st = plat_lock_wait(lock_path, &lock, say_waiting, path, err)) == EV_OK &&
        try_cache(path, o, fp, ds, log)) {
        plat_lock_release(lock);
        free(lock_path);
        return EV_OK;
    }
    if (st == EV_OK) {
        plat_lock_remove_temps(path, stderr);
        st = build_and_cache(o, path, shared, ds, log, err);
    }
    plat_lock_release(lock);
    free(lock_path);
    return st;
}

/* A data path of the config that is missing, or of the wrong kind, is named
 * by its key and the folder it was resolved against. */
static ev_status check_data_path(const config_t *cfg, const char *key, const char *path, int want_dir, ev_error *err)
{
    plat_stat_t ps;
    const char *what = want_dir ? "directory" : "file";
    if (plat_stat(path, &ps) == 0 && !ps.is_dir == !want_dir)
        return EV_OK;
    return ev_fail(err, EV_EIO,
                   "%s: key 'data.%s': %s: %s %s (a relative path is resolved against the config's folder, %s)",
                   cfg->path ? cfg->path : "config", key, path,
                   plat_stat(path, &ps) == 0 ? (want_dir ? "not a" : "a directory, not a") : "no such", what,
                   cfg->dir && cfg->dir[0] ? cfg->dir : ".");
}

ev_status dataset_obtain(config_t *cfg, dataset_t *ds, FILE *log, ev_error *err)
{
    ingest_opts_t o;
    uint64_t fp;
    int shared = !cfg->dataset_path;
    ev_status st;
    if (!cfg->market_dir && !cfg->trades_path) {
        if (!cfg->dataset_path)
            return ev_fail(err, EV_ECONFIG,
                           "%s: no data; expected data.dataset or data.market_dir "
                           "and data.trades",
                           cfg->path ? cfg->path : "config");
        if ((st = check_data_path(cfg, "dataset", cfg->dataset_path, 0, err)) != EV_OK)
            return st;
        return dataset_read_h5(cfg->dataset_path, ds, err);
    }
    if (!cfg->market_dir || !cfg->trades_path)
        return ev_fail(err, EV_ECONFIG, "%s: data.%s is set but data.%s is not; expected both",
                       cfg->path ? cfg->path : "config", cfg->market_dir ? "market_dir" : "trades",
                       cfg->market_dir ? "trades" : "market_dir");
    if ((st = check_data_path(cfg, "market_dir", cfg->market_dir, 1, err)) != EV_OK ||
        (st = check_data_path(cfg, "trades", cfg->trades_path, 0, err)) != EV_OK)
        return st;
    o = opts_from_config(cfg, log);
    if ((st = ingest_fingerprint(&o, &fp, err)) != EV_OK)
        return st;
    if (!cfg->dataset_path && (st = dataset_cache_file(fp, &cfg->dataset_path, err)) != EV_OK)
        return st;
    /* a cache path naming something else (a typo, an input) is never overwritten */
    if ((st = output_check_h5(cfg->dataset_path, DATASET_H5_FORMAT, "dataset cache (data.cache)", "an evolve dataset",
                              err)) != EV_OK)
        return st;
    if (try_cache(cfg->dataset_path, &o, fp, ds, log))
        return EV_OK;
    return build_once(&o, cfg->dataset_path, shared, fp, ds, log, err);
}
