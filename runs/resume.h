/* `evolve CONFIG --resume RUN.h5`: continuing an interrupted GA run exactly.
 *
 * 1. run_resume_check: the checkpoint (or, without one, the run file's
 *    provenance) must describe this run: same config text, seed, top,
 *    dataset content, evolve version and backend; otherwise the resume is
 *    refused, naming what differs, and no file is touched.
 * 2. run_resume_copy: every generation the checkpoint vouches for is read
 *    from the old run file, checked against the checkpoint's hash, and
 *    written into a fresh run file; the dedup cache and the hall of fame are
 *    rebuilt from those rows, and the hall of fame must equal the
 *    checkpoint's. Rows written after the checkpoint are dropped (the run
 *    computes them again, identically).
 * 3. ga_run continues from the checkpoint's bred population.
 *
 * When the checkpoint is missing or damaged (a size, gene, parent or island
 * plan that does not fit the run: ga_snapshot_fits), or the run file does not match
 * it (a crash can tear an HDF5 file), the run starts again from generation 0
 * (run_resume_t.why says why): the same config and seed give the same run,
 * so the finished file is identical either way; only time is lost. */
#ifndef EVOLVE_RESUME_H
#define EVOLVE_RESUME_H

#include <stdint.h>

#include "archive/checkpoint.h"
#include "common/status.h"
#include "ga/dedup_cache.h"
#include "ga/ga_run.h"
#include "runs/ga_record.h"
#include "runs/run_paths.h"
#include "runs/session.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    int have_state; /* 1: continue from generation ck.generation; 0: start again from 0 */
    char why[1024]; /* when 0: why (for the user) */
    checkpoint_t ck;
    char **sessions; /* the old run file's /provenance/sessions lines */
    size_t n_sessions;
    topk_t hof;          /* rebuilt from the run file, equal to the checkpoint's */
    dedup_cache_t cache; /* rebuilt from the run file */
    uint64_t *cache_index;
    eval_result_t *cache_results;
    ga_resume_t rs; /* what ga_run resumes from (after run_resume_copy) */
} run_resume_t;

/* Step 1. EV_ECONFIG (nothing touched) when the run is not this one; a
 * "seed: random" config adopts the run's recorded seed (a warning to rep). */
ev_status run_resume_check(run_resume_t *r, const run_paths_t *p, session_t *s, const run_reporter_t *rep,
                           ev_error *err);

/* Step 2, into the archive a of a new run file. Errors only for real
 * failures (memory, the new file); a run file that does not match its
 * checkpoint sets have_state = 0 and returns EV_OK. */
ev_status run_resume_copy(run_resume_t *r, const run_paths_t *p, const session_t *s, ga_archive_t *a, ev_error *err);

void run_resume_free(run_resume_t *r);

#ifdef __cplusplus
}
#endif
#endif
