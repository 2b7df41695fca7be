#include "tests/support/planted.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fitness/hits.h"
#include "tests/support/builder.h"

enum { KIND_GOOD, KIND_DIP, KIND_CRASH, KIND_BAD, KIND_NOISE };

#define MAX_PATH 4

typedef struct {
    const planted_opts_t *o;
    uint64_t rng;
    uint32_t tight[EV_MAX_PARAMS]; /* planted tightness per filter (the gene, mirrored for max) */
    uint32_t t_star, s_star;       /* planted target and stop indices */
    double *targets, *stops;       /* their values, percent */
} plant_t;

void planted_defaults(planted_opts_t *o)
{
    memset(o, 0, sizeof *o);
    o->n_filters = 5;
    o->n_values = 12;
    o->n_targets = 8;
    o->n_stops = 8;
    o->good = 300;
    o->dip = 60;
    o->crash = 60;
    o->bad_per_filter = 40;
    o->noise = 200;
    o->seed = 7;
}

int64_t planted_trades(const planted_opts_t *o)
{
    return o->good + o->dip + o->crash + o->bad_per_filter * o->n_filters + o->noise;
}

static void *must_alloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    if (!p) {
        fprintf(stderr, "planted: out of memory\n");
        exit(2);
    }
    return p;
}

static uint32_t rand_in(plant_t *pl, uint32_t lo, uint32_t hi) /* [lo, hi] */
{
    return lo + (uint32_t)(tb_rand(&pl->rng) % (uint64_t)(hi - lo + 1));
}

/* Feature value of a trade whose tightness on filter f is l: kept by genes
 * of tightness <= l. min filters keep x >= v, so x = l; max keep x <= v. */
static double feature_for(const plant_t *pl, int32_t f, uint32_t l)
{
    return f == 1 ? (double)(pl->o->n_values - 1 - l) : (double)l;
}

/* The path (prices after the entry) and logged percent of one trade. */
static int32_t trade_path(plant_t *pl, int kind, double e, float *path, double *pct)
{
    int32_t n = 0;
    path[n++] = (float)e;
    switch (kind) {
    case KIND_GOOD:
        path[n++] = level_price(e, pl->targets[pl->t_star]);
        path[n++] = (float)(e * 0.99);
        *pct = -1.0;
        break;
    case KIND_DIP:
        path[n++] = level_price(e, pl->stops[pl->s_star + 1]);
        path[n++] = level_price(e, pl->targets[pl->t_star]);
        path[n++] = (float)(e * 1.002);
        *pct = 0.2;
        break;
    case KIND_NOISE: *pct = (double)((int64_t)(tb_rand(&pl->rng) % 61) - 30) / 100.0; break;
    default: /* crash, bad */
        path[n++] = (float)(e * 0.95);
        *pct = -5.0;
        break;
    }
    return n;
}

static void build_lattice(plant_t *pl, lattice_t *lat, const dataset_t *ds, uint16_t *optimum)
{
    const planted_opts_t *o = pl->o;
    double *v = (double *)must_alloc(o->n_values, sizeof *v);
    memset(lat, 0, sizeof *lat);
    for (uint32_t i = 0; i < o->n_values; i++)
        v[i] = (double)i;
    for (int32_t f = 0; f < o->n_filters; f++) {
        char name[16];
        snprintf(name, sizeof name, "f%d", f);
        tb_param(lat, name, PARAM_FILTER, f == 1 ? FILTER_MAX : FILTER_MIN, ds->feature_names[f], v, o->n_values);
        optimum[f] = (uint16_t)(f == 1 ? o->n_values - 1 - pl->tight[f] : pl->tight[f]);
    }
    tb_param(lat, "target", PARAM_TARGET, FILTER_MIN, NULL, pl->targets, o->n_targets);
    tb_param(lat, "stop", PARAM_STOP, FILTER_MIN, NULL, pl->stops, o->n_stops);
    optimum[o->n_filters] = (uint16_t)pl->t_star;
    optimum[o->n_filters + 1] = (uint16_t)pl->s_star;
    tb_lattice_done(lat, ds);
    free(v);
}

/* Kinds in a shuffled order (the equity curve interleaves them). */
static int *trade_kinds(plant_t *pl, int64_t n, int32_t **bad_filter)
{
    const planted_opts_t *o = pl->o;
    int *kind = (int *)must_alloc((size_t)n, sizeof *kind);
    int32_t *bf = (int32_t *)must_alloc((size_t)n, sizeof *bf);
    int64_t j = 0;
    for (int64_t i = 0; i < o->good; i++)
        kind[j++] = KIND_GOOD;
    for (int64_t i = 0; i < o->dip; i++)
        kind[j++] = KIND_DIP;
    for (int64_t i = 0; i < o->crash; i++)
        kind[j++] = KIND_CRASH;
    for (int32_t f = 0; f < o->n_filters; f++)
        for (int64_t i = 0; i < o->bad_per_filter; i++) {
            bf[j] = f;
            kind[j++] = KIND_BAD;
        }
    for (int64_t i = 0; i < o->noise; i++)
        kind[j++] = KIND_NOISE;
    for (int64_t i = n - 1; i > 0; i--) {
        int64_t r = (int64_t)(tb_rand(&pl->rng) % (uint64_t)(i + 1));
        int tk = kind[i];
        int32_t tf = bf[i];
        kind[i] = kind[r];
        kind[r] = tk;
        bf[i] = bf[r];
        bf[r] = tf;
    }
    *bad_filter = bf;
    return kind;
}

static void alloc_trades(dataset_t *ds, int64_t n)
{
    size_t m = (size_t)n;
    ds->n_trades = n;
    ds->ticker = (int32_t *)must_alloc(m, sizeof(int32_t));
    ds->trade_id = (int64_t *)must_alloc(m, sizeof(int64_t));
    ds->source_row = (int64_t *)must_alloc(m, sizeof(int64_t));
    ds->entry_ts = (int64_t *)must_alloc(m, sizeof(int64_t));
    ds->exit_ts = (int64_t *)must_alloc(m, sizeof(int64_t));
    ds->start = (int64_t *)must_alloc(m, sizeof(int64_t));
    ds->end = (int64_t *)must_alloc(m, sizeof(int64_t));
    ds->entry_price = (double *)must_alloc(m, sizeof(double));
    ds->pct_change = (double *)must_alloc(m, sizeof(double));
    ds->features = (double *)must_alloc(m * (size_t)ds->n_features, sizeof(double));
    ds->price = (float *)must_alloc(m * MAX_PATH, sizeof(float));
    ds->ts = (int64_t *)must_alloc(m * MAX_PATH, sizeof(int64_t));
}

static void fill_trades(plant_t *pl, dataset_t *ds)
{
    const planted_opts_t *o = pl->o;
    int64_t n = ds->n_trades, at = 0, t = 1700000000;
    int32_t *bad_filter;
    int *kind = trade_kinds(pl, n, &bad_filter);
    for (int64_t j = 0; j < n; j++) {
        double e = 20.0 + (double)(tb_rand(&pl->rng) % 6000) / 100.0;
        int32_t len = trade_path(pl, kind[j], e, ds->price + at, &ds->pct_change[j]);
        for (int32_t f = 0; f < o->n_filters; f++) {
            uint32_t l;
            if (kind[j] == KIND_NOISE)
                l = rand_in(pl, 0, o->n_values - 1);
            else if (kind[j] == KIND_BAD && bad_filter[j] == f)
                l = rand_in(pl, 0, pl->tight[f] - 1);
            else
                l = rand_in(pl, pl->tight[f], o->n_values - 1);
            ds->features[(size_t)f * (size_t)n + (size_t)j] = feature_for(pl, f, l);
        }
        ds->trade_id[j] = j + 1;
        ds->source_row[j] = j + 2;
        ds->entry_price[j] = e;
        ds->start[j] = at;
        for (int32_t i = 0; i < len; i++)
            ds->ts[at + i] = t + i;
        ds->entry_ts[j] = t;
        ds->exit_ts[j] = t + len - 1;
        ds->end[j] = at + len;
        at += len;
        t += 100;
    }
    ds->n_prices = at;
    ds->ticker_begin[0] = 0;
    ds->ticker_end[0] = at;
    free(kind);
    free(bad_filter);
}

void planted_build(const planted_opts_t *o, dataset_t *ds, lattice_t *lat, uint16_t *optimum)
{
    static const char *const tick[] = {"PLNT"};
    char names[EV_MAX_PARAMS][16];
    const char *fnames[EV_MAX_PARAMS];
    plant_t pl;
    memset(&pl, 0, sizeof pl);
    pl.o = o;
    pl.rng = o->seed;
    for (int32_t f = 0; f < o->n_filters; f++) {
        snprintf(names[f], sizeof names[f], "F%d", f);
        fnames[f] = names[f];
        pl.tight[f] = rand_in(&pl, 2, o->n_values - 3);
    }
    pl.targets = (double *)must_alloc(o->n_targets, sizeof(double));
    pl.stops = (double *)must_alloc(o->n_stops, sizeof(double));
    for (uint32_t i = 0; i < o->n_targets; i++)
        pl.targets[i] = 0.4 * (double)(i + 1);
    for (uint32_t i = 0; i < o->n_stops; i++)
        pl.stops[i] = -0.4 * (double)(o->n_stops - i);
    pl.t_star = rand_in(&pl, 2, o->n_targets - 2);
    pl.s_star = rand_in(&pl, 1, o->n_stops - 2);
    tb_dataset(ds, 1, tick, o->n_filters, fnames);
    alloc_trades(ds, planted_trades(o));
    fill_trades(&pl, ds);
    build_lattice(&pl, lat, ds, optimum);
    free(pl.targets);
    free(pl.stops);
}
