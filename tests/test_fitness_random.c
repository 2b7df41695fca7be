/* The three evaluators agree exactly on random datasets, random lattices and
 * every objective, fill and constraint: every genome of every lattice, and the
 * full ranking with grid batches of 1, 7 and the whole lattice; also on
 * lattices with the exits of SPEC sec. 4.1 (trail, breakeven, max_hold). */
#include <stdio.h>
#include <string.h>

#include "tests/check.h"
#include "tests/support/builder.h"
#include "tests/support/fitness_harness.h"
#include "tests/support/random_problem.h"

/* rounds: target and stop only (random_lattice), then with SPEC sec. 4.1's
 * exits (random_lattice_more: trail, breakeven, max_hold, each half the time). */
static int rounds(uint64_t rng, int n, int more, uint64_t *genomes)
{
    int mismatches = 0;
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
        harness_check_all(&ds, &lat, &obj, &rank, &mismatches);
        *genomes += lat.size;
        topk_free(&rank);
        lattice_free(&lat);
        dataset_free(&ds);
        if (mismatches) {
            fprintf(stderr, "round %d%s (objective %d, fill %d) disagrees\n", round_no, more ? " with more exits" : "",
                    obj.kind, obj.fill);
            break;
        }
    }
    return mismatches;
}

int main(void)
{
    uint64_t genomes = 0, more = 0;
    CHECK_EQ_I64(0, rounds(12345, 300, 0, &genomes));
    CHECK_EQ_I64(0, rounds(777, 300, 1, &more));
    printf("%llu random genomes checked, %llu of them on lattices with trail, breakeven or max_hold\n",
           (unsigned long long)(genomes + more), (unsigned long long)more);
    CHECK(genomes > 5000);
    CHECK(more > 5000);
    return check_exit();
}
