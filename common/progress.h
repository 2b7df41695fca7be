/* A progress line for long jobs: done/total, rate, ETA. Silent for the first
 * second (short jobs print nothing), then at most twice a second; on a
 * terminal it rewrites one line, elsewhere it prints a line every 10 s. */
#ifndef EVOLVE_PROGRESS_H
#define EVOLVE_PROGRESS_H

#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    FILE *out; /* NULL: silent */
    const char *label;
    const char *unit;
    uint64_t total;
    uint64_t base; /* done when the line started (a resumed job): the rate counts from there */
    double t0;
    double last;
    int printed;
    int tty;
} progress_t;

void progress_start(progress_t *p, FILE *out, const char *label, const char *unit, uint64_t total);
void progress_update(progress_t *p, uint64_t done);
/* A resumed job: `done` were finished before this process; the rate and ETA
 * count only what it does. */
void progress_from(progress_t *p, uint64_t done);
/* Ends the line (if one was printed). */
void progress_finish(progress_t *p, uint64_t done);

#ifdef __cplusplus
}
#endif
#endif
