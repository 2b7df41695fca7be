/* evolve doctor's PASS / FAIL lines and their tally. */
#include "cli/doctor_gpu_verdict.h"

#include <stdarg.h>
#include <stdio.h>

void doctor_verdict(doctor_tally_t *t, int ok, const char *fmt, ...)
{
    va_list ap;
    printf("%s  ", ok ? "PASS" : "FAIL");
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    fflush(stdout);
    if (ok)
        t->passed++;
    else
        t->failed++;
}
