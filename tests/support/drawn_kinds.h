/* What a test's random problems draw (test_fitness_random, test_cuda_parity):
 * each round's objective, fill, cost, constraints, filters, target and stop,
 * SPEC sec. 4.1's exits and fold statistic, counted by the stream that drew
 * it, so that a run of fewer rounds (the sanitizer and emulated builds',
 * tests/CMakeLists.txt) shows which kinds it still draws: each kind's count,
 * then "kinds not drawn:" for every kind the caller needs that no round of
 * its stream drew. Each caller says which kinds it needs (a mask a stream):
 * what its rounds enumerate on purpose, not the numbers that just vary. */
#ifndef EVOLVE_TESTS_DRAWN_KINDS_H
#define EVOLVE_TESTS_DRAWN_KINDS_H

#include <stdint.h>
#include <stdio.h>

#include "fitness/lattice.h"
#include "fitness/objective_cfg.h"

/* The plain rounds (random_lattice), their fold-statistic reruns, and the
 * rounds on lattices with SPEC sec. 4.1's exits (random_lattice_more). */
typedef enum { DRAWN_PLAIN = 0, DRAWN_FOLDS, DRAWN_EXITS, DRAWN_STREAMS } drawn_stream;

/* The kinds, a group's first one plus the choice. */
enum {
    DRAWN_OBJ = 0,                       /* + objective_kind */
    DRAWN_FILL = DRAWN_OBJ + OBJ_COUNT,  /* + 0 level, 1 price */
    DRAWN_COST = DRAWN_FILL + 2,         /* + 0: 0, 1: 0.01, 2: 0.05 (random_objective's) */
    DRAWN_MIN_TRADES = DRAWN_COST + 3,   /* + 0: 0, 1: > 0 */
    DRAWN_MAX_DD = DRAWN_MIN_TRADES + 2, /* + 0 off, 1 on */
    DRAWN_DIR = DRAWN_MAX_DD + 2,        /* + 0 a min filter, 1 a max filter */
    DRAWN_FEATURE = DRAWN_DIR + 2,       /* + 0..2: a filter on F0, F1, F2 */
    DRAWN_N_FILTERS = DRAWN_FEATURE + 3, /* + 0..2: 1, 2, 3 filters */
    DRAWN_TARGET = DRAWN_N_FILTERS + 3,  /* + 0 with, 1 without */
    DRAWN_STOP = DRAWN_TARGET + 2,       /* + 0 with, 1 without */
    DRAWN_DOMINANCE = DRAWN_STOP + 2,    /* + 0 applicable, 1 not */
    DRAWN_AGG = DRAWN_DOMINANCE + 2,     /* + 0 mean, 1 median, 2 worst fold */
    DRAWN_EXIT = DRAWN_AGG + 3,          /* + 2 * (0 trail, 1 breakeven, 2 max_hold) + (0 with, 1 without) */
    DRAWN_KINDS = DRAWN_EXIT + 6
};

/* need masks: the kind k, and the n kinds from first on. */
#define DRAWN_BIT(k) ((uint64_t)1 << (k))
#define DRAWN_RANGE(first, n) ((((uint64_t)1 << (n)) - 1) << (first))

/* One round's problem: n_folds 0 when it ranks by the whole, else the fold
 * statistic agg (AGG_MEAN_FOLD..AGG_WORST_FOLD) over n_folds folds. */
typedef struct {
    const lattice_t *lat;
    const objective_cfg_t *obj;
    int32_t n_folds, agg;
} drawn_problem_t;

typedef struct {
    uint32_t rounds[DRAWN_STREAMS];
    uint32_t count[DRAWN_STREAMS][DRAWN_KINDS];
} drawn_kinds_t;

/* Counts what p draws as a round of stream s. */
void drawn_add(drawn_kinds_t *d, drawn_stream s, const drawn_problem_t *p);

/* Prints the round's line to out: what p draws of the kinds stream s
 * enumerates, its folds and lattice points, and cpu_s. */
void drawn_print(drawn_stream s, int round, const drawn_problem_t *p, double cpu_s, FILE *out);

/* Prints each stream's counts (a stream with rounds or needs), then "kinds
 * not drawn: ..." when a stream missed a kind of need[stream] (a stream
 * without rounds misses them all: one item); returns how many it missed. */
int drawn_report(const drawn_kinds_t *d, const uint64_t need[DRAWN_STREAMS], FILE *out);

#endif
