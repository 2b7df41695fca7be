/* config_load: reads the YAML file, checks the top level and the `data:`
 * block, resolves paths, and hands the other blocks to config_lattice.c and
 * config_search.c. Schema: docs/config.md. */
#include "io/config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/platform.h"
#include "common/strutil.h"
#include "io/config_internal.h"

#define CONFIG_MAX_BYTES (16u << 20) /* a config is a few KiB; anything this big is a wrong file */

static const char *const root_keys[] = {"data", "parameters", "objective",  "ga",       "grid",     "report", "top",
                                        "seed", "output",     "validation", "strategy", "baseline", NULL};
static const char *const data_keys[] = {"market_dir", "trades",   "dataset", "cache",
                                        "tickers",    "features", "strict",  NULL};

ev_status config_read_text(const char *path, char **text, size_t *len, ev_error *err)
{
    size_t cap = 4096, used = 0, got;
    char *buf;
    FILE *f = plat_open_input(path, "a YAML config file", err);
    if (!f)
        return EV_EIO;
    buf = (char *)malloc(cap);
    while (buf && (got = fread(buf + used, 1, cap - used - 1, f)) > 0) {
        used += got;
        if (used + 1 == cap) {
            char *grown = cap >= CONFIG_MAX_BYTES ? NULL : (char *)realloc(buf, cap * 2);
            if (!grown) {
                fclose(f);
                free(buf);
                if (cap >= CONFIG_MAX_BYTES)
                    return ev_fail(err, EV_EIO, "%s: larger than %u MiB; is this really a config?", path,
                                   CONFIG_MAX_BYTES >> 20);
                return ev_fail(err, EV_ENOMEM, "%s: out of memory reading the config", path);
            }
            buf = grown;
            cap *= 2;
        }
    }
    if (!buf || ferror(f)) {
        int e = errno;
        fclose(f);
        free(buf);
        return buf ? ev_fail(err, EV_EIO, "%s: cannot read the config: %s", path, strerror(e))
                   : ev_fail(err, EV_ENOMEM, "%s: out of memory reading the config", path);
    }
    fclose(f);
    buf[used] = '\0';
    *text = buf;
    *len = used;
    return EV_OK;
}

/* Relative paths are relative to the config file, not the working directory,
 * so a config and its data can move together. */
static ev_status resolve(const config_t *cfg, char **path, ev_error *err)
{
    char *joined;
    if (!*path)
        return EV_OK;
    joined = plat_path_join(cfg->dir, *path);
    if (!joined)
        return ev_fail(err, EV_ENOMEM, "out of memory resolving %s", *path);
    free(*path);
    *path = joined;
    return EV_OK;
}

/* A list of distinct non-empty names (tickers, feature columns). */
static ev_status parse_names(const ymap_t *m, const char *key, const char *what, int allow_empty, char ***out,
                             int32_t *count, ev_error *err)
{
    char path[YDOC_PATH_MAX], ipath[YDOC_PATH_MAX];
    yaml_node_t *seq = ymap_get(m, key);
    size_t n;
    ev_status st;
    ymap_path(m, key, path);
    if ((st = ydoc_get_sequence(m->doc, seq, path, what, err)) != EV_OK)
        return st;
    n = ydoc_length(seq);
    if (n == 0 && !allow_empty)
        return ydoc_fail(m->doc, err, seq, path, "expected a non-empty list of %s, found an empty list", what);
    *out = (char **)calloc(n ? n : 1, sizeof **out);
    if (!*out)
        return ev_fail(err, EV_ENOMEM, "out of memory reading %s", path);
    for (size_t i = 0; i < n; i++) {
        yaml_node_t *item = ydoc_item(m->doc, seq, i);
        ydoc_path_index(ipath, path, i);
        if ((st = ydoc_get_string(m->doc, item, ipath, &(*out)[i], err)) != EV_OK)
            return st;
        *count = (int32_t)(i + 1); /* owned from here on: config_free releases it */
        for (size_t j = 0; j < i; j++)
            if (strcmp((*out)[j], (*out)[i]) == 0)
                return ydoc_fail(m->doc, err, item, ipath, "'%s' is listed twice (first as %s[%zu])", (*out)[i], path,
                                 j);
    }
    return EV_OK;
}

/* With a ready dataset, the ingest options are fixed by the file: accepting
 * them silently would suggest they take effect. */
static ev_status reject_ingest_keys(const ymap_t *m, ev_error *err)
{
    static const char *const keys[] = {"cache", "tickers", "features", "strict"};
    char path[YDOC_PATH_MAX];
    for (int i = 0; i < 4; i++)
        if (ymap_key(m, keys[i])) {
            ymap_path(m, keys[i], path);
            return ydoc_fail(m->doc, err, ymap_key(m, keys[i]), path,
                             "applies only to raw CSVs (market_dir + trades); a dataset file keeps the options "
                             "it was ingested with");
        }
    return EV_OK;
}

static ev_status parse_data(const ymap_t *root, config_t *cfg, ev_error *err)
{
    ymap_t m;
    int has_market, has_trades, has_dataset;
    char path[YDOC_PATH_MAX];
    ev_status st;
    if (!ymap_get(root, "data"))
        return ymap_missing(root, "data", "a mapping naming market_dir + trades, or dataset", err);
    if ((st = ymap_submap(root, "data", data_keys, &m, NULL, err)) != EV_OK ||
        (st = ymap_string(&m, "market_dir", &cfg->market_dir, &has_market, err)) != EV_OK ||
        (st = ymap_string(&m, "trades", &cfg->trades_path, &has_trades, err)) != EV_OK ||
        (st = ymap_string(&m, "dataset", &cfg->dataset_path, &has_dataset, err)) != EV_OK)
        return st;
    if (has_dataset && (has_market || has_trades)) {
        ymap_path(&m, "dataset", path);
        return ydoc_fail(m.doc, err, ymap_key(&m, "dataset"), path,
                         "name either raw CSVs (market_dir + trades) or a dataset file, not both");
    }
    if (!has_dataset && !has_market && !has_trades)
        return ydoc_fail(m.doc, err, m.node, m.path,
                         "expected market_dir + trades (raw CSVs) or dataset (a file from evolve ingest), found "
                         "neither");
    if (has_market && !has_trades)
        return ymap_missing(&m, "trades", "the trade log CSV (market_dir needs trades)", err);
    if (has_trades && !has_market)
        return ymap_missing(&m, "market_dir", "the market data directory (trades needs market_dir)", err);
    if (has_dataset)
        return (st = reject_ingest_keys(&m, err)) != EV_OK ? st : resolve(cfg, &cfg->dataset_path, err);
    cfg->dataset_is_cache = 1;
    if ((st = resolve(cfg, &cfg->market_dir, err)) != EV_OK || (st = resolve(cfg, &cfg->trades_path, err)) != EV_OK ||
        (st = ymap_string(&m, "cache", &cfg->dataset_path, NULL, err)) != EV_OK ||
        (st = resolve(cfg, &cfg->dataset_path, err)) != EV_OK || /* NULL (absent) stays NULL */
        (st = ymap_bool(&m, "strict", &cfg->strict, err)) != EV_OK)
        return st;
    if (ymap_get(&m, "features") && (st = parse_names(&m, "features", "trade-log column names", 1, &cfg->extra_features,
                                                      &cfg->n_extra_features, err)) != EV_OK)
        return st;
    if (!ymap_get(&m, "tickers")) /* no hidden default: another trader's data has other tickers */
        return ymap_missing(&m, "tickers", "the tickers of the trade log to search, e.g. tickers: [SOXL]", err);
    return parse_names(&m, "tickers", "ticker symbols", 0, &cfg->tickers, &cfg->n_tickers, err);
}

/* output default: <config dir>/../results/<config stem>.h5, i.e. the
 * results/ folder beside configs/. */
static ev_status default_output(config_t *cfg, ev_error *err)
{
    const char *base = plat_basename(cfg->path);
    const char *dot = strrchr(base, '.');
    size_t stem = dot && dot != base ? (size_t)(dot - base) : strlen(base);
    size_t n = stem + sizeof "../results/.h5";
    char *rel = (char *)malloc(n);
    if (!rel)
        return ev_fail(err, EV_ENOMEM, "out of memory reading the config");
    snprintf(rel, n, "../results/%.*s.h5", (int)stem, base);
    cfg->output = rel;
    return EV_OK;
}

/* 53 bits of OS entropy (time and pid where /dev/urandom is missing): a
 * drawn seed must survive being stored as a JSON number (a double). */
static uint64_t entropy_seed(void)
{
    uint64_t x = 0;
    FILE *f = fopen("/dev/urandom", "rb");
    if (f) {
        if (fread(&x, sizeof x, 1, f) != 1)
            x = 0;
        fclose(f);
    }
    x ^= (uint64_t)time(NULL) * UINT64_C(0x9E3779B97F4A7C15);
    x ^= (uint64_t)plat_pid() << 32;
    x ^= (uint64_t)(plat_now() * 1e9);
    /* splitmix64's finaliser spreads the weak sources over every bit */
    x ^= x >> 30;
    x *= UINT64_C(0xBF58476D1CE4E5B9);
    x ^= x >> 27;
    x *= UINT64_C(0x94D049BB133111EB);
    x ^= x >> 31;
    return x & ((UINT64_C(1) << 53) - 1);
}

static ev_status parse_seed(const ymap_t *root, config_t *cfg, ev_error *err)
{
    yaml_node_t *n = ymap_get(root, "seed");
    const char *s = ydoc_plain(n);
    char found[96];
    if (!n)
        return EV_OK;
    if (s && strcmp(s, "random") == 0) {
        cfg->seed = entropy_seed();
        cfg->seed_random = 1;
        fprintf(stderr, "evolve: seed: random -> %llu (put 'seed: %llu' in the config to repeat this run)\n",
                (unsigned long long)cfg->seed, (unsigned long long)cfg->seed);
        return EV_OK;
    }
    if (ydoc_get_uint(root->doc, n, "seed", 0, UINT64_MAX, &cfg->seed, NULL) == EV_OK)
        return EV_OK;
    ydoc_describe(n, found, sizeof found);
    return ydoc_fail(root->doc, err, n, "seed", "expected a non-negative integer or the word random, found %s", found);
}

/* strategy: {type, ...} instead of data: an indicator-signal strategy on bars.
 * Only its type is read here; the block's other keys (bars, costs, ...) are
 * the strategy's own to check and read (signals/strategy.h). */
static ev_status parse_strategy(const ymap_t *root, config_t *cfg, ev_error *err)
{
    yaml_node_t *s = ymap_get(root, "strategy");
    char path[YDOC_PATH_MAX];
    if (ymap_key(root, "data")) {
        ymap_path(root, "data", path);
        return ydoc_fail(root->doc, err, ymap_key(root, "data"), path,
                         "a strategy config reads bars (strategy.bars), not a trade log: drop data: or strategy:");
    }
    if (s->type != YAML_MAPPING_NODE)
        return ydoc_expected(root->doc, s, "strategy", "a mapping {type, bars, costs}", err);
    for (yaml_node_pair_t *p = s->data.mapping.pairs.start; p < s->data.mapping.pairs.top; p++) {
        const char *k = ydoc_text(ydoc_node(root->doc, p->key));
        if (k && !strcmp(k, "type"))
            return ydoc_get_string(root->doc, ydoc_node(root->doc, p->value), "strategy.type", &cfg->strategy_type,
                                   err);
    }
    return ydoc_fail(root->doc, err, s, "strategy.type", "required key is missing; expected a strategy name");
}

/* A strategy's local search sweeps backtests (n_values of them per gene
 * sweep): off unless ga.local_search is given. */
static void strategy_local_search_default(const ymap_t *root, config_t *cfg)
{
    yaml_node_t *ga = ymap_get(root, "ga");
    ymap_t m;
    if (ga && ga->type == YAML_MAPPING_NODE) {
        m = *root;
        m.node = ga;
        if (ymap_key(&m, "local_search")) {
            /* a random start's climb costs a strategy hundreds of backtests:
             * only when asked for */
            yaml_node_t *ls = ymap_get(&m, "local_search");
            m.node = ls;
            if (ls && ls->type == YAML_MAPPING_NODE && !ymap_key(&m, "random"))
                cfg->ga.ls_random = 0;
            return;
        }
    }
    cfg->ga.ls_every = 0;
    cfg->ga.ls_random = 0;
}

static ev_status parse_root(ydoc_t *doc, config_t *cfg, ev_error *err)
{
    ymap_t root;
    int has_output = 0, strategy;
    ev_status st;
    if (!ydoc_root(doc))
        return ev_fail(err, EV_ECONFIG,
                       "%s:1:1: the config is empty; expected a mapping with the keys data, "
                       "parameters, objective, ga, grid, report, top, seed, output, validation",
                       cfg->path);
    if ((st = ymap_open(&root, doc, ydoc_root(doc), "", root_keys, err)) != EV_OK)
        return st;
    strategy = ymap_get(&root, "strategy") != NULL;
    if ((st = strategy ? parse_strategy(&root, cfg, err) : parse_data(&root, cfg, err)) != EV_OK ||
        (st = config_parse_parameters(&root, &cfg->lattice, strategy, err)) != EV_OK ||
        (st = config_parse_objective(&root, &cfg->objective, err)) != EV_OK ||
        (st = config_parse_ga(&root, &cfg->ga, &cfg->checkpoint_every, &cfg->checkpoint_every_s, err)) != EV_OK ||
        (st = config_parse_grid(&root, &cfg->grid_batch, &cfg->grid_checkpoint_s, err)) != EV_OK ||
        (st = config_parse_report(&root, &cfg->lattice, cfg->heatmap, &cfg->report_diverse, err)) != EV_OK ||
        (st = config_parse_validation(&root, &cfg->objective, &cfg->validation, err)) != EV_OK ||
        (st = config_parse_baseline(&root, &cfg->lattice, strategy, &cfg->baseline, err)) != EV_OK ||
        (st = ymap_u32(&root, "top", 1, CONFIG_TOP_MAX, &cfg->top, err)) != EV_OK ||
        (st = ymap_string(&root, "output", &cfg->output, &has_output, err)) != EV_OK)
        return st;
    if (strategy)
        strategy_local_search_default(&root, cfg);
    if (!has_output && (st = default_output(cfg, err)) != EV_OK)
        return st;
    if ((st = resolve(cfg, &cfg->output, err)) != EV_OK)
        return st;
    /* Drawn last, so that a config that fails validation prints no seed. */
    return parse_seed(&root, cfg, err);
}

ev_status config_load(const char *path, config_t *cfg, ev_error *err)
{
    ydoc_t doc;
    size_t len = 0;
    ev_status st;
    memset(cfg, 0, sizeof *cfg);
    cfg->path = ev_strdup(path);
    cfg->dir = plat_dirname(path);
    if (!cfg->path || !cfg->dir) {
        config_free(cfg);
        return ev_fail(err, EV_ENOMEM, "out of memory loading %s", path);
    }
    ga_settings_default(&cfg->ga);
    cfg->objective.kind = OBJ_TOTAL_RETURN;
    cfg->objective.fill = FILL_LEVEL;
    cfg->top = 10;
    cfg->seed = 42;
    cfg->checkpoint_every = 1;
    cfg->checkpoint_every_s = CONFIG_GA_CHECKPOINT_S;
    cfg->grid_checkpoint_s = CONFIG_GRID_CHECKPOINT_S;
    if ((st = config_read_text(path, &cfg->text, &len, err)) == EV_OK &&
        (st = ydoc_load(&doc, path, cfg->text, len, err)) == EV_OK) {
        st = parse_root(&doc, cfg, err);
        ydoc_free(&doc);
    }
    if (st != EV_OK)
        config_free(cfg);
    return st;
}

ev_status config_parse_blocks(const char *name, const char *text, lattice_t *lat, objective_cfg_t *obj, ev_error *err)
{
    ydoc_t doc;
    ymap_t root;
    ev_status st;
    memset(obj, 0, sizeof *obj);
    obj->kind = OBJ_TOTAL_RETURN;
    obj->fill = FILL_LEVEL;
    if (lat)
        memset(lat, 0, sizeof *lat);
    if ((st = ydoc_load(&doc, name, text, strlen(text), err)) != EV_OK)
        return st;
    if (!ydoc_root(&doc))
        st = ev_fail(err, EV_ECONFIG, "%s:1:1: the document is empty; expected a mapping with the keys %s", name,
                     lat ? "parameters and objective" : "objective");
    else if ((st = ymap_open(&root, &doc, ydoc_root(&doc), "", root_keys, err)) == EV_OK && ymap_get(&root, "strategy"))
        st = ydoc_fail(&doc, err, ymap_key(&root, "strategy"), "strategy",
                       "the library evaluates trade logs; a strategy config runs with evolve CONFIG");
    else if (st == EV_OK && (!lat || (st = config_parse_parameters(&root, lat, 0, err)) == EV_OK))
        st = config_parse_objective(&root, obj, err);
    ydoc_free(&doc);
    if (st != EV_OK && lat)
        lattice_free(lat);
    return st;
}

void config_cap_top(config_t *cfg)
{
    if (cfg->lattice.size_fits && cfg->top > cfg->lattice.size)
        cfg->top = (uint32_t)cfg->lattice.size;
}

void config_free(config_t *cfg)
{
    if (!cfg)
        return;
    free(cfg->path);
    free(cfg->dir);
    free(cfg->text);
    free(cfg->market_dir);
    free(cfg->trades_path);
    free(cfg->dataset_path);
    free(cfg->output);
    free(cfg->strategy_type);
    free(cfg->heatmap[0]);
    free(cfg->heatmap[1]);
    for (int32_t i = 0; i < cfg->n_tickers; i++)
        free(cfg->tickers[i]);
    free(cfg->tickers);
    for (int32_t i = 0; i < cfg->n_extra_features; i++)
        free(cfg->extra_features[i]);
    free(cfg->extra_features);
    lattice_free(&cfg->lattice);
    validation_cfg_free(&cfg->validation);
    memset(cfg, 0, sizeof *cfg);
}
