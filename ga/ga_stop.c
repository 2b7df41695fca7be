#include "ga/ga_stop.h"

const char *ga_stop_reason_name(ga_stop_reason r)
{
    switch (r) {
    case GA_STOP_GENERATIONS: return "generations";
    case GA_STOP_MAX_EVALUATIONS: return "max evaluations";
    case GA_STOP_STALL: return "stall";
    case GA_STOP_TIME_BUDGET: return "time budget";
    case GA_STOP_INTERRUPTED: return "interrupted";
    case GA_STOP_CACHE_FULL: return "cache full";
    case GA_STOP_LATTICE_EXHAUSTED: return "lattice exhausted";
    case GA_STOP_CALLER: return "stopped by caller";
    default: return "running";
    }
}

ga_stop_reason ga_stop_check(const ga_settings_t *s, const ga_stop_input_t *in)
{
    if (in->interrupted)
        return GA_STOP_INTERRUPTED;
    if (in->generation + 1 >= s->generations)
        return GA_STOP_GENERATIONS;
    if (in->lattice_size && in->evaluations >= in->lattice_size)
        return GA_STOP_LATTICE_EXHAUSTED;
    if (s->max_evaluations && in->evaluations + in->ls_evaluations >= s->max_evaluations)
        return GA_STOP_MAX_EVALUATIONS;
    if (s->stall_generations && in->generation - in->last_improvement >= s->stall_generations)
        return GA_STOP_STALL;
    if (ga_time_budget_spent(s, in->elapsed_s))
        return GA_STOP_TIME_BUDGET;
    return GA_STOP_NONE;
}

int ga_time_budget_spent(const ga_settings_t *s, double elapsed_s)
{
    return s->time_budget_s > 0 && elapsed_s >= s->time_budget_s;
}
