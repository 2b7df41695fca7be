#include "operators/ga_settings.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "operators/genome.h"

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
    g->ls_every = 2;
    g->ls_members = 2;
    g->ls_depth = 2;
    g->ls_random = 8;
    g->ls_exit_pairs = 0;
    g->ls_kicks = 4;
    g->ls_kick_genes = 4;
    g->ls_kick_relax = 90;
    g->ls_random_relax = 1;
    g->ls_random_exits_off = 1;
    g->restart_stall = 20;
}

uint32_t ga_population_auto(uint64_t max_evaluations, double time_budget_s, uint32_t islands)
{
    uint32_t p = 4096;
    if (max_evaluations) {
        uint64_t want = max_evaluations / 50;
        p = 64;
        while (p < 1024 && (uint64_t)p * 2 <= want)
            p *= 2;
    } else if (time_budget_s > 0) {
        p = 1024;
    }
    if (islands < 1)
        islands = 1;
    p = p / islands * islands;
    return p < 2 * islands ? 2 * islands : p;
}

static int in_unit(double x, int open_lo, int open_hi)
{
    return (open_lo ? x > 0.0 : x >= 0.0) && (open_hi ? x < 1.0 : x <= 1.0);
}

ev_status ga_settings_check(const ga_settings_t *s, int32_t n_genes, ev_error *err)
{
    if (n_genes < 1 || n_genes > GA_MAX_GENES)
        return ev_fail(err, EV_ECONFIG, "the GA needs 1 to %d parameters, the lattice has %d", GA_MAX_GENES, n_genes);
    if (s->population < 2 || s->population > (uint32_t)INT32_MAX)
        return ev_fail(err, EV_ECONFIG, "ga.population: expected 2 to %d, found %u", INT32_MAX, s->population);
    if (s->islands < 1 || s->population % s->islands != 0 || s->population / s->islands < 2)
        return ev_fail(err, EV_ECONFIG,
                       "ga.islands: expected a divisor of the population (%u) leaving >= 2 per island, found %u",
                       s->population, s->islands);
    if (s->generations < 1)
        return ev_fail(err, EV_ECONFIG, "ga.generations: expected >= 1, found 0");
    if (s->selection != SEL_TOURNAMENT && s->selection != SEL_TRUNCATION)
        return ev_fail(err, EV_ECONFIG, "ga.selection.type: unknown kind %d", (int)s->selection);
    if (s->tournament_k < 1)
        return ev_fail(err, EV_ECONFIG, "ga.selection.k: expected >= 1, found 0");
    if (!in_unit(s->truncation, 1, 0))
        return ev_fail(err, EV_ECONFIG, "ga.selection.truncation: expected a share in (0, 1], found %g", s->truncation);
    if (s->crossover != XO_UNIFORM && s->crossover != XO_ONE_POINT && s->crossover != XO_TWO_POINT)
        return ev_fail(err, EV_ECONFIG, "ga.crossover.type: unknown kind %d", (int)s->crossover);
    if (!in_unit(s->crossover_rate, 0, 0))
        return ev_fail(err, EV_ECONFIG, "ga.crossover.rate: expected 0 to 1, found %g", s->crossover_rate);
    if (!(s->mutation_rate <= 1.0))
        return ev_fail(err, EV_ECONFIG, "ga.mutation.rate: expected auto or a rate <= 1, found %g", s->mutation_rate);
    if (!in_unit(s->creep_share, 0, 0) || s->creep_max < 1)
        return ev_fail(err, EV_ECONFIG, "ga.mutation: expected creep_share in [0, 1] and creep_max >= 1");
    if (!in_unit(s->elitism, 0, 1))
        return ev_fail(err, EV_ECONFIG, "ga.elitism: expected a share in [0, 1), found %g", s->elitism);
    if (!in_unit(s->immigrant_diversity, 0, 0) || !in_unit(s->immigrant_share, 0, 0))
        return ev_fail(err, EV_ECONFIG, "ga.immigrants: expected diversity and share in [0, 1]");
    if (s->islands > 1 && s->migration_every > 0 && s->migration_count >= s->population / s->islands)
        return ev_fail(err, EV_ECONFIG, "ga.migration.count: %u migrants leave no room in islands of %u",
                       s->migration_count, s->population / s->islands);
    if (s->ls_every && (s->ls_members < 1 || s->ls_depth < 1 || s->ls_depth > 2))
        return ev_fail(err, EV_ECONFIG, "ga.local_search: expected members >= 1 and depth 1 or 2, found %u and %u",
                       s->ls_members, s->ls_depth);
    if (s->ls_random > 1024)
        return ev_fail(err, EV_ECONFIG, "ga.local_search.random: expected at most 1024, found %u", s->ls_random);
    if (s->ls_kick_genes < 2 || s->ls_kick_genes > GA_MAX_GENES)
        return ev_fail(err, EV_ECONFIG, "ga.local_search.kick_genes: expected 2 to %d, found %u", GA_MAX_GENES,
                       s->ls_kick_genes);
    if (s->ls_kick_relax < 1 || s->ls_kick_relax > 100)
        return ev_fail(err, EV_ECONFIG, "ga.local_search.kick_relax: expected a percent, 1 to 100, found %u",
                       s->ls_kick_relax);
    if (s->cache_max_mb < 1)
        return ev_fail(err, EV_ECONFIG, "ga.cache_max_mb: expected >= 1, found 0");
    if (!(s->time_budget_s >= 0.0))
        return ev_fail(err, EV_ECONFIG, "ga.time_budget_s: expected >= 0, found %g", s->time_budget_s);
    return EV_OK;
}

void ga_settings_limit_text(const ga_settings_t *s, char *buf, size_t n)
{
    int capped = s->generations != GA_GENERATIONS_UNCAPPED, at = 0;
    if (!s->max_evaluations && !(s->time_budget_s > 0)) {
        snprintf(buf, n, "up to %u generations", s->generations);
        return;
    }
    at = snprintf(buf, n, "until");
    if (s->max_evaluations && at >= 0 && (size_t)at < n)
        at += snprintf(buf + at, n - (size_t)at, " %llu evaluations%s", (unsigned long long)s->max_evaluations,
                       s->time_budget_s > 0 ? " or" : "");
    if (s->time_budget_s > 0 && at >= 0 && (size_t)at < n)
        at += snprintf(buf + at, n - (size_t)at, " %g s", s->time_budget_s);
    if (capped && at >= 0 && (size_t)at < n)
        snprintf(buf + at, n - (size_t)at, ", at most %u generations", s->generations);
}
