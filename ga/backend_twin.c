/* The test-only twin of the CPU backend (ga/backend_twin.h). */
#include "ga/backend_twin.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ga/cpu_ga.h"

typedef enum {
    TWIN_EXACT = 0,
    TWIN_FITNESS,
    TWIN_TRADES,
    TWIN_TOPK,
    TWIN_BREED,
    TWIN_CACHE,
    TWIN_GA_OOM,
    TWIN_FEASIBLE
} twin_mode;

static const char *const twin_modes[] = {"exact", "fitness", "trades", "topk", "breed", "cache", "ga-oom", "feasible"};
static twin_mode mode_now = TWIN_EXACT;

#define TWIN_GENOME 17u /* the genome an evaluate call gets wrong, unless EVOLVE_TEST_DEVICE_AT says */
static uint64_t fault_at = TWIN_GENOME;

struct backend {
    backend_t *cpu; /* the CPU backend's own state */
    twin_mode mode;
};

ev_status backend_twin_select(const char *mode, ev_error *err)
{
    for (int m = 0; m < (int)(sizeof twin_modes / sizeof twin_modes[0]); m++)
        if (!strcmp(mode, twin_modes[m])) {
            const char *at = getenv("EVOLVE_TEST_DEVICE_AT");
            mode_now = (twin_mode)m;
            fault_at = at && *at ? strtoull(at, NULL, 10) : TWIN_GENOME;
            return EV_OK;
        }
    return ev_fail(
        err, EV_EUSAGE,
        "EVOLVE_TEST_DEVICE: unknown twin mode '%s' (expected exact, fitness, trades, feasible, topk, breed, cache or "
        "ga-oom)",
        mode);
}

static void flip_low_bit(double *x)
{
    uint64_t bits;
    memcpy(&bits, x, sizeof bits);
    bits ^= 1u;
    memcpy(x, &bits, sizeof bits);
}

static ev_status twin_open(backend_t **out, const fit_problem_t *p, const tables_host_t *tables, ev_error *err)
{
    backend_t *b = (backend_t *)calloc(1, sizeof *b);
    ev_status st;
    *out = NULL;
    if (!b)
        return ev_fail(err, EV_ENOMEM, "out of memory");
    b->mode = mode_now;
    if ((st = backend_cpu_ops.open(&b->cpu, p, tables, err)) != EV_OK) {
        free(b);
        return st;
    }
    *out = b;
    return EV_OK;
}

static void twin_close(backend_t *b)
{
    if (!b)
        return;
    backend_cpu_ops.close(b->cpu);
    free(b);
}

static void twin_describe(backend_t *b, char *buf, size_t n)
{
    snprintf(buf, n, "test twin of the CPU backend (EVOLVE_TEST_DEVICE=%s), not a GPU", twin_modes[b->mode]);
}

/* Result `at` of an evaluate call wrong in one field (fitness, trades or
 * feasible); nothing for a call of fewer results or another mode. */
static void fault_one(twin_mode field, eval_result_t *out, uint64_t n, uint64_t at)
{
    if (n <= at)
        return;
    if (field == TWIN_FITNESS)
        flip_low_bit(&out[at].fitness);
    else if (field == TWIN_TRADES)
        out[at].trades += 1;
    else if (field == TWIN_FEASIBLE)
        out[at].feasible = !out[at].feasible;
}

static void corrupt_results(twin_mode mode, eval_result_t *out, uint64_t n)
{
    fault_one(mode, out, n, fault_at);
}

static void corrupt_topk(twin_mode mode, topk_t *top)
{
    if (mode == TWIN_TOPK && top->n > 0)
        flip_low_bit(&top->e[top->n - 1].r.fitness);
}

void backend_twin_corrupt_results(eval_result_t *out, uint64_t n)
{
    corrupt_results(mode_now, out, n);
}

void backend_twin_corrupt_topk(topk_t *top)
{
    corrupt_topk(mode_now, top);
}

void backend_twin_flip_fitness(eval_result_t *out, uint64_t n)
{
    fault_one(TWIN_FITNESS, out, n, TWIN_GENOME);
}

void backend_twin_device_fault(eval_result_t *out, uint64_t n, const char *spec)
{
    const char *colon = strchr(spec, ':');
    const size_t len = colon ? (size_t)(colon - spec) : strlen(spec);
    twin_mode field = TWIN_FITNESS;
    if (len == 6 && !strncmp(spec, "trades", 6))
        field = TWIN_TRADES;
    else if (len == 8 && !strncmp(spec, "feasible", 8))
        field = TWIN_FEASIBLE;
    fault_one(field, out, n, colon ? strtoull(colon + 1, NULL, 10) : TWIN_GENOME);
}

const char *backend_twin_mode(void)
{
    return twin_modes[mode_now];
}

static ev_status twin_evaluate(backend_t *b, const uint16_t *genes, uint64_t n, eval_result_t *out, ev_error *err)
{
    ev_status st = backend_cpu_ops.evaluate(b->cpu, genes, n, out, err);
    if (st == EV_OK)
        corrupt_results(b->mode, out, n);
    return st;
}

static ev_status twin_grid_batch(backend_t *b, uint64_t first, uint64_t count, topk_t *top, ev_error *err)
{
    ev_status st = backend_cpu_ops.grid_batch(b->cpu, first, count, top, err);
    if (st == EV_OK)
        corrupt_topk(b->mode, top);
    return st;
}

static uint64_t twin_grid_batch_max(backend_t *b)
{
    return backend_cpu_ops.grid_batch_max(b->cpu);
}

static ev_status twin_grid_dominance(backend_t *b, const dominance_opts_t *opts, topk_t *top, ev_error *err)
{
    return backend_cpu_ops.grid_dominance(b->cpu, opts, top, err);
}

/* The GA ops are the CPU's (their state evaluates through the plan's
 * evaluate, this twin's), with breed and the cache export corrupted. */
static ev_status twin_ga_open(backend_t *b, const ga_plan_t *plan, ga_state_t **g, ev_error *err)
{
    /* the plan's evaluate_b is this twin (ga_run, the probe): breed and the
     * export read the mode from it */
    if (b->mode == TWIN_GA_OOM && plan->ctx.population > 512) /* the probe's GA (<= 512) still fits */
        return ev_fail(err, EV_ENOMEM, "the GA population of %u does not fit the twin's pretend device memory",
                       plan->ctx.population);
    return cpu_ga_open(NULL, plan, g, err);
}

static ev_status twin_ga_breed(ga_state_t *g, uint32_t generation, const breed_island_t *islands, ev_error *err)
{
    ev_status st = cpu_ga_breed(g, generation, islands, err);
    const backend_t *b = (const backend_t *)g->plan.evaluate_b;
    if (st == EV_OK && b && b->mode == TWIN_BREED && g->pop > 1 && g->plan.ctx.n_values[0] > 1)
        g->genes[1] = (uint16_t)((g->genes[1] + 1u) % g->plan.ctx.n_values[0]);
    return st;
}

static ev_status twin_ga_cache_export(ga_state_t *g, uint64_t *index, eval_result_t *results, ev_error *err)
{
    ev_status st = cpu_ga_cache_export(g, index, results, err);
    const backend_t *b = (const backend_t *)g->plan.evaluate_b;
    if (st == EV_OK && b && b->mode == TWIN_CACHE && cpu_ga_cache_count(g) > 0)
        flip_low_bit(&results[0].fitness);
    return st;
}

const backend_ops_t backend_twin_ops = {
    .name = "twin",
    .open = twin_open,
    .close = twin_close,
    .describe = twin_describe,
    .evaluate = twin_evaluate,
    .grid_batch = twin_grid_batch,
    .grid_batch_max = twin_grid_batch_max,
    .grid_dominance = twin_grid_dominance,
    .ga_open = twin_ga_open,
    .ga_close = cpu_ga_close,
    .ga_init_population = cpu_ga_init_population,
    .ga_set_population = cpu_ga_set_population,
    .ga_evaluate = cpu_ga_evaluate,
    .ga_rank = cpu_ga_rank,
    .ga_breed = twin_ga_breed,
    .ga_download = cpu_ga_download,
    .ga_cache_count = cpu_ga_cache_count,
    .ga_cache_export = twin_ga_cache_export,
    .ga_cache_import = cpu_ga_cache_import,
};
