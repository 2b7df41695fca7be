#include "operators/ga_settings.h"

#include <string.h>

void ga_settings_default(ga_settings_t *g)
{
    memset(g, 0, sizeof *g);
    g->population = 4096;
    g->generations = 200;
    g->islands = 1;
    g->migration_every = 10;
    g->migration_count = 2;
    g->selection = SEL_TOURNAMENT;
    g->tournament_k = 3;
    g->truncation = 0.5;
    g->crossover = XO_UNIFORM;
    g->crossover_rate = 0.9;
    g->mutation_rate = 0.0;
    g->creep_share = 0.5;
    g->creep_max = 2;
    g->elitism = 0.01;
    g->stall_generations = 0;
    g->max_evaluations = 0;
    g->time_budget_s = 0.0;
    g->immigrant_diversity = 0.25;
    g->immigrant_share = 0.2;
    g->cache_max_mb = 1024;
}
