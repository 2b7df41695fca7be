/* The command that resumes an interrupted run, as the user pastes it. */
#ifndef EVOLVE_RESUME_COMMAND_H
#define EVOLVE_RESUME_COMMAND_H

#include <stddef.h>

#include "common/status.h"
#include "runs/modes.h"

#ifdef __cplusplus
extern "C" {
#endif

/* "evolve ARGS --resume PARTIAL" into buf[n]: this command line without
 * --output and --resume, plus --resume; arguments the shell would split or
 * expand are single-quoted. */
void run_resume_command(const run_args_t *a, const char *partial, char *buf, size_t n);

/* A fresh run over an output whose run was interrupted (partial exists):
 * refused (EV_EIO), with the command that continues it and how to start
 * over (deleting partial, and also when not NULL). */
ev_status run_refuse_fresh(const run_args_t *a, const char *partial, const char *also, ev_error *err);

#ifdef __cplusplus
}
#endif
#endif
