/* The YAML config (libyaml): data sources, the lattice, the objective, GA
 * settings and outputs. Schema: docs/config.md. Every relative path is
 * resolved against the config file's directory when loaded. */
#ifndef EVOLVE_CONFIG_H
#define EVOLVE_CONFIG_H

#include <stddef.h>

#include <stdint.h>

#include "common/status.h"
#include "fitness/baseline.h"
#include "fitness/lattice.h"
#include "fitness/objective_cfg.h"
#include "fitness/validation.h"
#include "operators/ga_settings.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The largest top (config `top`, --top): the top-K lists are allocated per
 * thread, so the bound keeps them small; docs/config.md. */
#define CONFIG_TOP_MAX 100000u
/* grid.checkpoint_every_s when not given: a killed grid loses at most this much work. */
#define CONFIG_GRID_CHECKPOINT_S 5.0
/* ga.checkpoint_every_s when not given: a checkpoint costs a file write
 * (~1 ms), as much as a whole generation of a small population, so fast runs
 * write one a second; a kill -9 recomputes at most about that much. */
#define CONFIG_GA_CHECKPOINT_S 1.0

typedef struct {
    char *path; /* the config file as given */
    char *dir;  /* its directory */
    char *text; /* the file verbatim (provenance) */

    /* data: either raw CSVs (ingested into a cached dataset) or a dataset file. */
    char *market_dir;     /* data.market_dir, or NULL */
    char *trades_path;    /* data.trades, or NULL */
    char *dataset_path;   /* data.dataset, or the cache file when raw CSVs are named
                           (data.cache; NULL until dataset_obtain picks the shared
                           cache's file, io/dataset_cache.h) */
    int dataset_is_cache; /* 1 when dataset_path is a cache derived from the CSVs */
    /* Ingest options, raw CSVs only: with data.dataset they are absent (NULL, 0)
     * and the dataset's own tickers and features stand. */
    char **tickers; /* data.tickers (default SOXL, IONQ, MARA) */
    int32_t n_tickers;
    char **extra_features; /* data.features: more trade-log columns to keep */
    int32_t n_extra_features;
    int strict; /* data.strict: drops are errors */

    /* strategy.type of a strategy config (bars, not a trade log: docs/signals.md),
     * or NULL. Its other keys are the strategy's to read (signals/strategy.h);
     * the data fields above are then empty. */
    char *strategy_type;

    lattice_t lattice;         /* parameters */
    objective_cfg_t objective; /* objective */
    ga_settings_t ga;          /* ga */

    uint32_t top;                /* top (default 10) */
    uint64_t seed;               /* seed (default 42) */
    int seed_random;             /* seed: random -> drawn at load time (< 2^53), printed to stderr */
    char *output;                /* output: the run file (default <config dir>/../results/<config stem>.h5) */
    uint64_t grid_batch;         /* grid.batch: genomes per batch, 0 = from free memory */
    double grid_checkpoint_s;    /* grid.checkpoint_every_s: the grid's progress saved this often (0: every block) */
    uint32_t checkpoint_every;   /* ga.checkpoint_every: a resume checkpoint every N generations (default 1) */
    double checkpoint_every_s;   /* ga.checkpoint_every_s: ... and at least this many seconds apart (0: no minimum) */
    char *heatmap[2];            /* report.heatmap: the two parameters of the heatmap, or NULL (the default pair) */
    int report_diverse;          /* report.diverse: a GA run reports the best genome of each basin (default 1) */
    validation_cfg_t validation; /* validation: (enabled 0 when absent) */
    baseline_point_t baseline;   /* baseline: the trader's current settings (present 0 when absent) */
} config_t;

/* Loads and validates a config. On error, err names the file, line and column
 * of the offending YAML node and what was expected; cfg is left empty. */
ev_status config_load(const char *path, config_t *cfg, ev_error *err);

/* A config file's text, NUL-terminated (*len bytes; the caller frees):
 * only a regular file, at most 16 MiB, with errors naming the file. */
ev_status config_read_text(const char *path, char **text, size_t *len, ev_error *err);
void config_free(config_t *cfg);

/* Cuts cfg->top to the lattice's size: no top-K list can hold more genomes
 * than there are points, and the grid keeps one list per thread, so a huge
 * top on a small lattice would only allocate. Called once the command line
 * has set top (session_open). */
void config_cap_top(config_t *cfg);

/* The parameters and objective blocks of a config document given as text
 * (the library, lib/: a lattice without a file), read by config_load's
 * rules and messages; the other keys of a config are allowed and not read.
 * lat NULL: only the objective (defaults where absent); else parameters is
 * required. name: the document's name in messages. */
ev_status config_parse_blocks(const char *name, const char *text, lattice_t *lat, objective_cfg_t *obj, ev_error *err);

#ifdef __cplusplus
}
#endif
#endif
