/* What local search climbs with (docs/ga.md "Local search"): for a genome,
 * the fitness of every value of one gene, or of every value pair of two
 * genes, the other genes fixed. Two kinds: exact sweeps of a trade log's
 * first-hit tables (fitness/sweep.h), and, for problems without tables
 * (strategies), one batch of the neighbours through a backend's evaluate op,
 * whose results are those of evaluating each neighbour alone. */
#ifndef EVOLVE_LS_SWEEP_H
#define EVOLVE_LS_SWEEP_H

#include <stdint.h>

#include "common/status.h"
#include "fitness/accum.h"
#include "fitness/sweep.h"
#include "fitness/sweep_cache.h"
#include "fitness/tables.h"

#ifdef __cplusplus
extern "C" {
#endif

struct backend;
typedef struct ls_sweep ls_sweep_t;

typedef struct {
    /* Values of gene k. */
    uint32_t (*n_values)(const ls_sweep_t *s, int32_t k);
    /* 0 when the pair sweep k1, k2 is not worth running (tables: it would
     * fall back to one evaluation per neighbour, or it is an exit pair that
     * skip_exit_pairs skips). */
    int (*pair_worth)(const ls_sweep_t *s, int32_t k1, int32_t k2);
    /* The sweep over k1 (and k2, or -1) in genome evaluations, as the GA's
     * budget counts it. */
    uint64_t (*cost)(const ls_sweep_t *s, int32_t k1, int32_t k2);
    /* out[v]: genes with gene k = v (genes not changed). */
    ev_status (*gene)(const ls_sweep_t *s, const uint16_t *genes, int32_t k, eval_result_t *out, ev_error *err);
    /* out[v1 * n2 + v2]: genes with gene k1 = v1, k2 = v2 (k1 != k2). */
    ev_status (*pair)(const ls_sweep_t *s, const uint16_t *genes, int32_t k1, int32_t k2, eval_result_t *out,
                      ev_error *err);
    /* *best of gene's (k2 < 0) or pair's values without their array
     * (fitness/sweep.h's sweep_best_t); NULL: the climb takes it from the array. */
    ev_status (*best)(const ls_sweep_t *s, const uint16_t *genes, int32_t k1, int32_t k2, sweep_best_t *best,
                      ev_error *err);
} ls_sweep_ops_t;

struct ls_sweep {
    const ls_sweep_ops_t *ops;
    int32_t n_genes;
    const fit_tables_t *t;    /* tables sweeps */
    const uint32_t *n_values; /* batch sweeps: [n_genes] */
    ev_status (*evaluate)(struct backend *b, const uint16_t *genes, uint64_t n, eval_result_t *out, ev_error *err);
    struct backend *b;
    sweep_cache_t *cache; /* tables sweeps: a climb's exit columns (ls_climb's), or NULL */
    /* tables: 1 skips pairs of two exit genes other than target x stop
     * (ga_settings_t.ls_exit_pairs 0); ls_sweep_tables sets 0 */
    int skip_exit_pairs;
};

/* Sweeps of the host tables t (results and costs of fitness/sweep.h). */
ls_sweep_t ls_sweep_tables(const fit_tables_t *t, int32_t n_genes);

/* Sweeps as batches of genomes (SoA, as the backend op takes them) through
 * evaluate(b, ...): a gene sweep costs n_values[k] evaluations, a pair sweep
 * n1 x n2; every pair is worth it (LS_PAIR_MAX still bounds it). */
ls_sweep_t ls_sweep_batch(int32_t n_genes, const uint32_t *n_values,
                          ev_status (*evaluate)(struct backend *b, const uint16_t *genes, uint64_t n,
                                                eval_result_t *out, ev_error *err),
                          struct backend *b);

#ifdef __cplusplus
}
#endif
#endif
