/* A GA run between two generations: the one state type that the GA driver
 * snapshots (ga/ga_run.h, on_checkpoint), the checkpoint writes and reads
 * (archive/checkpoint.c) and a resume restores (runs/resume.c, ga_run's
 * restore), with one table of its fields and one check.
 *
 * The table (ga_snapshot_fields) drives the checkpoint's writer and reader
 * (each field's name is its HDF5 attribute or dataset there) and the check
 * (ga_snapshot_fits): a new field is a member here and a line in the table;
 * nothing copies the state field by field. */
#ifndef EVOLVE_GA_SNAPSHOT_H
#define EVOLVE_GA_SNAPSHOT_H

#include <stddef.h>
#include <stdint.h>

#include "fitness/ranked.h"
#include "operators/breed_ctx.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Generation `generation` bred and not yet evaluated. Pointers are only
 * read: they point into the run (a snapshot), into a checkpoint_read's
 * allocations, or into a test's copy. */
typedef struct {
    uint32_t generation; /* the next generation to evaluate (>= 1 to resume from) */
    uint32_t population, n_genes, islands;
    uint32_t last_improvement;   /* the generation whose best was last strictly better (stall) */
    uint32_t last_restart;       /* the last generation made by a restart (0: none) */
    uint32_t restarts;           /* restarts so far */
    uint32_t search_improved;    /* the generation the current search's best last improved (docs/ga.md "Restarts") */
    uint32_t searches_best;      /* ended searches whose best equals the hall of fame's best */
    double search_best;          /* the current search's best fitness (-inf: none feasible yet) */
    uint64_t evaluations;        /* unique evaluations so far (= genomes in the dedup cache) */
    uint64_t lookups;            /* population x generations evaluated */
    uint64_t ls_evaluations;     /* local search sweeps so far, in evaluations (docs/ga.md) */
    uint32_t hof_k;              /* the hall of fame's capacity (config top) */
    double elapsed_s;            /* wall seconds spent so far; a resumed run's wall_s continues from it */
    const uint16_t *genes;       /* SoA [n_genes][population] */
    const int32_t *parents;      /* [2][population]: A then B, individuals of generation - 1 (-1: none) */
    const breed_island_t *plans; /* [islands]: how each island made this generation */
    uint32_t hof_n;              /* entries of hof */
    const ranked_genome_t *hof;  /* [hof_n]: the hall of fame after generation - 1, best first */
} ga_snapshot_t;

/* What a field is: how it is stored and what the check asks of it. */
typedef enum {
    GA_FIELD_U32,     /* uint32_t; an attribute (stored as uint64) */
    GA_FIELD_U64,     /* uint64_t; an attribute */
    GA_FIELD_F64,     /* double; an attribute */
    GA_FIELD_GENES,   /* const uint16_t * [n_genes][population]: every gene on the lattice */
    GA_FIELD_PARENTS, /* const int32_t * [2][population]: every parent an individual or -1 */
    GA_FIELD_PLANS,   /* const breed_island_t * [islands], stored uint32 [islands][4]: each fits its island */
    GA_FIELD_RANKED   /* const ranked_genome_t * [hof_n] of at most hof_k: a ranked table (group) */
} ga_field_kind;

typedef struct {
    const char *name; /* the checkpoint's attribute, dataset or group */
    ga_field_kind kind;
    size_t offset; /* in ga_snapshot_t */
    int run_shape; /* 1: must equal the run's own (population, n_genes, islands, hof_k) */
} ga_snapshot_field_t;

/* In the order the checkpoint writes them (attributes first, then arrays). */
extern const ga_snapshot_field_t ga_snapshot_fields[];
extern const size_t ga_snapshot_n_fields;

/* The field's value in s: a scalar widened to uint64 (GA_FIELD_U32/U64). */
uint64_t ga_snapshot_u64(const ga_snapshot_t *s, const ga_snapshot_field_t *f);
/* A GA_FIELD_F64's value in s. */
double ga_snapshot_f64(const ga_snapshot_t *s, const ga_snapshot_field_t *f);
/* Where the field lives in s. */
void *ga_snapshot_at(ga_snapshot_t *s, const ga_snapshot_field_t *f);
/* An array field's pointer (NULL when unset). */
const void *ga_snapshot_array(const ga_snapshot_t *s, const ga_snapshot_field_t *f);

/* An array field's dimensions in s (dims[1] = 0 for GA_FIELD_RANKED, whose
 * rows are hof_n). Generation 0 holds no population: its arrays are empty. */
void ga_snapshot_dims(const ga_snapshot_t *s, const ga_snapshot_field_t *f, uint64_t dims[2]);

/* The one check of a state to resume from: 1 when s fits the run, whose
 * shape is given as a snapshot `run` (population, n_genes, islands, hof_k:
 * the run_shape fields; the rest ignored) and the lattice's value counts:
 * generation >= 1; the run's shape; counters consistent with the generation;
 * every gene on the lattice, every parent an individual (or -1), every
 * island's plan inside its island; the hall of fame within its capacity.
 * Else 0, and why[n] says what does not fit (a damaged or edited checkpoint:
 * the resume starts over rather than index past an array). */
int ga_snapshot_fits(const ga_snapshot_t *s, const ga_snapshot_t *run, const uint32_t *n_values, char *why, size_t n);

#ifdef __cplusplus
}
#endif
#endif
