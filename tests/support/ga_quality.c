#include "tests/support/ga_quality.h"

#include <string.h>

void quality_settings(ga_settings_t *s)
{
    ga_settings_default(s);
    s->population = 256;
    s->islands = 4;
    s->generations = 1000;
    s->stall_generations = 60;
}

static ev_status on_generation(void *ctx, const ga_generation_t *gen, ev_error *err)
{
    quality_watch_t *w = (quality_watch_t *)ctx;
    (void)err;
    if (!w->evals_at_hit && gen->stats->hof->n && gen->stats->hof->e[0].key == w->target_key)
        w->evals_at_hit = gen->stats->evaluations;
    return EV_OK;
}

void quality_watch(ga_observer_t *obs, quality_watch_t *w, uint64_t target_key)
{
    memset(w, 0, sizeof *w);
    w->target_key = target_key;
    memset(obs, 0, sizeof *obs);
    obs->ctx = w;
    obs->on_generation = on_generation;
}
