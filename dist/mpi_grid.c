/* The sharded grid (dist.h): shards of the linear index range handed out by
 * a counter on rank 0 that every rank advances atomically (MPI one-sided
 * MPI_Fetch_and_op, so rank 0 computes too and no rank waits for a
 * coordinator), then every rank's top-K, heatmap and count merged on rank 0. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "common/platform.h"
#include "common/progress.h"
#include "dist/dist.h"
#include "dist/mpi_world.h"

/* Shards per rank the range is cut into, so that a rank that finishes early
 * takes more and the last shard to finish is short: at most 1/16 of a rank's
 * share. A shard is evaluated in backend batches of at most grid_batch_points
 * (so a GPU rank's batches are never larger than its shard). */
#define SHARDS_PER_RANK 16

typedef struct {
    const backend_ops_t *ops;
    backend_t *b;
    const fit_problem_t *p;
    evaluator_kind ev;
    uint64_t batch, shard;
    topk_t *top;
    grid_heat_t *heat;
} shard_job_t;

/* Evaluates shards until the counter passes the lattice's end or Ctrl-C:
 * *done points, *shards shards; 1 when interrupted. */
static int take_shards(const shard_job_t *j, MPI_Win counter, FILE *progress, uint64_t *done, uint64_t *shards)
{
    uint64_t size = j->p->lat->size, one = 1, next;
    progress_t prog;
    ev_error err;
    int interrupted = 0;
    progress_start(&prog, progress, "grid (tables, sharded)", "points", size);
    for (;;) {
        MPI_Fetch_and_op(&one, &next, MPI_UINT64_T, 0, 0, MPI_SUM, counter);
        MPI_Win_flush(0, counter);
        if (next >= (size + j->shard - 1) / j->shard)
            break;
        for (uint64_t first = next * j->shard, end = first + j->shard < size ? first + j->shard : size; first < end;
             first += j->batch) {
            uint64_t count = end - first < j->batch ? end - first : j->batch;
            if (grid_eval_batch(j->ops, j->b, j->p, j->ev, first, count, j->top, j->heat, &err) != EV_OK)
                mpi_world_fail(&err);
            *done += count;
        }
        ++*shards;
        progress_update(&prog, next * j->shard); /* how far the handing out got */
        if ((interrupted = plat_interrupted()) != 0)
            break;
    }
    progress_finish(&prog, size);
    return interrupted;
}

/* Rank 0 says how the shards fell: "grid: points per rank: a b c ...". */
static void share_line(FILE *log, uint64_t done, uint64_t shards, uint64_t shard)
{
    uint64_t mine[2] = {done, shards}, *all = NULL;
    int size = dist_size();
    if (dist_rank() == 0 && !(all = (uint64_t *)calloc(2u * (size_t)size, sizeof *all))) {
        ev_error err;
        ev_fail(&err, EV_ENOMEM, "out of memory for the ranks' counts");
        mpi_world_fail(&err);
    }
    MPI_Gather(mine, 2, MPI_UINT64_T, dist_rank() == 0 ? all : NULL, 2, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    if (log && all) {
        fprintf(log, "grid: %d ranks, shards of %llu points; points (shards) per rank:", size,
                (unsigned long long)shard);
        for (int r = 0; r < size; r++)
            fprintf(log, " %llu (%llu)", (unsigned long long)all[2 * r], (unsigned long long)all[2 * r + 1]);
        fprintf(log, "\n");
    }
    free(all);
}

/* Every rank's top-K offered to rank 0's. */
static void merge_top(topk_t *top)
{
    int rank = dist_rank(), size = dist_size(), n = (int)top->n, bytes = (int)sizeof *top->e;
    int *counts = NULL, *displs = NULL, total = 0;
    ranked_genome_t *all = NULL;
    if (rank == 0) {
        counts = (int *)calloc((size_t)size, sizeof *counts);
        displs = (int *)calloc((size_t)size, sizeof *displs);
    }
    MPI_Gather(&n, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        for (int r = 0; r < size; r++) {
            displs[r] = total * bytes;
            total += counts[r];
            counts[r] *= bytes;
        }
        all = (ranked_genome_t *)malloc((size_t)(total ? total : 1) * sizeof *all);
        if (!counts || !displs || !all) {
            ev_error err;
            ev_fail(&err, EV_ENOMEM, "out of memory for the ranks' top-K lists");
            mpi_world_fail(&err);
        }
    }
    MPI_Gatherv(top->e, n * bytes, MPI_BYTE, all, counts, displs, MPI_BYTE, 0, MPI_COMM_WORLD);
    if (rank == 0)
        for (int i = counts[0] / bytes; i < total; i++) /* rank 0's own are in top already */
            topk_insert(top, &all[i]);
    free(all);
    free(counts);
    free(displs);
}

ev_status dist_grid_run(const backend_ops_t *ops, backend_t *b, const fit_problem_t *p, const grid_opts_t *opts,
                        topk_t *top, grid_stats_t *stats, ev_error *err)
{
    shard_job_t j;
    MPI_Win counter;
    uint64_t *count_at = NULL, shards = 0, done = 0, total;
    double t0 = plat_now();
    int interrupted, size = dist_size();
    ev_status st = EV_OK;
    if (size == 1)
        return grid_run(ops, b, p, opts, top, stats, err);
    memset(stats, 0, sizeof *stats);
    memset(&j, 0, sizeof j);
    if (opts->evaluator == EVAL_DOMINANCE)
        st = ev_fail(err, EV_EUSAGE,
                     "--evaluator dominance sums the whole lattice in one pass of one process; under mpirun the "
                     "grid is sharded: use tables (or auto)");
    if (st == EV_OK && opts->hook && opts->hook->start)
        st = ev_fail(err, EV_EUSAGE,
                     "a grid is resumed on one process: the sharded grid under mpirun keeps no checkpoint (run "
                     "the --resume command without mpirun, or start the grid over)");
    if (st == EV_OK)
        st = grid_pick_evaluator(ops, p, opts->evaluator == EVAL_AUTO ? EVAL_TABLES : opts->evaluator,
                                 opts->dominance_budget, &j.ev, err);
    if ((st = dist_agree(st, err)) != EV_OK)
        return st;
    if (opts->progress && opts->evaluator == EVAL_AUTO && dominance_applicable(p) && ops->grid_dominance)
        fprintf(opts->progress,
                "grid: note: the shards run the tables evaluator; for this objective one process "
                "with the dominance sums (evolve CONFIG --grid, no mpirun) may well be faster\n");
    j.ops = ops;
    j.b = b;
    j.p = p;
    j.top = top;
    j.heat = grid_heat_for(ops, opts, j.ev);
    /* The ranks' backends may differ (a GPU rank beside CPU ranks, docs/scaling.md):
     * the heatmap is folded into the shards only where every rank can, else none
     * does and rank 0 computes it after (runs/grid_record.c); its reduction below
     * is a collective of every rank. */
    if (mpi_world_sum(opts->heat != NULL && j.heat == NULL))
        j.heat = NULL;
    /* each rank's own backend batches within a shard; the shards the same for all */
    j.batch = grid_batch_points(ops, b, opts, j.ev);
    j.shard = (p->lat->size + (uint64_t)size * SHARDS_PER_RANK - 1) / ((uint64_t)size * SHARDS_PER_RANK);
    MPI_Win_allocate(dist_rank() == 0 ? (MPI_Aint)sizeof(uint64_t) : 0, sizeof(uint64_t), MPI_INFO_NULL, MPI_COMM_WORLD,
                     &count_at, &counter);
    if (dist_rank() == 0)
        *count_at = 0;
    MPI_Barrier(MPI_COMM_WORLD); /* the counter is 0 before anyone takes */
    MPI_Win_lock_all(0, counter);
    interrupted = take_shards(&j, counter, opts->progress, &done, &shards);
    MPI_Win_unlock_all(counter);
    MPI_Win_free(&counter);
    share_line(opts->progress, done, shards, j.shard);
    if (mpi_world_sum(interrupted))
        return ev_fail(err, EV_EINTR, "interrupted (sharded grid over %d ranks)", size);
    merge_top(top);
    if (j.heat)
        MPI_Reduce(dist_rank() == 0 ? MPI_IN_PLACE : j.heat->key, j.heat->key, (int)((uint64_t)j.heat->nx * j.heat->ny),
                   MPI_UINT64_T, MPI_MAX, 0, MPI_COMM_WORLD);
    MPI_Reduce(&done, &total, 1, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
    stats->evaluator = j.ev;
    stats->heat_filled = j.heat != NULL;
    stats->evaluated = dist_rank() == 0 ? total : done;
    stats->seconds = plat_now() - t0;
    return EV_OK;
}
