#include "fitness/dsr.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fitness/lattice_shape.h"

void trade_moments(const int64_t *q, int64_t n, trade_moments_t *m)
{
    double mean = 0.0, m2 = 0.0, m3 = 0.0, m4 = 0.0;
    int64_t same = 1;
    memset(m, 0, sizeof *m);
    m->n = n;
    m->kurt = 3.0;
    while (same < n && q[same] == q[0])
        same++;
    /* equal outcomes: zero variance, decided on the integers (SPEC sec. 5), not on the double
     * deviations, whose rounding would leave a 1e-30 variance and a Sharpe ratio of 1e15 */
    if (n < 2 || same == n)
        return;
    for (int64_t j = 0; j < n; j++)
        mean += (double)q[j] / 1e6;
    mean /= (double)n;
    for (int64_t j = 0; j < n; j++) {
        double d = (double)q[j] / 1e6 - mean;
        m2 += d * d;
        m3 += d * d * d;
        m4 += d * d * d * d;
    }
    m2 /= (double)n;
    m3 /= (double)n;
    m4 /= (double)n;
    if (m2 <= 0.0)
        return;
    m->sharpe = mean / sqrt(m2 * (double)n / (double)(n - 1));
    m->skew = m3 / pow(m2, 1.5);
    m->kurt = m4 / (m2 * m2);
}

double dsr_norm_cdf(double x)
{
    return 0.5 * erfc(-x / sqrt(2.0));
}

double dsr_norm_inv(double p)
{
    static const double a[] = {-3.969683028665376e+01, 2.209460984245205e+02,  -2.759285104469687e+02,
                               1.383577518672690e+02,  -3.066479806614716e+01, 2.506628277459239e+00};
    static const double b[] = {-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
                               6.680131188771972e+01, -1.328068155288572e+01};
    static const double c[] = {-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
                               -2.549732539343734e+00, 4.374664141464968e+00,  2.938163982698783e+00};
    static const double d[] = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
                               3.754408661907416e+00};
    double q, r, x, e, u;
    if (!(p > 0.0))
        return -HUGE_VAL;
    if (!(p < 1.0))
        return HUGE_VAL;
    if (p < 0.02425) {
        q = sqrt(-2.0 * log(p));
        x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
            ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1.0);
    } else if (p > 1.0 - 0.02425) {
        q = sqrt(-2.0 * log(1.0 - p));
        x = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
            ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1.0);
    } else {
        q = p - 0.5;
        r = q * q;
        x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
            (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1.0);
    }
    /* one Halley step on Phi(x) - p */
    e = dsr_norm_cdf(x) - p;
    u = e * sqrt(2.0 * 3.14159265358979323846) * exp(x * x / 2.0);
    return x - u / (1.0 + x * u / 2.0);
}

double dsr_expected_max(double trials, double var_sr)
{
    const double g = 0.57721566490153286061;
    if (!(trials > 1.0) || !(var_sr > 0.0))
        return 0.0;
    return sqrt(var_sr) *
           ((1.0 - g) * dsr_norm_inv(1.0 - 1.0 / trials) + g * dsr_norm_inv(1.0 - 1.0 / (trials * exp(1.0))));
}

double deflated_sharpe_z(const trade_moments_t *m, double trials, double var_sr)
{
    double sr0, den;
    if (m->n < 2)
        return NAN;
    sr0 = dsr_expected_max(trials, var_sr);
    den = 1.0 - m->skew * m->sharpe + (m->kurt - 1.0) / 4.0 * m->sharpe * m->sharpe;
    if (!(den > 0.0))
        return NAN;
    return (m->sharpe - sr0) * sqrt((double)(m->n - 1)) / sqrt(den);
}

double deflated_sharpe(const trade_moments_t *m, double trials, double var_sr)
{
    double z = deflated_sharpe_z(m, trials, var_sr);
    return z == z ? dsr_norm_cdf(z) : NAN;
}

static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

uint64_t sharpe_sample_count(const fit_problem_t *p, uint64_t sample)
{
    return p->lat->size_fits && p->lat->size <= sample ? p->lat->size : sample;
}

void sharpe_sample_genome(const fit_problem_t *p, uint64_t sample, uint64_t seed, uint64_t i, uint16_t *g)
{
    memset(g, 0, EV_MAX_PARAMS * sizeof *g);
    if (p->lat->size_fits && p->lat->size <= sample) {
        shape_decode(&p->shape, i, g);
        return;
    }
    {
        uint64_t z = mix64(seed ^ mix64(i + UINT64_C(0x5851f42d4c957f2d)));
        for (int32_t k = 0; k < p->lat->n_params; k++) {
            g[k] = (uint16_t)(z % p->lat->params[k].n_values);
            z = mix64(z + (uint64_t)k + 1);
        }
    }
}

void sharpe_sample_objective(objective_prep_t *o)
{
    o->kind = OBJ_SHARPE;
    o->need_sumsq = 1;
    o->need_dd = 0;
    o->has_max_dd = 0;
    /* V over the points that meet min_trades: a point of 2 or 3 trades has
     * a wild ratio that inflates SR0 until every DSR underflows (issue 32) */
    if (o->min_trades < 2)
        o->min_trades = 2;
}

double sharpe_variance_of(const eval_result_t *r, uint64_t n_r, uint64_t *used)
{
    uint64_t n = 0;
    double mean = 0.0, m2 = 0.0;
    for (uint64_t i = 0; i < n_r; i++) {
        double d;
        if (!r[i].feasible || isinf(r[i].fitness) || r[i].fitness != r[i].fitness)
            continue;
        n++;
        d = r[i].fitness - mean; /* Welford */
        mean += d / (double)n;
        m2 += d * (r[i].fitness - mean);
    }
    *used = n;
    return n >= 2 ? m2 / (double)(n - 1) : 0.0;
}

double sharpe_variance(const fit_problem_t *p, const fit_tables_t *t, uint64_t sample, uint64_t seed, uint64_t *used)
{
    fit_tables_t v = *t;
    const uint64_t n = sharpe_sample_count(p, sample);
    eval_result_t *r = (eval_result_t *)malloc((size_t)(n ? n : 1) * sizeof *r);
    uint16_t g[EV_MAX_PARAMS];
    double var;
    *used = 0;
    if (!r)
        return 0.0; /* no variance: the ratio is not deflated (cannot happen at 4096 points) */
    v.agg = AGG_ALL;
    sharpe_sample_objective(&v.obj);
    for (uint64_t i = 0; i < n; i++) {
        sharpe_sample_genome(p, sample, seed, i, g);
        r[i] = tables_eval(&v, g);
    }
    var = sharpe_variance_of(r, n, used);
    free(r);
    return var;
}
