#include "archive/run_heat.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "archive/run_internal.h"
#include "fitness/objective_prep.h"
#include "io/h5_util.h"

#define HEAT_GROUP "grid/heatmap"

static int32_t param_index(const lattice_t *lat, const char *name)
{
    for (int32_t k = 0; k < lat->n_params; k++)
        if (!strcmp(lat->params[k].name, name))
            return k;
    return -1;
}

int run_heat_pair(const lattice_t *lat, const char *const *names, int32_t *px, int32_t *py, const char **bad)
{
    int32_t found = 0, pick[2] = {-1, -1};
    if (names && names[0] && names[1]) {
        for (int i = 0; i < 2; i++)
            if ((pick[i] = param_index(lat, names[i])) < 0) {
                *bad = names[i];
                return -1;
            }
        *px = pick[0];
        *py = pick[1];
        return pick[0] != pick[1] ? 1 : -1;
    }
    if (lat->n_params < 2)
        return 0;
    for (int32_t k = 0; k < lat->n_params && found < 2; k++)
        if (lat->params[k].role == PARAM_FILTER)
            pick[found++] = k;
    *px = found == 2 ? pick[0] : 0;
    *py = found == 2 ? pick[1] : 1;
    return 1;
}

double rank_key_fitness(uint64_t key)
{
    uint64_t top = UINT64_C(1) << 63, u;
    double d;
    if (key == 0)
        return NAN;
    u = (key & top) ? key & ~top : ~key;
    memcpy(&d, &u, sizeof d);
    return d;
}

ev_status run_file_write_heat(run_file_t *rf, const grid_heat_t *h, const lattice_t *lat, const objective_cfg_t *obj,
                              uint64_t points, ev_error *err)
{
    hsize_t dims[2] = {h->nx, h->ny};
    uint64_t cells = (uint64_t)h->nx * h->ny;
    double *best = (double *)malloc((size_t)(cells ? cells : 1) * sizeof *best);
    hid_t g = -1;
    ev_status st = EV_OK;
    if (!best)
        return ev_fail(err, EV_ENOMEM, "out of memory writing the heatmap");
    for (uint64_t c = 0; c < cells; c++)
        best[c] = h->key[c] ? objective_display(obj, rank_key_fitness(h->key[c])) : NAN;
    if ((g = run_object_open(rf, HEAT_GROUP, 1, err)) < 0)
        st = EV_EHDF5;
    if (st == EV_OK &&
        (st = h5u_write_array(rf->path, g, "best_key", H5T_NATIVE_UINT64, H5T_STD_U64LE, 2, dims, h->key, err)) ==
            EV_OK &&
        (st = h5u_write_array(rf->path, g, "best", H5T_NATIVE_DOUBLE, H5T_IEEE_F64LE, 2, dims, best, err)) == EV_OK &&
        (st = run_file_attr_str(rf, HEAT_GROUP, "param_x", lat->params[h->px].name, err)) == EV_OK &&
        (st = run_file_attr_str(rf, HEAT_GROUP, "param_y", lat->params[h->py].name, err)) == EV_OK &&
        (st = run_file_attr_u64(rf, HEAT_GROUP, "x", (uint64_t)h->px, err)) == EV_OK &&
        (st = run_file_attr_u64(rf, HEAT_GROUP, "y", (uint64_t)h->py, err)) == EV_OK)
        st = run_file_attr_u64(rf, HEAT_GROUP, "points", points, err);
    h5u_close(g);
    free(best);
    return st;
}

ev_status run_file_read_heat(run_file_t *rf, grid_heat_t *h, ev_error *err)
{
    uint64_t x = 0, y = 0;
    hsize_t dims[2] = {0, 0};
    void *key = NULL;
    hid_t g;
    ev_status st;
    memset(h, 0, sizeof *h);
    if ((g = run_object_open(rf, HEAT_GROUP, 0, err)) < 0)
        return EV_EDATA;
    st = h5u_read_array(rf->path, g, "best_key", H5T_NATIVE_UINT64, 2, dims, &key, err);
    h5u_close(g);
    if (st == EV_OK && (st = run_file_read_u64(rf, HEAT_GROUP, "x", &x, err)) == EV_OK &&
        (st = run_file_read_u64(rf, HEAT_GROUP, "y", &y, err)) == EV_OK && (x >= rf->n_params || y >= rf->n_params))
        st = ev_fail(err, EV_EDATA, "%s: /%s names parameters the lattice does not have", rf->path, HEAT_GROUP);
    if (st != EV_OK) {
        free(key);
        return st;
    }
    h->px = (int32_t)x;
    h->py = (int32_t)y;
    h->nx = (uint32_t)dims[0];
    h->ny = (uint32_t)dims[1];
    h->key = (uint64_t *)key;
    return EV_OK;
}
