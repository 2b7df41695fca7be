/* The three evaluators agree exactly on random datasets, random lattices and
 * every objective, fill and constraint: every genome of every lattice, and the
 * full ranking with grid batches of 1, 7 and the whole lattice; also on
 * lattices with the exits of SPEC sec. 4.1 (trail, breakeven, max_hold).
 * Argument: the rounds of each kind (default 300; the sanitizer build runs
 * fewer, tests/CMakeLists.txt); every kind the rounds draw is counted and
 * must have been drawn, so that a smaller count is seen to keep them all. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/check.h"
#include "tests/support/builder.h"
#include "tests/support/drawn_kinds.h"
#include "tests/support/fitness_harness.h"
#include "tests/support/random_problem.h"

/* Every kind the rounds must draw (tests/support/drawn_kinds.h): each
 * objective, fill and cost, the constraints on, a max filter, a lattice
 * without its target or stop; the rounds with more exits each exit role too. */
#define ROUND_NEED                                                                                 \
    (DRAWN_RANGE(DRAWN_OBJ, OBJ_COUNT) | DRAWN_RANGE(DRAWN_FILL, 2) | DRAWN_RANGE(DRAWN_COST, 3) | \
     DRAWN_BIT(DRAWN_MAX_DD + 1) | DRAWN_BIT(DRAWN_MIN_TRADES + 1) | DRAWN_BIT(DRAWN_DIR + 1) |    \
     DRAWN_BIT(DRAWN_TARGET + 1) | DRAWN_BIT(DRAWN_STOP + 1))
static const uint64_t need[DRAWN_STREAMS] = {
    [DRAWN_PLAIN] = ROUND_NEED,
    [DRAWN_EXITS] = ROUND_NEED | DRAWN_BIT(DRAWN_EXIT) | DRAWN_BIT(DRAWN_EXIT + 2) | DRAWN_BIT(DRAWN_EXIT + 4),
};

/* rounds: target and stop only (random_lattice), then with SPEC sec. 4.1's
 * exits (random_lattice_more: trail, breakeven, max_hold, each half the time). */
static int rounds(uint64_t rng, int n, int more, uint64_t *genomes, drawn_kinds_t *drawn)
{
    int mismatches = 0;
    const drawn_stream stream = more ? DRAWN_EXITS : DRAWN_PLAIN;
    for (int round_no = 0; round_no < n; round_no++) {
        dataset_t ds;
        lattice_t lat;
        objective_cfg_t obj;
        topk_t rank;
        random_dataset(&ds, &rng, NULL);
        if (more)
            random_lattice_more(&lat, &ds, &rng);
        else
            random_lattice(&lat, &ds, &rng);
        random_objective(&obj, &rng);
        const drawn_problem_t drew = {&lat, &obj, 0, 0};
        drawn_add(drawn, stream, &drew);
        harness_check_all(&ds, &lat, &obj, &rank, &mismatches);
        *genomes += lat.size;
        topk_free(&rank);
        lattice_free(&lat);
        dataset_free(&ds);
        if (mismatches) {
            fprintf(stderr, "round %d%s (objective %d, fill %d) disagrees\n", round_no, more ? " with more exits" : "",
                    obj.kind, obj.fill);
            return mismatches;
        }
    }
    return mismatches;
}

int main(int argc, char **argv)
{
    uint64_t genomes = 0, more = 0;
    drawn_kinds_t drawn;
    char *end = NULL;
    long n = argc > 1 ? strtol(argv[1], &end, 10) : 300;
    if (argc > 2 || (end && (*end || end == argv[1])) || n < 1 || n > 300) {
        fprintf(stderr, "usage: test_fitness_random [ROUNDS]: ROUNDS is a count of 1..300 (got \"%s\")\n",
                argc > 1 ? argv[1] : "");
        return 2;
    }
    memset(&drawn, 0, sizeof drawn);
    CHECK_EQ_I64(0, rounds(12345, (int)n, 0, &genomes, &drawn));
    CHECK_EQ_I64(0, rounds(777, (int)n, 1, &more, &drawn));
    CHECK_EQ_I64(0, drawn_report(&drawn, need, stdout)); /* every kind still drawn, however few the rounds */
    printf("%llu random genomes checked, %llu of them on lattices with trail, breakeven or max_hold\n",
           (unsigned long long)(genomes + more), (unsigned long long)more);
    /* the lattices are not all tiny: ~17 genomes a round at least (300 rounds: > 5,000) */
    CHECK(genomes > 50 * (uint64_t)n / 3);
    CHECK(more > 50 * (uint64_t)n / 3);
    return check_exit();
}
