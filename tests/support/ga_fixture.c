#include "tests/support/ga_fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/support/fitness_harness.h"

void fixture_open(ga_fixture_t *f, int32_t n_filters, uint32_t n_values)
{
    planted_opts_t po;
    planted_defaults(&po);
    po.n_filters = n_filters;
    po.n_values = n_values;
    po.n_targets = 6;
    po.n_stops = 6;
    po.good = 120;
    po.bad_per_filter = 20;
    po.noise = 80;
    fixture_open_planted(f, &po);
}

void fixture_open_planted(ga_fixture_t *f, const planted_opts_t *po)
{
    fixture_open_min_trades(f, po, 0);
}

void fixture_open_min_trades(ga_fixture_t *f, const planted_opts_t *po, int64_t min_trades)
{
    objective_cfg_t obj;
    ev_error err;
    memset(f, 0, sizeof *f);
    f->po = *po;
    planted_build(&f->po, &f->ds, &f->lat, f->optimum);
    harness_objective(&obj, OBJ_TOTAL_RETURN);
    obj.min_trades = min_trades;
    if (problem_init(&f->p, &f->ds, &f->lat, &obj, &err) || tables_build(&f->t, &f->p, &err) ||
        backend_cpu_ops.open(&f->b, &f->p, &f->t, &err)) {
        fprintf(stderr, "fixture: %s\n", err.msg);
        exit(2);
    }
}

void fixture_close(ga_fixture_t *f)
{
    backend_cpu_ops.close(f->b);
    tables_free(&f->t);
    problem_free(&f->p);
    lattice_free(&f->lat);
    dataset_free(&f->ds);
}

void fixture_settings(ga_settings_t *s)
{
    ga_settings_default(s);
    s->population = 64;
    s->islands = 2;
    s->generations = 30;
    s->migration_every = 4;
    s->migration_count = 2;
    s->elitism = 0.05;
    s->restart_stall = 0; /* one search, no random climbs: what a test checks of them, it sets */
    s->ls_random = 0;
}

uint64_t fnv1a(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = (const unsigned char *)data;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * UINT64_C(0x100000001B3);
    return h;
}

static ev_status on_gen(void *ctx, const ga_generation_t *g, ev_error *err)
{
    trace_t *tr = (trace_t *)ctx;
    const ga_gen_stats_t *st = g->stats;
    uint64_t h = UINT64_C(0xCBF29CE484222325);
    (void)err;
    if (tr->n >= TRACE_MAX_GENS)
        return EV_OK;
    h = fnv1a(h, g->genes, (size_t)g->n_genes * g->population * sizeof *g->genes);
    for (uint32_t i = 0; i < g->population; i++) {
        h = fnv1a(h, &g->results[i].fitness, sizeof g->results[i].fitness);
        h = fnv1a(h, &g->results[i].trades, sizeof g->results[i].trades);
        h = fnv1a(h, &g->results[i].feasible, sizeof g->results[i].feasible);
    }
    h = fnv1a(h, g->parents, 2u * g->population * sizeof *g->parents);
    h = fnv1a(h, &st->best, sizeof st->best);
    h = fnv1a(h, &st->median, sizeof st->median);
    h = fnv1a(h, &st->unique, sizeof st->unique);
    h = fnv1a(h, &st->evaluations, sizeof st->evaluations);
    h = fnv1a(h, st->island_unique, g->islands * sizeof *st->island_unique);
    h = fnv1a(h, st->gene_entropy, g->n_genes * sizeof *st->gene_entropy);
    tr->best[tr->n] = st->best;
    tr->hash[tr->n++] = h;
    return EV_OK;
}

void trace_observer(ga_observer_t *obs, trace_t *tr)
{
    memset(obs, 0, sizeof *obs);
    memset(tr, 0, sizeof *tr);
    obs->ctx = tr;
    obs->want_population = 1;
    obs->on_generation = on_gen;
}

ev_status fixture_run(ga_fixture_t *f, const backend_ops_t *ops, const ga_settings_t *s, uint64_t seed, trace_t *tr,
                      ga_result_t *res, ev_error *err)
{
    ga_observer_t obs;
    ga_run_opts_t o;
    trace_observer(&obs, tr);
    memset(&o, 0, sizeof o);
    o.seed = seed;
    o.top = 10;
    o.observer = &obs;
    return ga_run(ops ? ops : &backend_cpu_ops, f->b, &f->p, s, &o, res, err);
}

int fixture_same_top(const topk_t *a, const topk_t *b)
{
    if (a->n != b->n)
        return 0;
    for (uint32_t i = 0; i < a->n; i++)
        if (memcmp(&a->e[i], &b->e[i], sizeof a->e[i]) != 0)
            return 0;
    return 1;
}

int cpu_problem_open(cpu_problem_t *c, const dataset_t *ds, const lattice_t *lat, const objective_cfg_t *obj)
{
    ev_error err;
    memset(c, 0, sizeof *c);
    if (problem_init(&c->p, ds, lat, obj, &err) != EV_OK) {
        fprintf(stderr, "problem: %s\n", err.msg);
        return 0;
    }
    if (tables_build(&c->t, &c->p, &err) != EV_OK || backend_cpu_ops.open(&c->b, &c->p, &c->t, &err) != EV_OK) {
        fprintf(stderr, "problem: %s\n", err.msg);
        tables_free(&c->t);
        problem_free(&c->p);
        return 0;
    }
    return 1;
}

void cpu_problem_close(cpu_problem_t *c)
{
    backend_cpu_ops.close(c->b);
    tables_free(&c->t);
    problem_free(&c->p);
}
