/* Strict number fields: the whole field (spaces around it allowed) must be a
 * number. An empty field or NaN/inf is "missing" (the SPEC drops such trades),
 * which callers report differently from text that is not a number at all
 * (an error). */
#ifndef EVOLVE_NUMPARSE_H
#define EVOLVE_NUMPARSE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    NUM_OK = 0,
    NUM_EMPTY,        /* nothing but spaces */
    NUM_NON_FINITE,   /* nan or inf, as written */
    NUM_OUT_OF_RANGE, /* a decimal beyond the double range (1e400) */
    NUM_MALFORMED     /* not a decimal number */
} num_result;

/* A decimal number as strtod reads it (the SPEC's "CSV text parsed as a
 * double"); hexadecimal floats are refused. On NUM_OK and NUM_NON_FINITE,
 * *out holds the value; a decimal too small for a double is NUM_OK (0 or a
 * subnormal, as strtod rounds it). */
num_result num_parse_double(const char *s, size_t n, double *out);

/* A decimal integer that fits in int64 (optional sign). */
num_result num_parse_int64(const char *s, size_t n, int64_t *out);

#ifdef __cplusplus
}
#endif
#endif
