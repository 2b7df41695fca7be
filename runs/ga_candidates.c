#include "runs/ga_candidates.h"

#include <stdlib.h>
#include <string.h>

#include "fitness/accum.h"
#include "ga/grid_pool.h"

static int order(const void *a, const void *b)
{
    const ranked_genome_t *x = (const ranked_genome_t *)a, *y = (const ranked_genome_t *)b;
    return ranked_before(x, y) ? -1 : ranked_before(y, x) ? 1 : 0;
}

/* Sorts v[n], drops repeats (a genome is in many generations), keeps the
 * best cap; the new count. */
static uint32_t squeeze(ranked_genome_t *v, uint32_t n, uint32_t cap)
{
    uint32_t m = 0;
    qsort(v, n, sizeof *v, order);
    for (uint32_t i = 0; i < n && m < cap; i++)
        if (!m || order(&v[m - 1], &v[i]) != 0)
            v[m++] = v[i];
    return m;
}

/* One generation's columns. */
typedef struct {
    uint16_t *genes;
    double *fitness;
    int64_t *trades;
    uint8_t *feasible;
    uint64_t *index;
} gen_rows_t;

static ev_status read_gen(run_file_t *rf, uint32_t g, gen_rows_t *c, ev_error *err)
{
    ev_status st;
    if ((st = run_file_read_column(rf, COL_GENES, g, 1, c->genes, err)) != EV_OK ||
        (st = run_file_read_column(rf, COL_FITNESS_RAW, g, 1, c->fitness, err)) != EV_OK ||
        (st = run_file_read_column(rf, COL_TRADES, g, 1, c->trades, err)) != EV_OK ||
        (st = run_file_read_column(rf, COL_FEASIBLE, g, 1, c->feasible, err)) != EV_OK)
        return st;
    return rf->dims.has_index ? run_file_read_column(rf, COL_INDEX, g, 1, c->index, err) : EV_OK;
}

ev_status ga_candidates(run_file_t *rf, const topk_t *hof, ranked_genome_t **out, uint32_t *n, ev_error *err)
{
    const uint32_t cap = hof->n > GRID_POOL_MAX ? hof->n : GRID_POOL_MAX, pop = rf->dims.population,
                   ng = rf->dims.n_genes;
    ranked_genome_t *v = (ranked_genome_t *)malloc(((size_t)2 * cap + pop + 1) * sizeof *v);
    gen_rows_t c = {(uint16_t *)malloc(((size_t)pop * ng + 1) * sizeof *c.genes),
                    (double *)malloc(((size_t)pop + 1) * sizeof *c.fitness),
                    (int64_t *)malloc(((size_t)pop + 1) * sizeof *c.trades), (uint8_t *)malloc((size_t)pop + 1),
                    (uint64_t *)malloc(((size_t)pop + 1) * sizeof *c.index)};
    uint32_t m = hof->n;
    ranked_genome_t bar = {0}; /* the cap-th best so far, once known: a genome after it cannot enter */
    int have_bar = 0;
    ev_status st = v && c.genes && c.fitness && c.trades && c.feasible && c.index
                       ? EV_OK
                       : ev_fail(err, EV_ENOMEM, "out of memory gathering the GA's strategy candidates");
    if (st == EV_OK)
        memcpy(v, hof->e, (size_t)hof->n * sizeof *v);
    for (uint32_t g = 0; g < rf->generations && st == EV_OK; g++) {
        if ((st = read_gen(rf, g, &c, err)) != EV_OK)
            break;
        for (uint32_t i = 0; i < pop; i++) {
            ranked_genome_t *e = &v[m];
            if (!c.feasible[i])
                continue;
            memset(e, 0, sizeof *e);
            e->r.fitness = c.fitness[i];
            e->r.trades = c.trades[i];
            e->r.feasible = 1;
            e->key = rank_key(e->r);
            e->index = rf->dims.has_index ? c.index[i] : UINT64_MAX;
            memcpy(e->genes, c.genes + (size_t)i * ng, ng * sizeof *e->genes);
            m += !have_bar || order(e, &bar) < 0;
        }
        if (m >= 2 * cap && (m = squeeze(v, m, cap)) == cap) {
            bar = v[cap - 1];
            have_bar = 1;
        }
    }
    if (st == EV_OK) {
        *n = squeeze(v, m, cap);
        *out = v;
        v = NULL;
    }
    free(v);
    free(c.genes);
    free(c.fitness);
    free(c.trades);
    free(c.feasible);
    free(c.index);
    return st;
}
