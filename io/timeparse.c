#include "io/timeparse.h"

#include <stdio.h>
#include <string.h>

int64_t time_days_from_civil(int64_t y, int m, int d)
{
    /* Years start in March so the leap day is the last day of a year. */
    int64_t era, yoe, doy, doe;
    y -= m <= 2;
    era = (y >= 0 ? y : y - 399) / 400;
    yoe = y - era * 400;                                   /* [0, 399] */
    doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1; /* [0, 365] */
    doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;           /* [0, 146096] */
    return era * 146097 + doe - 719468;
}

void time_civil_from_days(int64_t z, int64_t *y, int *m, int *d)
{
    int64_t era, doe, yoe, doy, mp;
    z += 719468;
    era = (z >= 0 ? z : z - 146096) / 146097;
    doe = z - era * 146097;
    yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    mp = (5 * doy + 2) / 153;
    *d = (int)(doy - (153 * mp + 2) / 5 + 1);
    *m = (int)(mp < 10 ? mp + 3 : mp - 9);
    *y = yoe + era * 400 + (*m <= 2);
}

int time_days_in_month(int64_t y, int m)
{
    static const int days[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    if (m < 1 || m > 12)
        return 0;
    return days[m - 1] + (m == 2 && leap);
}

/* Reads min..max decimal digits at *p (not past e); -1 when there are none
 * or too many. */
static int read_digits(const char **p, const char *e, int min, int max)
{
    int v = 0, k = 0;
    while (*p < e && **p >= '0' && **p <= '9') {
        if (++k > max)
            return -1;
        v = v * 10 + (**p - '0');
        (*p)++;
    }
    return k < min ? -1 : v;
}

static void trim(const char **s, size_t *n)
{
    while (*n && (**s == ' ' || **s == '\t')) {
        (*s)++;
        (*n)--;
    }
    while (*n && ((*s)[*n - 1] == ' ' || (*s)[*n - 1] == '\t'))
        (*n)--;
}

static int make_days(int64_t y, int m, int d, int64_t *days)
{
    if (m < 1 || m > 12 || d < 1 || d > time_days_in_month(y, m))
        return 0;
    *days = time_days_from_civil(y, m, d);
    return 1;
}

/* A date at *p (advanced past it); no trimming. */
static int scan_date(const char **p, const char *e, int64_t *days)
{
    const char *q = *p;
    int a = read_digits(&q, e, 1, 4), b, c;
    char sep;
    if (a < 0 || q >= e || (*q != '/' && *q != '-'))
        return 0;
    sep = *q++;
    if (q - *p == 5) { /* YYYY-MM-DD */
        if (sep != '-')
            return 0;
        b = read_digits(&q, e, 1, 2);
        if (b < 0 || q >= e || *q++ != '-')
            return 0;
        c = read_digits(&q, e, 1, 2);
        if (c < 0 || !make_days(a, b, c, days))
            return 0;
    } else { /* MM/DD/YYYY or MM-DD-YYYY */
        if (q - *p > 3)
            return 0;
        b = read_digits(&q, e, 1, 2);
        if (b < 0 || q >= e || *q++ != sep)
            return 0;
        c = read_digits(&q, e, 4, 4);
        if (c < 0 || !make_days(c, a, b, days))
            return 0;
    }
    *p = q;
    return 1;
}

/* HH:MM:SS at *p (advanced past it). */
static int scan_clock(const char **p, const char *e, int32_t *secs)
{
    const char *q = *p;
    int h = read_digits(&q, e, 1, 2), m, s;
    if (h < 0 || q >= e || *q++ != ':')
        return 0;
    m = read_digits(&q, e, 2, 2);
    if (m < 0 || q >= e || *q++ != ':')
        return 0;
    s = read_digits(&q, e, 2, 2);
    if (s < 0 || h > 23 || m > 59 || s > 59)
        return 0;
    *secs = (int32_t)(h * 3600 + m * 60 + s);
    *p = q;
    return 1;
}

int time_parse_date(const char *s, size_t n, int64_t *days)
{
    const char *e;
    trim(&s, &n);
    e = s + n;
    return scan_date(&s, e, days) && s == e;
}

int time_parse_clock(const char *s, size_t n, int32_t *secs)
{
    const char *e;
    trim(&s, &n);
    e = s + n;
    return scan_clock(&s, e, secs) && s == e;
}

int time_parse_datetime(const char *s, size_t n, int64_t *ts)
{
    const char *e;
    int64_t days;
    int32_t secs;
    trim(&s, &n);
    e = s + n;
    if (!scan_date(&s, e, &days) || s >= e || (*s != ' ' && *s != 'T'))
        return 0;
    s++;
    if (!scan_clock(&s, e, &secs) || s != e)
        return 0;
    *ts = days * TIME_SECONDS_PER_DAY + secs;
    return 1;
}

int time_parse_market_name(const char *name, int64_t *days)
{
    static const char prefix[] = "Raw_Market_data_";
    const size_t np = sizeof prefix - 1;
    const char *p, *e;
    int m, d, y;
    /* prefix + "MM-DD-YYYY" + ".csv" */
    if (strlen(name) != np + 10 + 4 || memcmp(name, prefix, np) != 0 || strcmp(name + np + 10, ".csv") != 0)
        return 0;
    p = name + np;
    e = p + 10;
    m = read_digits(&p, e, 2, 2);
    if (m < 0 || *p++ != '-')
        return 0;
    d = read_digits(&p, e, 2, 2);
    if (d < 0 || *p++ != '-')
        return 0;
    y = read_digits(&p, e, 4, 4);
    return y >= 0 && p == e && make_days(y, m, d, days);
}

void time_format(int64_t ts, char *buf, size_t n)
{
    int64_t days = ts / TIME_SECONDS_PER_DAY, secs = ts % TIME_SECONDS_PER_DAY, y;
    int m, d;
    if (secs < 0) {
        secs += TIME_SECONDS_PER_DAY;
        days--;
    }
    time_civil_from_days(days, &y, &m, &d);
    snprintf(buf, n, "%04lld-%02d-%02d %02d:%02d:%02d", (long long)y, m, d, (int)(secs / 3600), (int)(secs / 60 % 60),
             (int)(secs % 60));
}
