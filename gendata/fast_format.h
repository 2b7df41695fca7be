/* Hand-rolled number and time formatting for bulk CSV output.
 *
 * printf costs ~100 ns a field; gen-data writes ~570 M fields for a year of
 * seconds, so fields are written by these functions instead. Each writes at
 * dst (no terminating NUL) and returns the end of what it wrote. The double
 * functions round exactly like glibc's printf("%.*f") and Python's round():
 * to nearest on the exact binary value, ties to even. */
#ifndef EVOLVE_IO_FAST_FORMAT_H
#define EVOLVE_IO_FAST_FORMAT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Longest output of any function here (ff_fixed of a huge double, via its
 * snprintf fallback, can be ~330 characters). */
#define FF_MAX_CHARS 400

/* Decimal integer, "-" for negatives ("-9223372036854775808" included). */
char *ff_i64(char *dst, int64_t v);

/* q * 10^-decimals with exactly `decimals` digits after the point:
 * ff_fixed_i64(d, 3012, 2) -> "30.12", (-5, 2) -> "-0.05", (7, 0) -> "7".
 * decimals: 0..18. */
char *ff_fixed_i64(char *dst, int64_t q, int decimals);

/* Rounds |x| * 10^decimals to the nearest integer, ties to even, deciding on
 * the exact value of x (not on the rounded product), and gives it the sign
 * of x. Returns 1 and sets *q; returns 0 when x is not finite, decimals is
 * outside 0..9, or |x| * 10^decimals >= 2^52. */
int ff_round_scaled(double x, int decimals, int64_t *q);

/* Exactly printf("%.*f", decimals, x) (including "-0.0000" for negative values
 * that round to zero, "nan", "inf"). decimals: 0..9. */
char *ff_fixed(char *dst, double x, int decimals);

/* Seconds after midnight (0..86399) as "HH:MM:SS". */
char *ff_hms(char *dst, int seconds_of_day);

/* A date as "MM<sep>DD<sep>YYYY" (the trader's order; sep '/' or '-'). */
char *ff_mdy(char *dst, int year, int month, int day, char sep);

#ifdef __cplusplus
}
#endif
#endif
