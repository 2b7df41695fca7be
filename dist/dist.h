/* Several processes on one run: `mpirun -n K evolve CONFIG [--grid]`
 * (docs/scaling.md). The ranks of one MPI job each open the same session;
 * rank 0 alone writes files and prints, the others only compute.
 *
 *   grid: the lattice's linear index range is cut into shards that ranks take
 *         from a shared counter as they finish (fast ranks take more); each
 *         keeps its exact top-K, rank 0 merges them. The top-K is a total
 *         order, so the result equals the one-process grid bit for bit.
 *   GA:   every rank runs the same generation loop (the run is a pure
 *         function of config, seed and island count) and each generation's new
 *         genomes are evaluated in K slices, one per rank, then exchanged, so
 *         every rank holds every result, the same dedup cache and the same
 *         population. Only rank 0 writes the run file and its checkpoints; a
 *         resume is read there and handed to the others, so K may change.
 *
 * Built without MPI (EVOLVE_MPI=OFF, or none found), dist_single.c stands in:
 * one rank, and dist_grid_run is grid_run. With MPI, a process that no MPI
 * launcher started runs as one rank without initialising MPI. */
#ifndef EVOLVE_DIST_H
#define EVOLVE_DIST_H

#include <stdint.h>

#include "common/status.h"
#include "ga/backend.h"
#include "ga/ga_run.h"
#include "ga/grid.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Joins the MPI job when an MPI launcher started this process (mpirun,
 * srun); otherwise does nothing and the process is the only rank. Before
 * any device is touched: a rank that shares its node with others is given
 * its own GPU (CUDA_VISIBLE_DEVICES = its local rank) unless the launcher
 * or the user chose one. */
ev_status dist_init(int *argc, char ***argv, ev_error *err);
int dist_rank(void);
int dist_size(void);

/* Every rank calls this where a failure may have struck some ranks and not
 * others (st: how it went here), before the next step that needs them all:
 * EV_OK when every rank is fine; else this rank's status, or, on a rank that
 * is fine, EV_EIO "another rank failed". Every rank then ends. */
ev_status dist_agree(ev_status st, ev_error *err);

/* Rank 0's yes (nonzero) or no, on every rank (a step every rank takes or
 * none, decided by what only rank 0 holds). */
int dist_first_says(int yes);

/* Whether this rank prints its error: a failure every rank met alike (a
 * config error) is printed by rank 0 alone, as by one process; a failure of
 * some ranks by each of them, "rank R of K: " prefixed to err. */
int dist_report(ev_error *err);

/* The end of the process's part in the job, with the command's exit code:
 * a rank that fails ends the whole job at once (MPI_Abort), so that no rank
 * waits forever for it; otherwise MPI_Finalize. */
void dist_finish(int exit_code);

/* grid_run over every rank (each calls it with the same arguments): on rank
 * 0, top, stats and opts->heat hold the whole lattice's; on the others only
 * their shards'. The evaluator: tables (auto), or reference when asked;
 * dominance sums cover the whole lattice in one pass, so they run only on
 * one process. */
ev_status dist_grid_run(const backend_ops_t *ops, backend_t *b, const fit_problem_t *p, const grid_opts_t *opts,
                        topk_t *top, grid_stats_t *stats, ev_error *err);

/* The GA ops for a run over every rank: the population on the host (the CPU
 * backend's GA ops) and new genomes evaluated by inner's `evaluate`, each
 * rank a slice, results exchanged. *out copies inner otherwise; inner must
 * outlive the run. One rank: *out = *inner. */
void dist_ga_ops(const backend_ops_t *inner, const fit_problem_t *p, backend_ops_t *out);

/* The ga_run_opts_t hooks of a run over every rank (none on one rank):
 * rank 0's stop reason (its clock, its Ctrl-C, its caller) is every rank's,
 * and local search's climbs are shared out, climb j on rank j % K. */
void dist_ga_opts(ga_run_opts_t *o);

/* Rank 0 gives, the others receive: the run's seed (a "seed: random" config
 * draws one per process) and the state a resumed run starts from (NULL: from
 * generation 0). On the other ranks *rs points into storage that
 * dist_ga_share_free releases. */
typedef struct {
    ga_resume_t rs;
    void *storage;
} dist_ga_state_t;
ev_status dist_ga_share(uint64_t *seed, const ga_resume_t **rs, const fit_problem_t *p, dist_ga_state_t *keep,
                        ev_error *err);
void dist_ga_share_free(dist_ga_state_t *keep);

#ifdef __cplusplus
}
#endif
#endif
