/* The three evaluators agree exactly on random datasets, random lattices and
 * every objective, fill and constraint: every genome of every lattice, and the
 * full ranking with grid batches of 1, 7 and the whole lattice. */
#include <stdio.h>
#include <string.h>

#include "tests/check.h"
#include "tests/support/builder.h"
#include "tests/support/fitness_harness.h"
#include "tests/support/random_problem.h"

int main(void)
{
    uint64_t rng = 12345;
    uint64_t genomes = 0;
    int mismatches = 0;
    for (int round_no = 0; round_no < 300; round_no++) {
        dataset_t ds;
        lattice_t lat;
        objective_cfg_t obj;
        topk_t rank;
        random_dataset(&ds, &rng, NULL);
        random_lattice(&lat, &ds, &rng);
        random_objective(&obj, &rng);
        harness_check_all(&ds, &lat, &obj, &rank, &mismatches);
        genomes += lat.size;
        topk_free(&rank);
        lattice_free(&lat);
        dataset_free(&ds);
        if (mismatches) {
            fprintf(stderr, "round %d (objective %d, fill %d) disagrees\n", round_no, obj.kind, obj.fill);
            break;
        }
    }
    printf("%llu random genomes checked\n", (unsigned long long)genomes);
    CHECK(genomes > 5000);
    CHECK_EQ_I64(0, mismatches);
    return check_exit();
}
