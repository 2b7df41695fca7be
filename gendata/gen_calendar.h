/* Proleptic Gregorian dates for gen-data: validity and weekday runs.
 * (Exchange holidays are not modelled: every Monday..Friday is a session.) */
#ifndef EVOLVE_IO_GEN_CALENDAR_H
#define EVOLVE_IO_GEN_CALENDAR_H

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    int year, month, day;
} gen_date_t;

/* 1 when year-month-day exists (month 1..12, day 1..28/29/30/31). */
int gen_date_valid(int year, int month, int day);

/* The first `count` weekdays on or after `start` into out[count]. */
void gen_weekdays(gen_date_t start, int count, gen_date_t *out);

#ifdef __cplusplus
}
#endif
#endif
