#include "gendata/gen_calendar.h"

#include <stdint.h>

#include "io/timeparse.h"

/* The date arithmetic is timeparse's (one copy of Hinnant's algorithms for
 * ingest and gen-data); this file only adds the weekday walk. */

int gen_date_valid(int year, int month, int day)
{
    return day >= 1 && day <= time_days_in_month(year, month); /* 0 for a bad month */
}

void gen_weekdays(gen_date_t start, int count, gen_date_t *out)
{
    int64_t z = time_days_from_civil(start.year, start.month, start.day);
    for (int n = 0; n < count; z++) {
        /* 1970-01-01 was a Thursday: (z + 4) mod 7 is 0 on Sundays. */
        int64_t wd = ((z + 4) % 7 + 7) % 7;
        if (wd != 0 && wd != 6) {
            int64_t y;
            time_civil_from_days(z, &y, &out[n].month, &out[n].day);
            out[n++].year = (int)y;
        }
    }
}
