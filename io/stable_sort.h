/* A stable sort (qsort does not promise stability): ingest needs equal keys
 * to keep their file order (duplicate seconds keep the last row; trades with
 * the same entry time keep the log's order). */
#ifndef EVOLVE_STABLE_SORT_H
#define EVOLVE_STABLE_SORT_H

#include <stddef.h>

#include "common/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef int (*stable_cmp_fn)(const void *a, const void *b, void *ctx);

/* Merge sort of n elements of `size` bytes; O(n log n), n * size bytes of
 * scratch. */
ev_status stable_sort(void *base, size_t n, size_t size, stable_cmp_fn cmp, void *ctx, ev_error *err);

#ifdef __cplusplus
}
#endif
#endif
