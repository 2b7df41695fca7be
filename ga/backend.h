/* The backend interface: one vtable per compute backend (CPU, CUDA). The
 * search drivers (grid, GA) only talk to this; the build switch decides which
 * backends are compiled and registered (ga/backend_registry.c), nothing else. */
#ifndef EVOLVE_BACKEND_H
#define EVOLVE_BACKEND_H

#include <stdint.h>

#include "common/status.h"
#include "fitness/accum.h"
#include "fitness/dominance.h"
#include "fitness/problem.h"
#include "fitness/tables.h"
#include "fitness/topk.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct backend backend_t; /* each implementation defines its own */

typedef struct {
    const char *name; /* "cpu", "cuda" */

    /* Prepares for one problem: keeps (CPU) or uploads (CUDA) the tables,
     * which the caller keeps alive until close. */
    ev_status (*open)(backend_t **b, const fit_problem_t *p, const tables_host_t *tables, ev_error *err);
    void (*close)(backend_t *b);

    /* Human-readable device description for provenance ("CPU, 2 threads"). */
    void (*describe)(backend_t *b, char *buf, size_t n);

    /* Tables evaluator on n genomes given as host SoA genes: gene k of genome i
     * is genes[k * n + i]. */
    ev_status (*evaluate)(backend_t *b, const uint16_t *genes, uint64_t n, eval_result_t *out, ev_error *err);

    /* Tables evaluator on the lattice points [first, first + count), offered to
     * top. count <= grid_batch_max(b). */
    ev_status (*grid_batch)(backend_t *b, uint64_t first, uint64_t count, topk_t *top, ev_error *err);
    uint64_t (*grid_batch_max)(backend_t *b);

    /* Dominance sums over the whole lattice (additive objectives), or NULL when
     * the backend has none. */
    ev_status (*grid_dominance)(backend_t *b, const dominance_opts_t *opts, topk_t *top, ev_error *err);
} backend_ops_t;

/* "cpu", "cuda" or "auto" (CUDA when a device exists, else CPU). Errors: an
 * unknown name; "cuda" in a build without CUDA or on a machine without a GPU. */
ev_status backend_find(const char *name, const backend_ops_t **ops, ev_error *err);

extern const backend_ops_t backend_cpu_ops;

#ifdef __cplusplus
}
#endif
#endif
