/* /provenance: where a run came from (the SWIFT-style provenance group):
 * the build (build_info.h), the HDF5 library, the backend and device, the
 * config verbatim, the seed, the dataset's identity and a copy of its input
 * table, and one line per process that wrote the run. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archive/run_internal.h"
#include "build_info.h"
#include "common/platform.h"
#include "io/dataset_h5.h"
#include "io/h5_util.h"

typedef struct {
    const char *name, *value;
} str_attr_t;

static ev_status write_strs(run_file_t *rf, const char *object, const str_attr_t *a, int n, ev_error *err)
{
    ev_status st = EV_OK;
    for (int i = 0; i < n && st == EV_OK; i++)
        st = run_file_attr_str(rf, object, a[i].name, a[i].value ? a[i].value : "", err);
    return st;
}

/* The dataset's path absolute, and seen from the run file's folder (so a run
 * moved with its dataset, or read from another folder, still finds it). */
static void dataset_paths(const run_file_t *rf, const char *dataset, char **abs, char **from_run)
{
    char *run = plat_abs_path(rf->path), *abs_dir = run ? plat_dirname(run) : NULL;
    *abs = dataset ? plat_abs_path(dataset) : NULL;
    *from_run = *abs && abs_dir ? plat_path_relative(abs_dir, *abs) : NULL;
    free(run);
    free(abs_dir);
}

/* /provenance/dataset: the dataset's identity and its sources table. */
static ev_status write_dataset(run_file_t *rf, const run_origin_t *o, ev_error *err)
{
    const dataset_t *ds = o->ds;
    char *abs, *from_run;
    hid_t g;
    ev_status st;
    dataset_paths(rf, o->cfg->dataset_path, &abs, &from_run);
    {
        str_attr_t a[] = {{"path", abs ? abs : o->cfg->dataset_path},
                          {"path_from_run", from_run},
                          {"tool_version", ds->tool_version},
                          {"created_utc", ds->created_utc}};
        st = write_strs(rf, "provenance/dataset", a, (int)(sizeof a / sizeof a[0]), err);
    }
    free(abs);
    free(from_run);
    if (st == EV_OK &&
        (st = run_file_attr_u64(rf, "provenance/dataset", "content_hash", ds->content_hash, err)) == EV_OK &&
        (st = run_file_attr_u64(rf, "provenance/dataset", "input_fingerprint", ds->input_fingerprint, err)) == EV_OK)
        st = run_file_attr_u64(rf, "provenance/dataset", "trades_kept", (uint64_t)ds->n_trades, err);
    if (st != EV_OK)
        return st;
    if ((g = run_object_open(rf, "provenance/dataset", 0, err)) < 0)
        return EV_EHDF5;
    st = h5u_write_strings(rf->path, g, "tickers", 0, (const char *const *)ds->tickers, (size_t)ds->n_tickers, err);
    if (st == EV_OK)
        st = dataset_h5_write_sources(ds, rf->path, g, "sources", err);
    h5u_close(g);
    return st;
}

/* /provenance/sessions: the earlier processes' lines, then this one's. */
static ev_status write_sessions(run_file_t *rf, const run_origin_t *o, const char *created, ev_error *err)
{
    size_t n = o->n_earlier_sessions + 1;
    const char **lines = (const char **)calloc(n, sizeof *lines);
    char mine[640];
    hid_t g;
    ev_status st;
    if (!lines)
        return ev_fail(err, EV_ENOMEM, "out of memory");
    for (size_t i = 0; i < o->n_earlier_sessions; i++)
        lines[i] = o->earlier_sessions[i];
    snprintf(mine, sizeof mine, "%s %s on %s (%s), pid %ld", created, o->session ? o->session : "started", o->backend,
             o->device, plat_pid());
    lines[n - 1] = mine;
    if ((g = run_object_open(rf, "provenance", 0, err)) < 0) {
        free(lines);
        return EV_EHDF5;
    }
    st = h5u_write_strings(rf->path, g, "sessions", 0, lines, n, err);
    h5u_close(g);
    free(lines);
    return st;
}

ev_status run_provenance_write(run_file_t *rf, const run_origin_t *o, ev_error *err)
{
    char created[32], hdf5[32];
    unsigned maj = 0, min = 0, rel = 0;
    const config_t *cfg = o->cfg;
    ev_status st;
    plat_utc_timestamp(created, sizeof created);
    H5get_libversion(&maj, &min, &rel);
    snprintf(hdf5, sizeof hdf5, "%u.%u.%u", maj, min, rel);
    {
        str_attr_t a[] = {{"tool_version", EVOLVE_TOOL_VERSION},
                          {"version", EVOLVE_VERSION},
                          {"git_revision", EVOLVE_GIT_REV},
                          {"compiler", EVOLVE_C_COMPILER},
                          {"build_type", EVOLVE_BUILD_TYPE},
                          {"build_flags", EVOLVE_BUILD_FLAGS},
                          {"cuda_archs", EVOLVE_CUDA_ARCHS},
                          {"hdf5_version", hdf5},
                          {"backend", o->backend},
                          {"device", o->device},
                          {"created_utc", created},
                          {"config_path", cfg->path},
                          {"config_text", cfg->text}};
        st = write_strs(rf, "provenance", a, (int)(sizeof a / sizeof a[0]), err);
    }
    if (st == EV_OK && cfg->strategy_type) /* a strategy config: its bars' fingerprint is the dataset's content_hash */
        st = run_file_attr_str(rf, "provenance", "strategy", cfg->strategy_type, err);
    if (st == EV_OK && o->probe)
        st = run_file_attr_str(rf, "provenance", "backend_probe", o->probe, err);
    if (st == EV_OK && (st = run_file_attr_u64(rf, "provenance", "seed", cfg->seed, err)) == EV_OK &&
        (st = run_file_attr_u64(rf, "provenance", "seed_random", (uint64_t)cfg->seed_random, err)) == EV_OK &&
        (st = run_file_attr_u64(rf, "provenance", "top", cfg->top, err)) == EV_OK &&
        (st = write_dataset(rf, o, err)) == EV_OK)
        st = write_sessions(rf, o, created, err);
    return st;
}
