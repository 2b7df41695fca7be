/* Everything a search needs, set up once from a config: the config, the
 * dataset (ingested or cached), the bound lattice, the fitness problem, its
 * first-hit tables and an open backend. */
#ifndef EVOLVE_SESSION_H
#define EVOLVE_SESSION_H

#include <stdio.h>

#include "common/status.h"
#include "fitness/dataset.h"
#include "fitness/problem.h"
#include "fitness/reported.h"
#include "fitness/tables.h"
#include "ga/backend.h"
#include "ga/ga_run.h"
#include "io/config.h"
#include "runs/reporter.h"
#include "signals/strategy.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    const char *backend;          /* "cpu", "cuda", "auto" */
    const run_reporter_t *report; /* the dataset summary and notes (runs/reporter.h) */
    int no_probe;                 /* --no-gpu-probe: trust a device backend unchecked (unsafe) */
    int walk_forward;             /* --walk-forward: no row is reported, so no deflated Sharpe ratio */
} session_opts_t;

typedef struct {
    config_t cfg;
    dataset_t ds;
    fit_problem_t prob;
    tables_host_t tables;
    const backend_ops_t *ops;
    backend_t *backend;
    char device[256];
    /* The GPU probe's verdict for /provenance's backend_probe (runs/gpu_probe.h);
     * empty where the backend is the CPU's and no probe was asked for. */
    char probe[1536];
    double seconds_load;   /* config + dataset */
    double seconds_tables; /* first-hit tables + backend open (upload) */
    /* With a validation: block (runs/session_validation.c): ds holds the
     * in-sample trades only, the search's whole world; these hold the whole
     * dataset, its problem and CPU tables, the split of its days and each
     * trade's part (dataset order), to score reported genomes per part. */
    int validating;
    dataset_t ds_full;
    fit_problem_t prob_full;
    tables_host_t tables_full;
    val_split_t split;
    int32_t *trade_part;
    double var_sr; /* sharpe_variance over the lattice (validation), for the deflated Sharpe ratio */
    uint64_t var_sr_points;
    double pbo; /* session_validation_pbo (grid), NaN until then */
    uint64_t pbo_combos;
    uint32_t pbo_genomes, pbo_blocks;
    uint8_t *fold_in; /* objective.aggregate: the fold of each in-sample trade (s->ds order), else NULL */
    /* A strategy config (cfg.strategy_type): the strategy on its bars
     * (runs/session_strategy.h); ds is then empty but for its content_hash
     * (the bars' fingerprint) and tables hold no trade. NULL otherwise. */
    strategy_t *strategy;
    /* The same strategy pinned at the config's baseline: (strategy_open_pinned),
     * its split always the strategy's; NULL without a baseline: or strategy. */
    strategy_t *base_strategy;
} session_t;

/* Loads config_path, then applies nothing else: callers override cfg fields
 * (top, seed, output) between session_load_config and session_open. */
ev_status session_load_config(session_t *s, const char *config_path, ev_error *err);
ev_status session_open(session_t *s, const session_opts_t *opts, ev_error *err);
void session_close(session_t *s);

/* What the GA's local search sweeps (o->tables, o->ls_batch): a trade log's
 * first-hit tables, or for a strategy batches of backtests through the
 * session's backend (docs/ga.md "Local search"). */
void session_ls_sweeps(const session_t *s, ga_run_opts_t *o);

/* The values a run reports for e[n] (fitness/reported.h); reported_free. */
ev_status session_reported(const session_t *s, const ranked_genome_t *e, uint32_t n, reported_t *r, ev_error *err);

/* The GA's hall of fame capacity: the top-K's candidates (a trade log's
 * strategies are picked from them, ga/grid_pool.h), or K for a strategy. */
uint32_t session_hof_capacity(const session_t *s);

/* r (session_reported of the first r->n of cand[n_cand], best first)
 * grouped on cand (fitness/reported_groups.h): the strategies below the list
 * and each one's genomes, then with `basins` and report.diverse the basins.
 * pick[n_pick]: strat_first on cand, or NULL to find them here. Nothing for
 * a strategy config (no tables). */
ev_status session_groups(const session_t *s, reported_t *r, const ranked_genome_t *cand, uint32_t n_cand,
                         const uint32_t *pick, uint32_t n_pick, int basins, ev_error *err);

#ifdef __cplusplus
}
#endif
#endif
