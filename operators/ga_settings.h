/* GA settings (the config's `ga:` block). Defaults: ga_settings_default;
 * checks of settings made elsewhere: ga_settings_check. Copied to the device
 * as a POD. */
#ifndef EVOLVE_GA_SETTINGS_H
#define EVOLVE_GA_SETTINGS_H

#include <stddef.h>
#include <stdint.h>

#include "common/hd.h"
#include "common/status.h"

/* ga.generations when a budget (max_evaluations, time_budget_s) is set and
 * generations is not: the budget ends the run, not a generation count. */
#define GA_GENERATIONS_UNCAPPED UINT32_MAX

typedef enum { SEL_TOURNAMENT = 0, SEL_TRUNCATION } selection_kind;
typedef enum { XO_UNIFORM = 0, XO_ONE_POINT, XO_TWO_POINT } crossover_kind;

typedef struct {
    uint32_t population;      /* individuals in all islands together (default 4096) */
    uint32_t generations;     /* generations to run (default 200; GA_GENERATIONS_UNCAPPED: no cap) */
    uint32_t islands;         /* sub-populations (default 1); population is split evenly */
    uint32_t migration_every; /* ring migration every N generations (default 10; 0 = never) */
    uint32_t migration_count; /* migrants per island per migration (default 2) */
    int32_t selection;        /* selection_kind (default tournament) */
    uint32_t tournament_k;    /* tournament size (default 3) */
    double truncation;        /* truncation selection: parents from the best share (default 0.5) */
    int32_t crossover;        /* crossover_kind (default uniform) */
    double crossover_rate;    /* probability a child is a crossover (default 0.9) */
    double mutation_rate;     /* per gene; <= 0 means 1/genes (default) */
    double creep_share;       /* share of mutations that creep (+-1..creep_max steps) rather than reset (default 0.5) */
    uint32_t creep_max;       /* largest creep step (default 2) */
    double elitism;           /* share of each island copied unchanged (default 0.01; at least 1) */
    uint32_t stall_generations; /* stop after N generations without a better best (default 0 = off) */
    uint32_t restart_elites;    /* 1: a restart keeps each island's elites; 0: all new (default 0) */
    uint64_t max_evaluations;   /* stop after N unique evaluations (default 0 = off) */
    double time_budget_s;       /* stop after this many seconds (default 0 = off; not reproducible) */
    double immigrant_diversity; /* if unique genomes / island size falls below this ... (default 0.25) */
    double immigrant_share;     /* ... replace this share of the island with random genomes (default 0.2) */
    uint64_t cache_max_mb;      /* memory for the evaluated-genome cache (default 1024) */
    /* Local search (docs/ga.md "Local search"): every ls_every generations
     * (0 = off) the ls_members best new genomes of the generation are
     * hill-climbed by exact neighbourhood sweeps, 1-gene moves (ls_depth 1)
     * or 1- then 2-gene moves (ls_depth 2), and the improved ones join the
     * next generation. */
    uint32_t ls_every;
    uint32_t ls_members;
    uint32_t ls_depth;
    /* ... and each time also ls_random uniformly random genomes are climbed
     * (multi-start search: new basins for the population; docs/ga.md). */
    uint32_t ls_random;
    /* ... of which the last ls_kicks (at most ls_random) start instead from
     * the hall of fame's best with 2..ls_kick_genes genes redrawn (ga/ls_kick.h;
     * iterated local search), when the hall of fame has a feasible best. */
    uint32_t ls_kicks;
    uint32_t ls_kick_genes;
    /* ... and a kick is first climbed with min_trades at ls_kick_relax % (1
     * to 100, default 90; 100: no such climb), then under the real min_trades
     * (ga/ls_relax.h: crosses the gaps between peaks on the feasibility edge). */
    uint32_t ls_kick_relax;
    /* 1 (default): the random starts are climbed so too (at ls_kick_relax %;
     * a needle peak on the feasibility edge whose basin is narrow under the
     * real min_trades: bench/suite s13); 0: they climb plainly. */
    uint32_t ls_random_relax;
    /* 1 (default): a random start's exits whose lattice holds off (trail,
     * breakeven, max_hold) begin at off, a target and stop strategy that the
     * climb adds exit rules to where they pay; 0: drawn like every gene. */
    uint32_t ls_random_exits_off;
    /* 1: at ls_depth 2 also sweep pairs of two exit genes other than target
     * x stop (trail, breakeven, max_hold; each costs the product of their
     * value counts); 0 (default): those pairs are skipped. */
    uint32_t ls_exit_pairs;
    /* Restart (docs/ga.md "Restarts"): after restart_stall generations in
     * which the population's best has not improved since the search began
     * (the run's start or the last restart), the next generation is random
     * genomes (with each island's elites when restart_elites) (0 = off). */
    uint32_t restart_stall;
} ga_settings_t;

#ifdef __cplusplus
extern "C" {
#endif
void ga_settings_default(ga_settings_t *g);

/* Checks settings that did not come through the config loader (tests,
 * benchmarks): population a multiple of islands, islands of >= 2, rates in
 * range. The message names the setting as the config spells it (ga.islands). */
/* `population: auto` (the config's default): 4096 without a budget; with
 * max_evaluations, the largest power of two <= max_evaluations / 50 (so the
 * budget buys at least ~50 generations of new genomes), within [64, 1024]
 * (a large budget runs the searches of restart_stall, as a time budget does);
 * with only time_budget_s, 1024. Then rounded down to a multiple of islands
 * (at least 2 per island). */
uint32_t ga_population_auto(uint64_t max_evaluations, double time_budget_s, uint32_t islands);

ev_status ga_settings_check(const ga_settings_t *s, int32_t n_genes, ev_error *err);

/* What ends the run, in words for the log: "up to 200 generations", "until
 * 200000 evaluations", "until 200000 evaluations or 10 s, at most 500
 * generations". */
void ga_settings_limit_text(const ga_settings_t *s, char *buf, size_t n);
#ifdef __cplusplus
}
#endif

#endif
