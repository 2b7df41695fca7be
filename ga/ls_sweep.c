/* Local search's two kinds of sweeps (ga/ls_sweep.h). */
#include "ga/ls_sweep.h"

#include <stddef.h>
#include <stdlib.h>

#include "fitness/exit_race.h"

/* ---- Tables: fitness/sweep.h. */

static uint32_t tables_n_values(const ls_sweep_t *s, int32_t k)
{
    return sweep_gene_values(s->t, k);
}

/* An exit gene's sweep reads every level of each kept trade, so a pair of
 * two exits costs the product of their value counts (trail x max_hold 21 x
 * 41): skip_exit_pairs leaves those to 1-gene moves, target x stop kept. */
static int exit_pair(const fit_tables_t *t, int32_t k1, int32_t k2)
{
    const int32_t l1 = sweep_exit_level(t, k1), l2 = sweep_exit_level(t, k2);
    return l1 && l2 && (l1 >= RACE_MORE || l2 >= RACE_MORE);
}

static int tables_pair_worth(const ls_sweep_t *s, int32_t k1, int32_t k2)
{
    return sweep_uses_sums(s->t, k1, k2) && !(s->skip_exit_pairs && exit_pair(s->t, k1, k2));
}

static uint64_t tables_cost(const ls_sweep_t *s, int32_t k1, int32_t k2)
{
    return sweep_cost(s->t, k1, k2);
}

static ev_status tables_gene(const ls_sweep_t *s, const uint16_t *genes, int32_t k, eval_result_t *out, ev_error *err)
{
    return sweep_gene_cached(s->t, s->cache, genes, k, out, err);
}

static ev_status tables_pair(const ls_sweep_t *s, const uint16_t *genes, int32_t k1, int32_t k2, eval_result_t *out,
                             ev_error *err)
{
    return sweep_pair_cached(s->t, s->cache, genes, k1, k2, out, err);
}

static ev_status tables_best(const ls_sweep_t *s, const uint16_t *genes, int32_t k1, int32_t k2, sweep_best_t *best,
                             ev_error *err)
{
    return sweep_best_cached(s->t, s->cache, genes, k1, k2, best, err);
}

static const ls_sweep_ops_t tables_ops = {tables_n_values, tables_pair_worth, tables_cost,
                                          tables_gene,     tables_pair,       tables_best};

ls_sweep_t ls_sweep_tables(const fit_tables_t *t, int32_t n_genes)
{
    ls_sweep_t s = {&tables_ops, n_genes, t, NULL, NULL, NULL, NULL, 0};
    return s;
}

/* ---- Batches for problems without tables: the neighbours through the
 * backend's evaluate op, so a device backend runs them as it runs a
 * generation. */

static uint32_t batch_n_values(const ls_sweep_t *s, int32_t k)
{
    return s->n_values[k];
}

static int batch_pair_worth(const ls_sweep_t *s, int32_t k1, int32_t k2)
{
    (void)s;
    (void)k1;
    (void)k2;
    return 1;
}

/* Every neighbour is one evaluation (a backtest for a strategy). */
static uint64_t batch_cost(const ls_sweep_t *s, int32_t k1, int32_t k2)
{
    return (uint64_t)s->n_values[k1] * (k2 < 0 ? 1u : s->n_values[k2]);
}

/* Evaluates the n = n1 x n2 neighbours of genes: neighbour v has gene k1 =
 * v / n2 and, with k2 >= 0, gene k2 = v % n2 (n2 = 1 without k2). */
static ev_status batch_run(const ls_sweep_t *s, const uint16_t *genes, int32_t k1, int32_t k2, eval_result_t *out,
                           ev_error *err)
{
    uint64_t n2 = k2 < 0 ? 1 : s->n_values[k2], n = s->n_values[k1] * n2;
    uint16_t *soa = (uint16_t *)malloc((size_t)n * (size_t)s->n_genes * sizeof *soa);
    ev_status st;
    if (!soa)
        return ev_fail(err, EV_ENOMEM, "out of memory for a local search batch (%llu genomes)", (unsigned long long)n);
    for (int32_t k = 0; k < s->n_genes; k++)
        for (uint64_t v = 0; v < n; v++)
            soa[(size_t)k * n + v] = k == k1 ? (uint16_t)(v / n2) : k == k2 ? (uint16_t)(v % n2) : genes[k];
    st = s->evaluate(s->b, soa, n, out, err);
    free(soa);
    return st;
}

static ev_status batch_gene(const ls_sweep_t *s, const uint16_t *genes, int32_t k, eval_result_t *out, ev_error *err)
{
    return batch_run(s, genes, k, -1, out, err);
}

static const ls_sweep_ops_t batch_ops = {batch_n_values, batch_pair_worth, batch_cost, batch_gene, batch_run, NULL};

ls_sweep_t ls_sweep_batch(int32_t n_genes, const uint32_t *n_values,
                          ev_status (*evaluate)(struct backend *b, const uint16_t *genes, uint64_t n,
                                                eval_result_t *out, ev_error *err),
                          struct backend *b)
{
    ls_sweep_t s = {&batch_ops, n_genes, NULL, n_values, evaluate, b, NULL, 0};
    return s;
}
