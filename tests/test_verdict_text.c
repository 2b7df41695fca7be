/* The verdict's words and numbers (fitness/verdict.h), as docs/report.md "The
 * verdict" and docs/config.md (deflated_sharpe) print them: values with 2
 * decimals, 3 significant digits where 2 decimals would read 0.00 or run
 * wider than 1e7, a sign on differences, inf for +inf and - for none; a DSR
 * with 3 decimals, 1.0e-04 below 0.001, and under 1e-6 "< 1e-6 (z = ...)"
 * in the verdict, "<1e-6" in a table cell, never 0.000; the parts' and the
 * baselines' names. */
#include <math.h>
#include <string.h>

#include "fitness/verdict.h"
#include "tests/check.h"

static void num_is(double v, int sign, const char *want)
{
    char buf[64];
    verdict_num(buf, sizeof buf, v, sign);
    CHECK_STR(want, buf);
}

static void dsr_is(double dsr, double z, const char *verdict, const char *cell)
{
    char buf[64];
    verdict_dsr_format(buf, sizeof buf, dsr, z);
    CHECK_STR(verdict, buf);
    verdict_dsr_cell(buf, sizeof buf, dsr);
    CHECK_STR(cell, buf);
}

static void part_is(verdict_part_kind kind, int32_t number, const char *want)
{
    char buf[64];
    verdict_part_t p;
    memset(&p, 0, sizeof p);
    p.kind = kind;
    p.number = number;
    verdict_part_name(buf, sizeof buf, &p);
    CHECK_STR(want, buf);
}

int main(void)
{
    num_is(1.234, 0, "1.23");
    num_is(1.234, 1, "+1.23");
    num_is(-1.51, 1, "-1.51");
    num_is(0.0, 1, "+0.00");
    num_is(0.0123, 0, "0.01");
    num_is(0.01, 0, "0.01");
    num_is(0.004, 0, "0.004");
    num_is(-0.00123, 1, "-0.00123");
    num_is(9999999.0, 0, "9999999.00");
    num_is(1e7, 0, "1e+07");
    num_is(-23456789.0, 1, "-2.35e+07");
    num_is(HUGE_VAL, 0, "inf");
    num_is(HUGE_VAL, 1, "+inf");
    num_is(-HUGE_VAL, 1, "-inf");
    num_is(NAN, 1, "-");
    dsr_is(0.97123, 2.1, "0.971", "0.971");
    dsr_is(0.001, 0.0, "0.001", "0.001");
    dsr_is(0.0005, -3.3, "5.0e-04", "5.0e-04");
    dsr_is(1e-6, -4.75, "1.0e-06", "1.0e-06");
    dsr_is(5e-7, -4.864, "< 1e-6 (z = -4.86)", "<1e-6");
    dsr_is(0.0, -40.0, "< 1e-6 (z = -40.00)", "<1e-6");
    dsr_is(NAN, NAN, "-", "-");
    part_is(VPART_IN_SAMPLE, 0, "in sample");
    part_is(VPART_HOLDOUT, 0, "holdout");
    part_is(VPART_FOLD, 3, "fold 3");
    part_is(VPART_WINDOW, 12, "window 12");
    part_is(VPART_CHAIN, 0, "chained");
    CHECK_STR("your trade log", verdict_base_words(BASELINE_LOG));
    CHECK_STR("the loosest point", verdict_base_words(BASELINE_LOOSEST));
    CHECK_STR("your baseline", verdict_base_words(BASELINE_TRADER));
    return check_exit();
}
