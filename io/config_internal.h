/* Shared between the files that read the config's blocks; not a public API.
 * Each parser reads one top-level key of the (already key-checked) root
 * mapping into its part of config_t, leaving defaults where keys are absent. */
#ifndef EVOLVE_CONFIG_INTERNAL_H
#define EVOLVE_CONFIG_INTERNAL_H

#include "io/config.h"
#include "io/yaml_map.h"

/* parameters: (config_lattice.c). Fills lat and calls lattice_finish. */
ev_status config_parse_parameters(const ymap_t *root, lattice_t *lat, ev_error *err);

/* objective:, ga: and grid: (config_search.c). */
ev_status config_parse_objective(const ymap_t *root, objective_cfg_t *obj, ev_error *err);
ev_status config_parse_ga(const ymap_t *root, ga_settings_t *ga, uint32_t *checkpoint_every, ev_error *err);
ev_status config_parse_grid(const ymap_t *root, uint64_t *batch, ev_error *err);

/* report: (config_report.c). Needs the parameters read first: the
 * heatmap's names must be parameters. */
ev_status config_parse_report(const ymap_t *root, const lattice_t *lat, char **heatmap, ev_error *err);

#endif
