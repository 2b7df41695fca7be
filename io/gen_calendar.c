#include "io/gen_calendar.h"

#include <stdint.h>

static int is_leap(int y)
{
    return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

int gen_date_valid(int year, int month, int day)
{
    static const int len[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (month < 1 || month > 12 || day < 1)
        return 0;
    return day <= len[month - 1] + (month == 2 && is_leap(year));
}

/* Days since 1970-01-01 (H. Hinnant's days_from_civil). */
static int64_t days_from_civil(int y, int m, int d)
{
    int64_t era, yoe, doy, doe;
    y -= m <= 2;
    era = (y >= 0 ? y : y - 399) / 400;
    yoe = y - era * 400;
    doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

static gen_date_t civil_from_days(int64_t z)
{
    gen_date_t out;
    int64_t era, doe, yoe, doy, mp;
    z += 719468;
    era = (z >= 0 ? z : z - 146096) / 146097;
    doe = z - era * 146097;
    yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    mp = (5 * doy + 2) / 153;
    out.day = (int)(doy - (153 * mp + 2) / 5 + 1);
    out.month = (int)(mp < 10 ? mp + 3 : mp - 9);
    out.year = (int)(yoe + era * 400 + (out.month <= 2));
    return out;
}

void gen_weekdays(gen_date_t start, int count, gen_date_t *out)
{
    int64_t z = days_from_civil(start.year, start.month, start.day);
    for (int n = 0; n < count; z++) {
        /* 1970-01-01 was a Thursday: (z + 4) mod 7 is 0 on Sundays. */
        int64_t wd = ((z + 4) % 7 + 7) % 7;
        if (wd != 0 && wd != 6)
            out[n++] = civil_from_days(z);
    }
}
