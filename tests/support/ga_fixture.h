/* A small planted problem opened on the CPU backend, and an observer that
 * fingerprints every generation, for the GA run tests. */
#ifndef EVOLVE_TESTS_GA_FIXTURE_H
#define EVOLVE_TESTS_GA_FIXTURE_H

#include <stdint.h>

#include "fitness/problem.h"
#include "fitness/tables.h"
#include "ga/backend.h"
#include "ga/ga_run.h"
#include "tests/support/planted.h"

typedef struct {
    planted_opts_t po;
    dataset_t ds;
    lattice_t lat;
    fit_problem_t p;
    tables_host_t t;
    backend_t *b;
    uint16_t optimum[EV_MAX_PARAMS];
} ga_fixture_t;

/* n_filters filters of n_values values, 6 targets, 6 stops. */
void fixture_open(ga_fixture_t *f, int32_t n_filters, uint32_t n_values);
/* Any planted problem (total_return). */
void fixture_open_planted(ga_fixture_t *f, const planted_opts_t *po);
/* The same with objective.min_trades (what relaxed kicks relax). */
void fixture_open_min_trades(ga_fixture_t *f, const planted_opts_t *po, int64_t min_trades);
void fixture_close(ga_fixture_t *f);

/* Settings for quick runs: population 64 in 2 islands, 30 generations. */
void fixture_settings(ga_settings_t *s);

#define TRACE_MAX_GENS 512

/* Fingerprints of each generation (genes, results, parents, exact stats). */
typedef struct {
    uint32_t n;
    uint64_t hash[TRACE_MAX_GENS];
    double best[TRACE_MAX_GENS];
} trace_t;

/* An observer that fills a trace (want_population = 1). */
void trace_observer(ga_observer_t *obs, trace_t *tr);

/* Runs the GA with the fixture's CPU backend (or ops) and the trace observer. */
ev_status fixture_run(ga_fixture_t *f, const backend_ops_t *ops, const ga_settings_t *s, uint64_t seed, trace_t *tr,
                      ga_result_t *res, ev_error *err);

uint64_t fnv1a(uint64_t h, const void *data, size_t n);

/* 1 when two top-K lists hold the same entries, bit for bit, in the same order. */
int fixture_same_top(const topk_t *a, const topk_t *b);

/* A problem (a random one, say) opened on the CPU backend with its host tables. */
typedef struct {
    fit_problem_t p;
    tables_host_t t;
    backend_t *b;
} cpu_problem_t;

/* 1 when opened; 0 (the error printed, nothing left open) when not. */
int cpu_problem_open(cpu_problem_t *c, const dataset_t *ds, const lattice_t *lat, const objective_cfg_t *obj);
void cpu_problem_close(cpu_problem_t *c);

#endif
