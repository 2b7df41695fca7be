#include "archive/run_validation.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archive/run_internal.h"
#include "archive/run_stats.h"
#include "io/h5_util.h"

/* The columns, one row per reported genome (rank order). */
typedef struct {
    double *is_fit, *oos_fit, *worst, *share, *fold_fit, *pl_mean, *pl_worst;
    int32_t *pl_n, *pl_ok;
    double *dsr, *sr, *skew, *kurt;
    int64_t *is_n, *oos_n, *fold_n;
    uint8_t *is_ok, *oos_ok, *fold_ok;
} cols_t;

static void cols_free(cols_t *c)
{
    free(c->is_fit);
    free(c->oos_fit);
    free(c->worst);
    free(c->share);
    free(c->fold_fit);
    free(c->is_n);
    free(c->oos_n);
    free(c->fold_n);
    free(c->is_ok);
    free(c->oos_ok);
    free(c->fold_ok);
    free(c->pl_mean);
    free(c->pl_worst);
    free(c->pl_n);
    free(c->pl_ok);
    free(c->dsr);
    free(c->sr);
    free(c->skew);
    free(c->kurt);
}

static int cols_fill(cols_t *c, const val_rows_t *v, uint64_t trials)
{
    size_t n = v->n + 1, nf = (size_t)v->n * (size_t)v->n_folds + 1;
    memset(c, 0, sizeof *c);
    c->is_fit = (double *)malloc(n * sizeof(double));
    c->oos_fit = (double *)malloc(n * sizeof(double));
    c->worst = (double *)malloc(n * sizeof(double));
    c->share = (double *)malloc(n * sizeof(double));
    c->fold_fit = (double *)malloc(nf * sizeof(double));
    c->is_n = (int64_t *)malloc(n * sizeof(int64_t));
    c->oos_n = (int64_t *)malloc(n * sizeof(int64_t));
    c->fold_n = (int64_t *)malloc(nf * sizeof(int64_t));
    c->is_ok = (uint8_t *)malloc(n);
    c->oos_ok = (uint8_t *)malloc(n);
    c->fold_ok = (uint8_t *)malloc(nf);
    c->pl_mean = (double *)malloc(n * sizeof(double));
    c->pl_worst = (double *)malloc(n * sizeof(double));
    c->pl_n = (int32_t *)malloc(n * sizeof(int32_t));
    c->pl_ok = (int32_t *)malloc(n * sizeof(int32_t));
    c->dsr = (double *)malloc(n * sizeof(double));
    c->sr = (double *)malloc(n * sizeof(double));
    c->skew = (double *)malloc(n * sizeof(double));
    c->kurt = (double *)malloc(n * sizeof(double));
    if (!c->pl_mean || !c->pl_worst || !c->pl_n || !c->pl_ok || !c->dsr || !c->sr || !c->skew || !c->kurt)
        return 0;
    if (!c->is_fit || !c->oos_fit || !c->worst || !c->share || !c->fold_fit || !c->is_n || !c->oos_n || !c->fold_n ||
        !c->is_ok || !c->oos_ok || !c->fold_ok)
        return 0;
    for (uint32_t i = 0; i < v->n; i++) {
        const val_row_t *r = &v->row[i];
        c->is_fit[i] = r->in_sample.value;
        c->is_n[i] = r->in_sample.r.trades;
        c->is_ok[i] = (uint8_t)(r->in_sample.r.feasible != 0);
        c->oos_fit[i] = r->out_of_sample.value;
        c->oos_n[i] = r->out_of_sample.r.trades;
        c->oos_ok[i] = (uint8_t)(r->out_of_sample.r.feasible != 0);
        c->worst[i] = r->worst_fold;
        c->share[i] = r->fold_profitable;
        c->pl_mean[i] = r->plateau.mean;
        c->pl_worst[i] = r->plateau.worst;
        c->pl_n[i] = r->plateau.n;
        c->pl_ok[i] = r->plateau.feasible;
        c->dsr[i] = trials >= 1 ? deflated_sharpe(&r->moments, (double)trials, v->var_sr) : NAN; /* 0: a baseline */
        c->sr[i] = r->moments.sharpe;
        c->skew[i] = r->moments.skew;
        c->kurt[i] = r->moments.kurt;
        for (int32_t f = 0; f < v->n_folds; f++) {
            size_t at = (size_t)i * (size_t)v->n_folds + (size_t)f;
            c->fold_fit[at] = r->fold[f].value;
            c->fold_n[at] = r->fold[f].r.trades;
            c->fold_ok[at] = (uint8_t)(r->fold[f].r.feasible != 0);
        }
    }
    return 1;
}

/* PATH/out_of_sample_trader_stats: each row's trader statistics on the holdout days. */
static ev_status write_holdout_stats(run_file_t *rf, const char *path, const val_rows_t *v, ev_error *err)
{
    char sub[600];
    trade_stats_t *st = (trade_stats_t *)malloc(((size_t)v->n + 1) * sizeof *st);
    ev_status s;
    if (!st)
        return ev_fail(err, EV_ENOMEM, "out of memory writing %s", path);
    for (uint32_t i = 0; i < v->n; i++)
        st[i] = v->row[i].oos_stats;
    snprintf(sub, sizeof sub, "%s/out_of_sample_trader_stats", path);
    s = run_file_write_stats(rf, sub, st, v->n, err);
    free(st);
    return s;
}

ev_status run_file_write_validation(run_file_t *rf, const char *group, const reported_t *r, uint64_t trials,
                                    ev_error *err)
{
    char path[512];
    const val_rows_t *v = r->val;
    const val_split_t *sp = r->split;
    hsize_t n[1], nf[2], nd[1];
    hid_t g;
    cols_t c;
    ev_status st = EV_OK;
    if (!v || !sp)
        return EV_OK;
    snprintf(path, sizeof path, "%s/validation", group);
    if (h5u_exists(rf->file, path, 0) > 0 && H5Ldelete(rf->file, path, H5P_DEFAULT) < 0)
        return h5u_fail(err, EV_EHDF5, rf->path, rf->file, path, "replace");
    if ((g = run_object_open(rf, path, 1, err)) < 0)
        return EV_EHDF5;
    if (!cols_fill(&c, v, trials)) {
        cols_free(&c);
        h5u_close(g);
        return ev_fail(err, EV_ENOMEM, "out of memory writing %s", path);
    }
    n[0] = v->n;
    nf[0] = v->n;
    nf[1] = (hsize_t)v->n_folds;
    nd[0] = (hsize_t)sp->n_days;
#define W(name, mt, ft, rank, dims, data) \
    if (st == EV_OK)                      \
    st = h5u_write_array(rf->path, g, name, mt, ft, rank, dims, data, err)
    W("days", H5T_NATIVE_INT64, H5T_STD_I64LE, 1, nd, sp->day);
    W("day_part", H5T_NATIVE_INT32, H5T_STD_I32LE, 1, nd, sp->part);
    W("in_sample_fitness", H5T_NATIVE_DOUBLE, H5T_IEEE_F64LE, 1, n, c.is_fit);
    W("in_sample_trades", H5T_NATIVE_INT64, H5T_STD_I64LE, 1, n, c.is_n);
    W("in_sample_feasible", H5T_NATIVE_UINT8, H5T_STD_U8LE, 1, n, c.is_ok);
    W("out_of_sample_fitness", H5T_NATIVE_DOUBLE, H5T_IEEE_F64LE, 1, n, c.oos_fit);
    W("out_of_sample_trades", H5T_NATIVE_INT64, H5T_STD_I64LE, 1, n, c.oos_n);
    W("out_of_sample_feasible", H5T_NATIVE_UINT8, H5T_STD_U8LE, 1, n, c.oos_ok);
    W("plateau_mean", H5T_NATIVE_DOUBLE, H5T_IEEE_F64LE, 1, n, c.pl_mean);
    W("plateau_worst", H5T_NATIVE_DOUBLE, H5T_IEEE_F64LE, 1, n, c.pl_worst);
    W("plateau_neighbours", H5T_NATIVE_INT32, H5T_STD_I32LE, 1, n, c.pl_n);
    W("plateau_feasible", H5T_NATIVE_INT32, H5T_STD_I32LE, 1, n, c.pl_ok);
    W("deflated_sharpe", H5T_NATIVE_DOUBLE, H5T_IEEE_F64LE, 1, n, c.dsr);
    W("trade_sharpe", H5T_NATIVE_DOUBLE, H5T_IEEE_F64LE, 1, n, c.sr);
    W("trade_skewness", H5T_NATIVE_DOUBLE, H5T_IEEE_F64LE, 1, n, c.skew);
    W("trade_kurtosis", H5T_NATIVE_DOUBLE, H5T_IEEE_F64LE, 1, n, c.kurt);
    if (st == EV_OK)
        st = run_file_attr_u64(rf, path, "trials", trials, err);
    if (st == EV_OK)
        st = run_file_attr_f64(rf, path, "sharpe_variance", v->var_sr, err);
    if (st == EV_OK)
        st = run_file_attr_f64(rf, path, "pbo", v->pbo, err);
    if (st == EV_OK && v->pbo == v->pbo &&
        (st = run_file_attr_u64(rf, path, "pbo_combinations", v->pbo_combos, err)) == EV_OK &&
        (st = run_file_attr_u64(rf, path, "pbo_genomes", v->pbo_genomes, err)) == EV_OK)
        st = run_file_attr_u64(rf, path, "pbo_blocks", v->pbo_blocks, err);
    if (sp->has_folds) {
        W("fold_fitness", H5T_NATIVE_DOUBLE, H5T_IEEE_F64LE, 2, nf, c.fold_fit);
        W("fold_trades", H5T_NATIVE_INT64, H5T_STD_I64LE, 2, nf, c.fold_n);
        W("fold_feasible", H5T_NATIVE_UINT8, H5T_STD_U8LE, 2, nf, c.fold_ok);
        W("worst_fold", H5T_NATIVE_DOUBLE, H5T_IEEE_F64LE, 1, n, c.worst);
        W("fold_profitable_share", H5T_NATIVE_DOUBLE, H5T_IEEE_F64LE, 1, n, c.share);
    }
#undef W
    cols_free(&c);
    h5u_close(g);
    if (st == EV_OK && sp->n_holdout > 0)
        st = write_holdout_stats(rf, path, v, err);
    return st;
}

ev_status run_file_read_day_parts(run_file_t *rf, const char *group, int64_t **days, int32_t **part, int32_t *n,
                                  ev_error *err)
{
    char path[512];
    hsize_t nd[1] = {0}, np[1] = {0};
    hid_t g;
    ev_status st;
    *days = NULL;
    *part = NULL;
    *n = 0;
    snprintf(path, sizeof path, "%s/validation", group);
    if (!run_file_has(rf, path))
        return EV_OK;
    if ((g = run_object_open(rf, path, 0, err)) < 0)
        return EV_EHDF5;
    st = h5u_read_array(rf->path, g, "days", H5T_NATIVE_INT64, 1, nd, (void **)days, err);
    if (st == EV_OK)
        st = h5u_read_array(rf->path, g, "day_part", H5T_NATIVE_INT32, 1, np, (void **)part, err);
    h5u_close(g);
    if (st == EV_OK && (nd[0] != np[0] || nd[0] > INT32_MAX))
        st = ev_fail(err, EV_EDATA, "%s: /%s: %llu days but %llu day parts (a damaged or edited run file)", rf->path,
                     path, (unsigned long long)nd[0], (unsigned long long)np[0]);
    for (hsize_t i = 1; st == EV_OK && i < nd[0]; i++)
        if ((*days)[i] <= (*days)[i - 1])
            st = ev_fail(err, EV_EDATA, "%s: /%s/days is not ascending at row %llu (a damaged or edited run file)",
                         rf->path, path, (unsigned long long)i);
    if (st != EV_OK) {
        free(*days);
        free(*part);
        *days = NULL;
        *part = NULL;
        return st;
    }
    *n = (int32_t)nd[0];
    return EV_OK;
}
