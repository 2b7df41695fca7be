#include "signals/se_config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/platform.h"
#include "common/strutil.h"
#include "io/config.h"
#include "io/decimal.h"
#include "io/yaml_doc.h"
#include "io/yaml_map.h"
#include "signals/atc_params.h"
#include "signals/se_params.h"

/* The search's keys (objective, ga, grid, report, top, seed, output,
 * validation, baseline) are io/config.c's to read (config_load); here they
 * are allowed (a baseline's values are checked when pinned: se_config_pin). */
static const char *const root_keys[] = {"strategy", "parameters", "objective", "ga",         "grid",     "report",
                                        "top",      "seed",       "output",    "validation", "baseline", NULL};
static const char *const strategy_keys[] = {"type", "bars", "costs", "pine", "session", NULL};
static const char *const session_keys[] = {"flat_at_close", NULL};
static const char *const pine_keys[] = {"hma_as_sma", "pine_sticky_a", "python_cut", NULL};
static const char *const bars_keys[] = {"csv", "symbol", "market_dir", "ticker", "timeframe", NULL};
static const char *const costs_keys[] = {"fee_bp", "slippage_bp", NULL};
static const char *const param_keys[] = {"name", "role", "values", "range", NULL};
static const char *const range_keys[] = {"start", "stop", "step", NULL};
static const char *const types[] = {"seller_exhaustion", "trade_log", "atc", NULL};
static const char *const roles[] = {"strategy", NULL};

int se_config_is_strategy(const char *path)
{
    char *text = NULL;
    size_t len;
    ydoc_t d;
    ev_error err;
    int yes = 0;
    size_t n = strlen(path);
    if (n < 5 || (strcmp(path + n - 5, ".yaml") != 0 && (n < 4 || strcmp(path + n - 4, ".yml") != 0)))
        return 0;
    if (config_read_text(path, &text, &len, &err) != EV_OK)
        return 0;
    if (ydoc_load(&d, path, text, len, &err) == EV_OK) {
        yaml_node_t *root = ydoc_root(&d);
        if (root && root->type == YAML_MAPPING_NODE) {
            for (yaml_node_pair_t *p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top; p++) {
                const char *k = ydoc_text(ydoc_node(&d, p->key));
                yaml_node_t *v = ydoc_node(&d, p->value);
                if (k && !strcmp(k, "strategy")) {
                    yes = 1;
                    if (v && v->type == YAML_MAPPING_NODE)
                        for (yaml_node_pair_t *q = v->data.mapping.pairs.start; q < v->data.mapping.pairs.top; q++) {
                            const char *kk = ydoc_text(ydoc_node(&d, q->key));
                            const char *vv = ydoc_text(ydoc_node(&d, q->value));
                            if (kk && vv && !strcmp(kk, "type") && !strcmp(vv, "trade_log"))
                                yes = 0;
                        }
                }
            }
        }
        ydoc_free(&d);
    }
    free(text);
    return yes;
}

void se_config_free(se_config_t *c)
{
    free(c->path);
    free(c->bars_csv);
    free(c->symbol);
    free(c->market_dir);
    free(c->ticker);
    free(c->timeframe_txt);
    for (int32_t k = 0; k < c->n_params; k++) {
        for (uint32_t i = 0; i < c->params[k].n_values; i++)
            free(c->params[k].value_text[i]);
        free(c->params[k].value_text);
        free(c->params[k].values);
    }
    memset(c, 0, sizeof *c);
}

/* The type's parameter names and how many of them are lattice parameters. */
static const char *const *param_names(int type, int *n_lattice)
{
    if (n_lattice)
        *n_lattice = type == STRATEGY_ATC ? ATC_LATTICE_PARAMS : SE_LATTICE_PARAMS;
    return type == STRATEGY_ATC ? atc_param_names : se_param_names;
}

/* Whole bars: the lowest value, or -1 for a decimal parameter. */
static int param_int_min(int type, int which)
{
    const char *n = param_names(type, NULL)[which];
    if (type == STRATEGY_ATC)
        return which < 6 ? 1 : !strcmp(n, "cutout") ? 0 : -1;
    return !strcmp(n, "ema_fast") || !strcmp(n, "ema_slow") || !strcmp(n, "z_window") || !strcmp(n, "atr_window") ||
                   !strcmp(n, "max_hold")
               ? 1
               : -1;
}

static int param_is_enum(int type, int which)
{
    return type == STRATEGY_ATC && which == ATC_ROBUSTNESS_PARAM;
}

/* What is wrong with v as a value of parameter `which` (whole bars where
 * the type counts bars), or NULL; the lowest whole value into *lo. */
static const char *value_problem(int type, int which, double v, int *lo)
{
    *lo = param_int_min(type, which);
    if (!isfinite(v))
        return "is beyond the range of a double";
    if (*lo >= 0 && (v != floor(v) || v < *lo || v > 100000000))
        return "expected whole numbers of bars";
    return NULL;
}

static ev_status add_value(ydoc_t *d, yaml_node_t *at, const char *path, int type, se_lattice_param_t *p,
                           const char *text, ev_error *err)
{
    const char *name = param_names(type, NULL)[p->which];
    const char *why;
    const uint32_t i = p->n_values;
    double v = -1;
    int lo;
    if (param_is_enum(type, p->which)) {
        for (int k = 0; atc_robustness_names[k]; k++)
            if (!strcmp(text, atc_robustness_names[k]))
                v = k;
        if (v < 0)
            return ydoc_fail(d, err, at, path, "parameter '%s': expected Narrow, Medium or Wide, found %s", name, text);
    } else
        v = strtod(text, NULL);
    if ((why = value_problem(type, p->which, v, &lo)) != NULL && lo < 0)
        return ydoc_fail(d, err, at, path, "parameter '%s': value %s %s", name, text, why);
    if (why)
        return ydoc_fail(d, err, at, path, "parameter '%s': %s %d..100000000, found %s", name, why, lo, text);
    if (i > 0 && !(v > p->values[i - 1]))
        return ydoc_fail(d, err, at, path, "parameter '%s': values must be strictly increasing (%s after %s)", name,
                         text, p->value_text[i - 1]);
    if (!(p->value_text[i] = ev_strdup(text)))
        return ev_fail(err, EV_ENOMEM, "%s: out of memory for the lattice", d->file);
    p->values[i] = v;
    p->n_values = i + 1;
    return EV_OK;
}

static ev_status alloc_param(ydoc_t *d, se_lattice_param_t *p, uint64_t n, ev_error *err)
{
    p->values = (double *)calloc((size_t)n, sizeof *p->values);
    p->value_text = (char **)calloc((size_t)n, sizeof *p->value_text);
    if (!p->values || !p->value_text)
        return ev_fail(err, EV_ENOMEM, "%s: out of memory for the lattice", d->file);
    return EV_OK;
}

static ev_status parse_param(ydoc_t *d, yaml_node_t *node, const char *path, se_config_t *c, ev_error *err)
{
    ymap_t m;
    char *name = NULL;
    int role = 0, which = -1, n_lattice;
    const char *const *names = param_names(c->type, &n_lattice);
    const char *const type_name = c->type == STRATEGY_ATC ? "an atc" : "a seller_exhaustion";
    se_lattice_param_t *p = &c->params[c->n_params];
    yaml_node_t *values, *range;
    char vpath[YDOC_PATH_MAX];
    ev_status st;
    if ((st = ymap_open(&m, d, node, path, param_keys, err)) != EV_OK)
        return st;
    if (!ymap_get(&m, "name"))
        return ymap_missing(&m, "name",
                            c->type == STRATEGY_ATC ? "an atc parameter name (ema_len, La, ...)"
                                                    : "a seller_exhaustion parameter name (ema_fast, vol_z, ...)",
                            err);
    if ((st = ymap_string(&m, "name", &name, NULL, err)) != EV_OK || (st = ymap_choice(&m, "role", roles, &role, err)))
        goto done;
    for (int k = 0; k < n_lattice; k++)
        if (!strcmp(name, names[k]))
            which = k;
    ymap_path(&m, "name", vpath);
    if (which < 0) {
        char list[512];
        size_t used = 0;
        for (int k = 0; k < n_lattice; k++)
            used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", k ? ", " : "", names[k]);
        st = ydoc_fail(d, err, ymap_get(&m, "name"), vpath,
                       "'%s' is not %s parameter; expected one of %s (fee_bp and slippage_bp are fixed: "
                       "strategy.costs%s)",
                       name, type_name, list, c->type == STRATEGY_ATC ? "; the Pine flags: strategy.pine" : "");
        goto done;
    }
    for (int32_t k = 0; k < c->n_params; k++)
        if (c->params[k].which == which) {
            st = ydoc_fail(d, err, ymap_get(&m, "name"), vpath, "parameter '%s' is given twice", name);
            goto done;
        }
    p->which = which;
    values = ymap_get(&m, "values");
    range = ymap_get(&m, "range");
    if ((values != NULL) == (range != NULL)) {
        st = values ? ydoc_fail(d, err, ymap_key(&m, "range"), path,
                                "parameter '%s': give either 'values' or 'range', not both", name)
                    : ymap_missing(&m, "values", "a list of values, or a range: {start, stop, step}", err);
        goto done;
    }
    if (values) {
        size_t n;
        ymap_path(&m, "values", vpath);
        if ((st = ydoc_get_sequence(d, values, vpath, "a list of numbers", err)) != EV_OK)
            goto done;
        n = ydoc_length(values);
        if (n == 0 || n > 65535) {
            st = ydoc_fail(d, err, values, vpath, "parameter '%s': expected 1 to 65535 values, found %zu", name, n);
            goto done;
        }
        c->n_params++; /* owned from here: freed with the config */
        if ((st = alloc_param(d, p, n, err)) != EV_OK)
            goto done;
        for (size_t i = 0; i < n; i++) {
            yaml_node_t *item = ydoc_item(d, values, i);
            char ipath[YDOC_PATH_MAX];
            const int is_enum = param_is_enum(c->type, which);
            const char *text = is_enum ? ydoc_text(item) : ydoc_number_text(item);
            ydoc_path_index(ipath, vpath, i);
            if (!text) {
                st = ydoc_expected(d, item, ipath, is_enum ? "Narrow, Medium or Wide" : "a number", err);
                goto done;
            }
            if ((st = add_value(d, item, ipath, c->type, p, text, err)) != EV_OK)
                goto done;
        }
    } else {
        ymap_t r;
        yaml_node_t *n3[3];
        decimal_t dv[3];
        decimal_range_t dr;
        ymap_path(&m, "range", vpath);
        if (param_is_enum(c->type, which)) {
            st = ydoc_fail(d, err, range, vpath,
                           "parameter '%s': expected values: [Narrow, Medium, Wide] (a list of "
                           "names), not a range",
                           name);
            goto done;
        }
        if ((st = ymap_open(&r, d, range, vpath, range_keys, err)) != EV_OK)
            goto done;
        for (int k = 0; k < 3; k++) {
            char kp[YDOC_PATH_MAX];
            const char *t;
            n3[k] = ymap_get(&r, range_keys[k]);
            ymap_path(&r, range_keys[k], kp);
            if (!n3[k]) {
                st = ymap_missing(&r, range_keys[k], "a number (range needs start, stop and step)", err);
                goto done;
            }
            t = ydoc_number_text(n3[k]);
            if (!t || decimal_parse(t, &dv[k]) != DECIMAL_OK) {
                st = ydoc_expected(d, n3[k], kp, "an exact decimal number", err);
                goto done;
            }
        }
        if (decimal_range_init(&dr, dv[0], dv[1], dv[2], 65535) != DECIMAL_RANGE_OK) {
            st = ydoc_fail(d, err, range, vpath,
                           "parameter '%s': expected start <= stop, a step > 0 that divides stop - start, and at "
                           "most 65535 values",
                           name);
            goto done;
        }
        c->n_params++;
        if ((st = alloc_param(d, p, dr.count, err)) != EV_OK)
            goto done;
        for (uint64_t i = 0; i < dr.count; i++) {
            char text[DECIMAL_TEXT_MAX];
            decimal_format(decimal_range_at(&dr, i), text);
            if ((st = add_value(d, range, vpath, c->type, p, text, err)) != EV_OK)
                goto done;
        }
    }
done:
    free(name);
    return st;
}

static ev_status parse_bars(ymap_t *s, se_config_t *c, const char *dir, ev_error *err)
{
    ymap_t b;
    int present = 0;
    char *csv = NULL, *market = NULL;
    char path[YDOC_PATH_MAX];
    ev_status st;
    if ((st = ymap_submap(s, "bars", bars_keys, &b, &present, err)) != EV_OK)
        return st;
    if (!present)
        return ymap_missing(s, "bars", "{csv: FILE} or {market_dir: DIR, ticker: T, timeframe: 1m}", err);
    if ((st = ymap_string(&b, "csv", &csv, NULL, err)) != EV_OK ||
        (st = ymap_string(&b, "symbol", &c->symbol, NULL, err)) != EV_OK ||
        (st = ymap_string(&b, "market_dir", &market, NULL, err)) != EV_OK ||
        (st = ymap_string(&b, "ticker", &c->ticker, NULL, err)) != EV_OK ||
        (st = ymap_string(&b, "timeframe", &c->timeframe_txt, NULL, err)) != EV_OK)
        goto done;
    if ((csv != NULL) == (market != NULL)) {
        st = ydoc_fail(b.doc, err, b.node, b.path,
                       "expected exactly one source of bars: csv: FILE, or market_dir: DIR with ticker and timeframe");
        goto done;
    }
    if (csv && (c->ticker || c->timeframe_txt)) {
        st = ydoc_fail(b.doc, err, b.node, b.path, "ticker and timeframe go with market_dir, not csv");
        goto done;
    }
    if (market) {
        if (!c->ticker) {
            st = ymap_missing(&b, "ticker", "the market files' ticker to build bars of", err);
            goto done;
        }
        if (!c->timeframe_txt) {
            st = ymap_missing(&b, "timeframe", "a timeframe: 1s..1d dividing a day (10s, 1m, 15m, 1h, 1d)", err);
            goto done;
        }
        if (c->symbol) {
            st = ydoc_fail(b.doc, err, b.node, b.path, "symbol goes with csv; market files name a ticker");
            goto done;
        }
        c->timeframe = bars_parse_timeframe(c->timeframe_txt);
        if (!c->timeframe) {
            ymap_path(&b, "timeframe", path);
            st = ydoc_expected(b.doc, ymap_get(&b, "timeframe"), path,
                               "a timeframe dividing a day: 1s..1d, e.g. 10s, 1m, 15m, 1h, 1d", err);
            goto done;
        }
        c->market_dir = plat_path_join(dir, market);
    } else
        c->bars_csv = plat_path_join(dir, csv);
    if (!c->market_dir && !c->bars_csv)
        st = ev_fail(err, EV_ENOMEM, "out of memory");
done:
    free(csv);
    free(market);
    return st;
}

/* strategy.pine: atc's Pine-parity flags (docs/signals-spec.md sec. 2.3, 2.5, 2.7). */
static ev_status parse_pine(ymap_t *s, se_config_t *c, ev_error *err)
{
    ymap_t pm;
    int present = 0;
    ev_status st;
    if ((st = ymap_submap(s, "pine", pine_keys, &pm, &present, err)) != EV_OK || !present)
        return st;
    if (c->type != STRATEGY_ATC)
        return ydoc_fail(pm.doc, err, pm.node, pm.path, "the Pine flags belong to strategy atc");
    for (int k = 0; pine_keys[k]; k++)
        if ((st = ymap_bool(&pm, pine_keys[k], &c->pine[k], err)) != EV_OK)
            return st;
    return EV_OK;
}

/* strategy.session: {flat_at_close}: every position closed at its session's
 * last bar (docs/signals.md "Sessions"); absent: held overnight, as the
 * sources do. */
static ev_status parse_session(ymap_t *s, se_config_t *c, ev_error *err)
{
    ymap_t sm;
    int present = 0;
    ev_status st = ymap_submap(s, "session", session_keys, &sm, &present, err);
    return st != EV_OK || !present ? st : ymap_bool(&sm, "flat_at_close", &c->flat_at_close, err);
}

ev_status se_config_load(const char *path, se_config_t *c, ev_error *err)
{
    char *text = NULL, *dir = NULL;
    size_t len;
    ydoc_t d;
    ymap_t root, s, costs;
    int type = 0, present = 0;
    yaml_node_t *seq;
    ev_status st;
    const ybounds_t bp = {0, 10000, 0, 0};
    memset(c, 0, sizeof *c);
    c->fee_bp = 5;
    c->slippage_bp = 5;
    if ((st = config_read_text(path, &text, &len, err)) != EV_OK)
        return st;
    if ((st = ydoc_load(&d, path, text, len, err)) != EV_OK) {
        free(text);
        return st;
    }
    dir = plat_dirname(path);
    c->path = ev_strdup(path);
    if (!dir || !c->path) {
        st = ev_fail(err, EV_ENOMEM, "out of memory");
        goto done;
    }
    if (!ydoc_root(&d)) {
        st = ev_fail(err, EV_ECONFIG, "%s: the config is empty; expected strategy: and parameters:", path);
        goto done;
    }
    if ((st = ymap_open(&root, &d, ydoc_root(&d), "", root_keys, err)) != EV_OK ||
        (st = ymap_submap(&root, "strategy", strategy_keys, &s, &present, err)) != EV_OK)
        goto done;
    if (!present) {
        st = ymap_missing(&root, "strategy", "{type: seller_exhaustion, bars: {...}, costs: {...}}", err);
        goto done;
    }
    if (!ymap_get(&s, "type")) {
        st = ymap_missing(&s, "type", "seller_exhaustion", err);
        goto done;
    }
    if ((st = ymap_choice(&s, "type", types, &type, err)) != EV_OK)
        goto done;
    if (type == 1) {
        char tp[YDOC_PATH_MAX];
        ymap_path(&s, "type", tp);
        st = ydoc_fail(&d, err, ymap_get(&s, "type"), tp,
                       "a trade_log config has no strategy block: use data: (docs/config.md)");
        goto done;
    }
    c->type = type;
    if ((st = parse_bars(&s, c, dir, err)) != EV_OK ||
        (st = ymap_submap(&s, "costs", costs_keys, &costs, &present, err)) != EV_OK)
        goto done;
    if ((st = parse_pine(&s, c, err)) != EV_OK || (st = parse_session(&s, c, err)) != EV_OK)
        goto done;
    if (present && ((st = ymap_number(&costs, "fee_bp", bp, &c->fee_bp, err)) != EV_OK ||
                    (st = ymap_number(&costs, "slippage_bp", bp, &c->slippage_bp, err)) != EV_OK))
        goto done;
    seq = ymap_get(&root, "parameters");
    if (!seq) {
        st = ymap_missing(&root, "parameters", "a list of parameters ({name, values or range})", err);
        goto done;
    }
    if ((st = ydoc_get_sequence(&d, seq, "parameters", "a list of parameters ({name, values or range})", err)) != EV_OK)
        goto done;
    if (ydoc_length(seq) > (size_t)(type == STRATEGY_ATC ? ATC_LATTICE_PARAMS : SE_LATTICE_PARAMS)) {
        st = ydoc_fail(&d, err, seq, "parameters", "expected at most %d parameters, found %zu",
                       type == STRATEGY_ATC ? ATC_LATTICE_PARAMS : SE_LATTICE_PARAMS, ydoc_length(seq));
        goto done;
    }
    for (size_t i = 0; i < ydoc_length(seq); i++) {
        char ip[YDOC_PATH_MAX];
        ydoc_path_index(ip, "parameters", i);
        if ((st = parse_param(&d, ydoc_item(&d, seq, i), ip, c, err)) != EV_OK)
            goto done;
    }
done:
    ydoc_free(&d);
    free(text);
    free(dir);
    if (st != EV_OK)
        se_config_free(c);
    return st;
}

ev_status se_config_load_bars(const se_config_t *c, bars_t *b, ev_error *err)
{
    ev_status st = c->bars_csv ? bars_read_csv(c->bars_csv, c->symbol, b, err)
                               : bars_from_market(c->market_dir, c->ticker, c->timeframe, b, err);
    if (st != EV_OK)
        ev_error_prefix(err, "%s: strategy.bars: ", c->path);
    return st;
}

static double param_value(const se_params_t *p, int which)
{
    switch (which) {
    case 0: return p->ema_fast;
    case 1: return p->ema_slow;
    case 2: return p->z_window;
    case 3: return p->atr_window;
    case 4: return p->vol_z;
    case 5: return p->tr_z;
    case 6: return p->cloc_min;
    case 7: return p->atr_stop_mult;
    case 8: return p->reward_r;
    default: return p->max_hold;
    }
}

ev_status se_config_open_bound(const char *path, const lattice_t *lat, se_config_bound_t *b, ev_error *err)
{
    const char *const *names;
    ev_status st;
    memset(b, 0, sizeof *b);
    if ((st = se_config_load(path, &b->cfg, err)) != EV_OK)
        return st;
    names = param_names(b->cfg.type, NULL);
    b->n_genes = lat->n_params;
    for (int32_t k = 0; k < lat->n_params; k++) {
        const se_lattice_param_t *cp = NULL;
        for (int32_t j = 0; j < b->cfg.n_params; j++)
            if (!strcmp(lat->params[k].name, names[b->cfg.params[j].which]))
                cp = &b->cfg.params[j];
        if (!cp || cp->n_values != lat->params[k].n_values) {
            st = ev_fail(err, EV_EINTERNAL, "%s: parameter '%s' is not the strategy's lattice parameter", path,
                         lat->params[k].name);
            se_config_free(&b->cfg);
            return st;
        }
        b->which[k] = cp->which;
        b->values[k] = cp->values;
    }
    if ((st = se_config_load_bars(&b->cfg, &b->bars, err)) != EV_OK)
        se_config_free(&b->cfg);
    return st;
}

ev_status se_config_pin(se_config_bound_t *b, const double *point, ev_error *err)
{
    const char *const *names = param_names(b->cfg.type, NULL);
    for (int32_t k = 0; k < b->n_genes; k++) {
        const int which = b->which[k];
        const char *why;
        int lo;
        double v = point[k];
        if (param_is_enum(b->cfg.type, which)) {
            const se_lattice_param_t *cp = NULL;
            for (int32_t j = 0; j < b->cfg.n_params; j++)
                if (b->cfg.params[j].which == which)
                    cp = &b->cfg.params[j];
            if (!(v >= 0 && cp && v < cp->n_values && v == floor(v)))
                return ev_fail(err, EV_EINTERNAL, "%s: baseline.%s: no listed name at %g", b->cfg.path, names[which],
                               v);
            v = cp->values[(uint32_t)v]; /* the strategy's own value of that name */
        } else if ((why = value_problem(b->cfg.type, which, v, &lo)) != NULL) {
            return ev_fail(err, EV_ECONFIG, "%s: key 'baseline.%s': %s %d..100000000, found %.17g", b->cfg.path,
                           names[which], why, lo, v); /* finite: config_load checked */
        }
        b->pinned[k] = v;
        b->values[k] = &b->pinned[k];
    }
    return EV_OK;
}

void se_config_close_bound(se_config_bound_t *b)
{
    bars_free(&b->bars);
    se_config_free(&b->cfg);
}

static double se_value(const void *genome, int which)
{
    return param_value((const se_params_t *)genome, which);
}

ev_status se_config_check_lattice(const se_config_t *c, double (*get)(const void *genome, int which),
                                  const void *genome, ev_error *err)
{
    const char *const *names = param_names(c->type, NULL);
    for (int32_t k = 0; k < c->n_params; k++) {
        const se_lattice_param_t *lp = &c->params[k];
        const double v = get(genome, lp->which);
        int on = 0;
        for (uint32_t i = 0; i < lp->n_values && !on; i++)
            on = lp->values[i] == v;
        if (!on) {
            char list[256];
            if (lp->n_values <= 8) {
                size_t used = 0;
                list[0] = '\0';
                for (uint32_t i = 0; i < lp->n_values && used < sizeof list; i++)
                    used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "", lp->value_text[i]);
            } else
                snprintf(list, sizeof list, "%s, %s, ..., %s (%u values)", lp->value_text[0], lp->value_text[1],
                         lp->value_text[lp->n_values - 1], (unsigned)lp->n_values);
            return ev_fail(err, EV_EUSAGE,
                           "%s = %.17g is not on the lattice of %s (%s): give --set %s=VALUE with one of its values",
                           names[lp->which], v, c->path, list, names[lp->which]);
        }
    }
    return EV_OK;
}

ev_status se_config_check(const se_config_t *c, const se_params_t *p, ev_error *err)
{
    ev_status st = se_config_check_lattice(c, se_value, p, err);
    return st != EV_OK ? st : se_params_check(p, err);
}

void se_config_base(const se_config_t *c, se_params_t *p)
{
    se_params_defaults(p);
    p->fee_bp = c->fee_bp;
    p->slippage_bp = c->slippage_bp;
    p->flat_at_close = c->flat_at_close;
}
