/* What a parity test's random problems draw (test_cuda_parity): each
 * round's objective, fill, cost, constraints, filters, target and stop,
 * SPEC sec. 4.1's exits and fold statistic, counted by the stream that drew
 * it, so that a run of fewer rounds (the emulated builds',
 * tests/CMakeLists.txt) shows which of the kinds its streams enumerate it
 * still draws: a line a round, then each kind's count and "kinds not drawn:"
 * for every kind a stream enumerates that no round of it drew (numbers such
 * as costs are counted, not needed: drawn_kinds.c). */
#ifndef EVOLVE_TESTS_DRAWN_KINDS_H
#define EVOLVE_TESTS_DRAWN_KINDS_H

#include <stdint.h>
#include <stdio.h>

#include "fitness/problem.h"

/* The plain rounds (random_lattice), their fold-statistic reruns, and the
 * rounds on lattices with SPEC sec. 4.1's exits (random_lattice_more). */
typedef enum { DRAWN_PLAIN = 0, DRAWN_FOLDS, DRAWN_EXITS, DRAWN_STREAMS } drawn_stream;

enum { DRAWN_KINDS = 40 };

typedef struct {
    uint32_t rounds[DRAWN_STREAMS];
    uint32_t count[DRAWN_STREAMS][DRAWN_KINDS];
} drawn_kinds_t;

/* Counts what p draws (its lattice, objective and fold statistic) and prints
 * the round's line to out, with the round's CPU seconds. */
void drawn_add(drawn_kinds_t *d, drawn_stream s, int round, const fit_problem_t *p, double cpu_s, FILE *out);

/* Prints each stream's counts, then "kinds not drawn: ..." when a stream
 * missed one of its kinds; returns how many it missed. */
int drawn_report(const drawn_kinds_t *d, FILE *out);

#endif
