/* What a CPU grid pass does with every lattice point it evaluates: offer it
 * to a top-K, fold it into a heatmap, count it when it beats a key. Any part
 * may be absent. The tables pass (ga/backend_cpu.c), the dominance sums
 * (fitness/dominance.c) and the reference evaluator (ga/grid.c) all feed
 * points through this one interface, so a heatmap or a count comes out of the
 * pass that finds the top-K rather than from a second pass.
 *
 * Threads: each thread gets an empty local twin (grid_sink_local), offers
 * its points to it, and merges it into the shared sink under a lock. Every
 * part is order-independent (top-K: a total order; heatmap: max; count: sum),
 * so the result does not depend on the thread count. */
#ifndef EVOLVE_GRID_SINK_H
#define EVOLVE_GRID_SINK_H

#include <stdint.h>
#include <string.h>

#include "common/progress.h"
#include "common/status.h"
#include "fitness/accum.h"
#include "fitness/topk.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The best rank_key per (x value, y value) cell of two chosen parameters,
 * over every value of the other parameters: the data of the report's
 * heatmap. key[x * ny + y]; 0 where no point of the cell is feasible. */
typedef struct {
    int32_t px, py;  /* gene positions of the two parameters (px != py) */
    uint32_t nx, ny; /* their value counts */
    uint64_t *key;   /* [nx * ny] */
} grid_heat_t;

/* Largest heatmap kept (cells): 1024 x 1024 values is far past legibility. */
#define GRID_HEAT_MAX_CELLS ((uint64_t)1 << 20)

/* Allocates a zeroed heatmap; EV_ECONFIG when nx * ny > GRID_HEAT_MAX_CELLS. */
ev_status grid_heat_init(grid_heat_t *h, int32_t px, int32_t py, uint32_t nx, uint32_t ny, ev_error *err);
void grid_heat_free(grid_heat_t *h);

static inline void grid_heat_offer(grid_heat_t *h, const uint16_t *genes, uint64_t key)
{
    uint64_t *cell = &h->key[(uint64_t)genes[h->px] * h->ny + genes[h->py]];
    if (key > *cell)
        *cell = key;
}

/* dst = max(dst, src) cell by cell (same shape). */
void grid_heat_merge(grid_heat_t *dst, const grid_heat_t *src);

typedef struct {
    topk_t *top;       /* or NULL */
    grid_heat_t *heat; /* or NULL */
    int count_better;  /* 1: count the points whose rank_key is > better_than */
    uint64_t better_than;
    uint64_t count; /* that count (added to by merges) */
    /* local twins own their parts */
    topk_t own_top;
    grid_heat_t own_heat;
    /* a local twin of a long top-K (GRID_SINK_PEND_MIN_K): the offers its bar
     * admits wait here and enter in batches (topk_insert_many), since one by
     * one each would move O(k) entries; NULL: offered one by one */
    ranked_genome_t *pend;
    uint32_t n_pend, cap_pend;
} grid_sink_t;

/* The shortest top-K whose local twins batch their offers. */
#define GRID_SINK_PEND_MIN_K 256u

/* A sink that offers to top and folds into heat (either may be NULL). */
static inline grid_sink_t grid_sink_of(topk_t *top, grid_heat_t *heat)
{
    grid_sink_t s = {0};
    s.top = top;
    s.heat = heat;
    return s;
}

/* An empty thread-local twin of shared (same parts, same sizes). */
ev_status grid_sink_local(grid_sink_t *local, const grid_sink_t *shared, ev_error *err);
void grid_sink_local_free(grid_sink_t *local);

/* The waiting offers into the top-K. */
void grid_sink_flush(grid_sink_t *s);

/* An offer that passes the top-K's bar, to wait for the next batch. */
static inline void grid_sink_pend(grid_sink_t *s, uint64_t index, eval_result_t r)
{
    uint64_t key = rank_key(r);
    ranked_genome_t *x;
    if (!topk_would_enter(s->top, key, index))
        return;
    x = &s->pend[s->n_pend++];
    memset(x, 0, sizeof *x);
    x->key = key;
    x->index = index;
    x->r = r;
    if (s->n_pend == s->cap_pend)
        grid_sink_flush(s);
}

/* One evaluated point: its linear index, genes and result. */
static inline void grid_sink_offer(grid_sink_t *s, uint64_t index, const uint16_t *genes, eval_result_t r)
{
    uint64_t key;
    if (s->top && s->pend)
        grid_sink_pend(s, index, r);
    else if (s->top)
        topk_offer(s->top, index, r);
    if (!s->heat && !s->count_better)
        return;
    key = rank_key(r);
    if (s->heat)
        grid_heat_offer(s->heat, genes, key);
    s->count += (uint64_t)(s->count_better && key > s->better_than);
}

/* Folds a local twin (its waiting offers first) into the shared sink (the
 * caller holds the lock). */
void grid_sink_merge(grid_sink_t *shared, grid_sink_t *local);

/* Where a grid pass starts and whom it tells after each block: the grid's
 * checkpoint (runs/grid_resume.h). A pass counts its points in its own order
 * (the tables by linear index, the dominance sums by exit combination, then
 * block), so start and done are points of that order. */
typedef struct {
    uint64_t start; /* points already in the sink: a block boundary of the pass (0: from the first) */
    /* after every block, every point of [0, done) in the sink; a status other
     * than EV_OK ends the pass with it */
    ev_status (*at)(void *ctx, uint64_t done, ev_error *err);
    void *ctx;
} grid_progress_hook_t;

/* After a pass's block: the progress line, the hook (NULL: none), then
 * Ctrl-C, answered only while points are left. */
ev_status grid_pass_step(const grid_progress_hook_t *hook, progress_t *prog, uint64_t done, uint64_t size,
                         ev_error *err);

#ifdef __cplusplus
}
#endif
#endif
