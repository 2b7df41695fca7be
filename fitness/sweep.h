/* Exact neighbourhood sweeps (docs/ga.md "Local search"): for a genome, the
 * fitness of every value of one gene, or of every pair of values of two genes,
 * with the other genes fixed, from one pass over the trades the other genes
 * keep.
 *
 *  - a filter gene: a trade the other genes keep is kept by value v' (the gene,
 *    mirrored for direction max) iff v' < its cell, so the sums of value v' are
 *    the suffix sum over cells > v' of per-cell sums (the grid's dominance
 *    trick in one dimension; two filters: a 2-D suffix sum);
 *  - the target or the stop: each kept trade's outcome under every level from
 *    the first-hit tables (tables_outcome), summed per level in equity order.
 *
 * Sums are integers (fitness/accum.h), so every value's result equals
 * tables_eval of that neighbour bit for bit. Suffix sums need additive sums:
 * objectives and constraints on the equity curve's drawdown (calmar,
 * max_drawdown_pct) are not additive, and sweeps over a filter gene then fall
 * back to plain evaluation of each neighbour (tables_eval), which
 * sweep_uses_sums says; target and stop sweeps stay one pass for every
 * objective (each level's trades are added in equity order). */
#ifndef EVOLVE_SWEEP_H
#define EVOLVE_SWEEP_H

#include <stdint.h>

#include "common/status.h"
#include "fitness/accum.h"
#include "fitness/sweep_cache.h"
#include "fitness/tables.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Values of gene k (the lattice's count for that parameter). */
uint32_t sweep_gene_values(const fit_tables_t *t, int32_t k);

/* 1 when a sweep over gene k1 (and k2, or -1) is one pass with sums; 0 when
 * it falls back to plain evaluation of every neighbour (a filter gene under a
 * drawdown objective or constraint). */
int sweep_uses_sums(const fit_tables_t *t, int32_t k1, int32_t k2);

/* Gene k's race level (fitness/exit_race.h: RACE_TARGET, RACE_STOP,
 * RACE_MORE + role); 0 for a filter or k < 0. */
int32_t sweep_exit_level(const fit_tables_t *t, int32_t k);

/* What a sweep costs, in genome evaluations, as the GA's budget counts it:
 * a fallback sweep the number of neighbours it evaluates; a one-pass sweep
 * the number of outcome levels it reads per kept trade (1 for filters only,
 * the target's or stop's value count, or both multiplied), since each level
 * is about one evaluation's work. */
uint64_t sweep_cost(const fit_tables_t *t, int32_t k1, int32_t k2);

/* out[v] = the fitness of genes with gene k set to v, for every value v of
 * gene k (genes itself is not changed). */
ev_status sweep_gene(const fit_tables_t *t, const uint16_t *genes, int32_t k, eval_result_t *out, ev_error *err);

/* out[v1 * n2 + v2] = the fitness of genes with gene k1 = v1 and k2 = v2
 * (k1 != k2; n2 = sweep_gene_values(t, k2)). */
ev_status sweep_pair(const fit_tables_t *t, const uint16_t *genes, int32_t k1, int32_t k2, eval_result_t *out,
                     ev_error *err);

/* The same, with the genome's fixed exits read from cache's columns
 * (fitness/sweep_cache.h: brought to the genome's exits first; NULL: from
 * the tables): one cache through a climb's many sweeps of one genome. */
ev_status sweep_gene_cached(const fit_tables_t *t, sweep_cache_t *cache, const uint16_t *genes, int32_t k,
                            eval_result_t *out, ev_error *err);
ev_status sweep_pair_cached(const fit_tables_t *t, sweep_cache_t *cache, const uint16_t *genes, int32_t k1, int32_t k2,
                            eval_result_t *out, ev_error *err);

/* The best value of a sweep as a climb takes it (ga/local_search.c): the
 * highest rank_key, ties to the lowest value index. */
typedef struct {
    uint64_t at;     /* v of a gene sweep, v1 * n2 + v2 of a pair's */
    uint64_t key;    /* its rank_key */
    eval_result_t r; /* its result; key 0 (every value infeasible): value 0's */
} sweep_best_t;

/* *best of out[n], a sweep's whole array. */
void sweep_best_of(const eval_result_t *out, uint64_t n, sweep_best_t *best);

/* *best of sweep_gene_cached (k2 < 0) or sweep_pair_cached's values,
 * without their whole array: a value is not finished when it cannot beat
 * one before it (fewer kept trades than min_trades: infeasible; the same
 * trades or sums as the value finished before it: the same result), which
 * saves most of a climb's divisions and square roots. */
ev_status sweep_best_cached(const fit_tables_t *t, sweep_cache_t *cache, const uint16_t *genes, int32_t k1, int32_t k2,
                            sweep_best_t *best, ev_error *err);

#ifdef __cplusplus
}
#endif
#endif
