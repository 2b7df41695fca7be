#include "fitness/verdict.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static ev_status verdict_alloc(verdict_t *v, uint32_t n_base, uint32_t n_parts, ev_error *err)
{
    memset(v, 0, sizeof *v);
    v->dsr = v->dsr_z = v->pbo = NAN;
    v->n_base = n_base;
    v->n_parts = n_parts;
    v->part = (verdict_part_t *)calloc((size_t)n_parts + 1, sizeof *v->part);
    v->best = (verdict_side_t *)calloc((size_t)n_parts + 1, sizeof *v->best);
    v->base = (verdict_side_t *)calloc((size_t)n_base * n_parts + 1, sizeof *v->base);
    if (v->part && v->best && v->base)
        return EV_OK;
    verdict_free(v);
    return ev_fail(err, EV_ENOMEM, "out of memory making the verdict");
}

void verdict_free(verdict_t *v)
{
    free(v->part);
    free(v->best);
    free(v->base);
    v->part = NULL;
    v->best = v->base = NULL;
    v->n_parts = v->n_base = 0;
}

double verdict_diff(const verdict_t *v, uint32_t j, uint32_t p)
{
    const double d = v->best[p].value - v->base[(size_t)j * v->n_parts + p].value;
    return d == d ? d : NAN;
}

void verdict_part_name(char *buf, size_t n, const verdict_part_t *p)
{
    static const char *const names[] = {"in sample", "holdout", "fold", "window", "chained"};
    if (p->number)
        snprintf(buf, n, "%s %d", names[p->kind], p->number);
    else
        snprintf(buf, n, "%s", names[p->kind]);
}

const char *verdict_base_words(int32_t kind)
{
    return kind == BASELINE_LOG ? "your trade log" : kind == BASELINE_LOOSEST ? "the loosest point" : "your baseline";
}

void verdict_num(char *buf, size_t n, double v, int sign)
{
    if (isinf(v))
        snprintf(buf, n, "%s", v > 0 ? (sign ? "+inf" : "inf") : "-inf");
    else if (v != v)
        snprintf(buf, n, "-");
    else if (v != 0 && (fabs(v) < 0.01 || fabs(v) >= 1e7)) /* 2 decimals would read 0.00, or too wide */
        snprintf(buf, n, sign ? "%+.3g" : "%.3g", v);
    else
        snprintf(buf, n, sign ? "%+.2f" : "%.2f", v);
}

void verdict_dsr_format(char *buf, size_t n, double dsr, double z)
{
    if (dsr != dsr)
        snprintf(buf, n, "-");
    else if (dsr < VERDICT_DSR_FLOOR)
        snprintf(buf, n, "< 1e-6 (z = %.2f)", z);
    else if (dsr < 0.001)
        snprintf(buf, n, "%.1e", dsr);
    else
        snprintf(buf, n, "%.3f", dsr);
}

void verdict_dsr_cell(char *buf, size_t n, double dsr)
{
    if (dsr == dsr && dsr < VERDICT_DSR_FLOOR)
        snprintf(buf, n, "<1e-6");
    else
        verdict_dsr_format(buf, n, dsr, NAN);
}

/* The baseline the headline compares with (baseline_versus). */
static uint32_t headline_base(const verdict_t *v)
{
    const int32_t j = baseline_versus(v->kind, v->n_base);
    return j < 0 ? 0 : (uint32_t)j;
}

static int32_t find_part(const verdict_t *v, int32_t kind)
{
    for (uint32_t p = 0; p < v->n_parts; p++)
        if (v->part[p].kind == kind)
            return (int32_t)p;
    return -1;
}

/* "0.20 vs 1.71, -1.51" */
static void versus(char *buf, size_t n, const verdict_t *v, uint32_t j, uint32_t p)
{
    char a[32], b[32], d[32];
    verdict_num(a, sizeof a, v->best[p].value, 0);
    verdict_num(b, sizeof b, v->base[(size_t)j * v->n_parts + p].value, 0);
    verdict_num(d, sizeof d, verdict_diff(v, j, p), 1);
    snprintf(buf, n, "%s vs %s, %s", a, b, d);
}

/* -1 loses, 0 ties, 1 beats (an infeasible rank 1 does not beat). */
static int outcome(const verdict_t *v, uint32_t j, uint32_t p)
{
    const double a = v->best[p].value, b = v->base[(size_t)j * v->n_parts + p].value;
    if (a > b && v->best[p].feasible)
        return 1;
    return a == b ? 0 : -1;
}

/* The headline's end when rank 1 keeps no trade in sample (min_trades 0). */
#define NO_TRADE_WORDS                                                                                      \
    "; rank 1 keeps NO trade in sample: doing nothing did at least as well as every genome evaluated that " \
    "trades (objective.min_trades 1 or more ranks only genomes that trade)"

static void list_headline(verdict_t *v)
{
    const uint32_t j = headline_base(v);
    const int32_t is = find_part(v, VPART_IN_SAMPLE), ho = find_part(v, VPART_HOLDOUT);
    const char *who = verdict_base_words(v->kind[j]);
    char vs[128], tail[256] = "";
    size_t at;
    int in, out;
    if (is < 0)
        return;
    in = outcome(v, j, (uint32_t)is);
    versus(vs, sizeof vs, v, j, (uint32_t)is);
    if (in > 0) {
        char d[32];
        verdict_num(d, sizeof d, verdict_diff(v, j, (uint32_t)is), 1);
        at = (size_t)snprintf(v->headline, sizeof v->headline, "Rank 1 beats %s in sample (%s)", who, d);
    } else
        at = (size_t)snprintf(v->headline, sizeof v->headline, "Rank 1 does NOT beat %s even in sample (%s)", who, vs);
    if (ho < 0) {
        uint32_t won = 0, folds = 0;
        for (uint32_t p = 0; p < v->n_parts; p++)
            if (v->part[p].kind == VPART_FOLD) {
                folds++;
                won += outcome(v, j, p) > 0;
            }
        if (folds)
            snprintf(tail, sizeof tail, "; it beats it on %u of %u folds; no holdout to test it out of sample", won,
                     folds);
        else
            snprintf(tail, sizeof tail, "; no holdout to test it out of sample (validation.holdout)");
    } else {
        const verdict_side_t *b = &v->best[ho];
        out = outcome(v, j, (uint32_t)ho);
        versus(vs, sizeof vs, v, j, (uint32_t)ho);
        if (!b->feasible) /* whatever its value: an infeasible rank 1 beats nothing, nor does it lose on its value */
            snprintf(tail, sizeof tail, " %s does NOT beat it out of sample on the holdout (%s)",
                     in > 0 ? "but" : "and", vs);
        else if (out > 0)
            snprintf(tail, sizeof tail, " %s beats it out of sample on the holdout (%s)", in > 0 ? "and" : "but", vs);
        else if (out == 0)
            snprintf(tail, sizeof tail, " %s only TIES it out of sample on the holdout (%s)", in > 0 ? "but" : "and",
                     vs);
        else
            snprintf(tail, sizeof tail, " %s LOSES out of sample on the holdout (%s)", in > 0 ? "but" : "and", vs);
        if (!b->feasible)
            snprintf(tail + strlen(tail), sizeof tail - strlen(tail), ", on %lld trades: too few (min_trades)",
                     (long long)b->trades);
    }
    snprintf(v->headline + at, sizeof v->headline - at, "%s", tail);
}

/* The plain readings of DSR and PBO; dsr_none and pbo_none say why one is not computed. */
static void readings(verdict_t *v, const char *dsr_none, const char *pbo_none)
{
    char d[64];
    verdict_dsr_format(d, sizeof d, v->dsr, v->dsr_z);
    if (v->dsr != v->dsr)
        snprintf(v->dsr_text, sizeof v->dsr_text, "DSR -: not computed (%s)", dsr_none);
    else if (v->dsr >= VERDICT_DSR_SIGNIFICANT)
        snprintf(v->dsr_text, sizeof v->dsr_text,
                 "DSR %s: significant (>= %.2f): rank 1's Sharpe ratio is unlikely to be the luck of %.0f trials", d,
                 VERDICT_DSR_SIGNIFICANT, v->trials);
    else
        snprintf(v->dsr_text, sizeof v->dsr_text,
                 "DSR %s: NOT significant (< %.2f): rank 1's Sharpe ratio could be the luck of trying %.0f genomes", d,
                 VERDICT_DSR_SIGNIFICANT, v->trials);
    if (v->pbo != v->pbo)
        snprintf(v->pbo_text, sizeof v->pbo_text, "PBO -: not computed (%s)", pbo_none);
    else if (v->pbo > VERDICT_PBO_OVERFIT)
        snprintf(v->pbo_text, sizeof v->pbo_text,
                 "PBO %.2f: likely OVERFIT (> %.1f): in most splits of the days the in-sample best fell to the median "
                 "or below on the other half",
                 v->pbo, VERDICT_PBO_OVERFIT);
    else
        snprintf(v->pbo_text, sizeof v->pbo_text,
                 "PBO %.2f: no sign of overfitting (<= %.1f): in %s splits of the days the in-sample best stayed "
                 "above the median on the other half",
                 v->pbo, VERDICT_PBO_OVERFIT, v->pbo < VERDICT_PBO_OVERFIT ? "most" : "half the");
}

static void side_of(verdict_side_t *s, double value, const eval_result_t *r)
{
    s->value = value;
    s->trades = r->trades;
    s->feasible = r->feasible != 0;
}

static void cell_side(verdict_side_t *s, const val_cell_t *c)
{
    side_of(s, c->value, &c->r);
}

/* Part p of a list's row: in sample, holdout, then the folds. */
static void list_side(verdict_side_t *s, const reported_t *l, const verdict_part_t *p)
{
    const val_row_t *r = l->val ? &l->val->row[0] : NULL;
    if (!r)
        side_of(s, l->value[0], &l->e[0].r);
    else if (p->kind == VPART_IN_SAMPLE)
        cell_side(s, &r->in_sample);
    else if (p->kind == VPART_HOLDOUT)
        cell_side(s, &r->out_of_sample);
    else
        cell_side(s, &r->fold[p->number - 1]);
}

ev_status verdict_of_list(verdict_t *v, const reported_t *top, double trials, ev_error *err)
{
    const reported_base_t *b = top->base;
    const int holdout = top->val && top->split && top->split->n_holdout > 0;
    const int32_t folds = top->val && top->split && top->split->has_folds ? top->val->n_folds : 0;
    const uint32_t n_parts = 1u + (uint32_t)holdout + (uint32_t)folds;
    ev_status st = verdict_alloc(v, b && top->n ? b->n : 0, top->n ? n_parts : 0, err);
    if (st != EV_OK)
        return st;
    if (!top->n) {
        snprintf(v->headline, sizeof v->headline, "No feasible genome: nothing to compare with the baselines");
        return EV_OK;
    }
    v->part[0].kind = VPART_IN_SAMPLE;
    if (holdout)
        v->part[1].kind = VPART_HOLDOUT;
    for (int32_t f = 0; f < folds; f++)
        v->part[1 + holdout + f] = (verdict_part_t){VPART_FOLD, f + 1};
    for (uint32_t p = 0; p < n_parts; p++) {
        list_side(&v->best[p], top, &v->part[p]);
        for (uint32_t j = 0; j < v->n_base; j++)
            list_side(&v->base[(size_t)j * n_parts + p], &b->rep[j], &v->part[p]);
    }
    for (uint32_t j = 0; j < v->n_base; j++)
        v->kind[j] = b->kind[j];
    v->trials = trials;
    if (top->val && trials >= 1.0) {
        const val_row_t *r = &top->val->row[0];
        v->dsr = deflated_sharpe(&r->moments, trials, top->val->var_sr);
        v->dsr_z = deflated_sharpe_z(&r->moments, trials, top->val->var_sr);
    }
    if (top->val)
        v->pbo = top->val->pbo;
    if (v->n_base)
        list_headline(v);
    else
        snprintf(v->headline, sizeof v->headline, "Rank 1: no baseline to compare with");
    if (v->best[0].feasible && v->best[0].trades == 0) /* a winner that does nothing must say so */
        snprintf(v->headline + strlen(v->headline), sizeof v->headline - strlen(v->headline), "%s", NO_TRADE_WORDS);
    if (!top->val)
        readings(v, "no validation: block in the config", "no validation: block in the config");
    else
        readings(v,
                 top->val->row[0].moments.n < 2 ? "rank 1 has fewer than 2 trades"
                 : trials < 1.0                 ? "the number of trials is unknown"
                                                : "rank 1's skewness and kurtosis give no standard error",
                 "fewer than 2 candidates or 2 in-sample days (validation.pbo_blocks)");
    return EV_OK;
}

ev_status verdict_of_walk(verdict_t *v, const verdict_walk_t *w, ev_error *err)
{
    const int32_t nw = w->n_windows, nb = w->n_base, chain = nw > 0 && w->base_chained;
    const uint32_t n_parts = (uint32_t)(nw + chain);
    uint32_t j, won = 0, worst = 0;
    char vs[128], on[200];
    ev_status st = verdict_alloc(v, nw > 0 ? (uint32_t)nb : 0, n_parts, err);
    if (st != EV_OK)
        return st;
    for (int32_t p = 0; p < nw; p++) {
        v->part[p] = (verdict_part_t){VPART_WINDOW, p + 1};
        side_of(&v->best[p], w->test_value[p], &w->test[p].r);
        for (int32_t b = 0; b < nb; b++)
            side_of(&v->base[(size_t)b * n_parts + (size_t)p], w->base_value[(size_t)p * nb + b],
                    &w->base[(size_t)p * nb + b]);
    }
    if (chain) {
        v->part[nw] = (verdict_part_t){VPART_CHAIN, 0};
        side_of(&v->best[nw], w->chained_value, &w->chained);
        for (int32_t b = 0; b < nb; b++)
            side_of(&v->base[(size_t)b * n_parts + (size_t)nw], w->base_chained_value[b], &w->base_chained[b]);
    }
    for (int32_t b = 0; b < nb; b++)
        v->kind[b] = w->base_kind[b];
    readings(v, "a walk-forward has none", "a walk-forward has none");
    if (!v->n_base || !nw) {
        snprintf(v->headline, sizeof v->headline, "The walk-forward winners: no baseline to compare with");
        return EV_OK;
    }
    j = headline_base(v);
    for (uint32_t p = 0; p < (uint32_t)nw; p++) {
        won += outcome(v, j, p) > 0;
        if (!(verdict_diff(v, j, p) >= verdict_diff(v, j, worst)))
            worst = p;
    }
    if (won == (uint32_t)nw)
        snprintf(on, sizeof on, "on every test window (%u of %u)", won, (uint32_t)nw);
    else {
        versus(vs, sizeof vs, v, j, worst);
        snprintf(on, sizeof on, "on %u of %u test windows (window %u: %s)", won, (uint32_t)nw, worst + 1, vs);
    }
    if (!chain) /* a run file without the baselines' chains */
        snprintf(v->headline, sizeof v->headline, "The walk-forward winners %s %s out of sample%s %s",
                 won == (uint32_t)nw ? "beat" : "do NOT beat", verdict_base_words(v->kind[j]),
                 won == (uint32_t)nw ? "" : ": they beat it", on);
    else {
        const int out = outcome(v, j, (uint32_t)nw);
        versus(vs, sizeof vs, v, j, (uint32_t)nw);
        snprintf(v->headline, sizeof v->headline,
                 "The walk-forward winners %s %s out of sample over the chained test windows (%s); they beat it %s",
                 out > 0    ? "beat"
                 : out == 0 ? "only TIE"
                            : "do NOT beat",
                 verdict_base_words(v->kind[j]), vs, on);
    }
    return EV_OK;
}

ev_status verdict_of_wf(verdict_t *v, const wf_result_t *r, ev_error *err)
{
    const verdict_walk_t w = {.n_windows = r->n,
                              .n_base = r->n_base,
                              .test_value = r->test_value,
                              .test = r->test,
                              .base_kind = r->base_kind,
                              .base_value = r->base_value,
                              .base = r->base,
                              .chained_value = r->chained_value,
                              .chained = r->chained,
                              .base_chained_value = r->base_chained_value,
                              .base_chained = r->base_chained};
    return verdict_of_walk(v, &w, err);
}
