/* The heatmap of a run file: the best fitness per (x value, y value) cell of
 * two parameters over every value of the others (fitness/grid_sink.h), in
 * /grid/heatmap: best_key uint64 [nx][ny] (rank_key; 0: no feasible point)
 * and best float64 [nx][ny] (displayed; NaN: none), attributes param_x,
 * param_y (names), x, y (parameter positions), points (lattice points folded). */
#ifndef EVOLVE_RUN_HEAT_H
#define EVOLVE_RUN_HEAT_H

#include <stdint.h>

#include "archive/run_file.h"
#include "fitness/grid_sink.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The pair to draw: the named parameters (names[0..1], or NULL for the
 * default), else the first two filter parameters, else the first two
 * parameters. Returns 1 with the positions, 0 when the lattice has fewer
 * than two parameters, -1 when a name is not a parameter (*bad: which). */
int run_heat_pair(const lattice_t *lat, const char *const *names, int32_t *px, int32_t *py, const char **bad);

/* The fitness a rank_key stands for (NaN for 0: infeasible / none). */
double rank_key_fitness(uint64_t key);

ev_status run_file_write_heat(run_file_t *rf, const grid_heat_t *h, const lattice_t *lat, const objective_cfg_t *obj,
                              uint64_t points, ev_error *err);
/* Reads /grid/heatmap into h (grid_heat_free). */
ev_status run_file_read_heat(run_file_t *rf, grid_heat_t *h, ev_error *err);

#ifdef __cplusplus
}
#endif
#endif
