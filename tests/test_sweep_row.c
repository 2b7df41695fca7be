/* fitness/sweep_row.h against accum_add of every value's race winner
 * (fitness/exit_race.h's race_step), sum by sum: random rows of first hits
 * (never-hit values and ties with the fixed winner's second among them),
 * outcomes up to +-2^40 so that some squares pass 64 bits (the correction
 * after the vector loop) and some reach ruin, every combination of the
 * objective's sums (pos, sumsq, log), 1 to 5 rows (a filter's buckets, then
 * their suffix sums as accum_merge gives them), 1 to 150 values (more than
 * one pass of the loop's 64), with the AVX2 build of the loop where the CPU
 * has it and the plain one always. */
#include <stdio.h>
#include <string.h>

#include "fitness/accum.h"
#include "fitness/exit_race.h"
#include "fitness/sweep_row.h"
#include "tests/check.h"
#include "tests/support/sweep_check.h"

#define MAX_N 150
#define MAX_ROWS 5

typedef struct {
    uint64_t cells, mismatches, big_squares, rounds[2];
} tally_t;

/* An outcome: mostly small, some past 2^32 (|q|^2 past 64 bits), some ruin. */
static int64_t random_q(uint64_t *rng)
{
    switch (splitmix(rng) % 8) {
    case 0: return (int64_t)(splitmix(rng) % (UINT64_C(1) << 41)) - ((int64_t)1 << 40);
    case 1: return EV_RUIN_Q - (int64_t)(splitmix(rng) % 1000);
    default: return (int64_t)(splitmix(rng) % 400000001u) - 200000000;
    }
}

static void random_row(uint64_t *rng, uint32_t n, int32_t *hit, int64_t *q, int64_t *lf)
{
    for (uint32_t i = 0; i < n; i++) {
        hit[i] = splitmix(rng) % 5 == 0 ? EV_NO_HIT : (int32_t)(splitmix(rng) % 12);
        q[i] = random_q(rng);
        lf[i] = (int64_t)(splitmix(rng) % 2000001u) - 1000000;
    }
}

static int same_sums(const accum_t *a, const accum_t *b)
{
    return a->n == b->n && a->sum == b->sum && a->pos == b->pos && a->sumsq.lo == b->sumsq.lo &&
           a->sumsq.hi == b->sumsq.hi && a->lsum == b->lsum && a->ruin == b->ruin;
}

static void check_round(uint64_t *rng, int avx2, tally_t *c)
{
    static accum_t want[MAX_ROWS][MAX_N];
    const uint32_t n = 1 + (uint32_t)(splitmix(rng) % MAX_N), rows = 1 + (uint32_t)(splitmix(rng) % MAX_ROWS);
    const int trades = 1 + (int)(splitmix(rng) % 12), suffix = (int)(splitmix(rng) % 2);
    const uint64_t flags = splitmix(rng);
    objective_prep_t o;
    sweep_row_t s;
    ev_error err;
    memset(&o, 0, sizeof o);
    o.need_pos = (int32_t)(flags & 1);
    o.need_sumsq = (int32_t)(flags >> 1 & 1);
    o.need_log = (int32_t)(flags >> 2 & 1);
    CHECK_EQ_I64(EV_OK, sweep_row_init(&s, &o, rows, n, &err));
    s.avx2 &= avx2;
    c->rounds[s.avx2]++;
    for (uint32_t r = 0; r < rows; r++)
        for (uint32_t i = 0; i < n; i++)
            accum_init(&want[r][i]);
    for (int k = 0; k < trades; k++) {
        int32_t hit[MAX_N];
        int64_t q[MAX_N], lf[MAX_N];
        const race_row_t row = {hit, q, o.need_log ? lf : NULL, RACE_MORE + (int)(splitmix(rng) % MORE_EXITS)};
        const uint32_t at = (uint32_t)(splitmix(rng) % rows);
        race_t fixed;
        random_row(rng, n, hit, q, lf);
        fixed.key = splitmix(rng) % 4 == 0 ? (int64_t)EV_NO_HIT * 8 : (int64_t)(splitmix(rng) % 12) * 8 + RACE_STOP;
        fixed.q = random_q(rng);
        fixed.lf = o.need_log ? (int64_t)(splitmix(rng) % 2000001u) - 1000000 : 0;
        sweep_row_add(&s, &o, at, fixed, &row);
        for (uint32_t i = 0; i < n; i++) {
            const race_t w = race_step(fixed, &row, (int32_t)i);
            c->big_squares += o.need_sumsq && (w.q > INT64_C(0xffffffff) || w.q < -INT64_C(0xffffffff));
            accum_add(&want[at][i], &o, w.q, w.lf);
        }
    }
    if (suffix) {
        sweep_row_suffix(&s);
        for (uint32_t r = rows - 1; r-- > 0;)
            for (uint32_t i = 0; i < n; i++)
                accum_merge(&want[r][i], &want[r + 1][i]);
    }
    for (uint32_t r = 0; r < rows; r++)
        for (uint32_t i = 0; i < n; i++) {
            accum_t got;
            sweep_row_sums(&s, r, i, &got);
            c->cells++;
            if (!same_sums(&got, &want[r][i]) && c->mismatches++ < 5)
                fprintf(stderr,
                        "row %u value %u (of %u x %u, avx2 %d, flags %llu): sum %lld want %lld, n %lld want %lld\n", r,
                        i, rows, n, s.avx2, (unsigned long long)(flags & 7), (long long)got.sum,
                        (long long)want[r][i].sum, (long long)got.n, (long long)want[r][i].n);
        }
    sweep_row_free(&s);
}

int main(void)
{
    uint64_t rng = 34;
    tally_t c;
    memset(&c, 0, sizeof c);
    for (int round = 0; round < 4000; round++)
        check_round(&rng, round % 2, &c);
    printf("%llu cells (%llu rounds plain, %llu AVX2), %llu squares past 64 bits\n", (unsigned long long)c.cells,
           (unsigned long long)c.rounds[0], (unsigned long long)c.rounds[1], (unsigned long long)c.big_squares);
    CHECK(c.cells > 100000);
    CHECK(c.rounds[0] >= 2000);
    CHECK(c.big_squares > 1000);
    CHECK_EQ_I64(0, c.mismatches);
    return check_exit();
}
