/* The GA over every rank (dist.h): each rank runs the same loop; a
 * generation's new genomes are evaluated in one slice per rank and the
 * results exchanged (MPI_Allgatherv), local search's climbs likewise, so
 * every rank's population, dedup cache and hall of fame stay equal to a
 * one-process run's. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "common/test_hooks.h"
#include "dist/dist.h"
#include "dist/mpi_world.h"
#include "operators/genome.h"

/* What the sliced evaluate runs on (dist_ga_ops): one run per process. */
static const backend_ops_t *inner_ops;
static int32_t inner_genes;
static uint32_t calls; /* of sliced_evaluate, for the test hook */

/* Genomes [lo, hi) of rank r's slice of n. */
static void slice_of(uint64_t n, int r, int size, uint64_t *lo, uint64_t *hi)
{
    *lo = n * (uint64_t)r / (uint64_t)size;
    *hi = n * (uint64_t)(r + 1) / (uint64_t)size;
}

/* backend_ops_t.evaluate over every rank: genes SoA [n_genes][n]. */
static ev_status sliced_evaluate(backend_t *b, const uint16_t *genes, uint64_t n, eval_result_t *out, ev_error *err)
{
    int size = dist_size(), rank = dist_rank(), bytes = (int)sizeof *out;
    int *counts = (int *)malloc((size_t)size * sizeof *counts), *displs = (int *)malloc((size_t)size * sizeof *displs);
    uint64_t lo, hi;
    uint16_t *mine;
    if (n > (uint64_t)INT32_MAX / (uint64_t)bytes)
        return ev_fail(err, EV_EINTERNAL, "a generation of %llu new genomes is too many to share between ranks",
                       (unsigned long long)n);
    slice_of(n, rank, size, &lo, &hi);
    mine = (uint16_t *)malloc(((size_t)(hi - lo) + 1) * (size_t)inner_genes * sizeof *mine);
    if (!counts || !displs || !mine) {
        ev_fail(err, EV_ENOMEM, "out of memory for a slice of %llu genomes", (unsigned long long)n);
        mpi_world_fail(err);
    }
    for (int32_t k = 0; k < inner_genes; k++)
        memcpy(mine + (size_t)k * (hi - lo), genes + (size_t)k * n + lo, (size_t)(hi - lo) * sizeof *mine);
    if (hi > lo && (test_hook_fails("dist_evaluate", calls)
                        ? ev_fail(err, EV_EINTERNAL, "EVOLVE_TEST_FAIL: a planted failure of the fitness of a slice")
                        : inner_ops->evaluate(b, mine, hi - lo, out + lo, err)) != EV_OK)
        mpi_world_fail(err); /* the other ranks wait for this slice */
    calls++;
    for (int r = 0; r < size; r++) {
        uint64_t a, z;
        slice_of(n, r, size, &a, &z);
        counts[r] = (int)(z - a) * bytes;
        displs[r] = (int)a * bytes;
    }
    MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_BYTE, out, counts, displs, MPI_BYTE, MPI_COMM_WORLD);
    free(mine);
    free(counts);
    free(displs);
    return EV_OK;
}

void dist_ga_ops(const backend_ops_t *inner, const fit_problem_t *p, backend_ops_t *out)
{
    *out = *inner;
    if (dist_size() == 1)
        return;
    inner_ops = inner;
    inner_genes = p->shape.n_params;
    out->evaluate = sliced_evaluate;
    /* A device-resident GA evaluates on its device, past evaluate: the
     * population moves to the host (the CPU's GA ops, the same results).
     * ga_open is ga_run's switch: without it, it runs every GA op of the
     * CPU backend and none of this copy's. */
    if (inner->ga_open != backend_cpu_ops.ga_open)
        out->ga_open = NULL;
}

static ga_stop_reason agree_stop(ga_stop_reason mine)
{
    int why = (int)mine;
    MPI_Bcast(&why, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return (ga_stop_reason)why;
}

/* Climb j from rank j % K to every rank. */
static void share_climbs(ga_climb_t *climbs, uint32_t n)
{
    for (uint32_t j = 0; j < n; j++)
        MPI_Bcast(&climbs[j], (int)sizeof climbs[j], MPI_BYTE, (int)(j % (uint32_t)dist_size()), MPI_COMM_WORLD);
}

void dist_ga_opts(ga_run_opts_t *o)
{
    if (dist_size() == 1)
        return;
    o->agree_stop = agree_stop;
    o->climb_part = (uint32_t)dist_rank();
    o->climb_parts = (uint32_t)dist_size();
    o->share_climbs = share_climbs;
}

/* MPI_Bcast of any size (its count is an int). */
static void bcast_bytes(void *buf, uint64_t n)
{
    const uint64_t step = (uint64_t)1 << 30;
    for (uint64_t at = 0; at < n; at += step)
        MPI_Bcast((char *)buf + at, (int)(n - at < step ? n - at : step), MPI_BYTE, 0, MPI_COMM_WORLD);
}

/* The resume state's arrays, in the order they travel: sizes[6] in bytes. */
static void state_sizes(const ga_resume_t *rs, int32_t words, uint64_t sizes[6])
{
    const ga_snapshot_t *a = &rs->at;
    sizes[0] = (uint64_t)a->n_genes * a->population * sizeof *a->genes;
    sizes[1] = 2u * (uint64_t)a->population * sizeof *a->parents;
    sizes[2] = (uint64_t)a->islands * sizeof *a->plans;
    sizes[3] = (uint64_t)a->hof_n * sizeof *a->hof;
    sizes[4] = rs->cache_count * (uint64_t)words * sizeof *rs->cache_index;
    sizes[5] = rs->cache_count * sizeof *rs->cache_results;
}

ev_status dist_ga_share(uint64_t *seed, const ga_resume_t **rs, const fit_problem_t *p, dist_ga_state_t *keep,
                        ev_error *err)
{
    struct {
        uint64_t seed;
        int32_t have, pad_;
        ga_resume_t rs;
    } head;
    uint64_t sizes[6], total = 0;
    char *at;
    int root = dist_rank() == 0;
    memset(keep, 0, sizeof *keep);
    if (dist_size() == 1)
        return EV_OK;
    memset(&head, 0, sizeof head);
    head.seed = *seed;
    head.have = root && *rs;
    if (head.have)
        head.rs = **rs;
    MPI_Bcast(&head, (int)sizeof head, MPI_BYTE, 0, MPI_COMM_WORLD);
    *seed = head.seed;
    if (!head.have)
        return EV_OK;
    keep->rs = head.rs;
    state_sizes(&keep->rs, genome_index_words(p->shape.n_values, p->shape.n_params), sizes);
    for (int i = 0; i < 6; i++)
        total += sizes[i];
    if (!(keep->storage = malloc(total ? total : 1))) {
        ev_fail(err, EV_ENOMEM, "out of memory for the resumed GA state (%llu bytes)", (unsigned long long)total);
        mpi_world_fail(err);
    }
    if (root) { /* packed, then sent in one piece */
        const void *src[6];
        src[0] = head.rs.at.genes;
        src[1] = head.rs.at.parents;
        src[2] = head.rs.at.plans;
        src[3] = head.rs.at.hof;
        src[4] = head.rs.cache_index;
        src[5] = head.rs.cache_results;
        at = (char *)keep->storage;
        for (int i = 0; i < 6; i++, at += sizes[i - 1])
            if (sizes[i])
                memcpy(at, src[i], sizes[i]);
    }
    bcast_bytes(keep->storage, total);
    at = (char *)keep->storage;
    keep->rs.at.genes = (const uint16_t *)(const void *)at;
    keep->rs.at.parents = (const int32_t *)(const void *)(at += sizes[0]);
    keep->rs.at.plans = (const breed_island_t *)(const void *)(at += sizes[1]);
    keep->rs.at.hof = (const ranked_genome_t *)(const void *)(at += sizes[2]);
    keep->rs.cache_index = (const uint64_t *)(const void *)(at += sizes[3]);
    keep->rs.cache_results = (const eval_result_t *)(const void *)(at + sizes[4]);
    *rs = &keep->rs;
    return EV_OK;
}

void dist_ga_share_free(dist_ga_state_t *keep)
{
    free(keep->storage);
    keep->storage = NULL;
}
