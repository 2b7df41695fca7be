/* Which existing file evolve bars or evolve trades may replace: only a CSV such a command wrote. */
#ifndef EVOLVE_SIGNALS_OUTPUT_H
#define EVOLVE_SIGNALS_OUTPUT_H

#include "cli/bars_source.h"
#include "common/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* path (option `what`) may be written: it is neither the bars file of o nor
 * genomes (NULL: none), and an existing file there begins with one of its
 * own headers own[2] (own[1] NULL: one) or any strategy's trades header. */
ev_status signals_output_check(const char *path, const char *what, const char *const own[2], const bars_opts_t *o,
                               const char *genomes, ev_error *err);

#ifdef __cplusplus
}
#endif
#endif
