/* The search modes behind `evolve CONFIG [--grid | --validate]`, each given
 * an open session and the parsed command line. */
#ifndef EVOLVE_MODES_H
#define EVOLVE_MODES_H

#include <stdint.h>

#include "common/status.h"
#include "runs/reporter.h"
#include "runs/session.h"
#include "ga/ga_run.h"
#include "report/validate.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    const char *config;
    int grid;
    int validate;
    int walk_forward; /* --walk-forward (runs/mode_walk.h) */
    const char *backend;
    int evaluator;
    const char *json;
    const char *output;
    const char *resume;
    uint64_t top;  /* 0: the config's */
    uint64_t seed; /* when seed_given */
    int seed_given;
    uint64_t batch;   /* 0: from memory and launch-time limits */
    int quiet;        /* --quiet: the command line's reporter is silent (runs/ reads only report) */
    int no_gpu_probe; /* --no-gpu-probe: a device backend is not checked against the CPU (unsafe) */
    int argc;         /* the command line, to print how to resume */
    char **argv;
    /* Where the run's notes, warnings and tables go (runs/reporter.h). */
    const run_reporter_t *report;
    /* The library (lib/): a GA callback called after each generation is
     * archived, whose nonzero answer ends the run there, complete
     * (GA_STOP_CALLER). NULL: none (the command line). */
    int (*on_generation)(void *ctx, const ga_generation_t *gen);
    void *on_generation_ctx;
} run_args_t;

/* t0: when the command started (plat_now), for total timings. */
ev_status run_mode_grid(session_t *s, const run_args_t *a, double t0, ev_error *err);
ev_status run_mode_ga(session_t *s, const run_args_t *a, double t0, ev_error *err);
ev_status run_mode_validate(session_t *s, const run_args_t *a, double t0, ev_error *err);
/* Ranks 1..K-1 of an MPI job (dist/dist.h): their share of the grid or GA
 * of rank 0's run_mode_grid / run_mode_ga, which alone records and prints. */
ev_status run_mode_follow(session_t *s, const run_args_t *a, ev_error *err);

/* --validate's count pass, when the two top-K lists could not decide the GA's
 * grid rank (report/validate.h): the session's backend's grid_count_better,
 * or the CPU backend's where it has none. */
ev_status validate_count(validate_figures_t *v, session_t *s, ev_error *err);

#ifdef __cplusplus
}
#endif
#endif
