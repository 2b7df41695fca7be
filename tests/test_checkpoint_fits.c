/* ga_snapshot_fits on checkpoints: a checkpoint read back from its file is
 * resumed from only when every stored size, gene, parent, island plan and
 * counter fits the run;
 * a damaged or edited one (indices past the population or the lattice) is
 * refused with the reason, so the resume starts over instead of indexing
 * past an array (runs/resume.c). */
#include <stdio.h>
#include <string.h>

#include "archive/checkpoint.h"
#include "common/platform.h"
#include "tests/check.h"

#define DIR "tmp_checkpoint_fits"

static const uint32_t n_values[2] = {3, 2};

/* Writes c, reads it back and checks it against a run of 4 individuals in 2
 * islands, 2 genes, top 3: fits (want NULL) or not, saying `want`. */
static void round_trip(const checkpoint_t *c, const char *want)
{
    ga_snapshot_t run; /* the run's shape */
    checkpoint_t back;
    ev_error err;
    char why[512] = "";
    memset(&run, 0, sizeof run);
    run.population = 4;
    run.islands = 2;
    run.n_genes = 2;
    run.hof_k = 3;
    if (checkpoint_write(DIR "/run.h5.partial.ckpt", c, &err) != EV_OK ||
        checkpoint_read(DIR "/run.h5.partial.ckpt", &back, &err) != EV_OK) {
        fprintf(stderr, "checkpoint round trip: %s\n", err.msg);
        check_failures++;
        return;
    }
    CHECK_EQ_I64(want == NULL, ga_snapshot_fits(&back.ga, &run, n_values, why, sizeof why));
    if (want)
        CHECK_CONTAINS(why, want);
    checkpoint_free(&back);
}

int main(void)
{
    /* SoA genes [2][4], parents [2][4], plans of islands of 2 */
    uint16_t genes[8] = {0, 1, 2, 0, 1, 0, 1, 1};
    int32_t parents[8] = {0, 1, 2, 3, -1, -1, 0, 2};
    breed_island_t plans[2] = {{1, 0, 0, 1}, {1, 0, 0, 0}};
    checkpoint_t c;
    ev_error err;
    if (plat_mkdirs(DIR, &err) != EV_OK)
        return 1;
    memset(&c, 0, sizeof c);
    c.id.config_text = "ga: {}";
    c.id.tool_version = "evolve test";
    c.id.backend = "cpu";
    c.ga.generation = 1;
    c.ga.population = 4;
    c.ga.n_genes = 2;
    c.ga.islands = 2;
    c.ga.evaluations = 3;
    c.ga.lookups = 4;
    c.ga.genes = genes;
    c.ga.parents = parents;
    c.ga.plans = plans;
    c.ga.hof_k = 3;
    c.gen_hash = (const uint64_t[]){7};
    round_trip(&c, NULL);

    genes[2] = 3; /* individual 2's first gene: the lattice has 3 values */
    round_trip(&c, "gene 0 of individual 2 is 3, beyond the lattice's 3 values");
    genes[2] = 2;
    parents[5] = 4;
    round_trip(&c, "parent 4 of individual 1 is not an individual of a population of 4");
    parents[5] = -2;
    round_trip(&c, "parent -2 of individual 1");
    parents[5] = -1;
    plans[1].source = 2;
    round_trip(&c, "island 1's plan");
    plans[1].source = 0;
    plans[0].elites = 3;
    round_trip(&c, "island 0's plan");
    plans[0].elites = 1;
    c.ga.last_improvement = 1;
    round_trip(&c, "counters that contradict generation 1");
    c.ga.last_improvement = 0;
    c.ga.hof_k = 5;
    round_trip(&c, "hof_k 5; the run has 3");
    c.ga.hof_k = 3;
    round_trip(&c, NULL);
    return check_exit();
}
