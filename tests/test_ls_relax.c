/* Relaxed climbs of kicks (ga/ls_relax.h, docs/ga.md "Kicks",
 * local_search.kick_relax) against a reference that evaluates every
 * neighbour plainly, one genome at a time, through the CPU backend of two
 * problems: the real one and the same with min_trades x pct / 100. The
 * reference climbs as docs/ga.md "Climbing" says (1-gene passes in gene
 * order, the best value when strictly better; at depth 2 the first pair, in
 * pair order from the pair after the climb's last pair move, cyclically,
 * whose best is strictly better), under the relaxed problem from
 * an unknown start, then takes the steepest 1-gene move under the real one
 * (the genome's own result first) and climbs under the real one (at depth 1
 * after a climb at depth 2 in half the starts, as the GA's random starts). Genome,
 * result and the sweeps' cost must match exactly; a relaxation that were not
 * applied (or applied to the second climb) reaches other peaks here. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ga/backend.h"
#include "ga/ls_relax.h"
#include "operators/genome.h"
#include "tests/check.h"
#include "tests/support/ga_fixture.h"
#include "tests/support/random_problem.h"

typedef struct {
    const cpu_problem_t *cp;
    const lattice_t *lat;
    const ls_sweep_t *sw; /* for which pairs a climb sweeps (their rule: test_ls_exit_pairs) */
} ref_t;

static eval_result_t eval_one(const ref_t *f, const uint16_t *g)
{
    eval_result_t r;
    ev_error err;
    CHECK_EQ_I64(EV_OK, backend_cpu_ops.evaluate(f->cp->b, g, 1, &r, &err));
    return r;
}

/* The best (highest rank_key, first on ties) over gene k's values, or with
 * k2 >= 0 over the value pairs of k and k2 (k's value major). */
static uint64_t ref_best(const ref_t *f, const uint16_t *genes, int32_t k, int32_t k2, eval_result_t *best)
{
    uint32_t n1 = f->lat->params[k].n_values, n2 = k2 < 0 ? 1 : f->lat->params[k2].n_values;
    uint64_t at = 0, key = 0;
    uint16_t g[EV_MAX_PARAMS];
    memcpy(g, genes, sizeof g);
    for (uint64_t v = 0; v < (uint64_t)n1 * n2; v++) {
        eval_result_t r;
        g[k] = (uint16_t)(v / n2);
        if (k2 >= 0)
            g[k2] = (uint16_t)(v % n2);
        r = eval_one(f, g);
        if (v == 0 || rank_key(r) > key) {
            key = rank_key(r);
            at = v;
            *best = r;
        }
    }
    return at;
}

/* A pair pass: the pairs k1 < k2 in order, as p = k1 * ng + k2, cyclically
 * from *next; on a move, *next is the pair after it. */
static int ref_pair_pass(const ref_t *f, uint32_t *next, uint16_t *genes, eval_result_t *r)
{
    const uint32_t ng = (uint32_t)f->lat->n_params, np = ng * ng;
    for (uint32_t i = 0; i < np; i++) {
        const uint32_t p = (*next + i) % np, k1 = p / ng, k2 = p % ng, n2 = f->lat->params[k2].n_values;
        eval_result_t b;
        uint64_t v;
        if (k2 <= k1 || f->lat->params[k1].n_values < 2 || n2 < 2 ||
            !f->sw->ops->pair_worth(f->sw, (int32_t)k1, (int32_t)k2))
            continue;
        v = ref_best(f, genes, (int32_t)k1, (int32_t)k2, &b);
        if (rank_key(b) > rank_key(*r)) {
            genes[k1] = (uint16_t)(v / n2);
            genes[k2] = (uint16_t)(v % n2);
            *r = b;
            *next = (p + 1) % np;
            return 1;
        }
    }
    return 0;
}

static void ref_climb(const ref_t *f, uint32_t depth, uint16_t *genes, eval_result_t *r)
{
    const int32_t ng = f->lat->n_params;
    uint32_t next = 0;
    for (int moved = 1; moved;) {
        moved = 0;
        for (int32_t k = 0; k < ng; k++) {
            eval_result_t b;
            uint64_t v;
            if (f->lat->params[k].n_values < 2)
                continue;
            v = ref_best(f, genes, k, -1, &b);
            if (rank_key(b) > rank_key(*r)) {
                genes[k] = (uint16_t)v;
                *r = b;
                moved = 1;
            }
        }
        if (!moved && depth >= 2)
            moved = ref_pair_pass(f, &next, genes, r);
    }
}

static void ref_best_move(const ref_t *f, uint16_t *genes, eval_result_t *r)
{
    int32_t at_k = -1;
    uint64_t at_v = 0;
    eval_result_t at_r;
    *r = eval_one(f, genes);
    for (int32_t k = 0; k < f->lat->n_params; k++) {
        eval_result_t b;
        uint64_t v;
        if (f->lat->params[k].n_values < 2)
            continue;
        v = ref_best(f, genes, k, -1, &b);
        if (rank_key(b) > rank_key(at_k < 0 ? *r : at_r)) {
            at_k = k;
            at_v = v;
            at_r = b;
        }
    }
    if (at_k >= 0) {
        genes[at_k] = (uint16_t)at_v;
        *r = at_r;
    }
}

typedef struct {
    uint64_t climbs, differ, infeasible_peaks, real_peaks, repaired, problems, shallow;
} tally_t;

/* One start at depth 1 or 2, the real climb at real_depth <= depth:
 * ls_climb_relaxed against the reference. */
static void check_start(const ref_t *real, const ref_t *lo, const ls_relaxed_t *rx, const ls_sweep_t *sw,
                        uint32_t depth, uint32_t real_depth, const uint16_t *start, tally_t *c)
{
    const int32_t ng = real->lat->n_params;
    uint16_t got[EV_MAX_PARAMS], want[EV_MAX_PARAMS], plain[EV_MAX_PARAMS], lo_only[EV_MAX_PARAMS];
    eval_result_t r, w, p, ro;
    ls_tally_t tl, tp, to;
    uint64_t movable = 0;
    int peak_real;
    ev_error err;
    memcpy(got, start, sizeof got);
    memcpy(want, start, sizeof want);
    memcpy(plain, start, sizeof plain);
    memset(&r, 0, sizeof r);
    memset(&w, 0, sizeof w);
    memset(&p, 0, sizeof p);
    memset(&ro, 0, sizeof ro);
    memset(&tl, 0, sizeof tl);
    memset(&tp, 0, sizeof tp);
    memset(&to, 0, sizeof to);
    CHECK_EQ_I64(EV_OK, ls_climb_relaxed(&rx->sw, sw, ng, depth, real_depth, got, &r, &tl, &err));
    ref_climb(lo, depth, want, &w);
    peak_real = eval_one(real, want).feasible;
    c->infeasible_peaks += rank_key(w) && !peak_real;
    peak_real &= rank_key(w) != 0;
    ref_best_move(real, want, &w);
    c->repaired += rank_key(w) && !rank_key(eval_one(lo, want)); /* never: lo is looser */
    ref_climb(real, real_depth, want, &w);
    CHECK(memcmp(got, want, (size_t)ng * sizeof *got) == 0);
    CHECK_EQ_I64(w.trades, r.trades);
    CHECK_EQ_I64(w.feasible, r.feasible);
    CHECK(memcmp(&w.fitness, &r.fitness, sizeof w.fitness) == 0);
    /* the sweeps: at least a pass of every gene of two values or more in each
     * climb and the move; one climb alone where the relaxed peak keeps the
     * real min_trades (it is a real peak: the reference's two parts moved nothing) */
    for (int32_t k = 0; k < ng; k++)
        movable += real->lat->params[k].n_values >= 2;
    memcpy(lo_only, start, sizeof lo_only);
    CHECK_EQ_I64(EV_OK, ls_climb(&rx->sw, ng, depth, lo_only, &ro, &to, &err));
    CHECK(to.sweeps >= movable && tl.cost >= tl.sweeps);
    if (peak_real) {
        CHECK_EQ_I64(to.sweeps, tl.sweeps);
        CHECK_EQ_I64(to.cost, tl.cost);
        c->real_peaks++;
    } else {
        CHECK(tl.sweeps >= to.sweeps + 2 * movable);
    }
    if (real_depth < depth) { /* the real climb's depth matters on these problems */
        uint16_t deep[EV_MAX_PARAMS];
        eval_result_t rd;
        memcpy(deep, start, sizeof deep);
        memset(&rd, 0, sizeof rd);
        CHECK_EQ_I64(EV_OK, ls_climb_relaxed(&rx->sw, sw, ng, depth, depth, deep, &rd, &tp, &err));
        c->shallow += memcmp(deep, got, (size_t)ng * sizeof *got) != 0;
    }
    CHECK_EQ_I64(EV_OK, ls_climb(sw, ng, depth, plain, &p, &tp, &err));
    c->differ += memcmp(plain, got, (size_t)ng * sizeof *got) != 0;
    c->climbs++;
}

static void check_problem(random_problem_t *rp, uint64_t *rng, tally_t *c)
{
    cpu_problem_t cp, cl;
    objective_cfg_t lo_obj = rp->obj;
    ls_relaxed_t rx;
    ls_sweep_t sw;
    uint32_t pct = 40 + (uint32_t)(*rng % 56); /* 40..95 */
    int64_t n = rp->ds.n_trades;
    rp->obj.min_trades = n / 4 + (int64_t)(*rng / 64 % (uint64_t)(n / 3 + 1)); /* binding, often */
    lo_obj.min_trades = rp->obj.min_trades * pct / 100;
    if (!cpu_problem_open(&cp, &rp->ds, &rp->lat, &rp->obj)) {
        CHECK(0);
        return;
    }
    if (!cpu_problem_open(&cl, &rp->ds, &rp->lat, &lo_obj)) {
        CHECK(0);
        cpu_problem_close(&cp);
        return;
    }
    sw = ls_sweep_tables(&cp.t.view, rp->lat.n_params);
    sw.skip_exit_pairs = (int)(*rng % 2);
    CHECK_EQ_I64(lo_obj.min_trades < rp->obj.min_trades, ls_relax_init(&rx, &sw, pct));
    CHECK_EQ_I64(0, ls_relax_init(&rx, &sw, 100));
    if (ls_relax_init(&rx, &sw, pct)) {
        ref_t real = {&cp, &rp->lat, &sw}, lo = {&cl, &rp->lat, &sw};
        CHECK_EQ_I64(lo_obj.min_trades, rx.t.obj.min_trades);
        CHECK_EQ_I64(sw.skip_exit_pairs, rx.sw.skip_exit_pairs);
        CHECK(rx.sw.t == &rx.t);
        for (uint32_t i = 0; i < 16; i++) { /* depth 1 (4); 2 (4); 2 with the real climb at 1 (8) */
            const uint32_t depth = i < 4 ? 1 : 2;
            uint16_t g[EV_MAX_PARAMS];
            genome_random(rng_key(*rng), 0, i, rp->lat.n_params, cp.p.shape.n_values, g);
            check_start(&real, &lo, &rx, &sw, depth, i < 8 ? depth : 1, g, c);
        }
        c->problems++;
    }
    cpu_problem_close(&cl);
    cpu_problem_close(&cp);
}

int main(void)
{
    uint64_t rng = 35;
    tally_t c;
    memset(&c, 0, sizeof c);
    for (int round_no = 0; round_no < 120; round_no++) {
        random_problem_t rp;
        random_problem(&rp, &rng, round_no % 3 != 0);
        rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
        check_problem(&rp, &rng, &c);
        random_problem_free(&rp);
    }
    printf(
        "%llu problems, %llu climbs: %llu relaxed peaks infeasible under the real min_trades, %llu feasible "
        "(no real climb after them), %llu ended elsewhere than a plain climb, %llu of those climbed at depth 2 "
        "elsewhere than with the real climb at depth 1\n",
        (unsigned long long)c.problems, (unsigned long long)c.climbs, (unsigned long long)c.infeasible_peaks,
        (unsigned long long)c.real_peaks, (unsigned long long)c.differ, (unsigned long long)c.shallow);
    CHECK(c.problems >= 60);
    CHECK(c.infeasible_peaks >= 30); /* the repair is exercised */
    CHECK(c.real_peaks >= 30);       /* so is the relaxed climb alone */
    CHECK(c.differ >= 30);           /* the relaxation matters on these problems */
    CHECK(c.shallow >= 2);           /* and so does the real climb's depth (rarely) */
    CHECK_EQ_I64(0, c.repaired);
    return check_exit();
}
