/* Before a search loads any data: the outputs the command names may be
 * written (io/output_guard.h: each is absent or an evolve file of its kind,
 * none is an input, no two are one file), so a mistyped path fails at once
 * and leaves every file as it was. */
#ifndef EVOLVE_RUN_GUARD_H
#define EVOLVE_RUN_GUARD_H

#include "common/status.h"
#include "cli/modes.h"
#include "io/config.h"

#ifdef __cplusplus
extern "C" {
#endif

/* cfg after the command line's overrides. The run file checked is the one
 * the command ends with: cfg->output, or the final name of the run --resume
 * continues. */
ev_status run_guard_outputs(const config_t *cfg, const run_args_t *a, ev_error *err);

#ifdef __cplusplus
}
#endif
#endif
