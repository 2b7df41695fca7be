/* The one choice of what the GA's local search climbs with (docs/ga.md
 * "Local search"), made by ga_run for every caller. */
#ifndef EVOLVE_GA_LS_SWEEP_H
#define EVOLVE_GA_LS_SWEEP_H

#include <stdint.h>

#include "ga/backend.h"
#include "ga/ga_run.h"
#include "ga/ls_sweep.h"

#ifdef __cplusplus
extern "C" {
#endif

/* *sw: batches of n_genes genomes (n_values[k] values of gene k, kept by
 * the caller) through ops->evaluate on b where o->ls_batch, or where the
 * tables (o->tables, else ops->host_tables(b)) rank by a fold statistic
 * (objective.aggregate): table sweeps sum every kept trade, so they would
 * climb the all-trades objective, not the one the GA ranks by. Else the
 * tables' sweeps. Returns 0 (*sw zeroed) when there are neither. */
int ga_ls_sweep(const backend_ops_t *ops, backend_t *b, const ga_run_opts_t *o, int32_t n_genes,
                const uint32_t *n_values, ls_sweep_t *sw);

#ifdef __cplusplus
}
#endif
#endif
