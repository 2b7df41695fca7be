/* Exact decimal numbers for lattice values (SPEC sec. 3).
 *
 * A config's `range: {start, stop, step}` must produce the same values as if
 * they had been typed in a list: 0.5 + 7*0.05 is the decimal 0.85, whose double
 * is strtod("0.85"), never the 0.8500000000000001 that double arithmetic gives.
 * So ranges are computed in scaled 64-bit integers (mantissa * 10^exp), written
 * out as minimal text, and only then converted to double. */
#ifndef EVOLVE_DECIMAL_H
#define EVOLVE_DECIMAL_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* value = mant * 10^exp. Normalised: mant has no trailing decimal zeros, and
 * a zero is {0, 0}. Parsed decimals have at most DECIMAL_MAX_DIGITS digits;
 * a range's values may have one more (any |mant| <= INT64_MAX is valid). */
typedef struct {
    int64_t mant;
    int32_t exp;
} decimal_t;

#define DECIMAL_MAX_DIGITS 18 /* significant digits a decimal_t holds exactly */
#define DECIMAL_MAX_EXP 350   /* |exp| bound: beyond it no double is meaningful */
#define DECIMAL_TEXT_MAX 48   /* buffer size for decimal_format, NUL included */

typedef enum {
    DECIMAL_OK = 0,
    DECIMAL_NOT_A_NUMBER, /* not [+-]digits[.digits][e[+-]digits] */
    DECIMAL_TOO_PRECISE,  /* more than DECIMAL_MAX_DIGITS significant digits */
    DECIMAL_OUT_OF_RANGE  /* exponent beyond DECIMAL_MAX_EXP */
} decimal_err;

/* 1 when text is a decimal number: an optional sign, digits with an optional
 * fraction (".5" and "5." are accepted), an optional exponent ("1e-3"). No
 * spaces, underscores, hex, inf or nan. Any number of digits. */
int decimal_is_number(const char *text);

/* Parses text (the grammar of decimal_is_number) exactly. */
decimal_err decimal_parse(const char *text, decimal_t *out);

/* A short English reason for a decimal_err, for messages. */
const char *decimal_err_str(decimal_err e);

/* Minimal text: "0.85", "-0.3", "40", "0"; scientific ("1.5e-9", "2e25") only
 * when plain notation would need more than 6 leading or 21 integer digits.
 * buf holds DECIMAL_TEXT_MAX bytes. strtod reads the text back exactly. */
void decimal_format(decimal_t d, char *buf);

/* The double nearest the decimal: strtod of decimal_format's text. */
double decimal_to_double(decimal_t d);

/* -1, 0 or 1 as a < b, a == b, a > b (exact). */
int decimal_cmp(decimal_t a, decimal_t b);

/* A range expanded in scaled integers: value i = (start + i*step) * 10^exp. */
typedef struct {
    int64_t start;
    int64_t step;
    int32_t exp;
    uint64_t count; /* values, stop included when reached */
} decimal_range_t;

typedef enum {
    DECIMAL_RANGE_OK = 0,
    DECIMAL_RANGE_STEP_NOT_POSITIVE, /* step <= 0 */
    DECIMAL_RANGE_REVERSED,          /* stop < start */
    DECIMAL_RANGE_NOT_MULTIPLE,      /* stop - start is not a whole number of steps */
    DECIMAL_RANGE_TOO_MANY,          /* more than max_count values (count is still set) */
    DECIMAL_RANGE_OVERFLOW           /* the numbers cannot share one exponent in 64 bits */
} decimal_range_err;

/* Aligns start, stop and step to one exponent and counts the values. */
decimal_range_err decimal_range_init(decimal_range_t *r, decimal_t start, decimal_t stop, decimal_t step,
                                     uint64_t max_count);

/* The i-th value (i < r->count), exact and normalised. */
decimal_t decimal_range_at(const decimal_range_t *r, uint64_t i);

#ifdef __cplusplus
}
#endif
#endif
