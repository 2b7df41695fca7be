/* Local search's exit pairs (docs/ga.md "Local search", ga.local_search.
 * exit_pairs): with skip_exit_pairs the tables sweep skips exactly the pairs
 * of two exit genes one of which is trail, breakeven or max_hold (the roles
 * read here from the lattice, not from the tables) and keeps every other pair
 * as it was, target x stop included; and the GA's setting reaches its climbs:
 * on lattices with those exits, runs with exit_pairs false spend less on
 * sweeps than with true, and on lattices without them both are the same run. */
#include <stdio.h>
#include <string.h>

#include "fitness/problem.h"
#include "fitness/tables.h"
#include "ga/backend.h"
#include "ga/ga_run.h"
#include "ga/ls_sweep.h"
#include "tests/check.h"
#include "tests/support/ga_fixture.h"
#include "tests/support/random_problem.h"

typedef struct {
    uint64_t pairs, skipped, target_stop, exit_runs, cheaper, plain_runs;
    uint64_t ls_skip, ls_full;
} tally_t;

static int is_more_role(param_role r)
{
    return r == PARAM_TRAIL || r == PARAM_BREAKEVEN || r == PARAM_MAX_HOLD;
}

static int is_exit_role(param_role r)
{
    return is_more_role(r) || r == PARAM_TARGET || r == PARAM_STOP;
}

/* Every pair's worth with and without skip_exit_pairs against the rule. */
static void check_pairs(const lattice_t *lat, const fit_tables_t *t, tally_t *c)
{
    ls_sweep_t all = ls_sweep_tables(t, lat->n_params), skip = all;
    skip.skip_exit_pairs = 1;
    CHECK_EQ_I64(0, all.skip_exit_pairs);
    for (int32_t k1 = 0; k1 < lat->n_params; k1++)
        for (int32_t k2 = k1 + 1; k2 < lat->n_params; k2++) {
            param_role r1 = lat->params[k1].role, r2 = lat->params[k2].role;
            int exits = is_exit_role(r1) && is_exit_role(r2) && (is_more_role(r1) || is_more_role(r2));
            int worth = all.ops->pair_worth(&all, k1, k2);
            CHECK_EQ_I64(worth && !exits, skip.ops->pair_worth(&skip, k1, k2));
            c->pairs++;
            c->skipped += worth && exits;
            c->target_stop += worth && r1 == PARAM_TARGET && r2 == PARAM_STOP;
        }
}

/* Whether the lattice holds two exit genes one of which is trail, breakeven
 * or max_hold, each with 2 values or more (a pair the setting decides). */
static int has_exit_pair(const lattice_t *lat)
{
    int more = 0, exits = 0;
    for (int32_t k = 0; k < lat->n_params; k++)
        if (lat->params[k].n_values >= 2 && is_exit_role(lat->params[k].role)) {
            exits++;
            more += is_more_role(lat->params[k].role);
        }
    return more >= 1 && exits >= 2;
}

static void run_ga(const fit_problem_t *p, backend_t *b, const fit_tables_t *t, uint32_t exit_pairs, ga_result_t *res)
{
    ga_settings_t s;
    ga_run_opts_t o;
    ev_error err;
    fixture_settings(&s);
    s.generations = 12;
    s.ls_every = 2;
    s.ls_random = 3;
    s.ls_exit_pairs = exit_pairs;
    memset(&o, 0, sizeof o);
    o.seed = 5;
    o.top = 8;
    o.tables = t;
    CHECK_EQ_I64(EV_OK, ga_run(&backend_cpu_ops, b, p, &s, &o, res, &err));
}

/* The GA with exit_pairs false and true on one problem. */
static void check_runs(const fit_problem_t *p, backend_t *b, const fit_tables_t *t, tally_t *c)
{
    ga_result_t skip, full;
    run_ga(p, b, t, 0, &skip);
    run_ga(p, b, t, 1, &full);
    if (has_exit_pair(p->lat)) {
        c->exit_runs++;
        c->cheaper += skip.ls_evaluations < full.ls_evaluations;
        c->ls_skip += skip.ls_evaluations;
        c->ls_full += full.ls_evaluations;
    } else {
        c->plain_runs++;
        CHECK_EQ_I64(full.ls_evaluations, skip.ls_evaluations);
        CHECK_EQ_I64(full.evaluations, skip.evaluations);
        CHECK(fixture_same_top(&full.hof, &skip.hof));
    }
    ga_result_free(&skip);
    ga_result_free(&full);
}

static void check_problem(random_problem_t *rp, int ga, tally_t *c)
{
    cpu_problem_t cp;
    if (!cpu_problem_open(&cp, &rp->ds, &rp->lat, &rp->obj)) {
        CHECK(0);
        return;
    }
    check_pairs(&rp->lat, &cp.t.view, c);
    if (ga)
        check_runs(&cp.p, cp.b, &cp.t.view, c);
    cpu_problem_close(&cp);
}

int main(void)
{
    uint64_t rng = 34;
    tally_t c;
    ga_settings_t def;
    ga_settings_default(&def);
    CHECK_EQ_I64(0, def.ls_exit_pairs); /* the default skips them */
    memset(&c, 0, sizeof c);
    for (int round_no = 0; round_no < 160; round_no++) {
        random_problem_t rp;
        random_problem(&rp, &rng, round_no % 4 != 0);
        check_problem(&rp, round_no % 2 == 0, &c);
        random_problem_free(&rp);
    }
    printf(
        "%llu pairs, %llu exit pairs skipped, %llu target x stop kept; GA: %llu runs with exit pairs (%llu "
        "cheaper, sweeps %llu against %llu), %llu without (the same run)\n",
        (unsigned long long)c.pairs, (unsigned long long)c.skipped, (unsigned long long)c.target_stop,
        (unsigned long long)c.exit_runs, (unsigned long long)c.cheaper, (unsigned long long)c.ls_skip,
        (unsigned long long)c.ls_full, (unsigned long long)c.plain_runs);
    CHECK(c.skipped >= 20);
    CHECK(c.target_stop >= 20);
    CHECK(c.exit_runs >= 10);
    CHECK(c.plain_runs >= 5);
    CHECK(c.cheaper >= c.exit_runs / 2);
    CHECK(c.ls_skip < c.ls_full);
    return check_exit();
}
