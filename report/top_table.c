#include "report/top_table.h"

#include "report/baseline_table.h"
#include "fitness/verdict.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fitness/objective_prep.h"

/* One printed row: entry j of list l, the reported list or the strategies
 * below it (top->more, which have no validation rows), at rank `rank` of the
 * ranking; strategy: its number from 1, 0 in a table of genomes. */
typedef struct {
    const reported_t *l;
    uint32_t j, rank, strategy;
} row_t;

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
 * fold and the share of profitable folds: their names (head), or "-" for a
 * strategy below the list, which the run did not validate. */
static void print_validation_texts(FILE *out, const reported_t *top, int worst, int head)
{
    const char *const name[] = {"holdout", "trades", "plateau", "DSR", "worst_fold", "folds+"};
    const char *t[6];
    for (int i = 0; i < 6; i++)
        t[i] = head ? name[i] : "-";
    if (top->split->n_holdout > 0) /* a folds-only run has no holdout to show */
        fprintf(out, "  %16s  %8s", t[0], t[1]);
    fprintf(out, "  %14s  %7s", t[2], t[3]);
    if (top->split->has_folds && worst)
        fprintf(out, "  %16s", t[4]);
    if (top->split->has_folds)
        fprintf(out, "  %7s", t[5]);
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

/* Under the table: what '*' and '-' mean, and the PBO. */
static void print_validation_notes(FILE *out, const config_t *cfg, const reported_t *top, int marked)
{
    const val_rows_t *v = top->val;
    const objective_cfg_t part_obj = val_part_objective(&cfg->objective, v); /* '*' marks the holdout and folds */
    char rules[160];
    objective_infeasible_rules(rules, sizeof rules, &part_obj);
    if (top->strat && top->more && top->more->n)
        fprintf(out, "-: not validated (the run validates its top %u genomes; that strategy's best is below them)\n",
                top->n);
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

/* The rows: each strategy once (fitness/strategy_class.h), by its best
 * genome, the list's then those below it; else every genome of the list.
 * rows has room for top->n plus the strategies below. */
static uint32_t rows_of(row_t *rows, const reported_t *top)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < top->n; i++)
        if (!top->strat || top->strat[i].first)
            rows[n++] = (row_t){top, i, i + 1, top->strat ? top->strat[i].cls + 1 : 0};
    for (uint32_t j = 0; top->strat && top->more && j < top->more->n; j++)
        rows[n++] = (row_t){top->more, j, top->more_rank[j], top->n_strat + j + 1};
    return n;
}

/* A strategy's genomes among the candidates grouped; 0: not counted. */
static uint32_t row_genomes(const row_t *r)
{
    return r->l->strat[r->j].genomes;
}

/* The columns a table of strategies adds: genomes where counted, basin
 * where climbed (report.diverse). */
static void strategy_columns(const row_t *rows, uint32_t n, int *genomes, int *basin)
{
    *genomes = 0;
    *basin = rows[0].l->basin != NULL;
    for (uint32_t i = 0; i < n; i++) {
        *genomes |= row_genomes(&rows[i]) != 0;
        *basin &= rows[i].l->basin != NULL;
    }
}

static void print_head(FILE *out, const config_t *cfg, const reported_t *top, const int *width, int genomes, int basin)
{
    const lattice_t *lat = &cfg->lattice;
    if (top->strat)
        fprintf(out, "%8s  %6s", "strategy", "rank");
    else
        fprintf(out, "%4s", "rank");
    for (int32_t k = 0; k < lat->n_params; k++)
        fprintf(out, "  %*s", width[k], lat->params[k].name);
    if (cfg->objective.aggregate != AGG_ALL) { /* the search ranks by a fold statistic */
        static const char *const agg[] = {"all", "mean_fold", "median_fold", "worst_fold"};
        fprintf(out, "  %16s  %8s", agg[cfg->objective.aggregate], "trades");
    } else {
        fprintf(out, "  %16s  %8s", objective_name((objective_kind)cfg->objective.kind), "trades");
    }
    /* ranked by the worst fold, the fitness column is that number: one column, one name */
    if (top->val)
        print_validation_texts(out, top, cfg->objective.aggregate != AGG_WORST_FOLD, 1);
    if (genomes)
        fprintf(out, "  %8s", "genomes");
    if (basin)
        fprintf(out, "  %5s", "basin");
    fputc('\n', out);
}

/* One row; 1 when a value was marked infeasible. */
static int print_row(FILE *out, const config_t *cfg, const reported_t *top, const row_t *r, const int *width,
                     int genomes, int basin)
{
    const lattice_t *lat = &cfg->lattice;
    const ranked_genome_t *e = &r->l->e[r->j];
    const int worst = cfg->objective.aggregate != AGG_WORST_FOLD;
    char fit[64];
    int marked = 0;
    if (r->strategy) {
        snprintf(fit, sizeof fit, "#%u", r->strategy); /* not a rank: a row of ranks starts with a digit */
        fprintf(out, "%8s  %6u", fit, r->rank);
    } else {
        fprintf(out, "%4u", r->rank);
    }
    for (int32_t k = 0; k < lat->n_params; k++)
        fprintf(out, "  %*s", width[k], lat->params[k].value_text[e->genes[k]]);
    format_fitness(fit, sizeof fit, r->l->value[r->j]);
    fprintf(out, "  %16s  %8lld", fit, (long long)e->r.trades);
    if (top->val && r->l == top)
        marked = print_validation_row(out, top, r->j, worst);
    else if (top->val)
        print_validation_texts(out, top, worst, 0);
    if (genomes)
        fprintf(out, "  %8u", row_genomes(r));
    if (basin) {
        snprintf(fit, sizeof fit, "#%u", r->l->basin[r->j] + 1);
        fprintf(out, "  %5s", fit);
    }
    fputc('\n', out);
    return marked;
}

/* The title of a table of strategies: how many, and what a row is. */
static void print_title(FILE *out, const reported_t *top)
{
    uint32_t below = top->more ? top->more->n : 0;
    fprintf(out, "strategies: %u in the top %u genomes", top->n_strat, top->n);
    if (below)
        fprintf(out, ", then the next %u below them", below);
    fprintf(out,
            " (genomes that keep the same trades with the same exits are one strategy; a row is its best genome, "
            "rank: that genome's among every genome evaluated; the words: docs/report.md \"Glossary\"):\n");
}

/* Where what the table of strategies leaves out is: the genomes one by one
 * (a strategy's others), each strategy's value ranges, the basins' peaks.
 * No path: a run prints the same text wherever its file goes. */
static void print_elsewhere(FILE *out, const reported_t *top, int from_run)
{
    const char *peaks = top->peaks ? " and the basins' peaks" : "";
    if (from_run)
        fprintf(out,
                "the top %u genomes one by one, each strategy's value ranges%s: the run file (evolve report RUN "
                "writes its page) and --json (\"top\", \"strategies\")\n",
                top->n, peaks);
    else
        fprintf(out,
                "the top %u genomes one by one: the page (index.html in --out DIR); each strategy's value ranges%s: "
                "the run file (results/README.md)\n",
                top->n, peaks);
}

void top_table_print(FILE *out, const config_t *cfg, const reported_t *top, int from_run)
{
    const lattice_t *lat = &cfg->lattice;
    row_t *rows;
    int width[EV_MAX_PARAMS], genomes = 0, basin = 0, marked = 0;
    uint32_t n;
    if (top->n == 0) {
        fprintf(out, "No feasible genome: every evaluated genome breaks min_trades or max_drawdown_pct.\n");
        baseline_table_print(out, cfg, top);
        return;
    }
    rows = (row_t *)malloc(((size_t)top->n + (top->more ? top->more->n : 0)) * sizeof *rows);
    if (!rows) {
        fprintf(out, "(out of memory printing the list: the run file holds it)\n");
        return;
    }
    n = rows_of(rows, top);
    if (top->strat) {
        strategy_columns(rows, n, &genomes, &basin);
        print_title(out, top);
    }
    for (int32_t k = 0; k < lat->n_params; k++)
        width[k] = column_width(&lat->params[k]);
    print_head(out, cfg, top, width, genomes, basin);
    for (uint32_t i = 0; i < n; i++)
        marked |= print_row(out, cfg, top, &rows[i], width, genomes, basin);
    if (top->val)
        print_validation_notes(out, cfg, top, marked);
    if (top->strat)
        print_elsewhere(out, top, from_run);
    free(rows);
    baseline_table_print(out, cfg, top);
}
