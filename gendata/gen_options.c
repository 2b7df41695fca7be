/* gen-data's options: defaults and the parsing of ticker lists and dates
 * (shared by the CLI and by gen_data_run's own checks). */
#include <string.h>

#include "gendata/gen_calendar.h"
#include "gendata/gen_data.h"

void gen_data_opts_default(gen_data_opts_t *o)
{
    static const char *const tickers[] = {"SOXL", "IONQ", "MARA", "NVDA", "TSLA", "AMD", "TQQQ"};
    memset(o, 0, sizeof *o);
    o->days = 5;
    o->start_year = 2024;
    o->start_month = 1;
    o->start_day = 2;
    o->n_tickers = (int)(sizeof tickers / sizeof tickers[0]);
    for (int i = 0; i < o->n_tickers; i++)
        strcpy(o->tickers[i], tickers[i]);
    o->n_trade_tickers = -1; /* SOXL, IONQ, MARA (see gen_data.h) */
    o->trades = 600;
    o->seed = 1;
}

/* Ticker names are written unquoted into CSV and matched exactly by ingest,
 * so only characters that need no quoting and have one spelling are allowed. */
static int ticker_char(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '-';
}

ev_status gen_data_parse_tickers(const char *list, const char *what, int allow_empty, char (*names)[GEN_TICKER_CHARS],
                                 int *n, ev_error *err)
{
    const char *p = list;
    *n = 0;
    if (!*list) {
        if (allow_empty)
            return EV_OK;
        return ev_fail(err, EV_EUSAGE,
                       "%s: expected a comma-separated list of tickers such as "
                       "SOXL,IONQ,MARA, got an empty string",
                       what);
    }
    for (;;) {
        size_t len = strcspn(p, ",");
        if (len == 0)
            return ev_fail(err, EV_EUSAGE,
                           "%s: empty ticker name in \"%s\" (use commas only "
                           "between names, as in SOXL,IONQ,MARA)",
                           what, list);
        if (len >= GEN_TICKER_CHARS)
            return ev_fail(err, EV_EUSAGE, "%s: ticker \"%.*s\" is longer than %d characters", what, (int)len, p,
                           GEN_TICKER_CHARS - 1);
        for (size_t i = 0; i < len; i++)
            if (!ticker_char(p[i]))
                return ev_fail(err, EV_EUSAGE,
                               "%s: ticker \"%.*s\" has the character '%c'; use "
                               "upper-case letters, digits, '.' and '-' only",
                               what, (int)len, p, p[i]);
        if (*n == GEN_MAX_TICKERS)
            return ev_fail(err, EV_EUSAGE, "%s: more than %d tickers", what, GEN_MAX_TICKERS);
        memcpy(names[*n], p, len);
        names[*n][len] = '\0';
        for (int k = 0; k < *n; k++)
            if (!strcmp(names[k], names[*n]))
                return ev_fail(err, EV_EUSAGE, "%s: ticker %s is listed twice", what, names[k]);
        (*n)++;
        if (!p[len])
            return EV_OK;
        p += len + 1;
    }
}

ev_status gen_data_parse_date(const char *s, int *year, int *month, int *day, ev_error *err)
{
    int v[3] = {0, 0, 0};
    static const int start[3] = {0, 5, 8}, width[3] = {4, 2, 2};
    if (strlen(s) != 10 || s[4] != '-' || s[7] != '-')
        return ev_fail(err, EV_EUSAGE, "--start: expected a date as YYYY-MM-DD, got \"%s\"", s);
    for (int f = 0; f < 3; f++) {
        for (int i = start[f]; i < start[f] + width[f]; i++) {
            if (s[i] < '0' || s[i] > '9')
                return ev_fail(err, EV_EUSAGE, "--start: expected a date as YYYY-MM-DD, got \"%s\"", s);
            v[f] = v[f] * 10 + (s[i] - '0');
        }
    }
    if (v[0] < 1900 || !gen_date_valid(v[0], v[1], v[2]))
        return ev_fail(err, EV_EUSAGE, "--start: %s is not a calendar date from 1900 on", s);
    *year = v[0];
    *month = v[1];
    *day = v[2];
    return EV_OK;
}
