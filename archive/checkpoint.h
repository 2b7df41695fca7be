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
 * hashes prove them intact (cli/resume.c). */
#ifndef EVOLVE_CHECKPOINT_H
#define EVOLVE_CHECKPOINT_H

#include <stddef.h>
#include <stdint.h>

#include "common/status.h"
#include "fitness/ranked.h"
#include "operators/breed_ctx.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CHECKPOINT_FORMAT "evolve-checkpoint"
#define CHECKPOINT_VERSION 1

/* A checkpoint's contents. The writer only reads the pointers (they may
 * point into a GA snapshot); checkpoint_read allocates them, keeping the
 * allocations in owned_ for checkpoint_free. */
typedef struct {
    /* identity: all must match for a resume */
    const char *config_text;
    uint64_t seed;
    uint32_t top;
    uint64_t dataset_hash;    /* the dataset's content_hash */
    const char *tool_version; /* "evolve 0.1.0 (git abc)" */
    const char *backend;      /* the backend's name */
    /* the run between generations; generation 0: nothing evaluated yet */
    uint32_t generation; /* the bred generation to evaluate next */
    uint32_t population, n_genes, islands;
    uint32_t last_improvement;
    uint64_t evaluations, lookups;
    double elapsed_s;
    const uint16_t *genes;       /* SoA [n_genes][population] (generation >= 1) */
    const int32_t *parents;      /* [2][population] */
    const breed_island_t *plans; /* [islands] */
    uint32_t hof_k, hof_n;
    const ranked_genome_t *hof; /* [hof_n], best first */
    const uint64_t *gen_hash;   /* [generation]: run_rows_hash of each archived generation */
    void *owned_[8];
} checkpoint_t;

/* What a run expects of the checkpoint it resumes from. */
typedef struct {
    uint32_t population, islands, n_genes, top;
    const uint32_t *n_values; /* [n_genes]: the lattice's value counts */
} checkpoint_shape_t;

/* 1 when a checkpoint of generation >= 1 fits the run: its sizes, every
 * gene on the lattice, every parent an individual (or -1), every island's
 * plan inside its island, its counters consistent. Else 0 and why[n] says
 * what does not (a damaged or edited file: the resume starts over rather
 * than index past an array). */
int checkpoint_fits(const checkpoint_t *c, const checkpoint_shape_t *want, char *why, size_t n);

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
