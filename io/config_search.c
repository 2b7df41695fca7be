/* The config's `objective:`, `ga:` and `grid:` blocks: what a genome's
 * fitness means and how the search runs. Defaults are set by the caller
 * (ga_settings_default, config.c); absent keys keep them. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "io/config_internal.h"

#define NO_BOUND HUGE_VAL

static const char *const objective_keys[] = {"name",      "min_trades", "max_drawdown_pct", "fill", "cost_pct",
                                             "aggregate", NULL};
static const char *const aggregate_names[] = {"all", "mean_fold", "median_fold", "worst_fold",
                                              NULL};              /* aggregate_kind */
static const char *const fill_names[] = {"level", "price", NULL}; /* fill_mode order */

static const char *const ga_keys[] = {"population",
                                      "generations",
                                      "islands",
                                      "migration",
                                      "selection",
                                      "crossover",
                                      "mutation",
                                      "elitism",
                                      "stall_generations",
                                      "max_evaluations",
                                      "time_budget_s",
                                      "immigrants",
                                      "cache_max_mb",
                                      "checkpoint_every",
                                      "local_search",
                                      "restart_stall",
                                      "checkpoint_every_s",
                                      "restart_elites",
                                      NULL};
static const char *const local_search_keys[] = {"every", "members",    "depth",      "random",       "exit_pairs",
                                                "kicks", "kick_genes", "kick_relax", "random_relax", "random_exits_off",
                                                NULL};
static const char *const migration_keys[] = {"every", "count", NULL};
static const char *const selection_keys[] = {"type", "k", "truncation", NULL};
static const char *const selection_names[] = {"tournament", "truncation", NULL}; /* selection_kind order */
static const char *const crossover_keys[] = {"type", "rate", NULL};
static const char *const crossover_names[] = {"uniform", "one_point", "two_point", NULL}; /* crossover_kind order */
static const char *const mutation_keys[] = {"rate", "creep_share", "creep_max", NULL};
static const char *const immigrant_keys[] = {"diversity", "share", NULL};
static const char *const grid_keys[] = {"batch", "checkpoint_every_s", NULL};

static ybounds_t bounds(double lo, int lo_open, double hi, int hi_open)
{
    ybounds_t b;
    b.lo = lo;
    b.lo_open = lo_open;
    b.hi = hi;
    b.hi_open = hi_open;
    return b;
}

ev_status config_parse_objective(const ymap_t *root, objective_cfg_t *obj, ev_error *err)
{
    const char *names[OBJ_COUNT + 1];
    ymap_t m;
    int present = 0, kind = obj->kind, fill = obj->fill, agg = obj->aggregate;
    uint64_t min_trades = (uint64_t)obj->min_trades;
    yaml_node_t *dd;
    ev_status st;
    for (int k = 0; k < OBJ_COUNT; k++)
        names[k] = objective_name((objective_kind)k); /* one list of names: objective_cfg.c's */
    names[OBJ_COUNT] = NULL;
    if ((st = ymap_submap(root, "objective", objective_keys, &m, &present, err)) != EV_OK || !present)
        return st;
    if ((st = ymap_choice(&m, "name", names, &kind, err)) != EV_OK ||
        (st = ymap_uint(&m, "min_trades", 0, (uint64_t)INT64_MAX, &min_trades, err)) != EV_OK ||
        (st = ymap_choice(&m, "fill", fill_names, &fill, err)) != EV_OK ||
        (st = ymap_choice(&m, "aggregate", aggregate_names, &agg, err)) != EV_OK ||
        (st = ymap_number(&m, "cost_pct", bounds(0, 0, CONFIG_COST_MAX, 0), &obj->cost_pct, err)) != EV_OK)
        return st;
    obj->kind = kind;
    obj->fill = fill;
    obj->aggregate = agg;
    obj->min_trades = (int64_t)min_trades;
    /* Absent or null: no drawdown constraint. */
    dd = ymap_get(&m, "max_drawdown_pct");
    if (dd && !ydoc_is_null(dd)) {
        if ((st = ymap_number(&m, "max_drawdown_pct", bounds(0, 1, CONFIG_DRAWDOWN_MAX, 0), &obj->max_drawdown_pct,
                              err)))
            return st;
        obj->has_max_drawdown = 1;
    }
    return EV_OK;
}

/* mutation.rate: the word auto (1/genes, stored as 0) or a rate in (0, 1]. */
static ev_status parse_mutation_rate(const ymap_t *m, double *rate, ev_error *err)
{
    const char *s = ydoc_plain(ymap_get(m, "rate"));
    if (s && strcmp(s, "auto") == 0) {
        *rate = 0.0;
        return EV_OK;
    }
    if (!ymap_get(m, "rate") || ydoc_number_text(ymap_get(m, "rate")))
        return ymap_number(m, "rate", bounds(0, 1, 1, 0), rate, err);
    {
        char path[YDOC_PATH_MAX], found[96];
        ymap_path(m, "rate", path);
        ydoc_describe(ymap_get(m, "rate"), found, sizeof found);
        return ydoc_fail(m->doc, err, ymap_get(m, "rate"), path,
                         "expected auto (1 / number of parameters) or a number > 0 and <= 1, found %s", found);
    }
}

static ev_status parse_operators(const ymap_t *ga, ga_settings_t *g, ev_error *err)
{
    ymap_t m;
    int present, kind;
    ev_status st;
    if ((st = ymap_submap(ga, "migration", migration_keys, &m, &present, err)) != EV_OK)
        return st;
    if (present && ((st = ymap_u32(&m, "every", 0, UINT32_MAX, &g->migration_every, err)) != EV_OK ||
                    (st = ymap_u32(&m, "count", 0, UINT32_MAX, &g->migration_count, err)) != EV_OK))
        return st;
    if ((st = ymap_submap(ga, "selection", selection_keys, &m, &present, err)) != EV_OK)
        return st;
    kind = g->selection;
    if (present && ((st = ymap_choice(&m, "type", selection_names, &kind, err)) != EV_OK ||
                    (st = ymap_u32(&m, "k", 1, CONFIG_TOURNAMENT_MAX, &g->tournament_k, err)) != EV_OK ||
                    (st = ymap_number(&m, "truncation", bounds(0, 1, 1, 0), &g->truncation, err)) != EV_OK))
        return st;
    g->selection = kind;
    if ((st = ymap_submap(ga, "crossover", crossover_keys, &m, &present, err)) != EV_OK)
        return st;
    kind = g->crossover;
    if (present && ((st = ymap_choice(&m, "type", crossover_names, &kind, err)) != EV_OK ||
                    (st = ymap_number(&m, "rate", bounds(0, 0, 1, 0), &g->crossover_rate, err)) != EV_OK))
        return st;
    g->crossover = kind;
    if ((st = ymap_submap(ga, "mutation", mutation_keys, &m, &present, err)) != EV_OK)
        return st;
    if (present && ((st = parse_mutation_rate(&m, &g->mutation_rate, err)) != EV_OK ||
                    (st = ymap_number(&m, "creep_share", bounds(0, 0, 1, 0), &g->creep_share, err)) != EV_OK ||
                    (st = ymap_u32(&m, "creep_max", 1, EV_MAX_VALUES, &g->creep_max, err)) != EV_OK))
        return st;
    if ((st = ymap_submap(ga, "immigrants", immigrant_keys, &m, &present, err)) != EV_OK)
        return st;
    if (present && ((st = ymap_number(&m, "diversity", bounds(0, 0, 1, 0), &g->immigrant_diversity, err)) != EV_OK ||
                    (st = ymap_number(&m, "share", bounds(0, 0, 1, 0), &g->immigrant_share, err)) != EV_OK))
        return st;
    return EV_OK;
}

/* A true/false key of ga.local_search into *flag (1/0), kept when absent. */
static ev_status parse_flag(const ymap_t *m, const char *key, uint32_t *flag, ev_error *err)
{
    int on = (int)*flag;
    ev_status st = ymap_bool(m, key, &on, err);
    *flag = on != 0;
    return st;
}

/* ga.local_search: {every, members, depth, random, exit_pairs, kicks, kick_genes, kick_relax, random_relax,
 * random_exits_off}
 * (docs/ga.md "Local search"). */
static ev_status parse_local_search(const ymap_t *ga, ga_settings_t *g, ev_error *err)
{
    ymap_t m;
    int present = 0;
    ev_status st;
    if ((st = ymap_submap(ga, "local_search", local_search_keys, &m, &present, err)) != EV_OK || !present)
        return st;
    if ((st = ymap_u32(&m, "every", 0, UINT32_MAX, &g->ls_every, err)) != EV_OK ||
        (st = ymap_u32(&m, "members", 1, 1024, &g->ls_members, err)) != EV_OK ||
        (st = ymap_u32(&m, "depth", 1, 2, &g->ls_depth, err)) != EV_OK ||
        (st = ymap_u32(&m, "random", 0, 1024, &g->ls_random, err)) != EV_OK ||
        (st = ymap_u32(&m, "kicks", 0, 1024, &g->ls_kicks, err)) != EV_OK ||
        (st = ymap_u32(&m, "kick_genes", 2, EV_MAX_PARAMS, &g->ls_kick_genes, err)) != EV_OK ||
        (st = ymap_u32(&m, "kick_relax", 1, 100, &g->ls_kick_relax, err)) != EV_OK ||
        (st = parse_flag(&m, "exit_pairs", &g->ls_exit_pairs, err)) != EV_OK ||
        (st = parse_flag(&m, "random_relax", &g->ls_random_relax, err)) != EV_OK)
        return st;
    return parse_flag(&m, "random_exits_off", &g->ls_random_exits_off, err);
}

static ev_status parse_restart_elites(const ymap_t *ga, ga_settings_t *g, ev_error *err)
{
    int keep = (int)g->restart_elites;
    ev_status st = ymap_bool(ga, "restart_elites", &keep, err);
    g->restart_elites = keep != 0;
    return st;
}

/* Rules that tie keys together: islands split the population evenly into
 * islands of >= 2, and migrants must leave someone at home. The error points
 * at the key that breaks the rule, or at `islands` when it was a default. */
static ev_status check_islands(const ymap_t *ga, const ga_settings_t *g, ev_error *err)
{
    char path[YDOC_PATH_MAX];
    yaml_node_t *islands = ymap_get(ga, "islands"), *at;
    ymap_t mig;
    uint32_t size;
    if (g->population % g->islands != 0) {
        ymap_path(ga, "islands", path);
        return ydoc_fail(ga->doc, err, islands, path,
                         "expected a divisor of the population (%u), found %u: islands split it evenly", g->population,
                         g->islands);
    }
    size = g->population / g->islands;
    if (size < 2) {
        ymap_path(ga, "islands", path);
        return ydoc_fail(ga->doc, err, islands, path,
                         "population %u over %u islands leaves %u individual per island; each island needs >= 2",
                         g->population, g->islands, size);
    }
    if (g->islands > 1 && g->migration_every > 0 && g->migration_count >= size) {
        at = ymap_get(ga, "migration");
        if (at && at->type == YAML_MAPPING_NODE && ymap_open(&mig, ga->doc, at, "", migration_keys, NULL) == EV_OK &&
            ymap_get(&mig, "count"))
            at = ymap_get(&mig, "count");
        else
            at = islands;
        ymap_path(ga, "migration.count", path);
        return ydoc_fail(ga->doc, err, at, path,
                         "expected fewer migrants than the island size (%u), found %u (set migration.count, or "
                         "every: 0 to disable migration)",
                         size, g->migration_count);
    }
    return EV_OK;
}

ev_status config_parse_ga(const ymap_t *root, ga_settings_t *g, uint32_t *checkpoint_every, double *checkpoint_every_s,
                          ev_error *err)
{
    ymap_t m;
    int present = 0, pop_auto;
    const char *pop_text;
    ev_status st;
    if ((st = ymap_submap(root, "ga", ga_keys, &m, &present, err)) != EV_OK || !present)
        return st;
    pop_text = ydoc_plain(ymap_get(&m, "population"));
    pop_auto = !ymap_get(&m, "population") || (pop_text && strcmp(pop_text, "auto") == 0);
    if ((!pop_auto && (st = ymap_u32(&m, "population", 2, CONFIG_POPULATION_MAX, &g->population, err)) != EV_OK) ||
        (st = ymap_u32(&m, "generations", 1, UINT32_MAX, &g->generations, err)) != EV_OK ||
        (st = ymap_u32(&m, "islands", 1, UINT32_MAX, &g->islands, err)) != EV_OK ||
        (st = parse_operators(&m, g, err)) != EV_OK ||
        (st = ymap_number(&m, "elitism", bounds(0, 0, 1, 1), &g->elitism, err)) != EV_OK ||
        (st = ymap_u32(&m, "stall_generations", 0, UINT32_MAX, &g->stall_generations, err)) != EV_OK ||
        (st = ymap_uint(&m, "max_evaluations", 0, UINT64_MAX, &g->max_evaluations, err)) != EV_OK ||
        (st = ymap_number(&m, "time_budget_s", bounds(0, 0, NO_BOUND, 0), &g->time_budget_s, err)) != EV_OK ||
        (st = ymap_uint(&m, "cache_max_mb", 1, UINT64_MAX, &g->cache_max_mb, err)) != EV_OK ||
        (st = ymap_u32(&m, "checkpoint_every", 1, UINT32_MAX, checkpoint_every, err)) != EV_OK ||
        (st = ymap_u32(&m, "restart_stall", 0, UINT32_MAX, &g->restart_stall, err)) != EV_OK ||
        (st = parse_restart_elites(&m, g, err)) != EV_OK ||
        (st = ymap_number(&m, "checkpoint_every_s", bounds(0, 0, NO_BOUND, 0), checkpoint_every_s, err)) != EV_OK)
        return st;
    if ((st = parse_local_search(&m, g, err)) != EV_OK)
        return st;
    if (pop_auto)
        g->population = ga_population_auto(g->max_evaluations, g->time_budget_s, g->islands);
    /* A budget in the user's units ends the run; the generation count is a
     * cap only when it is given (docs/ga.md "Budgets"). */
    if (!ymap_get(&m, "generations") && (g->max_evaluations || g->time_budget_s > 0))
        g->generations = GA_GENERATIONS_UNCAPPED;
    return check_islands(&m, g, err);
}

ev_status config_parse_grid(const ymap_t *root, uint64_t *batch, double *checkpoint_s, ev_error *err)
{
    ymap_t m;
    int present = 0;
    ev_status st;
    if ((st = ymap_submap(root, "grid", grid_keys, &m, &present, err)) != EV_OK || !present ||
        (st = ymap_uint(&m, "batch", 0, UINT64_MAX, batch, err)) != EV_OK)
        return st;
    return ymap_number(&m, "checkpoint_every_s", bounds(0, 0, NO_BOUND, 0), checkpoint_s, err);
}
