/* dist.h without MPI (EVOLVE_MPI=OFF, or no MPI found): the process is the
 * job's only rank, and every call is its one-process equivalent. */
#include "dist/dist.h"

#include <string.h>

ev_status dist_init(int *argc, char ***argv, ev_error *err)
{
    (void)argc;
    (void)argv;
    (void)err;
    return EV_OK;
}

int dist_rank(void)
{
    return 0;
}

int dist_size(void)
{
    return 1;
}

int dist_first_says(int yes)
{
    return yes;
}

ev_status dist_agree(ev_status st, ev_error *err)
{
    (void)err;
    return st;
}

int dist_report(ev_error *err)
{
    (void)err;
    return 1;
}

void dist_finish(int exit_code)
{
    (void)exit_code;
}

ev_status dist_grid_run(const backend_ops_t *ops, backend_t *b, const fit_problem_t *p, const grid_opts_t *opts,
                        topk_t *top, grid_stats_t *stats, ev_error *err)
{
    return grid_run(ops, b, p, opts, top, stats, err);
}

void dist_ga_ops(const backend_ops_t *inner, const fit_problem_t *p, backend_ops_t *out)
{
    (void)p;
    *out = *inner;
}

void dist_ga_opts(ga_run_opts_t *o)
{
    (void)o;
}

ev_status dist_ga_share(uint64_t *seed, const ga_resume_t **rs, const fit_problem_t *p, dist_ga_state_t *keep,
                        ev_error *err)
{
    (void)seed;
    (void)rs;
    (void)p;
    (void)err;
    memset(keep, 0, sizeof *keep);
    return EV_OK;
}

void dist_ga_share_free(dist_ga_state_t *keep)
{
    (void)keep;
}
