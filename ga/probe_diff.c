/* The texts of a probe difference (ga/probe_diff.h). */
#include "ga/probe_diff.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void probe_genome_text(const fit_problem_t *p, const uint16_t *genes, char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int32_t k = 0; k < p->lat->n_params && used + 1 < n; k++) {
        const param_t *prm = &p->lat->params[k];
        int w =
            snprintf(buf + used, n - used, "%s%s=%s%s", k ? ", " : "(", prm->name,
                     genes[k] < prm->n_values ? prm->value_text[genes[k]] : "?", k + 1 == p->lat->n_params ? ")" : "");
        if (w < 0)
            break;
        used += (size_t)w < n - used ? (size_t)w : n - used - 1;
    }
}

void probe_result_text(const eval_result_t *r, char *buf, size_t n)
{
    snprintf(buf, n, "fitness %.17g, %lld trade(s) kept, %s", r->fitness, (long long)r->trades,
             r->feasible ? "feasible" : "infeasible");
}

int probe_mismatch(probe_t *x, const char *fmt, ...)
{
    va_list ap;
    if (x->out->match) {
        x->out->match = 0;
        va_start(ap, fmt);
        vsnprintf(x->out->what, sizeof x->out->what, fmt, ap);
        va_end(ap);
    }
    return 1;
}

int probe_test_failed(probe_t *x, const char *step, const ev_error *e)
{
    return probe_mismatch(x, "%s: the %s backend failed: %s", step, x->ops[1]->name, e->msg);
}

int probe_same_result(const eval_result_t *a, const eval_result_t *b)
{
    return memcmp(a, b, sizeof *a) == 0;
}
