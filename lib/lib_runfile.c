/* libevolve: reading a run file's tables (results/README.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archive/run_file.h"
#include "io/h5_util.h"
#include "common/platform.h"
#include "lib/lib_core.h"

static int locked_runfile_open(evolve_ctx *ctx, const char *path, evolve_runfile **out)
{
    evolve_runfile *r;
    ev_error e;
    ev_status st;
    if (!ctx || !path || !out)
        return lib_usage(ctx, "evolve_runfile_open: NULL context, path or output");
    *out = NULL;
    if (!(r = (evolve_runfile *)calloc(1, sizeof *r)))
        return lib_result(ctx, ev_fail(&e, EV_ENOMEM, "out of memory"), &e);
    r->rf.file = -1;
    if ((st = run_file_open(&r->rf, path, &e)) != EV_OK) {
        free(r);
        return lib_result(ctx, st, &e);
    }
    *out = r;
    return lib_result(ctx, EV_OK, NULL);
}

static void locked_runfile_close(evolve_runfile *r)
{
    if (!r)
        return;
    run_file_close(&r->rf, NULL);
    free(r);
}

static int locked_runfile_attr(evolve_ctx *ctx, evolve_runfile *r, const char *object, const char *name, char *buf,
                               size_t size)
{
    char *v = NULL;
    ev_error e;
    ev_status st;
    if (!r || !object || !name || !buf || !size)
        return lib_usage(ctx, "evolve_runfile_attr: NULL run file, name or buffer");
    buf[0] = '\0';
    if (!run_file_has(&r->rf, object))
        return lib_result(ctx, EV_OK, NULL);
    if ((st = run_file_read_str(&r->rf, object, name, 1, &v, &e)) != EV_OK)
        return lib_result(ctx, st, &e);
    if (v)
        snprintf(buf, size, "%s", v);
    free(v);
    return lib_result(ctx, EV_OK, NULL);
}

static int locked_runfile_has(evolve_runfile *r, const char *object)
{
    return r && object ? run_file_has(&r->rf, object) : 0;
}

static int locked_runfile_lattice(evolve_ctx *ctx, evolve_runfile *r, evolve_lattice **out)
{
    evolve_lattice *l;
    ev_error e;
    ev_status st;
    if (!ctx || !r || !out)
        return lib_usage(ctx, "evolve_runfile_lattice: NULL context, run file or output");
    *out = NULL;
    if (!(l = (evolve_lattice *)calloc(1, sizeof *l)))
        return lib_result(ctx, ev_fail(&e, EV_ENOMEM, "out of memory"), &e);
    if ((st = run_file_read_lattice(&r->rf, &l->lat, &l->obj, &e)) != EV_OK) {
        evolve_lattice_close(l);
        return lib_result(ctx, st, &e);
    }
    *out = l;
    return lib_result(ctx, EV_OK, NULL);
}

static int locked_runfile_ranked(evolve_ctx *ctx, evolve_runfile *r, const char *group, uint32_t *n, uint64_t *rank_key,
                                 uint64_t *index, double *fitness, double *fitness_raw, int64_t *trades,
                                 uint8_t *feasible, uint16_t *genes)
{
    ranked_genome_t *e = NULL;
    double *value = NULL;
    uint32_t got = 0, np;
    ev_error err;
    ev_status st;
    if (!r || !group || !n)
        return lib_usage(ctx, "evolve_runfile_ranked: NULL run file, group or count");
    if ((st = run_file_read_ranked(&r->rf, group, &e, &value, &got, &err)) != EV_OK)
        return lib_result(ctx, st, &err);
    np = r->rf.n_params;
    if (rank_key || index || fitness || fitness_raw || trades || feasible || genes) {
        uint32_t m = got < *n ? got : *n;
        for (uint32_t i = 0; i < m; i++) {
            if (rank_key)
                rank_key[i] = e[i].key;
            if (index)
                index[i] = e[i].index;
            if (fitness)
                fitness[i] = value ? value[i] : e[i].r.fitness;
            if (fitness_raw)
                fitness_raw[i] = e[i].r.fitness;
            if (trades)
                trades[i] = e[i].r.trades;
            if (feasible)
                feasible[i] = (uint8_t)(e[i].r.feasible != 0);
            for (uint32_t k = 0; genes && k < np; k++)
                genes[(size_t)k * m + i] = e[i].genes[k];
        }
    }
    *n = got;
    free(e);
    free(value);
    return lib_result(ctx, EV_OK, NULL);
}

EVOLVE_API uint32_t evolve_runfile_generations(evolve_runfile *r)
{
    return r && r->rf.has_ga ? r->rf.generations : 0;
}

/* The ga/stats scalar columns. */
static const run_column_id stat_cols[] = {
    COL_GENERATION,      COL_FEASIBLE_COUNT, COL_BEST,         COL_MEDIAN,   COL_MEAN,   COL_STD,
    COL_BEST_DISPLAY,    COL_MEDIAN_DISPLAY, COL_MEAN_DISPLAY, COL_HOF_BEST, COL_UNIQUE, COL_DIVERSITY,
    COL_NEW_EVALUATIONS, COL_EVALUATIONS,    COL_LOOKUPS,      COL_HIT_RATE, COL_WALL_S};
#define N_STAT_COLS ((int)(sizeof stat_cols / sizeof stat_cols[0]))

EVOLVE_API const char *evolve_runfile_stat_name(int i)
{
    if (i < 0 || i >= N_STAT_COLS)
        return NULL;
    return run_columns[stat_cols[i]].path + strlen("ga/stats/");
}

static int locked_runfile_stat(evolve_ctx *ctx, evolve_runfile *r, const char *name, double *out)
{
    run_column_id c = RUN_N_COLUMNS;
    uint32_t g;
    void *buf;
    ev_error e;
    ev_status st;
    if (!r || !name || !out)
        return lib_usage(ctx, "evolve_runfile_stat: NULL run file, name or output");
    for (int i = 0; i < N_STAT_COLS; i++)
        if (!strcmp(evolve_runfile_stat_name(i), name))
            c = stat_cols[i];
    if (c == RUN_N_COLUMNS)
        return lib_result(ctx, ev_fail(&e, EV_EUSAGE, "evolve_runfile_stat: no ga/stats column '%s'", name), &e);
    if (!r->rf.has_ga)
        return lib_result(ctx, ev_fail(&e, EV_EDATA, "%s: the run has no /ga group", r->rf.path), &e);
    g = r->rf.generations;
    if (!g)
        return lib_result(ctx, EV_OK, NULL);
    if (!(buf = malloc((size_t)g * 8)))
        return lib_result(ctx, ev_fail(&e, EV_ENOMEM, "out of memory"), &e);
    if ((st = run_file_read_column(&r->rf, c, 0, g, buf, &e)) == EV_OK) {
        for (uint32_t i = 0; i < g; i++) {
            switch (run_columns[c].elem) {
            case RUN_U32: out[i] = (double)((const uint32_t *)buf)[i]; break;
            case RUN_U64: out[i] = (double)((const uint64_t *)buf)[i]; break;
            default: out[i] = ((const double *)buf)[i]; break;
            }
        }
    }
    free(buf);
    return lib_result(ctx, st, &e);
}

static int locked_runfile_array(evolve_ctx *ctx, evolve_runfile *r, const char *path, uint64_t *n, double *out)
{
    hid_t d, space;
    hssize_t m;
    ev_error e;
    if (!r || !path || !n)
        return lib_usage(ctx, "evolve_runfile_array: NULL run file, path or count");
    if (!run_file_has(&r->rf, path))
        return lib_result(ctx, ev_fail(&e, EV_EUSAGE, "%s: no dataset /%s", r->rf.path, path), &e);
    d = H5Dopen2(r->rf.file, path, H5P_DEFAULT);
    space = d < 0 ? -1 : H5Dget_space(d);
    m = space < 0 ? -1 : H5Sget_simple_extent_npoints(space);
    if (space >= 0)
        H5Sclose(space);
    if (m < 0 || (out && (uint64_t)m != *n) ||
        (out && m && H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, out) < 0)) {
        if (d >= 0)
            H5Dclose(d);
        return lib_result(ctx,
                          ev_fail(&e, EV_EDATA, "%s: /%s is not a numeric dataset of %llu values", r->rf.path, path,
                                  (unsigned long long)*n),
                          &e);
    }
    H5Dclose(d);
    *n = (uint64_t)m;
    return lib_result(ctx, EV_OK, NULL);
}

static int locked_runfile_string(evolve_ctx *ctx, evolve_runfile *r, const char *path, uint64_t i, char *buf,
                                 size_t size, uint64_t *n)
{
    char **v = NULL;
    size_t m = 0;
    ev_error e;
    ev_status st;
    if (!r || !path || !n || (size && !buf))
        return lib_usage(ctx, "evolve_runfile_string: NULL run file, path, count or buffer");
    if (!run_file_has(&r->rf, path))
        return lib_result(ctx, ev_fail(&e, EV_EUSAGE, "%s: no dataset /%s", r->rf.path, path), &e);
    if ((st = h5u_read_strings(r->rf.path, r->rf.file, path, 0, &v, &m, &e)) != EV_OK)
        return lib_result(ctx, st, &e);
    *n = (uint64_t)m;
    if (size)
        snprintf(buf, size, "%s", i < m && v[i] ? v[i] : "");
    run_file_free_strings(v, m);
    return lib_result(ctx, EV_OK, NULL);
}

static int locked_runfile_number(evolve_ctx *ctx, evolve_runfile *r, const char *object, const char *name, double *out)
{
    ev_error e;
    ev_status st;
    if (!r || !object || !name || !out)
        return lib_usage(ctx, "evolve_runfile_number: NULL run file, name or output");
    st = run_file_read_f64(&r->rf, object, name, out, &e);
    return lib_result(ctx, st, st == EV_OK ? NULL : &e);
}

static int locked_runfile_population(evolve_ctx *ctx, evolve_runfile *r, uint32_t gen, uint32_t *population,
                                     uint16_t *genes, double *fitness, double *fitness_raw, int64_t *trades,
                                     uint8_t *feasible)
{
    const run_dims_t *d;
    uint32_t P, G;
    ev_error e;
    ev_status st = EV_OK;
    if (!r || !population)
        return lib_usage(ctx, "evolve_runfile_population: NULL run file or population");
    if (!r->rf.has_ga)
        return lib_result(ctx, ev_fail(&e, EV_EDATA, "%s: the run has no /ga group", r->rf.path), &e);
    d = &r->rf.dims;
    P = d->population;
    G = d->n_genes;
    *population = P;
    if (!genes && !fitness && !fitness_raw && !trades && !feasible)
        return lib_result(ctx, EV_OK, NULL);
    if (gen >= r->rf.generations)
        return lib_result(ctx,
                          ev_fail(&e, EV_EUSAGE, "%s: generation %u is past the %u archived", r->rf.path, (unsigned)gen,
                                  (unsigned)r->rf.generations),
                          &e);
    if (genes) {
        uint16_t *aos = (uint16_t *)malloc((size_t)P * G * sizeof *aos);
        if (!aos)
            return lib_result(ctx, ev_fail(&e, EV_ENOMEM, "out of memory"), &e);
        if ((st = run_file_read_column(&r->rf, COL_GENES, gen, 1, aos, &e)) == EV_OK)
            for (uint32_t i = 0; i < P; i++)
                for (uint32_t k = 0; k < G; k++)
                    genes[(size_t)k * P + i] = aos[(size_t)i * G + k];
        free(aos);
    }
    if (st == EV_OK && fitness)
        st = run_file_read_column(&r->rf, COL_FITNESS, gen, 1, fitness, &e);
    if (st == EV_OK && fitness_raw)
        st = run_file_read_column(&r->rf, COL_FITNESS_RAW, gen, 1, fitness_raw, &e);
    if (st == EV_OK && trades)
        st = run_file_read_column(&r->rf, COL_TRADES, gen, 1, trades, &e);
    if (st == EV_OK && feasible)
        st = run_file_read_column(&r->rf, COL_FEASIBLE, gen, 1, feasible, &e);
    return lib_result(ctx, st, &e);
}

/* ---- the exported calls: HDF5 is entered by one thread at a time (common/platform.h) ---- */

EVOLVE_API int evolve_runfile_open(evolve_ctx *ctx, const char *path, evolve_runfile **out)
{
    int rc_;
    plat_hdf5_lock();
    rc_ = locked_runfile_open(ctx, path, out);
    plat_hdf5_unlock();
    return rc_;
}

EVOLVE_API void evolve_runfile_close(evolve_runfile *r)
{
    plat_hdf5_lock();
    locked_runfile_close(r);
    plat_hdf5_unlock();
}

EVOLVE_API int evolve_runfile_attr(evolve_ctx *ctx, evolve_runfile *r, const char *object, const char *name, char *buf,
                                   size_t size)
{
    int rc_;
    plat_hdf5_lock();
    rc_ = locked_runfile_attr(ctx, r, object, name, buf, size);
    plat_hdf5_unlock();
    return rc_;
}

EVOLVE_API int evolve_runfile_has(evolve_runfile *r, const char *object)
{
    int rc_;
    plat_hdf5_lock();
    rc_ = locked_runfile_has(r, object);
    plat_hdf5_unlock();
    return rc_;
}

EVOLVE_API int evolve_runfile_lattice(evolve_ctx *ctx, evolve_runfile *r, evolve_lattice **out)
{
    int rc_;
    plat_hdf5_lock();
    rc_ = locked_runfile_lattice(ctx, r, out);
    plat_hdf5_unlock();
    return rc_;
}

EVOLVE_API int evolve_runfile_ranked(evolve_ctx *ctx, evolve_runfile *r, const char *group, uint32_t *n,
                                     uint64_t *rank_key, uint64_t *index, double *fitness, double *fitness_raw,
                                     int64_t *trades, uint8_t *feasible, uint16_t *genes)
{
    int rc_;
    plat_hdf5_lock();
    rc_ = locked_runfile_ranked(ctx, r, group, n, rank_key, index, fitness, fitness_raw, trades, feasible, genes);
    plat_hdf5_unlock();
    return rc_;
}

EVOLVE_API int evolve_runfile_stat(evolve_ctx *ctx, evolve_runfile *r, const char *name, double *out)
{
    int rc_;
    plat_hdf5_lock();
    rc_ = locked_runfile_stat(ctx, r, name, out);
    plat_hdf5_unlock();
    return rc_;
}

EVOLVE_API int evolve_runfile_population(evolve_ctx *ctx, evolve_runfile *r, uint32_t gen, uint32_t *population,
                                         uint16_t *genes, double *fitness, double *fitness_raw, int64_t *trades,
                                         uint8_t *feasible)
{
    int rc_;
    plat_hdf5_lock();
    rc_ = locked_runfile_population(ctx, r, gen, population, genes, fitness, fitness_raw, trades, feasible);
    plat_hdf5_unlock();
    return rc_;
}

EVOLVE_API int evolve_runfile_array(evolve_ctx *ctx, evolve_runfile *r, const char *path, uint64_t *n, double *out)
{
    int rc_;
    plat_hdf5_lock();
    rc_ = locked_runfile_array(ctx, r, path, n, out);
    plat_hdf5_unlock();
    return rc_;
}

EVOLVE_API int evolve_runfile_string(evolve_ctx *ctx, evolve_runfile *r, const char *path, uint64_t i, char *buf,
                                     size_t size, uint64_t *n)
{
    int rc_;
    plat_hdf5_lock();
    rc_ = locked_runfile_string(ctx, r, path, i, buf, size, n);
    plat_hdf5_unlock();
    return rc_;
}

EVOLVE_API int evolve_runfile_number(evolve_ctx *ctx, evolve_runfile *r, const char *object, const char *name,
                                     double *out)
{
    int rc_;
    plat_hdf5_lock();
    rc_ = locked_runfile_number(ctx, r, object, name, out);
    plat_hdf5_unlock();
    return rc_;
}
