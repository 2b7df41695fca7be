/* The command line's reporter: runs/'s notes, warnings and tables printed. */
#include "cli/run_print.h"

#include <string.h>

#include "fitness/objective_cfg.h"
#include "fitness/objective_prep.h"
#include "runs/mode_walk.h"
#include "report/baseline_table.h"
#include "report/top_table.h"
#include "report/verdict_print.h"

static void print_walk(FILE *out, const config_t *cfg, const wf_result_t *r, const char *search_name)
{
    const lattice_t *lat = &cfg->lattice;
    const char *obj = objective_name((objective_kind)cfg->objective.kind);
    char a[16], b[16], c[16], d[16];
    fprintf(out, "walk-forward (%s): %d trading days, train %u, test %u, step %u: %d windows\n", search_name, r->n_days,
            r->train_days, r->test_days, r->step_days, r->n);
    fprintf(out, "window  train                   test                  ");
    for (int32_t k = 0; k < lat->n_params; k++)
        fprintf(out, "  %10s", lat->params[k].name);
    fprintf(out, "  %12s  trades  %12s  trades\n", "train", "test");
    for (int32_t w = 0; w < r->n; w++) {
        const wf_window_t *win = &r->win[w];
        walk_day_text(r->days[win->train_begin], a, sizeof a);
        walk_day_text(r->days[win->train_end - 1], b, sizeof b);
        walk_day_text(r->days[win->test_begin], c, sizeof c);
        walk_day_text(r->days[win->test_end - 1], d, sizeof d);
        fprintf(out, "%6d  %s..%s  %s..%s", w + 1, a, b, c, d);
        for (int32_t k = 0; k < lat->n_params; k++)
            fprintf(out, "  %10s", lat->params[k].value_text[r->winner[w].genes[k]]);
        fprintf(out, "  %12.6f  %6lld  %12.6f  %6lld%s%s\n", r->train_value[w], (long long)r->winner[w].r.trades,
                r->test_value[w], (long long)r->test[w].r.trades, r->test[w].r.feasible ? "" : "  infeasible: ",
                r->test[w].r.feasible ? "" : objective_infeasible_why(&cfg->objective, r->test[w].r));
    }
    if (r->n_base) {
        const char *names[BASELINE_KINDS];
        for (int32_t j = 0; j < r->n_base; j++)
            names[j] = baseline_name(r->base_kind[j]);
        baseline_window_table_print(out, names, (size_t)r->n_base, (size_t)r->n, r->base_value, r->base);
    }
    walk_day_text(r->days[r->win[0].test_begin], a, sizeof a);
    walk_day_text(r->days[r->win[r->n - 1].test_end - 1], b, sizeof b);
    fprintf(out, "chained out-of-sample %s..%s: %s %.6f, %lld trades%s%s%s\n", a, b, obj, r->chained_value,
            (long long)r->chained.trades, r->chained.feasible ? "" : " (infeasible: ",
            r->chained.feasible ? "" : objective_infeasible_why(&cfg->objective, r->chained),
            r->chained.feasible ? "" : ")");
}

/* The verdict first, the answer before the evidence, as evolve report prints
 * it (fitness/verdict.h): the list's rank 1 (the grid's for --validate), or
 * the walk's windows. */
static void print_verdict(FILE *out, const run_table_t *t)
{
    verdict_t v;
    ev_status st;
    if (t->kind == RUN_TABLE_WALK)
        st = verdict_of_wf(&v, t->walk, NULL);
    else
        st = verdict_of_list(&v, t->top, t->top->val ? t->top->val->trials : 0.0, NULL);
    if (st != EV_OK)
        return; /* out of memory: the tables below say it all */
    verdict_print_text(out, &v);
    verdict_free(&v);
    fputc('\n', out);
}

/* The verdict, then the list as one table of strategies (report/top_table.h). */
static void print_table(void *user, const run_table_t *t)
{
    FILE *out = stdout;
    (void)user;
    print_verdict(out, t);
    switch (t->kind) {
    case RUN_TABLE_TOP: top_table_print(out, t->cfg, t->top, 1); break;
    case RUN_TABLE_VALIDATE:
        fprintf(out, "grid top-%u:\n", t->cfg->top);
        top_table_print(out, t->cfg, t->top, 1);
        fprintf(out, "GA hall of fame:\n");
        top_table_print(out, t->cfg, t->hof, 1);
        validate_print(out, t->validate);
        break;
    case RUN_TABLE_WALK: print_walk(out, t->cfg, t->walk, t->search); break;
    }
}

static void print_line(void *user, const char *line)
{
    (void)user;
    fputs(line, stderr);
}

void run_print_reporter(run_reporter_t *r, int quiet)
{
    memset(r, 0, sizeof *r);
    r->log = quiet ? NULL : stderr;
    r->err = stderr;
    r->note = quiet ? NULL : print_line;
    r->warning = print_line;
    r->table = print_table;
}
