/* The YAML config loader (io/config*, io/yaml_*): the input is the config
 * file. An accepted config must hold what docs/config.md and SPEC sec. 3
 * promise: data names raw CSVs or a dataset, never both (a strategy config
 * names neither, and all its parameters have role strategy); a lattice of 1..16
 * uniquely named parameters with 1..65535 finite, strictly increasing values
 * whose text reads back as the value; at most one target (values > 0) and
 * one stop (values < 0); the lattice size is the product of the value
 * counts when it fits in 63 bits; the objective, GA and top settings within
 * their documented bounds; a heatmap pair of two different parameters. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "io/config.h"

/* strategy: 1 for a strategy config, whose parameters all have role strategy
 * (a trade-log config has none of that role). */
static void check_lattice(const lattice_t *lat, int strategy)
{
    int32_t targets = 0, stops = 0;
    uint64_t size = 1;
    int fits = 1;
    FZ_ASSERT(lat->n_params >= 1 && lat->n_params <= EV_MAX_PARAMS, "%d parameters", (int)lat->n_params);
    for (int32_t k = 0; k < lat->n_params; k++) {
        const param_t *p = &lat->params[k];
        FZ_ASSERT(p->name && p->name[0], "parameter %d has no name", (int)k);
        for (int32_t j = 0; j < k; j++)
            FZ_ASSERT(strcmp(p->name, lat->params[j].name) != 0, "parameter name '%s' twice", p->name);
        FZ_ASSERT(p->n_values >= 1 && p->n_values <= EV_MAX_VALUES, "'%s' has %u values", p->name, p->n_values);
        FZ_ASSERT(strategy ? p->role == PARAM_STRATEGY
                           : p->role >= PARAM_FILTER && p->role < PARAM_ROLES && p->role != PARAM_STRATEGY,
                  "'%s' has role %d in a %s config", p->name, (int)p->role, strategy ? "strategy" : "trade-log");
        if (lattice_role_slot_of(lat, p->role))
            FZ_ASSERT(*lattice_role_slot_of(lat, p->role) == k, "'%s' (role %s) at %d, its slot %d", p->name,
                      param_role_name(p->role), (int)k, (int)*lattice_role_slot_of(lat, p->role));
        if (p->role == PARAM_FILTER)
            FZ_ASSERT(p->feature && p->feature[0] && (p->dir == FILTER_MIN || p->dir == FILTER_MAX),
                      "filter '%s' without a feature or direction", p->name);
        targets += p->role == PARAM_TARGET;
        stops += p->role == PARAM_STOP;
        if (p->role == PARAM_TARGET)
            FZ_ASSERT(lat->target_param == k, "target '%s' at %d, target_param %d", p->name, (int)k,
                      (int)lat->target_param);
        if (p->role == PARAM_STOP)
            FZ_ASSERT(lat->stop_param == k, "stop '%s' at %d, stop_param %d", p->name, (int)k, (int)lat->stop_param);
        for (uint32_t i = 0; i < p->n_values; i++) {
            double v = p->values[i];
            FZ_ASSERT(isfinite(v), "'%s' value %u is %g", p->name, i, v);
            FZ_ASSERT(i == 0 || v > p->values[i - 1], "'%s' values not strictly increasing at %u", p->name, i);
            FZ_ASSERT(p->role != PARAM_TARGET || v > 0, "target value %g", v);
            FZ_ASSERT(p->role != PARAM_STOP || v < 0, "stop value %g", v);
            FZ_ASSERT(!param_value_problem(p, v), "'%s' value %g: %s", p->name, v, param_value_problem(p, v));
            /* a strategy parameter listed by names is the enumeration 0, 1, ... */
            FZ_ASSERT(p->value_text && p->value_text[i] &&
                          (strtod(p->value_text[i], NULL) == v || (strategy && v == i && p->value_text[i][0])),
                      "'%s' value %u: text '%s' is not %.17g", p->name, i,
                      p->value_text && p->value_text[i] ? p->value_text[i] : "(null)", v);
        }
        if (fits && size > ((UINT64_C(1) << 63) - 1) / p->n_values)
            fits = 0; /* the size would reach 2^63 */
        else if (fits)
            size *= p->n_values;
    }
    FZ_ASSERT(targets <= 1 && stops <= 1, "%d targets, %d stops", (int)targets, (int)stops);
    FZ_ASSERT((targets == 0) == (lat->target_param < 0) && (stops == 0) == (lat->stop_param < 0),
              "target_param %d / stop_param %d", (int)lat->target_param, (int)lat->stop_param);
    FZ_ASSERT(lat->size_fits == fits, "size_fits %d, expected %d", lat->size_fits, fits);
    FZ_ASSERT(!fits || lat->size == size, "size %llu, expected %llu", (unsigned long long)lat->size,
              (unsigned long long)size);
}

static void check_config(const config_t *c, const uint8_t *data, size_t size)
{
    const ga_settings_t *g = &c->ga;
    const objective_cfg_t *o = &c->objective;
    FZ_ASSERT(c->path && c->dir && c->text, "path, dir or text missing");
    FZ_ASSERT(strlen(c->text) <= size && memcmp(c->text, data, strlen(c->text)) == 0, "text is not the file");
    FZ_ASSERT(c->output && c->output[0], "no output path");
    if (c->strategy_type) {
        /* bars, not a trade log: the strategy reads its own block */
        FZ_ASSERT(c->strategy_type[0], "an empty strategy.type");
        FZ_ASSERT(!c->dataset_path && !c->dataset_is_cache && !c->market_dir && !c->trades_path && !c->tickers &&
                      !c->n_tickers && !c->extra_features,
                  "a strategy config with trade-log data");
    } else if (c->dataset_is_cache) {
        FZ_ASSERT(c->market_dir && c->trades_path, "a cache without raw CSVs");
        FZ_ASSERT(c->n_tickers >= 1, "%d tickers", (int)c->n_tickers);
        for (int32_t i = 0; i < c->n_tickers; i++) {
            FZ_ASSERT(c->tickers[i] && c->tickers[i][0], "ticker %d empty", (int)i);
            for (int32_t j = 0; j < i; j++)
                FZ_ASSERT(strcmp(c->tickers[i], c->tickers[j]) != 0, "ticker %s twice", c->tickers[i]);
        }
        /* no data.cache: the shared cache's file is named when the dataset is obtained (io/dataset_cache.h) */
        FZ_ASSERT(!c->dataset_path || strcmp(c->dataset_path, c->output) != 0, "the cache is the output %s", c->output);
    } else {
        FZ_ASSERT(c->dataset_path && c->dataset_path[0], "no dataset path");
        FZ_ASSERT(!c->market_dir && !c->trades_path && !c->tickers && !c->n_tickers && !c->extra_features,
                  "a dataset file with ingest options");
    }
    for (int32_t i = 0; i < c->n_extra_features; i++)
        FZ_ASSERT(c->extra_features[i] && c->extra_features[i][0], "feature %d empty", (int)i);
    check_lattice(&c->lattice, c->strategy_type != NULL);
    FZ_ASSERT(o->kind >= 0 && o->kind < OBJ_COUNT && objective_name((objective_kind)o->kind), "objective %d",
              (int)o->kind);
    FZ_ASSERT(o->fill == 0 || o->fill == 1, "fill %d", (int)o->fill);
    FZ_ASSERT(o->cost_pct >= 0 && o->cost_pct <= 100, "cost_pct %g", o->cost_pct);
    FZ_ASSERT(o->min_trades >= 0, "min_trades %lld", (long long)o->min_trades);
    FZ_ASSERT(!o->has_max_drawdown || (o->max_drawdown_pct > 0 && isfinite(o->max_drawdown_pct)), "max_drawdown_pct %g",
              o->max_drawdown_pct);
    FZ_ASSERT(g->population >= 2 && g->generations >= 1 && g->islands >= 1 && g->population % g->islands == 0 &&
                  g->population / g->islands >= 2,
              "population %u, generations %u, islands %u", g->population, g->generations, g->islands);
    FZ_ASSERT(g->selection == SEL_TOURNAMENT || g->selection == SEL_TRUNCATION, "selection %d", (int)g->selection);
    FZ_ASSERT(g->crossover >= XO_UNIFORM && g->crossover <= XO_TWO_POINT, "crossover %d", (int)g->crossover);
    FZ_ASSERT(g->tournament_k >= 1, "tournament k %u", g->tournament_k);
    FZ_ASSERT(g->truncation > 0 && g->truncation <= 1, "truncation %g", g->truncation);
    FZ_ASSERT(g->crossover_rate >= 0 && g->crossover_rate <= 1, "crossover rate %g", g->crossover_rate);
    FZ_ASSERT(g->mutation_rate <= 1 && !isnan(g->mutation_rate), "mutation rate %g", g->mutation_rate);
    FZ_ASSERT(g->creep_share >= 0 && g->creep_share <= 1, "creep share %g", g->creep_share);
    FZ_ASSERT(g->elitism >= 0 && g->elitism < 1, "elitism %g", g->elitism);
    FZ_ASSERT(g->time_budget_s >= 0 && !isnan(g->time_budget_s), "time budget %g", g->time_budget_s);
    FZ_ASSERT(g->immigrant_diversity >= 0 && g->immigrant_diversity <= 1 && g->immigrant_share >= 0 &&
                  g->immigrant_share <= 1,
              "immigrants %g %g", g->immigrant_diversity, g->immigrant_share);
    FZ_ASSERT(g->cache_max_mb >= 1, "cache_max_mb %llu", (unsigned long long)g->cache_max_mb);
    FZ_ASSERT(g->islands == 1 || g->migration_every == 0 || g->migration_count < g->population / g->islands,
              "migration.count %u", g->migration_count);
    FZ_ASSERT(c->top >= 1 && c->top <= CONFIG_TOP_MAX, "top %u", c->top);
    FZ_ASSERT(c->checkpoint_every >= 1, "checkpoint_every %u", c->checkpoint_every);
    FZ_ASSERT(!c->heatmap[0] == !c->heatmap[1], "half a heatmap pair");
    if (c->heatmap[0]) {
        int found[2] = {0, 0};
        FZ_ASSERT(strcmp(c->heatmap[0], c->heatmap[1]) != 0, "heatmap pair of one parameter");
        for (int32_t k = 0; k < c->lattice.n_params; k++)
            for (int i = 0; i < 2; i++)
                found[i] |= strcmp(c->lattice.params[k].name, c->heatmap[i]) == 0;
        FZ_ASSERT(found[0] && found[1], "heatmap names an unknown parameter");
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fz_path(0, "config.yaml");
    config_t cfg;
    ev_error err;
    ev_status st;
    fz_write(path, data, size);
    fz_err_reset(&err);
    st = config_load(path, &cfg, &err);
    fz_check_status(st, &err, "config_load");
    if (st == EV_OK) {
        check_config(&cfg, data, size);
        config_cap_top(&cfg);
        FZ_ASSERT(!cfg.lattice.size_fits || cfg.top <= cfg.lattice.size, "top %u above the lattice size", cfg.top);
        config_free(&cfg);
    }
    return 0;
}
