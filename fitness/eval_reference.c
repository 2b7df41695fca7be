#include "fitness/eval_reference.h"

#include <math.h>

#include "fitness/hits.h"
#include "fitness/objective_prep.h"

static int passes(const param_t *prm, double feature, uint16_t gene)
{
    double v = prm->values[gene];
    return prm->dir == FILTER_MIN ? feature >= v : feature <= v;
}

/* One genome's exits, each present or not, with its value (SPEC sec. 4, 4.1). */
typedef struct {
    int has_t, has_s, has_tr, has_be, has_h;
    double t, s, tr, be;
    int64_t h;
} exits_t;

static void exits_of(const lattice_t *lat, const uint16_t *genes, exits_t *x)
{
    const int32_t slot[5] = {lat->target_param, lat->stop_param, lat->trail_param, lat->breakeven_param,
                             lat->hold_param};
    int *has[5] = {&x->has_t, &x->has_s, &x->has_tr, &x->has_be, &x->has_h};
    double v[5] = {0.0, 0.0, 0.0, 0.0, 0.0};
    for (int r = 0; r < 5; r++) {
        *has[r] = slot[r] >= 0;
        if (slot[r] >= 0)
            v[r] = lat->params[slot[r]].values[genes[slot[r]]];
        if (*has[r] && v[r] == HUGE_VAL) { /* off: as if the role were absent (SPEC sec. 4.1) */
            *has[r] = 0;
            v[r] = 0.0;
        }
    }
    x->t = v[0];
    x->s = v[1];
    x->tr = v[2];
    x->be = v[3];
    x->h = (int64_t)v[4];
}

/* The time stop's second (SPEC sec. 4.1): the last path second at or before
 * entry + h (the first if none is), or -1 when that is the path's last. */
static int64_t hold_second(const dataset_t *ds, int64_t j, int64_t h)
{
    const int64_t *ts = ds->ts + ds->start[j], len = ds->end[j] - ds->start[j];
    int64_t k = 0;
    while (k + 1 < len && ts[k + 1] <= ds->entry_ts[j] + h)
        k++;
    return k + 1 < len ? k : -1;
}

/* SPEC sec. 4.1's race, second by second, within a second in the order
 * target, stop, breakeven, trail, time stop: the exit's outcome in *o, or 0
 * when none happens (the logged result stands). */
static int race(const fit_problem_t *p, const exits_t *x, int64_t j, double *o)
{
    const dataset_t *ds = p->ds;
    const double e = ds->entry_price[j];
    const float *path = ds->price + ds->start[j];
    const int64_t len = ds->end[j] - ds->start[j], k = x->has_h ? hold_second(ds, j, x->h) : -1;
    const int fill_price = p->obj_cfg.fill == FILL_PRICE;
    const float tl = level_price(e, x->t), sl = level_price(e, x->s), bl = level_price(e, x->be), ef = (float)e;
    double m = e;
    int armed = 0;
    for (int64_t i = 0; i < len; i++) {
        const double at = ((double)path[i] / e - 1.0) * 100.0;
        if (x->has_t && path[i] >= tl) {
            *o = fill_price ? at : x->t;
            return 1;
        }
        if (x->has_s && path[i] <= sl) {
            *o = fill_price ? at : x->s;
            return 1;
        }
        if (armed && path[i] <= ef) {
            *o = fill_price ? at : 0.0;
            return 1;
        }
        if (x->has_tr) {
            float level;
            if ((double)path[i] > m)
                m = (double)path[i];
            level = trail_level(m, x->tr);
            if (path[i] <= level) {
                *o = fill_price ? at : ((double)level / e - 1.0) * 100.0;
                return 1;
            }
        }
        if (i == k) {
            *o = at;
            return 1;
        }
        if (x->has_be && path[i] >= bl)
            armed = 1; /* the stop is at the entry from the next second on */
    }
    return 0;
}

int reference_trade(const fit_problem_t *p, const uint16_t *genes, int64_t j, double *outcome_pct)
{
    const dataset_t *ds = p->ds;
    const lattice_t *lat = p->lat;
    exits_t x;
    for (int32_t k = 0; k < lat->n_params; k++) {
        const param_t *prm = &lat->params[k];
        if (prm->role == PARAM_FILTER &&
            !passes(prm, ds->features[(int64_t)prm->feature_index * ds->n_trades + j], genes[k]))
            return 0;
    }
    exits_of(lat, genes, &x);
    if (!race(p, &x, j, outcome_pct))
        *outcome_pct = ds->pct_change[j];
    return 1;
}

eval_result_t reference_eval(const fit_problem_t *p, const uint16_t *genes)
{
    accum_t a;
    accum_init(&a);
    for (int64_t jj = 0; jj < p->ds->n_trades; jj++) {
        double o;
        int64_t q;
        if (!reference_trade(p, genes, p->order[jj], &o))
            continue;
        q = outcome_quantise(o, p->obj_cfg.cost_pct);
        accum_add(&a, &p->obj, q, p->obj.need_log ? outcome_log_factor(q) : 0);
    }
    return accum_finish(&a, &p->obj);
}
