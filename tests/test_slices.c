/* The bit-sliced evaluator (fitness/slices_eval.h) is exact: on random
 * problems (every objective, fill level and price, costs, min_trades,
 * drawdown limits, fold statistics, target, stop, trail, breakeven and
 * max_hold with `off`), every lattice point evaluated by the slices (forced,
 * every popcount kernel this CPU runs), the walk (forced) and `auto` gives the
 * bits of tables_eval, and those are the reference's (which has no folds). Some logged results are extreme (+20,000 %: sums of
 * squares past 64 bits; -100 % and below: compound's ruin), and a small
 * budget leaves some exit combinations without planes (they walk). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/platform.h"
#include "fitness/eval_reference.h"
#include "fitness/slices_eval.h"
#include "fitness/tables.h"
#include "tests/check.h"
#include "tests/support/slices_problem.h"

typedef struct {
    uint64_t genomes, sliced, problems, partial, additive, offs;
    uint64_t wide, ruin; /* combinations with sums of squares past 64 bits; with ruined outcomes */
} tally_t;

static int same(eval_result_t a, eval_result_t b)
{
    return a.trades == b.trades && a.feasible == b.feasible && memcmp(&a.fitness, &b.fitness, sizeof a.fitness) == 0;
}

/* One evaluator per mode and kernel over a problem's tables. */
typedef struct {
    slices_eval_t e;
    slices_scratch_t s;
} one_eval_t;

static void one_open(one_eval_t *o, const kept_sets_t *ks, const slices_t *sl, slices_mode m, slices_kernel k)
{
    ev_error err;
    slices_eval_init(&o->e, ks, sl, m, k);
    if (slices_scratch_init(&o->s, &o->e, &err) != EV_OK)
        exit(2);
}

/* Every lattice point through every evaluator; returns the mismatches. */
static int check_points(const fit_problem_t *p, const fit_tables_t *t, uint64_t budget, tally_t *tl)
{
    kept_sets_t ks;
    slices_t sl;
    one_eval_t ev[SLICES_KERNELS + 2];
    int n_ev = 0, bad = 0;
    ev_error err;
    if (kept_sets_build(&ks, t, (uint64_t)64 << 20, &err) != EV_OK || slices_build(&sl, &ks, budget, &err) != EV_OK)
        exit(2);
    if (slices_objective_ok(&t->obj)) {
        tl->additive++;
        CHECK(sl.combo != NULL || budget < (uint64_t)1 << 20); /* a large budget holds every combination */
        CHECK(sl.combos_built == sl.n_combos || budget < (uint64_t)1 << 20);
        tl->partial += sl.combo && sl.combos_built < sl.n_combos;
        for (uint64_t c = 0; c < sl.combos_built; c++) { /* built in order */
            tl->wide += sl.combo[c].width[SLICE_SQ] + sl.combo[c].shift[SLICE_SQ] > 64;
            tl->ruin += sl.combo[c].width[SLICE_RUIN] > 0;
        }
    } else {
        CHECK(sl.combo == NULL); /* drawdown: the walk only */
    }
    one_open(&ev[n_ev++], &ks, &sl, SLICES_MODE_WALK, SLICES_KERNEL_PLAIN);
    one_open(&ev[n_ev++], &ks, &sl, SLICES_MODE_AUTO, slices_kernel_best());
    for (int k = 0; k < SLICES_KERNELS; k++)
        if (slices_kernel_available((slices_kernel)k))
            one_open(&ev[n_ev++], &ks, &sl, SLICES_MODE_SLICES, (slices_kernel)k);
    for (uint64_t i = 0; i < p->lat->size; i++) {
        uint16_t g[EV_MAX_PARAMS];
        eval_result_t want;
        shape_decode(&p->shape, i, g);
        want = tables_eval(t, g); /* the reference has no folds: tables_eval is their oracle */
        if (t->agg == AGG_ALL && !same(want, reference_eval(p, g))) {
            fprintf(stderr, "genome %llu: tables_eval differs from the reference\n", (unsigned long long)i);
            bad++;
        }
        for (int e = 0; e < n_ev; e++) {
            eval_result_t got = slices_eval(&ev[e].e, &ev[e].s, g);
            if (!same(want, got)) {
                fprintf(stderr, "genome %llu, mode %d kernel %s: %.17g/%lld/%d, reference %.17g/%lld/%d\n",
                        (unsigned long long)i, (int)ev[e].e.mode, slices_kernel_name(ev[e].e.kern), got.fitness,
                        (long long)got.trades, got.feasible, want.fitness, (long long)want.trades, want.feasible);
                bad++;
            }
        }
        tl->genomes++;
    }
    for (int e = 0; e < n_ev; e++) {
        if (ev[e].e.mode == SLICES_MODE_SLICES)
            tl->sliced += ev[e].s.slices;
        CHECK(ev[e].e.mode != SLICES_MODE_WALK || ev[e].s.slices == 0);
        slices_scratch_free(&ev[e].s);
    }
    slices_free(&sl);
    kept_sets_free(&ks);
    return bad;
}

static int round_once(uint64_t *rng, int round_no, tally_t *tl)
{
    slices_problem_t sp;
    int bad;
    slices_problem_draw(&sp, rng, (objective_kind)(round_no % OBJ_COUNT), 1); /* each objective as often */
    for (int32_t k = 0; k < sp.lat.n_params; k++)
        tl->offs += (uint64_t)param_has_off(&sp.lat.params[k]);
    bad = check_points(&sp.p, &sp.t.view, sp.budget, tl);
    if (bad)
        fprintf(stderr, "round %d (objective %d, fill %d, aggregate %d) disagrees\n", round_no, sp.obj.kind,
                sp.obj.fill, sp.agg);
    tl->problems++;
    slices_problem_free(&sp);
    return bad;
}

/* A set's sum past 64 bits: sum_b cnt[b] 2^b in two words. */
static void test_weigh(void)
{
    uint64_t cnt[SLICE_MAX_BITS] = {0};
    ev_i128 s;
    cnt[0] = 3;           /* 3 */
    cnt[63] = 2;          /* 2^64: the high word's 1 */
    cnt[64] = 5;          /* 5 * 2^64 */
    cnt[126] = 1;         /* 2^126 */
    cnt[10] = UINT64_MAX; /* (2^64 - 1) 2^10 = 2^74 - 2^10 */
    s = slices_weigh(cnt, SLICE_MAX_BITS, 0);
    /* 3 - 2^10 + 2^64 (1 + 5 + 2^10) + 2^126 */
    CHECK_EQ_I64((int64_t)s.lo, (int64_t)(UINT64_C(3) - UINT64_C(1024)));
    CHECK_EQ_I64((int64_t)s.hi, (int64_t)((UINT64_C(1) << 62) + 6u + 1024u - 1u)); /* the borrow of -2^10 */
    s = slices_weigh(cnt + 3, 61, 3); /* planes 3..63 of the same values, shifted: the bits below 3 dropped */
    CHECK_EQ_I64((int64_t)s.lo, (int64_t)(UINT64_C(0) - UINT64_C(1024)));
    CHECK_EQ_I64((int64_t)s.hi, (int64_t)(1u + 1023u));
}

static void test_env(void)
{
    slices_mode m;
    CHECK(slices_mode_parse("slices", &m) && m == SLICES_MODE_SLICES);
    CHECK(slices_mode_parse("walk", &m) && m == SLICES_MODE_WALK);
    CHECK(slices_mode_parse("auto", &m) && m == SLICES_MODE_AUTO);
    CHECK(!slices_mode_parse("fast", &m));
    CHECK(slices_kernel_available(SLICES_KERNEL_PLAIN));
    CHECK(slices_kernel_available(slices_kernel_best()));
}

/* A wrong value of either environment variable is an error naming it. */
static void test_env_errors(void)
{
    slices_mode m;
    slices_kernel k;
    ev_error err;
    plat_setenv(SLICES_MODE_ENV, "fast");
    CHECK_EQ_I64(EV_EUSAGE, slices_mode_from_env(&m, &err));
    CHECK(strstr(err.msg, "EVOLVE_EVALUATOR is \"fast\": expected auto, walk or slices") != NULL);
    plat_setenv(SLICES_MODE_ENV, "walk");
    CHECK(slices_mode_from_env(&m, &err) == EV_OK && m == SLICES_MODE_WALK);
    plat_setenv(SLICES_KERNEL_ENV, "sse9");
    CHECK_EQ_I64(EV_EUSAGE, slices_kernel_from_env(&k, &err));
    CHECK(strstr(err.msg, "EVOLVE_SLICES_KERNEL is \"sse9\": expected plain, popcnt, avx2 or avx512") != NULL);
    plat_setenv(SLICES_KERNEL_ENV, "plain");
    CHECK(slices_kernel_from_env(&k, &err) == EV_OK && k == SLICES_KERNEL_PLAIN);
    if (!slices_kernel_available(SLICES_KERNEL_AVX512)) {
        plat_setenv(SLICES_KERNEL_ENV, "avx512-vpopcntdq");
        CHECK_EQ_I64(EV_EUSAGE, slices_kernel_from_env(&k, &err));
        CHECK(strstr(err.msg, "this CPU cannot run it") != NULL);
    }
    plat_setenv(SLICES_KERNEL_ENV, "");
    plat_setenv(SLICES_MODE_ENV, "");
}

int main(void)
{
    uint64_t rng = 3434;
    tally_t tl;
    int bad = 0;
    memset(&tl, 0, sizeof tl);
    test_weigh();
    test_env();
    test_env_errors();
    for (int r = 0; r < 160 && !bad; r++)
        bad += round_once(&rng, r, &tl);
    CHECK_EQ_I64(0, bad);
    printf(
        "%llu problems (%llu additive, %llu with some combinations walking, %llu exit roles with off, %llu / %llu "
        "combinations with squares past 64 bits / ruin), %llu lattice points, %llu through the slices; kernels "
        "here: best %s\n",
        (unsigned long long)tl.problems, (unsigned long long)tl.additive, (unsigned long long)tl.partial,
        (unsigned long long)tl.offs, (unsigned long long)tl.wide, (unsigned long long)tl.ruin,
        (unsigned long long)tl.genomes, (unsigned long long)tl.sliced, slices_kernel_name(slices_kernel_best()));
    CHECK(tl.sliced > 20000);
    CHECK(tl.partial > 5);
    CHECK(tl.wide > 0);
    CHECK(tl.ruin > 0);
    CHECK(tl.offs > 20);
    return check_exit();
}
