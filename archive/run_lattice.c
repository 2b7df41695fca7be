/* /lattice (the parameters, their values and value texts) and /objective,
 * written from the config and read back by the report, which has no config. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "archive/run_internal.h"
#include "fitness/fold_accum.h"
#include "io/h5_util.h"

static const char *const *const role_names = param_role_names;
static const char *const dir_names[] = {"min", "max"};      /* filter_dir order */
static const char *const fill_names[] = {"level", "price"}; /* fill_mode order */

static int name_index(const char *s, const char *const *names, int n)
{
    for (int i = 0; i < n; i++)
        if (s && !strcmp(s, names[i]))
            return i;
    return -1;
}

static ev_status write_objective(run_file_t *rf, const objective_cfg_t *obj, ev_error *err)
{
    ev_status st = run_file_attr_str(rf, "objective", "name", objective_name((objective_kind)obj->kind), err);
    if (st == EV_OK &&
        (st = run_file_attr_u64(rf, "objective", "min_trades", (uint64_t)obj->min_trades, err)) == EV_OK &&
        (st = run_file_attr_f64(rf, "objective", "max_drawdown_pct",
                                obj->has_max_drawdown ? obj->max_drawdown_pct : NAN, err)) == EV_OK &&
        (st = run_file_attr_str(rf, "objective", "fill", fill_names[obj->fill == FILL_PRICE], err)) == EV_OK)
        st = run_file_attr_f64(rf, "objective", "cost_pct", obj->cost_pct, err);
    /* Only when set, so runs without folds keep their bytes. */
    if (st == EV_OK && obj->aggregate != AGG_ALL) {
        static const char *const agg_names[] = {"all", "mean_fold", "median_fold", "worst_fold"};
        st = run_file_attr_str(rf, "objective", "aggregate", agg_names[obj->aggregate], err);
    }
    return st;
}

ev_status run_lattice_write(run_file_t *rf, const lattice_t *lat, const objective_cfg_t *obj, ev_error *err)
{
    size_t np = (size_t)lat->n_params, total = 0, at = 0;
    const char **name = NULL, **role = NULL, **feature = NULL, **dir = NULL, **text = NULL;
    uint32_t *n_values = NULL;
    uint64_t *offset = NULL;
    double *values = NULL;
    hsize_t dim;
    hid_t g = -1;
    ev_status st = EV_OK;
    for (size_t k = 0; k < np; k++)
        total += lat->params[k].n_values;
    name = (const char **)calloc(np, sizeof *name);
    role = (const char **)calloc(np, sizeof *role);
    feature = (const char **)calloc(np, sizeof *feature);
    dir = (const char **)calloc(np, sizeof *dir);
    n_values = (uint32_t *)calloc(np, sizeof *n_values);
    offset = (uint64_t *)calloc(np, sizeof *offset);
    text = (const char **)calloc(total, sizeof *text);
    values = (double *)calloc(total, sizeof *values);
    if (!name || !role || !feature || !dir || !n_values || !offset || !text || !values)
        st = ev_fail(err, EV_ENOMEM, "out of memory writing /lattice");
    for (size_t k = 0; st == EV_OK && k < np; k++) {
        const param_t *p = &lat->params[k];
        name[k] = p->name;
        role[k] = role_names[p->role];
        feature[k] = p->role == PARAM_FILTER ? p->feature : "";
        dir[k] = p->role == PARAM_FILTER ? dir_names[p->dir] : "";
        n_values[k] = p->n_values;
        offset[k] = at;
        for (uint32_t i = 0; i < p->n_values; i++, at++) {
            values[at] = p->values[i];
            text[at] = p->value_text[i];
        }
    }
    if (st == EV_OK && (g = run_object_open(rf, "lattice", 1, err)) < 0)
        st = EV_EHDF5;
    if (st == EV_OK && (st = h5u_write_strings(rf->path, g, "name", 0, name, np, err)) == EV_OK &&
        (st = h5u_write_strings(rf->path, g, "role", 0, role, np, err)) == EV_OK &&
        (st = h5u_write_strings(rf->path, g, "feature", 0, feature, np, err)) == EV_OK &&
        (st = h5u_write_strings(rf->path, g, "direction", 0, dir, np, err)) == EV_OK &&
        (dim = np, st = h5u_write_array(rf->path, g, "n_values", H5T_NATIVE_UINT32, H5T_STD_U32LE, 1, &dim, n_values,
                                        err)) == EV_OK &&
        (st = h5u_write_array(rf->path, g, "value_offset", H5T_NATIVE_UINT64, H5T_STD_U64LE, 1, &dim, offset, err)) ==
            EV_OK &&
        (dim = total, st = h5u_write_array(rf->path, g, "values", H5T_NATIVE_DOUBLE, H5T_IEEE_F64LE, 1, &dim, values,
                                           err)) == EV_OK &&
        (st = h5u_write_strings(rf->path, g, "value_text", 0, text, total, err)) == EV_OK &&
        (st = run_file_attr_u64(rf, "lattice", "size", lat->size_fits ? lat->size : 0, err)) == EV_OK)
        st = run_file_attr_u64(rf, "lattice", "size_fits", (uint64_t)lat->size_fits, err);
    h5u_close(g);
    free(name);
    free(role);
    free(feature);
    free(dir);
    free(n_values);
    free(offset);
    free(text);
    free(values);
    return st == EV_OK ? write_objective(rf, obj, err) : st;
}

static ev_status read_objective(run_file_t *rf, objective_cfg_t *obj, ev_error *err)
{
    char *name = NULL, *fill = NULL;
    uint64_t min_trades = 0;
    double dd = NAN;
    ev_status st;
    memset(obj, 0, sizeof *obj);
    if ((st = run_file_read_str(rf, "objective", "name", 0, &name, err)) == EV_OK &&
        (st = run_file_read_str(rf, "objective", "fill", 0, &fill, err)) == EV_OK &&
        (st = run_file_read_u64(rf, "objective", "min_trades", &min_trades, err)) == EV_OK &&
        (st = run_file_read_f64(rf, "objective", "max_drawdown_pct", &dd, err)) == EV_OK &&
        (st = run_file_read_f64(rf, "objective", "cost_pct", &obj->cost_pct, err)) == EV_OK) {
        obj->kind = objective_from_name(name);
        obj->fill = name_index(fill, fill_names, 2) == 1 ? FILL_PRICE : FILL_LEVEL;
        obj->min_trades = (int64_t)min_trades;
        obj->has_max_drawdown = !isnan(dd);
        obj->max_drawdown_pct = isnan(dd) ? 0.0 : dd;
        if (obj->kind < 0)
            st = ev_fail(err, EV_EDATA, "%s: /objective names an unknown objective '%s'", rf->path, name);
    }
    free(name);
    free(fill);
    return st;
}

/* Moves the strings of a read list into place (the list keeps NULLs). */
static char *take(char **list, size_t i)
{
    char *s = list[i];
    list[i] = NULL;
    return s;
}

ev_status run_file_read_lattice(run_file_t *rf, lattice_t *lat, objective_cfg_t *obj, ev_error *err)
{
    char **name = NULL, **role = NULL, **feature = NULL, **dir = NULL, **text = NULL;
    size_t np = 0, n_role = 0, n_feature = 0, n_dir = 0, n_text = 0, at = 0;
    uint32_t *n_values = NULL;
    double *values = NULL;
    hsize_t dim = 0, dim_v = 0;
    hid_t g = run_object_open(rf, "lattice", 0, err);
    ev_status st = g < 0 ? EV_EDATA : EV_OK;
    memset(lat, 0, sizeof *lat);
    if (st == EV_OK &&
        ((st = h5u_read_strings(rf->path, g, "name", 0, &name, &np, err)) != EV_OK ||
         (st = h5u_read_strings(rf->path, g, "role", 0, &role, &n_role, err)) != EV_OK ||
         (st = h5u_read_strings(rf->path, g, "feature", 0, &feature, &n_feature, err)) != EV_OK ||
         (st = h5u_read_strings(rf->path, g, "direction", 0, &dir, &n_dir, err)) != EV_OK ||
         (st = h5u_read_strings(rf->path, g, "value_text", 0, &text, &n_text, err)) != EV_OK ||
         (st = h5u_read_array(rf->path, g, "n_values", H5T_NATIVE_UINT32, 1, &dim, (void **)&n_values, err)) != EV_OK ||
         (st = h5u_read_array(rf->path, g, "values", H5T_NATIVE_DOUBLE, 1, &dim_v, (void **)&values, err)) != EV_OK))
        ev_error_prefix(err, "reading the lattice: ");
    if (st == EV_OK && (n_role != np || n_feature != np || n_dir != np || dim != np || dim_v != n_text || np == 0 ||
                        np > EV_MAX_PARAMS))
        st = ev_fail(err, EV_EDATA, "%s: /lattice is inconsistent (%zu names, %zu roles, %llu value counts)", rf->path,
                     np, n_role, (unsigned long long)dim);
    if (st == EV_OK && !(lat->params = (param_t *)calloc(np, sizeof *lat->params)))
        st = ev_fail(err, EV_ENOMEM, "out of memory reading /lattice");
    for (size_t k = 0; st == EV_OK && k < np; k++) {
        param_t *p = &lat->params[k];
        lat->n_params = (int32_t)(k + 1);
        p->name = take(name, k);
        p->role = (param_role)(name_index(role[k], role_names, PARAM_ROLES) < 0
                                   ? 0
                                   : name_index(role[k], role_names, PARAM_ROLES));
        p->dir = name_index(dir[k], dir_names, 2) == 1 ? FILTER_MAX : FILTER_MIN;
        p->feature = p->role == PARAM_FILTER ? take(feature, k) : NULL;
        p->feature_index = -1;
        p->n_values = n_values[k];
        if (at + p->n_values > n_text) {
            st = ev_fail(err, EV_EDATA, "%s: /lattice/values has fewer values than n_values adds up to", rf->path);
            break;
        }
        p->values = (double *)malloc((p->n_values ? p->n_values : 1) * sizeof *p->values);
        p->value_text = (char **)calloc(p->n_values ? p->n_values : 1, sizeof *p->value_text);
        if (!p->values || !p->value_text) {
            st = ev_fail(err, EV_ENOMEM, "out of memory reading /lattice");
            break;
        }
        for (uint32_t i = 0; i < p->n_values; i++, at++) {
            p->values[i] = values[at];
            p->value_text[i] = take(text, at);
        }
    }
    if (st == EV_OK && (st = lattice_finish(lat, err)) != EV_OK)
        ev_error_prefix(err, "%s: /lattice: ", rf->path);
    if (st == EV_OK)
        st = read_objective(rf, obj, err);
    if (st != EV_OK)
        lattice_free(lat);
    run_file_free_strings(name, np);
    run_file_free_strings(role, n_role);
    run_file_free_strings(feature, n_feature);
    run_file_free_strings(dir, n_dir);
    run_file_free_strings(text, n_text);
    free(n_values);
    free(values);
    h5u_close(g);
    return st;
}
