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

ev_status grid_pool_strategies(grid_run_fn run, grid_pool_decide_fn decide, const backend_ops_t *ops, backend_t *b,
                               const fit_problem_t *p, const fit_tables_t *t, const grid_opts_t *opts, uint32_t k,
                               topk_t *pool, ranked_genome_t **ranked, uint32_t *pick, uint32_t *n_pick, ev_error *err)
{
    grid_opts_t go = *opts;
    grid_stats_t gs;
    ev_status st;
    go.progress = NULL;
    go.heat = NULL;
    go.hook = NULL; /* the reruns keep no checkpoint: they start from the first point */
    for (;;) {
        uint32_t grow;
        int more;
        if (!(*ranked = topk_ranked_new(pool, &p->shape)))
            return ev_fail(err, EV_ENOMEM, "out of memory for the grid's candidates");
        strat_first(t, *ranked, pool->n, k, pick, n_pick);
        grow = grid_pool_size(pool->k);
        more = *n_pick < k && pool->n == pool->k && grow > pool->k;
        if (!(decide ? decide(more) : more))
            return EV_OK;
        free(*ranked);
        *ranked = NULL;
        topk_free(pool);
        if ((st = topk_init(pool, grow, err)) != EV_OK || (st = run(ops, b, p, &go, pool, &gs, err)) != EV_OK)
            return st;
    }
}
