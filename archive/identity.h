/* What must be equal for a run to continue another: the identity a GA's
 * checkpoint and a grid's progress file carry (runs/run_identity.h compares
 * it with a session's), as root attributes of the file. */
#ifndef EVOLVE_IDENTITY_H
#define EVOLVE_IDENTITY_H

#include <stdint.h>

#include <hdf5.h>

#include "common/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    const char *config_text;
    uint64_t seed;
    uint64_t top;
    uint64_t dataset_hash;    /* the dataset's content_hash */
    const char *tool_version; /* "evolve 0.1.0 (git abc)" */
    const char *backend;      /* the backend's name */
} run_identity_t;

/* The six attributes of loc in file path (config_text, seed, top,
 * dataset_hash, tool_version, backend). */
ev_status identity_write(const char *path, hid_t loc, const run_identity_t *id, ev_error *err);

/* Reads them (the strings allocated: identity_free). */
ev_status identity_read(const char *path, hid_t loc, run_identity_t *id, ev_error *err);
void identity_free(run_identity_t *id);

#ifdef __cplusplus
}
#endif
#endif
