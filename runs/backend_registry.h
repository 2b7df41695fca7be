/* The one place that knows which backends were built (runs/backend_registry.c). */
#ifndef EVOLVE_BACKEND_REGISTRY_H
#define EVOLVE_BACKEND_REGISTRY_H

#include "common/status.h"
#include "ga/backend.h"

#ifdef __cplusplus
extern "C" {
#endif

/* "cpu", "cuda" or "auto" (CUDA when a device exists, else CPU). Errors: an
 * unknown name; "cuda" in a build without CUDA or on a machine without a GPU.
 * Tests only: with EVOLVE_TEST_DEVICE=MODE set, "cuda" and "auto" give the
 * CPU backend's test twin (ga/backend_twin.h) instead of a device. */
ev_status backend_find(const char *name, const backend_ops_t **ops, ev_error *err);

#ifdef __cplusplus
}
#endif
#endif
