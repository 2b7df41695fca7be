/* When a GA run ends, and why (docs/ga.md "Termination"). */
#ifndef EVOLVE_GA_STOP_H
#define EVOLVE_GA_STOP_H

#include <stdint.h>

#include "operators/ga_settings.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    GA_STOP_NONE = 0,
    GA_STOP_GENERATIONS,       /* ga.generations populations were evaluated */
    GA_STOP_MAX_EVALUATIONS,   /* unique evaluations reached ga.max_evaluations */
    GA_STOP_STALL,             /* no better best for ga.stall_generations generations */
    GA_STOP_TIME_BUDGET,       /* ga.time_budget_s elapsed (not reproducible) */
    GA_STOP_INTERRUPTED,       /* Ctrl-C: the generation was finished */
    GA_STOP_CACHE_FULL,        /* the next generation's new genomes would overflow ga.cache_max_mb */
    GA_STOP_LATTICE_EXHAUSTED, /* every lattice point has been evaluated: nothing new is left to find */
    GA_STOP_CALLER             /* the observer asked to stop (the library's per-generation callback) */
} ga_stop_reason;

/* "generations", "max evaluations", "stall", "time budget", "interrupted",
 * "cache full", "lattice exhausted", "stopped by caller" ("running" for GA_STOP_NONE). */
const char *ga_stop_reason_name(ga_stop_reason r);

typedef struct {
    uint32_t generation;       /* the generation just evaluated (0 = initial) */
    uint64_t evaluations;      /* unique evaluations so far */
    uint64_t ls_evaluations;   /* local search sweeps, in evaluations (sweep_cost); count towards max_evaluations */
    uint64_t lattice_size;     /* lattice points; 0 when too many to count (never exhausted) */
    uint32_t last_improvement; /* the generation whose best was last strictly better */
    double elapsed_s;
    int interrupted; /* plat_interrupted() */
} ga_stop_input_t;

/* The first reason that holds, in this order: interrupted, generations,
 * lattice exhausted, max evaluations, stall, time budget; GA_STOP_NONE when
 * none does.
 * (cache full is decided by ga_evaluate, before a generation counts.) */
ga_stop_reason ga_stop_check(const ga_settings_t *s, const ga_stop_input_t *in);
/* 1 when s's time budget is set and elapsed_s (seconds since the run started) has reached it. */
int ga_time_budget_spent(const ga_settings_t *s, double elapsed_s);

#ifdef __cplusplus
}
#endif
#endif
