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

/* One warning naming the genes of top's rank 1 on an edge of their lattice
 * (lattice_edge): the lattice may end before the best value. */
static void edge_warning(const run_reporter_t *r, const config_t *cfg, const reported_t *top)
{
    char list[1024] = "";
    size_t used = 0;
    if (!top || top->n == 0 || !top->e[0].r.feasible)
        return;
    for (int32_t k = 0; k < cfg->lattice.n_params && used < sizeof list; k++) {
        const param_t *p = &cfg->lattice.params[k];
        const uint16_t g = top->e[0].genes[k];
        const int edge = lattice_edge(p, g);
        const uint32_t numbers = p->n_values - (param_has_off(p) ? 1u : 0u); /* off is not one of them */
        if (edge)
            used += (size_t)snprintf(list + used, sizeof list - used, "%s%s = %s (the %s of %u values)",
                                     used ? ", " : "", p->name, p->value_text ? p->value_text[g] : "?",
                                     edge < 0 ? "lowest" : "highest", numbers);
    }
    if (used)
        run_warning(r,
                    "evolve: warning: rank 1 sits on an edge of the lattice: %s; a better value may lie beyond it: "
                    "widen the lattice there to see\n",
                    list);
}

void run_table(const run_reporter_t *r, const run_table_t *t)
{
    if (!r || !r->table)
        return;
    r->table(r->user, t);
    if (t->kind != RUN_TABLE_WALK) /* under the table a front end prints */
        edge_warning(r, t->cfg, t->top);
}

FILE *run_log(const run_reporter_t *r)
{
    return r ? r->log : NULL;
}

FILE *run_err(const run_reporter_t *r)
{
    return r ? r->err : NULL;
}
