#include "tests/support/slices_problem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/support/builder.h"
#include "tests/support/random_problem.h"

/* Some logged results far out: +20,000 % and more, and -100 % or below. */
static void extremes(dataset_t *ds, uint64_t *rng)
{
    static const double far[] = {20000.0, 31337.25, -100.0, -150.5, -99.9999};
    for (int64_t j = 0; j < ds->n_trades; j++)
        if (tb_rand(rng) % 6 == 0)
            ds->pct_change[j] = far[tb_rand(rng) % 5] + (double)(tb_rand(rng) % 1000) * 1e-6;
}

void slices_problem_draw(slices_problem_t *sp, uint64_t *rng, objective_kind kind, int keep_dd)
{
    static const int32_t aggs[] = {AGG_ALL, AGG_MEAN_FOLD, AGG_MEDIAN_FOLD, AGG_WORST_FOLD};
    random_dataset_opts_t sizes = {600, 40, 140}; /* past 64 trades: several words */
    ev_error err;
    const int32_t agg = aggs[tb_rand(rng) % 4], n_folds = 2 + (int32_t)(tb_rand(rng) % 5);
    memset(sp, 0, sizeof *sp);
    sp->agg = agg;
    sp->budget = tb_rand(rng) % 3 == 0 ? 4096u + tb_rand(rng) % 8192u : (uint64_t)64 << 20;
    random_dataset(&sp->ds, rng, &sizes);
    if (tb_rand(rng) % 3 == 0)
        extremes(&sp->ds, rng);
    random_lattice_off(&sp->lat, &sp->ds, rng);
    random_objective(&sp->obj, rng);
    sp->obj.kind = kind;
    sp->obj.has_max_drawdown &= keep_dd != 0;
    sp->fold = (uint8_t *)malloc((size_t)sp->ds.n_trades + 1);
    for (int64_t j = 0; j < sp->ds.n_trades; j++)
        sp->fold[j] = (uint8_t)(tb_rand(rng) % (uint64_t)n_folds);
    if (problem_init(&sp->p, &sp->ds, &sp->lat, &sp->obj, &err) != EV_OK) {
        fprintf(stderr, "slices_problem_draw: %s\n", err.msg);
        exit(2);
    }
    if (agg != AGG_ALL) {
        sp->p.fold = sp->fold;
        sp->p.n_folds = n_folds;
        sp->p.agg = agg;
    }
    if (tables_build(&sp->t, &sp->p, &err) != EV_OK) {
        fprintf(stderr, "slices_problem_draw: %s\n", err.msg);
        exit(2);
    }
}

void slices_problem_free(slices_problem_t *sp)
{
    tables_free(&sp->t);
    problem_free(&sp->p);
    free(sp->fold);
    lattice_free(&sp->lat);
    dataset_free(&sp->ds);
    memset(sp, 0, sizeof *sp);
}
