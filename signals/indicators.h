/* The indicators of the signal strategies (docs/signals-spec.md sec. 1.2), in binary64,
 * written once for the CPU and CUDA (EV_HD). Each is a function of the bar
 * arrays and its length(s) alone, so a series computed once per run can be
 * shared by every genome that uses the same (indicator, length): that is what
 * signals/features.h does.
 *
 * The forms are exactly those of docs/signals-spec.md, with the summation orders of
 * sec. 4.3: sequential sums, oldest to newest, no FMA (the build passes
 * -ffp-contract=off and nvcc --fmad=false), no x * (1/w) for x / w.
 *
 *   ind_ema_pandas     pandas ewm(span, adjust=False).mean(): y0 = x0, then
 *                      y = ((1-a)*y + a*x) / ((1-a) + a), skipped when y == x
 *                      (pandas' "constant series" guard); a = 2/(span+1)
 *   ind_true_range     max(h-l, |h-c[i-1]|, |l-c[i-1]|); TR[0] = h-l
 *   ind_sma_at         (x[i-w+1] + ... + x[i]) / w; NaN for i < w-1 or when a
 *                      window value is NaN
 *   ind_zscore_at      (x - mean) / std over the last w values, population std
 *                      from two passes (sec. 4.4); NaN while a window value is
 *                      NaN. A window whose values are all equal has mean = that
 *                      value and std = 0 exactly (so z = 0/0 = NaN), as pandas'
 *                      rolling mean/std give for constant windows; a two-pass
 *                      sum of equal values could otherwise round to a tiny std.
 *   ind_close_location (c - l) / (h - l); NaN when h == l
 *
 * Headers that use EV_HD compile as C11 and as CUDA C++ (common/hd.h). */
#ifndef EVOLVE_SIGNALS_INDICATORS_H
#define EVOLVE_SIGNALS_INDICATORS_H

#include <math.h>
#include <stdint.h>

#include "common/hd.h"

/* NaN without <math.h>'s NAN macro (a float constant under some CUDA setups). */
EV_HD double ind_nan(void)
{
    return nan("");
}

/* The EMA's smoothing factor: 2/(span+1), bit-identical to pandas'
 * 1/(1+com) with com = (span-1)/2 (checked for span 1..20000, docs/signals-spec.md). */
EV_HD double ind_ema_alpha(int32_t span)
{
    return 2.0 / ((double)span + 1.0);
}

/* pandas ewm(span, adjust=False).mean() over x[0..n-1] into y (y may not
 * alias x). A NaN x is not expected (bars are finite). */
EV_HD void ind_ema_pandas(const double *x, int64_t n, int32_t span, double *y)
{
    const double a = ind_ema_alpha(span);
    const double keep = 1.0 - a; /* pandas: old_wt = 1.0 * (1 - alpha) */
    const double den = keep + a; /* 1.0 for every span tried, kept as pandas writes it */
    double w;
    if (n <= 0)
        return;
    w = x[0];
    y[0] = w;
    for (int64_t i = 1; i < n; i++) {
        const double cur = x[i];
        if (w != cur) {
            const double num = keep * w + a * cur; /* two products, one sum: no FMA */
            w = num / den;
        }
        y[i] = w;
    }
}

EV_HD double ind_true_range_at(const double *high, const double *low, const double *close, int64_t i)
{
    double tr = high[i] - low[i];
    if (i > 0) {
        const double pc = close[i - 1];
        const double a = fabs(high[i] - pc), b = fabs(low[i] - pc);
        /* pandas' row max: the largest; NaN parts are skipped (none here) */
        if (a > tr)
            tr = a;
        if (b > tr)
            tr = b;
    }
    return tr;
}

/* The simple mean of x[i-w+1..i], summed oldest to newest. */
EV_HD double ind_sma_at(const double *x, int64_t i, int32_t w)
{
    double s = 0.0;
    if (w < 1 || i < (int64_t)w - 1)
        return ind_nan();
    for (int64_t j = i - w + 1; j <= i; j++)
        s += x[j];
    return s / (double)w; /* NaN when a window value is NaN */
}

EV_HD double ind_zscore_at(const double *x, int64_t i, int32_t w)
{
    double s = 0.0, ss = 0.0, mean, sd;
    int same = 1;
    int64_t j0;
    if (w < 1 || i < (int64_t)w - 1)
        return ind_nan();
    j0 = i - w + 1;
    for (int64_t j = j0; j <= i; j++) {
        const double v = x[j];
        if (v != v)
            return ind_nan();
        if (v != x[j0])
            same = 0;
        s += v;
    }
    if (same)
        return ind_nan(); /* (x - mean) / 0 = 0/0, as pandas gives */
    mean = s / (double)w;
    for (int64_t j = j0; j <= i; j++) {
        const double d = x[j] - mean;
        ss += d * d;
    }
    sd = sqrt(ss / (double)w);
    return (x[i] - mean) / sd;
}

EV_HD double ind_close_location(double high, double low, double close)
{
    const double span = high - low;
    if (span == 0.0)
        return ind_nan();
    return (close - low) / span;
}

#endif
