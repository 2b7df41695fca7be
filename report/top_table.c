#include "report/top_table.h"

#include "report/baseline_table.h"
#include "fitness/verdict.h"

#include <math.h>
#include <string.h>

#include "fitness/objective_prep.h"

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
static void print_validation_head(FILE *out, const reported_t *top, int worst)
{
    if (top->split->n_holdout > 0) /* a folds-only run has no holdout to show */
        fprintf(out, "  %16s  %8s", "holdout", "trades");
    fprintf(out, "  %14s  %7s", "plateau", "DSR");
    if (top->split->has_folds && worst)
        fprintf(out, "  %16s", "worst_fold");
    if (top->split->has_folds)
        fprintf(out, "  %7s", "folds+");
}

/* A part's value, always shown: an infeasible part's (too few trades, too
 * deep a drawdown) is marked '*' (the footnote under the table). 1: marked. */
static int format_part(char *buf, size_t n, double v, int feasible)
{
    size_t l;
    format_fitness(buf, n - 1, v);
    if (feasible)
        return 0;
    l = strlen(buf);
    buf[l] = '*';
    buf[l + 1] = '\0';
    return 1;
}

/* The lowest fold value, feasible or not, marked when a fold is infeasible
 * (the run file's worst_fold counts such a fold as -inf). */
static int format_worst_fold(char *buf, size_t n, const val_row_t *r, int32_t n_folds)
{
    double worst = HUGE_VAL;
    int feasible = 1;
    for (int32_t f = 0; f < n_folds; f++) {
        if (r->fold[f].value < worst)
            worst = r->fold[f].value;
        feasible &= r->fold[f].r.feasible != 0;
    }
    return format_part(buf, n, worst, feasible);
}

/* 1 when a value was marked infeasible. */
static int print_validation_row(FILE *out, const reported_t *top, uint32_t i, int worst)
{
    const val_row_t *r = &top->val->row[i];
    char fit[64];
    int marked = 0;
    if (top->split->n_holdout > 0) {
        marked = format_part(fit, sizeof fit, r->out_of_sample.value, r->out_of_sample.r.feasible);
        fprintf(out, "  %16s  %8lld", fit, (long long)r->out_of_sample.r.trades);
    }
    format_fitness(fit, sizeof fit, r->plateau.mean);
    fprintf(out, "  %14s", fit);
    {
        double d = top->val->trials >= 1.0 ? deflated_sharpe(&r->moments, top->val->trials, top->val->var_sr) : NAN;
        verdict_dsr_cell(fit, sizeof fit, d);
        fprintf(out, "  %7s", fit);
    }
    if (top->split->has_folds && worst) {
        marked |= format_worst_fold(fit, sizeof fit, r, top->val->n_folds);
        fprintf(out, "  %16s", fit);
    }
    if (top->split->has_folds)
        fprintf(out, "  %6.0f%%", r->fold_profitable * 100.0);
    return marked;
}

/* Under the table: what '*' means, and the PBO. */
static void print_validation_notes(FILE *out, const config_t *cfg, const reported_t *top, int marked)
{
    const val_rows_t *v = top->val;
    char rules[160];
    objective_infeasible_rules(rules, sizeof rules, &cfg->objective);
    if (marked)
        fprintf(out,
                "* infeasible on that part (%s): its value is shown, but it would not count as a feasible result\n",
                rules);
    if (v->pbo == v->pbo)
        fprintf(out,
                "PBO (probability of backtest overfitting, CSCV): %.4f over %llu combinations of %u genomes in %u "
                "day blocks\n",
                v->pbo, (unsigned long long)v->pbo_combos, v->pbo_genomes, v->pbo_blocks);
}

/* "1-4,7": the ranks of strategy cls in the list, runs joined. */
static void format_ranks(char *buf, size_t n, const reported_t *top, uint32_t cls)
{
    size_t at = 0;
    buf[0] = '\0';
    for (uint32_t i = 0; i < top->n && at + 24 < n; i++) {
        uint32_t j = i;
        if (top->strat[i].cls != cls)
            continue;
        while (j + 1 < top->n && top->strat[j + 1].cls == cls)
            j++;
        at += (size_t)snprintf(buf + at, n - at, j > i ? "%s%u-%u" : "%s%u", at ? "," : "", i + 1, j + 1);
        i = j;
    }
}

static void format_range(char *buf, size_t n, const param_t *p, uint16_t lo, uint16_t hi)
{
    if (lo == hi)
        snprintf(buf, n, "%.70s", p->value_text[lo]);
    else
        snprintf(buf, n, "%.70s..%.70s", p->value_text[lo], p->value_text[hi]);
}

/* The strategies below the list (reported_more), numbered on from n_strat:
 * the rank of each one's best genome in the whole ranking. */
static void print_more(FILE *out, const lattice_t *lat, const reported_t *top, const int *w)
{
    const reported_t *more = top->more;
    char ranks[32], range[160], fit[64];
    if (!more || !more->n)
        return;
    fprintf(out, "the next %u strategies, below the top %u (rank: among every genome evaluated):\n", more->n, top->n);
    for (uint32_t i = 0; i < more->n; i++) {
        snprintf(fit, sizeof fit, "#%u", top->n_strat + i + 1);
        snprintf(ranks, sizeof ranks, "%u", top->more_rank[i]);
        fprintf(out, "%8s  %-10s", fit, ranks);
        for (int32_t k = 0; k < lat->n_params; k++) {
            format_range(range, sizeof range, &lat->params[k], more->strat[i].lo[k], more->strat[i].hi[k]);
            fprintf(out, "  %*s", w[k], range);
        }
        format_fitness(fit, sizeof fit, more->value[i]);
        fprintf(out, "  %16s  %8lld\n", fit, (long long)more->e[i].r.trades);
    }
}

/* The list once per strategy (fitness/strategy_class.h), numbered in the
 * order of their first genomes: its ranks in the list, each gene's equal range `low..high`, the
 * value and trades. */
static void print_strategies(FILE *out, const config_t *cfg, const reported_t *top)
{
    const lattice_t *lat = &cfg->lattice;
    int w[EV_MAX_PARAMS];
    char ranks[128], range[160], fit[64];
    fprintf(out,
            "strategies: %u in the top %u (genomes keeping the same trades with the same exits are one; each value "
            "range keeps them, the other genes as shown):\n",
            top->n_strat, top->n);
    fprintf(out, "%8s  %-10s", "strategy", "ranks");
    for (int32_t k = 0; k < lat->n_params; k++) {
        w[k] = (int)strlen(lat->params[k].name);
        for (uint32_t i = 0; i < top->n; i++) {
            int l;
            format_range(range, sizeof range, &lat->params[k], top->strat[i].lo[k], top->strat[i].hi[k]);
            l = (int)strlen(range);
            w[k] = top->strat[i].first && l > w[k] ? l : w[k];
        }
        for (uint32_t i = 0; top->more && i < top->more->n; i++) {
            int l;
            format_range(range, sizeof range, &lat->params[k], top->more->strat[i].lo[k], top->more->strat[i].hi[k]);
            l = (int)strlen(range);
            w[k] = l > w[k] ? l : w[k];
        }
        fprintf(out, "  %*s", w[k], lat->params[k].name);
    }
    fprintf(out, "  %16s  %8s\n", "value", "trades");
    for (uint32_t i = 0; i < top->n; i++) {
        const strat_entry_t *st = &top->strat[i];
        if (!st->first)
            continue;
        format_ranks(ranks, sizeof ranks, top, st->cls);
        snprintf(fit, sizeof fit, "#%u", st->cls + 1); /* not a rank: rows of ranks start with a digit */
        fprintf(out, "%8s  %-10s", fit, ranks);
        for (int32_t k = 0; k < lat->n_params; k++) {
            format_range(range, sizeof range, &lat->params[k], st->lo[k], st->hi[k]);
            fprintf(out, "  %*s", w[k], range);
        }
        format_fitness(fit, sizeof fit, top->value[i]);
        fprintf(out, "  %16s  %8lld\n", fit, (long long)top->e[i].r.trades);
    }
    print_more(out, lat, top, w);
}

/* The rank of entry i of the list followed by more: in the list, or in the
 * whole ranking (more_rank). */
static uint32_t entry_rank(const reported_t *top, uint32_t i)
{
    return i < top->n ? i + 1 : top->more_rank[i - top->n];
}

/* report.diverse (docs/ga.md "Basins"): the best genome of each basin the
 * list and the strategies below it reach, best first, with its peak. */
static void print_basins(FILE *out, const lattice_t *lat, const reported_t *top)
{
    const reported_t *pk = top->peaks;
    uint32_t n_all = top->n + (top->more ? top->more->n : 0), b = 0;
    char num[32], fit[64];
    fprintf(
        out,
        "basins: %u among the genomes above (a genome's basin is the peak its steepest improving 1-gene moves reach; "
        "docs/ga.md \"Basins\"); each basin's best genome:\n",
        pk->n);
    fprintf(out, "%8s  %6s", "basin", "rank");
    for (int32_t k = 0; k < lat->n_params; k++)
        fprintf(out, "  %*s", column_width(&lat->params[k]), lat->params[k].name);
    fprintf(out, "  %16s  %8s  %16s\n", "value", "trades", "peak value");
    for (uint32_t i = 0; i < n_all && b < pk->n; i++) {
        const reported_t *r = i < top->n ? top : top->more;
        uint32_t j = i < top->n ? i : i - top->n;
        if (r->basin[j] != b)
            continue; /* basins are numbered as their best genomes appear */
        snprintf(num, sizeof num, "#%u", b + 1);
        fprintf(out, "%8s  %6u", num, entry_rank(top, i));
        for (int32_t k = 0; k < lat->n_params; k++)
            fprintf(out, "  %*s", column_width(&lat->params[k]), lat->params[k].value_text[r->e[j].genes[k]]);
        format_fitness(fit, sizeof fit, r->value[j]);
        fprintf(out, "  %16s  %8lld", fit, (long long)r->e[j].r.trades);
        format_fitness(fit, sizeof fit, pk->value[b]);
        fprintf(out, "  %16s\n", fit);
        b++;
    }
}

void top_table_print(FILE *out, const config_t *cfg, const reported_t *top)
{
    const ranked_genome_t *e = top->e;
    uint32_t n = top->n;
    const lattice_t *lat = &cfg->lattice;
    int width[EV_MAX_PARAMS];
    int marked = 0;
    /* ranked by the worst fold, the fitness column is that number: one column, one name */
    const int worst = cfg->objective.aggregate != AGG_WORST_FOLD;
    if (n == 0) {
        fprintf(out, "No feasible genome: every evaluated genome breaks min_trades or max_drawdown_pct.\n");
        baseline_table_print(out, cfg, top);
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
        print_validation_head(out, top, worst);
    fputc('\n', out);
    for (uint32_t i = 0; i < n; i++) {
        char fit[64];
        fprintf(out, "%4u", i + 1);
        for (int32_t k = 0; k < lat->n_params; k++)
            fprintf(out, "  %*s", width[k], lat->params[k].value_text[e[i].genes[k]]);
        format_fitness(fit, sizeof fit, top->value[i]);
        fprintf(out, "  %16s  %8lld", fit, (long long)e[i].r.trades);
        if (top->val)
            marked |= print_validation_row(out, top, i, worst);
        fputc('\n', out);
    }
    if (top->val)
        print_validation_notes(out, cfg, top, marked);
    if (top->strat)
        print_strategies(out, cfg, top);
    if (top->peaks && top->basin)
        print_basins(out, lat, top);
    baseline_table_print(out, cfg, top);
}
