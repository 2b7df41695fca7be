/* Before a search loads any data: the outputs the command names may be
 * written (io/output_guard.h: each is absent or an evolve file of its kind,
 * none is an input, no two are one file), so a mistyped path fails at once
 * and leaves every file as it was. */
#ifndef EVOLVE_RUN_GUARD_H
#define EVOLVE_RUN_GUARD_H

#include "common/plat_lock.h"
#include "common/status.h"
#include "runs/modes.h"
#include "io/config.h"

#ifdef __cplusplus
extern "C" {
#endif

/* cfg after the command line's overrides. The run file checked is the one
 * the command ends with: cfg->output, or the final name of the run --resume
 * continues. Then the run takes its output: an exclusive lock on
 * "<run file>.lock" (*lock, held until plat_lock_release), so a second run
 * or resume of a live output is refused naming the live process, and removes
 * the temporary files killed runs of this output left behind, saying so. */
ev_status run_guard_outputs(const config_t *cfg, const run_args_t *a, plat_lock_t **lock, ev_error *err);

#ifdef __cplusplus
}
#endif
#endif
