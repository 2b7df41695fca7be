#include "ga/ga_progress.h"

#include <math.h>

#include "common/platform.h"
#include "fitness/accum.h"
#include "fitness/objective_prep.h"

void ga_gene_entropy(const uint32_t *counts, const uint32_t *n_values, int32_t n_genes, uint32_t population,
                     double *out)
{
    for (int32_t k = 0; k < n_genes; k++) {
        double h = 0.0;
        for (uint32_t v = 0; v < n_values[k]; v++) {
            if (counts[v]) {
                double q = (double)counts[v] / (double)population;
                h -= q * log2(q);
            }
        }
        out[k] = h;
        counts += n_values[k];
    }
}

static void format_eta(char *buf, size_t n, double s)
{
    if (!(s >= 0) || s > 1e8)
        snprintf(buf, n, "?");
    else if (s < 120)
        snprintf(buf, n, "%.0fs", s);
    else if (s < 7200)
        snprintf(buf, n, "%dm%02ds", (int)(s / 60), (int)s % 60);
    else
        snprintf(buf, n, "%.1fh", s / 3600);
}

/* The soonest of the limits that are set, at the rates seen so far. */
static double eta_seconds(const ga_gen_stats_t *st, const ga_settings_t *s)
{
    double done = (double)st->generation + 1.0;
    double eta =
        s->generations == GA_GENERATIONS_UNCAPPED ? HUGE_VAL : st->wall_s / done * ((double)s->generations - done);
    if (s->max_evaluations && st->evaluations > 0) {
        double left = (double)s->max_evaluations - (double)st->evaluations;
        double e = left > 0 ? left * st->wall_s / (double)st->evaluations : 0.0;
        eta = e < eta ? e : eta;
    }
    if (s->time_budget_s > 0 && s->time_budget_s - st->wall_s < eta)
        eta = s->time_budget_s - st->wall_s > 0 ? s->time_budget_s - st->wall_s : 0.0;
    return eta;
}

void ga_progress_begin(ga_progress_t *p, FILE *out, uint32_t first_generation)
{
    p->out = out;
    p->tty = out == stderr && plat_stderr_is_tty();
    p->open = 0;
    p->last_s = 0.0;
    p->first = first_generation;
}

/* Off a terminal: the first generation, every GA_PROGRESS_EVERY-th, the
 * last of a capped run and one at least every 10 s, so a log of 200
 * generations reads in 21 lines. */
static int due(const ga_progress_t *p, const ga_gen_stats_t *st, const ga_settings_t *s)
{
    return p->tty || st->generation == p->first || (st->generation + 1) % GA_PROGRESS_EVERY == 0 ||
           st->generation + 1 == s->generations || st->wall_s - p->last_s >= 10.0;
}

void ga_progress_line(ga_progress_t *p, const ga_gen_stats_t *st, const ga_settings_t *s, const objective_cfg_t *obj)
{
    char eta[32];
    FILE *out = p->out;
    double rate = st->wall_s > 0 ? (double)st->evaluations / st->wall_s : 0.0;
    if (!out || !due(p, st, s))
        return;
    format_eta(eta, sizeof eta, eta_seconds(st, s));
    if (p->tty)
        fputc('\r', out);
    if (s->generations == GA_GENERATIONS_UNCAPPED)
        fprintf(out, "gen %u", st->generation + 1);
    else
        fprintf(out, "gen %u/%u", st->generation + 1, s->generations);
    if (st->hof && st->hof->n)
        fprintf(out, "  best %.6g", objective_display(obj, st->hof->e[0].r.fitness));
    else
        fprintf(out, "  best (none feasible)");
    fprintf(out, "  mean %.4g  evals %llu (hits %.1f%%)  %.3g evals/s  ETA %s",
            st->feasible ? objective_display(obj, st->mean) : 0.0, (unsigned long long)st->evaluations,
            100.0 * st->hit_rate, rate, eta);
    fputs(p->tty ? "\x1b[K" : "\n", out); /* a terminal's line cleared to its end: a shorter line leaves no tail */
    fflush(out);
    p->open = p->tty;
    p->last_s = st->wall_s;
}

void ga_progress_end(ga_progress_t *p)
{
    if (p->out && p->open) {
        fputc('\n', p->out);
        fflush(p->out);
    }
    p->open = 0;
}
