#include "runs/session_baseline.h"

#include <stdlib.h>
#include <string.h>

#include "runs/session_strategy.h"
#include "runs/session_validation.h"

/* Row i of b: its point as a one-point lattice, on a shallow copy of s whose
 * lattice, problems and tables are the baseline's, so the validation rows come
 * from the same code as the winners'. */
static ev_status baseline_row(const session_t *s, reported_base_t *b, uint32_t i, ev_error *err)
{
    static const uint16_t genes[EV_MAX_PARAMS] = {0};
    session_t v = *s;
    lattice_t lat;
    ev_status st;
    memset(&v.prob, 0, sizeof v.prob);
    memset(&v.tables, 0, sizeof v.tables);
    memset(&v.prob_full, 0, sizeof v.prob_full);
    memset(&v.tables_full, 0, sizeof v.tables_full);
    if ((st = baseline_lattice(&lat, &s->cfg.lattice, &b->point[i], err)) == EV_OK &&
        (st = lattice_bind(&lat, &s->ds, err)) == EV_OK &&
        (st = problem_init(&v.prob, &s->ds, &lat, &s->cfg.objective, err)) == EV_OK) {
        v.prob.fold = s->prob.fold;
        v.prob.n_folds = s->prob.n_folds;
        v.prob.agg = s->prob.agg;
        st = tables_build(&v.tables, &v.prob, err);
    }
    if (st == EV_OK && s->validating &&
        (st = problem_init(&v.prob_full, &s->ds_full, &lat, &s->cfg.objective, err)) == EV_OK)
        st = tables_build(&v.tables_full, &v.prob_full, err);
    if (st == EV_OK) {
        ranked_genome_t *e = &b->e[i];
        memset(e, 0, sizeof *e);
        e->r = tables_eval(&v.tables.view, genes);
        e->key = rank_key(e->r);
        st = reported_make(&b->rep[i], &v.prob, &v.tables.view, e, 1, err);
        if (st == EV_OK && s->validating && (st = session_validation_rows(&v, &b->rep[i], err)) != EV_OK)
            reported_free(&b->rep[i]);
        if (st == EV_OK && s->validating)
            b->rep[i].split = &s->split; /* not v's: v ends here */
    }
    tables_free(&v.tables_full);
    problem_free(&v.prob_full);
    tables_free(&v.tables);
    problem_free(&v.prob);
    lattice_free(&lat);
    if (st != EV_OK)
        ev_error_prefix(err, "baseline %s: ", baseline_name(b->kind[i]));
    return st;
}

/* A strategy's baseline, row i: its pinned strategy's one genome on a shallow
 * copy of s whose strategy and problem (a lattice of that one point: no
 * plateau neighbours) are the baseline's, reported by the winners' code. */
static ev_status strategy_row(const session_t *s, reported_base_t *b, uint32_t i, ev_error *err)
{
    session_t v = *s;
    lattice_t lat;
    ranked_genome_t *e = &b->e[i];
    ev_status st;
    memset(&v.prob, 0, sizeof v.prob);
    memset(e, 0, sizeof *e);
    v.strategy = s->base_strategy;
    if ((st = baseline_lattice(&lat, &s->cfg.lattice, &b->point[i], err)) == EV_OK &&
        (st = problem_init(&v.prob, &s->ds, &lat, &s->cfg.objective, err)) == EV_OK &&
        (st = strategy_evaluate(v.strategy, e->genes, 1, &e->r, err)) == EV_OK) {
        v.prob.fold = s->prob.fold;
        v.prob.n_folds = s->prob.n_folds;
        v.prob.agg = s->prob.agg;
        e->key = rank_key(e->r);
        if ((st = session_strategy_reported(&v, e, 1, &b->rep[i], err)) == EV_OK && s->validating)
            b->rep[i].split = &s->split; /* not v's: v ends here */
    }
    problem_free(&v.prob);
    lattice_free(&lat);
    if (st != EV_OK)
        ev_error_prefix(err, "baseline %s: ", baseline_name(b->kind[i]));
    return st;
}

/* The same statistics, whether or not their lattice shows SPEC sec. 4.1's
 * exit counts (log's has no exits; loosest's shows its zero counts). */
static int same_stats(const trade_stats_t *a, const trade_stats_t *b)
{
    trade_stats_t x = *a, y = *b;
    x.more_exits = y.more_exits = 0;
    return memcmp(&x, &y, sizeof x) == 0;
}

/* 1 when rows i and j give the same result on every part. */
static int same_result(const reported_base_t *b, uint32_t i, uint32_t j)
{
    const reported_t *x = &b->rep[i], *y = &b->rep[j];
    if (memcmp(&b->e[i].r, &b->e[j].r, sizeof b->e[i].r) != 0 || memcmp(x->value, y->value, sizeof *x->value) != 0 ||
        !same_stats(x->stats, y->stats))
        return 0;
    if (!x->val)
        return 1;
    return memcmp(&x->val->row[0].out_of_sample, &y->val->row[0].out_of_sample, sizeof x->val->row[0].out_of_sample) ==
               0 &&
           same_stats(&x->val->row[0].oos_stats, &y->val->row[0].oos_stats);
}

ev_status session_baselines(const session_t *s, reported_t *r, ev_error *err)
{
    reported_base_t *b;
    ev_status st = EV_OK;
    r->base = NULL;
    if (s->strategy && !s->base_strategy)
        return EV_OK;
    if (!(b = (reported_base_t *)calloc(1, sizeof *b)))
        return ev_fail(err, EV_ENOMEM, "out of memory computing the baselines");
    r->base = b;
    if (s->strategy) { /* log and loosest are a trade log's (fitness/baseline.h) */
        b->kind[0] = BASELINE_TRADER;
        b->point[0] = s->cfg.baseline;
        if ((st = strategy_row(s, b, 0, err)) == EV_OK)
            b->n = 1;
        return st;
    }
    for (int32_t kind = 0; kind < BASELINE_KINDS && st == EV_OK; kind++) {
        if (kind == BASELINE_TRADER && !s->cfg.baseline.present)
            continue;
        b->kind[b->n] = kind;
        if (kind == BASELINE_TRADER)
            b->point[b->n] = s->cfg.baseline;
        else
            baseline_point(&s->cfg.lattice, kind, &b->point[b->n]);
        if ((st = baseline_row(s, b, b->n, err)) != EV_OK)
            break;
        b->n++;
        if (kind == BASELINE_LOOSEST && same_result(b, 0, b->n - 1))
            reported_free(&b->rep[--b->n]);
    }
    return st;
}
