/* Dominance sums with whole exit combinations per thread
 * (fitness/dominance_many.h: a group of combinations binned trade by trade
 * with its own race of the exits) against the pass that takes one
 * combination at a time (dominance_opts_t.by_block) and against the tables
 * evaluator (tables_outcome's race, genome by genome), on random problems
 * with SPEC sec. 4.1's exits (each role present half the time, `off` among
 * their values half the time), every additive objective, fill level and
 * price, costs, min_trades, and a fold statistic every third problem, on 1
 * to 3 threads: the whole ranking (every feasible point's key, index,
 * fitness and trades) and the heatmap must be identical, and so must a
 * short top-K (1 to 4: its bar, full early, refuses cells before they are
 * offered). A pass stopped after a random round and resumed there ends with
 * the same list. The new pass again with slices of a few dozen bytes to a
 * few KB (dominance_opts_t.tile_bytes: the fused sweeps and ranking cut
 * these small blocks as they cut the trader's 10 MB ones), and heatmap axes
 * drawn at random (a heatmap axis along the rows the ranking screens, or
 * not). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "fitness/dominance.h"
#include "fitness/dominance_many.h"
#include "fitness/more_exits.h"
#include "ga/grid.h"
#include "tests/check.h"
#include "tests/support/random_problem.h"

typedef struct {
    int problems, many, trail, breakeven, hold, off, folds, fill, resumed;
    int tiled, total_return, row_heat; /* cut into slices; the sum screen; a heatmap axis along the rows */
} tally_t;

typedef struct {
    uint64_t calls, last, stop_at; /* stop_at: the call that ends the pass (0: none) */
} hook_log_t;

static ev_status on_round(void *ctx, uint64_t done, ev_error *err)
{
    hook_log_t *h = (hook_log_t *)ctx;
    h->last = done;
    if (++h->calls == h->stop_at)
        return ev_fail(err, EV_EINTR, "stopped by the test after %llu points", (unsigned long long)done);
    return EV_OK;
}

static int same_top(const topk_t *a, const topk_t *b)
{
    return a->n == b->n && !memcmp(a->e, b->e, (size_t)a->n * sizeof *a->e);
}

static int same_heat(const grid_heat_t *a, const grid_heat_t *b)
{
    return !memcmp(a->key, b->key, (size_t)a->nx * a->ny * sizeof *a->key);
}

/* The whole lattice into top and heat by dominance sums (by_block or not;
 * tile: the slices' bytes, 0: the default), from start, told every round
 * through log (NULL: no hook). */
static ev_status dominance_tiled(const fit_problem_t *p, const fit_tables_t *t, int by_block, uint64_t tile,
                                 uint64_t start, hook_log_t *log, topk_t *top, grid_heat_t *heat, ev_error *err)
{
    grid_progress_hook_t hook = {start, on_round, log};
    dominance_opts_t o;
    grid_sink_t sink = grid_sink_of(top, heat);
    memset(&o, 0, sizeof o);
    o.by_block = by_block;
    o.tile_bytes = tile;
    o.hook = log ? &hook : NULL;
    return dominance_grid_sink(p, t, &o, &sink, err);
}

static ev_status dominance(const fit_problem_t *p, const fit_tables_t *t, int by_block, uint64_t start, hook_log_t *log,
                           topk_t *top, grid_heat_t *heat, ev_error *err)
{
    return dominance_tiled(p, t, by_block, 0, start, log, top, heat, err);
}

/* 1 when this problem's pass gives whole combinations to threads. */
static int takes_many(const fit_tables_t *t, int threads)
{
    dom_plan_t plan;
    uint64_t bytes = (uint64_t)dom_cells_words(&t->obj) * 8u * (uint64_t)dominance_sets(t);
    dominance_plan(&plan, t, DOMINANCE_DEFAULT_BUDGET, bytes);
    return dominance_many_group(&plan, bytes * plan.cells, tables_exit_combos(t), DOMINANCE_DEFAULT_BUDGET, threads) >
           0;
}

/* Stopped after a random round, then resumed at its last done. */
static void check_resume(const fit_problem_t *p, const fit_tables_t *t, const topk_t *full, uint64_t *rng, tally_t *c)
{
    hook_log_t log = {0, 0, 0};
    topk_t got;
    ev_error err;
    CHECK_EQ_I64(EV_OK, dominance(p, t, 0, 0, &log, NULL, NULL, &err));
    CHECK_EQ_I64((int64_t)p->lat->size, (int64_t)log.last);
    if (log.calls < 2)
        return;
    topk_init(&got, full->k, &err);
    log.stop_at = 1 + *rng % (log.calls - 1);
    log.calls = 0;
    CHECK_EQ_I64(EV_EINTR, dominance(p, t, 0, 0, &log, &got, NULL, &err));
    CHECK(log.last < p->lat->size);
    log.stop_at = 0;
    CHECK_EQ_I64(EV_OK, dominance(p, t, 0, log.last, &log, &got, NULL, &err));
    CHECK_EQ_I64((int64_t)p->lat->size, (int64_t)log.last);
    CHECK(same_top(full, &got));
    c->resumed++;
    topk_free(&got);
}

static void check_problem(const fit_problem_t *p, const tables_host_t *th, uint64_t *rng, tally_t *c)
{
    const fit_tables_t *t = &th->view;
    const lattice_t *lat = p->lat;
    int32_t px = (int32_t)(*rng % (uint64_t)lat->n_params), py = (int32_t)((*rng >> 8) % (uint64_t)lat->n_params);
    uint32_t k = (uint32_t)lat->size;
    uint64_t tile = (uint64_t)16 << (*rng >> 16) % 9, cells = 1;
    uint64_t cell_bytes = (uint64_t)dom_cells_words(&t->obj) * 8u * (uint64_t)dominance_sets(t);
    topk_t tab, many, block, tiled;
    grid_heat_t h_tab, h_many, h_block, h_tiled;
    grid_opts_t o;
    grid_stats_t gs;
    backend_t *cpu = NULL;
    ev_error err;
    int threads = 1 + (int)(*rng % 3);
#ifdef _OPENMP
    omp_set_num_threads(threads);
#endif
    topk_init(&tab, k, &err);
    topk_init(&many, k, &err);
    topk_init(&block, k, &err);
    topk_init(&tiled, k, &err);
    py = py == px ? (px + 1) % lat->n_params : py;
    grid_heat_init(&h_tab, px, py, lat->params[px].n_values, lat->params[py].n_values, &err);
    grid_heat_init(&h_many, px, py, h_tab.nx, h_tab.ny, &err);
    grid_heat_init(&h_block, px, py, h_tab.nx, h_tab.ny, &err);
    grid_heat_init(&h_tiled, px, py, h_tab.nx, h_tab.ny, &err);
    memset(&o, 0, sizeof o);
    o.evaluator = EVAL_TABLES;
    o.heat = &h_tab;
    CHECK_EQ_I64(EV_OK, backend_cpu_ops.open(&cpu, p, th, &err));
    CHECK_EQ_I64(EV_OK, grid_run(&backend_cpu_ops, cpu, p, &o, &tab, &gs, &err));
    backend_cpu_ops.close(cpu);
    CHECK_EQ_I64(EV_OK, dominance(p, t, 0, 0, NULL, &many, &h_many, &err));
    CHECK_EQ_I64(EV_OK, dominance(p, t, 1, 0, NULL, &block, &h_block, &err));
    CHECK(same_top(&tab, &many));
    CHECK(same_top(&tab, &block));
    CHECK(same_heat(&h_tab, &h_many));
    CHECK(same_heat(&h_tab, &h_block));
    CHECK_EQ_I64(EV_OK, dominance_tiled(p, t, 0, tile, 0, NULL, &tiled, &h_tiled, &err));
    CHECK(same_top(&tab, &tiled));
    CHECK(same_heat(&h_tab, &h_tiled));
    { /* a short list: full after the first rounds, so the list's bar refuses cells early */
        topk_t want, got_many, got_block;
        uint32_t kk = 1 + (uint32_t)(*rng >> 11) % 4;
        topk_init(&want, kk, &err);
        topk_init(&got_many, kk, &err);
        topk_init(&got_block, kk, &err);
        for (uint32_t i = 0; i < tab.n; i++)
            topk_offer(&want, tab.e[i].index, tab.e[i].r);
        CHECK_EQ_I64(EV_OK, dominance(p, t, 0, 0, NULL, &got_many, NULL, &err));
        CHECK_EQ_I64(EV_OK, dominance(p, t, 1, 0, NULL, &got_block, NULL, &err));
        CHECK(same_top(&want, &got_many));
        CHECK(same_top(&want, &got_block));
        got_many.n = 0; /* the same list again, empty */
        CHECK_EQ_I64(EV_OK, dominance_tiled(p, t, 0, tile, 0, NULL, &got_many, NULL, &err));
        CHECK(same_top(&want, &got_many));
        topk_free(&got_block);
        topk_free(&got_many);
        topk_free(&want);
    }
    if (takes_many(t, threads)) {
        c->many++;
        c->trail += t->more[MORE_TRAIL].n > 0;
        c->breakeven += t->more[MORE_BREAKEVEN].n > 0;
        c->hold += t->more[MORE_HOLD].n > 0;
        c->folds += t->agg != AGG_ALL;
        c->fill += t->fill_price;
        for (uint32_t i = 0; i < (uint32_t)lat->n_params; i++)
            c->off +=
                param_role_can_off(lat->params[i].role) && more_off(lat->params[i].values[lat->params[i].n_values - 1]);
        check_resume(p, t, &many, rng, c);
        for (int32_t f = 0; f < t->n_filters; f++)
            cells *= t->filter_n[f];
        c->tiled += cells * cell_bytes > tile && t->n_filters > 1;
        c->total_return += t->agg == AGG_ALL && t->obj.kind == OBJ_TOTAL_RETURN;
        c->row_heat +=
            t->n_filters > 0 && (px == t->filter_param[t->n_filters - 1] || py == t->filter_param[t->n_filters - 1]);
    }
    c->problems++;
    grid_heat_free(&h_tiled);
    grid_heat_free(&h_block);
    grid_heat_free(&h_many);
    grid_heat_free(&h_tab);
    topk_free(&tiled);
    topk_free(&block);
    topk_free(&many);
    topk_free(&tab);
}

int main(void)
{
    static const int32_t aggs[] = {AGG_MEAN_FOLD, AGG_MEDIAN_FOLD, AGG_WORST_FOLD};
    uint64_t rng = 3434;
    tally_t c;
    memset(&c, 0, sizeof c);
    for (int round_no = 0; round_no < 80; round_no++) {
        dataset_t ds;
        lattice_t lat;
        objective_cfg_t obj;
        fit_problem_t p;
        tables_host_t th;
        uint8_t fold[256];
        ev_error err;
        random_dataset(&ds, &rng, NULL);
        if (round_no % 2)
            random_lattice_off(&lat, &ds, &rng);
        else
            random_lattice_more(&lat, &ds, &rng);
        random_objective(&obj, &rng);
        if (lat.size_fits && lat.size <= 20000 && problem_init(&p, &ds, &lat, &obj, &err) == EV_OK) {
            if (round_no % 3 == 0 && ds.n_trades <= 256) { /* a fold statistic over 2-4 day folds */
                for (int64_t j = 0; j < ds.n_trades; j++)
                    fold[j] = (uint8_t)((uint64_t)j * 7 % (2 + (uint64_t)round_no % 3));
                p.fold = fold;
                p.n_folds = 2 + round_no % 3;
                p.agg = aggs[round_no % 3];
            }
            if (dominance_applicable(&p) && tables_build(&th, &p, &err) == EV_OK) {
                check_problem(&p, &th, &rng, &c);
                tables_free(&th);
            }
            problem_free(&p);
        }
        lattice_free(&lat);
        dataset_free(&ds);
        rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    }
    printf(
        "%d problems; %d took whole combinations per thread (trail %d, breakeven %d, max_hold %d, off values %d, "
        "fold statistics %d, fill price %d, cut into slices %d, total_return %d, a heatmap axis along the rows %d), "
        "%d stopped and resumed\n",
        c.problems, c.many, c.trail, c.breakeven, c.hold, c.off, c.folds, c.fill, c.tiled, c.total_return, c.row_heat,
        c.resumed);
    /* not vacuous: the new pass ran with each role, off, folds and fill */
    CHECK(c.problems > 40);
    CHECK(c.many > 30);
    CHECK(c.trail > 5 && c.breakeven > 5 && c.hold > 5 && c.off > 5);
    CHECK(c.folds > 3 && c.fill > 5);
    CHECK(c.resumed > 20);
    CHECK(c.tiled > 10 && c.total_return > 5 && c.row_heat > 5);
    return check_exit();
}
