#include "tests/support/fitness_harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fitness/eval_reference.h"
#include "fitness/problem.h"
#include "fitness/tables.h"
#include "ga/grid.h"
#include "tests/support/warp_join.h"

void harness_objective(objective_cfg_t *obj, objective_kind kind)
{
    memset(obj, 0, sizeof *obj);
    obj->kind = kind;
    obj->fill = FILL_LEVEL;
}

static void die(const char *what, const ev_error *err)
{
    fprintf(stderr, "harness: %s: %s\n", what, err->msg);
    exit(2);
}

static int same_result(eval_result_t a, eval_result_t b)
{
    return a.trades == b.trades && a.feasible == b.feasible && rank_key(a) == rank_key(b) &&
           memcmp(&a.fitness, &b.fitness, sizeof a.fitness) == 0;
}

static int same_ranking(const topk_t *a, const topk_t *b)
{
    if (a->n != b->n)
        return 0;
    for (uint32_t i = 0; i < a->n; i++)
        if (a->e[i].index != b->e[i].index || !same_result(a->e[i].r, b->e[i].r))
            return 0;
    return 1;
}

static void grid_ranking(const backend_ops_t *ops, backend_t *b, const fit_problem_t *p, evaluator_kind ev,
                         uint64_t batch, topk_t *out)
{
    grid_opts_t o;
    grid_stats_t s;
    ev_error err;
    memset(&o, 0, sizeof o);
    o.evaluator = ev;
    o.batch = batch;
    o.dominance_budget = 4096; /* small, so blocks with fixed leading filters are exercised too */
    if (topk_init(out, (uint32_t)p->lat->size, &err) != EV_OK || grid_run(ops, b, p, &o, out, &s, &err) != EV_OK)
        die("grid", &err);
}

/* The CUDA kernel's warp evaluation of one genome, lane by lane on the CPU
 * (kernels/fitness.cu, tables_eval_warp): `lanes` slices of the trades, each
 * accumulated alone, then joined as its shuffle tree joins them. */
static eval_result_t tables_eval_lanes(const fit_tables_t *t, const uint16_t *genes, uint32_t lanes)
{
    accum_seg_t s[64];
    tables_genome_t g;
    tables_genome(t, genes, &g);
    for (uint32_t l = 0; l < lanes; l++) {
        int64_t j0, j1;
        accum_seg_init(&s[l]);
        accum_seg_slice(t->n_trades, l, lanes, &j0, &j1);
        tables_accum_range(t, &g, j0, j1, &s[l]);
    }
    warp_join(s, lanes, &t->obj);
    return accum_finish(&s[0].a, &t->obj);
}

void harness_check_all(const dataset_t *ds, const lattice_t *lat, const objective_cfg_t *obj, topk_t *ranking,
                       int *mismatches)
{
    fit_problem_t p;
    tables_host_t t;
    backend_t *b;
    ev_error err;
    uint16_t g[EV_MAX_PARAMS];
    topk_t other;
    const uint64_t batches[] = {1, 7, 0};
    uint16_t *soa;
    eval_result_t *via_backend;

    if (problem_init(&p, ds, lat, obj, &err) != EV_OK || tables_build(&t, &p, &err) != EV_OK ||
        backend_cpu_ops.open(&b, &p, &t, &err) != EV_OK)
        die("setup", &err);
    /* Every genome: the reference, tables_eval, and the CPU backend's
     * evaluate (its kept-trade bitsets), given the genomes in SoA form. */
    soa = (uint16_t *)calloc((size_t)lat->size * (size_t)lat->n_params + 1, sizeof *soa);
    via_backend = (eval_result_t *)calloc((size_t)lat->size + 1, sizeof *via_backend);
    if (!soa || !via_backend)
        exit(2);
    for (uint64_t i = 0; i < lat->size; i++) {
        shape_decode(&p.shape, i, g);
        for (int32_t k = 0; k < lat->n_params; k++)
            soa[(uint64_t)k * lat->size + i] = g[k];
    }
    if (backend_cpu_ops.evaluate(b, soa, lat->size, via_backend, &err) != EV_OK)
        die("evaluate", &err);
    for (uint64_t i = 0; i < lat->size; i++) {
        eval_result_t r, q;
        shape_decode(&p.shape, i, g);
        r = reference_eval(&p, g);
        q = tables_eval(&t.view, g);
        if (t.view.agg == AGG_ALL && !same_result(r, tables_eval_lanes(&t.view, g, 32))) {
            fprintf(stderr, "genome %llu: 32 lanes joined differ from the reference\n", (unsigned long long)i);
            (*mismatches)++;
        }
        if (!same_result(r, q) || !same_result(r, via_backend[i])) {
            fprintf(stderr, "genome %llu: reference %.17g/%lld/%d, tables %.17g/%lld/%d, backend %.17g/%lld/%d\n",
                    (unsigned long long)i, r.fitness, (long long)r.trades, r.feasible, q.fitness, (long long)q.trades,
                    q.feasible, via_backend[i].fitness, (long long)via_backend[i].trades, via_backend[i].feasible);
            (*mismatches)++;
        }
    }
    free(soa);
    free(via_backend);
    grid_ranking(&backend_cpu_ops, b, &p, EVAL_REFERENCE, 0, ranking);
    for (int i = 0; i < 3; i++) {
        grid_ranking(&backend_cpu_ops, b, &p, EVAL_TABLES, batches[i], &other);
        if (!same_ranking(ranking, &other)) {
            fprintf(stderr, "tables ranking with batch %llu differs from the reference\n",
                    (unsigned long long)batches[i]);
            (*mismatches)++;
        }
        topk_free(&other);
    }
    if (dominance_applicable(&p)) {
        grid_ranking(&backend_cpu_ops, b, &p, EVAL_DOMINANCE, 0, &other);
        if (!same_ranking(ranking, &other)) {
            fprintf(stderr, "dominance ranking differs from the reference\n");
            (*mismatches)++;
        }
        topk_free(&other);
    }
    backend_cpu_ops.close(b);
    tables_free(&t);
    problem_free(&p);
}

eval_result_t harness_eval(const dataset_t *ds, const lattice_t *lat, const objective_cfg_t *obj, const uint16_t *genes,
                           int *mismatches)
{
    fit_problem_t p;
    tables_host_t t;
    ev_error err;
    eval_result_t r, q;
    if (problem_init(&p, ds, lat, obj, &err) != EV_OK || tables_build(&t, &p, &err) != EV_OK)
        die("setup", &err);
    r = reference_eval(&p, genes);
    q = tables_eval(&t.view, genes);
    if (!same_result(r, q)) {
        fprintf(stderr, "reference %.17g/%lld/%d, tables %.17g/%lld/%d\n", r.fitness, (long long)r.trades, r.feasible,
                q.fitness, (long long)q.trades, q.feasible);
        (*mismatches)++;
    }
    tables_free(&t);
    problem_free(&p);
    return r;
}
