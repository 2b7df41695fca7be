/* The run file writer: creation (format, provenance, lattice), the /ga
 * columns, generations, flushing. Every HDF5 call is checked through io/h5_util, so a failure
 * names the file and the object. */
#include <stdlib.h>
#include <string.h>

#include "archive/run_heat.h"
#include "archive/run_internal.h"
#include "common/strutil.h"
#include "common/test_hooks.h"
#include "io/h5_util.h"

/* Scalar statistics are tiny: 256 generations a chunk, uncompressed (a
 * partly filled chunk is rewritten in place as generations arrive). Rows of a
 * whole population are one chunk each, compressed, and never rewritten. */
#define RUN_SCALAR_CHUNK 256

/* /lattice attributes heatmap_x, heatmap_y: the pair the report draws by
 * default (report.heatmap, else the first two filter parameters). */
static ev_status write_heat_pair(run_file_t *rf, const config_t *cfg, ev_error *err)
{
    const char *bad = NULL;
    int32_t px, py;
    ev_status st = EV_OK;
    if (run_heat_pair(&cfg->lattice, (const char *const *)cfg->heatmap, &px, &py, &bad) == 1 &&
        (st = run_file_attr_str(rf, "lattice", "heatmap_x", cfg->lattice.params[px].name, err)) == EV_OK)
        st = run_file_attr_str(rf, "lattice", "heatmap_y", cfg->lattice.params[py].name, err);
    return st;
}

ev_status run_file_create(run_file_t *rf, const char *path, const run_origin_t *o, ev_error *err)
{
    uint64_t version = RUN_FORMAT_VERSION;
    ev_status st = EV_OK;
    memset(rf, 0, sizeof *rf);
    rf->file = -1;
    for (int c = 0; c < RUN_N_COLUMNS; c++)
        rf->col[c] = -1;
    if (!(rf->path = ev_strdup(path)))
        return ev_fail(err, EV_ENOMEM, "out of memory");
    if ((rf->file = h5u_file_create(path, err)) < 0) {
        free(rf->path);
        rf->path = NULL;
        return EV_EIO;
    }
    rf->n_params = (uint32_t)o->cfg->lattice.n_params;
    if ((st = run_file_attr_str(rf, "/", "format", RUN_FORMAT, err)) == EV_OK &&
        (st = run_file_attr_u64(rf, "/", "format_version", version, err)) == EV_OK &&
        (st = run_file_attr_str(rf, "/", "mode", o->mode, err)) == EV_OK &&
        (st = run_file_attr_str(rf, "/", "status", "running", err)) == EV_OK &&
        (st = run_provenance_write(rf, o, err)) == EV_OK &&
        (st = run_lattice_write(rf, &o->cfg->lattice, &o->cfg->objective, err)) == EV_OK)
        st = write_heat_pair(rf, o->cfg, err);
    return st;
}

ev_status run_file_ga_begin(run_file_t *rf, const run_dims_t *d, const ga_settings_t *ga, uint32_t top, ev_error *err)
{
    hid_t root = rf->file;
    ev_status st = EV_OK;
    hid_t g = run_object_open(rf, "ga/stats", 1, err);
    if (g < 0)
        return EV_EHDF5;
    h5u_close(g);
    rf->dims = *d;
    rf->has_ga = 1;
    for (int c = 0; c < RUN_N_COLUMNS && st == EV_OK; c++) {
        const run_column_t *col = &run_columns[c];
        hsize_t row[2];
        uint64_t r64[2];
        int rank;
        if (!run_column_present((run_column_id)c, d))
            continue;
        rank = run_column_row((run_column_id)c, d, r64);
        for (int i = 0; i < rank; i++)
            row[i] = (hsize_t)r64[i];
        st = h5u_rows_create(rf->path, root, col->path, run_elem_file(col->elem), rank + 1, row,
                             col->row == ROW_ONE ? RUN_SCALAR_CHUNK : 1, col->row != ROW_ONE, err);
        /* kept open: a generation is appended to every column */
        if (st == EV_OK && (rf->col[c] = H5Dopen2(root, col->path, H5P_DEFAULT)) < 0)
            st = h5u_fail(err, EV_EHDF5, rf->path, root, col->path, "open dataset");
    }
    rf->cols_open = 1;
    if (st == EV_OK && (st = run_file_attr_u64(rf, "ga", "population", d->population, err)) == EV_OK &&
        (st = run_file_attr_u64(rf, "ga", "n_genes", d->n_genes, err)) == EV_OK &&
        (st = run_file_attr_u64(rf, "ga", "islands", d->islands, err)) == EV_OK &&
        (st = run_file_attr_u64(rf, "ga", "has_index", (uint64_t)d->has_index, err)) == EV_OK &&
        (st = run_file_attr_u64(rf, "ga", "generations_max", ga->generations, err)) == EV_OK &&
        (st = run_file_attr_u64(rf, "ga", "top", top, err)) == EV_OK)
        st = run_file_attr_u64(rf, "ga", "generations", 0, err);
    return st;
}

ev_status run_file_append(run_file_t *rf, uint32_t gen, const run_rows_t *rows, ev_error *err)
{
    ev_status st = EV_OK;
    if (!rf->has_ga || gen > rf->generations)
        return ev_fail(err, EV_EINTERNAL, "%s: generation %u written out of order (%u rows)", rf->path, gen,
                       rf->generations);
    for (int c = 0; c < RUN_N_COLUMNS && st == EV_OK; c++) {
        if (c == RUN_N_COLUMNS / 2)
            test_hook_point("append", gen);
        if (run_column_present((run_column_id)c, &rf->dims))
            st =
                h5u_rows_write_dset(rf->path, rf->col[c], run_elem_mem(run_columns[c].elem), gen, 1, rows->col[c], err);
    }
    if (st == EV_OK)
        rf->generations = gen + 1; /* the /ga attribute "generations" is written when the run ends */
    return st;
}

ev_status run_file_flush(run_file_t *rf, ev_error *err)
{
    if (H5Fflush(rf->file, H5F_SCOPE_GLOBAL) < 0)
        return h5u_fail(err, EV_EIO, rf->path, -1, NULL, "flush");
    return EV_OK;
}
