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
#include "tests/support/fitness_harness.h"
#include "tests/support/random_problem.h"

/* What the rounds drew: each objective, fill and cost, the constraints, a
 * max filter, a lattice without its target or stop, each exit role. */
typedef struct {
    int objective[OBJ_COUNT], fill[2], cost[3], drawdown, min_trades, max_filter, no_target, no_stop;
    int trail, breakeven, hold;
} draws_t;

static void count_draws(draws_t *d, const lattice_t *lat, const objective_cfg_t *obj)
{
    d->objective[obj->kind]++;
    d->fill[obj->fill]++;
    d->cost[obj->cost_pct == 0.0 ? 0 : obj->cost_pct < 0.02 ? 1 : 2]++;
    d->drawdown += obj->has_max_drawdown;
    d->min_trades += obj->min_trades > 0;
    for (int32_t k = 0; k < lat->n_params; k++)
        if (lat->params[k].role == PARAM_FILTER && lat->params[k].dir == FILTER_MAX) {
            d->max_filter++;
            break;
        }
    d->no_target += lat->target_param < 0;
    d->no_stop += lat->stop_param < 0;
    d->trail += lat->trail_param >= 0;
    d->breakeven += lat->breakeven_param >= 0;
    d->hold += lat->hold_param >= 0;
}

/* Every kind drawn at least once (the exit roles on the rounds with more
 * exits only); the counts printed. */
static void check_draws(const draws_t *d, int more)
{
    int every = d->drawdown && d->min_trades && d->max_filter && d->no_target && d->no_stop;
    for (int k = 0; k < OBJ_COUNT; k++)
        every = every && d->objective[k];
    every = every && d->fill[0] && d->fill[1] && d->cost[0] && d->cost[1] && d->cost[2];
    if (more)
        every = every && d->trail && d->breakeven && d->hold;
    printf(
        "%s: objectives %d %d %d %d %d %d, fills %d %d, costs %d %d %d, max_drawdown %d, min_trades %d, "
        "a max filter %d, no target %d, no stop %d, trail %d, breakeven %d, max_hold %d\n",
        more ? "rounds with more exits" : "rounds", d->objective[0], d->objective[1], d->objective[2], d->objective[3],
        d->objective[4], d->objective[5], d->fill[0], d->fill[1], d->cost[0], d->cost[1], d->cost[2], d->drawdown,
        d->min_trades, d->max_filter, d->no_target, d->no_stop, d->trail, d->breakeven, d->hold);
    CHECK(every);
}

/* rounds: target and stop only (random_lattice), then with SPEC sec. 4.1's
 * exits (random_lattice_more: trail, breakeven, max_hold, each half the time). */
static int rounds(uint64_t rng, int n, int more, uint64_t *genomes)
{
    int mismatches = 0;
    draws_t drawn;
    memset(&drawn, 0, sizeof drawn);
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
        count_draws(&drawn, &lat, &obj);
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
    check_draws(&drawn, more);
    return mismatches;
}

int main(int argc, char **argv)
{
    uint64_t genomes = 0, more = 0;
    char *end = NULL;
    long n = argc > 1 ? strtol(argv[1], &end, 10) : 300;
    if (argc > 2 || (end && (*end || end == argv[1])) || n < 1 || n > 300) {
        fprintf(stderr, "usage: test_fitness_random [ROUNDS]: ROUNDS is a count of 1..300 (got \"%s\")\n",
                argc > 1 ? argv[1] : "");
        return 2;
    }
    CHECK_EQ_I64(0, rounds(12345, (int)n, 0, &genomes));
    CHECK_EQ_I64(0, rounds(777, (int)n, 1, &more));
    printf("%llu random genomes checked, %llu of them on lattices with trail, breakeven or max_hold\n",
           (unsigned long long)(genomes + more), (unsigned long long)more);
    /* the lattices are not all tiny: ~17 genomes a round at least (300 rounds: > 5,000) */
    CHECK(genomes > 50 * (uint64_t)n / 3);
    CHECK(more > 50 * (uint64_t)n / 3);
    return check_exit();
}
