/* The verdict of a run file as evolve report shows it: computed again from
 * the list and its baselines (fitness/verdict.h), as the run did. */
#include <stdlib.h>
#include <string.h>

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
    uint64_t trades = 0, feasible = 1;
    run_walk_base_t b;
    int32_t kind[BASELINE_KINDS];
    verdict_walk_t w;
    ev_status st = run_file_read_ranked(&r->rf, "walk_forward/test", &e, &value, &n, err);
    memset(&w, 0, sizeof w);
    if (st == EV_OK && (st = run_file_read_walk_baselines(&r->rf, &b, err)) == EV_OK) {
        for (size_t j = 0; j < b.n_base && j < BASELINE_KINDS; j++)
            kind[j] = baseline_kind_of(b.names[j]);
        w = (verdict_walk_t){.n_windows = b.n_windows == n ? (int32_t)n : 0,
                             .n_base = (int32_t)b.n_base,
                             .test_value = value,
                             .test = e,
                             .base_kind = kind,
                             .base_value = b.fitness,
                             .base = b.r,
                             .base_chained_value = b.chained_fitness,
                             .base_chained = b.chained};
        if (run_file_read_f64(&r->rf, "walk_forward", "chained_fitness", &w.chained_value, NULL) != EV_OK ||
            run_file_read_u64(&r->rf, "walk_forward", "chained_trades", &trades, NULL) != EV_OK ||
            run_file_read_u64(&r->rf, "walk_forward", "chained_feasible", &feasible, NULL) != EV_OK)
            w.base_chained = NULL; /* no chain to compare */
        w.chained.trades = (int64_t)trades;
        w.chained.feasible = feasible != 0;
        st = verdict_of_walk(v, &w, err);
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
