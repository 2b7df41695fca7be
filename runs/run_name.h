/* The run file each mode writes when no --output (Python: output=) names
 * one: the config's `output:` (or its default) names the run, and every mode
 * but the GA adds its name before .h5, so no mode replaces another's run. */
#ifndef EVOLVE_RUN_NAME_H
#define EVOLVE_RUN_NAME_H

#include "common/status.h"
#include "io/config.h"
#include "runs/modes.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The mode's part of the file name: "grid", "validate", "walk" (the GA's
 * walk-forward), "walk-grid", "py" (a GA run from the library whose caller
 * may stop it early, a->on_generation), or NULL (the GA: the name as given). */
const char *run_name_mode(const run_args_t *a);

/* Sets cfg->output to the run file of a's mode: a->output when given, the
 * resumed run when a->resume, else <output without .h5>.<mode>.h5. */
ev_status run_name_output(config_t *cfg, const run_args_t *a, ev_error *err);

#ifdef __cplusplus
}
#endif
#endif
