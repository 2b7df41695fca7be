/* Civil-date arithmetic, the date/time/market-name parsers and the strict
 * number parser, against hand-computed values. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "io/numparse.h"
#include "io/timeparse.h"
#include "tests/check.h"

static int64_t date(const char *s)
{
    int64_t d = -999999;
    return time_parse_date(s, strlen(s), &d) ? d : -999999;
}

static int64_t clock_(const char *s)
{
    int32_t v = -1;
    return time_parse_clock(s, strlen(s), &v) ? v : -1;
}

static int64_t datetime(const char *s)
{
    int64_t v = -1;
    return time_parse_datetime(s, strlen(s), &v) ? v : -1;
}

static void test_dates(void)
{
    int64_t y;
    int m, d;
    CHECK_EQ_I64(0, time_days_from_civil(1970, 1, 1));
    CHECK_EQ_I64(-1, time_days_from_civil(1969, 12, 31));
    CHECK_EQ_I64(11016, time_days_from_civil(2000, 2, 29)); /* 946684800/86400 + 59 */
    CHECK_EQ_I64(16330, time_days_from_civil(2014, 9, 17));
    /* SPEC sec. 1: 09-17-2014 09:30:00 is 1410946200 */
    CHECK_EQ_I64(1410946200, date("09/17/2014") * 86400 + clock_("09:30:00"));
    CHECK_EQ_I64(1410946200, datetime("2014-09-17 09:30:00"));
    CHECK_EQ_I64(1410946200, datetime("2014-09-17T09:30:00"));
    CHECK_EQ_I64(1410946200, datetime(" 9/17/2014 9:30:00 "));
    CHECK_EQ_I64(16330, date("09-17-2014"));
    CHECK_EQ_I64(16330, date("2014-09-17"));
    CHECK_EQ_I64(16330, date("9/17/2014"));
    CHECK_EQ_I64(16330, date("2014-9-17"));
    CHECK_EQ_I64(1514851200 / 86400, date("01/02/2018"));
    time_civil_from_days(16330, &y, &m, &d);
    CHECK(y == 2014 && m == 9 && d == 17);
    time_civil_from_days(11016, &y, &m, &d);
    CHECK(y == 2000 && m == 2 && d == 29);

    /* Leap years: 2000 and 2024 are, 1900 and 2023 are not. */
    CHECK(date("02/29/2024") != -999999);
    CHECK(date("2000-02-29") != -999999);
    CHECK_EQ_I64(-999999, date("02/29/2023"));
    CHECK_EQ_I64(-999999, date("02/29/1900"));
    CHECK_EQ_I64(-999999, date("04/31/2020"));
    CHECK_EQ_I64(-999999, date("13/01/2020"));
    CHECK_EQ_I64(-999999, date("00/10/2020"));
    CHECK_EQ_I64(-999999, date("2020/01/02")); /* YYYY needs '-' */
    CHECK_EQ_I64(-999999, date("01/02/20"));
    CHECK_EQ_I64(-999999, date("01-02/2020"));
    CHECK_EQ_I64(-999999, date("01/02/2020x"));
    CHECK_EQ_I64(-999999, date(""));
}

static void test_clock(void)
{
    char buf[32];
    CHECK_EQ_I64(0, clock_("00:00:00"));
    CHECK_EQ_I64(86399, clock_("23:59:59"));
    CHECK_EQ_I64(34201, clock_("9:30:01"));
    CHECK_EQ_I64(-1, clock_("24:00:00"));
    CHECK_EQ_I64(-1, clock_("12:60:00"));
    CHECK_EQ_I64(-1, clock_("12:00:60"));
    CHECK_EQ_I64(-1, clock_("12:0:00"));
    CHECK_EQ_I64(-1, clock_("12:00"));
    CHECK_EQ_I64(-1, clock_("12:00:00.5"));
    CHECK_EQ_I64(-1, clock_("x"));
    CHECK_EQ_I64(-1, datetime("2014-09-17"));
    CHECK_EQ_I64(-1, datetime("2014-09-17X09:30:00"));
    time_format(1410946200, buf, sizeof buf);
    CHECK_STR("2014-09-17 09:30:00", buf);
}

static void test_market_names(void)
{
    int64_t d = 0;
    CHECK(time_parse_market_name("Raw_Market_data_09-17-2014.csv", &d) && d == 16330);
    CHECK(time_parse_market_name("Raw_Market_data_02-29-2024.csv", &d));
    CHECK(!time_parse_market_name("Raw_Market_data_02-30-2024.csv", &d));
    CHECK(!time_parse_market_name("Raw_Market_data_9-17-2014.csv", &d));
    CHECK(!time_parse_market_name("Raw_Market_data_2014-09-17.csv", &d));
    CHECK(!time_parse_market_name("raw_market_data_09-17-2014.csv", &d));
    CHECK(!time_parse_market_name("Raw_Market_data_09-17-2014.CSV", &d));
    CHECK(!time_parse_market_name("Raw_Market_data_09-17-2014 (1).csv", &d));
    CHECK(!time_parse_market_name("Raw_Market_data_09/17/2014.csv", &d));
}

static num_result num(const char *s, double *v)
{
    return num_parse_double(s, strlen(s), v);
}

static void test_numbers(void)
{
    double v = 0;
    int64_t i = 0;
    CHECK(num("158.5450", &v) == NUM_OK && v == 158.545);
    CHECK(num("  -0.25 ", &v) == NUM_OK && v == -0.25);
    CHECK(num("1e-3", &v) == NUM_OK && v == 0.001);
    CHECK(num("", &v) == NUM_EMPTY);
    CHECK(num("   ", &v) == NUM_EMPTY);
    CHECK(num("nan", &v) == NUM_NON_FINITE && isnan(v));
    CHECK(num("NaN", &v) == NUM_NON_FINITE);
    CHECK(num("-inf", &v) == NUM_NON_FINITE && isinf(v));
    CHECK(num("Infinity", &v) == NUM_NON_FINITE);
    CHECK(num("1e999", &v) == NUM_OUT_OF_RANGE);
    CHECK(num("-1e999", &v) == NUM_OUT_OF_RANGE);
    CHECK(num("1e-999", &v) == NUM_OK && v == 0); /* underflow: strtod's 0 */
    CHECK(num("abc", &v) == NUM_MALFORMED);
    CHECK(num("1.5x", &v) == NUM_MALFORMED);
    CHECK(num("1.5 2", &v) == NUM_MALFORMED);
    CHECK(num("0x10", &v) == NUM_MALFORMED);
    CHECK(num("1,5", &v) == NUM_MALFORMED);
    CHECK(num_parse_int64(" 42 ", 4, &i) == NUM_OK && i == 42);
    CHECK(num_parse_int64("-7", 2, &i) == NUM_OK && i == -7);
    CHECK(num_parse_int64("4.0", 3, &i) == NUM_MALFORMED);
    CHECK(num_parse_int64("99999999999999999999", 20, &i) == NUM_MALFORMED);
    CHECK(num_parse_int64("", 0, &i) == NUM_EMPTY);
}

int main(void)
{
    test_dates();
    test_clock();
    test_market_names();
    test_numbers();
    return check_exit();
}
