/* A double as the shortest decimal text that reads back as the same double
 * (167.43, not 167.43000000000001): the one number format of every CSV. */
#ifndef EVOLVE_SHORTEST_H
#define EVOLVE_SHORTEST_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Room for any double's text (sign, 17 digits, point, exponent, NUL). */
#define EV_SHORTEST_MAX 32

/* Writes v into buf (n >= EV_SHORTEST_MAX) as "%.*g" with the fewest
 * significant digits (15, 16 or 17; %g drops trailing zeros, so 15 is the
 * shortest text of every double that some decimal of 15 or fewer digits
 * rounds to) such that strtod gives v back; "nan", "inf" or "-inf" when not
 * finite. Returns buf. */
char *ev_shortest(char *buf, size_t n, double v);

#ifdef __cplusplus
}
#endif
#endif
