#include "report/baseline_table.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fitness/objective_prep.h"

void baseline_param_text(char *buf, size_t n, const lattice_t *lat, const baseline_point_t *p, int32_t k)
{
    const param_t *q = &lat->params[k];
    const double v = p->value[k];
    if (!p->set[k])
        snprintf(buf, n, "-");
    else if (param_is_named(q) && v >= 0 && v < q->n_values) /* its name, as the winners show it */
        snprintf(buf, n, "%s", q->value_text[(uint32_t)v]);
    else if (v == HUGE_VAL && param_role_can_off(q->role))
        snprintf(buf, n, "off");
    else
        snprintf(buf, n, "%.10g", v);
}

void baseline_table_print(FILE *out, const config_t *cfg, const reported_t *top)
{
    const reported_base_t *b = top->base;
    const lattice_t *lat = &cfg->lattice;
    int width[EV_MAX_PARAMS];
    char buf[64];
    int marked = 0;
    if (!b || b->n == 0)
        return;
    fprintf(out, "baselines%s, and rank 1's difference to each:\n", top->val ? " (in-sample)" : "");
    fprintf(out, "%8s", "baseline");
    for (int32_t k = 0; k < lat->n_params; k++) {
        width[k] = (int)strlen(lat->params[k].name);
        for (uint32_t i = 0; i < b->n; i++) {
            baseline_param_text(buf, sizeof buf, lat, &b->point[i], k);
            if ((int)strlen(buf) > width[k])
                width[k] = (int)strlen(buf);
        }
        fprintf(out, "  %*s", width[k], lat->params[k].name);
    }
    fprintf(out, "  %16s  %8s  %8s  %12s", "fitness", "trades", "win_rate", "max_drawdown");
    if (top->val && top->split && top->split->n_holdout > 0)
        fprintf(out, "  %16s  %8s", "holdout", "trades");
    if (top->n)
        fprintf(out, "  |  %14s  %8s  %10s  %12s", "rank1-fitness", "trades", "win_rate", "max_drawdown");
    fputc('\n', out);
    for (uint32_t i = 0; i < b->n; i++) {
        const reported_t *r = &b->rep[i];
        marked |= !r->e[0].r.feasible ||
                  (r->val && top->split && top->split->n_holdout > 0 && !r->val->row[0].out_of_sample.r.feasible);
        fprintf(out, "%8s", baseline_name(b->kind[i]));
        for (int32_t k = 0; k < lat->n_params; k++) {
            baseline_param_text(buf, sizeof buf, lat, &b->point[i], k);
            fprintf(out, "  %*s", width[k], buf);
        }
        snprintf(buf, sizeof buf, "%.6f%s", r->value[0], r->e[0].r.feasible ? "" : "*");
        fprintf(out, "  %16s  %8lld  %8.4f  %12.6f", buf, (long long)r->e[0].r.trades, r->stats[0].win_rate,
                r->stats[0].max_drawdown);
        if (r->val && top->split && top->split->n_holdout > 0) {
            const val_cell_t *o = &r->val->row[0].out_of_sample;
            snprintf(buf, sizeof buf, "%.6f%s", o->value, o->r.feasible ? "" : "*");
            fprintf(out, "  %16s  %8lld", buf, (long long)o->r.trades);
        }
        if (top->n) {
            double df, dt, dw, dd;
            reported_base_diff(top, i, &df, &dt, &dw, &dd);
            fprintf(out, "  |  %+14.6f  %+8.0f  %+10.4f  %+12.6f", df, dt, dw, dd);
        }
        fputc('\n', out);
    }
    if (marked) {
        char rules[160];
        objective_infeasible_rules(rules, sizeof rules, &cfg->objective);
        fprintf(out, "* infeasible (%s)\n", rules);
    }
}

void baseline_window_table_print(FILE *out, const char *const *names, size_t n_base, size_t n_windows,
                                 const double *value, const eval_result_t *r)
{
    int infeasible = 0;
    if (!n_base)
        return;
    fprintf(out, "baselines on each test window:\nwindow");
    for (size_t j = 0; j < n_base; j++)
        fprintf(out, "  %13s  trades", names[j]);
    fputc('\n', out);
    for (size_t w = 0; w < n_windows; w++) {
        fprintf(out, "%6zu", w + 1);
        for (size_t j = 0; j < n_base; j++) {
            const size_t at = w * n_base + j;
            fprintf(out, "  %12.6f%s  %6lld", value[at], r[at].feasible ? " " : "*", (long long)r[at].trades);
            infeasible |= !r[at].feasible;
        }
        fputc('\n', out);
    }
    if (infeasible)
        fprintf(out,
                "* infeasible on that test window (fewer kept trades than min_trades, beyond "
                "max_drawdown_pct, or, for sharpe, zero variance)\n");
}
