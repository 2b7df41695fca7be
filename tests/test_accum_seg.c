/* Joinable accumulators (fitness/accum_seg.h): a run of outcomes cut into
 * slices, each accumulated alone and joined in order (left to right, and in
 * the CUDA warp's shuffle tree over 32 slices), gives accum_add's sequential
 * sums field for field, the drawdown included, so every objective's value is
 * the same bits. Hand-built runs pin the drawdown across a join; random runs
 * (gains, losses, ruins, long climbs and falls) and random cuts do the rest. */
#include <string.h>

#include "fitness/accum_seg.h"
#include "tests/check.h"
#include "tests/support/warp_join.h"

static uint64_t next_u64(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static objective_prep_t every_need(void)
{
    objective_prep_t o;
    memset(&o, 0, sizeof o);
    o.kind = OBJ_CALMAR;
    o.need_sumsq = o.need_pos = o.need_log = o.need_dd = 1;
    return o;
}

static int same_accum(const accum_t *a, const accum_t *b)
{
    return a->n == b->n && a->sum == b->sum && a->pos == b->pos && a->sumsq.lo == b->sumsq.lo &&
           a->sumsq.hi == b->sumsq.hi && a->lsum == b->lsum && a->ruin == b->ruin && a->equity == b->equity &&
           a->peak == b->peak && a->maxdd == b->maxdd;
}

static accum_t sequential(const objective_prep_t *o, const int64_t *q, int64_t n)
{
    accum_t a;
    accum_init(&a);
    for (int64_t j = 0; j < n; j++)
        accum_add(&a, o, q[j], q[j] / 7);
    return a;
}

static void slice(const objective_prep_t *o, const int64_t *q, int64_t j0, int64_t j1, accum_seg_t *s)
{
    accum_seg_init(s);
    for (int64_t j = j0; j < j1; j++)
        accum_seg_add(s, o, q[j], q[j] / 7);
}

/* The 32 slices of accum_seg_slice joined as kernels/fitness.cu's tree does. */
static accum_t warp_tree(const objective_prep_t *o, const int64_t *q, int64_t n)
{
    accum_seg_t s[32];
    for (uint32_t l = 0; l < 32; l++) {
        int64_t j0, j1;
        accum_seg_slice(n, l, 32, &j0, &j1);
        slice(o, q, j0, j1, &s[l]);
    }
    warp_join(s, 32, o);
    return s[0].a;
}

/* Random cuts (empty slices included), joined left to right. */
static accum_t random_cuts(const objective_prep_t *o, const int64_t *q, int64_t n, uint64_t *rng)
{
    accum_seg_t all, part;
    int64_t at = 0;
    accum_seg_init(&all);
    while (at < n) {
        int64_t len = (int64_t)(next_u64(rng) % 9);
        if (at + len > n)
            len = n - at;
        slice(o, q, at, at + len, &part);
        accum_seg_join(&all, &part, o);
        at += len;
    }
    return all.a;
}

static void hand_built(void)
{
    const objective_prep_t o = every_need();
    /* equity 10, 4 | -1, 0: the first slice's drawdown is 6, the second's own
     * 5 (its start to its trough), across the cut 11 (peak 10 to -1) */
    const int64_t q[] = {10, -6, -5, 1};
    accum_seg_t a, b;
    accum_t s = sequential(&o, q, 4);
    slice(&o, q, 0, 2, &a);
    slice(&o, q, 2, 4, &b);
    CHECK_EQ_I64(10, a.a.peak);
    CHECK_EQ_I64(6, a.a.maxdd);
    CHECK_EQ_I64(-5, b.trough);
    CHECK_EQ_I64(5, b.a.maxdd);
    accum_seg_join(&a, &b, &o);
    CHECK_EQ_I64(11, a.a.maxdd);
    CHECK_EQ_I64(0, a.a.equity);
    CHECK_EQ_I64(10, a.a.peak);
    CHECK_EQ_I64(-1, a.trough);
    CHECK_EQ_I64(11, s.maxdd);
    CHECK(same_accum(&s, &a.a));
}

int main(void)
{
    uint64_t rng = 2026;
    const objective_prep_t o = every_need();
    int64_t q[700];
    int bad = 0;
    hand_built();
    for (int round = 0; round < 4000; round++) {
        const int64_t n = (int64_t)(next_u64(&rng) % (round < 200 ? 40 : 700));
        const int shape = (int)(next_u64(&rng) % 4);
        for (int64_t j = 0; j < n; j++) {
            int64_t x = (int64_t)(next_u64(&rng) % 2000001) - 1000000;
            if (shape == 1)
                x += 300000; /* a long climb */
            if (shape == 2)
                x -= 300000; /* a long fall */
            if (shape == 3 && next_u64(&rng) % 50 == 0)
                x = EV_RUIN_Q - (int64_t)(next_u64(&rng) % 1000);
            q[j] = x;
        }
        {
            const accum_t s = sequential(&o, q, n), w = warp_tree(&o, q, n), c = random_cuts(&o, q, n, &rng);
            if (!same_accum(&s, &w) || !same_accum(&s, &c)) {
                if (bad++ < 3)
                    fprintf(stderr, "round %d (%lld outcomes): maxdd %lld / tree %lld / cuts %lld\n", round,
                            (long long)n, (long long)s.maxdd, (long long)w.maxdd, (long long)c.maxdd);
            }
            for (int kind = 0; kind < OBJ_COUNT; kind++) {
                objective_prep_t k = o;
                eval_result_t a, b;
                k.kind = kind;
                a = accum_finish(&s, &k);
                b = accum_finish(&w, &k);
                CHECK_EQ_F64(a.fitness, b.fitness);
                CHECK_EQ_I64(a.feasible, b.feasible);
            }
        }
    }
    CHECK_EQ_I64(0, bad);
    return check_exit();
}
