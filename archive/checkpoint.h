/* The checkpoint of a GA run: a small HDF5 file beside the run file
 * (<output>.partial.ckpt), written under a temporary name and renamed into
 * place after every ga.checkpoint_every generations, so it is always whole.
 *
 * It holds what a resume needs that the run file cannot vouch for by itself:
 * the run's identity (a resume with another config, seed, dataset or evolve
 * is refused), the bred population about to be evaluated, the hall of fame
 * and stall state, and a hash of every generation the run file holds at that
 * moment. The dedup cache is not here: every genome in it was in an archived
 * generation, so the resume rebuilds it from the run file's rows once their
 * hashes prove them intact (runs/resume.c). */
#ifndef EVOLVE_CHECKPOINT_H
#define EVOLVE_CHECKPOINT_H

#include <stddef.h>
#include <stdint.h>

#include "archive/identity.h"
#include "common/status.h"
#include "operators/ga_snapshot.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CHECKPOINT_FORMAT "evolve-checkpoint"
#define CHECKPOINT_VERSION 1

/* A checkpoint's contents: the run's identity, its GA state and the hashes
 * of its archived generations. The writer only reads the pointers (the
 * state's may point into a GA snapshot); checkpoint_read allocates them, for
 * checkpoint_free. Whether the state fits a run is ga_snapshot_fits's to say
 * (operators/ga_snapshot.h). */
typedef struct {
    run_identity_t id; /* all must match for a resume */
    /* the run between generations; generation 0: nothing evaluated yet (the
     * arrays are empty) */
    ga_snapshot_t ga;
    const uint64_t *gen_hash; /* [ga.generation]: run_rows_hash of each archived generation */
} checkpoint_t;

/* Writes atomically (temporary name, then rename). The caller's arrays are
 * only read. */
ev_status checkpoint_write(const char *path, const checkpoint_t *c, ev_error *err);

/* Reads a checkpoint; EV_EIO when there is none, EV_EDATA when it is not
 * one or is damaged. Free with checkpoint_free. */
ev_status checkpoint_read(const char *path, checkpoint_t *c, ev_error *err);
void checkpoint_free(checkpoint_t *c);

#ifdef __cplusplus
}
#endif
#endif
