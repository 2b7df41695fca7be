/* The parity probe (README, "The GPU probe"): a backend under test (the
 * CUDA backend) checked against a reference backend (the CPU's) on a small
 * probe set, bit for bit, before a run trusts it. Backend-generic: it only
 * calls the ops of ga/backend.h, so any pair of backends can be compared
 * (tests/test_backend_probe.c compares the CPU backend with a corrupted twin,
 * ga/backend_twin.h).
 *
 * The probe set:
 *  - evaluate: the "no filter" genome (with the first and last target and
 *    stop), the lattice's corners (all of them up to 8 parameters, else 256
 *    random ones), genomes that keep 0 and 1 trades where the lattice has
 *    them (built from the trades' filter cells), and 2,048 random lattice
 *    points (fewer beyond 50,000 trades, at least 512): fitness, trades kept
 *    and feasibility compared bit for bit;
 *  - top-K selections: grid_batch over the lattice's first and last 512
 *    points and a random range, into lists of 1, 16 and 128 (lattices that
 *    can be enumerated);
 *  - the GA (backends with GA ops): generation 0 evaluated and ranked, one
 *    breed step (children and parents), generation 1 evaluated (cache hits),
 *    the dedup caches compared as sets, and one round trip: the reference's
 *    cache imported into a fresh state of the backend under test, which must
 *    then find every genome of generation 1 in it.
 * On a small GPU all of it takes milliseconds. */
#ifndef EVOLVE_BACKEND_PROBE_H
#define EVOLVE_BACKEND_PROBE_H

#include <stdint.h>

#include "common/status.h"
#include "fitness/problem.h"
#include "fitness/tables.h"
#include "ga/backend.h"
#include "operators/ga_settings.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    uint32_t random_points; /* random lattice points to evaluate (0: 2,048, fewer on large datasets) */
    uint64_t seed;          /* of the random points and the probe's GA */
    uint32_t topk_range;    /* lattice points per top-K selection (0: 512) */
} backend_probe_opts_t;

typedef struct {
    int match;           /* 1: every comparison was equal */
    uint64_t genomes;    /* genomes evaluated by each backend (the GA's included) */
    uint32_t topk_lists; /* top-K selections compared */
    int ga_checked;      /* 1: breed, rank and the dedup round trip were compared */
    int kept0, kept1;    /* 1: the set held a genome keeping 0 (1) trades */
    double seconds;      /* the probe's wall time, both backends */
    char what[1024];     /* match == 0: the first difference (the step, the genome with its parameter values,
                             both backends' values) or the tested backend's error */
    char summary[256];   /* what was compared, for the run's output line */
} backend_probe_t;

/* Runs the probe of `test` (opened on p, whose tables t are the reference's
 * too; t NULL for backends that evaluate no trade log, the strategies':
 * then no genome is built from the trades' cells) against `ref`; s: the run's GA settings (operators and islands; the
 * probe's population is at most 4 islands of 128). EV_OK with out->match
 * telling the verdict; an error of the backend under test is a mismatch
 * (out->what), an error of the reference or of host memory is returned. */
ev_status backend_probe_run(const backend_ops_t *ref_ops, backend_t *ref, const backend_ops_t *test_ops,
                            backend_t *test, const fit_problem_t *p, const fit_tables_t *t, const ga_settings_t *s,
                            const backend_probe_opts_t *o, backend_probe_t *out, ev_error *err);

#ifdef __cplusplus
}
#endif
#endif
