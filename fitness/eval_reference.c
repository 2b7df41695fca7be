#include "fitness/eval_reference.h"

#include "fitness/hits.h"
#include "fitness/objective_prep.h"

static int passes(const param_t *prm, double feature, uint16_t gene)
{
    double v = prm->values[gene];
    return prm->dir == FILTER_MIN ? feature >= v : feature <= v;
}

int reference_trade(const fit_problem_t *p, const uint16_t *genes, int64_t j, double *outcome_pct)
{
    const dataset_t *ds = p->ds;
    const lattice_t *lat = p->lat;
    double e = ds->entry_price[j];
    int has_t = lat->target_param >= 0, has_s = lat->stop_param >= 0;
    double t = has_t ? lat->params[lat->target_param].values[genes[lat->target_param]] : 0.0;
    double s = has_s ? lat->params[lat->stop_param].values[genes[lat->stop_param]] : 0.0;
    const float *path = ds->price + ds->start[j];
    walk_result_t w;

    for (int32_t k = 0; k < lat->n_params; k++) {
        const param_t *prm = &lat->params[k];
        if (prm->role == PARAM_FILTER &&
            !passes(prm, ds->features[(int64_t)prm->feature_index * ds->n_trades + j], genes[k]))
            return 0;
    }
    w = outcome_walk(path, ds->end[j] - ds->start[j], has_t, level_price(e, t), has_s, level_price(e, s));
    if (w.kind == 0)
        *outcome_pct = ds->pct_change[j];
    else if (p->obj_cfg.fill == FILL_PRICE)
        *outcome_pct = ((double)path[w.offset] / e - 1.0) * 100.0;
    else
        *outcome_pct = w.kind == 1 ? t : s;
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
