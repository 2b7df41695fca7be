#include "cli/walk_side.h"

#include <string.h>

#include "fitness/objective_prep.h"

void walk_side_init(walk_side_t *w, const walk_side_ops_t *ops)
{
    memset(w, 0, sizeof *w);
    w->ops = ops;
    accum_init(&w->acc);
    w->prod = 1.0;
}

void walk_side_push(walk_side_t *w, const session_t *s, int64_t q)
{
    accum_add(&w->acc, &s->prob.obj, q, s->prob.obj.need_log ? outcome_log_factor(q) : 0);
    w->prod = q <= EV_RUIN_Q ? 0.0 : w->prod * (1.0 + (double)q / 1e8);
}

void walk_side_chained(const walk_side_t *w, const session_t *s, wf_result_t *r)
{
    r->chained = accum_finish(&w->acc, &s->prob.obj);
    r->chained_value = objective_display(&s->cfg.objective, r->chained.fitness);
    if (s->cfg.objective.kind == OBJ_COMPOUND && r->chained.feasible)
        r->chained_value = w->prod == 0.0 ? -100.0 : (w->prod - 1.0) * 100.0;
}
