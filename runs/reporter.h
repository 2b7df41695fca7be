/* What a run tells whoever started it: lines of progress and notes,
 * warnings, and the result tables. runs/ prints nothing itself; the front
 * end fills a reporter and decides where each goes (the command line,
 * cli/run_print.c: notes and warnings on stderr, tables on stdout; libevolve,
 * lib/lib_run.c: notes when verbose and warnings on stderr, both to the
 * caller's on_message, no table). */
#ifndef EVOLVE_REPORTER_H
#define EVOLVE_REPORTER_H

#include <stdio.h>

#include "common/status.h"
#include "fitness/reported.h"
#include "fitness/walk_forward.h"
#include "io/config.h"
#include "report/validate.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    RUN_TABLE_TOP,      /* a grid's top-K or a GA's hall of fame: top */
    RUN_TABLE_VALIDATE, /* --validate: the grid's top-K (top), the GA's hall of fame (hof), the figures */
    RUN_TABLE_WALK,     /* --walk-forward: walk's windows and chained result, searched by `search` */
} run_table_kind_t;

typedef struct {
    run_table_kind_t kind;
    const config_t *cfg;
    const reported_t *top;
    const reported_t *hof;
    const validate_figures_t *validate;
    const wf_result_t *walk;
    const char *search; /* "grid" or "ga" */
} run_table_t;

typedef struct {
    /* The streams that the folders below runs/ write to themselves: log, the
     * progress of ga/'s generations, the grid's chunks and io/'s dataset
     * summary (NULL: quiet); err, their notes shown even when quiet (the
     * stale temporary files removed beside an output; NULL: none). */
    FILE *log;
    FILE *err;
    /* One line (ending in '\n') of progress or a note; NULL: quiet. */
    void (*note)(void *user, const char *line);
    /* One warning line (ending in '\n'), shown even when quiet; NULL: none. */
    void (*warning)(void *user, const char *line);
    /* A result table; NULL: none. */
    void (*table)(void *user, const run_table_t *t);
    void *user;
} run_reporter_t;

/* 1 when r wants notes (a reporter with a note callback). */
int run_noting(const run_reporter_t *r);
/* printf-style lines to r's note or warning callback; nothing where r or the
 * callback is NULL. A line is formatted whole before it is handed over. */
void run_note(const run_reporter_t *r, const char *fmt, ...) EV_PRINTF(2, 3);
void run_warning(const run_reporter_t *r, const char *fmt, ...) EV_PRINTF(2, 3);
/* A result table to r's table callback (none: nothing), then a warning when
 * the list's rank 1 sits on an edge of the lattice (fitness/lattice.h
 * lattice_edge; not for walk-forward windows). */
void run_table(const run_reporter_t *r, const run_table_t *t);
/* r's streams for the folders below (NULL where r is NULL). */
FILE *run_log(const run_reporter_t *r);
FILE *run_err(const run_reporter_t *r);

#ifdef __cplusplus
}
#endif
#endif
