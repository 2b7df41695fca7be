/* gen-data's ownership marker: DIR/.evolve-gen-data says that gen-data wrote
 * the data files in DIR, so a later gen-data may replace them. Without it an
 * existing file of the same name (a trader's own trade log, say) is refused,
 * never overwritten. */
#ifndef EVOLVE_IO_GEN_MARKER_H
#define EVOLVE_IO_GEN_MARKER_H

#include "common/status.h"

#define GEN_MARKER_NAME ".evolve-gen-data"

/* EV_OK when none of paths[0..n) exists, or when out_dir holds the marker;
 * otherwise an error naming the first existing file. */
ev_status gen_marker_check(const char *out_dir, char *const *paths, int n, ev_error *err);

/* Writes the marker (temporary file, then rename) unless it is there already;
 * *created says whether this call put it there. */
ev_status gen_marker_write(const char *out_dir, int *created, ev_error *err);

/* Removes the marker this run created (after a failed run). */
void gen_marker_remove(const char *out_dir);

#endif
