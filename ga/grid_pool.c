#include "ga/grid_pool.h"

#include <stdlib.h>
#include <string.h>

#include "fitness/strategy_class.h"

uint32_t grid_pool_size(uint32_t k)
{
    uint64_t m = (uint64_t)k * GRID_POOL_FACTOR;
    return m > GRID_POOL_MAX ? (k > GRID_POOL_MAX ? k : GRID_POOL_MAX) : (uint32_t)m;
}

void grid_pool_head(topk_t *top, const topk_t *pool)
{
    top->n = pool->n < top->k ? pool->n : top->k;
    memcpy(top->e, pool->e, (size_t)top->n * sizeof *top->e);
}

uint32_t grid_pool_last(uint32_t k)
{
    uint32_t g;
    while ((g = grid_pool_size(k)) > k)
        k = g;
    return k;
}

/* Where a chain of reruns growing from `from` candidates stops, read off
 * ranked[n], the pool of a longer pass: a shorter pass's pool is its prefix
 * (the top-K's order is total), so each size's test is the prefix's. */
static uint32_t chain_stop(const fit_tables_t *t, const ranked_genome_t *ranked, uint32_t n, uint32_t from, uint32_t k,
                           uint32_t *pick, uint32_t *n_pick)
{
    uint32_t size = from;
    for (;;) {
        uint32_t held = n < size ? n : size;
        strat_first(t, ranked, held, k, pick, n_pick);
        if (!(*n_pick < k && held == size && grid_pool_size(size) > size))
            return size;
        size = grid_pool_size(size);
    }
}

ev_status grid_pool_strategies(grid_run_fn run, grid_pool_decide_fn decide, const backend_ops_t *ops, backend_t *b,
                               const fit_problem_t *p, const fit_tables_t *t, const grid_opts_t *opts, uint32_t k,
                               topk_t *pool, ranked_genome_t **ranked, uint32_t *pick, uint32_t *n_pick, ev_error *err)
{
    grid_opts_t go = *opts;
    grid_stats_t gs;
    uint32_t jumped = 0; /* the next size of the chain, once a rerun went to its last size at once */
    int reruns = 0;
    ev_status st;
    go.progress = NULL;
    go.heat = NULL;
    go.hook = NULL; /* the reruns keep no checkpoint: they start from the first point */
    for (;;) {
        uint32_t grow;
        int more;
        if (!(*ranked = topk_ranked_new(pool, &p->shape)))
            return ev_fail(err, EV_ENOMEM, "out of memory for the grid's candidates");
        if (jumped) { /* the pool the chain of reruns would have ended with */
            pool->k = chain_stop(t, *ranked, pool->n, jumped, k, pick, n_pick);
            pool->n = pool->n < pool->k ? pool->n : pool->k;
        }
        strat_first(t, *ranked, pool->n, k, pick, n_pick);
        grow = grid_pool_size(pool->k);
        more = *n_pick < k && pool->n == pool->k && grow > pool->k;
        if (!(decide ? decide(more) : more))
            return EV_OK;
        free(*ranked);
        *ranked = NULL;
        if (reruns++) { /* a second rerun: the chain may go on to GRID_POOL_MAX, so go there at once */
            jumped = grow;
            grow = grid_pool_last(pool->k);
        }
        topk_free(pool);
        if ((st = topk_init(pool, grow, err)) != EV_OK || (st = run(ops, b, p, &go, pool, &gs, err)) != EV_OK)
            return st;
    }
}
