/* Shared between the files that read the config's blocks; not a public API.
 * Each parser reads one top-level key of the (already key-checked) root
 * mapping into its part of config_t, leaving defaults where keys are absent. */
#ifndef EVOLVE_CONFIG_INTERNAL_H
#define EVOLVE_CONFIG_INTERNAL_H

#include "io/config.h"
#include "io/yaml_map.h"

/* Upper bounds of numeric keys (docs/config.md), where a larger value would
 * overflow the arithmetic it feeds or size memory and loops absurdly. */
/* |target| and |stop|, in percent: q = llround(pct * 1e6) micro-percent must
 * fit int64 (a level is only an outcome where the path reaches it, which
 * ingest bounds by INGEST_MAX_ABS_PCT). */
#define CONFIG_PCT_MAX 1e6
/* cost_pct is subtracted from every kept outcome: ingest's bound on the sums
 * (io/ingest.h: 2 * 4.6e7 trades * (1e5 + 100) % * 1e6 < 2^63) leaves room
 * for a round-trip cost of 100 %, the whole position. */
#define CONFIG_COST_MAX 100.0
/* max_drawdown_pct: llround(x * 1e6) must fit int64 (< 9.2e18). */
#define CONFIG_DRAWDOWN_MAX 1e12
/* ga.population: ~2^24 genomes already take 0.5 GiB a generation (16 genes). */
#define CONFIG_POPULATION_MAX (1u << 24)
/* ga.selection.k: draws per parent; beyond this a tournament is a sort. */
#define CONFIG_TOURNAMENT_MAX 1024u

/* parameters: (config_lattice.c). Fills lat and calls lattice_finish.
 * strategy: 1 in a strategy config (every parameter has role strategy). */
ev_status config_parse_parameters(const ymap_t *root, lattice_t *lat, int strategy, ev_error *err);

/* Exit levels: the sign or wholeness SPEC sec. 3 and 4.1 give them
 * (param_value_problem), and for a percent a size that keeps its quantised
 * outcomes inside the exact sums (CONFIG_PCT_MAX); checked where the value is
 * written (config_lattice.c). what ends the message ("in its list"). */
ev_status config_check_level(const ydoc_t *d, const yaml_node_t *at, const char *path, const param_t *p,
                             const char *what, double v, ev_error *err);

/* objective:, ga: and grid: (config_search.c). */
ev_status config_parse_objective(const ymap_t *root, objective_cfg_t *obj, ev_error *err);
ev_status config_parse_ga(const ymap_t *root, ga_settings_t *ga, uint32_t *checkpoint_every, double *checkpoint_every_s,
                          ev_error *err);
ev_status config_parse_grid(const ymap_t *root, uint64_t *batch, double *checkpoint_s, ev_error *err);

/* report: (config_report.c). Needs the parameters read first: the
 * heatmap's names must be parameters. */
/* report: heatmap and diverse (*diverse: 1 unless report.diverse is false). */
ev_status config_parse_report(const ymap_t *root, const lattice_t *lat, char **heatmap, int *diverse, ev_error *err);

/* baseline: (config_baseline.c): the trader's current settings, one value
 * per parameter named (needs the parameters read first). */
ev_status config_parse_baseline(const ymap_t *root, const lattice_t *lat, int strategy, baseline_point_t *b,
                                ev_error *err);

/* validation: (config_validation.c): holdout days and day folds. */
ev_status config_parse_validation(const ymap_t *root, const objective_cfg_t *obj, validation_cfg_t *v, ev_error *err);

#endif
