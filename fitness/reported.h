/* A reported list: ranked genomes (best first) and the objective value a
 * trader reads for each, as the top-K table, the JSON and the run file show
 * them (SPEC sec. 5).
 *
 * For every objective but compound the value is the fitness itself. compound
 * is ranked by the exact sum of quantised log factors, but its value is
 * (prod(1 + o_j/100) - 1) * 100 over the kept trades' quantised outcomes in
 * dataset order (-100 on ruin): a double product, whose bits depend on the
 * order, so it is computed here on the host, for the few genomes a run
 * reports, from the first-hit tables. Per-generation statistics and heatmaps
 * keep objective_display of the rank key (equal to within ~1e-9 %). */
#ifndef EVOLVE_REPORTED_H
#define EVOLVE_REPORTED_H

#include <stdint.h>

#include "common/status.h"
#include "fitness/baseline.h"
#include "fitness/problem.h"
#include "fitness/ranked.h"
#include "fitness/strategy_class.h"
#include "fitness/tables.h"
#include "fitness/trade_stats.h"
#include "fitness/validation.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct reported_base_s reported_base_t;

typedef struct reported_s {
    const ranked_genome_t *e; /* not owned */
    double *value;            /* value[n], owned */
    uint32_t n;
    /* With a validation: block: each genome per part (val->row[i]), owned,
     * and the split of the days (not owned); both NULL otherwise. */
    val_rows_t *val;
    const val_split_t *split;
    /* rank_by: plateau: e points here, the list reordered (owned), else NULL. */
    ranked_genome_t *own_e;
    /* stats[n], owned: each genome's kept trades on the search's data (the
     * in-sample trades with a validation: block). */
    trade_stats_t *stats;
    /* The baselines the list is compared with (fitness/baseline.h), owned;
     * NULL: none (a strategy config, or a list no run reports). */
    reported_base_t *base;
    /* The list grouped into strategies (fitness/strategy_class.h), owned;
     * NULL: not grouped (a strategy config has no tables). */
    strat_entry_t *strat;
    uint32_t n_strat;
    /* The next strategies below the list, so that the list's and these make
     * the K best (reported_more), owned; NULL: none. more->e[i] is the best
     * genome of one strategy, at rank more_rank[i] of the whole ranking. */
    struct reported_s *more;
    uint32_t *more_rank;
    /* Basins (fitness/reported_groups.h), owned; NULL: not grouped. basin[n]
     * (and more->basin) is each entry's basin, numbered in list order; peaks
     * the basins' peaks, one genome each, in that order. */
    uint32_t *basin;
    struct reported_s *peaks;
} reported_t;

/* The baselines of a reported list: row i is baseline kind[i] at point[i],
 * reported as a list of one genome (its genes 0 on its one-point lattice:
 * e[i], with the value, statistics and validation rows of rep[i]). */
struct reported_base_s {
    uint32_t n;
    int32_t kind[BASELINE_KINDS];
    baseline_point_t point[BASELINE_KINDS];
    ranked_genome_t e[BASELINE_KINDS];
    reported_t rep[BASELINE_KINDS];
};

/* t: the problem's tables (trades in equity order, p->order). */
ev_status reported_make(reported_t *r, const fit_problem_t *p, const fit_tables_t *t, const ranked_genome_t *e,
                        uint32_t n, ev_error *err);
void reported_free(reported_t *r);

/* Groups r's list (in its final order) into strategies on t, p's tables. */
ev_status reported_strategies(reported_t *r, const fit_problem_t *p, const fit_tables_t *t, ev_error *err);

/* Adds the strategies below r's list: e[n] (each a strategy of its own, not
 * in the list, best first; copied), at ranks rank[n] of the whole ranking. */
ev_status reported_more(reported_t *r, const fit_problem_t *p, const fit_tables_t *t, const ranked_genome_t *e,
                        const uint32_t *rank, uint32_t n, ev_error *err);

/* Rank 1 of top less baseline row i of top->base (top->n >= 1): the reported
 * value, trades, win rate and max drawdown (in-sample with validation). */
void reported_base_diff(const reported_t *top, uint32_t i, double *fitness, double *trades, double *win_rate,
                        double *max_drawdown);

#ifdef __cplusplus
}
#endif
#endif
