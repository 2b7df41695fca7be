/* The GA's strategies (docs/ga.md "Strategies"): its hall of fame keeps
 * grid_pool_size(K) candidates, and the K strategies reported are the first
 * K met walking them best first. On small random lattices a seeded GA runs
 * until it has evaluated every point ("lattice exhausted"), so its
 * candidates are the lattice's best; by brute force (every point ranked,
 * kept trades and exits compared with kept_trades) the test checks the
 * strategies picked (positions, in order), the strategies below the list
 * with their ranks, each strategy's genomes among the candidates and every
 * gene's equal range (reported_pool). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fitness/problem.h"
#include "fitness/reported_groups.h"
#include "fitness/tables.h"
#include "fitness/trade_stats.h"
#include "ga/ga_run.h"
#include "ga/grid.h"
#include "ga/grid_pool.h"
#include "tests/check.h"
#include "tests/support/brute_force.h"
#include "tests/support/random_problem.h"

#define MAX_POINTS 2000

typedef struct {
    uint64_t cases, picks, collapsed, more, mismatches;
} tally_t;

/* cls[point]: the ranking position of the first genome of its strategy
 * (UINT64_MAX - point for an infeasible point: a class of its own). */
static void brute_classes(const fit_problem_t *p, const fit_tables_t *t, const ranked_genome_t *all, uint32_t n,
                          uint64_t size, uint64_t *cls)
{
    kept_trade_t **k = (kept_trade_t **)calloc(n + 1, sizeof *k);
    int64_t *nk = (int64_t *)calloc(n + 1, sizeof *nk);
    uint32_t *first = (uint32_t *)calloc(n + 1, sizeof *first);
    ev_error err;
    for (uint64_t i = 0; i < size; i++)
        cls[i] = UINT64_MAX - i;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t j;
        CHECK_EQ_I64(EV_OK, kept_trades(p, t, all[i].genes, &k[i], &nk[i], &err));
        for (j = 0; j < i && !(first[j] == j && all[j].key == all[i].key && kept_same(k[j], nk[j], k[i], nk[i])); j++)
            ;
        first[i] = j < i ? first[j] : i;
        cls[all[i].index] = first[i];
    }
    for (uint32_t i = 0; i < n; i++)
        free(k[i]);
    free(k);
    free(nk);
    free(first);
}

static void miss(tally_t *c, const char *what, uint64_t got, uint64_t want)
{
    if (c->mismatches++ < 8)
        fprintf(stderr, "%s: %llu, brute force %llu\n", what, (unsigned long long)got, (unsigned long long)want);
}

/* Strategy entry s (its best genome e) against brute force: its genomes
 * among the n_cand candidates all[] and each gene's equal range. */
static void check_entry(const fit_problem_t *p, const strat_entry_t *s, const ranked_genome_t *e,
                        const ranked_genome_t *all, uint32_t n_cand, const uint64_t *cls, tally_t *c)
{
    uint32_t genomes = 0;
    for (uint32_t i = 0; i < n_cand; i++)
        genomes += cls[all[i].index] == cls[e->index];
    if (genomes != s->genomes)
        miss(c, "genomes of a strategy", s->genomes, genomes);
    for (int32_t k = 0; k < p->shape.n_params; k++) {
        uint16_t lo, hi;
        brute_range(&p->shape, cls, e->index, k, &lo, &hi);
        if (lo != s->lo[k] || hi != s->hi[k])
            miss(c, "an equal range's ends (lo * 65536 + hi)", (uint64_t)s->lo[k] << 16 | s->hi[k],
                 (uint64_t)lo << 16 | hi);
    }
}

/* A GA over the whole lattice with a hall of fame of grid_pool_size(k). */
static int ga_whole(const fit_problem_t *p, backend_t *cpu, uint32_t k, uint64_t seed, ga_result_t *res)
{
    ga_settings_t s;
    ga_run_opts_t o;
    ev_error err;
    ga_settings_default(&s);
    s.population = 64;
    s.generations = 100000;
    s.ls_every = 0;
    memset(&o, 0, sizeof o);
    o.seed = seed;
    o.top = grid_pool_size(k);
    CHECK_EQ_I64(EV_OK, ga_run(&backend_cpu_ops, cpu, p, &s, &o, res, &err));
    return res->reason == GA_STOP_LATTICE_EXHAUSTED;
}

static void check_k(const fit_problem_t *p, const tables_host_t *t, backend_t *cpu, const ranked_genome_t *all,
                    uint32_t n, const uint64_t *cls, uint32_t k, tally_t *c)
{
    ga_result_t res;
    reported_t r;
    uint32_t pick[16], want[16], n_pick = 0, n_want = 0, n_list, n_more = 0;
    ev_error err;
    if (!ga_whole(p, cpu, k, 1000 + k, &res)) {
        ga_result_free(&res);
        return;
    }
    /* every point evaluated: the candidates are the lattice's best */
    CHECK_EQ_I64(n < res.hof.k ? n : res.hof.k, res.hof.n);
    for (uint32_t i = 0; i < res.hof.n; i++)
        if (res.hof.e[i].index != all[i].index)
            miss(c, "a candidate", res.hof.e[i].index, all[i].index);
    for (uint32_t i = 0; i < res.hof.n && n_want < k; i++)
        if (cls[all[i].index] == i)
            want[n_want++] = i;
    strat_first(&t->view, res.hof.e, res.hof.n, k, pick, &n_pick);
    if (n_pick != n_want)
        miss(c, "strategies picked", n_pick, n_want);
    for (uint32_t i = 0; i < n_pick && i < n_want; i++)
        if (pick[i] != want[i])
            miss(c, "a strategy's position", pick[i], want[i]);
    n_list = res.hof.n < k ? res.hof.n : k;
    CHECK_EQ_I64(EV_OK, reported_make(&r, p, &t->view, res.hof.e, n_list, &err));
    CHECK_EQ_I64(EV_OK, reported_strategies(&r, p, &t->view, &err));
    CHECK_EQ_I64(EV_OK, reported_pool(&r, p, &t->view, res.hof.e, res.hof.n, pick, n_pick, &err));
    for (uint32_t i = 0; i < n_list; i++)
        if (r.strat[i].first)
            check_entry(p, &r.strat[i], &r.e[i], all, res.hof.n, cls, c);
    for (uint32_t i = 0; i < n_pick; i++) {
        if (want[i] < n_list)
            continue;
        if (!r.more || n_more >= r.more->n) {
            miss(c, "strategies below the list", r.more ? r.more->n : 0, n_more + 1);
            break;
        }
        if (r.more_rank[n_more] != want[i] + 1)
            miss(c, "a strategy's rank below the list", r.more_rank[n_more], want[i] + 1);
        check_entry(p, &r.more->strat[n_more], &r.more->e[n_more], all, res.hof.n, cls, c);
        n_more++;
    }
    CHECK_EQ_I64(n_more, r.more ? r.more->n : 0);
    c->more += n_more;
    c->collapsed += n_pick && pick[n_pick - 1] >= n_pick;
    c->picks += n_pick;
    c->cases++;
    reported_free(&r);
    ga_result_free(&res);
}

static void check_problem(const dataset_t *ds, const lattice_t *lat, const objective_cfg_t *obj, tally_t *c)
{
    static const uint32_t ks[] = {1, 3, 8};
    fit_problem_t p;
    tables_host_t t;
    backend_t *cpu = NULL;
    topk_t all;
    ranked_genome_t *ranked;
    uint64_t *cls;
    grid_opts_t go;
    grid_stats_t gs;
    ev_error err;
    memset(&t, 0, sizeof t);
    memset(&go, 0, sizeof go);
    if (!lat->size_fits || lat->size > MAX_POINTS || lat->size < 64)
        return;
    if (problem_init(&p, ds, lat, obj, &err) != EV_OK || tables_build(&t, &p, &err) != EV_OK ||
        backend_cpu_ops.open(&cpu, &p, &t, &err) != EV_OK) {
        fprintf(stderr, "problem: %s\n", err.msg);
        c->mismatches++;
        return;
    }
    CHECK_EQ_I64(EV_OK, topk_init(&all, (uint32_t)lat->size, &err));
    CHECK_EQ_I64(EV_OK, grid_run(&backend_cpu_ops, cpu, &p, &go, &all, &gs, &err));
    ranked = topk_ranked_new(&all, &p.shape);
    cls = (uint64_t *)malloc(lat->size * sizeof *cls);
    CHECK(ranked != NULL && cls != NULL);
    if (ranked && cls) {
        brute_classes(&p, &t.view, ranked, all.n, lat->size, cls);
        for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++)
            check_k(&p, &t, cpu, ranked, all.n, cls, ks[i], c);
    }
    free(cls);
    free(ranked);
    topk_free(&all);
    backend_cpu_ops.close(cpu);
    tables_free(&t);
    problem_free(&p);
}

int main(void)
{
    uint64_t rng = 2626;
    tally_t c;
    memset(&c, 0, sizeof c);
    for (int round_no = 0; round_no < 24 && !c.mismatches; round_no++) {
        random_problem_t rp;
        random_problem(&rp, &rng, round_no % 2);
        check_problem(&rp.ds, &rp.lat, &rp.obj, &c);
        random_problem_free(&rp);
    }
    printf(
        "%llu whole-lattice GA runs, %llu strategies picked (%llu below the list; %llu runs whose K strategies "
        "reach past the K best genomes)\n",
        (unsigned long long)c.cases, (unsigned long long)c.picks, (unsigned long long)c.more,
        (unsigned long long)c.collapsed);
    CHECK_EQ_I64(0, (int64_t)c.mismatches);
    /* not vacuous: runs exhausted their lattices, and neighbours collapsed */
    CHECK(c.cases > 15);
    CHECK(c.more > 10);
    return check_exit();
}
