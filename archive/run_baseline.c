/* A reported list's baselines in a run file: GROUP/baselines/NAME, each a
 * list of one written and read by the list's own writers and readers. */
#include "archive/run_baseline.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archive/run_internal.h"
#include "archive/run_stats.h"
#include "archive/run_validation.h"
#include "archive/run_validation_read.h"
#include "io/h5_util.h"

static void base_path(char *buf, size_t n, const char *group, int32_t kind, const char *sub)
{
    snprintf(buf, n, "%s/baselines/%s%s", group, baseline_name(kind), sub);
}

/* path/set (uint8) and path/value (NaN where the baseline leaves the parameter out). */
static ev_status write_point(run_file_t *rf, const char *path, const baseline_point_t *p, ev_error *err)
{
    double value[EV_MAX_PARAMS];
    hsize_t n[1] = {rf->n_params};
    hid_t g = run_object_open(rf, path, 1, err);
    ev_status st;
    if (g < 0)
        return EV_EHDF5;
    for (uint32_t k = 0; k < rf->n_params; k++)
        value[k] = p->set[k] ? p->value[k] : NAN;
    st = h5u_write_array(rf->path, g, "set", H5T_NATIVE_UINT8, H5T_STD_U8LE, 1, n, p->set, err);
    if (st == EV_OK)
        st = h5u_write_array(rf->path, g, "value", H5T_NATIVE_DOUBLE, H5T_IEEE_F64LE, 1, n, value, err);
    h5u_close(g);
    return st;
}

ev_status run_file_write_baselines(run_file_t *rf, const char *group, const reported_t *r, ev_error *err)
{
    const reported_base_t *b = r->base;
    char path[512], sub[600];
    ev_status st = EV_OK;
    snprintf(path, sizeof path, "%s/baselines", group);
    if (!b || run_file_has(rf, path))
        return EV_OK;
    for (uint32_t i = 0; i < b->n && st == EV_OK; i++) {
        const reported_t *rep = &b->rep[i];
        base_path(path, sizeof path, group, b->kind[i], "");
        base_path(sub, sizeof sub, group, b->kind[i], "/trader_stats");
        if ((st = run_file_write_ranked(rf, path, &b->e[i], rep->value, 1, 1, err)) == EV_OK &&
            (st = write_point(rf, path, &b->point[i], err)) == EV_OK &&
            (st = run_file_write_stats(rf, sub, rep->stats, 1, err)) == EV_OK)
            st = run_file_write_validation(rf, path, rep, 0, err); /* one trial: no deflated Sharpe ratio */
    }
    return st;
}

static ev_status read_point(run_file_t *rf, const char *path, baseline_point_t *p, ev_error *err)
{
    hsize_t n[2] = {0, 0};
    uint8_t *set = NULL;
    double *value = NULL;
    hid_t g = run_object_open(rf, path, 0, err);
    ev_status st =
        g < 0 ? EV_EHDF5 : h5u_read_array(rf->path, g, "set", H5T_NATIVE_UINT8, 1, &n[0], (void **)&set, err);
    if (st == EV_OK)
        st = h5u_read_array(rf->path, g, "value", H5T_NATIVE_DOUBLE, 1, &n[1], (void **)&value, err);
    if (st == EV_OK && (n[0] != rf->n_params || n[1] != rf->n_params))
        st = ev_fail(err, EV_EDATA,
                     "%s: /%s: a point of %llu values, the lattice has %u parameters (a damaged or "
                     "edited run file)",
                     rf->path, path, (unsigned long long)n[0], rf->n_params);
    memset(p, 0, sizeof *p);
    p->present = 1;
    for (uint32_t k = 0; st == EV_OK && k < rf->n_params; k++) {
        p->set[k] = (uint8_t)(set[k] != 0);
        p->value[k] = p->set[k] ? value[k] : 0.0;
    }
    free(set);
    free(value);
    h5u_close(g);
    return st;
}

/* Row b->n from path: its ranked row, point, statistics and validation. */
static ev_status read_row(run_file_t *rf, const char *group, int32_t kind, reported_base_t *b, const val_split_t *sp,
                          ev_error *err)
{
    char path[512], sub[600];
    reported_t *rep = &b->rep[b->n];
    ranked_genome_t *e = NULL;
    val_split_t own;
    uint32_t n = 0;
    ev_status st;
    base_path(path, sizeof path, group, kind, "");
    base_path(sub, sizeof sub, group, kind, "/trader_stats");
    memset(rep, 0, sizeof *rep);
    memset(&own, 0, sizeof own);
    if ((st = run_file_read_ranked(rf, path, &e, &rep->value, &n, err)) == EV_OK && n != 1)
        st = ev_fail(err, EV_EDATA, "%s: /%s holds %u rows, a baseline one (a damaged or edited run file)", rf->path,
                     path, n);
    if (st == EV_OK) {
        b->e[b->n] = e[0];
        rep->e = &b->e[b->n];
        rep->n = 1;
        b->kind[b->n] = kind;
    }
    free(e);
    if (st == EV_OK && (st = read_point(rf, path, &b->point[b->n], err)) == EV_OK &&
        (st = run_file_read_stats(rf, sub, 1, &rep->stats, err)) == EV_OK &&
        (st = run_file_read_validation(rf, path, 1, &rep->val, &own, err)) == EV_OK)
        rep->split = rep->val ? sp : NULL;
    val_split_free(&own);
    if (st == EV_OK)
        b->n++;
    else
        reported_free(rep);
    return st;
}

ev_status run_file_read_baselines(run_file_t *rf, const char *group, reported_t *r, const val_split_t *sp,
                                  ev_error *err)
{
    char path[512];
    ev_status st = EV_OK;
    r->base = NULL;
    snprintf(path, sizeof path, "%s/baselines", group);
    if (!run_file_has(rf, path))
        return EV_OK;
    if (!(r->base = (reported_base_t *)calloc(1, sizeof *r->base)))
        return ev_fail(err, EV_ENOMEM, "out of memory reading %s", path);
    for (int32_t kind = 0; kind < BASELINE_KINDS && st == EV_OK; kind++) {
        base_path(path, sizeof path, group, kind, "");
        if (run_file_has(rf, path))
            st = read_row(rf, group, kind, r->base, sp, err);
    }
    return st;
}
