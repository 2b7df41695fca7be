#include "ga/top_table.h"

#include <math.h>
#include <string.h>

#include "fitness/lattice_shape.h"

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
    else
        snprintf(buf, n, "%.6f", v);
}

void top_table_print(FILE *out, const config_t *cfg, const topk_t *top)
{
    const lattice_t *lat = &cfg->lattice;
    lattice_shape_t shape;
    uint16_t genes[EV_MAX_PARAMS];
    int width[EV_MAX_PARAMS];
    lattice_shape_from(&shape, lat);
    if (top->n == 0) {
        fprintf(out, "No feasible genome: every evaluated genome breaks min_trades or max_drawdown_pct.\n");
        return;
    }
    fprintf(out, "%4s", "rank");
    for (int32_t k = 0; k < lat->n_params; k++) {
        width[k] = column_width(&lat->params[k]);
        fprintf(out, "  %*s", width[k], lat->params[k].name);
    }
    fprintf(out, "  %16s  %8s\n", objective_name((objective_kind)cfg->objective.kind), "trades");
    for (uint32_t i = 0; i < top->n; i++) {
        char fit[64];
        shape_decode(&shape, top->e[i].index, genes);
        fprintf(out, "%4u", i + 1);
        for (int32_t k = 0; k < lat->n_params; k++)
            fprintf(out, "  %*s", width[k], lat->params[k].value_text[genes[k]]);
        format_fitness(fit, sizeof fit, objective_display(&cfg->objective, top->e[i].r.fitness));
        fprintf(out, "  %16s  %8lld\n", fit, (long long)top->e[i].r.trades);
    }
}
