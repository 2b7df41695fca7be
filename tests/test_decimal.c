/* Exact decimals (io/decimal): parsing, minimal formatting, and ranges whose
 * values are the doubles of their decimal text (SPEC sec. 3). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "io/decimal.h"
#include "tests/check.h"

static void check_parse(const char *text, int64_t mant, int32_t exp)
{
    decimal_t d;
    decimal_err e = decimal_parse(text, &d);
    if (e != DECIMAL_OK || d.mant != mant || d.exp != exp) {
        fprintf(stderr, "decimal_parse(\"%s\"): expected {%lld, %d}, got {%lld, %d} (%s)\n", text, (long long)mant,
                (int)exp, (long long)d.mant, (int)d.exp, decimal_err_str(e));
        check_failures++;
    }
}

static void check_reject(const char *text, decimal_err expected)
{
    decimal_t d;
    decimal_err e = decimal_parse(text, &d);
    if (e != expected) {
        fprintf(stderr, "decimal_parse(\"%s\"): expected error '%s', got '%s'\n", text, decimal_err_str(expected),
                decimal_err_str(e));
        check_failures++;
    }
}

static void check_format(int64_t mant, int32_t exp, const char *expected)
{
    char buf[DECIMAL_TEXT_MAX];
    decimal_t d;
    d.mant = mant;
    d.exp = exp;
    decimal_format(d, buf);
    CHECK_STR(expected, buf);
}

/* Bit-for-bit: 0.85 == 0.85 is not enough when -0.0 or NaN could sneak in. */
static int same_bits(double a, double b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

/* Expands a range from text and compares every value with the expected texts. */
static void check_range(const char *start, const char *stop, const char *step, size_t n, const char *const *texts)
{
    decimal_t a, b, s;
    decimal_range_t r;
    char buf[DECIMAL_TEXT_MAX];
    CHECK(decimal_parse(start, &a) == DECIMAL_OK);
    CHECK(decimal_parse(stop, &b) == DECIMAL_OK);
    CHECK(decimal_parse(step, &s) == DECIMAL_OK);
    CHECK_EQ_I64(DECIMAL_RANGE_OK, decimal_range_init(&r, a, b, s, 65535));
    CHECK_EQ_I64(n, r.count);
    for (size_t i = 0; i < n && i < r.count; i++) {
        decimal_t v = decimal_range_at(&r, i);
        decimal_format(v, buf);
        CHECK_STR(texts[i], buf);
        CHECK(same_bits(strtod(texts[i], NULL), decimal_to_double(v)));
    }
}

static decimal_range_err range_err(const char *start, const char *stop, const char *step, uint64_t max)
{
    decimal_t a, b, s;
    decimal_range_t r;
    if (decimal_parse(start, &a) || decimal_parse(stop, &b) || decimal_parse(step, &s))
        return (decimal_range_err)-1;
    return decimal_range_init(&r, a, b, s, max);
}

static void test_parse(void)
{
    check_parse("0.85", 85, -2);
    check_parse("-0.3", -3, -1);
    check_parse("40", 4, 1);
    check_parse("1e-3", 1, -3);
    check_parse("1E+2", 1, 2);
    check_parse("1.50", 15, -1);
    check_parse("+.5", 5, -1);
    check_parse("5.", 5, 0);
    check_parse("0", 0, 0);
    check_parse("-0.000", 0, 0);
    check_parse("0e999999999", 0, 0);
    check_parse("007.0700", 707, -2);
    check_parse("0.000123e2", 123, -4);
    check_parse("2.5e-1", 25, -2);
    check_parse("1000000000000000000000", 1, 21);             /* trailing zeros are not digits kept */
    check_parse("123456789012345678", 123456789012345678, 0); /* 18 digits: the most */
    check_parse("0.000000000000000000000001", 1, -24);
    check_reject("1234567890123456789", DECIMAL_TOO_PRECISE);
    check_reject("0.1234567890123456789", DECIMAL_TOO_PRECISE);
    check_reject("1e400", DECIMAL_OUT_OF_RANGE);
    check_reject("1e-400", DECIMAL_OUT_OF_RANGE);
    {
        static const char *const bad[] = {"",      "-",   "+",     ".",   "e5",   "1e",    "1e+",
                                          "1.2.3", "abc", "0x10",  "inf", "-inf", "nan",   ".nan",
                                          " 1",    "1 ",  "1_000", "1,5", "--1",  "1e5.0", "1f"};
        for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
            check_reject(bad[i], DECIMAL_NOT_A_NUMBER);
            CHECK(!decimal_is_number(bad[i]));
        }
    }
    CHECK(decimal_is_number("0.12345678901234567890123")); /* grammar has no digit limit */
    CHECK(!decimal_is_number(NULL));
}

static void test_format(void)
{
    check_format(85, -2, "0.85");
    check_format(-3, -1, "-0.3");
    check_format(4, 1, "40");
    check_format(0, 0, "0");
    check_format(12345, -2, "123.45");
    check_format(5, -4, "0.0005");
    check_format(5, -6, "0.000005");
    check_format(5, -7, "5e-7");
    check_format(15, -9, "1.5e-8");
    check_format(-15, -9, "-1.5e-8");
    check_format(1, 20, "100000000000000000000");
    check_format(1, 21, "1e21");
    check_format(25, 24, "2.5e25");
    check_format(INT64_MAX, -3, "9223372036854775.807");
    check_format(-INT64_MAX, 300, "-9.223372036854775807e318");
    /* Text -> decimal -> text -> double is the double of the original text. */
    {
        static const char *const texts[] = {"0.85",   "-0.3",
                                            "1e-3",   "123.456",
                                            "-7e22",  "3.14159265358979",
                                            "0.1",    "1e-300",
                                            "5e-324", "1.7976931348623157e308"};
        for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
            decimal_t d;
            CHECK(decimal_parse(texts[i], &d) == DECIMAL_OK);
            CHECK(same_bits(strtod(texts[i], NULL), decimal_to_double(d)));
        }
    }
}

static void test_cmp(void)
{
    decimal_t a, b;
    decimal_parse("0.85", &a);
    decimal_parse("0.850", &b);
    CHECK_EQ_I64(0, decimal_cmp(a, b));
    decimal_parse("0.9", &b);
    CHECK_EQ_I64(-1, decimal_cmp(a, b));
    CHECK_EQ_I64(1, decimal_cmp(b, a));
    decimal_parse("-5", &a);
    decimal_parse("-0.5", &b);
    CHECK_EQ_I64(-1, decimal_cmp(a, b));
    decimal_parse("0", &a);
    CHECK_EQ_I64(1, decimal_cmp(a, b));
    decimal_parse("1e20", &a);
    decimal_parse("99999999999999999e3", &b);
    CHECK_EQ_I64(1, decimal_cmp(a, b));
    decimal_parse("123456789012345678e-5", &a);
    decimal_parse("123456789012345677e-5", &b);
    CHECK_EQ_I64(1, decimal_cmp(a, b));
}

static void test_ranges(void)
{
    static const char *const fine[] = {"0.5",  "0.55", "0.6",  "0.65", "0.7",  "0.75", "0.8",  "0.85", "0.9",
                                       "0.95", "1",    "1.05", "1.1",  "1.15", "1.2",  "1.25", "1.3"};
    static const char *const adx[] = {"0", "5", "10", "15", "20", "25", "30", "35", "40"};
    static const char *const stops[] = {"-1", "-0.9", "-0.8", "-0.7", "-0.6", "-0.5", "-0.4", "-0.3", "-0.2", "-0.1"};
    static const char *const milli[] = {"0.001", "0.002", "0.003", "0.004", "0.005"};
    static const char *const hundred[] = {"0", "25", "50", "75", "100"};
    static const char *const across[] = {"-0.5", "-0.25", "0", "0.25", "0.5"};
    static const char *const one[] = {"0.7"};
    check_range("0.5", "1.3", "0.05", 17, fine);
    check_range("0", "40", "5", 9, adx);
    check_range("-1.0", "-0.1", "0.1", 10, stops);
    check_range("1e-3", "5e-3", "1e-3", 5, milli);
    check_range("0", "1e2", "2.5e1", 5, hundred);
    check_range("-0.5", "0.5", "0.25", 5, across);
    check_range("0.7", "0.70", "0.1", 1, one);

    /* The point of it all: value 7 is the double of "0.85", which double
     * arithmetic does not reach. */
    {
        decimal_t a, b, s;
        decimal_range_t r;
        volatile double start = 0.5, step = 0.05; /* keep the compiler from folding */
        double naive = start + 7 * step;
        decimal_parse("0.5", &a);
        decimal_parse("1.3", &b);
        decimal_parse("0.05", &s);
        decimal_range_init(&r, a, b, s, 65535);
        CHECK(same_bits(strtod("0.85", NULL), decimal_to_double(decimal_range_at(&r, 7))));
        CHECK(!same_bits(naive, decimal_to_double(decimal_range_at(&r, 7))));
        CHECK_EQ_F64(0.85, decimal_to_double(decimal_range_at(&r, 7)));
        /* Normalised: 1.0 comes back as {1, 0}. */
        CHECK_EQ_I64(1, decimal_range_at(&r, 10).mant);
        CHECK_EQ_I64(0, decimal_range_at(&r, 10).exp);
    }

    CHECK_EQ_I64(DECIMAL_RANGE_STEP_NOT_POSITIVE, range_err("0", "1", "0", 65535));
    CHECK_EQ_I64(DECIMAL_RANGE_STEP_NOT_POSITIVE, range_err("0", "1", "-0.1", 65535));
    CHECK_EQ_I64(DECIMAL_RANGE_REVERSED, range_err("1", "0", "0.1", 65535));
    CHECK_EQ_I64(DECIMAL_RANGE_NOT_MULTIPLE, range_err("0", "1", "0.3", 65535));
    CHECK_EQ_I64(DECIMAL_RANGE_NOT_MULTIPLE, range_err("0.5", "1.3", "0.06", 65535));
    CHECK_EQ_I64(DECIMAL_RANGE_OK, range_err("0", "65534", "1", 65535));
    CHECK_EQ_I64(DECIMAL_RANGE_TOO_MANY, range_err("0", "65535", "1", 65535));
    CHECK_EQ_I64(DECIMAL_RANGE_TOO_MANY, range_err("-9e17", "9e17", "1", 65535));
    CHECK_EQ_I64(DECIMAL_RANGE_OVERFLOW, range_err("0", "1e300", "1e-300", 65535));
    CHECK_EQ_I64(DECIMAL_RANGE_OVERFLOW, range_err("1", "2", "1e-19", 65535));
    {
        decimal_t a, b, s;
        decimal_range_t r;
        decimal_parse("-9e17", &a);
        decimal_parse("9e17", &b);
        decimal_parse("1e-1", &s);
        /* 1.8e19 steps: counted exactly in unsigned 64-bit, then refused. */
        CHECK_EQ_I64(DECIMAL_RANGE_TOO_MANY, decimal_range_init(&r, a, b, s, 65535));
        CHECK(r.count == UINT64_C(18000000000000000001));
        decimal_parse("9e16", &b);
        CHECK_EQ_I64(DECIMAL_RANGE_TOO_MANY, decimal_range_init(&r, a, b, s, 65535));
        CHECK(r.count == UINT64_C(9900000000000000001));
    }
}

int main(void)
{
    test_parse();
    test_format();
    test_cmp();
    test_ranges();
    return check_exit();
}
