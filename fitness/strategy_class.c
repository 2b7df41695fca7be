#include "fitness/strategy_class.h"

#include <stdlib.h>
#include <string.h>

/* Trade j's exit under g: same reason, second and outcome. */
static int same_exit(const fit_tables_t *t, int64_t j, const tables_exits_t *a, const tables_exits_t *b)
{
    int32_t oa, ob;
    int64_t qa, qb, la, lb;
    int32_t ra = tables_first_exit(t, j, a, &oa, &qa, &la);
    int32_t rb = tables_first_exit(t, j, b, &ob, &qb, &lb);
    return ra == rb && oa == ob && qa == qb;
}

/* Trade j's verdict under the filters of g that mask leaves out (1: kept). */
static int kept_but(const fit_tables_t *t, int64_t j, const tables_genome_t *g, uint32_t mask)
{
    const uint16_t *c = t->cells + j * t->n_filters;
    int keep = 1;
    for (int32_t f = 0; f < t->n_filters; f++)
        keep &= ((mask >> f) & 1u) || g->gf[f] < c[f];
    return keep;
}

int strat_same(const fit_tables_t *t, const uint16_t *a, const uint16_t *b)
{
    tables_genome_t ga, gb;
    uint32_t diff = 0; /* the filters whose genes differ */
    int same_x;
    tables_genome(t, a, &ga);
    tables_genome(t, b, &gb);
    /* strat_range varies one gene: a trade the differing filters judge alike
     * is kept by both or neither, and equal exits race alike, so only the
     * trades at a differing filter's edge, or the races, are compared (they
     * were most of the end of a run on the exit-role lattices:
     * bench/RESULTS.md) */
    for (int32_t f = 0; f < t->n_filters; f++)
        diff |= (uint32_t)(ga.gf[f] != gb.gf[f]) << f;
    same_x = memcmp(&ga.x, &gb.x, sizeof ga.x) == 0;
    if (!diff && same_x)
        return 1;
    for (int64_t j = 0; j < t->n_trades; j++) {
        const uint16_t *c = t->cells + j * t->n_filters;
        int da = 1, db = 1, ka;
        for (int32_t f = 0; diff >> f; f++)
            if ((diff >> f) & 1u) {
                da &= ga.gf[f] < c[f];
                db &= gb.gf[f] < c[f];
            }
        if (da != db) { /* kept by one: unless the other filters drop it */
            if (kept_but(t, j, &ga, diff))
                return 0;
            continue;
        }
        if (same_x || !da)
            continue;
        ka = kept_but(t, j, &ga, diff);
        if (ka && !same_exit(t, j, &ga.x, &gb.x))
            return 0;
    }
    return 1;
}

int strat_same_ranked(const fit_tables_t *t, const ranked_genome_t *a, const ranked_genome_t *b)
{
    return a->key == b->key && strat_same(t, a->genes, b->genes);
}

/* The kept trades of genes, when gene k is an exit's (NULL for a filter's, or
 * without memory): a range over an exit gene keeps them all, so only their
 * races are compared (strat_same scanned every trade per value). */
static int64_t *range_kept(const fit_tables_t *t, const uint16_t *genes, int32_t k, int64_t *n)
{
    tables_genome_t g;
    int64_t *kept;
    *n = 0;
    for (int32_t f = 0; f < t->n_filters; f++)
        if (t->filter_param[f] == k)
            return NULL;
    if (!(kept = (int64_t *)malloc(((size_t)t->n_trades + 1) * sizeof *kept)))
        return NULL;
    tables_genome(t, genes, &g);
    for (int64_t j = 0; j < t->n_trades; j++)
        if (tables_kept(t, j, &g))
            kept[(*n)++] = j;
    return kept;
}

/* strat_same(t, genes, g) where g differs from genes in exit gene k only and
 * kept (n) are genes' kept trades; strat_same where kept is NULL. */
static int range_same(const fit_tables_t *t, const uint16_t *genes, const uint16_t *g, const int64_t *kept, int64_t n)
{
    tables_genome_t ga, gb;
    if (!kept)
        return strat_same(t, genes, g);
    tables_genome(t, genes, &ga);
    tables_genome(t, g, &gb);
    for (int64_t i = 0; i < n; i++)
        if (!same_exit(t, kept[i], &ga.x, &gb.x))
            return 0;
    return 1;
}

void strat_range(const fit_tables_t *t, const uint16_t *genes, int32_t k, uint32_t n_values, uint16_t *lo, uint16_t *hi)
{
    uint16_t g[EV_MAX_PARAMS];
    int64_t n;
    int64_t *kept = range_kept(t, genes, k, &n);
    memcpy(g, genes, sizeof g);
    *lo = *hi = genes[k];
    for (g[k] = genes[k]; g[k] > 0;) {
        g[k]--;
        if (!range_same(t, genes, g, kept, n))
            break;
        *lo = g[k];
    }
    for (g[k] = genes[k]; (uint32_t)g[k] + 1 < n_values;) {
        g[k]++;
        if (!range_same(t, genes, g, kept, n))
            break;
        *hi = g[k];
    }
    free(kept);
}

void strat_first(const fit_tables_t *t, const ranked_genome_t *e, uint32_t n, uint32_t k, uint32_t *pick,
                 uint32_t *n_pick)
{
    uint32_t m = 0;
    for (uint32_t i = 0; i < n && m < k; i++) {
        uint32_t j;
        for (j = 0; j < m && !strat_same_ranked(t, &e[pick[j]], &e[i]); j++)
            ;
        if (j == m)
            pick[m++] = i;
    }
    *n_pick = m;
}

void strat_group(const fit_tables_t *t, const lattice_shape_t *shape, const ranked_genome_t *e, uint32_t n,
                 strat_entry_t *out, uint32_t *n_strategies)
{
    uint32_t m = 0;
    memset(out, 0, (size_t)n * sizeof *out);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t j;
        for (j = 0; j < i && !(out[j].first && strat_same_ranked(t, &e[j], &e[i])); j++)
            ;
        if (j < i) {
            out[i].cls = out[j].cls;
            continue;
        }
        out[i].cls = m++;
        out[i].first = 1;
        for (int32_t k = 0; k < shape->n_params; k++)
            strat_range(t, e[i].genes, k, shape->n_values[k], &out[i].lo[k], &out[i].hi[k]);
    }
    *n_strategies = m;
}
