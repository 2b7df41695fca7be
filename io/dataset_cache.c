/* The shared dataset cache's folder and files (io/dataset_cache.h). */
#include "io/dataset_cache.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/plat_cache.h"
#include "common/plat_lock.h"
#include "common/platform.h"
#include "common/strutil.h"

#define KEY_HEX 16

ev_status dataset_cache_dir(char **dir, ev_error *err)
{
    char *base = plat_cache_dir();
    *dir = NULL;
    if (!base)
        return ev_fail(err, EV_ECONFIG,
                       "no folder for the dataset cache: expected EVOLVE_CACHE_DIR, XDG_CACHE_HOME or HOME "
                       "(LOCALAPPDATA on Windows) to be set, or data.cache in the config");
    *dir = plat_path_join(base, "datasets");
    free(base);
    return *dir ? EV_OK : ev_fail(err, EV_ENOMEM, "out of memory");
}

ev_status dataset_cache_file(uint64_t key, char **path, ev_error *err)
{
    char name[KEY_HEX + 4];
    char *dir = NULL;
    ev_status st = dataset_cache_dir(&dir, err);
    *path = NULL;
    if (st == EV_OK && (st = plat_mkdirs(dir, err)) != EV_OK)
        ev_error_prefix(err, "creating the dataset cache folder: ");
    if (st == EV_OK) {
        snprintf(name, sizeof name, "%016" PRIx64 ".h5", key);
        if (!(*path = plat_path_join(dir, name)))
            st = ev_fail(err, EV_ENOMEM, "out of memory");
    }
    free(dir);
    return st;
}

/* "<path without .h5>.inputs" (malloc'ed). */
static char *inputs_path(const char *h5)
{
    size_t n = strlen(h5);
    char *s = (char *)malloc(n + sizeof ".inputs");
    if (s) {
        memcpy(s, h5, n - 3);
        memcpy(s + n - 3, ".inputs", sizeof ".inputs");
    }
    return s;
}

static void write_inputs(const char *h5, const ingest_opts_t *o)
{
    char *path = inputs_path(h5), *tmp = path ? plat_temp_name(path) : NULL;
    char *market = plat_abs_path(o->market_dir), *trades = plat_abs_path(o->trades_path);
    FILE *f = tmp && market && trades ? fopen(tmp, "wb") : NULL;
    if (f) {
        fprintf(f, "%s + %s (", trades, market);
        for (int32_t i = 0; i < o->n_tickers; i++)
            fprintf(f, "%s%s", i ? "," : "", o->tickers[i]);
        fprintf(f, "%s)\n", o->strict ? ", strict" : "");
        if (plat_fclose_written(f) != 0 || plat_rename_replace(tmp, path, NULL) != EV_OK)
            plat_remove(tmp); /* the listing then shows "?" */
    }
    free(path);
    free(tmp);
    free(market);
    free(trades);
}

char *dataset_cache_inputs(const char *h5)
{
    char *path = inputs_path(h5), line[4096];
    FILE *f = path ? fopen(path, "rb") : NULL;
    size_t n = f ? fread(line, 1, sizeof line - 1, f) : 0;
    if (f)
        fclose(f);
    free(path);
    line[n] = '\0';
    line[strcspn(line, "\r\n")] = '\0';
    return ev_strdup(line[0] ? line : "?");
}

static int is_key_file(const char *name)
{
    if (strlen(name) != KEY_HEX + 3 || strcmp(name + KEY_HEX, ".h5") != 0)
        return 0;
    for (int i = 0; i < KEY_HEX; i++)
        if (!strchr("0123456789abcdef", name[i]))
            return 0;
    return 1;
}

static int by_last_use(const void *a, const void *b)
{
    const dataset_cache_entry_t *x = (const dataset_cache_entry_t *)a, *y = (const dataset_cache_entry_t *)b;
    return x->mtime_ns != y->mtime_ns ? (x->mtime_ns < y->mtime_ns ? 1 : -1) : strcmp(x->key, y->key);
}

ev_status dataset_cache_entries(const char *dir, dataset_cache_entry_t **out, size_t *n, ev_error *err)
{
    char **names = NULL;
    size_t count = 0;
    plat_stat_t ps;
    ev_status st;
    *out = NULL;
    *n = 0;
    if (plat_stat(dir, &ps) != 0)
        return EV_OK;
    if ((st = plat_list_dir(dir, &names, &count, err)) != EV_OK)
        return st;
    if (count && !(*out = (dataset_cache_entry_t *)calloc(count, sizeof **out)))
        st = ev_fail(err, EV_ENOMEM, "out of memory");
    for (size_t i = 0; i < count && st == EV_OK; i++) {
        dataset_cache_entry_t *e = &(*out)[*n];
        if (!is_key_file(names[i]))
            continue;
        if (!(e->path = plat_path_join(dir, names[i]))) {
            st = ev_fail(err, EV_ENOMEM, "out of memory");
        } else if (plat_stat(e->path, &ps) == 0 && !ps.is_dir) {
            memcpy(e->key, names[i], KEY_HEX);
            e->size = ps.size;
            e->mtime_ns = ps.mtime_ns;
            (*n)++;
        } else {
            free(e->path); /* removed meanwhile */
            e->path = NULL;
        }
    }
    plat_free_names(names, count);
    if (st != EV_OK) {
        dataset_cache_entries_free(*out, *n);
        *out = NULL;
        *n = 0;
    } else if (*n > 1) {
        qsort(*out, *n, sizeof **out, by_last_use);
    }
    return st;
}

void dataset_cache_entries_free(dataset_cache_entry_t *e, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(e[i].path);
    free(e);
}

ev_status dataset_cache_remove(const char *path, ev_error *err)
{
    char *lock_path = plat_lock_path(path), *inputs = inputs_path(path);
    plat_lock_t *lock = NULL;
    long holder = 0;
    ev_status st =
        lock_path && inputs ? plat_lock_take(lock_path, &lock, &holder, err) : ev_fail(err, EV_ENOMEM, "out of memory");
    if (st == EV_OK) {
        plat_remove(path);
        plat_remove(inputs);
        plat_lock_remove_temps(path, NULL);
        plat_remove(lock_path); /* a waiter then builds anew: its write is atomic too */
        plat_lock_release(lock);
    }
    free(lock_path);
    free(inputs);
    return st;
}

static int64_t cap_bytes(void)
{
    const char *v = getenv("EVOLVE_CACHE_MAX_MB");
    char *end = NULL;
    long long mb = v && v[0] ? strtoll(v, &end, 10) : -1;
    if (mb < 0 || (end && *end) || mb > INT64_MAX / (1 << 20))
        mb = DATASET_CACHE_MAX_MB_DEFAULT;
    return (int64_t)mb << 20;
}

/* Least recently used first out, never `keep` (the file just built). */
static void trim(const char *keep, FILE *log)
{
    char *dir = plat_dirname(keep);
    dataset_cache_entry_t *e = NULL;
    size_t n = 0;
    int64_t total = 0, cap = cap_bytes();
    ev_error err;
    if (!dir || dataset_cache_entries(dir, &e, &n, &err) != EV_OK) {
        free(dir);
        return;
    }
    for (size_t i = 0; i < n; i++)
        total += e[i].size;
    for (size_t i = n; i-- > 0 && total > cap;) {
        if (strcmp(e[i].path, keep) == 0 || dataset_cache_remove(e[i].path, &err) != EV_OK)
            continue;
        total -= e[i].size;
        if (log)
            fprintf(log,
                    "note: removed the least recently used dataset cache %s (the cache's cap is %lld MB, "
                    "EVOLVE_CACHE_MAX_MB)\n",
                    e[i].path, (long long)(cap >> 20));
    }
    dataset_cache_entries_free(e, n);
    free(dir);
}

void dataset_cache_built(const char *path, const ingest_opts_t *o, FILE *log)
{
    write_inputs(path, o);
    trim(path, log);
}
