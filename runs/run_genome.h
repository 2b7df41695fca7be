/* A genome of a strategy run file as NAME=VALUE assignments, for
 * `evolve trades CONFIG --run RUN.h5 --rank N`: the run's ranked list (the
 * grid's top-K where the run has a grid, else the GA's hall of fame), each
 * parameter's value as its lattice text. */
#ifndef EVOLVE_RUN_GENOME_H
#define EVOLVE_RUN_GENOME_H

#include <stdint.h>

#include "common/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* *sets: n_params "NAME=VALUE" strings (free each and the array). A run
 * that is not a strategy's, or a rank past its list, is EV_EUSAGE naming it. */
ev_status run_genome_assignments(const char *path, uint64_t rank, char ***sets, int *n, ev_error *err);

#ifdef __cplusplus
}
#endif
#endif
