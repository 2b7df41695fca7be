/* The command line's reporter (runs/reporter.h): what a run tells is
 * printed, its notes and warnings on stderr, its tables on stdout. */
#ifndef EVOLVE_RUN_PRINT_H
#define EVOLVE_RUN_PRINT_H

#include "runs/reporter.h"

#ifdef __cplusplus
extern "C" {
#endif

/* quiet (--quiet, or an MPI rank other than 0): no notes and no progress;
 * warnings still. */
void run_print_reporter(run_reporter_t *r, int quiet);

#ifdef __cplusplus
}
#endif
#endif
