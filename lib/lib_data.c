/* libevolve: datasets, lattices and batch evaluation. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runs/backend_registry.h"
#include "common/shortest.h"
#include "common/strutil.h"
#include "fitness/objective_prep.h"
#include "io/config.h"
#include "io/dataset_h5.h"
#include "io/dataset_source.h"
#include "io/ingest.h"
#include "common/platform.h"
#include "lib/lib_core.h"

static const char *const default_tickers[] = {"SOXL", "IONQ", "MARA"};

/* ---- datasets ---- */

static int dataset_new(evolve_ctx *ctx, evolve_dataset **out, evolve_dataset **d)
{
    if (!ctx || !out)
        return lib_usage(ctx, "evolve_dataset: NULL context or output");
    *out = NULL;
    if (!(*d = (evolve_dataset *)calloc(1, sizeof **d))) {
        ev_error e;
        return lib_result(ctx, ev_fail(&e, EV_ENOMEM, "out of memory"), &e);
    }
    (*d)->refs = 1;
    return EVOLVE_OK;
}

static int dataset_done(evolve_ctx *ctx, evolve_dataset *d, evolve_dataset **out, ev_status st, const ev_error *e)
{
    if (st != EV_OK) {
        dataset_free(&d->ds);
        free(d);
        return lib_result(ctx, st, e);
    }
    *out = d;
    return lib_result(ctx, EV_OK, e);
}

EVOLVE_API int evolve_dataset_from_csv(evolve_ctx *ctx, const char *market_dir, const char *trades_csv,
                                       const char *const *tickers, size_t n_tickers, const char *const *features,
                                       size_t n_features, evolve_dataset **out)
{
    evolve_dataset *d;
    ingest_opts_t o;
    ev_error e;
    int rc = dataset_new(ctx, out, &d);
    if (rc)
        return rc;
    if (!market_dir || !trades_csv) {
        free(d);
        return lib_usage(ctx, "evolve_dataset_from_csv: market_dir and trades_csv are required");
    }
    memset(&o, 0, sizeof o);
    o.market_dir = market_dir;
    o.trades_path = trades_csv;
    o.tickers = tickers && n_tickers ? tickers : default_tickers;
    o.n_tickers = tickers && n_tickers ? (int32_t)n_tickers : 3;
    o.extra_features = features;
    o.n_extra_features = features ? (int32_t)n_features : 0;
    return dataset_done(ctx, d, out, ingest_build(&o, &d->ds, &e), &e);
}

static int locked_dataset_from_h5(evolve_ctx *ctx, const char *path, evolve_dataset **out)
{
    evolve_dataset *d;
    ev_error e;
    int rc = dataset_new(ctx, out, &d);
    if (rc)
        return rc;
    if (!path) {
        free(d);
        return lib_usage(ctx, "evolve_dataset_from_h5: NULL path");
    }
    return dataset_done(ctx, d, out, dataset_read_h5(path, &d->ds, &e), &e);
}

static int locked_dataset_from_config(evolve_ctx *ctx, const char *config_path, evolve_dataset **out)
{
    evolve_dataset *d;
    config_t cfg;
    ev_error e;
    ev_status st;
    int rc = dataset_new(ctx, out, &d);
    if (rc)
        return rc;
    if (!config_path) {
        free(d);
        return lib_usage(ctx, "evolve_dataset_from_config: NULL path");
    }
    if ((st = config_load(config_path, &cfg, &e)) == EV_OK) {
        st = dataset_obtain(&cfg, &d->ds, NULL, &e);
        config_free(&cfg);
    }
    return dataset_done(ctx, d, out, st, &e);
}

EVOLVE_API void evolve_dataset_close(evolve_dataset *ds)
{
    lib_dataset_release(ds);
}

EVOLVE_API int evolve_dataset_trades(evolve_ctx *ctx, const evolve_dataset *d, evolve_trades *out)
{
    if (!d || !out)
        return lib_usage(ctx, "evolve_dataset_trades: NULL dataset or output");
    memset(out, 0, sizeof *out);
    out->n_trades = d->ds.n_trades;
    out->n_tickers = d->ds.n_tickers;
    out->tickers = (const char *const *)d->ds.tickers;
    out->ticker = d->ds.ticker;
    out->trade_id = d->ds.trade_id;
    out->entry_ts = d->ds.entry_ts;
    out->exit_ts = d->ds.exit_ts;
    out->entry_price = d->ds.entry_price;
    out->pct_change = d->ds.pct_change;
    out->n_features = d->ds.n_features;
    out->feature_names = (const char *const *)d->ds.feature_names;
    out->features = d->ds.features;
    out->n_prices = d->ds.n_prices;
    out->content_hash = d->ds.content_hash;
    return lib_result(ctx, EV_OK, NULL);
}

/* ---- lattices ---- */

static evolve_lattice *lattice_new(void)
{
    return (evolve_lattice *)calloc(1, sizeof(evolve_lattice));
}

EVOLVE_API void evolve_lattice_close(evolve_lattice *l)
{
    if (!l)
        return;
    lattice_free(&l->lat);
    free(l->yaml);
    free(l->name);
    free(l->objective_yaml);
    free(l);
}

EVOLVE_API int evolve_lattice_from_yaml(evolve_ctx *ctx, const char *yaml, const char *name, evolve_lattice **out)
{
    evolve_lattice *l;
    ev_error e;
    ev_status st;
    if (!ctx || !yaml || !out)
        return lib_usage(ctx, "evolve_lattice_from_yaml: NULL context, text or output");
    *out = NULL;
    if (!name)
        name = "<lattice>";
    if (!(l = lattice_new()) || !(l->yaml = ev_strdup(yaml)) || !(l->name = ev_strdup(name))) {
        evolve_lattice_close(l);
        return lib_result(ctx, ev_fail(&e, EV_ENOMEM, "out of memory"), &e);
    }
    if ((st = config_parse_blocks(name, yaml, &l->lat, &l->obj, &e)) != EV_OK) {
        evolve_lattice_close(l);
        return lib_result(ctx, st, &e);
    }
    *out = l;
    return lib_result(ctx, EV_OK, NULL);
}

EVOLVE_API int evolve_lattice_set_objective(evolve_ctx *ctx, evolve_lattice *l, const char *yaml)
{
    objective_cfg_t obj;
    char *copy;
    ev_error e;
    ev_status st;
    if (!l || !yaml)
        return lib_usage(ctx, "evolve_lattice_set_objective: NULL lattice or text");
    if ((st = config_parse_blocks("objective", yaml, NULL, &obj, &e)) != EV_OK)
        return lib_result(ctx, st, &e);
    if (!(copy = ev_strdup(yaml)))
        return lib_result(ctx, ev_fail(&e, EV_ENOMEM, "out of memory"), &e);
    free(l->objective_yaml);
    l->objective_yaml = copy;
    l->obj = obj;
    return lib_result(ctx, EV_OK, NULL);
}

/* Appends to a growing string; 0 when out of memory. */
typedef struct {
    char *s;
    size_t n, cap;
} sbuf_t;

static int sb_add(sbuf_t *b, const char *fmt, ...) EV_PRINTF(2, 3);
static int sb_add(sbuf_t *b, const char *fmt, ...)
{
    va_list ap;
    int len;
    va_start(ap, fmt);
    len = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (len < 0)
        return 0;
    if (b->n + (size_t)len + 1 > b->cap) {
        size_t cap = (b->cap ? b->cap * 2 : 1024) + (size_t)len;
        char *s = (char *)realloc(b->s, cap);
        if (!s)
            return 0;
        b->s = s;
        b->cap = cap;
    }
    va_start(ap, fmt);
    vsnprintf(b->s + b->n, b->cap - b->n, fmt, ap);
    va_end(ap);
    b->n += (size_t)len;
    return 1;
}

/* A JSON string (valid YAML flow scalar). */
static int sb_quoted(sbuf_t *b, const char *s)
{
    int ok = sb_add(b, "\"");
    for (; ok && *s; s++)
        ok = (*s == '"' || *s == '\\')    ? sb_add(b, "\\%c", *s)
             : ((unsigned char)*s < 0x20) ? sb_add(b, "\\u%04x", (unsigned)(unsigned char)*s)
                                          : sb_add(b, "%c", *s);
    return ok && sb_add(b, "\"");
}

/* The shortest text that reads back as v (YAML's spelling when not finite). */
static int sb_number(sbuf_t *b, double v)
{
    char buf[EV_SHORTEST_MAX];
    if (!isfinite(v))
        return sb_add(b, "%s", v != v ? ".nan" : v > 0 ? ".inf" : "-.inf");
    return sb_add(b, "%s", ev_shortest(buf, sizeof buf, v));
}

EVOLVE_API int evolve_lattice_from_values(evolve_ctx *ctx, const evolve_param *params, size_t n_params,
                                          const char *objective_yaml, evolve_lattice **out)
{
    sbuf_t b = {0};
    int ok, rc;
    if (!ctx || !out || (n_params && !params))
        return lib_usage(ctx, "evolve_lattice_from_values: NULL context, parameters or output");
    ok = sb_add(&b, "parameters:\n");
    for (size_t i = 0; ok && i < n_params; i++) {
        const evolve_param *p = &params[i];
        ok = sb_add(&b, "  - {name: ") && sb_quoted(&b, p->name ? p->name : "");
        if (ok && p->role)
            ok = sb_add(&b, ", role: ") && sb_quoted(&b, p->role);
        if (ok && p->feature)
            ok = sb_add(&b, ", feature: ") && sb_quoted(&b, p->feature);
        if (ok && p->direction)
            ok = sb_add(&b, ", direction: ") && sb_quoted(&b, p->direction);
        ok = ok && sb_add(&b, ", values: [");
        for (size_t k = 0; ok && k < p->n_values; k++)
            ok = (!k || sb_add(&b, ", ")) && /* +inf: an exit's off (SPEC sec. 4.1) */
                 (p->values[k] == HUGE_VAL ? sb_add(&b, "off") : sb_number(&b, p->values[k]));
        ok = ok && sb_add(&b, "]}\n");
    }
    if (!ok) {
        ev_error e;
        free(b.s);
        return lib_result(ctx, ev_fail(&e, EV_ENOMEM, "out of memory"), &e);
    }
    rc = evolve_lattice_from_yaml(ctx, b.s, "<lattice from values>", out);
    free(b.s);
    if (rc == EVOLVE_OK && objective_yaml && (rc = evolve_lattice_set_objective(ctx, *out, objective_yaml))) {
        evolve_lattice_close(*out);
        *out = NULL;
    }
    return rc;
}

EVOLVE_API int evolve_lattice_n_params(const evolve_lattice *l)
{
    return l ? l->lat.n_params : 0;
}

EVOLVE_API int evolve_lattice_param(evolve_ctx *ctx, const evolve_lattice *l, int i, const char **name,
                                    const char **role, const char **feature, uint32_t *n_values)
{
    const param_t *p;
    if (!l || i < 0 || i >= l->lat.n_params)
        return lib_usage(ctx, "evolve_lattice_param: NULL lattice or parameter out of range");
    p = &l->lat.params[i];
    if (name)
        *name = p->name;
    if (role)
        *role = param_role_name(p->role);
    if (feature)
        *feature = p->feature ? p->feature : "";
    if (n_values)
        *n_values = p->n_values;
    return lib_result(ctx, EV_OK, NULL);
}

EVOLVE_API int evolve_lattice_values(evolve_ctx *ctx, const evolve_lattice *l, int i, double *values)
{
    if (!l || !values || i < 0 || i >= l->lat.n_params)
        return lib_usage(ctx, "evolve_lattice_values: NULL lattice or output, or parameter out of range");
    memcpy(values, l->lat.params[i].values, l->lat.params[i].n_values * sizeof *values);
    return lib_result(ctx, EV_OK, NULL);
}

EVOLVE_API uint64_t evolve_lattice_size(const evolve_lattice *l)
{
    return l && l->lat.size_fits ? l->lat.size : 0;
}

EVOLVE_API const char *evolve_lattice_objective(const evolve_lattice *l)
{
    return l ? objective_name((objective_kind)l->obj.kind) : "";
}

/* ---- evaluation ---- */

EVOLVE_API void evolve_evaluator_close(evolve_evaluator *v)
{
    if (!v)
        return;
    if (v->backend)
        v->ops->close(v->backend);
    tables_free(&v->tables);
    problem_free(&v->prob);
    lattice_free(&v->lat);
    lib_dataset_release(v->ds);
    free(v);
}

EVOLVE_API int evolve_evaluator_open(evolve_ctx *ctx, evolve_dataset *ds, const evolve_lattice *l, const char *backend,
                                     evolve_evaluator **out)
{
    evolve_evaluator *v;
    objective_cfg_t obj;
    ev_error e;
    ev_status st;
    if (!ctx || !ds || !l || !out)
        return lib_usage(ctx, "evolve_evaluator_open: NULL context, dataset, lattice or output");
    *out = NULL;
    if (!l->yaml)
        return lib_usage(ctx,
                         "evolve_evaluator_open: a run file's lattice only names the parameters; read the "
                         "config with evolve_lattice_from_yaml to evaluate");
    if (!(v = (evolve_evaluator *)calloc(1, sizeof *v)))
        return lib_result(ctx, ev_fail(&e, EV_ENOMEM, "out of memory"), &e);
    v->ds = ds;
    v->ds->refs++;
    /* A copy of the lattice of its own: binding writes the feature indices. */
    st = backend_find(backend ? backend : "auto", &v->ops, &e);
    if (st == EV_OK)
        st = config_parse_blocks(l->name, l->yaml, &v->lat, &v->obj, &e);
    if (st == EV_OK && l->objective_yaml)
        st = config_parse_blocks("objective", l->objective_yaml, NULL, &obj, &e);
    if (st == EV_OK && l->objective_yaml)
        v->obj = obj;
    if (st == EV_OK && ds->ds.n_trades == 0)
        st = ev_fail(&e, EV_EDATA, "the dataset has no trade to evaluate");
    if (st == EV_OK && (st = lattice_bind(&v->lat, &v->ds->ds, &e)) != EV_OK)
        ev_error_prefix(&e, "%s: ", l->name);
    if (st == EV_OK)
        st = problem_init(&v->prob, &v->ds->ds, &v->lat, &v->obj, &e);
    if (st == EV_OK)
        st = tables_build(&v->tables, &v->prob, &e);
    if (st == EV_OK)
        st = v->ops->open(&v->backend, &v->prob, &v->tables, &e);
    if (st != EV_OK) {
        evolve_evaluator_close(v);
        return lib_result(ctx, st, &e);
    }
    v->ops->describe(v->backend, v->device, sizeof v->device);
    *out = v;
    return lib_result(ctx, EV_OK, NULL);
}

EVOLVE_API const char *evolve_evaluator_device(const evolve_evaluator *v)
{
    return v ? v->device : "";
}

/* Genomes per backend call: bounds the result buffer. */
#define LIB_EVAL_CHUNK (UINT64_C(1) << 20)

EVOLVE_API int evolve_evaluate(evolve_ctx *ctx, evolve_evaluator *v, const uint16_t *genes, uint64_t n,
                               double *fitness_raw, double *fitness, int64_t *trades, uint8_t *feasible)
{
    int32_t k, np;
    eval_result_t *res;
    uint16_t *chunk = NULL;
    ev_error e;
    ev_status st = EV_OK;
    if (!ctx || !v || (n && !genes))
        return lib_usage(ctx, "evolve_evaluate: NULL context, evaluator or genes");
    np = v->lat.n_params;
    /* every gene on the lattice, before anything is evaluated */
    for (k = 0; k < np; k++) {
        const uint16_t *g = genes + (uint64_t)k * n;
        uint32_t nv = v->lat.params[k].n_values;
        for (uint64_t i = 0; i < n; i++)
            if (g[i] >= nv)
                return lib_result(ctx,
                                  ev_fail(&e, EV_EUSAGE,
                                          "genome %llu: gene %d (%s) is %u; the parameter has %u values (0..%u)",
                                          (unsigned long long)i, k, v->lat.params[k].name, (unsigned)g[i], (unsigned)nv,
                                          (unsigned)nv - 1),
                                  &e);
    }
    if (n == 0)
        return lib_result(ctx, EV_OK, NULL);
    {
        uint64_t c = n < LIB_EVAL_CHUNK ? n : LIB_EVAL_CHUNK;
        res = (eval_result_t *)malloc(c * sizeof *res);
        if (res && c < n)
            chunk = (uint16_t *)malloc(c * (size_t)np * sizeof *chunk);
        if (!res || (c < n && !chunk)) {
            free(res);
            return lib_result(ctx, ev_fail(&e, EV_ENOMEM, "out of memory"), &e);
        }
    }
    for (uint64_t first = 0; st == EV_OK && first < n; first += LIB_EVAL_CHUNK) {
        uint64_t c = n - first < LIB_EVAL_CHUNK ? n - first : LIB_EVAL_CHUNK;
        const uint16_t *g = genes;
        if (c < n || first) {
            /* SoA of this chunk */
            for (k = 0; k < np; k++)
                memcpy(chunk + (uint64_t)k * c, genes + (uint64_t)k * n + first, c * sizeof *chunk);
            g = chunk;
        }
        if ((st = v->ops->evaluate(v->backend, g, c, res, &e)) != EV_OK)
            break;
        for (uint64_t i = 0; i < c; i++) {
            if (fitness_raw)
                fitness_raw[first + i] = res[i].fitness;
            if (fitness)
                fitness[first + i] = objective_display(&v->obj, res[i].fitness);
            if (trades)
                trades[first + i] = res[i].trades;
            if (feasible)
                feasible[first + i] = (uint8_t)(res[i].feasible != 0);
        }
    }
    free(res);
    free(chunk);
    return lib_result(ctx, st, &e);
}

/* ---- the exported calls: HDF5 is entered by one thread at a time (common/platform.h) ---- */

EVOLVE_API int evolve_dataset_from_h5(evolve_ctx *ctx, const char *path, evolve_dataset **out)
{
    int rc_;
    plat_hdf5_lock();
    rc_ = locked_dataset_from_h5(ctx, path, out);
    plat_hdf5_unlock();
    return rc_;
}

EVOLVE_API int evolve_dataset_from_config(evolve_ctx *ctx, const char *config_path, evolve_dataset **out)
{
    int rc_;
    plat_hdf5_lock();
    rc_ = locked_dataset_from_config(ctx, config_path, out);
    plat_hdf5_unlock();
    return rc_;
}
