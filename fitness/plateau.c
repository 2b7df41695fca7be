#include "fitness/plateau.h"

#include <math.h>
#include <string.h>

#include "fitness/objective_prep.h"

void plateau_score(const fit_problem_t *p, const fit_tables_t *t, const uint16_t *genes, plateau_t *out)
{
    uint16_t g[EV_MAX_PARAMS];
    double sum = 0.0;
    memset(out, 0, sizeof *out);
    out->worst = HUGE_VAL;
    memcpy(g, genes, sizeof g);
    for (int32_t k = 0; k < p->lat->n_params; k++) {
        for (int d = -1; d <= 1; d += 2) {
            int32_t v = (int32_t)genes[k] + d;
            eval_result_t r;
            double x;
            if (v < 0 || v >= (int32_t)p->lat->params[k].n_values)
                continue;
            g[k] = (uint16_t)v;
            r = tables_eval(t, g);
            out->n++;
            x = r.feasible ? objective_display(&p->obj_cfg, r.fitness) : -HUGE_VAL;
            if (r.feasible) {
                out->feasible++;
                sum += x; /* in parameter order: the same bits every run */
            }
            if (x < out->worst)
                out->worst = x;
        }
        g[k] = genes[k];
    }
    out->mean = out->feasible ? sum / (double)out->feasible : -HUGE_VAL;
    if (out->n == 0)
        out->worst = -HUGE_VAL;
}
