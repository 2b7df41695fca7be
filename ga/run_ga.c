/* The default mode: the GA, its hall of fame as the top-K. */
#include <string.h>

#include "common/platform.h"
#include "ga/ga_run.h"
#include "ga/run_modes.h"
#include "ga/top_table.h"
#include "io/json_summary.h"

static void print_summary(FILE *log, const session_t *s, const ga_result_t *res)
{
    fprintf(log, "ga: stopped (%s) after %u generation(s): %llu unique evaluations", ga_stop_reason_name(res->reason),
            res->generations, (unsigned long long)res->evaluations);
    if (s->cfg.lattice.size_fits)
        fprintf(log, " (%.4g%% of %llu lattice points)", 100.0 * (double)res->evaluations / (double)s->cfg.lattice.size,
                (unsigned long long)s->cfg.lattice.size);
    fprintf(log, ", cache hit rate %.1f%%, %.3f s%s\n", 100.0 * res->hit_rate, res->seconds,
            res->host_ga ? " (population on the host, fitness on the backend)" : "");
}

ev_status run_mode_ga(session_t *s, const run_args_t *a, double t0, ev_error *err)
{
    ga_run_opts_t o;
    ga_result_t res;
    run_summary_t sum;
    FILE *log = a->quiet ? NULL : stderr;
    ev_status st;
    memset(&o, 0, sizeof o);
    memset(&res, 0, sizeof res);
    o.seed = s->cfg.seed;
    o.top = s->cfg.top;
    o.progress = log;
    if (log)
        fprintf(log, "ga: population %u, up to %u generations, %u island(s), seed %llu, on %s\n",
                s->cfg.ga.population, s->cfg.ga.generations, s->cfg.ga.islands, (unsigned long long)s->cfg.seed,
                s->device);
    st = ga_run(s->ops, s->backend, &s->prob, &s->cfg.ga, &o, &res, err);
    if (st == EV_OK) {
        if (log)
            print_summary(log, s, &res);
        top_table_print(stdout, &s->cfg, res.hof.e, res.hof.n);
    }
    if (st == EV_OK && a->json) {
        memset(&sum, 0, sizeof sum);
        sum.mode = "ga";
        sum.backend = s->ops->name;
        sum.device = s->device;
        sum.evaluated = res.evaluations;
        sum.has_ga = 1;
        sum.unique_evaluations = res.evaluations;
        sum.generations = res.generations;
        sum.termination = ga_stop_reason_name(res.reason);
        sum.seconds_load = s->seconds_load;
        sum.seconds_tables = s->seconds_tables;
        sum.seconds_search = res.seconds;
        sum.seconds_total = plat_now() - t0;
        st = json_summary_write(a->json, &sum, &s->cfg, &s->ds, res.hof.e, res.hof.n, err);
    }
    if (st == EV_OK && res.reason == GA_STOP_INTERRUPTED)
        st = ev_fail(err, EV_EINTR, "interrupted: the results above cover the generations completed");
    ga_result_free(&res);
    return st;
}
