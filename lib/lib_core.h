/* What the files of libevolve share: the context that carries the last
 * error, and the handles' definitions (the public header keeps them opaque). */
#ifndef EVOLVE_LIB_CORE_H
#define EVOLVE_LIB_CORE_H

/* the definitions below export what include/evolve.h declares (dllexport on Windows) */
#ifndef EVOLVE_BUILDING_LIBRARY
#define EVOLVE_BUILDING_LIBRARY
#endif

#include "archive/run_file.h"
#include "common/status.h"
#include "fitness/dataset.h"
#include "fitness/lattice.h"
#include "fitness/objective_cfg.h"
#include "fitness/problem.h"
#include "fitness/tables.h"
#include "ga/backend.h"
#include "include/evolve.h"

#ifdef __cplusplus
extern "C" {
#endif

struct evolve_ctx {
    ev_error err;
};

struct evolve_dataset {
    dataset_t ds;
    int refs; /* the handle and each evaluator opened on it */
};

struct evolve_lattice {
    lattice_t lat;
    objective_cfg_t obj;
    char *yaml;           /* the parameters document it was read from (NULL: from a run file) */
    char *name;           /* that document's name in messages */
    char *objective_yaml; /* the objective document set later, or NULL */
};

struct evolve_evaluator {
    struct evolve_dataset *ds; /* a reference: the dataset lives until the last of its users closes */
    lattice_t lat;
    objective_cfg_t obj;
    fit_problem_t prob;
    tables_host_t tables;
    const backend_ops_t *ops;
    backend_t *backend;
    char device[256];
};

struct evolve_runfile {
    run_file_t rf;
};

/* Records err's message in ctx and returns its status (EV_OK clears it). */
int lib_result(evolve_ctx *ctx, ev_status st, const ev_error *err);
/* A usage error on ctx (may be NULL). */
int lib_usage(evolve_ctx *ctx, const char *what);
/* Drops a reference to d, freeing it with the last. */
void lib_dataset_release(struct evolve_dataset *d);

#ifdef __cplusplus
}
#endif
#endif
