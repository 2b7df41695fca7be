/* The ranks of the MPI job: joining it, agreeing that every rank is ready,
 * and ending it (dist.h). */
#include "dist/mpi_world.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/platform.h"
#include "dist/dist.h"

static int world_rank = 0, world_size = 1, joined = 0;
/* 1 once every rank knows that the command fails (dist_agree), so
 * that the ranks end together without MPI_Abort */
static int failure_agreed = 0;
static int silent = 0; /* 1: another rank prints the failure (dist_report) */
static int alike = 0;  /* 1: every rank failed alike (no rank to name) */

/* Environment variables that the MPI launchers set in the processes they
 * start (Open MPI's mpirun, MPICH's hydra, PMIx: srun --mpi=pmix). */
static int started_by_launcher(void)
{
    static const char *const vars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK"};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++)
        if (getenv(vars[i]))
            return 1;
    return 0;
}

ev_status dist_init(int *argc, char ***argv, ev_error *err)
{
    MPI_Comm node;
    int provided, local, n_local;
    char dev[16];
    if (joined || !started_by_launcher())
        return EV_OK;
    /* OpenMP threads compute; only the main thread calls MPI */
    if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
        return ev_fail(err, EV_EIO,
                       "MPI_Init failed: this process was started by an MPI launcher but cannot join "
                       "its job");
    joined = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &world_size);
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_rank(node, &local);
    MPI_Comm_size(node, &n_local);
    MPI_Comm_free(&node);
    if (n_local > 1) { /* one GPU per rank of the node, unless chosen already */
        snprintf(dev, sizeof dev, "%d", local);
        plat_setenv_default("CUDA_VISIBLE_DEVICES", dev);
    }
    return EV_OK;
}

int dist_rank(void)
{
    return world_rank;
}

int dist_size(void)
{
    return world_size;
}

int mpi_world_sum(int mine)
{
    int sum = mine;
    if (world_size > 1)
        MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    return sum;
}

ev_status dist_agree(ev_status st, ev_error *err)
{
    int failed = mpi_world_sum(st != EV_OK);
    if (!failed)
        return EV_OK;
    failure_agreed = 1;
    if (failed == world_size) { /* alike (a config error): said once */
        silent = world_rank != 0;
        alike = 1;
        return st;
    }
    if (st != EV_OK)
        return st;
    silent = 1; /* the failing ranks say why */
    return ev_fail(err, EV_EIO, "another rank failed");
}

int dist_first_says(int yes)
{
    return mpi_world_sum(world_rank == 0 && yes) != 0;
}

int dist_report(ev_error *err)
{
    if (silent)
        return 0;
    if (world_size > 1 && !alike)
        ev_error_prefix(err, "rank %d of %d: ", world_rank, world_size);
    return 1;
}

void mpi_world_fail(const ev_error *err)
{
    fprintf(stderr, "evolve: error: rank %d of %d: %s\n", world_rank, world_size, err->msg); /* as dist_report */
    fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 1);
    exit(1); /* MPI_Abort does not return; the callers count on that */
}

void dist_finish(int exit_code)
{
    if (!joined)
        return;
    /* An interrupt is agreed on (the grid's counts, the GA's stop reason);
     * any other failure may leave ranks waiting for this one. */
    if (exit_code != 0 && exit_code != 130 && !failure_agreed && world_size > 1) {
        fflush(stderr);
        MPI_Abort(MPI_COMM_WORLD, exit_code);
    }
    MPI_Finalize();
    joined = 0;
}
