/* gendata/fast_format: every double formatter must print what printf("%.*f")
 * prints, ties and negative zero included; the integer ones what %lld does. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "gendata/fast_format.h"
#include "gendata/gen_rng.h"
#include "tests/check.h"

static int mismatches = 0;

/* ff_fixed(x, d) against snprintf, printing the first few differences. */
static void same_as_printf(double x, int decimals)
{
    char want[FF_MAX_CHARS], got[FF_MAX_CHARS];
    char *end = ff_fixed(got, x, decimals);
    *end = '\0';
    snprintf(want, sizeof want, "%.*f", decimals, x);
    if (strcmp(want, got) != 0) {
        if (mismatches++ < 10)
            fprintf(stderr, "ff_fixed(%.17g, %d): expected \"%s\", got \"%s\"\n", x, decimals, want, got);
    }
}

/* ff_round_scaled must agree with the digits printf writes. */
static void round_matches_printf(double x, int decimals)
{
    char want[FF_MAX_CHARS], got[FF_MAX_CHARS];
    int64_t q;
    if (!ff_round_scaled(x, decimals, &q))
        return;
    *ff_fixed_i64(got, q, decimals) = '\0';
    snprintf(want, sizeof want, "%.*f", decimals, x);
    if (want[0] == '-' && q == 0) /* printf keeps the sign of a negative that rounds to 0 */
        memmove(want, want + 1, strlen(want));
    if (strcmp(want, got) != 0 && mismatches++ < 10)
        fprintf(stderr, "ff_round_scaled(%.17g, %d) = %lld, printf \"%s\"\n", x, decimals, (long long)q, want);
}

static void check_random(void)
{
    const uint64_t key = gen_rng_key(42, 0, 0, 0);
    for (uint64_t i = 0; i < 400000; i++) {
        /* Magnitudes 1e-7 .. 1e12, both signs, all decimals 0..9. */
        double mag = pow(10.0, -7.0 + 19.0 * gen_rng_uniform(key, 3 * i));
        double x = mag * (gen_rng_uniform(key, 3 * i + 1) < 0.5 ? -1.0 : 1.0);
        int d = (int)(gen_rng_u64(key, 3 * i + 2) % 10);
        same_as_printf(x, d);
        round_matches_printf(x, d);
    }
    /* Prices and percents as gen-data computes them: cents / 100, and
     * (p / e - 1) * 100 on such prices. */
    for (int64_t c = 1; c < 200000; c += 7) {
        double p = (double)c / 100.0, e = (double)(c + 13) / 100.0;
        same_as_printf(p, 4);
        same_as_printf((p / e - 1.0) * 100.0, 4);
        same_as_printf((e / p - 1.0) * 100.0, 4);
        same_as_printf(0.0123 / p * 100.0, 2);
    }
}

static void check_ties_and_edges(void)
{
    /* Exact binary ties: printf rounds them to even. */
    static const double ties[] = {0.5,           1.5,     2.5,     3.5,    0.125,      0.375,
                                  2.675,         0.03125, 0.09375, 1.0625, 1e15 + 0.5, 4503599627370495.5,
                                  0.000244140625};
    for (size_t i = 0; i < sizeof ties / sizeof ties[0]; i++)
        for (int d = 0; d <= 9; d++) {
            same_as_printf(ties[i], d);
            same_as_printf(-ties[i], d);
            round_matches_printf(ties[i], d);
        }
    /* Odd multiples of 2^-k near every fourth decimal: all ties or near-ties. */
    for (int k = 1; k <= 20; k++)
        for (int m = 1; m < 4000; m += 2) {
            double x = ldexp((double)m, -k);
            same_as_printf(x, 4);
            same_as_printf(x, 2);
            same_as_printf(-x, 3);
        }
    /* Zero, negative zero, tiny negatives, the fallback range, non-finite. */
    static const double edges[] = {
        0.0,  -0.0,   -1e-9,   1e-9,     -0.00004,  0.00005, 0.00015, DBL_MIN, -DBL_MIN, 4503599627370496.0,
        1e17, -1e300, DBL_MAX, INFINITY, -INFINITY, NAN};
    for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++)
        for (int d = 0; d <= 9; d++)
            same_as_printf(edges[i], d);
}

static void check_integers(void)
{
    char buf[64];
    static const int64_t vals[] = {
        0, 1, -1, 9, 10, 99, 100, 12345, -12345, INT64_MAX, INT64_MIN, 1000000000000LL, -999999999999LL};
    for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++) {
        char want[64];
        *ff_i64(buf, vals[i]) = '\0';
        snprintf(want, sizeof want, "%lld", (long long)vals[i]);
        CHECK_STR(want, buf);
    }
    *ff_fixed_i64(buf, 3012, 2) = '\0';
    CHECK_STR("30.12", buf);
    *ff_fixed_i64(buf, -5, 2) = '\0';
    CHECK_STR("-0.05", buf);
    *ff_fixed_i64(buf, 7, 0) = '\0';
    CHECK_STR("7", buf);
    *ff_fixed_i64(buf, 238200, 4) = '\0';
    CHECK_STR("23.8200", buf);
    *ff_fixed_i64(buf, 0, 4) = '\0';
    CHECK_STR("0.0000", buf);
    *ff_fixed_i64(buf, INT64_MIN, 18) = '\0';
    CHECK_STR("-9.223372036854775808", buf);
    *ff_fixed_i64(buf, 123456789, 7) = '\0';
    CHECK_STR("12.3456789", buf);
    *ff_hms(buf, 34200) = '\0';
    CHECK_STR("09:30:00", buf);
    *ff_hms(buf, 57599) = '\0';
    CHECK_STR("15:59:59", buf);
    *ff_mdy(buf, 2024, 1, 2, '/') = '\0';
    CHECK_STR("01/02/2024", buf);
    *ff_mdy(buf, 2024, 12, 31, '-') = '\0';
    CHECK_STR("12-31-2024", buf);
}

static void check_round_scaled(void)
{
    int64_t q = 0;
    CHECK(ff_round_scaled(0.125, 2, &q) && q == 12);   /* tie to even */
    CHECK(ff_round_scaled(0.375, 2, &q) && q == 38);   /* tie to even */
    CHECK(ff_round_scaled(-0.375, 2, &q) && q == -38); /* the sign of x */
    CHECK(ff_round_scaled(2.675, 2, &q) && q == 267);  /* 2.675 is 2.67499999... */
    CHECK(ff_round_scaled(1.005, 2, &q) && q == 100);  /* 1.00499999... */
    CHECK(!ff_round_scaled(NAN, 2, &q));
    CHECK(!ff_round_scaled(INFINITY, 2, &q));
    CHECK(!ff_round_scaled(1e300, 2, &q));
    CHECK(!ff_round_scaled(1.0, 10, &q));
}

int main(void)
{
    check_random();
    check_ties_and_edges();
    check_integers();
    check_round_scaled();
    CHECK_EQ_I64(0, mismatches);
    return check_exit();
}
