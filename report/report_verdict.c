/* The verdict of a run file as evolve report shows it: computed again from
 * the list and its baselines (fitness/verdict.h), as the run did. */
#include <stdlib.h>

#include "archive/run_walk.h"
#include "report/report_verdict.h"

/* The list a verdict speaks of: the grid's (exact; also --validate's, as
 * its JSON), else the GA's hall of fame. */
static const reported_t *verdict_list(const report_run_t *r)
{
    return r->has_grid ? &r->top.list : &r->hof.list;
}

static ev_status walk_verdict(report_run_t *r, verdict_t *v, ev_error *err)
{
    ranked_genome_t *e = NULL;
    double *value = NULL;
    uint32_t n = 0;
    run_walk_base_t b;
    int32_t kind[BASELINE_KINDS];
    ev_status st = run_file_read_ranked(&r->rf, "walk_forward/test", &e, &value, &n, err);
    if (st == EV_OK && (st = run_file_read_walk_baselines(&r->rf, &b, err)) == EV_OK) {
        for (size_t j = 0; j < b.n_base && j < BASELINE_KINDS; j++)
            kind[j] = baseline_kind_of(b.names[j]);
        st = verdict_of_walk(v, b.n_windows == n ? (int32_t)n : 0, value, e, (int32_t)b.n_base, kind, b.fitness, b.r,
                             err);
        run_walk_base_free(&b);
    }
    free(e);
    free(value);
    return st;
}

ev_status report_verdict(report_run_t *r, verdict_t *v, ev_error *err)
{
    const reported_t *l = verdict_list(r);
    if (run_file_has(&r->rf, "walk_forward"))
        return walk_verdict(r, v, err);
    return verdict_of_list(v, l, l->val ? l->val->trials : 0.0, err);
}
