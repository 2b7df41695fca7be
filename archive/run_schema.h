/* What a run file holds per GA generation, as one table that the writer,
 * the reader, the resume check and the report all walk, so they cannot drift
 * apart (the layout is documented in results/README.md).
 *
 * Each column is one extendible dataset whose first dimension is the
 * generation; the rest of its shape (the "row") is a function of the
 * population, the number of genes and the number of islands. A generation
 * is written as one row buffer per column (run_rows_t). */
#ifndef EVOLVE_RUN_SCHEMA_H
#define EVOLVE_RUN_SCHEMA_H

#include <stdint.h>

#include <hdf5.h>

#include "common/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define RUN_FORMAT "evolve-run" /* root attribute "format" */
#define RUN_FORMAT_VERSION 1    /* root attribute "format_version" */

typedef enum { RUN_U8, RUN_U16, RUN_I32, RUN_U32, RUN_I64, RUN_U64, RUN_F64 } run_elem;

/* The row of a column: what follows the generation axis. */
typedef enum {
    ROW_ONE,         /* a scalar per generation */
    ROW_POP,         /* [population] */
    ROW_POP_GENES,   /* [population][n_genes] */
    ROW_POP_PAIR,    /* [population][2] */
    ROW_GENES,       /* [n_genes] */
    ROW_ISLANDS,     /* [islands] */
    ROW_ISLANDS_PLAN /* [islands][4] */
} run_row;

/* Columns, in the order a generation is hashed. */
typedef enum {
    COL_GENES,           /* ga/genes: uint16 lattice indices, one row per individual */
    COL_FITNESS,         /* ga/fitness: objective_display of the fitness (what a trader reads) */
    COL_FITNESS_RAW,     /* ga/fitness_raw: the fitness that ranks (compound: the log sum) */
    COL_TRADES,          /* ga/trades: trades kept */
    COL_FEASIBLE,        /* ga/feasible: 1 / 0 */
    COL_INDEX,           /* ga/index: linear index (only when the lattice has < 2^64 points) */
    COL_PARENTS,         /* ga/parents: [A, B], individuals of the previous generation, -1 where none */
    COL_GENERATION,      /* ga/stats/generation */
    COL_FEASIBLE_COUNT,  /* ga/stats/feasible */
    COL_BEST,            /* ga/stats/best: raw fitness of the generation's best feasible */
    COL_MEDIAN,          /* ga/stats/median: raw */
    COL_MEAN,            /* ga/stats/mean: raw, finite feasible (the backend's summation order) */
    COL_STD,             /* ga/stats/std: raw, population standard deviation */
    COL_BEST_DISPLAY,    /* ga/stats/best_display: the same, as displayed */
    COL_MEDIAN_DISPLAY,  /* ga/stats/median_display */
    COL_MEAN_DISPLAY,    /* ga/stats/mean_display: mean of the displayed finite feasible fitness */
    COL_HOF_BEST,        /* ga/stats/hof_best: the hall of fame's best so far, displayed (NaN: none) */
    COL_UNIQUE,          /* ga/stats/unique: distinct genomes in the population */
    COL_DIVERSITY,       /* ga/stats/diversity: unique / population */
    COL_GENE_ENTROPY,    /* ga/stats/gene_entropy: bits, per gene */
    COL_ISLAND_UNIQUE,   /* ga/stats/island_unique */
    COL_ISLAND_PLAN,     /* ga/stats/island_plan: elites, immigrants, migrants, source (0 for generation 0) */
    COL_NEW_EVALUATIONS, /* ga/stats/new_evaluations */
    COL_EVALUATIONS,     /* ga/stats/evaluations: unique evaluations so far */
    COL_LOOKUPS,         /* ga/stats/lookups */
    COL_HIT_RATE,        /* ga/stats/hit_rate: 1 - evaluations / lookups */
    COL_WALL_S,          /* ga/stats/wall_s: seconds since the run started (a measurement) */
    RUN_N_COLUMNS
} run_column_id;

typedef struct {
    const char *path; /* relative to the file's root */
    run_elem elem;
    run_row row;
} run_column_t;

extern const run_column_t run_columns[RUN_N_COLUMNS];

/* The sizes a generation's rows depend on. */
typedef struct {
    uint32_t population, n_genes, islands;
    int has_index; /* COL_INDEX is written (the lattice has < 2^64 points) */
} run_dims_t;

/* One generation: a row buffer per column (NULL for an absent COL_INDEX). */
typedef struct {
    void *col[RUN_N_COLUMNS];
} run_rows_t;

hid_t run_elem_mem(run_elem e);  /* native type */
hid_t run_elem_file(run_elem e); /* little-endian type stored */
size_t run_elem_size(run_elem e);

/* 1 when column c is written for these dims. */
int run_column_present(run_column_id c, const run_dims_t *d);
/* The row shape of column c: fills row[] and returns its rank (0 for a scalar). */
int run_column_row(run_column_id c, const run_dims_t *d, uint64_t *row);
/* Bytes of one row of column c. */
size_t run_column_row_bytes(run_column_id c, const run_dims_t *d);

/* Allocates a row buffer for every present column (zeroed); run_rows_free. */
ev_status run_rows_alloc(run_rows_t *r, const run_dims_t *d, ev_error *err);
void run_rows_free(run_rows_t *r);

/* XXH64 of one generation's rows, column by column in enum order: what a
 * checkpoint keeps per archived generation, so a resume can prove the run
 * file still holds exactly what was written. */
uint64_t run_rows_hash(const run_rows_t *r, const run_dims_t *d);

#ifdef __cplusplus
}
#endif
#endif
