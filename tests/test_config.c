#define _POSIX_C_SOURCE 200809L /* dup, dup2, fileno: capture what config_load prints */
/* Config loading (io/config): every field of a full config, the defaults,
 * relative paths, `seed: random`, and the example configs in configs/. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifdef _WIN32
#include <io.h>
#define dup _dup
#define dup2 _dup2
#define fileno _fileno
#define close _close
#else
#include <unistd.h>
#endif

#include "io/config.h"
#include "signals/se_config.h"
#include "tests/check.h"
#include "tests/config_test_util.h"

static const char full_yaml[] =
    "# every key, none at its default\n"
    "data:\n"
    "  market_dir: ../market\n"
    "  trades: /abs/all_trade_logs.csv\n"
    "  cache: cache/ds.h5\n"
    "  tickers: [SOXL, 123, \"ON\"]\n"
    "  features: [Entry Rsi, Entry Atr14]\n"
    "  strict: true\n"
    "parameters:\n"
    "  - {name: volatility, feature: Entry Volatility Percent, values: [0.0, 0.3, 1e-0, 2.50]}\n"
    "  - name: adx14\n"
    "    feature: Entry Adx14\n"
    "    range: {start: 0, stop: 40, step: 5}\n"
    "    direction: max\n"
    "  - {name: fine, feature: X, role: filter, range: {start: 0.5, stop: 1.3, step: 0.05}}\n"
    "  - {name: target, role: target, values: [0.2, 0.3, 0.4, 0.5]}\n"
    "  - {name: stop, role: stop, range: {start: -1.0, stop: -0.1, step: 0.1}}\n"
    "objective:\n"
    "  name: calmar\n"
    "  min_trades: 7\n"
    "  max_drawdown_pct: 5.5\n"
    "  fill: price\n"
    "  cost_pct: 0.02\n"
    "ga:\n"
    "  population: 600\n"
    "  generations: 33\n"
    "  islands: 3\n"
    "  migration: {every: 5, count: 4}\n"
    "  selection: {type: truncation, k: 5, truncation: 0.25}\n"
    "  crossover: {type: two_point, rate: 0.7}\n"
    "  mutation: {rate: 0.125, creep_share: 0.75, creep_max: 3}\n"
    "  elitism: 0.05\n"
    "  stall_generations: 12\n"
    "  max_evaluations: 123456789012\n"
    "  time_budget_s: 90.5\n"
    "  immigrants: {diversity: 0.1, share: 0.3}\n"
    "  cache_max_mb: 256\n"
    "  checkpoint_every: 7\n"
    "  local_search: {every: 4, members: 6, depth: 2, random: 3, exit_pairs: true, kicks: 2, kick_genes: 7, "
    "kick_relax: 85, random_relax: true, random_exits_off: false}\n"
    "  restart_stall: 9\n"
    "  restart_elites: true\n"
    "  checkpoint_every_s: 2.5\n"
    "grid: {batch: 1000000}\n"
    "report: {heatmap: [adx14, volatility]}\n"
    "top: 25\n"
    "seed: 18446744073709551615\n"
    "output: out/run.h5\n";

static void test_full(void)
{
    config_t cfg;
    ev_error err;
    char path[256];
    const param_t *p;
    static const char *const fine[] = {"0.5",  "0.55", "0.6",  "0.65", "0.7",  "0.75", "0.8",  "0.85", "0.9",
                                       "0.95", "1",    "1.05", "1.1",  "1.15", "1.2",  "1.25", "1.3"};
    if (write_text("tmp_config/full", "full.yaml", full_yaml, path, sizeof path))
        return;
    err.msg[0] = '\0';
    CHECK_EQ_I64(EV_OK, config_load(path, &cfg, &err));
    if (err.msg[0])
        fprintf(stderr, "unexpected error: %s\n", err.msg);
    CHECK_STR("tmp_config/full/full.yaml", cfg.path);
    CHECK_STR("tmp_config/full", cfg.dir);
    CHECK_STR(full_yaml, cfg.text);
    CHECK_STR("tmp_config/full/../market", cfg.market_dir);
    CHECK_STR("/abs/all_trade_logs.csv", cfg.trades_path);
    CHECK_STR("tmp_config/full/cache/ds.h5", cfg.dataset_path);
    CHECK_EQ_I64(1, cfg.dataset_is_cache);
    CHECK_EQ_I64(3, cfg.n_tickers);
    if (cfg.n_tickers == 3) {
        CHECK_STR("SOXL", cfg.tickers[0]);
        CHECK_STR("123", cfg.tickers[1]); /* a number is fine as a name */
        CHECK_STR("ON", cfg.tickers[2]);
    }
    CHECK_EQ_I64(2, cfg.n_extra_features);
    if (cfg.n_extra_features == 2) {
        CHECK_STR("Entry Rsi", cfg.extra_features[0]);
        CHECK_STR("Entry Atr14", cfg.extra_features[1]);
    }
    CHECK_EQ_I64(1, cfg.strict);

    CHECK_EQ_I64(5, cfg.lattice.n_params);
    CHECK_EQ_I64(3, cfg.lattice.target_param);
    CHECK_EQ_I64(4, cfg.lattice.stop_param);
    CHECK_EQ_I64(1, cfg.lattice.size_fits);
    CHECK_EQ_I64(4 * 9 * 17 * 4 * 10, cfg.lattice.size);
    if (cfg.lattice.n_params == 5) {
        p = &cfg.lattice.params[0];
        CHECK_STR("volatility", p->name);
        CHECK_EQ_I64(PARAM_FILTER, p->role);
        CHECK_EQ_I64(FILTER_MIN, p->dir);
        CHECK_STR("Entry Volatility Percent", p->feature);
        CHECK_EQ_I64(-1, p->feature_index);
        CHECK_EQ_I64(4, p->n_values);
        CHECK_STR("0.0", p->value_text[0]); /* values keep their text as typed */
        CHECK_STR("1e-0", p->value_text[2]);
        CHECK_STR("2.50", p->value_text[3]);
        CHECK_EQ_F64(0.3, p->values[1]);
        CHECK_EQ_F64(1.0, p->values[2]);
        CHECK_EQ_F64(2.5, p->values[3]);

        p = &cfg.lattice.params[1];
        CHECK_STR("adx14", p->name);
        CHECK_EQ_I64(FILTER_MAX, p->dir);
        CHECK_EQ_I64(9, p->n_values);
        CHECK_STR("40", p->value_text[8]);
        CHECK_EQ_F64(35.0, p->values[7]);

        p = &cfg.lattice.params[2];
        CHECK_EQ_I64(17, p->n_values);
        for (uint32_t i = 0; i < p->n_values && i < 17; i++) {
            CHECK_STR(fine[i], p->value_text[i]);
            CHECK_EQ_F64(strtod(fine[i], NULL), p->values[i]);
        }

        p = &cfg.lattice.params[3];
        CHECK_EQ_I64(PARAM_TARGET, p->role);
        CHECK(p->feature == NULL);
        CHECK_EQ_F64(0.4, p->values[2]);

        p = &cfg.lattice.params[4];
        CHECK_EQ_I64(PARAM_STOP, p->role);
        CHECK_EQ_I64(10, p->n_values);
        CHECK_STR("-1", p->value_text[0]);
        CHECK_STR("-0.3", p->value_text[7]);
        CHECK_EQ_F64(-0.3, p->values[7]);
        CHECK_EQ_F64(-0.1, p->values[9]);
    }

    CHECK_EQ_I64(OBJ_CALMAR, cfg.objective.kind);
    CHECK_EQ_I64(7, cfg.objective.min_trades);
    CHECK_EQ_I64(1, cfg.objective.has_max_drawdown);
    CHECK_EQ_F64(5.5, cfg.objective.max_drawdown_pct);
    CHECK_EQ_I64(FILL_PRICE, cfg.objective.fill);
    CHECK_EQ_F64(0.02, cfg.objective.cost_pct);

    CHECK_EQ_I64(600, cfg.ga.population);
    CHECK_EQ_I64(33, cfg.ga.generations);
    CHECK_EQ_I64(3, cfg.ga.islands);
    CHECK_EQ_I64(5, cfg.ga.migration_every);
    CHECK_EQ_I64(4, cfg.ga.migration_count);
    CHECK_EQ_I64(SEL_TRUNCATION, cfg.ga.selection);
    CHECK_EQ_I64(5, cfg.ga.tournament_k);
    CHECK_EQ_F64(0.25, cfg.ga.truncation);
    CHECK_EQ_I64(XO_TWO_POINT, cfg.ga.crossover);
    CHECK_EQ_F64(0.7, cfg.ga.crossover_rate);
    CHECK_EQ_F64(0.125, cfg.ga.mutation_rate);
    CHECK_EQ_F64(0.75, cfg.ga.creep_share);
    CHECK_EQ_I64(3, cfg.ga.creep_max);
    CHECK_EQ_F64(0.05, cfg.ga.elitism);
    CHECK_EQ_I64(12, cfg.ga.stall_generations);
    CHECK(cfg.ga.max_evaluations == UINT64_C(123456789012));
    CHECK_EQ_F64(90.5, cfg.ga.time_budget_s);
    CHECK_EQ_F64(0.1, cfg.ga.immigrant_diversity);
    CHECK_EQ_F64(0.3, cfg.ga.immigrant_share);
    CHECK_EQ_I64(256, cfg.ga.cache_max_mb);
    CHECK_EQ_I64(4, cfg.ga.ls_every);
    CHECK_EQ_I64(6, cfg.ga.ls_members);
    CHECK_EQ_I64(2, cfg.ga.ls_depth);
    CHECK_EQ_I64(3, cfg.ga.ls_random);
    CHECK_EQ_I64(1, cfg.ga.ls_exit_pairs);
    CHECK_EQ_I64(2, cfg.ga.ls_kicks);
    CHECK_EQ_I64(7, cfg.ga.ls_kick_genes);
    CHECK_EQ_I64(85, cfg.ga.ls_kick_relax);
    CHECK_EQ_I64(1, cfg.ga.ls_random_relax);
    CHECK_EQ_I64(0, cfg.ga.ls_random_exits_off);
    CHECK_EQ_I64(9, cfg.ga.restart_stall);
    CHECK_EQ_I64(1, cfg.ga.restart_elites);
    CHECK_EQ_F64(2.5, cfg.checkpoint_every_s);
    CHECK_EQ_I64(7, cfg.checkpoint_every);
    CHECK_STR("adx14", cfg.heatmap[0]);
    CHECK_STR("volatility", cfg.heatmap[1]);

    CHECK_EQ_I64(1000000, cfg.grid_batch);
    CHECK_EQ_I64(25, cfg.top);
    CHECK(cfg.seed == UINT64_MAX);
    CHECK_EQ_I64(0, cfg.seed_random);
    CHECK_STR("tmp_config/full/out/run.h5", cfg.output);
    config_free(&cfg);
    CHECK(all_zero(&cfg, sizeof cfg));
    config_free(&cfg); /* twice is harmless */
}

static void test_defaults(void)
{
    config_t cfg;
    ev_error err;
    ga_settings_t ga;
    char path[256];
    /* no hidden default tickers (SOXL, IONQ, MARA once): the key is required */
    if (write_text("tmp_config/defaults/configs", "my.run.yaml",
                   "data: {market_dir: m, trades: t.csv}\n"
                   "parameters:\n  - {name: v, feature: F, values: [0]}\n",
                   path, sizeof path))
        return;
    CHECK(config_load(path, &cfg, &err) != EV_OK);
    CHECK_CONTAINS(err.msg, "key 'data.tickers': required key is missing");
    config_free(&cfg);
    if (write_text("tmp_config/defaults/configs", "my.run.yaml",
                   "data: {market_dir: m, trades: t.csv, tickers: [ABC]}\n"
                   "parameters:\n  - {name: v, feature: F, values: [0]}\n",
                   path, sizeof path))
        return;
    CHECK_EQ_I64(EV_OK, config_load(path, &cfg, &err));
    CHECK_EQ_I64(1, cfg.n_tickers);
    if (cfg.n_tickers == 1)
        CHECK_STR("ABC", cfg.tickers[0]);
    CHECK_EQ_I64(0, cfg.n_extra_features);
    CHECK(cfg.extra_features == NULL);
    CHECK_EQ_I64(0, cfg.strict);
    /* results/ beside configs/, named after the config's stem */
    CHECK_STR("tmp_config/defaults/configs/../results/my.run.h5", cfg.output);
    CHECK(cfg.dataset_path == NULL); /* the shared cache's file, chosen by the inputs' content */
    CHECK_EQ_I64(1, cfg.dataset_is_cache);
    CHECK_STR("tmp_config/defaults/configs/m", cfg.market_dir);
    CHECK_STR("tmp_config/defaults/configs/t.csv", cfg.trades_path);
    CHECK_EQ_I64(OBJ_TOTAL_RETURN, cfg.objective.kind);
    CHECK_EQ_I64(FILL_LEVEL, cfg.objective.fill);
    CHECK_EQ_I64(0, cfg.objective.min_trades);
    CHECK_EQ_I64(0, cfg.objective.has_max_drawdown);
    CHECK_EQ_F64(0.0, cfg.objective.cost_pct);
    ga_settings_default(&ga);
    CHECK(memcmp(&ga, &cfg.ga, sizeof ga) == 0);
    CHECK_EQ_I64(10, cfg.top);
    CHECK_EQ_I64(42, cfg.seed);
    CHECK_EQ_I64(0, cfg.seed_random);
    CHECK_EQ_I64(0, cfg.grid_batch);
    CHECK_EQ_I64(1, cfg.checkpoint_every);
    CHECK_EQ_F64(1.0, cfg.checkpoint_every_s); /* fast generations write a checkpoint a second */
    CHECK(cfg.heatmap[0] == NULL && cfg.heatmap[1] == NULL);
    CHECK_EQ_I64(1, cfg.lattice.size);
    CHECK_EQ_I64(-1, cfg.lattice.target_param);
    CHECK_EQ_I64(-1, cfg.lattice.stop_param);
    config_free(&cfg);

    /* Blocks present but empty of keys keep every default too; null max_drawdown_pct is none. */
    if (write_text("tmp_config/defaults", "blocks.yaml",
                   "data: {dataset: d.h5}\n"
                   "parameters: [{name: v, feature: F, values: [0]}]\n"
                   "objective: {max_drawdown_pct: null}\n"
                   "ga: {mutation: {rate: auto}}\n"
                   "grid: {}\n",
                   path, sizeof path))
        return;
    CHECK_EQ_I64(EV_OK, config_load(path, &cfg, &err));
    CHECK(memcmp(&ga, &cfg.ga, sizeof ga) == 0);
    CHECK_EQ_I64(0, cfg.objective.has_max_drawdown);
    config_free(&cfg);
}

/* A top larger than the lattice is cut to its size (config_cap_top). */
static void test_top_cap(void)
{
    config_t cfg;
    ev_error err;
    char path[256];
    if (write_text("tmp_config/top", "top.yaml",
                   "data: {dataset: d.h5}\n"
                   "parameters: [{name: v, feature: F, values: [0, 1, 2]}]\n"
                   "top: 100000\n",
                   path, sizeof path))
        return;
    CHECK_EQ_I64(EV_OK, config_load(path, &cfg, &err));
    CHECK_EQ_I64(100000, cfg.top);
    config_cap_top(&cfg);
    CHECK_EQ_I64(3, cfg.top);
    cfg.top = 2;
    config_cap_top(&cfg);
    CHECK_EQ_I64(2, cfg.top);
    config_free(&cfg);
}

/* population: auto (and absent) sizes the population to the budget; with a
 * budget and no generations the run has no generation cap (docs/ga.md
 * "Budgets"); generations given stay a cap; restarts stay off unless given
 * (measured on the suite's tune half: bench/RESULTS.md "Search suite"). */
static void test_population_auto(void)
{
    static const struct {
        const char *ga;
        uint32_t want, gens, restart;
    } cases[] = {
        {"ga: {generations: 5}\n", 4096, 5, 20},
        {"ga: {population: auto}\n", 4096, 200, 20},
        {"ga: {max_evaluations: 200000}\n", 1024, GA_GENERATIONS_UNCAPPED, 20},
        {"ga: {population: auto, max_evaluations: 50000}\n", 512, GA_GENERATIONS_UNCAPPED, 20},
        {"ga: {max_evaluations: 1000}\n", 64, GA_GENERATIONS_UNCAPPED, 20},
        {"ga: {max_evaluations: 100000000}\n", 1024, GA_GENERATIONS_UNCAPPED, 20},
        {"ga: {time_budget_s: 3}\n", 1024, GA_GENERATIONS_UNCAPPED, 20},
        {"ga: {time_budget_s: 3, generations: 50}\n", 1024, 50, 20},
        {"ga: {max_evaluations: 100000, islands: 3}\n", 1023, GA_GENERATIONS_UNCAPPED, 20},
        {"ga: {population: 300, max_evaluations: 100000, generations: 200}\n", 300, 200, 20},
        {"ga: {max_evaluations: 0}\n", 4096, 200, 20},
        {"ga: {max_evaluations: 5000, restart_stall: 0}\n", 64, GA_GENERATIONS_UNCAPPED, 0},
        {"ga: {time_budget_s: 2, restart_stall: 3}\n", 1024, GA_GENERATIONS_UNCAPPED, 3},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        config_t cfg;
        ev_error err;
        char path[256], text[512];
        snprintf(text, sizeof text, "data: {dataset: d.h5}\nparameters: [{name: v, feature: F, values: [0, 1, 2]}]\n%s",
                 cases[i].ga);
        if (write_text("tmp_config/auto", "auto.yaml", text, path, sizeof path))
            return;
        CHECK_EQ_I64(EV_OK, config_load(path, &cfg, &err));
        CHECK_EQ_I64(cases[i].want, cfg.ga.population);
        CHECK_EQ_I64(cases[i].gens, cfg.ga.generations);
        CHECK_EQ_I64(cases[i].restart, cfg.ga.restart_stall);
        config_free(&cfg);
    }
}

static void test_paths(void)
{
    config_t cfg;
    ev_error err;
    char path[256];
    /* A ready dataset: resolved against the config's folder, no ingest options. */
    if (write_text("tmp_config/paths/sub", "ds.yaml",
                   "data: {dataset: ../sets/d.h5}\n"
                   "parameters: [{name: v, feature: F, values: [0]}]\n"
                   "output: /tmp/abs/run.h5\n",
                   path, sizeof path))
        return;
    CHECK_EQ_I64(EV_OK, config_load(path, &cfg, &err));
    CHECK_STR("tmp_config/paths/sub/../sets/d.h5", cfg.dataset_path);
    CHECK_EQ_I64(0, cfg.dataset_is_cache);
    CHECK(cfg.market_dir == NULL && cfg.trades_path == NULL);
    CHECK(cfg.tickers == NULL && cfg.n_tickers == 0);
    CHECK_STR("/tmp/abs/run.h5", cfg.output);
    config_free(&cfg);

    /* The cache does not follow the output: it is chosen by the inputs' content. */
    if (write_text("tmp_config/paths", "raw.yaml",
                   "data: {market_dir: /data/m, trades: t.csv, tickers: [SOXL]}\n"
                   "parameters: [{name: v, feature: F, values: [0]}]\n"
                   "output: res/x.out\n",
                   path, sizeof path))
        return;
    CHECK_EQ_I64(EV_OK, config_load(path, &cfg, &err));
    CHECK_STR("/data/m", cfg.market_dir);
    CHECK_STR("tmp_config/paths/res/x.out", cfg.output);
    CHECK(cfg.dataset_path == NULL);
    config_free(&cfg);
}

/* Runs config_load with stderr sent to a file and returns what it printed. */
static ev_status load_capturing_stderr(const char *path, config_t *cfg, ev_error *err, char *out, size_t size)
{
    ev_status st;
    FILE *f;
    size_t n;
    int saved;
    fflush(stderr);
    saved = dup(fileno(stderr));
    if (saved < 0 || !freopen("tmp_config/stderr.txt", "w", stderr))
        return EV_EINTERNAL;
    st = config_load(path, cfg, err);
    fflush(stderr);
    dup2(saved, fileno(stderr));
    close(saved);
    out[0] = '\0';
    f = fopen("tmp_config/stderr.txt", "rb");
    if (f) {
        n = fread(out, 1, size - 1, f);
        out[n] = '\0';
        fclose(f);
    }
    return st;
}

static void test_seed_random(void)
{
    config_t cfg;
    ev_error err;
    char path[256], printed[512], expected[64];
    if (write_text("tmp_config", "random.yaml",
                   "data: {dataset: d.h5}\nparameters: [{name: v, feature: F, values: [0]}]\nseed: random\n", path,
                   sizeof path))
        return;
    CHECK_EQ_I64(EV_OK, load_capturing_stderr(path, &cfg, &err, printed, sizeof printed));
    CHECK_EQ_I64(1, cfg.seed_random);
    CHECK(cfg.seed < (UINT64_C(1) << 53));
    snprintf(expected, sizeof expected, "seed: random -> %llu", (unsigned long long)cfg.seed);
    CHECK_CONTAINS(printed, expected);
    config_free(&cfg);

    /* A config that fails validation draws and prints nothing. */
    if (write_text("tmp_config", "random_bad.yaml",
                   "data: {dataset: d.h5}\nparameters: [{name: v, feature: F, values: [0]}]\nseed: random\ntop: 0\n",
                   path, sizeof path))
        return;
    CHECK_EQ_I64(EV_ECONFIG, load_capturing_stderr(path, &cfg, &err, printed, sizeof printed));
    CHECK_STR("", printed);
}

/* Every example config loads (its data files need not exist). */
static void test_examples(void)
{
    char **names;
    size_t n, loaded = 0;
    ev_error err;
    if (plat_list_dir(EVOLVE_SOURCE_DIR "/configs", &names, &n, &err) != EV_OK) {
        fprintf(stderr, "%s\n", err.msg);
        check_failures++;
        return;
    }
    for (size_t i = 0; i < n; i++) {
        char path[1024];
        config_t cfg;
        size_t len = strlen(names[i]);
        if (len < 5 || strcmp(names[i] + len - 5, ".yaml") != 0)
            continue;
        snprintf(path, sizeof path, "%s/configs/%s", EVOLVE_SOURCE_DIR, names[i]);
        if (se_config_is_strategy(path)) { /* a strategy config (docs/signals.md): its block, then the search's keys */
            se_config_t sc;
            if (se_config_load(path, &sc, &err) != EV_OK || config_load(path, &cfg, &err) != EV_OK) {
                fprintf(stderr, "example strategy config failed to load: %s\n", err.msg);
                check_failures++;
                continue;
            }
            CHECK(sc.n_params >= 1);
            CHECK_EQ_I64(sc.n_params, cfg.lattice.n_params);
            CHECK_STR(sc.type == STRATEGY_ATC ? "atc" : "seller_exhaustion", cfg.strategy_type);
            CHECK_EQ_I64(PARAM_STRATEGY, cfg.lattice.params[0].role);
            CHECK_EQ_I64(0, cfg.ga.ls_every); /* a strategy climbs only when asked: sweeps are backtests */
            CHECK_EQ_I64(0, cfg.ga.ls_random);
            se_config_free(&sc);
            config_free(&cfg);
            loaded++;
            continue;
        }
        if (config_load(path, &cfg, &err) != EV_OK) {
            fprintf(stderr, "example config failed to load: %s\n", err.msg);
            check_failures++;
            continue;
        }
        loaded++;
        if (!strcmp(names[i], "soxl.yaml")) {
            CHECK_EQ_I64(7, cfg.lattice.n_params);
            CHECK_EQ_I64(5 * 7 * 3 * 3 * 3 * 4 * 3, cfg.lattice.size);
            CHECK_EQ_I64(1, cfg.n_tickers);
            CHECK_EQ_I64(10, cfg.objective.min_trades);
            CHECK_EQ_I64(256, cfg.ga.population);
            CHECK_EQ_I64(40, cfg.ga.generations);
        }
        if (!strcmp(names[i], "large.yaml")) {
            CHECK(cfg.lattice.size >= 100000000);
            CHECK_STR("0.85", cfg.lattice.params[0].value_text[17]);
            CHECK_EQ_F64(strtod("0.85", NULL), cfg.lattice.params[0].values[17]);
        }
        config_free(&cfg);
    }
    CHECK(loaded >= 4);
    plat_free_names(names, n);
}

/* A strategy config: its type, role strategy by default, its block's own
 * keys left to the strategy, a parameter listed by names as an enumeration. */
static void test_strategy(void)
{
    char path[512];
    config_t cfg;
    ev_error err;
    const char *text =
        "strategy: {type: atc, bars: {csv: b.csv}, pine: {hma_as_sma: true}}\n"
        "parameters:\n"
        "  - {name: ema_len, range: {start: 10, stop: 14, step: 2}}\n"
        "  - {name: robustness, values: [Medium, Wide]}\n";
    if (write_text("tmp_cfg", "strategy.yaml", text, path, sizeof path) != 0 ||
        config_load(path, &cfg, &err) != EV_OK) {
        fprintf(stderr, "strategy config: %s\n", err.msg);
        CHECK(0);
        return;
    }
    CHECK_STR("atc", cfg.strategy_type);
    CHECK_EQ_I64(6, cfg.lattice.size);
    CHECK_EQ_I64(PARAM_STRATEGY, cfg.lattice.params[0].role);
    CHECK_EQ_I64(PARAM_STRATEGY, cfg.lattice.params[1].role);
    CHECK_EQ_F64(12, cfg.lattice.params[0].values[1]);
    CHECK_EQ_F64(0, cfg.lattice.params[1].values[0]);
    CHECK_EQ_F64(1, cfg.lattice.params[1].values[1]);
    CHECK_STR("Wide", cfg.lattice.params[1].value_text[1]);
    CHECK(cfg.market_dir == NULL && cfg.dataset_path == NULL);
    config_free(&cfg);
}

int main(void)
{
    config_t zero;
    memset(&zero, 0, sizeof zero);
    config_free(&zero); /* safe on a zeroed config */
    config_free(NULL);
    test_full();
    test_defaults();
    test_paths();
    test_top_cap();
    test_population_auto();
    test_examples();
    test_seed_random();
    test_strategy();
    return check_exit();
}
