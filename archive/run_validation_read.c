/* A reported list's validation read back from GROUP/validation: the rows and
 * the split as the run had them, so `evolve report` prints what the run did. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "archive/run_internal.h"
#include "archive/run_stats.h"
#include "archive/run_validation.h"
#include "archive/run_validation_read.h"
#include "io/h5_util.h"

/* All but the parts themselves came later: plateau, the Sharpe ratio's moments. */
static int cols_optional(const char *name)
{
    return strncmp(name, "plateau_", 8) == 0 || strncmp(name, "trade_", 6) == 0;
}

/* Column `name` of g as mem_type, rank 1 ([n]) or 2 ([n][folds]); a column
 * added after the first run files (cols_optional) may be absent (*data NULL). */
static ev_status column(run_file_t *rf, hid_t g, const char *path, const char *name, hid_t mem_type, int rank,
                        uint32_t n, int32_t folds, void **data, ev_error *err)
{
    hsize_t dims[2] = {0, 0};
    ev_status st;
    *data = NULL;
    if (h5u_exists(g, name, 0) <= 0 && cols_optional(name))
        return EV_OK;
    if ((st = h5u_read_array(rf->path, g, name, mem_type, rank, dims, data, err)) != EV_OK)
        return st;
    if (dims[0] != n || (rank == 2 && dims[1] != (hsize_t)folds)) {
        free(*data);
        *data = NULL;
        return ev_fail(err, EV_EDATA, "%s: /%s/%s holds %llu rows, its list %u (a damaged or edited run file)",
                       rf->path, path, name, (unsigned long long)dims[0], n);
    }
    return EV_OK;
}

enum {
    C_IS_FIT,
    C_IS_N,
    C_IS_OK,
    C_OOS_FIT,
    C_OOS_N,
    C_OOS_OK,
    C_PL_MEAN,
    C_PL_WORST,
    C_PL_N,
    C_PL_OK,
    C_SR,
    C_SKEW,
    C_KURT,
    C_WORST,
    C_SHARE,
    C_FOLD_FIT,
    C_FOLD_N,
    C_FOLD_OK,
    C_N
};

static const struct {
    const char *name;
    int kind;  /* 0 double, 1 int64, 2 uint8, 3 int32 */
    int folds; /* 1: [n][folds], present only with folds */
} cols[C_N] = {{"in_sample_fitness", 0, 0},     {"in_sample_trades", 1, 0},     {"in_sample_feasible", 2, 0},
               {"out_of_sample_fitness", 0, 0}, {"out_of_sample_trades", 1, 0}, {"out_of_sample_feasible", 2, 0},
               {"plateau_mean", 0, 0},          {"plateau_worst", 0, 0},        {"plateau_neighbours", 3, 0},
               {"plateau_feasible", 3, 0},      {"trade_sharpe", 0, 0},         {"trade_skewness", 0, 0},
               {"trade_kurtosis", 0, 0},        {"worst_fold", 0, 1},           {"fold_profitable_share", 0, 1},
               {"fold_fitness", 0, 2},          {"fold_trades", 1, 2},          {"fold_feasible", 2, 2}};

static hid_t mem_type(int kind)
{
    switch (kind) {
    case 0: return H5T_NATIVE_DOUBLE;
    case 1: return H5T_NATIVE_INT64;
    case 2: return H5T_NATIVE_UINT8;
    default: return H5T_NATIVE_INT32;
    }
}

/* Row i of column c; for a column the file lacks (written before it
 * existed) NaN, or 0 for a count. */
static double at(void *const *d, int c, size_t i)
{
    if (!d[c])
        return cols[c].kind == 0 ? NAN : 0.0;
    switch (cols[c].kind) {
    case 0: return ((const double *)d[c])[i];
    case 1: return (double)((const int64_t *)d[c])[i];
    case 2: return (double)((const uint8_t *)d[c])[i];
    default: return (double)((const int32_t *)d[c])[i];
    }
}

static void cell(val_cell_t *x, void *const *d, int fit, size_t i)
{
    x->value = at(d, fit, i);
    x->r.trades = (int64_t)at(d, fit + 1, i);
    x->r.feasible = (int32_t)at(d, fit + 2, i);
}

static void fill(val_rows_t *v, void *const *d, int folds)
{
    for (uint32_t i = 0; i < v->n; i++) {
        val_row_t *r = &v->row[i];
        cell(&r->in_sample, d, C_IS_FIT, i);
        cell(&r->out_of_sample, d, C_OOS_FIT, i);
        r->search = r->in_sample.r;
        r->plateau.mean = at(d, C_PL_MEAN, i);
        r->plateau.worst = at(d, C_PL_WORST, i);
        r->plateau.n = (int32_t)at(d, C_PL_N, i);
        r->plateau.feasible = (int32_t)at(d, C_PL_OK, i);
        r->moments.n = r->in_sample.r.trades;
        r->moments.sharpe = at(d, C_SR, i);
        r->moments.skew = at(d, C_SKEW, i);
        r->moments.kurt = at(d, C_KURT, i);
        r->worst_fold = folds ? at(d, C_WORST, i) : NAN;
        r->fold_profitable = folds ? at(d, C_SHARE, i) : NAN;
        for (int32_t f = 0; folds && f < v->n_folds; f++)
            cell(&r->fold[f], d, C_FOLD_FIT, (size_t)i * (size_t)v->n_folds + (size_t)f);
    }
}

/* The run-level attributes: trials, the Sharpe ratio's variance, the PBO. */
static void attrs(run_file_t *rf, const char *path, val_rows_t *v)
{
    uint64_t u = 0;
    v->pbo = NAN;
    if (run_file_read_u64(rf, path, "trials", &u, NULL) == EV_OK)
        v->trials = (double)u;
    run_file_read_f64(rf, path, "sharpe_variance", &v->var_sr, NULL);
    run_file_read_f64(rf, path, "pbo", &v->pbo, NULL);
    if (run_file_read_u64(rf, path, "pbo_genomes", &u, NULL) == EV_OK)
        v->pbo_genomes = (uint32_t)u;
    if (run_file_read_u64(rf, path, "pbo_blocks", &u, NULL) == EV_OK)
        v->pbo_blocks = (uint32_t)u;
    run_file_read_u64(rf, path, "pbo_combinations", &v->pbo_combos, NULL);
}

/* The split from the days and their parts. */
static ev_status split(run_file_t *rf, const char *group, int32_t n_folds, int folds, val_split_t *sp, ev_error *err)
{
    ev_status st = run_file_read_day_parts(rf, group, &sp->day, &sp->part, &sp->n_days, err);
    sp->n_folds = n_folds;
    sp->has_folds = folds;
    for (int32_t i = 0; st == EV_OK && i < sp->n_days; i++)
        sp->n_holdout += sp->part[i] == VAL_HOLDOUT;
    return st;
}

ev_status run_file_read_validation(run_file_t *rf, const char *group, uint32_t n, val_rows_t **out, val_split_t *sp,
                                   ev_error *err)
{
    char path[512], sub[600];
    void *d[C_N] = {NULL};
    hsize_t fd[2] = {0, 0};
    int folds;
    int32_t n_folds = 1;
    trade_stats_t *oos = NULL;
    hid_t g;
    ev_status st = EV_OK;
    *out = NULL;
    memset(sp, 0, sizeof *sp);
    snprintf(path, sizeof path, "%s/validation", group);
    if (!run_file_has(rf, path))
        return EV_OK;
    if ((g = run_object_open(rf, path, 0, err)) < 0)
        return EV_EHDF5;
    folds = h5u_exists(g, "fold_fitness", 0) > 0;
    if (folds && (st = h5u_rows_shape(rf->path, g, "fold_fitness", &fd[0], NULL, &fd[1], err)) == EV_OK)
        n_folds = (int32_t)fd[1];
    for (int c = 0; c < C_N && st == EV_OK; c++)
        if (folds || !cols[c].folds)
            st = column(rf, g, path, cols[c].name, mem_type(cols[c].kind), cols[c].folds == 2 ? 2 : 1, n, n_folds,
                        &d[c], err);
    h5u_close(g);
    snprintf(sub, sizeof sub, "%s/out_of_sample_trader_stats", path);
    if (st == EV_OK)
        st = run_file_read_stats(rf, sub, n, &oos, err);
    if (st == EV_OK && !(*out = (val_rows_t *)calloc(1, sizeof **out)))
        st = ev_fail(err, EV_ENOMEM, "out of memory reading %s", path);
    if (st == EV_OK && (st = val_rows_alloc(*out, n_folds, n, -1, err)) == EV_OK) {
        fill(*out, d, folds);
        attrs(rf, path, *out);
        for (uint32_t i = 0; oos && i < n; i++)
            (*out)->row[i].oos_stats = oos[i];
        st = split(rf, group, n_folds, folds, sp, err);
    }
    for (int c = 0; c < C_N; c++)
        free(d[c]);
    free(oos);
    if (st != EV_OK) {
        if (*out)
            val_rows_free(*out);
        free(*out);
        *out = NULL;
        val_split_free(sp);
    }
    return st;
}
