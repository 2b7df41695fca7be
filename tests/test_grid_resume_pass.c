/* A grid pass stopped after any block and started again where it stopped
 * (grid_opts_t.hook, what --grid --resume does) ends with the top-K and the
 * heatmap of an uninterrupted pass, bit for bit, and both equal brute force
 * over the reference evaluator; on random problems with SPEC sec. 4.1's
 * exits, for the reference and tables evaluators in small batches and the
 * dominance sums in small blocks (leading filters fixed). The hook is told
 * every block, in increasing order, ending at the lattice's size; a start
 * that ends no block of the dominance sums is refused. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fitness/dominance.h"
#include "fitness/eval_reference.h"
#include "ga/grid.h"
#include "tests/check.h"
#include "tests/support/random_problem.h"

typedef struct {
    uint64_t calls, last, stop_at; /* stop_at: the call that ends the pass (0: none) */
    int ordered;                   /* 1 while every done exceeded the one before */
} hook_log_t;

static ev_status on_block(void *ctx, uint64_t done, ev_error *err)
{
    hook_log_t *h = (hook_log_t *)ctx;
    h->ordered &= done > h->last;
    h->last = done;
    if (++h->calls == h->stop_at)
        return ev_fail(err, EV_EINTR, "stopped by the test after %llu points", (unsigned long long)done);
    return EV_OK;
}

static ev_status pass(const fit_problem_t *p, backend_t *b, int ev, uint64_t start, hook_log_t *log, topk_t *top,
                      grid_heat_t *heat, ev_error *err)
{
    grid_progress_hook_t hook = {start, on_block, log};
    grid_opts_t o;
    grid_stats_t gs;
    memset(&o, 0, sizeof o);
    o.evaluator = (evaluator_kind)ev;
    o.batch = 5;                  /* tables, reference: many batches */
    o.dominance_budget = 3 * 128; /* dominance: blocks of a few cells */
    o.heat = heat;
    o.hook = &hook;
    log->ordered = 1;
    log->last = start;
    return grid_run(&backend_cpu_ops, b, p, &o, top, &gs, err);
}

static int same_top(const topk_t *a, const topk_t *b)
{
    return a->n == b->n && !memcmp(a->e, b->e, (size_t)a->n * sizeof *a->e);
}

/* The K best of every point by the reference evaluator, as top-K entries. */
static void brute_top(const fit_problem_t *p, topk_t *want)
{
    for (uint64_t i = 0; i < p->lat->size; i++) {
        uint16_t g[EV_MAX_PARAMS];
        shape_decode(&p->shape, i, g);
        topk_offer(want, i, reference_eval(p, g));
    }
}

static void check_evaluator(const fit_problem_t *p, backend_t *b, int ev, uint32_t k, uint64_t *rng, int *stops)
{
    const lattice_t *lat = p->lat;
    int32_t px = lat->n_params - 1, py = 0;
    topk_t full, got, want;
    grid_heat_t heat_full, heat_got;
    hook_log_t log = {0, 0, 0, 1}, cut = {0, 0, 0, 1};
    ev_error err;
    ev_status st;
    topk_init(&full, k, &err);
    topk_init(&got, k, &err);
    topk_init(&want, k, &err);
    grid_heat_init(&heat_full, px, py, lat->params[px].n_values, lat->params[py].n_values, &err);
    grid_heat_init(&heat_got, px, py, lat->params[px].n_values, lat->params[py].n_values, &err);
    CHECK_EQ_I64(EV_OK, pass(p, b, ev, 0, &log, &full, &heat_full, &err));
    cut.last = 0;
    CHECK(log.ordered);
    CHECK_EQ_I64((int64_t)lat->size, (int64_t)log.last);
    brute_top(p, &want);
    CHECK(same_top(&want, &full));
    /* stopped after a random block, then resumed from its last done; half the
     * time stopped again right at the next block and resumed once more */
    cut.stop_at = log.calls > 1 ? 1 + *rng % (log.calls - 1) : 0;
    for (int round_no = 0;; round_no++) {
        uint64_t start = cut.last;
        st = pass(p, b, ev, round_no ? start : 0, &cut, &got, &heat_got, &err);
        if (st != EV_EINTR || cut.last == lat->size)
            break; /* a stop at the last block leaves nothing to resume */
        CHECK(cut.last > start || round_no == 0);
        CHECK(round_no < 2);
        (*stops)++;
        cut.calls = 0;
        cut.stop_at = round_no == 0 && (*rng >> 7) % 2 ? 1 : 0;
        *rng = *rng * 6364136223846793005ull + 1442695040888963407ull;
    }
    if (st == EV_EINTR)
        st = EV_OK;
    CHECK(cut.ordered);
    CHECK_EQ_I64(EV_OK, st);
    CHECK_EQ_I64((int64_t)lat->size, (int64_t)cut.last);
    CHECK(same_top(&full, &got));
    CHECK(!memcmp(heat_full.key, heat_got.key, (size_t)heat_full.nx * heat_full.ny * sizeof *heat_full.key));
    grid_heat_free(&heat_got);
    grid_heat_free(&heat_full);
    topk_free(&want);
    topk_free(&got);
    topk_free(&full);
}

/* dominance_first_block: block boundaries are accepted, anything else refused. */
static void check_first_block(void)
{
    dom_plan_t plan;
    uint64_t block = 99;
    ev_error err;
    memset(&plan, 0, sizeof plan);
    plan.cells = 6;
    plan.combos = 4;
    CHECK_EQ_I64(EV_OK, dominance_first_block(&plan, 3, 0, &block, &err));
    CHECK_EQ_I64(0, (int64_t)block);
    CHECK_EQ_I64(EV_OK, dominance_first_block(&plan, 3, 5 * 6, &block, &err));
    CHECK_EQ_I64(5, (int64_t)block);
    CHECK_EQ_I64(EV_OK, dominance_first_block(&plan, 3, 12 * 6, &block, &err));
    CHECK_EQ_I64(12, (int64_t)block);
    CHECK_EQ_I64(EV_ECONFIG, dominance_first_block(&plan, 3, 5 * 6 + 1, &block, &err));
    CHECK_CONTAINS(err.msg, "end no block");
    CHECK_EQ_I64(EV_ECONFIG, dominance_first_block(&plan, 3, 13 * 6, &block, &err));
}

int main(void)
{
    uint64_t rng = 20261128;
    int problems = 0, stops = 0, dominance = 0;
    check_first_block();
    for (int round_no = 0; round_no < 60; round_no++) {
        random_problem_t rp;
        fit_problem_t p;
        tables_host_t t;
        backend_t *b = NULL;
        ev_error err;
        random_problem(&rp, &rng, 1);
        if (rp.lat.n_params >= 2 && problem_init(&p, &rp.ds, &rp.lat, &rp.obj, &err) == EV_OK) {
            if (tables_build(&t, &p, &err) == EV_OK && backend_cpu_ops.open(&b, &p, &t, &err) == EV_OK) {
                uint32_t k = 1 + (uint32_t)(rng % 12);
                for (int ev = EVAL_REFERENCE; ev <= EVAL_DOMINANCE; ev++) {
                    if (ev == EVAL_DOMINANCE && !dominance_applicable(&p))
                        continue;
                    dominance += ev == EVAL_DOMINANCE;
                    check_evaluator(&p, b, ev, k, &rng, &stops);
                }
                backend_cpu_ops.close(b);
                tables_free(&t);
                problems++;
            }
            problem_free(&p);
        }
        random_problem_free(&rp);
    }
    printf("%d problems, %d stopped passes resumed, %d dominance passes\n", problems, stops, dominance);
    CHECK(problems >= 40);
    CHECK(stops >= 80);
    CHECK(dominance >= 20);
    return check_exit();
}
