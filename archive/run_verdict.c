#include "archive/run_verdict.h"

#include <stdio.h>
#include <stdlib.h>

#include "archive/run_internal.h"
#include "io/h5_util.h"

typedef struct {
    char **part;
    const char *base[BASELINE_KINDS];
    double *best, *base_value, *diff;
    int64_t *best_n, *base_n;
    uint8_t *best_ok, *base_ok;
} cols_t;

static void cols_free(cols_t *c, uint32_t n_parts)
{
    for (uint32_t p = 0; c->part && p < n_parts; p++)
        free(c->part[p]);
    free(c->part);
    free(c->best);
    free(c->base_value);
    free(c->diff);
    free(c->best_n);
    free(c->base_n);
    free(c->best_ok);
    free(c->base_ok);
}

static int cols_fill(cols_t *c, const verdict_t *v)
{
    const size_t np = v->n_parts, m = (size_t)v->n_base * np;
    c->part = (char **)calloc(np + 1, sizeof *c->part);
    c->best = (double *)malloc((np + 1) * sizeof *c->best);
    c->best_n = (int64_t *)malloc((np + 1) * sizeof *c->best_n);
    c->best_ok = (uint8_t *)malloc(np + 1);
    c->base_value = (double *)malloc((m + 1) * sizeof *c->base_value);
    c->diff = (double *)malloc((m + 1) * sizeof *c->diff);
    c->base_n = (int64_t *)malloc((m + 1) * sizeof *c->base_n);
    c->base_ok = (uint8_t *)malloc(m + 1);
    if (!c->part || !c->best || !c->best_n || !c->best_ok || !c->base_value || !c->diff || !c->base_n || !c->base_ok)
        return 0;
    for (size_t p = 0; p < np; p++) {
        char name[64];
        verdict_part_name(name, sizeof name, &v->part[p]);
        if (!(c->part[p] = (char *)malloc(sizeof name)))
            return 0;
        snprintf(c->part[p], sizeof name, "%s", name);
        c->best[p] = v->best[p].value;
        c->best_n[p] = v->best[p].trades;
        c->best_ok[p] = (uint8_t)v->best[p].feasible;
    }
    for (uint32_t j = 0; j < v->n_base; j++) {
        c->base[j] = baseline_name(v->kind[j]);
        for (size_t p = 0; p < np; p++) {
            const verdict_side_t *b = &v->base[j * np + p];
            c->base_value[j * np + p] = b->value;
            c->diff[j * np + p] = verdict_diff(v, j, (uint32_t)p);
            c->base_n[j * np + p] = b->trades;
            c->base_ok[j * np + p] = (uint8_t)b->feasible;
        }
    }
    return 1;
}

static ev_status write_attrs(run_file_t *rf, const char *path, const verdict_t *v, ev_error *err)
{
    ev_status st = run_file_attr_str(rf, path, "headline", v->headline, err);
    if (st == EV_OK)
        st = run_file_attr_str(rf, path, "dsr_reading", v->dsr_text, err);
    if (st == EV_OK)
        st = run_file_attr_str(rf, path, "pbo_reading", v->pbo_text, err);
    if (st == EV_OK)
        st = run_file_attr_f64(rf, path, "dsr", v->dsr, err);
    if (st == EV_OK)
        st = run_file_attr_f64(rf, path, "dsr_z", v->dsr_z, err);
    if (st == EV_OK)
        st = run_file_attr_f64(rf, path, "pbo", v->pbo, err);
    if (st == EV_OK)
        st = run_file_attr_f64(rf, path, "trials", v->trials, err);
    return st;
}

ev_status run_file_write_verdict(run_file_t *rf, const char *group, const verdict_t *v, ev_error *err)
{
    char path[512];
    cols_t c = {0};
    hsize_t np[1] = {v->n_parts}, m[2] = {v->n_base, v->n_parts};
    hid_t g;
    ev_status st = EV_OK;
    snprintf(path, sizeof path, "%s/verdict", group);
    if (h5u_exists(rf->file, path, 0) > 0 && H5Ldelete(rf->file, path, H5P_DEFAULT) < 0)
        return h5u_fail(err, EV_EHDF5, rf->path, rf->file, path, "replace");
    if ((g = run_object_open(rf, path, 1, err)) < 0)
        return EV_EHDF5;
    if (!cols_fill(&c, v))
        st = ev_fail(err, EV_ENOMEM, "out of memory writing %s", path);
#define W(name, mt, ft, rank, dims, data) \
    if (st == EV_OK)                      \
    st = h5u_write_array(rf->path, g, name, mt, ft, rank, dims, data, err)
    /* an empty verdict (no feasible genome, no baseline) keeps its lines only */
    if (st == EV_OK && v->n_parts) {
        st = h5u_write_strings(rf->path, g, "parts", 0, (const char *const *)c.part, v->n_parts, err);
        W("rank1", H5T_NATIVE_DOUBLE, H5T_IEEE_F64LE, 1, np, c.best);
        W("rank1_trades", H5T_NATIVE_INT64, H5T_STD_I64LE, 1, np, c.best_n);
        W("rank1_feasible", H5T_NATIVE_UINT8, H5T_STD_U8LE, 1, np, c.best_ok);
    }
    if (st == EV_OK && v->n_parts && v->n_base) {
        st = h5u_write_strings(rf->path, g, "baselines", 0, c.base, v->n_base, err);
        W("baseline", H5T_NATIVE_DOUBLE, H5T_IEEE_F64LE, 2, m, c.base_value);
        W("baseline_trades", H5T_NATIVE_INT64, H5T_STD_I64LE, 2, m, c.base_n);
        W("baseline_feasible", H5T_NATIVE_UINT8, H5T_STD_U8LE, 2, m, c.base_ok);
        W("difference", H5T_NATIVE_DOUBLE, H5T_IEEE_F64LE, 2, m, c.diff);
    }
#undef W
    cols_free(&c, v->n_parts);
    h5u_close(g);
    if (st == EV_OK)
        st = write_attrs(rf, path, v, err);
    return st;
}

ev_status run_file_write_list_verdict(run_file_t *rf, const char *group, const reported_t *r, double trials,
                                      ev_error *err)
{
    verdict_t v;
    ev_status st = verdict_of_list(&v, r, trials, err);
    if (st == EV_OK)
        st = run_file_write_verdict(rf, group, &v, err);
    verdict_free(&v);
    return st;
}
