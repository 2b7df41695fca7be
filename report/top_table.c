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
    fprintf(out, "  %16s  %8s\n", objective_name((objective_kind)cfg->objective.kind), "trades");
    for (uint32_t i = 0; i < n; i++) {
        char fit[64];
        fprintf(out, "%4u", i + 1);
        for (int32_t k = 0; k < lat->n_params; k++)
            fprintf(out, "  %*s", width[k], lat->params[k].value_text[e[i].genes[k]]);
        format_fitness(fit, sizeof fit, top->value[i]);
        fprintf(out, "  %16s  %8lld\n", fit, (long long)e[i].r.trades);
    }
}
