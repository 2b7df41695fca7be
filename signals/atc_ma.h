/* The moving averages of strategy atc (docs/signals-spec.md sec. 2.3), in binary64,
 * written once for the CPU and CUDA (EV_HD). Each fills a whole series y[0..n-1]
 * from x (y may not alias x), NaN where it is undefined:
 *
 *   atc_ema   SMA-seeded: y[L-1] = (x0 + ... + x[L-1]) / L, then
 *             y = a*x + (1-a)*y_prev with a = 2/(L+1); NaN for i < L-1
 *   atc_wma   sum of (L-j) * x[i-j] over j, oldest term first, divided once by
 *             L(L+1)/2; NaN for i < L-1
 *   atc_sma   the window's sum, oldest first, / L (the Pine "HMA" branch)
 *   atc_hma   WMA(2*WMA(x, L/2) - WMA(x, L), isqrt(L)); first defined L+s-2
 *   atc_dema  2*e1 - e2: e1 = atc_ema, e2 an EMA of e1 seeded with e1[L-1]
 *   atc_lsma  least-squares line over the last L bars (x = 0..L-1, oldest
 *             first) at the newest bar: m*(L-1) + b
 *   atc_kama  K0 = x0, held for i < L; then ER over L bars, sc = t*t with
 *             t = ER*(0.666-0.064) + 0.064, K += sc*(x - K)
 *
 * Sums run oldest to newest, products and quotients in the written order, no
 * FMA (-ffp-contract=off, nvcc --fmad=false): docs/signals-spec.md sec. 4. */
#ifndef EVOLVE_SIGNALS_ATC_MA_H
#define EVOLVE_SIGNALS_ATC_MA_H

#include <math.h>
#include <stdint.h>

#include "common/hd.h"
#include "signals/indicators.h"

/* The families, in sec. 2.7's order; ATC_SMA is the Pine "HMA" branch's
 * ta.sma (the hma_as_sma flag). */
enum { ATC_EMA = 0, ATC_HMA, ATC_WMA, ATC_DEMA, ATC_LSMA, ATC_KAMA, ATC_FAMILIES, ATC_SMA = ATC_FAMILIES };

/* The largest s with s*s <= v (v >= 0), without a floating sqrt. */
EV_HD int32_t atc_isqrt(int32_t v)
{
    int32_t s = 0;
    while ((int64_t)(s + 1) * (s + 1) <= v)
        s++;
    return s;
}

EV_HD void atc_ema(const double *x, int64_t n, int32_t L, double *y)
{
    const double a = 2.0 / ((double)L + 1.0);
    const double keep = 1.0 - a;
    double s = 0.0;
    for (int64_t i = 0; i < n; i++) {
        if (i < (int64_t)L - 1) {
            s += x[i];
            y[i] = ind_nan();
        } else if (i == (int64_t)L - 1) {
            s += x[i];
            y[i] = s / (double)L;
        } else
            y[i] = a * x[i] + keep * y[i - 1];
    }
}

/* The WMA of x's window ending at i; NaN before it is full or when a window
 * value is NaN. */
EV_HD double atc_wma_at(const double *x, int64_t i, int32_t L)
{
    double s = 0.0;
    if (i < (int64_t)L - 1)
        return ind_nan();
    for (int32_t w = 1; w <= L; w++) /* weight w on x[i-L+w]: oldest first */
        s += (double)w * x[i - L + w];
    return s / ((double)L * ((double)L + 1.0) / 2.0);
}

EV_HD void atc_wma(const double *x, int64_t n, int32_t L, double *y)
{
    for (int64_t i = 0; i < n; i++)
        y[i] = atc_wma_at(x, i, L);
}

EV_HD void atc_sma(const double *x, int64_t n, int32_t L, double *y)
{
    for (int64_t i = 0; i < n; i++)
        y[i] = ind_sma_at(x, i, L);
}

/* raw: scratch of n doubles. */
EV_HD void atc_hma(const double *x, int64_t n, int32_t L, double *raw, double *y)
{
    const int32_t h = L / 2 > 1 ? L / 2 : 1;
    const int32_t s0 = atc_isqrt(L);
    const int32_t s = s0 > 1 ? s0 : 1;
    for (int64_t i = 0; i < n; i++)
        raw[i] = 2.0 * atc_wma_at(x, i, h) - atc_wma_at(x, i, L);
    for (int64_t i = 0; i < n; i++)
        y[i] = i < (int64_t)L + s - 2 ? ind_nan() : atc_wma_at(raw, i, s);
}

EV_HD void atc_dema(const double *x, int64_t n, int32_t L, double *y)
{
    const double a = 2.0 / ((double)L + 1.0);
    const double keep = 1.0 - a;
    double s = 0.0, e1 = 0.0, e2 = 0.0;
    for (int64_t i = 0; i < n; i++) {
        if (i < (int64_t)L - 1) {
            s += x[i];
            y[i] = ind_nan();
            continue;
        }
        if (i == (int64_t)L - 1) {
            s += x[i];
            e1 = s / (double)L;
            e2 = e1; /* seeded with the first e1, no second SMA */
        } else {
            e1 = a * x[i] + keep * e1;
            e2 = a * e1 + keep * e2;
        }
        y[i] = 2.0 * e1 - e2;
    }
}

EV_HD void atc_lsma(const double *x, int64_t n, int32_t L, double *y)
{
    const double l = (double)L;
    const double sx = l * (l - 1.0) / 2.0;
    const double sxx = l * (l - 1.0) * (2.0 * l - 1.0) / 6.0;
    const double den = l * sxx - sx * sx;
    for (int64_t i = 0; i < n; i++) {
        double sy = 0.0, sxy = 0.0, m, b;
        if (i < (int64_t)L - 1) {
            y[i] = ind_nan();
            continue;
        }
        for (int32_t k = 0; k < L; k++) {
            const double v = x[i - L + 1 + k];
            sy += v;
            sxy += (double)k * v;
        }
        m = (l * sxy - sx * sy) / den;
        b = (sy - m * sx) / l;
        y[i] = m * (l - 1.0) + b;
    }
}

EV_HD void atc_kama(const double *x, int64_t n, int32_t L, double *y)
{
    const double fast = 0.666, slow = 0.064;
    const double span = fast - slow;
    double k;
    if (n <= 0)
        return;
    k = x[0];
    y[0] = k;
    for (int64_t i = 1; i < n; i++) {
        if (i >= (int64_t)L) {
            double noise = 0.0, signal, er, t;
            for (int64_t j = i - L + 1; j <= i; j++)
                noise += fabs(x[j] - x[j - 1]);
            signal = fabs(x[i] - x[i - L]);
            er = noise == 0.0 ? 0.0 : signal / noise;
            t = er * span + slow;
            k = k + (t * t) * (x[i] - k);
        }
        y[i] = k;
    }
}

/* The MA of kind (a family or ATC_SMA) and length L; scratch: n doubles
 * (used by the HMA). */
EV_HD void atc_ma(int kind, const double *x, int64_t n, int32_t L, double *scratch, double *y)
{
    switch (kind) {
    case ATC_EMA: atc_ema(x, n, L, y); break;
    case ATC_HMA: atc_hma(x, n, L, scratch, y); break;
    case ATC_WMA: atc_wma(x, n, L, y); break;
    case ATC_DEMA: atc_dema(x, n, L, y); break;
    case ATC_LSMA: atc_lsma(x, n, L, y); break;
    case ATC_KAMA: atc_kama(x, n, L, y); break;
    default: atc_sma(x, n, L, y); break;
    }
}

#endif
