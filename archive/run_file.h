/* The run file (HDF5): everything a run did, written as it goes. Layout:
 * results/README.md. Groups: /provenance (where the run came from),
 * /objective, /lattice, and by mode /ga (every generation, its statistics,
 * the hall of fame), /grid (top-K, heatmap), /validate.
 *
 * The writer only appends and rewrites small tables; the GA flushes it
 * before each checkpoint (a resume reads only the rows a checkpoint covers)
 * and when the run ends. It is not by itself crash-safe (HDF5 is not): the GA
 * driver keeps a checkpoint beside it (archive/checkpoint.h) whose hashes
 * prove, on resume, that the rows it covers are intact. */
#ifndef EVOLVE_RUN_FILE_H
#define EVOLVE_RUN_FILE_H

#include <stdint.h>

#include <hdf5.h>

#include "archive/run_schema.h"
#include "common/status.h"
#include "fitness/dataset.h"
#include "fitness/ranked.h"
#include "io/config.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    char *path; /* the file as written or opened (a temporary or .partial name while running) */
    hid_t file;
    run_dims_t dims; /* of the /ga columns, once they exist */
    int has_ga;
    uint32_t n_params;
    uint32_t generations;     /* rows of the /ga columns */
    hid_t col[RUN_N_COLUMNS]; /* a writer's open /ga columns (-1: closed); run_file_close closes them */
    int cols_open;
} run_file_t;

/* Where a run came from, for /provenance. */
typedef struct {
    const config_t *cfg;
    const dataset_t *ds;
    const char *mode;    /* "ga", "grid", "validate" */
    const char *backend; /* the backend's name */
    const char *device;  /* its describe string (CUDA: device name and runtime version) */
    /* /provenance/sessions: one line per process that wrote the run. The
     * earlier ones (a resumed run's) come first; may be NULL. */
    char *const *earlier_sessions;
    size_t n_earlier_sessions;
    const char *session; /* this process: "started" or "resumed at generation N" */
    const char *probe;   /* the GPU probe's verdict (runs/gpu_probe.h), or NULL: no attribute */
} run_origin_t;

/* Creates a run file at path (truncating): root attributes (format, mode,
 * status "running"), /provenance, /objective, /lattice. */
ev_status run_file_create(run_file_t *rf, const char *path, const run_origin_t *o, ev_error *err);

/* The /ga group and its per-generation columns (empty), with the settings
 * as attributes. */
ev_status run_file_ga_begin(run_file_t *rf, const run_dims_t *d, const ga_settings_t *ga, uint32_t top, ev_error *err);

/* Writes generation gen's rows (gen <= rows written: a later generation
 * replaces nothing, it is appended at row gen). */
ev_status run_file_append(run_file_t *rf, uint32_t gen, const run_rows_t *rows, ev_error *err);

/* A ranked table (hall of fame, grid top-K) in group `group` (created on
 * the first call, rewritten by later ones): rank_key, index, fitness
 * (value[i], the reported value of fitness/reported.h; value NULL: the raw
 * fitness), fitness_raw, trades, feasible [n] and genes [n][n_params].
 * capacity: the most rows it will hold (the chunk). */
ev_status run_file_write_ranked(run_file_t *rf, const char *group, const ranked_genome_t *e, const double *value,
                                uint32_t n, uint32_t capacity, ev_error *err);

/* Scalar attributes of an object (created as a group when missing). */
ev_status run_file_attr_str(run_file_t *rf, const char *object, const char *name, const char *value, ev_error *err);
ev_status run_file_attr_u64(run_file_t *rf, const char *object, const char *name, uint64_t value, ev_error *err);
ev_status run_file_attr_f64(run_file_t *rf, const char *object, const char *name, double value, ev_error *err);

/* Flushes everything to the file (before a checkpoint, at the end). */
ev_status run_file_flush(run_file_t *rf, ev_error *err);
/* Closes (and, for a written file, flushes) it; safe on a closed file. */
ev_status run_file_close(run_file_t *rf, ev_error *err);

/* ---- reading (archive/run_read.c) ---- */

/* Opens an existing run file read-only and checks its format; reads the
 * /ga dimensions when there is a /ga group. The message for a file that is
 * not a run file says so, naming it. */
ev_status run_file_open(run_file_t *rf, const char *path, ev_error *err);

/* Rows [first, first + n) of a /ga column into data (run_column_row_bytes x n). */
ev_status run_file_read_column(run_file_t *rf, run_column_id c, uint32_t first, uint32_t n, void *data, ev_error *err);
/* All of generation gen's rows. */
ev_status run_file_read_rows(run_file_t *rf, uint32_t gen, run_rows_t *rows, ev_error *err);

/* A ranked table written by run_file_write_ranked; *e and *value (its
 * fitness column) are malloc'ed (free). A missing group reads as an error
 * naming it. */
ev_status run_file_read_ranked(run_file_t *rf, const char *group, ranked_genome_t **e, double **value, uint32_t *n,
                               ev_error *err);

/* Attributes; a missing string attribute reads as NULL when optional. */
ev_status run_file_read_str(run_file_t *rf, const char *object, const char *name, int optional, char **value,
                            ev_error *err);
ev_status run_file_read_u64(run_file_t *rf, const char *object, const char *name, uint64_t *value, ev_error *err);
ev_status run_file_read_f64(run_file_t *rf, const char *object, const char *name, double *value, ev_error *err);
/* 1 when the object (group or dataset) exists. */
int run_file_has(run_file_t *rf, const char *object);

/* /lattice and /objective back into their structs (lattice_free). */
ev_status run_file_read_lattice(run_file_t *rf, lattice_t *lat, objective_cfg_t *obj, ev_error *err);

/* /provenance/sessions (free with run_file_free_strings); empty when absent. */
ev_status run_file_read_sessions(run_file_t *rf, char ***lines, size_t *n, ev_error *err);
void run_file_free_strings(char **s, size_t n);

#ifdef __cplusplus
}
#endif
#endif
