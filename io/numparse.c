#include "io/numparse.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Longest number text accepted: far beyond the 17 significant digits a
 * double holds, short enough for a stack copy. */
#define NUM_MAX_TEXT 127

/* Trims spaces and copies the field into buf as a C string; 0 when empty or
 * too long (*too_long set). */
static size_t copy_trimmed(const char *s, size_t n, char *buf, int *too_long)
{
    while (n && (*s == ' ' || *s == '\t')) {
        s++;
        n--;
    }
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    *too_long = n > NUM_MAX_TEXT;
    if (n == 0 || *too_long)
        return 0;
    memcpy(buf, s, n);
    buf[n] = '\0';
    return n;
}

num_result num_parse_double(const char *s, size_t n, double *out)
{
    char buf[NUM_MAX_TEXT + 1], *end;
    int too_long;
    size_t len = copy_trimmed(s, n, buf, &too_long);
    double v;
    if (too_long)
        return NUM_MALFORMED;
    if (len == 0)
        return NUM_EMPTY;
    if (memchr(buf, 'x', len) || memchr(buf, 'X', len))
        return NUM_MALFORMED;
    errno = 0;
    v = strtod(buf, &end);
    if (end != buf + len)
        return NUM_MALFORMED;
    if (isinf(v) && errno == ERANGE)
        return NUM_OUT_OF_RANGE;
    *out = v;
    return isfinite(v) ? NUM_OK : NUM_NON_FINITE;
}

num_result num_parse_int64(const char *s, size_t n, int64_t *out)
{
    char buf[NUM_MAX_TEXT + 1], *end;
    int too_long;
    size_t len = copy_trimmed(s, n, buf, &too_long);
    long long v;
    if (too_long)
        return NUM_MALFORMED;
    if (len == 0)
        return NUM_EMPTY;
    if (!(buf[0] >= '0' && buf[0] <= '9') && buf[0] != '-' && buf[0] != '+')
        return NUM_MALFORMED;
    errno = 0;
    v = strtoll(buf, &end, 10);
    if (end != buf + len || errno == ERANGE)
        return NUM_MALFORMED;
    *out = (int64_t)v;
    return NUM_OK;
}
