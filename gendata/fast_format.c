#include "gendata/fast_format.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Powers of ten that are exact doubles (10^22 is the last; we need 10^9). */
static const double pow10_f64[10] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9};

/* "00".."99": two digits per division. */
static const char digit_pairs[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

/* Writes v's decimal digits; returns the end. */
static char *put_u64(char *dst, uint64_t v)
{
    char tmp[20];
    int n = 20;
    while (v >= 100) {
        unsigned r = (unsigned)(v % 100);
        v /= 100;
        n -= 2;
        memcpy(tmp + n, digit_pairs + 2 * r, 2);
    }
    if (v >= 10) {
        n -= 2;
        memcpy(tmp + n, digit_pairs + 2 * v, 2);
    } else {
        tmp[--n] = (char)('0' + v);
    }
    memcpy(dst, tmp + n, (size_t)(20 - n));
    return dst + (20 - n);
}

/* Writes v (< 10^width) as exactly `width` digits, zero-padded on the left. */
static char *put_u64_width(char *dst, uint64_t v, int width)
{
    int i = width;
    while (i >= 2) {
        i -= 2;
        memcpy(dst + i, digit_pairs + 2 * (v % 100), 2);
        v /= 100;
    }
    if (i)
        dst[0] = (char)('0' + v % 10);
    return dst + width;
}

static uint64_t magnitude(int64_t v)
{
    return v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
}

char *ff_i64(char *dst, int64_t v)
{
    if (v < 0)
        *dst++ = '-';
    return put_u64(dst, magnitude(v));
}

/* Unsigned q * 10^-decimals. The common widths get a constant divisor (a
 * multiply instead of a 64-bit division). */
static char *put_fixed_u64(char *dst, uint64_t q, int decimals)
{
    uint64_t scale = 1;
    switch (decimals) {
    case 0: return put_u64(dst, q);
    case 2:
        dst = put_u64(dst, q / 100);
        *dst++ = '.';
        return put_u64_width(dst, q % 100, 2);
    case 4:
        dst = put_u64(dst, q / 10000);
        *dst++ = '.';
        return put_u64_width(dst, q % 10000, 4);
    default:
        for (int i = 0; i < decimals; i++)
            scale *= 10;
        dst = put_u64(dst, q / scale);
        *dst++ = '.';
        return put_u64_width(dst, q % scale, decimals);
    }
}

char *ff_fixed_i64(char *dst, int64_t q, int decimals)
{
    if (q < 0)
        *dst++ = '-';
    return put_fixed_u64(dst, magnitude(q), decimals);
}

/* Nearest integer to |x| * 10^decimals, ties to even, as an unsigned count.
 * The product ax * s is rounded once by the hardware; only when that rounded
 * product lies within its own rounding error of a half-way point can the
 * decision be wrong, and then fma() gives the exact residual to decide on. */
static int round_abs_scaled(double ax, int decimals, uint64_t *out)
{
    const double s = pow10_f64[decimals];
    const double v = ax * s;
    double r, frac, diff;
    uint64_t n;
    if (!(v < 4503599627370496.0)) /* 2^52, also false for NaN */
        return 0;
    r = floor(v);
    frac = v - r; /* exact: v and r share their exponent range */
    n = (uint64_t)r;
    /* |v - ax*s| <= ulp(v)/2 <= v * 2^-53; 2^-52 leaves a margin. */
    if (fabs(frac - 0.5) > v * 2.220446049250313e-16) {
        *out = n + (frac > 0.5);
        return 1;
    }
    /* ax*s = v + e exactly; frac - 0.5 is exact here (frac is near 0.5). The
     * sign of a rounded sum is the sign of the exact sum. */
    diff = (frac - 0.5) + fma(ax, s, -v);
    if (diff > 0.0)
        n += 1;
    else if (diff == 0.0)
        n += (n & 1); /* an exact tie: to even, as printf does */
    *out = n;
    return 1;
}

int ff_round_scaled(double x, int decimals, int64_t *q)
{
    uint64_t n;
    if (decimals < 0 || decimals > 9 || !isfinite(x))
        return 0;
    if (!round_abs_scaled(fabs(x), decimals, &n))
        return 0;
    *q = signbit(x) ? -(int64_t)n : (int64_t)n;
    return 1;
}

char *ff_fixed(char *dst, double x, int decimals)
{
    uint64_t n;
    if (decimals < 0 || decimals > 9 || !isfinite(x) || !round_abs_scaled(fabs(x), decimals, &n)) {
        char tmp[FF_MAX_CHARS];
        int len = snprintf(tmp, sizeof tmp, "%.*f", decimals < 0 ? 0 : decimals, x);
        if (len < 0)
            len = 0;
        if (len >= (int)sizeof tmp)
            len = (int)sizeof tmp - 1;
        memcpy(dst, tmp, (size_t)len);
        return dst + len;
    }
    if (signbit(x))
        *dst++ = '-'; /* printf keeps the sign of -0.0 and of tiny negatives */
    return put_fixed_u64(dst, n, decimals);
}

char *ff_hms(char *dst, int seconds_of_day)
{
    int h = seconds_of_day / 3600, m = seconds_of_day / 60 % 60, s = seconds_of_day % 60;
    dst[0] = (char)('0' + h / 10);
    dst[1] = (char)('0' + h % 10);
    dst[2] = ':';
    dst[3] = (char)('0' + m / 10);
    dst[4] = (char)('0' + m % 10);
    dst[5] = ':';
    dst[6] = (char)('0' + s / 10);
    dst[7] = (char)('0' + s % 10);
    return dst + 8;
}

char *ff_mdy(char *dst, int year, int month, int day, char sep)
{
    dst = put_u64_width(dst, (uint64_t)month, 2);
    *dst++ = sep;
    dst = put_u64_width(dst, (uint64_t)day, 2);
    *dst++ = sep;
    return put_u64_width(dst, (uint64_t)year, 4);
}
