/* The probability of backtest overfitting of a GA run (docs/config.md):
 * its candidates are the best validation.pbo_genomes unique genomes it
 * evaluated, read back from every generation the run file archived (so a
 * resumed run gets the same ones). */
#ifndef EVOLVE_GA_PBO_H
#define EVOLVE_GA_PBO_H

#include "archive/run_file.h"
#include "runs/session.h"
#include "common/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Into s->pbo (session_validation_pbo_of); NaN, and nothing read, without a
 * validation: block, without linear indices (a lattice of 2^64 points or
 * more) or with pbo_genomes 0. d: rf's /ga dimensions. */
ev_status ga_pbo(session_t *s, run_file_t *rf, const run_dims_t *d, ev_error *err);

#ifdef __cplusplus
}
#endif
#endif
