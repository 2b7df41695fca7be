#include "report/top_table.h"

#include <math.h>
#include <string.h>

static int column_width(const param_t *p)
{
    int w = (int)strlen(p->name);
    for (uint32_t i = 0; i < p->n_values; i++) {
        int l = (int)strlen(p->value_text[i]);
        if (l > w)
            w = l;
    }
    return w;
}

static void format_fitness(char *buf, size_t n, double v)
{
    if (isinf(v))
        snprintf(buf, n, "%s", v > 0 ? "inf" : "-inf");
    else if (fabs(v) >= 1e9)
        snprintf(buf, n, "%.9e", v); /* compound over thousands of trades */
    else
        snprintf(buf, n, "%.6f", v);
}

/* With a validation: block the fitness and trades columns are in-sample;
 * then out-of-sample (holdout) fitness and trades, and with folds the worst
 * fold and the share of profitable folds. */
static void print_validation_head(FILE *out, const reported_t *top)
{
    fprintf(out, "  %16s  %8s  %14s  %6s", "holdout", "trades", "plateau", "DSR");
    if (top->split->has_folds)
        fprintf(out, "  %16s  %7s", "worst_fold", "folds+");
}

static void print_validation_row(FILE *out, const reported_t *top, uint32_t i)
{
    const val_row_t *r = &top->val->row[i];
    char fit[64];
    format_fitness(fit, sizeof fit, r->out_of_sample.value);
    fprintf(out, "  %16s  %8lld", r->out_of_sample.r.feasible ? fit : "infeasible",
            (long long)r->out_of_sample.r.trades);
    format_fitness(fit, sizeof fit, r->plateau.mean);
    fprintf(out, "  %14s", fit);
    {
        double d = top->val->trials >= 1.0 ? deflated_sharpe(&r->moments, top->val->trials, top->val->var_sr) : NAN;
        if (d == d)
            fprintf(out, "  %6.3f", d);
        else
            fprintf(out, "  %6s", "-");
    }
    if (top->split->has_folds) {
        format_fitness(fit, sizeof fit, r->worst_fold);
        fprintf(out, "  %16s  %6.0f%%", fit, r->fold_profitable * 100.0);
    }
}

void top_table_print(FILE *out, const config_t *cfg, const reported_t *top)
{
    const ranked_genome_t *e = top->e;
    uint32_t n = top->n;
    const lattice_t *lat = &cfg->lattice;
    int width[EV_MAX_PARAMS];
    if (n == 0) {
        fprintf(out, "No feasible genome: every evaluated genome breaks min_trades or max_drawdown_pct.\n");
        return;
    }
    fprintf(out, "%4s", "rank");
    for (int32_t k = 0; k < lat->n_params; k++) {
        width[k] = column_width(&lat->params[k]);
        fprintf(out, "  %*s", width[k], lat->params[k].name);
    }
    if (cfg->objective.aggregate != AGG_ALL) { /* the search ranks by a fold statistic */
        static const char *const agg[] = {"all", "mean_fold", "median_fold", "worst_fold"};
        fprintf(out, "  %16s  %8s", agg[cfg->objective.aggregate], "trades");
    } else {
        fprintf(out, "  %16s  %8s", objective_name((objective_kind)cfg->objective.kind), "trades");
    }
    if (top->val)
        print_validation_head(out, top);
    fputc('\n', out);
    for (uint32_t i = 0; i < n; i++) {
        char fit[64];
        fprintf(out, "%4u", i + 1);
        for (int32_t k = 0; k < lat->n_params; k++)
            fprintf(out, "  %*s", width[k], lat->params[k].value_text[e[i].genes[k]]);
        format_fitness(fit, sizeof fit, top->value[i]);
        fprintf(out, "  %16s  %8lld", fit, (long long)e[i].r.trades);
        if (top->val)
            print_validation_row(out, top, i);
        fputc('\n', out);
    }
}
