/* libevolve: the engine of the evolve command as a C library (the Python
 * package in python/ binds to this header through ctypes).
 *
 * Rules:
 * - Every function returns an evolve_status (EVOLVE_OK = 0) unless it says
 *   otherwise, and writes its message (one sentence naming the file, line or
 *   key, as the command line prints it) into the context it was given:
 *   evolve_last_error(ctx). The library has no global state: a context and
 *   the handles opened through it may be used by one thread at a time; use
 *   one context per thread.
 * - Handles are opaque; each open has its close (NULL is a no-op). A NULL
 *   handle is refused with EVOLVE_EUSAGE.
 * - Genes are lattice indices (uint16), structure of arrays: gene k of
 *   genome i is genes[k * n + i].
 * Every exported name starts with evolve_ (tests/test_lib_exports.py). */
#ifndef EVOLVE_PUBLIC_H
#define EVOLVE_PUBLIC_H

#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32)
#if defined(EVOLVE_BUILDING_LIBRARY)
#define EVOLVE_API __declspec(dllexport)
#else
#define EVOLVE_API __declspec(dllimport)
#endif
#elif defined(__GNUC__)
#define EVOLVE_API __attribute__((visibility("default")))
#else
#define EVOLVE_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The same numbers as the engine's status codes (common/status.h). */
typedef enum {
    EVOLVE_OK = 0,
    EVOLVE_EUSAGE,   /* bad argument (a NULL handle, an unknown name) */
    EVOLVE_EIO,      /* a file is missing, unreadable or unwritable */
    EVOLVE_EPARSE,   /* malformed CSV or YAML content */
    EVOLVE_ECONFIG,  /* the config breaks the schema */
    EVOLVE_EDATA,    /* data inconsistent with the SPEC */
    EVOLVE_ENOMEM,   /* out of host or device memory */
    EVOLVE_EHDF5,    /* an HDF5 call failed */
    EVOLVE_ECUDA,    /* a CUDA call failed */
    EVOLVE_ENODEV,   /* the CUDA backend was asked for but no device exists */
    EVOLVE_EINTR,    /* interrupted */
    EVOLVE_EBUSY,    /* a file is in use by another process */
    EVOLVE_EINTERNAL /* a bug */
} evolve_status;

typedef struct evolve_ctx evolve_ctx;             /* errors; one per thread */
typedef struct evolve_dataset evolve_dataset;     /* the prepared trades and prices (SPEC sec. 2) */
typedef struct evolve_lattice evolve_lattice;     /* parameters and objective */
typedef struct evolve_evaluator evolve_evaluator; /* a dataset, lattice and backend ready to evaluate */
typedef struct evolve_runfile evolve_runfile;     /* a run file opened for reading */

/* "0.1.0" */
EVOLVE_API const char *evolve_version(void);
/* "evolve 0.1.0 (git ..., compiler, build type)" */
EVOLVE_API const char *evolve_build_info(void);
/* Short name of a status ("I/O error", ...), like strerror. */
EVOLVE_API const char *evolve_strerror(int status);
/* 1 when this library has the CUDA backend compiled in. */
EVOLVE_API int evolve_has_cuda(void);

/* ---- context ------------------------------------------------------------ */
/* NULL when out of memory. */
EVOLVE_API evolve_ctx *evolve_ctx_new(void);
EVOLVE_API void evolve_ctx_free(evolve_ctx *ctx);
/* The message of the last failed call on ctx ("" when none); valid until the next call. */
EVOLVE_API const char *evolve_last_error(const evolve_ctx *ctx);
EVOLVE_API int evolve_last_status(const evolve_ctx *ctx);

/* ---- datasets ----------------------------------------------------------- */
/* From the trader's CSVs, ingested in memory (no cache file): a folder of
 * market files and a trade log; tickers NULL (n 0): SOXL, IONQ, MARA.
 * features: more trade-log columns to keep (may be NULL). */
EVOLVE_API int evolve_dataset_from_csv(evolve_ctx *ctx, const char *market_dir, const char *trades_csv,
                                       const char *const *tickers, size_t n_tickers, const char *const *features,
                                       size_t n_features, evolve_dataset **out);
/* From a dataset file written by `evolve ingest` (or a run's cache). */
EVOLVE_API int evolve_dataset_from_h5(evolve_ctx *ctx, const char *path, evolve_dataset **out);
/* The dataset a config's data: block names, as a run of it reads it (its
 * dataset file, or its CSVs through the cache the config names). */
EVOLVE_API int evolve_dataset_from_config(evolve_ctx *ctx, const char *config_path, evolve_dataset **out);
EVOLVE_API void evolve_dataset_close(evolve_dataset *ds);

/* The kept trades, in dataset order; pointers stay valid until close. */
typedef struct {
    int64_t n_trades;
    int32_t n_tickers;
    const char *const *tickers; /* [n_tickers] */
    const int32_t *ticker;      /* [n_trades]: ticker id (index into tickers) */
    const int64_t *trade_id;
    const int64_t *entry_ts; /* seconds since 1970 of the wall-clock time */
    const int64_t *exit_ts;
    const double *entry_price;
    const double *pct_change;
    int32_t n_features;
    const char *const *feature_names; /* [n_features] */
    const double *features;           /* [n_features][n_trades] */
    int64_t n_prices;
    uint64_t content_hash;
} evolve_trades;
EVOLVE_API int evolve_dataset_trades(evolve_ctx *ctx, const evolve_dataset *ds, evolve_trades *out);

/* ---- lattices ----------------------------------------------------------- */
/* From YAML text with the config's `parameters:` block and optionally its
 * `objective:` block (a whole config file's text works; its other keys are
 * not read). name: the text's name in messages (a file name). */
EVOLVE_API int evolve_lattice_from_yaml(evolve_ctx *ctx, const char *yaml, const char *name, evolve_lattice **out);

typedef struct {
    const char *name;
    const char *role;      /* "filter", "target" or "stop" */
    const char *feature;   /* filters: the trade-log column */
    const char *direction; /* filters: "min" (keep iff feature >= v, the default) or "max"; NULL: min */
    const double *values;  /* strictly increasing; written out as the shortest decimal that reads back the same */
    size_t n_values;
} evolve_param;
/* From arrays of values per parameter; objective_yaml: an `objective:`
 * document as evolve_lattice_set_objective takes, or NULL (total_return). */
EVOLVE_API int evolve_lattice_from_values(evolve_ctx *ctx, const evolve_param *params, size_t n_params,
                                          const char *objective_yaml, evolve_lattice **out);
/* Replaces the objective with the one of a YAML document `objective: {...}`. */
EVOLVE_API int evolve_lattice_set_objective(evolve_ctx *ctx, evolve_lattice *lat, const char *yaml);
EVOLVE_API void evolve_lattice_close(evolve_lattice *lat);

EVOLVE_API int evolve_lattice_n_params(const evolve_lattice *lat);
/* Parameter i: its name, role, feature ("" for target/stop), number of values. */
EVOLVE_API int evolve_lattice_param(evolve_ctx *ctx, const evolve_lattice *lat, int i, const char **name,
                                    const char **role, const char **feature, uint32_t *n_values);
/* Its values (n_values doubles). */
EVOLVE_API int evolve_lattice_values(evolve_ctx *ctx, const evolve_lattice *lat, int i, double *values);
/* The number of points (0 when >= 2^63), and the objective's name. */
EVOLVE_API uint64_t evolve_lattice_size(const evolve_lattice *lat);
EVOLVE_API const char *evolve_lattice_objective(const evolve_lattice *lat);

/* ---- evaluation --------------------------------------------------------- */
/* Binds a copy of lat to ds and prepares backend "cpu", "cuda" or "auto"
 * (CUDA when built with it and a device exists, else the CPU): the first-hit
 * tables are built once here. ds and lat may be closed afterwards. */
EVOLVE_API int evolve_evaluator_open(evolve_ctx *ctx, evolve_dataset *ds, const evolve_lattice *lat,
                                     const char *backend, evolve_evaluator **out);
EVOLVE_API void evolve_evaluator_close(evolve_evaluator *ev);
/* The backend's description ("CPU, 2 threads", the CUDA device). */
EVOLVE_API const char *evolve_evaluator_device(const evolve_evaluator *ev);
/* n genomes, genes SoA [n_params][n] (gene k of genome i at genes[k * n + i]).
 * Outputs [n], each may be NULL: fitness_raw (the ranking fitness; compound:
 * the log sum), fitness (as a run file's ga/fitness shows it), trades kept,
 * feasible (1/0). A gene off the lattice is refused, naming it. */
EVOLVE_API int evolve_evaluate(evolve_ctx *ctx, evolve_evaluator *ev, const uint16_t *genes, uint64_t n,
                               double *fitness_raw, double *fitness, int64_t *trades, uint8_t *feasible);

/* ---- searches ----------------------------------------------------------- */
/* One generation, as the callback sees it (raw fitness: the ranking one). */
typedef struct {
    uint32_t generation; /* 0 = the initial population */
    uint64_t feasible;
    double best, median, mean, std;
    uint64_t unique;
    double diversity;
    uint64_t new_evaluations, evaluations, lookups;
    double hit_rate;
    double wall_s;
    double hof_best_raw; /* the hall of fame's best raw fitness so far (NaN: none) */
} evolve_generation;

/* Called after each generation is written to the run file; a nonzero answer
 * ends the run there, complete, with stop reason "stopped by caller". */
typedef int (*evolve_generation_cb)(void *user, const evolve_generation *gen);

/* What a run tells (runs/reporter.h), as the command prints it on stderr: text
 * ending in '\n' (a line; a warning may hold several) of kind EVOLVE_NOTE,
 * progress or a note ("ga: population ...", "grid: run file ..."), or
 * EVOLVE_WARNING (the GPU probe falling back to the CPU, a resume that starts
 * again). The text is valid during the call. */
enum { EVOLVE_NOTE = 0, EVOLVE_WARNING = 1 };
typedef void (*evolve_message_cb)(void *user, int kind, const char *line);

typedef struct {
    const char *mode;    /* "ga" (NULL too), "grid" or "validate" */
    const char *backend; /* "cpu", "cuda", "auto" (NULL too) */
    const char *output;  /* the run file, or NULL: the config's output */
    uint64_t seed;       /* when seed_given */
    int seed_given;
    uint32_t top;                       /* 0: the config's */
    int verbose;                        /* 1: the command's progress lines and notes on stderr */
    evolve_generation_cb on_generation; /* mode "ga" only (validate runs its GA to the end); or NULL */
    void *user;
    evolve_message_cb on_message; /* every note and warning, verbose or not (user as above); or NULL */
} evolve_run_opts;

typedef struct {
    char run_file[4096];  /* where the run was written */
    char stop_reason[64]; /* GA: "generations", "stall", "stopped by caller", ...; else "" */
    uint32_t generations; /* GA: generations evaluated */
    uint64_t evaluations; /* GA: unique evaluations; grid: points evaluated */
    double seconds;
} evolve_run_info;

/* Runs a config exactly as `evolve CONFIG [--grid|--validate]` does: the same
 * checks, the same run file (and the dataset cache the config names), the
 * same bits; nothing printed unless opts->verbose. opts may be NULL. */
EVOLVE_API int evolve_run(evolve_ctx *ctx, const char *config_path, const evolve_run_opts *opts, evolve_run_info *info);

/* ---- run files (results/README.md) -------------------------------------- */
EVOLVE_API int evolve_runfile_open(evolve_ctx *ctx, const char *path, evolve_runfile **out);
EVOLVE_API void evolve_runfile_close(evolve_runfile *rf);
/* A string attribute ("/" "mode", "ga" "stop_reason", ...) into buf; "" when absent. */
EVOLVE_API int evolve_runfile_attr(evolve_ctx *ctx, evolve_runfile *rf, const char *object, const char *name, char *buf,
                                   size_t size);
/* 1 when the object exists ("ga", "grid/top", ...). */
EVOLVE_API int evolve_runfile_has(evolve_runfile *rf, const char *object);
/* The lattice recorded in the file (names and values; not for evaluation). */
EVOLVE_API int evolve_runfile_lattice(evolve_ctx *ctx, evolve_runfile *rf, evolve_lattice **out);
/* A ranked table: group "ga/hall_of_fame" or "grid/top". Call with NULL
 * arrays to learn n, then with arrays of n (genes: n_params x n, SoA). */
EVOLVE_API int evolve_runfile_ranked(evolve_ctx *ctx, evolve_runfile *rf, const char *group, uint32_t *n,
                                     uint64_t *rank_key, uint64_t *index, double *fitness, double *fitness_raw,
                                     int64_t *trades, uint8_t *feasible, uint16_t *genes);
/* Generations archived in /ga (0 without one). */
EVOLVE_API uint32_t evolve_runfile_generations(evolve_runfile *rf);
/* The names of the per-generation scalar columns of ga/stats, "best", ...:
 * name i, or NULL past the last. */
EVOLVE_API const char *evolve_runfile_stat_name(int i);
/* A ga/stats scalar column as doubles [generations]. */
EVOLVE_API int evolve_runfile_stat(evolve_ctx *ctx, evolve_runfile *rf, const char *name, double *out);
/* Generation gen's population: genes SoA [n_params][population], and per
 * individual fitness (displayed), fitness_raw, trades, feasible; any may be NULL. */
EVOLVE_API int evolve_runfile_population(evolve_ctx *ctx, evolve_runfile *rf, uint32_t gen, uint32_t *population,
                                         uint16_t *genes, double *fitness, double *fitness_raw, int64_t *trades,
                                         uint8_t *feasible);

/* The trader statistics of a list (docs/config.md "Trader statistics"), as
 * the run file holds them: list "grid" (grid/top) or "ga" (ga/hall_of_fame),
 * holdout 1 for those on the holdout days. evolve_trade_stat_name(i) names
 * field i ("trades", ..., "exits_breakeven", "exits_trail", "exits_time"), NULL
 * past the last. Call with NULL arrays to learn n (0: the file has none), then
 * with out [fields][n] (SoA) and shown [fields]: 0 for a field the run did not
 * record (the exits of SPEC sec. 4.1 without a trail, breakeven or max_hold
 * parameter), its out row then NaN. */
EVOLVE_API const char *evolve_trade_stat_name(int i);
EVOLVE_API int evolve_runfile_trader_stats(evolve_ctx *ctx, evolve_runfile *rf, const char *list, int holdout,
                                           uint32_t *n, uint8_t *shown, double *out);

/* ---- a reported genome's trades (evolve trades RUN.h5) ------------------ */
typedef struct evolve_replay evolve_replay;
/* Its kept trades over the run's whole dataset, in equity-curve order;
 * pointers stay valid until close. */
typedef struct {
    const char *list; /* "grid" or "ga" */
    uint32_t rank;    /* 1-based */
    int64_t n;
    int32_t n_tickers;
    const char *const *tickers; /* [n_tickers] */
    const int32_t *ticker;      /* [n]: ticker id */
    const int64_t *trade_id;
    const int64_t *entry_ts; /* seconds since 1970 of the wall-clock time */
    const double *entry_price;
    const int64_t *exit_ts; /* the exit's second, or the log's exit time (reason logged) */
    const int32_t *reason;  /* evolve_exit_reason_name */
    const int64_t *q;       /* outcome in micro-percent after costs, as the fitness sums it */
    const int32_t *holdout; /* 1: on a holdout day of the run's validation split */
} evolve_replay_trades;
/* list: "grid", "ga" or NULL (the grid's where the run has one); dataset: a
 * copy of the run's dataset elsewhere, or NULL (the recorded one). */
EVOLVE_API int evolve_replay_open(evolve_ctx *ctx, const char *run_file, const char *list, uint32_t rank,
                                  const char *dataset, evolve_replay **out);
EVOLVE_API int evolve_replay_trades_get(evolve_ctx *ctx, const evolve_replay *rp, evolve_replay_trades *out);
EVOLVE_API void evolve_replay_close(evolve_replay *rp);
/* "logged", "target", "stop", "breakeven", "trail", "time"; NULL for another code. */
EVOLVE_API const char *evolve_exit_reason_name(int reason);
/* Any numeric dataset of the file ("grid/validation/out_of_sample_fitness",
 * "ga/baselines/log/trader_stats/win_rate", ...) as doubles, row-major: call
 * with out NULL to learn *n, then with an array of *n. */
EVOLVE_API int evolve_runfile_array(evolve_ctx *ctx, evolve_runfile *rf, const char *path, uint64_t *n, double *out);
/* Element i of a string dataset ("walk_forward/baselines/names") into buf
 * ("" past its end) and its element count into *n; size 0 (buf NULL) only
 * counts. */
EVOLVE_API int evolve_runfile_string(evolve_ctx *ctx, evolve_runfile *rf, const char *path, uint64_t i, char *buf,
                                     size_t size, uint64_t *n);
/* A numeric attribute ("grid/validation" "pbo", ...) as a double. */
EVOLVE_API int evolve_runfile_number(evolve_ctx *ctx, evolve_runfile *rf, const char *object, const char *name,
                                     double *out);

#ifdef __cplusplus
}
#endif
#endif
