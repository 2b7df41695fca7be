#include "archive/run_groups.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archive/run_internal.h"
#include "io/h5_util.h"

/* One row per strategy: the list's (in strategy order), then more's. */
typedef struct {
    uint32_t n, np;
    ranked_genome_t *e;
    double *value;
    uint64_t *rank, *genomes;
    uint16_t *lo, *hi; /* [n][np] */
    int32_t *basin;
} strat_rows_t;

static void rows_free(strat_rows_t *w)
{
    free(w->e);
    free(w->value);
    free(w->rank);
    free(w->genomes);
    free(w->lo);
    free(w->hi);
    free(w->basin);
}

static int rows_alloc(strat_rows_t *w, uint32_t n, uint32_t np)
{
    size_t m = n ? n : 1, g = m * (np ? np : 1);
    w->n = n;
    w->np = np;
    w->e = (ranked_genome_t *)calloc(m, sizeof *w->e);
    w->value = (double *)malloc(m * sizeof *w->value);
    w->rank = (uint64_t *)malloc(m * sizeof *w->rank);
    w->genomes = (uint64_t *)malloc(m * sizeof *w->genomes);
    w->lo = (uint16_t *)malloc(g * sizeof *w->lo);
    w->hi = (uint16_t *)malloc(g * sizeof *w->hi);
    w->basin = (int32_t *)malloc(m * sizeof *w->basin);
    return w->e && w->value && w->rank && w->genomes && w->lo && w->hi && w->basin;
}

static void row_set(strat_rows_t *w, uint32_t row, const reported_t *r, uint32_t i, uint64_t rank)
{
    const strat_entry_t *s = &r->strat[i];
    w->e[row] = r->e[i];
    w->value[row] = r->value[i];
    w->rank[row] = rank;
    w->genomes[row] = s->genomes;
    memcpy(w->lo + (size_t)row * w->np, s->lo, w->np * sizeof *w->lo);
    memcpy(w->hi + (size_t)row * w->np, s->hi, w->np * sizeof *w->hi);
    w->basin[row] = r->basin ? (int32_t)r->basin[i] : -1;
}

static ev_status drop(run_file_t *rf, const char *path, ev_error *err)
{
    int e = h5u_exists(rf->file, path, 0);
    if (e < 0 || (e > 0 && H5Ldelete(rf->file, path, H5P_DEFAULT) < 0))
        return h5u_fail(err, EV_EHDF5, rf->path, rf->file, path, "replace");
    return EV_OK;
}

/* 1-D (cols 0) or 2-D [n][cols] arrays into the object at path. */
static ev_status put(run_file_t *rf, const char *path, const char *name, hid_t mem, hid_t file, uint32_t n,
                     uint32_t cols, const void *data, ev_error *err)
{
    hsize_t dims[2] = {n, cols};
    hid_t g = run_object_open(rf, path, 0, err);
    ev_status st;
    if (g < 0)
        return EV_EHDF5;
    st = h5u_write_array(rf->path, g, name, mem, file, cols ? 2 : 1, dims, data, err);
    h5u_close(g);
    return st;
}

static ev_status write_basins(run_file_t *rf, const char *path, const reported_t *r, ev_error *err)
{
    const reported_t *pk = r->peaks;
    uint32_t n_more = r->more ? r->more->n : 0;
    uint64_t *best = (uint64_t *)calloc(pk->n ? pk->n : 1, sizeof *best);
    ev_status st = EV_OK;
    if (!best)
        return ev_fail(err, EV_ENOMEM, "out of memory writing %s", path);
    for (uint32_t i = r->n + n_more; i-- > 0;) { /* each basin's first genome, list then more */
        uint32_t b = i < r->n ? r->basin[i] : r->more->basin[i - r->n];
        if (b < pk->n)
            best[b] = i < r->n ? i + 1 : r->more_rank[i - r->n];
    }
    if ((st = run_file_write_ranked(rf, path, pk->e, pk->value, pk->n, pk->n, err)) == EV_OK)
        st = put(rf, path, "best_rank", H5T_NATIVE_UINT64, H5T_STD_U64LE, pk->n, 0, best, err);
    free(best);
    return st;
}

ev_status run_file_write_groups(run_file_t *rf, const char *group, const char *table, const reported_t *r,
                                ev_error *err)
{
    char sp[256], bp[256], ts[256], tb[256];
    uint32_t n_more = r->more ? r->more->n : 0, np = rf->n_params;
    int32_t *cls = NULL, *basin = NULL;
    strat_rows_t w;
    ev_status st = EV_OK;
    if (!r->strat || !r->n)
        return EV_OK;
    snprintf(sp, sizeof sp, "%s/strategies", group);
    snprintf(bp, sizeof bp, "%s/basins", group);
    snprintf(ts, sizeof ts, "%s/strategy", table);
    snprintf(tb, sizeof tb, "%s/basin", table);
    cls = (int32_t *)malloc(((size_t)r->n + 1) * sizeof *cls);
    basin = (int32_t *)malloc(((size_t)r->n + 1) * sizeof *basin);
    if (!rows_alloc(&w, r->n_strat + n_more, np) || !cls || !basin)
        st = ev_fail(err, EV_ENOMEM, "out of memory writing %s", sp);
    for (uint32_t i = 0; st == EV_OK && i < r->n; i++) {
        cls[i] = (int32_t)r->strat[i].cls;
        basin[i] = r->basin ? (int32_t)r->basin[i] : -1;
        if (r->strat[i].first)
            row_set(&w, r->strat[i].cls, r, i, i + 1);
    }
    for (uint32_t j = 0; st == EV_OK && j < n_more; j++)
        row_set(&w, r->n_strat + j, r->more, j, r->more_rank[j]);
    if (st == EV_OK && (st = drop(rf, sp, err)) == EV_OK && (st = drop(rf, bp, err)) == EV_OK &&
        (st = drop(rf, ts, err)) == EV_OK && (st = drop(rf, tb, err)) == EV_OK &&
        (st = run_file_write_ranked(rf, sp, w.e, w.value, w.n, w.n, err)) == EV_OK &&
        (st = put(rf, sp, "rank", H5T_NATIVE_UINT64, H5T_STD_U64LE, w.n, 0, w.rank, err)) == EV_OK &&
        (st = put(rf, sp, "range_lo", H5T_NATIVE_UINT16, H5T_STD_U16LE, w.n, np, w.lo, err)) == EV_OK &&
        (st = put(rf, sp, "range_hi", H5T_NATIVE_UINT16, H5T_STD_U16LE, w.n, np, w.hi, err)) == EV_OK &&
        (st = put(rf, sp, "genomes", H5T_NATIVE_UINT64, H5T_STD_U64LE, w.n, 0, w.genomes, err)) == EV_OK &&
        (st = put(rf, sp, "basin", H5T_NATIVE_INT32, H5T_STD_I32LE, w.n, 0, w.basin, err)) == EV_OK &&
        (st = put(rf, table, "strategy", H5T_NATIVE_INT32, H5T_STD_I32LE, r->n, 0, cls, err)) == EV_OK &&
        (st = put(rf, table, "basin", H5T_NATIVE_INT32, H5T_STD_I32LE, r->n, 0, basin, err)) == EV_OK && r->peaks)
        st = write_basins(rf, bp, r, err);
    rows_free(&w);
    free(cls);
    free(basin);
    return st;
}

/* A 1-D (cols 0) or 2-D [rows][cols] array at path/name, whose shape must be
 * that; *data to free. */
static ev_status get(run_file_t *rf, const char *path, const char *name, hid_t mem, uint32_t rows, uint32_t cols,
                     void **data, ev_error *err)
{
    hsize_t dims[2] = {0, 0};
    hid_t g = run_object_open(rf, path, 0, err);
    ev_status st;
    *data = NULL;
    if (g < 0)
        return EV_EHDF5;
    st = h5u_read_array(rf->path, g, name, mem, cols ? 2 : 1, dims, data, err);
    h5u_close(g);
    if (st == EV_OK && (dims[0] != rows || (cols && dims[1] != cols))) {
        free(*data);
        *data = NULL;
        st = ev_fail(err, EV_EDATA, "%s: /%s/%s has the wrong shape (a damaged or edited run file)", rf->path, path,
                     name);
    }
    return st;
}

/* w's rows from GROUP/strategies. */
static ev_status read_rows(run_file_t *rf, const char *sp, strat_rows_t *w, ev_error *err)
{
    void *d[5] = {NULL, NULL, NULL, NULL, NULL};
    uint32_t n = 0;
    ev_status st;
    memset(w, 0, sizeof *w);
    w->np = rf->n_params;
    if ((st = run_file_read_ranked(rf, sp, &w->e, &w->value, &n, err)) != EV_OK)
        return st;
    w->n = n;
    if ((st = get(rf, sp, "rank", H5T_NATIVE_UINT64, n, 0, &d[0], err)) == EV_OK &&
        (st = get(rf, sp, "genomes", H5T_NATIVE_UINT64, n, 0, &d[1], err)) == EV_OK &&
        (st = get(rf, sp, "range_lo", H5T_NATIVE_UINT16, n, w->np, &d[2], err)) == EV_OK &&
        (st = get(rf, sp, "range_hi", H5T_NATIVE_UINT16, n, w->np, &d[3], err)) == EV_OK)
        st = get(rf, sp, "basin", H5T_NATIVE_INT32, n, 0, &d[4], err);
    w->rank = (uint64_t *)d[0];
    w->genomes = (uint64_t *)d[1];
    w->lo = (uint16_t *)d[2];
    w->hi = (uint16_t *)d[3];
    w->basin = (int32_t *)d[4];
    return st;
}

static void entry_set(strat_entry_t *s, const strat_rows_t *w, uint32_t row, uint32_t cls, int first)
{
    s->cls = cls;
    s->first = (uint32_t)first;
    s->genomes = w->genomes[row] > UINT32_MAX ? UINT32_MAX : (uint32_t)w->genomes[row];
    memcpy(s->lo, w->lo + (size_t)row * w->np, w->np * sizeof *s->lo);
    memcpy(s->hi, w->hi + (size_t)row * w->np, w->np * sizeof *s->hi);
}

/* r->strat from the list's `strategy` column: numbered in list order, each
 * a row of w. */
static ev_status take_list(run_file_t *rf, reported_t *r, const int32_t *cls, const strat_rows_t *w, ev_error *err)
{
    if (!(r->strat = (strat_entry_t *)calloc((size_t)r->n + 1, sizeof *r->strat)))
        return ev_fail(err, EV_ENOMEM, "out of memory reading the strategies");
    r->n_strat = 0;
    for (uint32_t i = 0; i < r->n; i++) {
        if (cls[i] < 0 || (uint32_t)cls[i] > r->n_strat || (uint32_t)cls[i] >= w->n)
            return ev_fail(err, EV_EDATA,
                           "%s: strategy %d of list row %u is out of order (a damaged or edited run file)", rf->path,
                           cls[i], i);
        entry_set(&r->strat[i], w, (uint32_t)cls[i], (uint32_t)cls[i], (uint32_t)cls[i] == r->n_strat);
        r->n_strat += (uint32_t)cls[i] == r->n_strat;
    }
    return EV_OK;
}

/* r->more from the rows below the list's strategies. */
static ev_status take_more(reported_t *r, strat_rows_t *w, ev_error *err)
{
    uint32_t m = w->n - r->n_strat;
    reported_t *x;
    if (!m)
        return EV_OK;
    if (!(x = (reported_t *)calloc(1, sizeof *x)) || !(r->more = x) ||
        !(x->own_e = (ranked_genome_t *)malloc(m * sizeof *x->own_e)) ||
        !(x->value = (double *)malloc(m * sizeof *x->value)) ||
        !(x->strat = (strat_entry_t *)calloc(m, sizeof *x->strat)) ||
        !(r->more_rank = (uint32_t *)malloc(m * sizeof *r->more_rank)))
        return ev_fail(err, EV_ENOMEM, "out of memory reading the strategies");
    x->e = x->own_e;
    x->n = x->n_strat = m;
    for (uint32_t j = 0; j < m; j++) {
        uint32_t row = r->n_strat + j;
        x->own_e[j] = w->e[row];
        x->value[j] = w->value[row];
        entry_set(&x->strat[j], w, row, j, 1);
        r->more_rank[j] = w->rank[row] > UINT32_MAX ? UINT32_MAX : (uint32_t)w->rank[row];
    }
    return EV_OK;
}

/* Each entry's basin (list, then more) and the peaks, when written. */
static ev_status take_basins(run_file_t *rf, const char *bp, const char *table, reported_t *r, const strat_rows_t *w,
                             ev_error *err)
{
    reported_t *pk;
    int32_t *b = NULL;
    uint32_t n_more = r->more ? r->more->n : 0;
    ev_status st;
    if (!run_file_has(rf, bp))
        return EV_OK;
    if (!(pk = r->peaks = (reported_t *)calloc(1, sizeof *pk)))
        return ev_fail(err, EV_ENOMEM, "out of memory reading the basins");
    if ((st = run_file_read_ranked(rf, bp, &pk->own_e, &pk->value, &pk->n, err)) != EV_OK ||
        (st = get(rf, table, "basin", H5T_NATIVE_INT32, r->n, 0, (void **)&b, err)) != EV_OK)
        return st;
    pk->e = pk->own_e;
    r->basin = (uint32_t *)malloc(((size_t)r->n + 1) * sizeof *r->basin);
    if (r->more)
        r->more->basin = (uint32_t *)malloc(((size_t)n_more + 1) * sizeof *r->basin);
    if (!r->basin || (r->more && !r->more->basin))
        st = ev_fail(err, EV_ENOMEM, "out of memory reading the basins");
    for (uint32_t i = 0; st == EV_OK && i < r->n + n_more; i++) {
        int32_t x = i < r->n ? b[i] : w->basin[r->n_strat + i - r->n];
        if (x < 0 || (uint32_t)x >= pk->n)
            st = ev_fail(err, EV_EDATA, "%s: a basin number out of range in /%s (a damaged or edited run file)",
                         rf->path, bp);
        else if (i < r->n)
            r->basin[i] = (uint32_t)x;
        else
            r->more->basin[i - r->n] = (uint32_t)x;
    }
    free(b);
    return st;
}

ev_status run_file_read_groups(run_file_t *rf, const char *group, const char *table, reported_t *r, ev_error *err)
{
    char sp[256], bp[256];
    int32_t *cls = NULL;
    strat_rows_t w;
    ev_status st;
    snprintf(sp, sizeof sp, "%s/strategies", group);
    snprintf(bp, sizeof bp, "%s/basins", group);
    if (!run_file_has(rf, sp) || !r->n)
        return EV_OK;
    if ((st = read_rows(rf, sp, &w, err)) == EV_OK &&
        (st = get(rf, table, "strategy", H5T_NATIVE_INT32, r->n, 0, (void **)&cls, err)) == EV_OK &&
        (st = take_list(rf, r, cls, &w, err)) == EV_OK && (st = take_more(r, &w, err)) == EV_OK)
        st = take_basins(rf, bp, table, r, &w, err);
    rows_free(&w);
    free(cls);
    return st;
}
