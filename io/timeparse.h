/* Civil dates and wall-clock times as the SPEC's timestamps: whole seconds
 * since 1970-01-01 00:00:00 of the wall-clock time, no time zones. Pure
 * arithmetic (no timegm/mktime), so it is the same on every platform.
 *
 * Parsers take a (pointer, length) text, allow leading and trailing spaces,
 * validate every range (month 1-12, the month's days with leap years, hours
 * 0-23, minutes and seconds 0-59) and return 1 on success, 0 otherwise. */
#ifndef EVOLVE_TIMEPARSE_H
#define EVOLVE_TIMEPARSE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TIME_SECONDS_PER_DAY 86400

/* Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's
 * days_from_civil); negative before 1970. */
int64_t time_days_from_civil(int64_t y, int m, int d);

/* The inverse: the date of a day number. */
void time_civil_from_days(int64_t days, int64_t *y, int *m, int *d);

int time_days_in_month(int64_t y, int m);

/* MM/DD/YYYY, MM-DD-YYYY or YYYY-MM-DD (1- or 2-digit month and day). */
int time_parse_date(const char *s, size_t n, int64_t *days);

/* HH:MM:SS (1- or 2-digit hour) -> seconds since midnight. */
int time_parse_clock(const char *s, size_t n, int32_t *secs);

/* A date (any form above), ' ' or 'T', then HH:MM:SS -> timestamp. */
int time_parse_datetime(const char *s, size_t n, int64_t *ts);

/* A market file name, exactly "Raw_Market_data_MM-DD-YYYY.csv" (2-digit
 * month and day, 4-digit year, a real date) -> its day number. */
int time_parse_market_name(const char *name, int64_t *days);

/* "YYYY-MM-DD HH:MM:SS" of a timestamp, for messages. buf: at least 32 bytes. */
void time_format(int64_t ts, char *buf, size_t n);

#ifdef __cplusplus
}
#endif
#endif
