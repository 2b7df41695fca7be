/* Local search's batch sweeps (ga/ls_sweep.h, what strategies climb with)
 * against its tables sweeps on trade-log problems: every gene and pair sweep
 * through the CPU backend's evaluate op equals the tables sweep bit for bit,
 * each climb ends on the same genome and result, and a GA that climbs with
 * batches makes the run that climbs with tables (only ls_evaluations, the
 * sweeps' cost, differs: n_values backtests per gene sweep). */
#include <stdio.h>
#include <string.h>

#include "fitness/problem.h"
#include "fitness/tables.h"
#include "ga/backend.h"
#include "ga/ga_run.h"
#include "ga/local_search.h"
#include "ga/ls_sweep.h"
#include "tests/check.h"
#include "tests/support/ga_fixture.h"
#include "tests/support/random_problem.h"
#include "tests/support/sweep_check.h"

typedef struct {
    uint64_t checked, mismatches, climbs, moves;
} tally_t;

/* Every sweep of genes by both kinds, then a climb from genes by both. */
static void check_genome(const ls_sweep_t *tab, const ls_sweep_t *bat, const uint16_t *genes, tally_t *c)
{
    static eval_result_t a[1u << 14], b[1u << 14];
    int32_t ng = tab->n_genes;
    uint16_t ga[EV_MAX_PARAMS], gb[EV_MAX_PARAMS];
    eval_result_t ra, rb;
    ls_tally_t ta, tb;
    ev_error err;
    for (int32_t k1 = 0; k1 < ng; k1++)
        for (int32_t k2 = -1; k2 < ng; k2++) {
            uint32_t n1 = tab->ops->n_values(tab, k1), n2 = k2 >= 0 ? tab->ops->n_values(tab, k2) : 1;
            if (k2 == k1 || (uint64_t)n1 * n2 > (1u << 14))
                continue;
            CHECK_EQ_I64(n1, bat->ops->n_values(bat, k1));
            CHECK_EQ_I64((uint64_t)n1 * n2, bat->ops->cost(bat, k1, k2));
            if (k2 < 0) {
                CHECK_EQ_I64(EV_OK, tab->ops->gene(tab, genes, k1, a, &err));
                CHECK_EQ_I64(EV_OK, bat->ops->gene(bat, genes, k1, b, &err));
            } else {
                CHECK_EQ_I64(EV_OK, tab->ops->pair(tab, genes, k1, k2, a, &err));
                CHECK_EQ_I64(EV_OK, bat->ops->pair(bat, genes, k1, k2, b, &err));
            }
            for (uint64_t v = 0; v < (uint64_t)n1 * n2; v++, c->checked++)
                if (!same(a[v], b[v]) && c->mismatches++ < 5)
                    fprintf(stderr, "sweep (%d, %d) neighbour %llu: batch %.17g/%lld, tables %.17g/%lld\n", k1, k2,
                            (unsigned long long)v, b[v].fitness, (long long)b[v].trades, a[v].fitness,
                            (long long)a[v].trades);
        }
    memcpy(ga, genes, (size_t)ng * sizeof *ga);
    memcpy(gb, genes, (size_t)ng * sizeof *gb);
    ra = tables_eval(tab->t, genes);
    rb = ra;
    memset(&ta, 0, sizeof ta);
    memset(&tb, 0, sizeof tb);
    CHECK_EQ_I64(EV_OK, ls_climb(tab, ng, 2, ga, &ra, &ta, &err));
    {
        /* batches run every pair; tables skip those that fall back to plain
         * evaluation: the same pairs for the same climb */
        ls_sweep_ops_t ops = *bat->ops;
        ls_sweep_t same_pairs = *bat;
        ops.pair_worth = tab->ops->pair_worth;
        same_pairs.ops = &ops;
        same_pairs.t = tab->t;
        CHECK_EQ_I64(EV_OK, ls_climb(&same_pairs, ng, 2, gb, &rb, &tb, &err));
    }
    if (memcmp(ga, gb, (size_t)ng * sizeof *ga) || !same(ra, rb) || ta.moves != tb.moves || ta.sweeps != tb.sweeps) {
        if (c->mismatches++ < 5)
            fprintf(stderr, "climbs differ: %llu/%llu moves, %llu/%llu sweeps\n", (unsigned long long)ta.moves,
                    (unsigned long long)tb.moves, (unsigned long long)ta.sweeps, (unsigned long long)tb.sweeps);
    }
    c->climbs++;
    c->moves += tb.moves;
}

static void check_problem(const dataset_t *ds, const lattice_t *lat, const objective_cfg_t *obj, uint64_t *rng,
                          tally_t *c)
{
    fit_problem_t p;
    tables_host_t t;
    backend_t *b = NULL;
    uint32_t nv[EV_MAX_PARAMS];
    uint16_t g[EV_MAX_PARAMS];
    ev_error err;
    memset(&t, 0, sizeof t);
    if (problem_init(&p, ds, lat, obj, &err) != EV_OK || tables_build(&t, &p, &err) != EV_OK ||
        backend_cpu_ops.open(&b, &p, &t, &err) != EV_OK) {
        fprintf(stderr, "problem: %s\n", err.msg);
        c->mismatches++;
        return;
    }
    for (int32_t k = 0; k < lat->n_params; k++)
        nv[k] = lat->params[k].n_values;
    {
        ls_sweep_t tab = ls_sweep_tables(&t.view, lat->n_params);
        ls_sweep_t bat = ls_sweep_batch(lat->n_params, nv, backend_cpu_ops.evaluate, b);
        for (int i = 0; i < 3; i++) {
            for (int32_t k = 0; k < lat->n_params; k++)
                g[k] = (uint16_t)(splitmix(rng) % nv[k]);
            check_genome(&tab, &bat, g, c);
        }
    }
    backend_cpu_ops.close(b);
    tables_free(&t);
    problem_free(&p);
}

/* The fixture's GA climbing with tables, then with batches. */
static void check_ga_run(tally_t *c)
{
    ga_fixture_t f;
    ga_settings_t s;
    ga_result_t rt, rb;
    ga_run_opts_t o;
    ev_error err;
    fixture_open(&f, 6, 8);
    fixture_settings(&s);
    s.generations = 12;
    s.ls_every = 2;
    s.ls_members = 2;
    s.ls_depth = 2;
    memset(&o, 0, sizeof o);
    o.seed = 11;
    o.top = 10;
    o.tables = &f.t.view;
    CHECK_EQ_I64(EV_OK, ga_run(&backend_cpu_ops, f.b, &f.p, &s, &o, &rt, &err));
    o.tables = NULL;
    o.ls_batch = 1;
    CHECK_EQ_I64(EV_OK, ga_run(&backend_cpu_ops, f.b, &f.p, &s, &o, &rb, &err));
    CHECK_EQ_I64(rt.generations, rb.generations);
    CHECK_EQ_I64(rt.evaluations, rb.evaluations);
    CHECK_EQ_I64(rt.ls_improved, rb.ls_improved);
    CHECK(rt.ls_improved > 0);
    CHECK(rb.ls_evaluations > 0);
    CHECK_EQ_I64(rt.hof.n, rb.hof.n);
    for (uint32_t j = 0; j < rt.hof.n && j < rb.hof.n; j++)
        if (memcmp(rt.hof.e[j].genes, rb.hof.e[j].genes, sizeof rt.hof.e[j].genes) ||
            !same(rt.hof.e[j].r, rb.hof.e[j].r))
            c->mismatches++;
    printf(
        "GA: %u generations, %llu evaluations, %llu climbed genomes put in by both; sweeps cost %llu (tables) "
        "and %llu (batches)\n",
        rb.generations, (unsigned long long)rb.evaluations, (unsigned long long)rb.ls_improved,
        (unsigned long long)rt.ls_evaluations, (unsigned long long)rb.ls_evaluations);
    ga_result_free(&rt);
    ga_result_free(&rb);
    fixture_close(&f);
}

int main(void)
{
    uint64_t rng = 17;
    tally_t c;
    memset(&c, 0, sizeof c);
    for (int round_no = 0; round_no < 200 && !c.mismatches; round_no++) {
        dataset_t ds;
        lattice_t lat;
        objective_cfg_t obj;
        random_dataset(&ds, &rng, NULL);
        random_lattice(&lat, &ds, &rng);
        random_objective(&obj, &rng);
        check_problem(&ds, &lat, &obj, &rng, &c);
        lattice_free(&lat);
        dataset_free(&ds);
        if (c.mismatches)
            fprintf(stderr, "round %d (objective %d) disagrees\n", round_no, obj.kind);
    }
    check_ga_run(&c);
    printf("%llu neighbours, %llu climbs (%llu moves): batch sweeps = tables sweeps\n", (unsigned long long)c.checked,
           (unsigned long long)c.climbs, (unsigned long long)c.moves);
    CHECK(c.checked > 10000);
    CHECK(c.moves > 10);
    CHECK_EQ_I64(0, c.mismatches);
    return check_exit();
}
