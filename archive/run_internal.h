/* Shared between the files that write and read the run file; not a public
 * API (archive/run_file.h is). */
#ifndef EVOLVE_RUN_INTERNAL_H
#define EVOLVE_RUN_INTERNAL_H

#include "archive/run_file.h"

/* The group or dataset at `object` (relative to the root; "/" is the root),
 * created as a group (with its parents) when missing and create is set.
 * Close with h5u_close; -1 with err filled on failure (archive/run_object.c). */
hid_t run_object_open(run_file_t *rf, const char *object, int create, ev_error *err);

/* /provenance (archive/run_provenance.c). */
ev_status run_provenance_write(run_file_t *rf, const run_origin_t *o, ev_error *err);

/* /lattice and /objective (archive/run_lattice.c). */
ev_status run_lattice_write(run_file_t *rf, const lattice_t *lat, const objective_cfg_t *obj, ev_error *err);

#endif
