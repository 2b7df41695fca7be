/* Exact decimals: parsing, minimal formatting, comparison and range
 * expansion in scaled 64-bit integers (see decimal.h for why). */
#include "io/decimal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Locale-independent: isdigit() may accept more under some locales. */
static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

int decimal_is_number(const char *text)
{
    const char *p = text;
    int digits = 0;
    if (!p)
        return 0;
    if (*p == '+' || *p == '-')
        p++;
    while (is_digit(*p))
        p++, digits++;
    if (*p == '.') {
        p++;
        while (is_digit(*p))
            p++, digits++;
    }
    if (digits == 0)
        return 0;
    if (*p == 'e' || *p == 'E') {
        int exp_digits = 0;
        p++;
        if (*p == '+' || *p == '-')
            p++;
        while (is_digit(*p))
            p++, exp_digits++;
        if (exp_digits == 0)
            return 0;
    }
    return *p == '\0';
}

const char *decimal_err_str(decimal_err e)
{
    switch (e) {
    case DECIMAL_OK: return "ok";
    case DECIMAL_NOT_A_NUMBER: return "not a decimal number";
    case DECIMAL_TOO_PRECISE: return "more than 18 significant digits";
    case DECIMAL_OUT_OF_RANGE: return "exponent out of range";
    }
    return "invalid decimal";
}

decimal_err decimal_parse(const char *text, decimal_t *out)
{
    const char *p = text;
    int neg = 0, in_fraction = 0, n_sig = 0;
    int64_t mant = 0;
    long exp = 0, pending_zeros = 0; /* zeros seen after the last nonzero digit */
    out->mant = 0;
    out->exp = 0;
    if (!decimal_is_number(text))
        return DECIMAL_NOT_A_NUMBER;
    if (*p == '+' || *p == '-')
        neg = *p++ == '-';
    for (; is_digit(*p) || (*p == '.' && !in_fraction); p++) {
        int d;
        if (*p == '.') {
            in_fraction = 1;
            continue;
        }
        d = *p - '0';
        if (in_fraction)
            exp--;
        if (d == 0) {
            if (n_sig > 0)
                pending_zeros++; /* multiplied in only if a nonzero digit follows */
            continue;
        }
        if (n_sig + pending_zeros + 1 > DECIMAL_MAX_DIGITS)
            return DECIMAL_TOO_PRECISE;
        for (; pending_zeros > 0; pending_zeros--, n_sig++)
            mant *= 10;
        mant = mant * 10 + d;
        n_sig++;
    }
    exp += pending_zeros; /* trailing zeros only move the exponent */
    if (*p == 'e' || *p == 'E') {
        long e = 0;
        int eneg = 0;
        p++;
        if (*p == '+' || *p == '-')
            eneg = *p++ == '-';
        for (; is_digit(*p); p++)
            if (e < 1000000)
                e = e * 10 + (*p - '0'); /* saturate: anything this big is out of range */
        exp += eneg ? -e : e;
    }
    if (mant == 0)
        return DECIMAL_OK; /* zero, whatever its exponent or sign */
    if (exp > DECIMAL_MAX_EXP || exp < -DECIMAL_MAX_EXP)
        return DECIMAL_OUT_OF_RANGE;
    out->mant = neg ? -mant : mant;
    out->exp = (int32_t)exp;
    return DECIMAL_OK;
}

/* |m| as unsigned (m is never INT64_MIN here, but stay defined if it were). */
static uint64_t magnitude(int64_t m)
{
    return m < 0 ? (uint64_t)0 - (uint64_t)m : (uint64_t)m;
}

static int count_digits(uint64_t m)
{
    int n = 1;
    while (m >= 10)
        m /= 10, n++;
    return n;
}

void decimal_format(decimal_t d, char *buf)
{
    char digits[24];
    char *o = buf;
    int nd, point; /* point: digits before the decimal point (may be <= 0) */
    if (d.mant == 0) {
        strcpy(buf, "0");
        return;
    }
    snprintf(digits, sizeof digits, "%llu", (unsigned long long)magnitude(d.mant));
    nd = (int)strlen(digits);
    point = nd + d.exp;
    if (d.mant < 0)
        *o++ = '-';
    if (d.exp >= 0 && point <= 21) { /* "40", "1500" */
        memcpy(o, digits, (size_t)nd);
        o += nd;
        for (int i = 0; i < d.exp; i++)
            *o++ = '0';
        *o = '\0';
    } else if (d.exp < 0 && point > 0) { /* "12.75" */
        memcpy(o, digits, (size_t)point);
        o += point;
        *o++ = '.';
        strcpy(o, digits + point);
    } else if (d.exp < 0 && point > -6) { /* "0.0005" */
        *o++ = '0';
        *o++ = '.';
        for (int i = 0; i < -point; i++)
            *o++ = '0';
        strcpy(o, digits);
    } else { /* "1.5e-9", "2e25" */
        *o++ = digits[0];
        if (nd > 1) {
            *o++ = '.';
            memcpy(o, digits + 1, (size_t)(nd - 1));
            o += nd - 1;
        }
        snprintf(o, (size_t)(DECIMAL_TEXT_MAX - (o - buf)), "e%d", point - 1);
    }
}

double decimal_to_double(decimal_t d)
{
    char text[DECIMAL_TEXT_MAX];
    decimal_format(d, text);
    return strtod(text, NULL);
}

int decimal_cmp(decimal_t a, decimal_t b)
{
    int sa = (a.mant > 0) - (a.mant < 0), sb = (b.mant > 0) - (b.mant < 0);
    uint64_t ma, mb;
    int la, lb, r;
    if (sa != sb || sa == 0)
        return sa < sb ? -1 : sa > sb;
    ma = magnitude(a.mant);
    mb = magnitude(b.mant);
    /* Order of magnitude first (position of the leading digit) ... */
    la = count_digits(ma) + a.exp;
    lb = count_digits(mb) + b.exp;
    if (la != lb)
        r = la < lb ? -1 : 1;
    else {
        /* ... then the digits, both padded to 19 (fits: < 10^19 < 2^64). */
        for (int n = count_digits(ma); n < 19; n++)
            ma *= 10;
        for (int n = count_digits(mb); n < 19; n++)
            mb *= 10;
        r = ma < mb ? -1 : ma > mb;
    }
    return sa > 0 ? r : -r;
}

/* m * 10^k, or 0 with *ok = 0 when it does not fit in int64. */
static int64_t scale_up(int64_t m, int32_t k, int *ok)
{
    for (int32_t i = 0; i < k && m != 0; i++) {
        if (m > INT64_MAX / 10 || m < -(INT64_MAX / 10)) {
            *ok = 0;
            return 0;
        }
        m *= 10;
    }
    return m;
}

decimal_range_err decimal_range_init(decimal_range_t *r, decimal_t start, decimal_t stop, decimal_t step,
                                     uint64_t max_count)
{
    const decimal_t all[3] = {start, stop, step};
    int32_t e = 0;
    int have = 0, ok = 1;
    int64_t s0, s1, st;
    uint64_t diff, steps;
    memset(r, 0, sizeof *r);
    if (step.mant <= 0)
        return DECIMAL_RANGE_STEP_NOT_POSITIVE;
    if (decimal_cmp(stop, start) < 0)
        return DECIMAL_RANGE_REVERSED;
    /* The common exponent is the finest of the nonzero numbers (a zero's
     * exponent is arbitrary and must not force needless scaling). */
    for (int i = 0; i < 3; i++)
        if (all[i].mant != 0 && (!have || all[i].exp < e))
            e = all[i].exp, have = 1;
    s0 = scale_up(start.mant, start.exp - e, &ok);
    s1 = scale_up(stop.mant, stop.exp - e, &ok);
    st = scale_up(step.mant, step.exp - e, &ok);
    if (!ok)
        return DECIMAL_RANGE_OVERFLOW;
    /* s1 >= s0, so the true difference lies in [0, 2^64) and unsigned
     * wrap-around arithmetic gives it exactly. */
    diff = (uint64_t)s1 - (uint64_t)s0;
    if (diff % (uint64_t)st != 0)
        return DECIMAL_RANGE_NOT_MULTIPLE;
    steps = diff / (uint64_t)st;
    r->start = s0;
    r->step = st;
    r->exp = e;
    r->count = steps == UINT64_MAX ? UINT64_MAX : steps + 1;
    if (steps >= max_count)
        return DECIMAL_RANGE_TOO_MANY;
    return DECIMAL_RANGE_OK;
}

decimal_t decimal_range_at(const decimal_range_t *r, uint64_t i)
{
    /* start + i*step lies between start and stop, so it fits in int64; the
     * sum is formed in uint64 (defined wrap-around) and mapped back. */
    uint64_t u = (uint64_t)r->start + i * (uint64_t)r->step;
    decimal_t d;
    d.mant = u <= (uint64_t)INT64_MAX ? (int64_t)u : -(int64_t)(UINT64_MAX - u) - 1;
    d.exp = r->exp;
    if (d.mant == 0)
        d.exp = 0;
    while (d.mant != 0 && d.mant % 10 == 0) {
        d.mant /= 10;
        d.exp++;
    }
    return d;
}
