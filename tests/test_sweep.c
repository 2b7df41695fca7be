/* Neighbourhood sweeps (fitness/sweep.h) equal plain evaluation of every
 * neighbour bit for bit: random datasets, lattices (min and max filters,
 * target, stop; then with SPEC sec. 4.1's exits, each holding `off` half the
 * time) and every objective, fill, cost and constraint; random genomes; every
 * gene and every pair of genes (two exit levels at once: fitness/sweep_levels.h
 * for the additive objectives), odd genomes through a climb's exit columns
 * (fitness/sweep_cache.h) kept from the genome before, whose races are also
 * checked against the tables' trade by trade, and whose best values without
 * the array (sweep_best_cached) are the arrays' best; the two-level difference
 * arrays also on random rows (monotone either way, or not). Also a 10-filter planted lattice under
 * every objective, and a spot check against the reference evaluator. */
#include <stdio.h>
#include <string.h>

#include "fitness/eval_reference.h"
#include "fitness/problem.h"
#include "fitness/exit_race.h"
#include "fitness/sweep.h"
#include "fitness/sweep_cache.h"
#include "fitness/sweep_levels.h"
#include "fitness/tables.h"
#include "tests/check.h"
#include "tests/support/builder.h"
#include "tests/support/fitness_harness.h"
#include "tests/support/planted.h"
#include "tests/support/random_problem.h"
#include "tests/support/sweep_check.h"

typedef struct {
    uint64_t checked, mismatches, plain_sweeps, sum_sweeps, reference, level_pairs, cached, races, level_cells;
    uint64_t best_feasible, best_none; /* sweep_best_cached: a feasible best, or every value infeasible */
} tally_t;

/* sweep_best_cached of the sweep whose whole array out[n] holds: the first
 * value of the highest rank_key, its result bit for bit (value 0's when
 * every value is infeasible). */
static void check_best(const fit_tables_t *t, sweep_cache_t *cache, const uint16_t *genes, int32_t k1, int32_t k2,
                       const eval_result_t *out, uint64_t n, tally_t *c)
{
    sweep_best_t b;
    uint64_t at = 0, key = rank_key(out[0]);
    ev_error err;
    for (uint64_t v = 1; v < n; v++)
        if (rank_key(out[v]) > key) {
            key = rank_key(out[v]);
            at = v;
        }
    CHECK_EQ_I64(EV_OK, sweep_best_cached(t, cache, genes, k1, k2, &b, &err));
    if (b.at != at || b.key != key || !same(b.r, out[at])) {
        if (c->mismatches++ < 5)
            fprintf(stderr, "best of sweep (%d, %d): value %llu key %llu, want %llu key %llu\n", k1, k2,
                    (unsigned long long)b.at, (unsigned long long)b.key, (unsigned long long)at,
                    (unsigned long long)key);
    }
    if (key)
        c->best_feasible++;
    else
        c->best_none++;
}

/* The cache's race of every trade against the tables' (fitness/exit_race.h),
 * for every pair of skipped levels, once its columns follow genes' exits. */
static void check_races(const fit_tables_t *t, sweep_cache_t *cache, const uint16_t *genes, tally_t *c)
{
    tables_genome_t g;
    tables_genome(t, genes, &g);
    for (int s1 = 0; s1 < RACE_LEVELS; s1++)
        for (int s2 = s1; s2 < RACE_LEVELS; s2++) {
            sweep_cache_set(cache, &g.x, s1, s2);
            for (int64_t j = 0; j < t->n_trades; j++) {
                const race_t a = sweep_cache_race(cache, j), b = race_fixed(t, j, &g.x, s1, s2);
                int64_t q, lf;
                c->races++;
                if (a.key != b.key || a.q != b.q || a.lf != b.lf)
                    c->mismatches++;
                if (s1 == 0 && s2 == 0) { /* nothing skipped: tables_outcome's race */
                    tables_outcome(t, j, &g.x, &q, &lf);
                    if (q != a.q || lf != a.lf)
                        c->mismatches++;
                }
            }
        }
}

/* Every gene's and every pair's sweep of genes, against tables_eval. */
/* cache: NULL, or a climb's exit columns kept from the problem's earlier
 * genomes (sweep_*_cached must bring them to these exits). */
static void check_genome(const fit_problem_t *p, const fit_tables_t *t, sweep_cache_t *cache, const uint16_t *genes,
                         int ref, tally_t *c)
{
    static eval_result_t out[1u << 16];
    int32_t ng = p->lat->n_params;
    uint16_t g[EV_MAX_PARAMS];
    ev_error err;
    for (int32_t k1 = 0; k1 < ng; k1++)
        for (int32_t k2 = -1; k2 < ng; k2++) {
            uint32_t n1 = sweep_gene_values(t, k1), n2 = k2 >= 0 ? sweep_gene_values(t, k2) : 1;
            ev_status st;
            if (k2 == k1 || (uint64_t)n1 * n2 > (1u << 16))
                continue;
            if (cache)
                st = k2 < 0 ? sweep_gene_cached(t, cache, genes, k1, out, &err)
                            : sweep_pair_cached(t, cache, genes, k1, k2, out, &err);
            else
                st = k2 < 0 ? sweep_gene(t, genes, k1, out, &err) : sweep_pair(t, genes, k1, k2, out, &err);
            CHECK_EQ_I64(EV_OK, st);
            c->cached += cache != NULL;
            if (cache) /* out is checked against tables_eval below */
                check_best(t, cache, genes, k1, k2, out, (uint64_t)n1 * n2, c);
            if (k2 >= 0 && p->lat->params[k1].role != PARAM_FILTER && p->lat->params[k2].role != PARAM_FILTER &&
                !t->obj.need_dd)
                c->level_pairs++;
            if (sweep_uses_sums(t, k1, k2))
                c->sum_sweeps++;
            else
                c->plain_sweeps++;
            CHECK(sweep_cost(t, k1, k2) >= 1);
            memcpy(g, genes, (size_t)ng * sizeof *g);
            for (uint32_t v1 = 0; v1 < n1; v1++)
                for (uint32_t v2 = 0; v2 < n2; v2++) {
                    eval_result_t want;
                    g[k1] = (uint16_t)v1;
                    if (k2 >= 0)
                        g[k2] = (uint16_t)v2;
                    want = tables_eval(t, g);
                    c->checked++;
                    if (!same(want, out[v1 * n2 + v2])) {
                        if (c->mismatches++ < 5)
                            fprintf(stderr, "sweep (%d, %d) value (%u, %u): %.17g/%lld/%d, want %.17g/%lld/%d\n", k1,
                                    k2, v1, v2, out[v1 * n2 + v2].fitness, (long long)out[v1 * n2 + v2].trades,
                                    out[v1 * n2 + v2].feasible, want.fitness, (long long)want.trades, want.feasible);
                    }
                    if (ref && v2 == 0 && k2 < 0) {
                        c->reference++;
                        if (!same(reference_eval(p, g), out[v1]))
                            c->mismatches++;
                    }
                }
        }
}

static void random_genome(const lattice_t *lat, uint64_t *rng, uint16_t *g)
{
    for (int32_t k = 0; k < lat->n_params; k++)
        g[k] = (uint16_t)(splitmix(rng) % lat->params[k].n_values);
}

static void check_problem(const dataset_t *ds, const lattice_t *lat, const objective_cfg_t *obj, uint64_t *rng,
                          int genomes, int ref, tally_t *c)
{
    fit_problem_t p;
    tables_host_t t;
    sweep_cache_t cache;
    ev_error err;
    uint16_t g[EV_MAX_PARAMS];
    memset(&t, 0, sizeof t);
    if (problem_init(&p, ds, lat, obj, &err) != EV_OK || tables_build(&t, &p, &err) != EV_OK ||
        sweep_cache_init(&cache, &t.view, &err) != EV_OK) {
        fprintf(stderr, "problem: %s\n", err.msg);
        c->mismatches++;
        return;
    }
    /* odd genomes through one cache, whose columns hold the last one's exits */
    for (int i = 0; i < genomes; i++) {
        random_genome(lat, rng, g);
        check_genome(&p, &t.view, i % 2 ? &cache : NULL, g, ref, c);
        if (i % 2)
            check_races(&t.view, &cache, g, c);
    }
    sweep_cache_free(&cache);
    tables_free(&t);
    problem_free(&p);
}

/* A random row of n values: first hits on 0..9 or never (EV_NO_HIT),
 * nondecreasing, nonincreasing or in any order (sweep_levels' cell-by-cell
 * fallback), outcomes with ruins among them. */
static void random_row(uint64_t *rng, uint32_t n, int32_t *hit, int64_t *q, int64_t *lf)
{
    const uint64_t order = splitmix(rng) % 3;
    for (uint32_t i = 0; i < n; i++) {
        hit[i] = splitmix(rng) % 4 == 0 ? EV_NO_HIT : (int32_t)(splitmix(rng) % 10);
        q[i] = (int64_t)(splitmix(rng) % 400000001u) - 200000000;
        lf[i] = (int64_t)(splitmix(rng) % 1000000u) - 500000;
    }
    for (uint32_t i = 1; order < 2 && i < n; i++) /* insertion sort, either way */
        for (uint32_t k = i; k > 0 && (order ? hit[k] > hit[k - 1] : hit[k] < hit[k - 1]); k--) {
            const int32_t h = hit[k];
            hit[k] = hit[k - 1];
            hit[k - 1] = h;
        }
}

/* fitness/sweep_levels.h against racing every cell (exit_race.h), on random
 * rows and fixed winners; every sum of accum_t compared. */
static void check_levels(uint64_t *rng, tally_t *c)
{
    objective_prep_t o;
    memset(&o, 0, sizeof o);
    o.need_pos = o.need_sumsq = o.need_log = 1;
    for (int round = 0; round < 3000; round++) {
        const uint32_t n1 = 1 + (uint32_t)(splitmix(rng) % 6), n2 = 1 + (uint32_t)(splitmix(rng) % 6);
        accum_t got[36], want[36];
        sweep_levels_t lv;
        ev_error err;
        CHECK_EQ_I64(EV_OK, sweep_levels_init(&lv, n1, n2, &err));
        for (uint32_t i = 0; i < n1 * n2; i++) {
            accum_init(&got[i]);
            accum_init(&want[i]);
        }
        for (int trade = 0; trade < 3; trade++) {
            int32_t h1[6], h2[6];
            int64_t q1[6], q2[6], l1[6], l2[6];
            const race_row_t r1 = {h1, q1, l1, RACE_MORE}, r2 = {h2, q2, l2, RACE_MORE + 2};
            race_t fixed;
            random_row(rng, n1, h1, q1, l1);
            random_row(rng, n2, h2, q2, l2);
            fixed.key = splitmix(rng) % 3 == 0 ? (int64_t)EV_NO_HIT * 8 : (int64_t)(splitmix(rng) % 10) * 8 + RACE_STOP;
            fixed.q = (int64_t)(splitmix(rng) % 400000001u) - 200000000;
            fixed.lf = (int64_t)(splitmix(rng) % 1000000u);
            sweep_levels_add(&lv, &o, fixed, &r1, &r2, got);
            for (uint32_t i1 = 0; i1 < n1; i1++)
                for (uint32_t i2 = 0; i2 < n2; i2++) {
                    const race_t w = race_step(race_step(fixed, &r1, (int32_t)i1), &r2, (int32_t)i2);
                    accum_add(&want[i1 * n2 + i2], &o, w.q, w.lf);
                }
        }
        sweep_levels_finish(&lv, got);
        sweep_levels_free(&lv);
        for (uint32_t i = 0; i < n1 * n2; i++) {
            const accum_t *g = &got[i], *w = &want[i];
            c->level_cells++;
            if (g->n != w->n || g->sum != w->sum || g->pos != w->pos || g->sumsq.lo != w->sumsq.lo ||
                g->sumsq.hi != w->sumsq.hi || g->lsum != w->lsum || g->ruin != w->ruin)
                c->mismatches++;
        }
    }
}

int main(void)
{
    uint64_t rng = 2026;
    tally_t c;
    int max_filters = 0;
    memset(&c, 0, sizeof c);
    check_levels(&rng, &c);
    /* lattices: 400 with target and stop, 200 with the exits of SPEC sec.
     * 4.1 too, 200 with them holding `off` */
    for (int round_no = 0; round_no < 800 && !c.mismatches; round_no++) {
        dataset_t ds;
        lattice_t lat;
        objective_cfg_t obj;
        random_dataset(&ds, &rng, NULL);
        if (round_no < 400)
            random_lattice(&lat, &ds, &rng);
        else if (round_no < 600)
            random_lattice_more(&lat, &ds, &rng);
        else
            random_lattice_off(&lat, &ds, &rng);
        random_objective(&obj, &rng);
        for (int32_t k = 0; k < lat.n_params; k++)
            max_filters += lat.params[k].role == PARAM_FILTER && lat.params[k].dir == FILTER_MAX;
        check_problem(&ds, &lat, &obj, &rng, 4, round_no % 8 == 0, &c);
        lattice_free(&lat);
        dataset_free(&ds);
        if (c.mismatches)
            fprintf(stderr, "round %d (objective %d, fill %d, max dd %d) disagrees\n", round_no, obj.kind, obj.fill,
                    obj.has_max_drawdown);
    }
    /* A 10-filter planted lattice (filter 1 is direction max), every objective. */
    for (int kind = 0; kind < OBJ_COUNT && !c.mismatches; kind++) {
        planted_opts_t po;
        dataset_t ds;
        lattice_t lat;
        objective_cfg_t obj;
        uint16_t opt[EV_MAX_PARAMS];
        planted_defaults(&po);
        po.n_filters = 10;
        po.n_values = 8;
        planted_build(&po, &ds, &lat, opt);
        harness_objective(&obj, (objective_kind)kind);
        obj.min_trades = 3;
        check_problem(&ds, &lat, &obj, &rng, 2, 0, &c);
        lattice_free(&lat);
        dataset_free(&ds);
    }
    printf(
        "%llu neighbours checked (%llu also against the reference), %llu one-pass sweeps, %llu plain "
        "(drawdown objectives over a filter), %llu over two exit levels of an additive objective, %llu through a "
        "cache, %llu cached races, %llu cells of random exit rows, %d max filters\n",
        (unsigned long long)c.checked, (unsigned long long)c.reference, (unsigned long long)c.sum_sweeps,
        (unsigned long long)c.plain_sweeps, (unsigned long long)c.level_pairs, (unsigned long long)c.cached,
        (unsigned long long)c.races, (unsigned long long)c.level_cells, max_filters);
    CHECK(c.checked > 100000);
    CHECK(c.sum_sweeps > 1000);
    CHECK(c.plain_sweeps > 10);
    CHECK(c.level_pairs > 1000);
    CHECK(c.cached > 10000);
    printf("%llu bests without the array: %llu feasible, %llu of all-infeasible sweeps\n",
           (unsigned long long)(c.best_feasible + c.best_none), (unsigned long long)c.best_feasible,
           (unsigned long long)c.best_none);
    CHECK(c.best_feasible > 1000);
    CHECK(c.best_none > 100);
    CHECK(c.races > 100000);
    CHECK(c.level_cells > 10000);
    CHECK(max_filters > 10);
    CHECK_EQ_I64(0, c.mismatches);
    return check_exit();
}
