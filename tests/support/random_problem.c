#include "tests/support/random_problem.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/support/builder.h"
#include "tests/support/fitness_harness.h"

const char *const random_feature_names[3] = {"F0", "F1", "F2"};
static const char *const tick[] = {"A", "B"};

/* Values on a 0.1 grid, so features often equal thresholds exactly. */
static double grid_value(uint64_t *rng)
{
    return (double)(tb_rand(rng) % 11) / 10.0;
}

void random_dataset(dataset_t *ds, uint64_t *rng, const random_dataset_opts_t *opts)
{
    static const random_dataset_opts_t defaults = {600, 10, 40};
    const random_dataset_opts_t *o = opts ? opts : &defaults;
    int32_t np = o->prices_per_ticker;
    int64_t *ts = (int64_t *)malloc((size_t)np * sizeof *ts);
    float *px = (float *)malloc((size_t)np * sizeof *px);
    if (!ts || !px) {
        fprintf(stderr, "random_dataset: out of memory\n");
        exit(2);
    }
    tb_dataset(ds, 2, tick, 3, random_feature_names);
    for (int32_t k = 0; k < 2; k++) {
        double p = 20.0 + 60.0 * tb_uniform(rng);
        int64_t t = 1000000 + (int64_t)k * 7;
        for (int32_t i = 0; i < np; i++) {
            t += 1 + (int64_t)(tb_rand(rng) % 3 == 0); /* missing seconds */
            p *= 1.0 + 0.002 * (tb_uniform(rng) - 0.5);
            ts[i] = t;
            px[i] = (float)(round(p * 100.0) / 100.0);
        }
        tb_prices(ds, k, ts, px, np);
    }
    for (int j = 0, n = o->min_trades + (int)(tb_rand(rng) % (uint64_t)o->extra_trades); j < n; j++) {
        int32_t k = (int32_t)(tb_rand(rng) % 2);
        int64_t i = (int64_t)(tb_rand(rng) % (uint64_t)(np - 40));
        int64_t entry = ds->ts[ds->ticker_begin[k] + i] - (int64_t)(tb_rand(rng) % 2);
        int64_t hold = (int64_t)(tb_rand(rng) % 80);
        double e = (double)ds->price[ds->ticker_begin[k] + i] * (1.0 + 0.001 * (tb_uniform(rng) - 0.5));
        double f[3];
        f[0] = grid_value(rng);
        f[1] = grid_value(rng);
        f[2] = 3.0 * tb_uniform(rng);
        /* trades must be added in dataset order: sort is not needed for the
         * evaluators, which use their own equity order, so ticker order suffices */
        tb_trade(ds, k, entry, entry + hold, e, round((4.0 * tb_uniform(rng) - 2.0) * 1e4) / 1e4, f);
    }
    free(ts);
    free(px);
}

static uint32_t random_subset(uint64_t *rng, const double *pool, uint32_t n_pool, double *out)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < n_pool; i++)
        if (tb_rand(rng) % 3 == 0)
            out[n++] = pool[i];
    if (n == 0)
        out[n++] = pool[tb_rand(rng) % n_pool];
    return n;
}

static void lattice_of(lattice_t *lat, const dataset_t *ds, uint64_t *rng, int more);

void random_lattice(lattice_t *lat, const dataset_t *ds, uint64_t *rng)
{
    lattice_of(lat, ds, rng, 0);
}

void random_lattice_more(lattice_t *lat, const dataset_t *ds, uint64_t *rng)
{
    lattice_of(lat, ds, rng, 1);
}

void random_lattice_off(lattice_t *lat, const dataset_t *ds, uint64_t *rng)
{
    lattice_of(lat, ds, rng, 2);
}

/* The values of an exit role, `off` (SPEC sec. 4.1) last half the time when
 * more is 2. */
static void more_param(lattice_t *lat, const char *name, param_role role, double *v, uint32_t n, int more,
                       uint64_t *rng)
{
    if (more == 2 && tb_rand(rng) % 2)
        v[n++] = HUGE_VAL;
    tb_param(lat, name, role, FILTER_MIN, NULL, v, n);
    if (v[n - 1] == HUGE_VAL) { /* as a config spells it */
        char **text = &lat->params[lat->n_params - 1].value_text[n - 1];
        free(*text);
        if ((*text = (char *)malloc(4)) == NULL)
            abort();
        memcpy(*text, "off", 4);
    }
}

/* more: also, each with chance 1/2, a trail, a breakeven and a max_hold
 * (more 2: each holding `off` half the time). */
static void lattice_of(lattice_t *lat, const dataset_t *ds, uint64_t *rng, int more)
{
    static const double trpool[] = {0.02, 0.05, 0.1, 0.2, 0.5, 1.0};
    static const double bepool[] = {0.02, 0.05, 0.1, 0.2, 0.3, 0.6};
    static const double hpool[] = {0, 1, 3, 10, 30, 120};
    static const double fpool[] = {0.0, 0.1, 0.2, 0.3, 0.5, 0.7, 0.8, 1.0, 1.5, 2.5};
    static const double tpool[] = {0.05, 0.1, 0.2, 0.3, 0.5, 1.0};
    static const double spool[] = {-1.0, -0.5, -0.3, -0.2, -0.1, -0.05};
    double v[16];
    int nf = 1 + (int)(tb_rand(rng) % 3);
    memset(lat, 0, sizeof *lat);
    for (int f = 0; f < nf; f++) {
        char name[8];
        snprintf(name, sizeof name, "f%d", f);
        tb_param(lat, name, PARAM_FILTER, tb_rand(rng) % 3 == 0 ? FILTER_MAX : FILTER_MIN,
                 random_feature_names[tb_rand(rng) % 3], v, random_subset(rng, fpool, 10, v));
    }
    if (tb_rand(rng) % 7)
        tb_param(lat, "target", PARAM_TARGET, FILTER_MIN, NULL, v, random_subset(rng, tpool, 6, v));
    if (tb_rand(rng) % 7)
        tb_param(lat, "stop", PARAM_STOP, FILTER_MIN, NULL, v, random_subset(rng, spool, 6, v));
    if (more && tb_rand(rng) % 2)
        more_param(lat, "trail", PARAM_TRAIL, v, random_subset(rng, trpool, 6, v), more, rng);
    if (more && tb_rand(rng) % 2)
        more_param(lat, "breakeven", PARAM_BREAKEVEN, v, random_subset(rng, bepool, 6, v), more, rng);
    if (more && tb_rand(rng) % 2)
        more_param(lat, "hold", PARAM_MAX_HOLD, v, random_subset(rng, hpool, 6, v), more, rng);
    tb_lattice_done(lat, ds);
}

void random_objective(objective_cfg_t *obj, uint64_t *rng)
{
    static const double costs[] = {0.0, 0.01, 0.05};
    harness_objective(obj, (objective_kind)(tb_rand(rng) % OBJ_COUNT));
    obj->fill = (int32_t)(tb_rand(rng) % 2);
    obj->cost_pct = costs[tb_rand(rng) % 3];
    obj->min_trades = (int64_t)(tb_rand(rng) % 5);
    if (tb_rand(rng) % 4 == 0) {
        obj->has_max_drawdown = 1;
        obj->max_drawdown_pct = 0.5 + 3.0 * tb_uniform(rng);
    }
}

void random_problem(random_problem_t *rp, uint64_t *rng, int more)
{
    random_dataset(&rp->ds, rng, NULL);
    if (more)
        random_lattice_more(&rp->lat, &rp->ds, rng);
    else
        random_lattice(&rp->lat, &rp->ds, rng);
    random_objective(&rp->obj, rng);
}

void random_problem_free(random_problem_t *rp)
{
    lattice_free(&rp->lat);
    dataset_free(&rp->ds);
}
