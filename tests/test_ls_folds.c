/* Local search with a fold statistic (objective.aggregate, docs/ga.md
 * "Local search"): on random problems with random day folds (2 to 6) and
 * each of mean_fold, median_fold and worst_fold,
 * - the sweeps ga_run climbs with (ga_ls_sweep) are batches through the
 *   backend's evaluate, and every climb from a random genome ends with the
 *   result the backend's exact evaluate gives the climbed genome (table
 *   sweeps sum every kept trade: they would report, and climb, the
 *   all-trades objective instead);
 * - the same problem without folds still climbs the tables;
 * - a whole GA run with local search (relaxed kicks asked for: off with
 *   batch sweeps) runs, and its hall of fame is the exact evaluate's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fitness/fold_accum.h"
#include "ga/ga_ls_sweep.h"
#include "ga/local_search.h"
#include "tests/check.h"
#include "tests/support/ga_fixture.h"
#include "tests/support/random_problem.h"

static uint64_t next(uint64_t *rng)
{
    *rng = *rng * 6364136223846793005ull + 1442695040888963407ull;
    return *rng >> 33;
}

typedef struct {
    uint64_t climbs, moved, wrong, runs;
} tally_t;

/* The backend's exact result of one genome (genes[n]: SoA of one). */
static eval_result_t exact(const cpu_problem_t *q, const uint16_t *genes)
{
    eval_result_t r;
    ev_error err;
    memset(&r, 0, sizeof r);
    CHECK_EQ_I64(EV_OK, backend_cpu_ops.evaluate(q->b, genes, 1, &r, &err));
    return r;
}

static int same_result(eval_result_t a, eval_result_t b)
{
    return rank_key(a) == rank_key(b) && a.trades == b.trades && a.feasible == b.feasible &&
           !memcmp(&a.fitness, &b.fitness, sizeof a.fitness);
}

static void check_climbs(const cpu_problem_t *q, const uint32_t *nv, uint64_t *rng, tally_t *c)
{
    int32_t ng = q->p.lat->n_params;
    ga_run_opts_t o;
    ls_sweep_t sw;
    memset(&o, 0, sizeof o);
    o.tables = &q->t.view;
    CHECK(ga_ls_sweep(&backend_cpu_ops, q->b, &o, ng, nv, &sw));
    CHECK(sw.t == NULL);
    for (int i = 0; i < 4; i++) {
        uint16_t genes[EV_MAX_PARAMS], start[EV_MAX_PARAMS];
        eval_result_t r;
        ls_tally_t tl;
        ev_error err;
        for (int32_t k = 0; k < ng; k++)
            start[k] = genes[k] = (uint16_t)(next(rng) % nv[k]);
        r = exact(q, genes);
        memset(&tl, 0, sizeof tl);
        CHECK_EQ_I64(EV_OK, ls_climb(&sw, ng, 2, genes, &r, &tl, &err));
        c->climbs++;
        c->moved += memcmp(genes, start, (size_t)ng * sizeof *genes) != 0;
        c->wrong += !same_result(r, exact(q, genes));
    }
}

static void check_run(const cpu_problem_t *q, tally_t *c)
{
    ga_settings_t s;
    ga_run_opts_t o;
    ga_result_t res;
    ev_error err;
    fixture_settings(&s);
    s.ls_every = 1;
    s.ls_members = 2;
    s.ls_random = 2;
    s.ls_depth = 2;
    s.ls_kick_relax = 80;
    s.generations = 6;
    memset(&o, 0, sizeof o);
    o.seed = 5;
    o.top = 4;
    o.tables = &q->t.view;
    if (ga_run(&backend_cpu_ops, q->b, &q->p, &s, &o, &res, &err) != EV_OK) {
        fprintf(stderr, "ga_run: %s\n", err.msg);
        CHECK(0);
        return;
    }
    c->runs++;
    for (uint32_t i = 0; i < res.hof.n; i++)
        c->wrong += !same_result(res.hof.e[i].r, exact(q, res.hof.e[i].genes));
    ga_result_free(&res);
}

/* Without folds the tables are climbed, as before. */
static void check_no_folds(const cpu_problem_t *q, const uint32_t *nv)
{
    ga_run_opts_t o;
    ls_sweep_t sw;
    memset(&o, 0, sizeof o);
    o.tables = &q->t.view;
    CHECK(ga_ls_sweep(&backend_cpu_ops, q->b, &o, q->p.lat->n_params, nv, &sw));
    CHECK(sw.t == &q->t.view);
}

int main(void)
{
    static const int32_t aggs[] = {AGG_MEAN_FOLD, AGG_MEDIAN_FOLD, AGG_WORST_FOLD};
    uint64_t rng = 2929;
    tally_t c;
    memset(&c, 0, sizeof c);
    for (int round_no = 0; round_no < 12; round_no++) {
        random_problem_t rp;
        random_dataset_opts_t sizes = {600, 40, 120};
        int32_t n_folds = 2 + (int32_t)(next(&rng) % 5);
        uint32_t nv[EV_MAX_PARAMS];
        uint8_t *fold;
        cpu_problem_t q;
        ev_error err;
        random_dataset(&rp.ds, &rng, &sizes);
        random_lattice_off(&rp.lat, &rp.ds, &rng);
        random_objective(&rp.obj, &rng);
        if (round_no % 2)
            rp.obj.min_trades = 0;
        else
            rp.obj.min_trades = rp.ds.n_trades / 8; /* relaxed kicks would relax it */
        fold = (uint8_t *)malloc((size_t)rp.ds.n_trades + 1);
        for (int64_t j = 0; j < rp.ds.n_trades; j++)
            fold[j] = (uint8_t)(next(&rng) % (uint64_t)n_folds);
        for (int32_t k = 0; k < rp.lat.n_params; k++)
            nv[k] = rp.lat.params[k].n_values;
        if (cpu_problem_open(&q, &rp.ds, &rp.lat, &rp.obj)) {
            check_no_folds(&q, nv);
            cpu_problem_close(&q);
        }
        memset(&q, 0, sizeof q);
        if (problem_init(&q.p, &rp.ds, &rp.lat, &rp.obj, &err) == EV_OK) {
            q.p.fold = fold;
            q.p.n_folds = n_folds;
            q.p.agg = aggs[round_no % 3];
            if (tables_build(&q.t, &q.p, &err) == EV_OK && backend_cpu_ops.open(&q.b, &q.p, &q.t, &err) == EV_OK) {
                check_climbs(&q, nv, &rng, &c);
                check_run(&q, &c);
                backend_cpu_ops.close(q.b);
            } else {
                fprintf(stderr, "problem: %s\n", err.msg);
                CHECK(0);
            }
            tables_free(&q.t);
            problem_free(&q.p);
        }
        free(fold);
        random_problem_free(&rp);
    }
    printf("%llu climbs (%llu moved), %llu GA runs: %llu results not the exact evaluate's\n",
           (unsigned long long)c.climbs, (unsigned long long)c.moved, (unsigned long long)c.runs,
           (unsigned long long)c.wrong);
    CHECK_EQ_I64(48, c.climbs);
    CHECK_EQ_I64(12, c.runs);
    CHECK(c.moved >= 16); /* climbs that moved: the results depend on the sweeps */
    CHECK_EQ_I64(0, c.wrong);
    return check_exit();
}
