/* Dominance sums with one sum set per day fold (objective.aggregate) against
 * the tables evaluator, on random problems (every additive objective, fill
 * and constraint) with random fold assignments of 2 to 16 folds (empty folds
 * included) and every aggregate:
 * - the whole lattice's ranking (index, rank key, fitness bits, trades,
 *   feasibility) is the same, with the default budget and with budgets so
 *   small that leading filters are fixed block by block;
 * - the heatmap and grid_count_better from the dominance pass equal the
 *   tables' (brute force over the tables' keys);
 * - `auto` picks dominance where the fold sums fit the budget and falls back
 *   to tables where they do not. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fitness/dominance.h"
#include "ga/grid.h"
#include "tests/check.h"
#include "tests/support/random_problem.h"

static uint64_t next(uint64_t *rng)
{
    *rng = *rng * 6364136223846793005ull + 1442695040888963407ull;
    return *rng >> 33;
}

typedef struct {
    fit_problem_t p;
    tables_host_t t;
    backend_t *b;
} problem_t;

static int problem_open(problem_t *q, const dataset_t *ds, const lattice_t *lat, const objective_cfg_t *obj,
                        const uint8_t *fold, int32_t n_folds, int32_t agg)
{
    ev_error err;
    memset(q, 0, sizeof *q);
    if (problem_init(&q->p, ds, lat, obj, &err)) {
        fprintf(stderr, "problem: %s\n", err.msg);
        return 0;
    }
    q->p.fold = fold;
    q->p.n_folds = n_folds;
    q->p.agg = agg;
    if (tables_build(&q->t, &q->p, &err) || backend_cpu_ops.open(&q->b, &q->p, &q->t, &err)) {
        fprintf(stderr, "problem: %s\n", err.msg);
        return 0;
    }
    return 1;
}

static void problem_close(problem_t *q)
{
    backend_cpu_ops.close(q->b);
    tables_free(&q->t);
    problem_free(&q->p);
}

/* The whole lattice's feasible points ranked by one evaluator (*n of them;
 * and its heatmap of the first and last parameters); *ran: the evaluator
 * that ran. */
static ranked_genome_t *rank_all(const problem_t *q, evaluator_kind ev, uint64_t budget, grid_heat_t *heat,
                                 evaluator_kind *ran, uint64_t *n)
{
    grid_opts_t o;
    grid_stats_t gs;
    topk_t top;
    ranked_genome_t *r;
    ev_error err;
    topk_init(&top, (uint32_t)q->p.lat->size, &err);
    memset(&o, 0, sizeof o);
    o.evaluator = ev;
    o.dominance_budget = budget;
    o.heat = heat;
    CHECK_EQ_I64(EV_OK, grid_run(&backend_cpu_ops, q->b, &q->p, &o, &top, &gs, &err));
    *ran = gs.evaluator;
    *n = top.n;
    r = topk_ranked_new(&top, &q->p.shape);
    topk_free(&top);
    return r;
}

static int same_ranking(const ranked_genome_t *a, uint64_t na, const ranked_genome_t *b, uint64_t n)
{
    if (na != n)
        return 0;
    for (uint64_t i = 0; i < n; i++)
        if (a[i].index != b[i].index || a[i].key != b[i].key || a[i].r.trades != b[i].r.trades ||
            a[i].r.feasible != b[i].r.feasible || memcmp(&a[i].r.fitness, &b[i].r.fitness, sizeof(double)))
            return 0;
    return 1;
}

/* Lattice points strictly better than key, counted on the tables' ranking. */
static uint64_t count_above(const ranked_genome_t *r, uint64_t n, uint64_t key)
{
    uint64_t c = 0;
    for (uint64_t i = 0; i < n; i++)
        c += r[i].key > key;
    return c;
}

static void check_problem(const problem_t *q, uint64_t *rng, int *blocked, int *ranked)
{
    const lattice_t *lat = q->p.lat;
    uint64_t n, nd, probe;
    int32_t px = lat->n_params - 1;
    grid_heat_t want, got;
    ranked_genome_t *tab, *dom;
    evaluator_kind ran;
    ev_error err;
    uint64_t got_count = 0, filter_cells = 1;
    /* bytes per cell times a few cells: several leading filters fixed */
    uint64_t small = (uint64_t)dom_cells_words(&q->p.obj) * 8u * (uint64_t)q->p.n_folds * (1 + next(rng) % 3);

    grid_heat_init(&want, px, 0, lat->params[px].n_values, lat->params[0].n_values, &err);
    grid_heat_init(&got, px, 0, want.nx, want.ny, &err);
    tab = rank_all(q, EVAL_TABLES, 0, &want, &ran, &n);
    *ranked += n > 1;
    dom = rank_all(q, EVAL_DOMINANCE, 0, &got, &ran, &nd);
    CHECK(same_ranking(tab, n, dom, nd));
    CHECK(!memcmp(want.key, got.key, (size_t)want.nx * want.ny * sizeof *want.key));
    free(dom);
    dom = rank_all(q, EVAL_DOMINANCE, small, NULL, &ran, &nd);
    CHECK(same_ranking(tab, n, dom, nd));
    free(dom);
    {
        dom_plan_t plan;
        dominance_plan(&plan, &q->t.view, small, (uint64_t)dom_cells_words(&q->p.obj) * 8u * (uint64_t)q->p.n_folds);
        *blocked += plan.lead > 0;
    }
    for (int32_t f = 0; f < q->t.view.n_filters; f++)
        filter_cells *= q->t.view.filter_n[f];
    /* auto: dominance within the default budget, tables where a block of the
     * fold sums would hold fewer cells than the filter lattice and 4096 */
    dom = rank_all(q, EVAL_AUTO, 0, NULL, &ran, &nd);
    CHECK_EQ_I64(EVAL_DOMINANCE, ran);
    free(dom);
    dom = rank_all(q, EVAL_AUTO, 1, NULL, &ran, &nd);
    CHECK_EQ_I64(filter_cells > 1 ? EVAL_TABLES : EVAL_DOMINANCE, ran);
    CHECK(same_ranking(tab, n, dom, nd));
    free(dom);
    probe = n ? tab[next(rng) % n].key : 0;
    CHECK_EQ_I64(EV_OK, backend_cpu_ops.grid_count_better(q->b, probe, &got_count, &err));
    CHECK_EQ_I64(count_above(tab, n, probe), got_count);
    free(tab);
    grid_heat_free(&want);
    grid_heat_free(&got);
}

int main(void)
{
    static const int32_t aggs[] = {AGG_MEAN_FOLD, AGG_MEDIAN_FOLD, AGG_WORST_FOLD};
    uint64_t rng = 1313;
    int problems = 0, skipped = 0, blocked = 0, ranked = 0;
    for (int round_no = 0; round_no < 60; round_no++) {
        dataset_t ds;
        lattice_t lat;
        objective_cfg_t obj;
        uint8_t *fold;
        /* 2-16 folds, mostly few; more trades and, every other round, no
         * min_trades, so that most folds keep trades and points are feasible */
        int32_t n_folds = 2 + (int32_t)(next(&rng) % (round_no % 4 ? 4 : EV_AGG_MAX_FOLDS - 1));
        random_dataset_opts_t sizes = {600, 40, 120};
        random_dataset(&ds, &rng, &sizes);
        random_lattice(&lat, &ds, &rng);
        random_objective(&obj, &rng);
        if (round_no % 2)
            obj.min_trades = 0;
        fold = (uint8_t *)malloc((size_t)ds.n_trades + 1);
        for (int64_t j = 0; j < ds.n_trades; j++)
            fold[j] = (uint8_t)(next(&rng) % (uint64_t)n_folds);
        for (int a = 0; a < 3; a++) {
            problem_t q;
            if (!problem_open(&q, &ds, &lat, &obj, fold, n_folds, aggs[(round_no + a) % 3]))
                continue;
            if (dominance_applicable(&q.p)) {
                check_problem(&q, &rng, &blocked, &ranked);
                problems++;
            } else {
                skipped++;
            }
            problem_close(&q);
        }
        free(fold);
        lattice_free(&lat);
        dataset_free(&ds);
    }
    printf(
        "%d problems checked (%d with two feasible points or more, %d with blocked dominance passes), %d skipped "
        "(order-dependent objectives)\n",
        problems, ranked, blocked, skipped);
    CHECK(problems > 100);
    CHECK(blocked > 50);
    CHECK(ranked > 50);
    return check_exit();
}
