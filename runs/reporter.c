/* The reporter's calls (runs/reporter.h): a line is formatted here and
 * handed to the front end's callback, which alone prints. */
#include "runs/reporter.h"

#include <stdarg.h>

int run_noting(const run_reporter_t *r)
{
    return r && r->note;
}

static void line(void (*fn)(void *, const char *), void *user, const char *fmt, va_list ap)
{
    char buf[4096];
    vsnprintf(buf, sizeof buf, fmt, ap);
    fn(user, buf);
}

void run_note(const run_reporter_t *r, const char *fmt, ...)
{
    va_list ap;
    if (!run_noting(r))
        return;
    va_start(ap, fmt);
    line(r->note, r->user, fmt, ap);
    va_end(ap);
}

void run_warning(const run_reporter_t *r, const char *fmt, ...)
{
    va_list ap;
    if (!r || !r->warning)
        return;
    va_start(ap, fmt);
    line(r->warning, r->user, fmt, ap);
    va_end(ap);
}

void run_table(const run_reporter_t *r, const run_table_t *t)
{
    if (r && r->table)
        r->table(r->user, t);
}

FILE *run_log(const run_reporter_t *r)
{
    return r ? r->log : NULL;
}

FILE *run_err(const run_reporter_t *r)
{
    return r ? r->err : NULL;
}
