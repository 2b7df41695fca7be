#include "fitness/plateau.h"

#include <math.h>
#include <string.h>

#include "fitness/objective_prep.h"

int32_t plateau_neighbours(const lattice_t *lat, const uint16_t *genes, uint16_t (*nb)[EV_MAX_PARAMS])
{
    int32_t n = 0;
    for (int32_t k = 0; k < lat->n_params; k++)
        for (int d = -1; d <= 1; d += 2) {
            int32_t v = (int32_t)genes[k] + d;
            if (v < 0 || v >= (int32_t)lat->params[k].n_values)
                continue;
            memcpy(nb[n], genes, sizeof nb[n]);
            nb[n++][k] = (uint16_t)v;
        }
    return n;
}

void plateau_of(const fit_problem_t *p, const eval_result_t *r, int32_t n, plateau_t *out)
{
    double sum = 0.0;
    memset(out, 0, sizeof *out);
    out->worst = HUGE_VAL;
    for (int32_t i = 0; i < n; i++) {
        double x = r[i].feasible ? objective_display(&p->obj_cfg, r[i].fitness) : -HUGE_VAL;
        out->n++;
        if (r[i].feasible) {
            out->feasible++;
            sum += x; /* in parameter order: the same bits every run */
        }
        if (x < out->worst)
            out->worst = x;
    }
    out->mean = out->feasible ? sum / (double)out->feasible : -HUGE_VAL;
    if (out->n == 0)
        out->worst = -HUGE_VAL;
}

void plateau_score(const fit_problem_t *p, const fit_tables_t *t, const uint16_t *genes, plateau_t *out)
{
    uint16_t nb[PLATEAU_MAX][EV_MAX_PARAMS];
    eval_result_t r[PLATEAU_MAX];
    int32_t n = plateau_neighbours(p->lat, genes, nb);
    for (int32_t i = 0; i < n; i++)
        r[i] = tables_eval(t, nb[i]);
    plateau_of(p, r, n, out);
}
