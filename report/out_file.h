/* A file `evolve report` writes into its folder (a chart, the HTML page):
 * checked never to replace a file it did not write (io/output_guard.h),
 * written under a temporary name and renamed into place. */
#ifndef EVOLVE_OUT_FILE_H
#define EVOLVE_OUT_FILE_H

#include <stdio.h>

#include "common/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Writes the body of the file to f. */
typedef void (*out_body_fn)(FILE *f, const void *ctx);

/* EV_OK when dir/name is absent, empty or begins with one of marks
 * (NULL-terminated); else EV_EIO naming it and `what` ("--out chart"). */
ev_status out_file_check(const char *dir, const char *name, const char *what, const char *const *marks, ev_error *err);

/* out_file_check, then body into dir/name through a temporary file; the
 * path written goes to log ("report: wrote PATH"). */
ev_status out_file_write(const char *dir, const char *name, const char *what, const char *const *marks,
                         out_body_fn body, const void *ctx, FILE *log, ev_error *err);

#ifdef __cplusplus
}
#endif
#endif
