/* Ranked tables in a run file (the hall of fame, the grid's top-K) and in
 * a checkpoint: one row per genome, best first. */
#include <stdlib.h>
#include <string.h>

#include "archive/run_internal.h"
#include "fitness/accum.h"
#include "io/h5_util.h"

/* The columns of a ranked table, in the order they are written. */
enum { RK_KEY, RK_INDEX, RK_FITNESS, RK_RAW, RK_TRADES, RK_FEASIBLE, RK_GENES, RK_N };
static const char *const ranked_names[RK_N] = {"rank_key", "index",    "fitness", "fitness_raw",
                                               "trades",   "feasible", "genes"};
static const run_elem ranked_elems[RK_N] = {RUN_U64, RUN_U64, RUN_F64, RUN_F64, RUN_I64, RUN_U8, RUN_U16};

/* Column buffers for m rows: u = key[m] then index[m], f = fitness[m] (as
 * displayed) then fitness_raw[m], genes = [m][np]. Written and read alike. */
typedef struct {
    uint64_t *u;
    double *f;
    int64_t *trades;
    uint8_t *feasible;
    uint16_t *genes;
} ranked_buf_t;

/* 0 when out of memory (ranked_buf_free releases what was allocated). */
static int ranked_buf_alloc(ranked_buf_t *b, size_t m, uint32_t np)
{
    b->u = (uint64_t *)malloc(m * 2 * sizeof *b->u);
    b->f = (double *)malloc(m * 2 * sizeof *b->f);
    b->trades = (int64_t *)malloc(m * sizeof *b->trades);
    b->feasible = (uint8_t *)malloc(m);
    b->genes = (uint16_t *)malloc(m * (np ? np : 1) * sizeof *b->genes);
    return b->u && b->f && b->trades && b->feasible && b->genes;
}

static void ranked_buf_free(ranked_buf_t *b)
{
    free(b->u);
    free(b->f);
    free(b->trades);
    free(b->feasible);
    free(b->genes);
}

static ev_status ranked_create(run_file_t *rf, hid_t g, uint32_t capacity, ev_error *err)
{
    hsize_t row = rf->n_params;
    ev_status st = EV_OK;
    for (int c = 0; c < RK_N && st == EV_OK; c++)
        st = h5u_rows_create(rf->path, g, ranked_names[c], run_elem_file(ranked_elems[c]), c == RK_GENES ? 2 : 1, &row,
                             capacity ? capacity : 1, 0, err);
    return st;
}

ev_status run_file_write_ranked(run_file_t *rf, const char *group, const ranked_genome_t *e, const double *value,
                                uint32_t n, uint32_t capacity, ev_error *err)
{
    int fresh = h5u_exists(rf->file, group, 0) == 0;
    hid_t g = run_object_open(rf, group, 1, err);
    uint32_t np = rf->n_params;
    ranked_buf_t b;
    int allocated = ranked_buf_alloc(&b, n ? n : 1, np);
    const void *cols[RK_N];
    ev_status st = g < 0 ? EV_EHDF5 : EV_OK;
    if (st == EV_OK && !allocated)
        st = ev_fail(err, EV_ENOMEM, "out of memory writing %s", group);
    for (uint32_t i = 0; st == EV_OK && i < n; i++) {
        b.u[i] = e[i].key;
        b.u[n + i] = e[i].index;
        b.f[i] = value ? value[i] : e[i].r.fitness;
        b.f[n + i] = e[i].r.fitness;
        b.trades[i] = e[i].r.trades;
        b.feasible[i] = (uint8_t)(e[i].r.feasible != 0);
        memcpy(b.genes + (size_t)i * np, e[i].genes, np * sizeof *b.genes);
    }
    cols[RK_KEY] = b.u;
    cols[RK_INDEX] = b.u + n;
    cols[RK_FITNESS] = b.f;
    cols[RK_RAW] = b.f + n;
    cols[RK_TRADES] = b.trades;
    cols[RK_FEASIBLE] = b.feasible;
    cols[RK_GENES] = b.genes;
    if (st == EV_OK && fresh)
        st = ranked_create(rf, g, capacity, err);
    for (int c = 0; c < RK_N && st == EV_OK; c++)
        if ((st = h5u_rows_write(rf->path, g, ranked_names[c], run_elem_mem(ranked_elems[c]), 0, n, cols[c], err)) ==
            EV_OK)
            st = h5u_rows_resize(rf->path, g, ranked_names[c], n, err);
    ranked_buf_free(&b);
    h5u_close(g);
    return st;
}

ev_status run_file_read_ranked(run_file_t *rf, const char *group, ranked_genome_t **e, double **value, uint32_t *n,
                               ev_error *err)
{
    hid_t g = run_object_open(rf, group, 0, err);
    hsize_t rows = 0, row = rf->n_params;
    uint32_t np = rf->n_params;
    ranked_buf_t b;
    ev_status st = g < 0 ? EV_EDATA : h5u_rows_shape(rf->path, g, "rank_key", &rows, NULL, NULL, err);
    size_t m = st == EV_OK && rows ? (size_t)rows : 1;
    *e = NULL;
    if (value)
        *value = NULL;
    *n = 0;
    memset(&b, 0, sizeof b);
    if (st == EV_OK) {
        int allocated = ranked_buf_alloc(&b, m, np);
        *e = (ranked_genome_t *)calloc(m, sizeof **e);
        if (value)
            *value = (double *)malloc(m * sizeof **value);
        if (!allocated || !*e || (value && !*value))
            st = ev_fail(err, EV_ENOMEM, "out of memory reading %s", group);
    }
    if (st == EV_OK &&
        ((st = h5u_rows_read(rf->path, g, "rank_key", H5T_NATIVE_UINT64, 1, NULL, 0, rows, b.u, err)) != EV_OK ||
         (st = h5u_rows_read(rf->path, g, "index", H5T_NATIVE_UINT64, 1, NULL, 0, rows, b.u + m, err)) != EV_OK ||
         (st = h5u_rows_read(rf->path, g, "fitness_raw", H5T_NATIVE_DOUBLE, 1, NULL, 0, rows, b.f + m, err)) != EV_OK ||
         (value &&
          (st = h5u_rows_read(rf->path, g, "fitness", H5T_NATIVE_DOUBLE, 1, NULL, 0, rows, *value, err)) != EV_OK) ||
         (st = h5u_rows_read(rf->path, g, "trades", H5T_NATIVE_INT64, 1, NULL, 0, rows, b.trades, err)) != EV_OK ||
         (st = h5u_rows_read(rf->path, g, "feasible", H5T_NATIVE_UINT8, 1, NULL, 0, rows, b.feasible, err)) != EV_OK ||
         (st = h5u_rows_read(rf->path, g, "genes", H5T_NATIVE_UINT16, 2, &row, 0, rows, b.genes, err)) != EV_OK))
        ev_error_prefix(err, "%s: ", group);
    for (size_t i = 0; st == EV_OK && i < (size_t)rows; i++) {
        ranked_genome_t *x = &(*e)[i];
        x->key = b.u[i];
        x->index = b.u[m + i];
        x->r.fitness = b.f[m + i];
        x->r.trades = b.trades[i];
        x->r.feasible = b.feasible[i];
        memcpy(x->genes, b.genes + i * np, np * sizeof *b.genes);
    }
    if (st == EV_OK) {
        *n = (uint32_t)rows;
    } else {
        free(*e);
        *e = NULL;
        if (value) {
            free(*value);
            *value = NULL;
        }
    }
    ranked_buf_free(&b);
    h5u_close(g);
    return st;
}
