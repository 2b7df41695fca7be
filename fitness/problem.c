#include "fitness/problem.h"

#include <stdlib.h>
#include <string.h>

#include "fitness/objective_prep.h"

/* Merge sort of trade indices by entry time; stable, so dataset order (ticker,
 * then file order) breaks ties. qsort is not stable, hence this. */
static void sort_by_entry(int64_t *idx, int64_t *tmp, int64_t n, const int64_t *entry_ts)
{
    int64_t mid, i, j, k;
    if (n < 2)
        return;
    mid = n / 2;
    sort_by_entry(idx, tmp, mid, entry_ts);
    sort_by_entry(idx + mid, tmp, n - mid, entry_ts);
    for (i = 0, j = mid, k = 0; i < mid || j < n;) {
        if (j >= n || (i < mid && entry_ts[idx[i]] <= entry_ts[idx[j]]))
            tmp[k++] = idx[i++];
        else
            tmp[k++] = idx[j++];
    }
    memcpy(idx, tmp, (size_t)n * sizeof *idx);
}

ev_status problem_init(fit_problem_t *p, const dataset_t *ds, const lattice_t *lat, const objective_cfg_t *obj,
                       ev_error *err)
{
    int64_t *tmp;
    memset(p, 0, sizeof *p);
    for (int32_t k = 0; k < lat->n_params; k++)
        if (lat->params[k].role == PARAM_FILTER && lat->params[k].feature_index < 0)
            return ev_fail(err, EV_EINTERNAL, "parameter '%s' is not bound to a dataset feature", lat->params[k].name);
    p->ds = ds;
    p->lat = lat;
    p->obj_cfg = *obj;
    objective_prepare(&p->obj, obj);
    lattice_shape_from(&p->shape, lat);
    p->order = (int64_t *)malloc(((size_t)ds->n_trades + 1) * sizeof *p->order);
    tmp = (int64_t *)malloc(((size_t)ds->n_trades + 1) * sizeof *tmp);
    if (!p->order || !tmp) {
        free(tmp);
        problem_free(p);
        return ev_fail(err, EV_ENOMEM, "out of memory ordering %lld trades", (long long)ds->n_trades);
    }
    for (int64_t j = 0; j < ds->n_trades; j++)
        p->order[j] = j;
    sort_by_entry(p->order, tmp, ds->n_trades, ds->entry_ts);
    free(tmp);
    return EV_OK;
}

void problem_free(fit_problem_t *p)
{
    free(p->order);
    memset(p, 0, sizeof *p);
}
