/* Test-only fault injection for the crash tests of the run file, driven by
 * environment variables that no user sets:
 *
 *   EVOLVE_TEST_KILL=POINT:GEN  the process kills itself (as kill -9 would)
 *                               when it reaches POINT for generation GEN
 *   EVOLVE_TEST_FAIL=POINT:N    the N-th pass (from 0) through POINT fails
 *                               with an error, as a device error would
 *                               (point: dist_evaluate, dist/mpi_ga.c)
 *   EVOLVE_TEST_DELAY_MS=N      sleep N ms after archiving each generation,
 *                               so that a kill from outside lands at a
 *                               random generation of a short run
 *   EVOLVE_TEST_STRATEGY_SLICE=N  the GPU advances strategy backtests at most
 *                               N rows per launch (strategy_cuda_launch_plan),
 *                               so the gpu tests' short bar sets take many
 *                               slices
 *   EVOLVE_TEST_STRATEGY_GROUP=N  ... and runs at most N genomes a group, so
 *                               a job takes several groups (the run states
 *                               indexed from each group's first genome)
 *
 * Points (runs/ga_record.c, archive/run_write.c, archive/checkpoint.c):
 *   append      half of a generation's columns written
 *   written     the generation's rows all written (flushed only before a
 *               checkpoint), its checkpoint not yet
 *   checkpoint  the checkpoint's temporary file complete, not yet renamed
 *   finalize    the finished run file closed, not yet renamed into place
 *   committed   the finished run file renamed into place, its checkpoint not
 *               yet removed
 *
 * Unset, these calls cost one cached getenv and do nothing. */
#ifndef EVOLVE_TEST_HOOKS_H
#define EVOLVE_TEST_HOOKS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

void test_hook_point(const char *point, uint32_t generation);
void test_hook_delay(void);
/* 1 when EVOLVE_TEST_FAIL names this point and pass n. */
int test_hook_fails(const char *point, uint32_t n);
/* EVOLVE_TEST_STRATEGY_SLICE, or 0 when unset. */
int64_t test_hook_strategy_slice(void);
/* EVOLVE_TEST_STRATEGY_GROUP, or 0 when unset. */
int64_t test_hook_strategy_group(void);

#ifdef __cplusplus
}
#endif
#endif
