#include "fitness/sweep_levels.h"

#include <stdlib.h>
#include <string.h>

static accum_t *accums(size_t n, int *failed)
{
    accum_t *a = (accum_t *)malloc((n ? n : 1) * sizeof *a);
    if (!a) {
        *failed = 1;
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        accum_init(&a[i]);
    return a;
}

ev_status sweep_levels_init(sweep_levels_t *s, uint32_t n1, uint32_t n2, ev_error *err)
{
    int failed = 0;
    memset(s, 0, sizeof *s);
    s->n1 = n1;
    s->n2 = n2;
    s->row = accums((size_t)n1 * (n2 + 1u), &failed);
    s->col = accums((size_t)n2 * (n1 + 1u), &failed);
    s->both = accums((size_t)(n1 + 1u) * (n2 + 1u), &failed);
    s->k1 = (int64_t *)malloc(((size_t)n1 + 1) * sizeof *s->k1);
    s->k2 = (int64_t *)malloc(((size_t)n2 + 1) * sizeof *s->k2);
    if (failed || !s->k1 || !s->k2) {
        sweep_levels_free(s);
        return ev_fail(err, EV_ENOMEM, "out of memory for a sweep over two exit levels (%u x %u values)", n1, n2);
    }
    return EV_OK;
}

void sweep_levels_free(sweep_levels_t *s)
{
    free(s->row);
    free(s->col);
    free(s->both);
    free(s->k1);
    free(s->k2);
    memset(s, 0, sizeof *s);
}

/* A row's race keys into k; 1 when they are monotone, *up: nondecreasing. */
static int row_keys(const race_row_t *r, uint32_t n, int64_t *k, int *up)
{
    int inc = 1, dec = 1;
    for (uint32_t i = 0; i < n; i++) {
        k[i] = (int64_t)r->hit[i] * 8 + r->role;
        if (i) {
            inc &= k[i] >= k[i - 1];
            dec &= k[i] <= k[i - 1];
        }
    }
    *up = inc;
    return inc | dec;
}

/* The values of a monotone row whose key is above x (they lose to x), as
 * [*lo, *hi): a suffix of a nondecreasing row, a prefix of the other. */
static void above(const int64_t *k, uint32_t n, int up, int64_t x, uint32_t *lo, uint32_t *hi)
{
    uint32_t a = 0, b = n; /* the first value where (up ? k > x : k <= x) */
    while (a < b) {
        const uint32_t m = a + (b - a) / 2;
        if (up ? k[m] > x : k[m] <= x)
            b = m;
        else
            a = m + 1;
    }
    *lo = up ? a : 0;
    *hi = up ? n : a;
}

/* One trade's outcome added (s = 1) to or taken (s = -1) from a's sums, as
 * accum_add adds it. */
static void signed_add(accum_t *a, const objective_prep_t *o, int64_t q, int64_t lf, int64_t s)
{
    a->n += s;
    a->sum += s * q;
    if (o->need_pos && q > 0)
        a->pos += s * q;
    if (o->need_sumsq) {
        const ev_i128 q2 = i128_mul_i64(q, q);
        a->sumsq = s > 0 ? i128_add(a->sumsq, q2) : i128_sub(a->sumsq, q2);
    }
    if (o->need_log) {
        if (q <= EV_RUIN_Q)
            a->ruin += s;
        else
            a->lsum += s * lf;
    }
}

/* The trade in entries [lo, hi) of a 1-D difference array. */
static void add_range(accum_t *d, const objective_prep_t *o, uint32_t lo, uint32_t hi, int64_t q, int64_t lf)
{
    if (lo >= hi)
        return;
    signed_add(&d[lo], o, q, lf, 1);
    signed_add(&d[hi], o, q, lf, -1);
}

static void cell_by_cell(const sweep_levels_t *s, const objective_prep_t *o, race_t fixed, const race_row_t *r1,
                         const race_row_t *r2, accum_t *out)
{
    for (uint32_t i1 = 0; i1 < s->n1; i1++) {
        const race_t w1 = race_step(fixed, r1, (int32_t)i1);
        for (uint32_t i2 = 0; i2 < s->n2; i2++) {
            const race_t w = race_step(w1, r2, (int32_t)i2);
            accum_add(&out[(uint64_t)i1 * s->n2 + i2], o, w.q, w.lf);
        }
    }
}

/* Keys of different roles never tie: a value i of one level (keys k, row r)
 * outside [lo, hi) beats the fixed roles, and wins where the other level's
 * values (keys ko, monotone as up_o) hit later: entries of d's i-th line. */
static void level_wins(const objective_prep_t *o, const int64_t *k, uint32_t n, uint32_t lo, uint32_t hi,
                       const race_row_t *r, const int64_t *ko, uint32_t no, int up_o, accum_t *d, uint32_t width)
{
    for (uint32_t i = 0; i < n; i++) {
        uint32_t a, b;
        if (i == lo && hi > lo)
            i = hi;
        if (i >= n)
            break;
        above(ko, no, up_o, k[i], &a, &b);
        add_range(d + (uint64_t)i * width, o, a, b, r->q[i], r->lf ? r->lf[i] : 0);
    }
}

void sweep_levels_add(sweep_levels_t *s, const objective_prep_t *o, race_t fixed, const race_row_t *r1,
                      const race_row_t *r2, accum_t *out)
{
    const uint32_t n1 = s->n1, n2 = s->n2, w2 = n2 + 1;
    int up1, up2;
    uint32_t lo1, hi1, lo2, hi2;
    if (!row_keys(r1, n1, s->k1, &up1) || !row_keys(r2, n2, s->k2, &up2)) {
        cell_by_cell(s, o, fixed, r1, r2, out);
        return;
    }
    /* The fixed roles win where both levels' values hit later: a product. */
    above(s->k1, n1, up1, fixed.key, &lo1, &hi1);
    above(s->k2, n2, up2, fixed.key, &lo2, &hi2);
    if (lo1 < hi1 && lo2 < hi2) {
        signed_add(&s->both[(uint64_t)lo1 * w2 + lo2], o, fixed.q, fixed.lf, 1);
        signed_add(&s->both[(uint64_t)lo1 * w2 + hi2], o, fixed.q, fixed.lf, -1);
        signed_add(&s->both[(uint64_t)hi1 * w2 + lo2], o, fixed.q, fixed.lf, -1);
        signed_add(&s->both[(uint64_t)hi1 * w2 + hi2], o, fixed.q, fixed.lf, 1);
    }
    level_wins(o, s->k1, n1, lo1, hi1, r1, s->k2, n2, up2, s->row, w2);
    level_wins(o, s->k2, n2, lo2, hi2, r2, s->k1, n1, up1, s->col, n1 + 1u);
}

void sweep_levels_finish(const sweep_levels_t *s, accum_t *out)
{
    const uint32_t n1 = s->n1, n2 = s->n2, w2 = n2 + 1;
    accum_t run;
    for (uint32_t i1 = 0; i1 < n1; i1++) { /* the rows' prefixes along i2 */
        accum_init(&run);
        for (uint32_t i2 = 0; i2 < n2; i2++) {
            accum_merge(&run, &s->row[(uint64_t)i1 * w2 + i2]);
            accum_merge(&out[(uint64_t)i1 * n2 + i2], &run);
        }
    }
    for (uint32_t i2 = 0; i2 < n2; i2++) { /* the columns' along i1 */
        accum_init(&run);
        for (uint32_t i1 = 0; i1 < n1; i1++) {
            accum_merge(&run, &s->col[(uint64_t)i2 * (n1 + 1u) + i1]);
            accum_merge(&out[(uint64_t)i1 * n2 + i2], &run);
        }
    }
    /* The product's 2-D prefix: along i2 within each row, then the rows down. */
    for (uint32_t i1 = 0; i1 < n1; i1++)
        for (uint32_t i2 = 1; i2 < n2; i2++)
            accum_merge(&s->both[(uint64_t)i1 * w2 + i2], &s->both[(uint64_t)i1 * w2 + i2 - 1]);
    for (uint32_t i1 = 0; i1 < n1; i1++)
        for (uint32_t i2 = 0; i2 < n2; i2++) {
            if (i1)
                accum_merge(&s->both[(uint64_t)i1 * w2 + i2], &s->both[(uint64_t)(i1 - 1) * w2 + i2]);
            accum_merge(&out[(uint64_t)i1 * n2 + i2], &s->both[(uint64_t)i1 * w2 + i2]);
        }
}
