/* The decisions a GA run takes on the host after a generation is ranked:
 * whether to stop (ga_stop_check, the caller, Ctrl-C), and whether the next
 * generation starts a new search (restart on stall). */
#include "ga/ga_run_internal.h"

#include <math.h>

#include "common/platform.h"

/* Why to stop after generation gen, or GA_STOP_NONE. Ctrl-C counts only
 * when the run would otherwise go on, so a run stopped in its last
 * generation ends as complete (and needs no resume). */
ga_stop_reason ga_run_stop_reason(const ga_run_state_t *r, uint32_t gen, const ga_result_t *res, double wall_s)
{
    ga_stop_input_t in;
    ga_stop_reason why;
    in.generation = gen;
    in.evaluations = res->evaluations;
    in.ls_evaluations = res->ls_evaluations;
    in.lattice_size = r->p->lat->size_fits ? r->p->lat->size : 0;
    in.last_improvement = r->last_improvement;
    in.elapsed_s = wall_s;
    in.interrupted = 0;
    why = ga_stop_check(r->s, &in);
    if (why == GA_STOP_NONE && r->o->observer && r->o->observer->stop_requested &&
        r->o->observer->stop_requested(r->o->observer->ctx))
        return GA_STOP_CALLER;
    return why == GA_STOP_NONE && plat_interrupted() ? GA_STOP_INTERRUPTED : why;
}

/* Restart on stall (docs/ga.md "Restarts"): when the current search's best
 * has not improved for restart_stall generations, generation gen + 1 starts
 * a new search: random genomes (an immigrant plan: draws from the RANDOM
 * stream of generation gen + 1), each island's elites kept only with
 * restart_elites. The ended search counts in searches_best when its best is
 * the hall of fame's. */
void ga_run_plan_restart(ga_run_state_t *r, uint32_t gen, ga_result_t *res)
{
    if (!r->s->restart_stall || gen - r->search_improved < r->s->restart_stall)
        return;
    for (uint32_t i = 0; i < r->plan.ctx.islands; i++) {
        if (!r->s->restart_elites)
            r->islands[i].elites = 0;
        r->islands[i].migrants = 0;
        r->islands[i].immigrants = r->plan.ctx.island_size - r->islands[i].elites;
    }
    r->searches_best += res->hof.n && r->search_best == res->hof.e[0].r.fitness;
    r->search_best = -HUGE_VAL;
    r->search_improved = gen + 1;
    r->last_restart = gen + 1;
    res->restarts++;
}
