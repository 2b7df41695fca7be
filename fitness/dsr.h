/* The deflated Sharpe ratio (Bailey and Lopez de Prado, "The Deflated Sharpe
 * Ratio", 2014) of a reported genome, from its per-trade outcomes:
 *
 *   SR0 = sqrt(V) ((1 - g) Z(1 - 1/N) + g Z(1 - 1/(N e)))   (expected max SR of N trials)
 *   DSR = Phi((SR - SR0) sqrt(T - 1) / sqrt(1 - s3 SR + (s4 - 1) / 4 SR^2))
 *
 * SR: the per-trade Sharpe ratio (mean / sample standard deviation, SPEC
 * sec. 5), s3 / s4 the outcomes' skewness and (non-excess) kurtosis, T the
 * trades, N the trials (unique genomes evaluated), V the variance of the
 * per-trade Sharpe ratio over evaluated genomes, g Euler-Mascheroni's
 * constant, Z the standard normal quantile, Phi its distribution. */
#ifndef EVOLVE_DSR_H
#define EVOLVE_DSR_H

#include <stdint.h>

#include "fitness/problem.h"
#include "fitness/tables.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The moments of a genome's outcomes (percent), from the q of its kept trades. */
typedef struct {
    int64_t n;
    double sharpe; /* mean / sample sd; 0 when n < 2 or every q is equal (sd == 0) */
    double skew;   /* m3 / m2^1.5 (population moments); 0 when m2 == 0 */
    double kurt;   /* m4 / m2^2, 3 for a normal; 3 when m2 == 0 */
} trade_moments_t;

/* From q[n] (micro-percent). */
void trade_moments(const int64_t *q, int64_t n, trade_moments_t *m);

/* Standard normal quantile (Acklam's rational approximation refined by one
 * Halley step: |error| < 1e-13) and distribution function. */
double dsr_norm_inv(double p);
double dsr_norm_cdf(double x);

/* SR0 for trials N (1: 0, no deflation) and variance var_sr. */
double dsr_expected_max(double trials, double var_sr);

/* The DSR of m against trials and var_sr; NaN when m->n < 2. */
double deflated_sharpe(const trade_moments_t *m, double trials, double var_sr);
/* Its z-score, the argument of Phi: readable where the DSR underflows. */
double deflated_sharpe_z(const trade_moments_t *m, double trials, double var_sr);

/* The variance (n - 1) of the per-trade Sharpe ratio over up to `sample`
 * lattice points drawn uniformly with seed (every point when the lattice has
 * no more), evaluated on the search's tables t (agg ignored); points with
 * fewer trades than the objective's min_trades (2 at least) or an infinite
 * ratio are left out. *used: the points
 * that counted. */
double sharpe_variance(const fit_problem_t *p, const fit_tables_t *t, uint64_t sample, uint64_t seed, uint64_t *used);

/* Its parts, for an evaluator without tables (a strategy's backtests): the
 * points drawn (count, and genome i of them into g[EV_MAX_PARAMS]), the
 * objective they are scored by (the per-trade Sharpe ratio, 2 trades at
 * least, no equity-curve terms) and the variance of their results r[n]. */
uint64_t sharpe_sample_count(const fit_problem_t *p, uint64_t sample);
void sharpe_sample_genome(const fit_problem_t *p, uint64_t sample, uint64_t seed, uint64_t i, uint16_t *g);
void sharpe_sample_objective(objective_prep_t *o);
double sharpe_variance_of(const eval_result_t *r, uint64_t n, uint64_t *used);

#ifdef __cplusplus
}
#endif
#endif
