/* The GA's run archive: a ga_observer_t that writes every generation to the
 * run file (archive/run_file.h) as it is evaluated, keeps the hall of fame
 * there up to date, and, when given a checkpoint path, writes the
 * checkpoint (archive/checkpoint.h) after every ga.checkpoint_every bred
 * generations and when Ctrl-C stops the run, the run file flushed first (the
 * rows a checkpoint covers must be on disk; a flush after every generation
 * cost ~5 % of an exit-role run's wall: bench/RESULTS.md "Run file flushed
 * at checkpoints"). */
#ifndef EVOLVE_GA_RECORD_H
#define EVOLVE_GA_RECORD_H

#include <stdint.h>

#include "archive/run_file.h"
#include "common/status.h"
#include "ga/ga_run.h"
#include "runs/session.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    run_file_t *rf;
    const session_t *s;
    run_dims_t dims;
    run_rows_t rows;    /* one generation's row buffers */
    uint64_t *gen_hash; /* [n_hash]: run_rows_hash of each generation written */
    uint32_t n_hash, cap_hash;
    const char *ckpt_path;       /* NULL: no checkpoints */
    uint32_t checkpoints;        /* written by this process after a generation (a resume can use them) */
    ga_hof_entry_t *hof_written; /* [top]: the hall of fame as last written (rewritten only when it changes) */
    uint32_t hof_n;              /* entries written; UINT32_MAX: none yet */
    reported_t hof_values;       /* the reported values of hof_written */
    ranked_genome_t *cand;       /* the strategy candidates (runs/ga_candidates.h), from ga_archive_finish */
    uint32_t n_cand;
} ga_archive_t;

/* The run file's /ga dimensions for a session's config. */
void ga_archive_dims(const session_t *s, run_dims_t *d);

/* Prepares the archive of rf (creating its /ga columns when it has none).
 * ckpt_path: where checkpoints go, or NULL. */
ev_status ga_archive_init(ga_archive_t *a, run_file_t *rf, const session_t *s, const char *ckpt_path, ev_error *err);
void ga_archive_free(ga_archive_t *a);

/* Takes the hashes of generations [0, n) already in the run file (resume). */
ev_status ga_archive_adopt_hashes(ga_archive_t *a, const uint64_t *hash, uint32_t n, ev_error *err);

/* The observer to hand ga_run (valid while a lives). */
void ga_archive_observer(ga_archive_t *a, ga_observer_t *obs);

/* The checkpoint of a run about to start: its identity, nothing evaluated. */
ev_status ga_archive_checkpoint_start(ga_archive_t *a, ev_error *err);

/* The run's outcome: the final hall of fame and /ga attributes (stop reason,
 * generations, evaluations, hit rate, seconds), status "complete" or, when
 * Ctrl-C stopped it, "interrupted". Flushed. */
ev_status ga_archive_finish(ga_archive_t *a, const ga_result_t *res, ev_error *err);

#ifdef __cplusplus
}
#endif
#endif
