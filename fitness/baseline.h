/* Baselines (issue 28): what a run's winners are compared with, each one
 * point of the config's parameters, evaluated with the same exact sums on the
 * same parts as the winners:
 *
 * - log: the trade log as it is: no filter, no exit (every trade kept, its
 *   logged Trade Percent Change less costs);
 * - loosest: the lattice's loosest point: every filter at the value that keeps
 *   the most trades (the first value of a min filter, the last of a max
 *   filter: gene 0 after the tables' mirroring), target and stop at their
 *   first value (gene 0), and trail, breakeven and max_hold at their last:
 *   off where the lattice has it (SPEC sec. 4.1), else the widest; reported
 *   only when its result differs from log's;
 * - baseline: the trader's current settings, the config's `baseline:` (the
 *   parameters it names, at any value; those it leaves out do not apply).
 *
 * A baseline is evaluated as a lattice of one point (baseline_lattice): one
 * value per parameter it sets, none for the others, so the filters compare
 * in double (SPEC sec. 3) and the exits race as SPEC sec. 4 says through the
 * ordinary first-hit tables. */
#ifndef EVOLVE_BASELINE_H
#define EVOLVE_BASELINE_H

#include <stdint.h>

#include "common/status.h"
#include "fitness/lattice.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { BASELINE_LOG = 0, BASELINE_LOOSEST, BASELINE_TRADER, BASELINE_KINDS };

/* One point of a lattice's parameters: per parameter, whether it applies and
 * its value. The config's `baseline:` is one (present 0: none given). */
typedef struct {
    int32_t present;
    uint8_t set[EV_MAX_PARAMS];
    double value[EV_MAX_PARAMS];
} baseline_point_t;

/* "log", "loosest", "baseline". */
const char *baseline_name(int32_t kind);
/* The kind of a name baseline_name gives; -1 for any other (a run file's). */
int32_t baseline_kind_of(const char *name);
/* Of n baselines of kinds kind[], the one rank 1 is set against first (the
 * verdict's headline): the trade log, else the trader's own, else the first;
 * -1 when n is 0. */
int32_t baseline_versus(const int32_t *kind, uint32_t n);

/* The point of kind (BASELINE_LOG or BASELINE_LOOSEST) on lat. */
void baseline_point(const lattice_t *lat, int32_t kind, baseline_point_t *b);

/* The lattice of one point: lat's parameters that b sets, in lat's order,
 * each with b's value as its only value (lattice_free it). Filters keep their
 * feature (bind it with lattice_bind). A point that sets nothing gives a
 * lattice without parameters: every trade kept, exited as logged. */
ev_status baseline_lattice(lattice_t *out, const lattice_t *lat, const baseline_point_t *b, ev_error *err);

#ifdef __cplusplus
}
#endif
#endif
