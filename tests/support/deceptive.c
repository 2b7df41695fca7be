#include "tests/support/deceptive.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/support/builder.h"

static const double trap_f[DECEPTIVE_TRAP + 1] = {12.0, 0.0, 14.0, 30.0}; /* by tight genes */

static int popcount3(unsigned m)
{
    return (int)(m & 1u) + (int)((m >> 1) & 1u) + (int)((m >> 2) & 1u);
}

void deceptive_build(const deceptive_opts_t *o, dataset_t *ds, lattice_t *lat, uint16_t *optimum, uint16_t *local,
                     double *best_pct, double *local_pct)
{
    int32_t nf = o->n_easy + DECEPTIVE_TRAP;
    uint32_t n = o->n_values;
    char **names = (char **)calloc((size_t)nf, sizeof *names);
    double *x = (double *)calloc((size_t)nf, sizeof *x), *values = (double *)calloc(n, sizeof *values);
    const char *ticker = "AAA";
    int64_t ts[4000], t = 1000;
    float price[4000];
    if (!names || !x || !values || o->n_easy < 0 || nf > EV_MAX_PARAMS || n < 4) {
        fprintf(stderr, "deceptive_build: bad options\n");
        abort();
    }
    for (int32_t f = 0; f < nf; f++) {
        names[f] = (char *)malloc(16);
        snprintf(names[f], 16, f < o->n_easy ? "e%d" : "t%d", f < o->n_easy ? f : f - o->n_easy);
    }
    tb_dataset(ds, 1, &ticker, nf, (const char *const *)names);
    for (int i = 0; i < 4000; i++) {
        ts[i] = 1000 + i;
        price[i] = 10.0f;
    }
    tb_prices(ds, 0, ts, price, 4000);
    *best_pct = *local_pct = 0.0;
#define TRADE(pct)                                                              \
    do {                                                                        \
        tb_trade(ds, 0, t, t + 2, 10.0, (pct), x);                              \
        t += 3;                                                                 \
        if (t > 4000 + 1000 - 3) {                                              \
            fprintf(stderr, "deceptive_build: too many trades for the path\n"); \
            abort();                                                            \
        }                                                                       \
    } while (0)
    for (int32_t e = 0; e < o->n_easy; e++) {
        uint32_t p = (uint32_t)(e * 7 + 3) % (n - 1); /* in [0, n - 2] */
        for (int32_t f = 0; f < nf; f++)
            x[f] = (double)(n - 1);
        for (uint32_t v = 0; v < p; v++) {
            x[e] = (double)v;
            TRADE(-1.0);
        }
        x[e] = (double)p;
        TRADE(50.0);
        optimum[e] = local[e] = (uint16_t)p;
        *best_pct += 50.0;
        *local_pct += 50.0;
    }
    /* Trade type Z (a subset of the trap genes) is kept iff no gene of Z is
     * tight: its trap features are n - 2 on Z, n - 1 elsewhere. With U the
     * loose set, F = sum over Z within U of q_Z, so q_Z = sum over W within Z
     * of (-1)^|Z \ W| F(tight = all but W). */
    for (unsigned z = 0; z < (1u << DECEPTIVE_TRAP); z++) {
        double q = 0.0;
        for (unsigned w = 0; w < (1u << DECEPTIVE_TRAP); w++)
            if ((w & ~z) == 0)
                q += ((popcount3(z & ~w) & 1) ? -1.0 : 1.0) * trap_f[DECEPTIVE_TRAP - popcount3(w)];
        for (int32_t f = 0; f < nf; f++)
            x[f] = (double)(n - 1);
        for (int k = 0; k < DECEPTIVE_TRAP; k++)
            if (z & (1u << k))
                x[o->n_easy + k] = (double)(n - 2);
        if (q != 0.0)
            TRADE(q);
    }
#undef TRADE
    for (int k = 0; k < DECEPTIVE_TRAP; k++) {
        optimum[o->n_easy + k] = (uint16_t)(n - 1);
        local[o->n_easy + k] = 0;
    }
    *best_pct += trap_f[DECEPTIVE_TRAP];
    *local_pct += trap_f[0];
    for (uint32_t v = 0; v < n; v++)
        values[v] = (double)v;
    memset(lat, 0, sizeof *lat);
    for (int32_t f = 0; f < nf; f++)
        tb_param(lat, names[f], PARAM_FILTER, FILTER_MIN, names[f], values, n);
    tb_lattice_done(lat, ds);
    for (int32_t f = 0; f < nf; f++)
        free(names[f]);
    free(names);
    free(x);
    free(values);
}
