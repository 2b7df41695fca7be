#include "common/progress.h"

#include "common/platform.h"

void progress_start(progress_t *p, FILE *out, const char *label, const char *unit, uint64_t total)
{
    p->out = out;
    p->label = label;
    p->unit = unit;
    p->total = total;
    p->base = 0;
    p->t0 = plat_now();
    p->last = p->t0;
    p->printed = 0;
    p->tty = out == stderr && plat_stderr_is_tty();
}

static void format_eta(char *buf, size_t n, double s)
{
    if (s < 0 || s != s || s > 1e8)
        snprintf(buf, n, "?");
    else if (s < 120)
        snprintf(buf, n, "%.0fs", s);
    else if (s < 7200)
        snprintf(buf, n, "%.0fm%02.0fs", (double)(int)(s / 60), s - 60.0 * (int)(s / 60));
    else
        snprintf(buf, n, "%.1fh", s / 3600);
}

static void print_line(progress_t *p, uint64_t done, double now)
{
    double el = now - p->t0;
    double rate = el > 0 && done >= p->base ? (double)(done - p->base) / el : 0;
    char eta[32];
    format_eta(eta, sizeof eta, rate > 0 ? (double)(p->total - done) / rate : -1);
    fprintf(p->out, "%s%s: %llu/%llu %s (%.1f%%), %.3g %s/s, ETA %s%s", p->tty ? "\r" : "", p->label,
            (unsigned long long)done, (unsigned long long)p->total, p->unit,
            p->total ? 100.0 * (double)done / (double)p->total : 100.0, rate, p->unit, eta, p->tty ? "   " : "\n");
    fflush(p->out);
    p->printed = 1;
    p->last = now;
}

void progress_update(progress_t *p, uint64_t done)
{
    double now;
    if (!p->out)
        return;
    now = plat_now();
    if (now - p->t0 < 1.0 || now - p->last < (p->tty ? 0.5 : 10.0))
        return;
    print_line(p, done, now);
}

void progress_from(progress_t *p, uint64_t done)
{
    p->base = done;
}

void progress_finish(progress_t *p, uint64_t done)
{
    if (!p->out || !p->printed)
        return;
    print_line(p, done, plat_now());
    if (p->tty)
        fputc('\n', p->out);
}
