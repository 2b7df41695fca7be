/* The grid's strategies are the K best of the lattice (ga/grid_pool.h): on
 * small random lattices every point is ranked (a top list as long as the
 * lattice) and the K best strategies are found by brute force, walking the
 * ranking and comparing each genome's kept trades and exits (kept_trades)
 * with the strategies found so far; grid_pool_strategies, started from a
 * pool of only K candidates (so it must rerun and grow), must pick the same
 * first genomes in the same order, and end with the pool a pass per size of
 * the chain of growths ends with (its one rerun at the last size, cut). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fitness/problem.h"
#include "fitness/strategy_class.h"
#include "fitness/tables.h"
#include "fitness/trade_stats.h"
#include "ga/grid_pool.h"
#include "tests/check.h"
#include "tests/support/brute_force.h"
#include "tests/support/random_problem.h"

#define MAX_POINTS 4000
#define KMAX 12

typedef struct {
    kept_trade_t *k;
    int64_t n;
} sig_t;

typedef struct {
    uint64_t cases, picks, collapsed, reruns, cut, mismatches;
} tally_t;

/* want[*n_want]: the ranking positions of the first genomes of the k best strategies. */
static void brute_first(const fit_problem_t *p, const fit_tables_t *t, const ranked_genome_t *all, uint32_t n,
                        uint32_t k, uint32_t *want, uint32_t *n_want)
{
    sig_t rep[KMAX];
    uint32_t m = 0;
    ev_error err;
    for (uint32_t i = 0; i < n && m < k; i++) {
        sig_t s;
        uint32_t j;
        CHECK_EQ_I64(EV_OK, kept_trades(p, t, all[i].genes, &s.k, &s.n, &err));
        for (j = 0; j < m && !kept_same(rep[j].k, rep[j].n, s.k, s.n); j++)
            ;
        if (j < m) {
            free(s.k);
            continue;
        }
        rep[m] = s;
        want[m++] = i;
    }
    for (uint32_t j = 0; j < m; j++)
        free(rep[j].k);
    *n_want = m;
}

/* The pool a chain of reruns ends with when each size is its own pass (one
 * pass per GRID_POOL_FACTOR growth): grid_pool_strategies, which reruns
 * once at grid_pool_last and cuts, must end with the same list. */
static int chain_pool(const fit_problem_t *p, const fit_tables_t *t, backend_t *cpu, uint32_t k, topk_t *pool)
{
    int passes = 0;
    grid_opts_t go;
    grid_stats_t gs;
    uint32_t pick[KMAX], n_pick, size = k;
    ev_error err;
    memset(&go, 0, sizeof go);
    for (;;) {
        ranked_genome_t *ranked;
        CHECK_EQ_I64(EV_OK, topk_init(pool, size, &err));
        CHECK_EQ_I64(EV_OK, grid_run(&backend_cpu_ops, cpu, p, &go, pool, &gs, &err));
        passes++;
        ranked = topk_ranked_new(pool, &p->shape);
        CHECK(ranked != NULL);
        strat_first(t, ranked, pool->n, k, pick, &n_pick);
        free(ranked);
        if (!(n_pick < k && pool->n == size && grid_pool_size(size) > size))
            return passes;
        size = grid_pool_size(size);
        topk_free(pool);
    }
}

static void check_k(const fit_problem_t *p, tables_host_t *t, backend_t *cpu, const ranked_genome_t *all, uint32_t n,
                    uint32_t k, tally_t *c)
{
    topk_t pool;
    grid_opts_t go;
    grid_stats_t gs;
    ranked_genome_t *ranked = NULL;
    uint32_t want[KMAX], pick[KMAX], n_want, n_pick = 0;
    ev_error err;
    memset(&go, 0, sizeof go);
    brute_first(p, &t->view, all, n, k, want, &n_want);
    CHECK_EQ_I64(EV_OK, topk_init(&pool, k, &err));
    CHECK_EQ_I64(EV_OK, grid_run(&backend_cpu_ops, cpu, p, &go, &pool, &gs, &err));
    CHECK_EQ_I64(EV_OK, grid_pool_strategies(grid_run, NULL, &backend_cpu_ops, cpu, p, &t->view, &go, k, &pool, &ranked,
                                             pick, &n_pick, &err));
    c->reruns += pool.k > k;
    {
        topk_t chain;
        int same;
        int passes = chain_pool(p, &t->view, cpu, k, &chain);
        same = chain.k == pool.k && chain.n == pool.n;
        for (uint32_t i = 0; same && i < pool.n; i++)
            same = chain.e[i].key == pool.e[i].key && chain.e[i].index == pool.e[i].index;
        if (!same && c->mismatches++ < 5)
            fprintf(stderr, "k %u: the pool holds %u of %u, the chain of passes %u of %u\n", k, pool.n, pool.k, chain.n,
                    chain.k);
        c->cut += passes > 2 && pool.k < grid_pool_last(k); /* a second rerun, cut short of the last size */
        topk_free(&chain);
    }
    if (n_pick != n_want)
        c->mismatches++;
    for (uint32_t i = 0; i < n_pick && i < n_want; i++) {
        if (ranked[pick[i]].index != all[want[i]].index) {
            if (c->mismatches++ < 5)
                fprintf(stderr, "k %u strategy %u: point %llu, brute force %llu\n", k, i,
                        (unsigned long long)ranked[pick[i]].index, (unsigned long long)all[want[i]].index);
        }
        c->collapsed += want[i] != i;
    }
    c->picks += n_pick;
    c->cases++;
    free(ranked);
    topk_free(&pool);
}

static void check_problem(const dataset_t *ds, const lattice_t *lat, const objective_cfg_t *obj, tally_t *c)
{
    static const uint32_t ks[] = {1, 3, KMAX};
    fit_problem_t p;
    tables_host_t t;
    backend_t *cpu = NULL;
    topk_t all;
    ranked_genome_t *ranked;
    grid_opts_t go;
    grid_stats_t gs;
    ev_error err;
    memset(&t, 0, sizeof t);
    memset(&go, 0, sizeof go);
    if (!lat->size_fits || lat->size > MAX_POINTS)
        return;
    if (problem_init(&p, ds, lat, obj, &err) != EV_OK || tables_build(&t, &p, &err) != EV_OK ||
        backend_cpu_ops.open(&cpu, &p, &t, &err) != EV_OK) {
        fprintf(stderr, "problem: %s\n", err.msg);
        c->mismatches++;
        return;
    }
    /* the whole ranking: a top list as long as the lattice */
    CHECK_EQ_I64(EV_OK, topk_init(&all, (uint32_t)lat->size, &err));
    CHECK_EQ_I64(EV_OK, grid_run(&backend_cpu_ops, cpu, &p, &go, &all, &gs, &err));
    ranked = topk_ranked_new(&all, &p.shape);
    CHECK(ranked != NULL);
    for (size_t i = 0; ranked && i < sizeof ks / sizeof ks[0]; i++)
        check_k(&p, &t, cpu, ranked, all.n, ks[i], c);
    free(ranked);
    topk_free(&all);
    backend_cpu_ops.close(cpu);
    tables_free(&t);
    problem_free(&p);
}

int main(void)
{
    uint64_t rng = 2525;
    tally_t c;
    memset(&c, 0, sizeof c);
    for (int round_no = 0; round_no < 40 && !c.mismatches; round_no++) {
        random_problem_t rp;
        random_problem(&rp, &rng, round_no % 2);
        check_problem(&rp.ds, &rp.lat, &rp.obj, &c);
        random_problem_free(&rp);
    }
    printf(
        "%llu cases, %llu strategies picked (%llu below a collapsed one), %llu needed a rerun (%llu a second, "
        "cut short of the last size)\n",
        (unsigned long long)c.cases, (unsigned long long)c.picks, (unsigned long long)c.collapsed,
        (unsigned long long)c.reruns, (unsigned long long)c.cut);
    CHECK_EQ_I64(0, (int64_t)c.mismatches);
    /* not vacuous: cases ran, neighbours collapsed, and the pool had to grow */
    CHECK(c.cases > 20);
    CHECK(c.collapsed > 10);
    CHECK(c.reruns > 5);
    CHECK(c.cut >= 3);
    return check_exit();
}
