/* The types the GA driver and a backend's GA ops exchange (ga/backend.h,
 * docs/ga.md). PODs where a device may write them. */
#ifndef EVOLVE_GA_TYPES_H
#define EVOLVE_GA_TYPES_H

#include <math.h>
#include <stdint.h>

#include "common/hd.h"
#include "common/status.h"
#include "fitness/accum.h"
#include "fitness/lattice.h"
#include "fitness/ranked.h"
#include "operators/breed_ctx.h"

EV_STATIC_ASSERT(GA_MAX_GENES == EV_MAX_PARAMS, "a genome has one gene per lattice parameter");

/* One evaluated genome, as the hall of fame and a generation's new top-K hold
 * it. Order: ranked_before (fitness/ranked.h). */
typedef ranked_genome_t ga_hof_entry_t;

/* An entry of a genome (n_genes genes, the rest 0), its linear index
 * (index_words words; `index` holds it only when it is one word, else
 * UINT64_MAX) and its result: the one definition for every backend. */
EV_HD void ga_entry_make(ga_hof_entry_t *x, const uint16_t *genes, int32_t n_genes, const uint64_t *index,
                         int32_t index_words, eval_result_t r)
{
    x->key = rank_key(r);
    x->index = index_words == 1 ? index[0] : UINT64_MAX;
    x->r = r;
    for (int32_t k = 0; k < GA_MAX_GENES; k++)
        x->genes[k] = k < n_genes ? genes[k] : (uint16_t)0;
}

/* ga_rank_out_t.median of n >= 1 values sorted ascending, for every backend:
 * the value at ga_median_hi (n odd), else the mean of the values at
 * ga_median_lo and ga_median_hi. */
EV_HD uint64_t ga_median_lo(uint64_t n)
{
    return (n - 1) / 2;
}

EV_HD uint64_t ga_median_hi(uint64_t n)
{
    return n / 2;
}

EV_HD double ga_median_of(uint64_t n, double at_lo, double at_hi)
{
    if (n % 2)
        return at_hi;
    if (inf_rank_is(at_hi)) /* a +inf rank value is +inf: so is the mean of the two */
        return inf_rank_is(at_lo) ? at_lo : ev_pos_inf();
    return (at_lo + at_hi) / 2.0;
}

/* ga_rank_out_t.mean and .std (population) of the finite values among
 * x[0..n), summed in index order, for every backend: x[i] is individual i's
 * fitness, NaN where it is infeasible. One order everywhere, so that these
 * statistics too are equal bit for bit on the CPU and a device (the device
 * copies its values back for this: tree sums would differ in the last bits). */
EV_HD void ga_mean_std_of(const double *x, uint32_t n, double *mean, double *std)
{
    uint64_t finite = 0;
    double sum = 0.0, ss = 0.0, m;
    for (uint32_t i = 0; i < n; i++)
        if (isfinite(x[i]) && !inf_rank_is(x[i])) { /* a +inf rank value is +inf */
            sum += x[i];
            finite++;
        }
    m = finite ? sum / (double)finite : 0.0;
    for (uint32_t i = 0; i < n; i++)
        if (isfinite(x[i]) && !inf_rank_is(x[i]))
            ss += (x[i] - m) * (x[i] - m);
    *mean = m;
    *std = finite ? sqrt(ss / (double)finite) : 0.0;
}

#ifdef __cplusplus
extern "C" {
#endif

struct backend;

/* Everything a backend's GA needs for one run (ga_plan_build). */
typedef struct {
    breed_ctx_t ctx;         /* operators, seed, islands, the lattice's value counts */
    int32_t index_words;     /* words of a linear index (genome_index_words) */
    uint32_t top_k;          /* size of a generation's new top-K (ga_eval_out_t.top), >= 1 */
    uint64_t cache_capacity; /* genomes the dedup cache must hold (ga_cache_capacity) */
    uint64_t gene_values;    /* sum of n_values: the length of ga_rank_out_t.gene_counts */
    /* How a host-resident GA evaluates new genomes: the selected backend's
     * evaluate. A device-resident GA evaluates on its device and ignores it. */
    ev_status (*evaluate)(struct backend *b, const uint16_t *genes, uint64_t n, eval_result_t *out, ev_error *err);
    struct backend *evaluate_b;
} ga_plan_t;

/* ga_evaluate's answer: small, so it crosses from a device every generation. */
typedef struct {
    uint64_t distinct;   /* distinct genomes in the population */
    uint64_t new_evals;  /* of those, not in the cache before: evaluated now (once each) */
    int32_t cache_full;  /* 1: the new genomes would take the cache past cache_capacity; nothing
                            was evaluated, inserted or changed, and the run must stop */
    uint32_t n_top;      /* entries written to top */
    ga_hof_entry_t *top; /* caller's [top_k]: the best feasible new genomes, best first */
} ga_eval_out_t;

/* ga_rank's answer. mean and std are for reports only: their summation order
 * is the backend's, so their last bits may differ between backends. Every
 * other field is exact. */
typedef struct {
    uint32_t *island_unique; /* caller's [islands]: distinct genomes per island (or NULL) */
    uint32_t *gene_counts;   /* caller's [gene_values]: individuals with gene k = v at
                                sum_{j<k} n_values[j] + v (or NULL) */
    uint64_t feasible;       /* feasible individuals */
    double best;             /* the best feasible fitness (0 when none) */
    double median;           /* of the feasible fitness: the middle one, or the mean of the two */
    double mean, std;        /* of the finite feasible fitness (population std, divides by n) */
} ga_rank_out_t;

#ifdef __cplusplus
}
#endif

#endif
