/* The command that resumes an interrupted run, as the user pastes it. */
#ifndef EVOLVE_RESUME_COMMAND_H
#define EVOLVE_RESUME_COMMAND_H

#include <stddef.h>

#include "runs/modes.h"

#ifdef __cplusplus
extern "C" {
#endif

/* "evolve ARGS --resume PARTIAL" into buf[n]: this command line without
 * --output and --resume, plus --resume; arguments the shell would split or
 * expand are single-quoted. */
void run_resume_command(const run_args_t *a, const char *partial, char *buf, size_t n);

#ifdef __cplusplus
}
#endif
#endif
