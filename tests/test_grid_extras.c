/* The optional grid ops the run file and --validate rely on, against brute
 * force on random problems (every objective, fill and constraint):
 * - the heatmap (best rank_key per cell of two parameters) from the tables
 *   pass, the dominance sums and the reference evaluator, through grid_run
 *   (and none from a backend without the heat ops);
 * - grid_count_better (points strictly better than a key), and the CPU
 *   pass --validate falls back to where a backend has none;
 * - validate_compare: overlaps, and the GA best's grid rank from the top-K
 *   exactly when the top-K can decide it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runs/modes.h"
#include "fitness/eval_reference.h"
#include "ga/grid.h"
#include "tests/check.h"
#include "tests/support/random_problem.h"

typedef struct {
    fit_problem_t p;
    tables_host_t t;
    backend_t *b;
    uint64_t *keys; /* [size]: rank_key of every point (reference evaluator) */
} problem_t;

static int problem_open(problem_t *q, const dataset_t *ds, const lattice_t *lat, const objective_cfg_t *obj)
{
    ev_error err;
    memset(q, 0, sizeof *q);
    if (problem_init(&q->p, ds, lat, obj, &err) || tables_build(&q->t, &q->p, &err) ||
        backend_cpu_ops.open(&q->b, &q->p, &q->t, &err)) {
        fprintf(stderr, "problem: %s\n", err.msg);
        return 0;
    }
    q->keys = (uint64_t *)malloc(lat->size * sizeof *q->keys);
    for (uint64_t i = 0; i < lat->size; i++) {
        uint16_t g[EV_MAX_PARAMS];
        shape_decode(&q->p.shape, i, g);
        q->keys[i] = rank_key(reference_eval(&q->p, g));
    }
    return 1;
}

static void problem_close(problem_t *q)
{
    backend_cpu_ops.close(q->b);
    tables_free(&q->t);
    problem_free(&q->p);
    free(q->keys);
}

/* The heatmap of (px, py) by brute force. */
static void heat_expected(const problem_t *q, grid_heat_t *h)
{
    for (uint64_t i = 0; i < q->p.lat->size; i++) {
        uint16_t g[EV_MAX_PARAMS];
        shape_decode(&q->p.shape, i, g);
        grid_heat_offer(h, g, q->keys[i]);
    }
}

static int heat_equal(const grid_heat_t *a, const grid_heat_t *b)
{
    return !memcmp(a->key, b->key, (size_t)a->nx * a->ny * sizeof *a->key);
}

static void check_heat(const problem_t *q, int *runs)
{
    const lattice_t *lat = q->p.lat;
    int32_t px = lat->n_params - 1, py = 0; /* any two: here the last and the first */
    grid_heat_t want, got;
    ev_error err;
    if (lat->n_params < 2)
        return;
    grid_heat_init(&want, px, py, lat->params[px].n_values, lat->params[py].n_values, &err);
    heat_expected(q, &want);
    for (int ev = EVAL_REFERENCE; ev <= EVAL_DOMINANCE; ev++) {
        grid_opts_t o;
        grid_stats_t gs;
        topk_t top;
        if (ev == EVAL_DOMINANCE && !dominance_applicable(&q->p))
            continue;
        grid_heat_init(&got, px, py, want.nx, want.ny, &err);
        topk_init(&top, 3, &err);
        memset(&o, 0, sizeof o);
        o.evaluator = (evaluator_kind)ev;
        o.batch = 7; /* many batches: the heatmap must carry across them */
        o.heat = &got;
        CHECK_EQ_I64(EV_OK, grid_run(&backend_cpu_ops, q->b, &q->p, &o, &top, &gs, &err));
        CHECK_EQ_I64(1, gs.heat_filled);
        CHECK(heat_equal(&want, &got));
        (*runs)++;
        topk_free(&top);
        grid_heat_free(&got);
    }
    grid_heat_free(&want);
}

static uint64_t count_above(const problem_t *q, uint64_t key)
{
    uint64_t n = 0;
    for (uint64_t i = 0; i < q->p.lat->size; i++)
        n += q->keys[i] > key;
    return n;
}

static void check_count(const problem_t *q, uint64_t *rng)
{
    uint64_t size = q->p.lat->size;
    uint64_t probes[4] = {0, UINT64_MAX, q->keys[*rng % size], q->keys[(*rng >> 20) % size]};
    ev_error err;
    for (int i = 0; i < 4; i++) {
        uint64_t got = 12345;
        CHECK_EQ_I64(EV_OK, backend_cpu_ops.grid_count_better(q->b, probes[i], &got, &err));
        CHECK_EQ_I64(count_above(q, probes[i]), got);
    }
}

/* The grid's top-K and a "GA" list (the ranking from position `from`, K
 * long, every other entry), compared as --validate does. */
static void check_validate(const problem_t *q, uint32_t k, uint32_t from)
{
    topk_t all;
    ranked_genome_t *ranked, *ga;
    validate_figures_t v;
    uint32_t n_ga = 0, n_grid;
    ev_error err;
    topk_init(&all, (uint32_t)q->p.lat->size, &err);
    for (uint64_t i = 0; i < q->p.lat->size; i++) {
        uint16_t g[EV_MAX_PARAMS];
        shape_decode(&q->p.shape, i, g);
        topk_offer(&all, i, reference_eval(&q->p, g));
    }
    ranked = (ranked_genome_t *)calloc(all.n + 1, sizeof *ranked);
    ga = (ranked_genome_t *)calloc(k + 1, sizeof *ga);
    topk_to_ranked(&all, &q->p.shape, ranked);
    for (uint32_t i = from; i < all.n && n_ga < k; i += 2)
        ga[n_ga++] = ranked[i];
    n_grid = all.n < k ? all.n : k;
    {
        reported_t grid_list = {ranked, NULL, n_grid, NULL, NULL, NULL, NULL, NULL, NULL, 0, NULL, NULL, NULL, NULL},
                   ga_list = {ga, NULL, n_ga, NULL, NULL, NULL, NULL, NULL, NULL, 0, NULL, NULL, NULL, NULL};
        double *value = (double *)calloc(n_grid + n_ga + 1, sizeof *value);
        for (uint32_t i = 0; i < n_grid; i++)
            value[i] = ranked[i].r.fitness;
        for (uint32_t i = 0; i < n_ga; i++)
            value[n_grid + i] = ga[i].r.fitness;
        grid_list.value = value;
        ga_list.value = value + n_grid;
        validate_compare(&v, &grid_list, &ga_list, k, q->p.lat->n_params);
        if (n_grid && n_ga)
            CHECK(ranked[0].key == ga[0].key ? v.gap == 0.0 : v.gap == ranked[0].r.fitness - ga[0].r.fitness);
        free(value);
    }
    CHECK_EQ_I64(n_ga > 0, v.ga_feasible);
    if (n_ga) {
        uint64_t better = count_above(q, ga[0].key);
        uint32_t genomes = 0, fitness = 0;
        /* decidable from the top-K iff the list is short or its last key is no better */
        int decidable = n_grid < k || ranked[n_grid - 1].key <= ga[0].key;
        CHECK_EQ_I64(decidable, v.rank_known);
        if (v.rank_known)
            CHECK_EQ_I64(better + 1, v.rank);
        /* the GA list holds ranking positions from, from + 2, ...: those
         * below n_grid are in the grid's top-K */
        for (uint32_t i = 0; i < n_ga; i++)
            genomes += from + 2 * i < n_grid;
        CHECK_EQ_I64(genomes, v.overlap_genomes);
        /* fitness multiset: count by brute force */
        {
            uint8_t *used = (uint8_t *)calloc(n_grid + 1, 1);
            for (uint32_t i = 0; i < n_ga; i++)
                for (uint32_t j = 0; j < n_grid; j++)
                    if (!used[j] && ranked[j].key == ga[i].key) {
                        used[j] = 1;
                        fitness++;
                        break;
                    }
            free(used);
        }
        CHECK_EQ_I64(fitness, v.overlap_fitness);
    }
    free(ranked);
    free(ga);
    topk_free(&all);
}

/* A backend without the optional ops (as CUDA is today): grid_run says the
 * heatmap was not filled, and validate_count counts on the CPU backend. */
static void check_fallbacks(problem_t *q)
{
    backend_ops_t bare = backend_cpu_ops;
    grid_heat_t heat;
    grid_opts_t o;
    grid_stats_t gs;
    topk_t top;
    session_t s;
    validate_figures_t v;
    ev_error err;
    bare.grid_batch_heat = NULL;
    bare.grid_dominance_heat = NULL;
    bare.grid_count_better = NULL;
    if (q->p.lat->n_params < 2)
        return;
    grid_heat_init(&heat, 0, 1, q->p.lat->params[0].n_values, q->p.lat->params[1].n_values, &err);
    topk_init(&top, 2, &err);
    memset(&o, 0, sizeof o);
    o.heat = &heat;
    CHECK_EQ_I64(EV_OK, grid_run(&bare, q->b, &q->p, &o, &top, &gs, &err));
    CHECK_EQ_I64(0, gs.heat_filled);
    CHECK_EQ_I64(0, heat.key[0]);
    memset(&s, 0, sizeof s);
    s.ops = &bare;
    s.backend = q->b;
    s.prob = q->p;
    s.tables = q->t;
    memset(&v, 0, sizeof v);
    v.ga_feasible = 1;
    v.ga_best_key = q->keys[0];
    CHECK_EQ_I64(EV_OK, validate_count(&v, &s, &err));
    CHECK_EQ_I64(1, v.rank_known);
    CHECK_EQ_I64(count_above(q, q->keys[0]) + 1, v.rank);
    CHECK_STR("count pass (cpu)", v.rank_method);
    topk_free(&top);
    grid_heat_free(&heat);
}

int main(void)
{
    uint64_t rng = 777;
    int heat_runs = 0, problems = 0;
    for (int round_no = 0; round_no < 100; round_no++) {
        dataset_t ds;
        lattice_t lat;
        objective_cfg_t obj;
        problem_t q;
        random_dataset(&ds, &rng, NULL);
        random_lattice(&lat, &ds, &rng);
        random_objective(&obj, &rng);
        if (problem_open(&q, &ds, &lat, &obj)) {
            check_heat(&q, &heat_runs);
            check_count(&q, &rng);
            check_validate(&q, 5, 0);
            check_validate(&q, 5, 3);
            check_validate(&q, 1000000, 1);
            if (round_no % 10 == 0)
                check_fallbacks(&q);
            problem_close(&q);
            problems++;
        }
        lattice_free(&lat);
        dataset_free(&ds);
    }
    printf("%d problems, %d heatmap passes checked\n", problems, heat_runs);
    CHECK(problems == 100);
    CHECK(heat_runs > 150);
    return check_exit();
}
