#include "fitness/sweep_row.h"

#include <stdlib.h>
#include <string.h>

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#define ROW_X86 1
#define ROW_INLINE static inline __attribute__((always_inline))
#else
#define ROW_X86 0
#define ROW_INLINE static inline
#endif

/* Values per pass: the winners' outcomes wait in a stack array of this many. */
#define ROW_CHUNK 64

static int64_t *zeros(size_t n, int want, int *failed)
{
    int64_t *a;
    if (!want)
        return NULL;
    a = (int64_t *)calloc(n ? n : 1, sizeof *a);
    *failed |= a == NULL;
    return a;
}

/* Zeroes the first `cells` of an array (NULL: the objective has no such sum). */
static void clear(void *a, size_t cells)
{
    if (a)
        memset(a, 0, cells * sizeof(int64_t));
}

ev_status sweep_row_init(sweep_row_t *s, const objective_prep_t *o, uint32_t rows, uint32_t n, ev_error *err)
{
    memset(s, 0, sizeof *s);
    return sweep_row_reset(s, o, rows, n, err);
}

ev_status sweep_row_reset(sweep_row_t *s, const objective_prep_t *o, uint32_t rows, uint32_t n, ev_error *err)
{
    const size_t cells = (size_t)rows * n;
    if (cells > s->cap || rows > s->cap_rows || !s->count) {
        int failed = 0;
        sweep_row_free(s);
        s->count = zeros(rows, 1, &failed);
        s->sum = zeros(cells, 1, &failed);
        s->pos = zeros(cells, o->need_pos, &failed);
        s->sq_lo = (uint64_t *)zeros(cells, o->need_sumsq, &failed);
        s->sq_hi = (uint64_t *)zeros(cells, o->need_sumsq, &failed);
        s->lsum = zeros(cells, o->need_log, &failed);
        s->ruin = zeros(cells, o->need_log, &failed);
        if (failed) {
            sweep_row_free(s);
            return ev_fail(err, EV_ENOMEM, "out of memory for a sweep's rows (%u x %u values)", rows, n);
        }
        s->cap = cells;
        s->cap_rows = rows;
    } else {
        clear(s->count, rows);
        clear(s->sum, cells);
        clear(s->pos, cells);
        clear(s->sq_lo, cells);
        clear(s->sq_hi, cells);
        clear(s->lsum, cells);
        clear(s->ruin, cells);
    }
    s->rows = rows;
    s->n = n;
#if ROW_X86
    s->avx2 = __builtin_cpu_supports("avx2") != 0;
#endif
    return EV_OK;
}

void sweep_row_free(sweep_row_t *s)
{
    free(s->count);
    free(s->sum);
    free(s->pos);
    free(s->sq_lo);
    free(s->sq_hi);
    free(s->lsum);
    free(s->ruin);
    memset(s, 0, sizeof *s);
}

/* The exact square's excess over the 64-bit one of |q|'s low word, for the
 * values whose |q| reached 2^32: the sum then holds the exact squares. */
static void square_fix(uint64_t *lo, uint64_t *hi, const int64_t *q, uint32_t m)
{
    for (uint32_t i = 0; i < m; i++) {
        const uint64_t a = q[i] < 0 ? 0u - (uint64_t)q[i] : (uint64_t)q[i], w = a & 0xffffffffu;
        ev_i128 s;
        if (!(a >> 32))
            continue;
        s.lo = lo[i];
        s.hi = hi[i];
        s = i128_sub(i128_add(s, u128_mul_u64(a, a)), u128_mul_u64(w, w));
        lo[i] = s.lo;
        hi[i] = s.hi;
    }
}

/* The loop, written plainly so that the compiler vectorises it: once as
 * built (SSE2 on x86-64) and once for AVX2 (4 values a vector). */
ROW_INLINE void row_add(sweep_row_t *s, const objective_prep_t *o, uint32_t row, race_t fixed, const race_row_t *r)
{
    const size_t base = (size_t)row * s->n;
    const int64_t role = r->role, fk = fixed.key, fq = fixed.q;
    s->count[row]++;
    for (uint32_t c0 = 0; c0 < s->n; c0 += ROW_CHUNK) {
        const uint32_t m = s->n - c0 < ROW_CHUNK ? s->n - c0 : ROW_CHUNK;
        const int32_t *hit = r->hit + c0;
        const int64_t *rq = r->q + c0;
        const size_t at = base + c0;
        int64_t q[ROW_CHUNK];
        for (uint32_t i = 0; i < m; i++) { /* both loaded: a select, not a masked load */
            const int64_t v = rq[i];
            q[i] = (int64_t)hit[i] * 8 + role < fk ? v : fq;
        }
        for (uint32_t i = 0; i < m; i++)
            s->sum[at + i] += q[i];
        if (o->need_pos)
            for (uint32_t i = 0; i < m; i++)
                s->pos[at + i] += q[i] > 0 ? q[i] : 0;
        if (o->need_sumsq) {
            uint64_t *lo = s->sq_lo + at, *hi = s->sq_hi + at, big = 0;
            for (uint32_t i = 0; i < m; i++) {
                const uint64_t a = q[i] < 0 ? 0u - (uint64_t)q[i] : (uint64_t)q[i];
                const uint64_t w = (uint64_t)(uint32_t)a * (uint32_t)a, sum = lo[i] + w;
                big |= a >> 32;
                hi[i] += sum < w;
                lo[i] = sum;
            }
            if (big)
                square_fix(lo, hi, q, m);
        }
        if (o->need_log) {
            const int64_t *rl = r->lf + c0;
            for (uint32_t i = 0; i < m; i++) {
                const int64_t v = rl[i], lf = (int64_t)hit[i] * 8 + role < fk ? v : fixed.lf;
                s->ruin[at + i] += q[i] <= EV_RUIN_Q;
                s->lsum[at + i] += q[i] <= EV_RUIN_Q ? 0 : lf;
            }
        }
    }
}

static void row_add_plain(sweep_row_t *s, const objective_prep_t *o, uint32_t row, race_t fixed, const race_row_t *r)
{
    row_add(s, o, row, fixed, r);
}

#if ROW_X86
__attribute__((target("avx2"))) static void row_add_avx2(sweep_row_t *s, const objective_prep_t *o, uint32_t row,
                                                         race_t fixed, const race_row_t *r)
{
    row_add(s, o, row, fixed, r);
}
#endif

void sweep_row_add(sweep_row_t *s, const objective_prep_t *o, uint32_t row, race_t fixed, const race_row_t *r)
{
#if ROW_X86
    if (s->avx2) {
        row_add_avx2(s, o, row, fixed, r);
        return;
    }
#endif
    row_add_plain(s, o, row, fixed, r);
}

/* d[i] += s[i] for i < n (a row onto the one below it). */
static void add_row(int64_t *d, const int64_t *s, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        d[i] += s[i];
}

void sweep_row_suffix(sweep_row_t *s)
{
    const uint32_t n = s->n;
    for (uint32_t r = s->rows - 1; r-- > 0;) {
        const size_t at = (size_t)r * n, up = at + n;
        s->count[r] += s->count[r + 1];
        add_row(s->sum + at, s->sum + up, n);
        if (s->pos)
            add_row(s->pos + at, s->pos + up, n);
        if (s->lsum) {
            add_row(s->lsum + at, s->lsum + up, n);
            add_row(s->ruin + at, s->ruin + up, n);
        }
        if (s->sq_lo)
            for (uint32_t i = 0; i < n; i++) { /* 128-bit: the carry of the low words */
                const uint64_t lo = s->sq_lo[at + i] + s->sq_lo[up + i];
                s->sq_hi[at + i] += s->sq_hi[up + i] + (lo < s->sq_lo[up + i]);
                s->sq_lo[at + i] = lo;
            }
    }
}
