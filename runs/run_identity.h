/* A session's identity (archive/identity.h), and the check that it is the
 * one a GA's checkpoint or a grid's progress file was written by. */
#ifndef EVOLVE_RUN_IDENTITY_H
#define EVOLVE_RUN_IDENTITY_H

#include <stdint.h>

#include "archive/identity.h"
#include "common/status.h"
#include "runs/session.h"

#ifdef __cplusplus
extern "C" {
#endif

/* This session's identity (pointers into s). */
void run_identity_of(const session_t *s, run_identity_t *id);

/* The first difference, as "cannot resume PARTIAL: the X differs ..."
 * (EV_ECONFIG), saying how to start over (deleting partial, and also when
 * not NULL), or EV_OK. */
ev_status run_identity_compare(const run_identity_t *was, const run_identity_t *now, const char *partial,
                               const char *also, const session_t *s, ev_error *err);

#ifdef __cplusplus
}
#endif
#endif
