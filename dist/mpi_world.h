/* The MPI job as dist/'s files share it (mpi_world.c). MPI calls keep the
 * default error handler (MPI_ERRORS_ARE_FATAL): an MPI failure ends the
 * whole job with MPI's message, so no call here returns one. */
#ifndef EVOLVE_MPI_WORLD_H
#define EVOLVE_MPI_WORLD_H

#include "common/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A failure on this rank in the middle of the job, where the other ranks
 * wait for it in a collective call: prints err with the rank and ends every
 * rank (MPI_Abort). Does not return. */
void mpi_world_fail(const ev_error *err);

/* Ints of every rank summed on every rank (MPI_Allreduce). */
int mpi_world_sum(int mine);

#ifdef __cplusplus
}
#endif
#endif
