/* Reading a run file: the format check, /ga rows, the session log. */
#include <stdlib.h>
#include <string.h>

#include "archive/run_internal.h"
#include "common/platform.h"
#include "common/strutil.h"
#include "io/h5_util.h"

static const char *const not_run = "expected a run file written by 'evolve CONFIG' (GA, --grid or --validate)";

static ev_status read_dims(run_file_t *rf, ev_error *err)
{
    uint64_t pop = 0, genes = 0, islands = 0, has_index = 0;
    hsize_t rows = 0;
    ev_status st;
    if ((st = run_file_read_u64(rf, "ga", "population", &pop, err)) != EV_OK ||
        (st = run_file_read_u64(rf, "ga", "n_genes", &genes, err)) != EV_OK ||
        (st = run_file_read_u64(rf, "ga", "islands", &islands, err)) != EV_OK ||
        (st = run_file_read_u64(rf, "ga", "has_index", &has_index, err)) != EV_OK ||
        (st = h5u_rows_shape(rf->path, rf->file, run_columns[COL_GENERATION].path, &rows, NULL, NULL, err)) != EV_OK)
        return st;
    rf->dims.population = (uint32_t)pop;
    rf->dims.n_genes = (uint32_t)genes;
    rf->dims.islands = (uint32_t)islands;
    rf->dims.has_index = has_index != 0;
    rf->has_ga = 1;
    /* The columns may disagree after a crash; the shortest one counts. */
    rf->generations = (uint32_t)rows;
    for (int c = 0; c < RUN_N_COLUMNS && st == EV_OK; c++) {
        if (!run_column_present((run_column_id)c, &rf->dims))
            continue;
        if ((st = h5u_rows_shape(rf->path, rf->file, run_columns[c].path, &rows, NULL, NULL, err)) == EV_OK &&
            rows < rf->generations)
            rf->generations = (uint32_t)rows;
    }
    return st;
}

ev_status run_file_open(run_file_t *rf, const char *path, ev_error *err)
{
    ev_error open_err;
    plat_stat_t ps;
    char *format = NULL;
    uint64_t version = 0;
    hsize_t n = 0;
    ev_status st;
    memset(rf, 0, sizeof *rf);
    rf->file = -1;
    h5u_init();
    if (plat_stat(path, &ps) != 0)
        return ev_fail(err, EV_EIO, "%s: no such run file", path);
    if (ps.is_dir)
        return ev_fail(err, EV_EIO, "%s: is a directory; %s", path, not_run);
    if (H5Fis_hdf5(path) <= 0) {
        H5Eclear2(H5E_DEFAULT);
        return ev_fail(err, EV_EDATA, "%s: not an HDF5 file (or damaged); %s", path, not_run);
    }
    if ((rf->file = h5u_file_open(path, 0, &open_err)) < 0) {
        if (err)
            *err = open_err;
        return open_err.status;
    }
    if (!(rf->path = ev_strdup(path))) {
        run_file_close(rf, NULL);
        return ev_fail(err, EV_ENOMEM, "out of memory");
    }
    st = h5u_read_attr_str(path, rf->file, "format", &format, err);
    if (st != EV_OK || strcmp(format, RUN_FORMAT) != 0)
        st = ev_fail(err, EV_EDATA, "%s: not an evolve run file (no format attribute \"%s\"); %s", path, RUN_FORMAT,
                     not_run);
    free(format);
    if (st == EV_OK && (st = run_file_read_u64(rf, "/", "format_version", &version, err)) == EV_OK &&
        version != RUN_FORMAT_VERSION)
        st = ev_fail(err, EV_EDATA, "%s: run file format version %llu; this evolve reads version %d", path,
                     (unsigned long long)version, RUN_FORMAT_VERSION);
    if (st == EV_OK) {
        hid_t g = run_object_open(rf, "lattice", 0, err);
        if (g < 0 || (st = h5u_rows_shape(path, g, "name", &n, NULL, NULL, err)) != EV_OK)
            st = ev_fail(err, EV_EDATA, "%s: no /lattice; %s", path, not_run);
        rf->n_params = (uint32_t)n;
        h5u_close(g);
    }
    if (st == EV_OK && run_file_has(rf, "ga"))
        st = read_dims(rf, err);
    if (st != EV_OK)
        run_file_close(rf, NULL);
    return st;
}

ev_status run_file_read_column(run_file_t *rf, run_column_id c, uint32_t first, uint32_t n, void *data, ev_error *err)
{
    uint64_t r64[2];
    hsize_t row[2];
    int rank = run_column_row(c, &rf->dims, r64);
    for (int i = 0; i < rank; i++)
        row[i] = (hsize_t)r64[i];
    return h5u_rows_read(rf->path, rf->file, run_columns[c].path, run_elem_mem(run_columns[c].elem), rank + 1, row,
                         first, n, data, err);
}

ev_status run_file_read_rows(run_file_t *rf, uint32_t gen, run_rows_t *rows, ev_error *err)
{
    ev_status st = EV_OK;
    for (int c = 0; c < RUN_N_COLUMNS && st == EV_OK; c++)
        if (run_column_present((run_column_id)c, &rf->dims))
            st = run_file_read_column(rf, (run_column_id)c, gen, 1, rows->col[c], err);
    return st;
}

ev_status run_file_read_sessions(run_file_t *rf, char ***lines, size_t *n, ev_error *err)
{
    hid_t g;
    ev_status st;
    *lines = NULL;
    *n = 0;
    if (!run_file_has(rf, "provenance/sessions"))
        return EV_OK;
    if ((g = run_object_open(rf, "provenance", 0, err)) < 0)
        return EV_EDATA;
    st = h5u_read_strings(rf->path, g, "sessions", 0, lines, n, err);
    h5u_close(g);
    return st;
}
