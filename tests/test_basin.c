/* Basins (fitness/basin.h) by brute force: on small random lattices every
 * point is ranked (a grid top list as long as the lattice gives each point's
 * rank_key; infeasible points 0), each point's steepest improving 1-gene
 * move is found by scanning the key array, and the moves are followed to
 * their fixed point; basin_climb (sweeps on the tables) must reach the same
 * peak with the same number of moves from every point, and basin_group must
 * find the basins of the best genomes and each one's first. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fitness/basin.h"
#include "fitness/problem.h"
#include "fitness/tables.h"
#include "ga/grid.h"
#include "tests/check.h"
#include "tests/support/random_problem.h"

#define MAX_POINTS 20000

typedef struct {
    uint64_t points, peaks, long_climbs, lattices_multi, lists_multi, mismatches;
} tally_t;

#define LIST 40

/* basin_group on the lattice's best LIST genomes against the brute-force
 * peaks: each basin's first genome, in list order. */
static void check_group(const fit_problem_t *p, const tables_host_t *t, const topk_t *all, const uint64_t *next,
                        tally_t *c)
{
    ranked_genome_t *e = topk_ranked_new(all, &p->shape);
    uint64_t peak[LIST];
    uint32_t n = all->n < LIST ? all->n : LIST, want[LIST], got[LIST], n_want = 0, n_got = 0;
    ev_error err;
    CHECK(e != NULL);
    if (!e)
        return;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t j;
        for (peak[i] = e[i].index; next[peak[i]] != peak[i];)
            peak[i] = next[peak[i]];
        for (j = 0; j < i && peak[j] != peak[i]; j++)
            ;
        if (j == i)
            want[n_want++] = i;
    }
    CHECK_EQ_I64(EV_OK, basin_group(&t->view, &p->shape, e, n, got, &n_got, &err));
    if (n_got != n_want || memcmp(got, want, n_want * sizeof *want) != 0)
        c->mismatches++;
    c->lists_multi += n_want > 1;
    free(e);
}

/* The point i's steepest improving move on key[], or i itself. */
static uint64_t brute_move(const lattice_shape_t *sh, const uint64_t *key, uint64_t i)
{
    uint16_t g[EV_MAX_PARAMS];
    uint64_t best = i;
    shape_decode(sh, i, g);
    for (int32_t k = 0; k < sh->n_params; k++) {
        uint16_t own = g[k];
        for (uint32_t v = 0; v < sh->n_values[k]; v++) {
            uint64_t j;
            g[k] = (uint16_t)v;
            j = shape_encode(sh, g);
            if (key[j] && (key[j] > key[best] || (key[j] == key[best] && j < best)))
                best = j;
        }
        g[k] = own;
    }
    return best;
}

static void check_problem(const dataset_t *ds, const lattice_t *lat, const objective_cfg_t *obj, tally_t *c)
{
    fit_problem_t p;
    tables_host_t t;
    backend_t *cpu = NULL;
    topk_t all;
    grid_opts_t go;
    grid_stats_t gs;
    ev_error err;
    uint64_t *key, *next, n = lat->size, peaks = 0;
    memset(&t, 0, sizeof t);
    memset(&go, 0, sizeof go);
    if (!lat->size_fits || n > MAX_POINTS)
        return;
    if (problem_init(&p, ds, lat, obj, &err) != EV_OK || tables_build(&t, &p, &err) != EV_OK ||
        backend_cpu_ops.open(&cpu, &p, &t, &err) != EV_OK) {
        fprintf(stderr, "problem: %s\n", err.msg);
        c->mismatches++;
        return;
    }
    key = (uint64_t *)calloc(n, sizeof *key);
    next = (uint64_t *)calloc(n, sizeof *next);
    CHECK(key && next);
    CHECK_EQ_I64(EV_OK, topk_init(&all, (uint32_t)n, &err));
    CHECK_EQ_I64(EV_OK, grid_run(&backend_cpu_ops, cpu, &p, &go, &all, &gs, &err));
    for (uint32_t i = 0; key && i < all.n; i++)
        key[all.e[i].index] = all.e[i].key;
    for (uint64_t i = 0; next && i < n; i++)
        next[i] = brute_move(&p.shape, key, i);
    for (uint64_t i = 0; key && next && i < n; i++) {
        uint16_t g[EV_MAX_PARAMS], peak[EV_MAX_PARAMS];
        uint64_t at = i, idx;
        uint32_t want_steps = 0, steps;
        eval_result_t r;
        for (; next[at] != at; at = next[at])
            want_steps++;
        peaks += at == i && key[i]; /* a feasible peak */
        shape_decode(&p.shape, i, g);
        CHECK_EQ_I64(EV_OK, basin_climb(&t.view, &p.shape, g, peak, &idx, &r, &steps, &err));
        if (idx != at || steps != want_steps || idx != shape_encode(&p.shape, peak) || rank_key(r) != key[at]) {
            if (c->mismatches++ < 5)
                fprintf(stderr, "point %llu: peak %llu after %u moves, brute force %llu after %u\n",
                        (unsigned long long)i, (unsigned long long)idx, steps, (unsigned long long)at, want_steps);
        }
        c->long_climbs += want_steps > 1;
    }
    if (key && next)
        check_group(&p, &t, &all, next, c);
    c->points += n;
    c->peaks += peaks;
    c->lattices_multi += peaks > 1;
    free(key);
    free(next);
    topk_free(&all);
    backend_cpu_ops.close(cpu);
    tables_free(&t);
    problem_free(&p);
}

int main(void)
{
    uint64_t rng = 2526;
    tally_t c;
    memset(&c, 0, sizeof c);
    for (int round_no = 0; round_no < 80 && !c.mismatches; round_no++) {
        random_problem_t rp;
        random_problem(&rp, &rng, round_no % 2);
        check_problem(&rp.ds, &rp.lat, &rp.obj, &c);
        random_problem_free(&rp);
    }
    printf(
        "%llu points climbed, %llu feasible peaks (basins), %llu climbs of 2+ moves, %llu lattices with 2+ basins, "
        "%llu top lists spanning 2+ basins\n",
        (unsigned long long)c.points, (unsigned long long)c.peaks, (unsigned long long)c.long_climbs,
        (unsigned long long)c.lattices_multi, (unsigned long long)c.lists_multi);
    CHECK_EQ_I64(0, (int64_t)c.mismatches);
    /* not vacuous: climbs of several moves, and lattices with several basins */
    CHECK(c.points > 10000);
    CHECK(c.long_climbs > 100);
    CHECK(c.lattices_multi > 5);
    CHECK(c.lists_multi > 5);
    return check_exit();
}
