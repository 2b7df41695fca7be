/* The GPU probe of a run (issue 12; ga/backend_probe.h): before the first
 * generation or grid batch, a session whose backend is not the CPU's checks
 * it against the CPU backend, bit for bit, and acts on the verdict:
 *   match                 one line in the run output; /provenance's
 *                         backend_probe says "passed: ..."
 *   mismatch, --backend cuda   the command stops (exit 1) naming the first
 *                         differing genome and both backends' values
 *   mismatch, --backend auto   a loud warning on stderr (even with --quiet),
 *                         the run continues on the CPU backend and
 *                         backend_probe says "failed: ...; fell back to the CPU"
 *   --no-gpu-probe        nothing is checked (unsafe); backend_probe says so
 * A strategy run (s->strategy) is checked against the strategy's CPU backend
 * (runs/backend_strategy.h) on the same store: 256 random genomes, the
 * lattice's corners and three top-K selections of 128 points, fitness and
 * trade counts bit for bit; the verdicts are the same. */
#ifndef EVOLVE_GPU_PROBE_H
#define EVOLVE_GPU_PROBE_H

#include "common/status.h"
#include "runs/session.h"

#ifdef __cplusplus
extern "C" {
#endif

/* s: opened up to its backend (s->ops is not the CPU's); opts: the session's
 * (backend asked for, log, no_probe). Fills s->probe; on a fallback replaces
 * s->ops, s->backend and s->device with the CPU backend's. */
ev_status gpu_probe_session(session_t *s, const session_opts_t *opts, ev_error *err);

#ifdef __cplusplus
}
#endif
#endif
