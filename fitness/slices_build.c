#include "fitness/slices_build.h"

#include <stdlib.h>
#include <string.h>

#include "common/bits.h"

/* Significant bits of x (0 for 0). */
static int bits_of(uint64_t x)
{
    int b = 0;
    while (x) {
        b++;
        x >>= 1;
    }
    return b;
}

static int bits_of128(ev_i128 x)
{
    return x.hi ? 64 + bits_of(x.hi) : bits_of(x.lo);
}

/* The value trade outcome (q, lf) gives set s in combination c. */
static ev_i128 set_value(const slices_combo_t *c, int s, int64_t q, int64_t lf)
{
    ev_i128 v = i128_zero();
    const int ruin = q <= EV_RUIN_Q;
    switch (s) {
    case SLICE_U: v.lo = (uint64_t)q - (uint64_t)c->base_q; break;
    case SLICE_POS: v.lo = q > 0 ? (uint64_t)q : 0; break;
    case SLICE_NEG: v.lo = q < 0 ? i64_abs_u(q) : 0; break;
    case SLICE_SQ: v = i128_mul_i64(q, q); break;
    case SLICE_LF: v.lo = ruin ? 0 : (uint64_t)lf - (uint64_t)c->base_lf; break;
    default: v.lo = (uint64_t)ruin; break; /* SLICE_RUIN */
    }
    return v;
}

/* Every trade's outcome under combination c (the kept sets' pairs where built). */
static void combo_outcomes(const kept_sets_t *ks, uint64_t c, int64_t *q, int64_t *lf)
{
    const fit_tables_t *t = ks->t;
    const tables_exits_t x = tables_exit_combo(t, c);
    const uint64_t base = c * (uint64_t)t->n_trades;
    for (int64_t j = 0; j < t->n_trades; j++) {
        if (ks->pair_q) {
            q[j] = ks->pair_q[base + (uint64_t)j];
            lf[j] = ks->pair_lf ? ks->pair_lf[base + (uint64_t)j] : 0;
        } else {
            tables_outcome(t, j, &x, &q[j], &lf[j]);
        }
    }
}

/* Trailing zero bits of a non-zero x. */
static int zeros_of128(ev_i128 x)
{
    int z = 0;
    uint64_t w = x.lo ? x.lo : x.hi;
    while (!(w & 1u)) {
        w >>= 1;
        z++;
    }
    return x.lo ? z : 64 + z;
}

/* The widths, shifts and offsets of a combination from its outcomes. */
static slices_combo_t combo_layout(uint32_t sets, int64_t n, const int64_t *q, const int64_t *lf)
{
    slices_combo_t c;
    int64_t qmin = 0, lmin = 0;
    int have_lf = 0;
    memset(&c, 0, sizeof c);
    for (int64_t j = 0; j < n; j++) {
        qmin = j == 0 || q[j] < qmin ? q[j] : qmin;
        if (q[j] > EV_RUIN_Q) {
            lmin = !have_lf || lf[j] < lmin ? lf[j] : lmin;
            have_lf = 1;
        }
    }
    c.base_q = qmin;
    c.base_lf = lmin;
    for (int s = 0; s < SLICE_SETS; s++) {
        ev_i128 any = i128_zero(), top = i128_zero(); /* OR of the values; the largest */
        if (!(sets & (1u << s)))
            continue;
        for (int64_t j = 0; j < n; j++) {
            const ev_i128 v = set_value(&c, s, q[j], lf[j]);
            any.lo |= v.lo;
            any.hi |= v.hi;
            if (v.hi > top.hi || (v.hi == top.hi && v.lo > top.lo))
                top = v;
        }
        if (i128_is_zero(any))
            continue; /* every value 0: no planes */
        c.shift[s] = (uint8_t)zeros_of128(any);
        c.width[s] = (uint8_t)(bits_of128(top) - c.shift[s]);
        c.planes = (uint16_t)(c.planes + c.width[s]);
    }
    return c;
}

/* Sets bit j of plane p0 + i for every bit i of every trade's value shifted
 * right by its set's shift (set bits only: a ctz loop). */
static void combo_fill(const slices_combo_t *c, int64_t n, int64_t nw, const int64_t *q, const int64_t *lf,
                       uint64_t *planes)
{
    int p0 = 0;
    for (int s = 0; s < SLICE_SETS; s++) {
        const int sh = c->shift[s];
        if (!c->width[s])
            continue;
        for (int64_t j = 0; j < n; j++) {
            const ev_i128 v = set_value(c, s, q[j], lf[j]);
            const uint64_t bit = UINT64_C(1) << (j & 63);
            uint64_t *col = planes + (int64_t)p0 * nw + (j >> 6);
            uint64_t lo = sh == 0 ? v.lo : sh < 64 ? (v.lo >> sh) | (v.hi << (64 - sh)) : v.hi >> (sh - 64);
            uint64_t hi = sh < 64 ? v.hi >> sh : 0;
            for (; lo; lo &= lo - 1)
                col[(int64_t)bits_ctz64(lo) * nw] |= bit;
            for (; hi; hi &= hi - 1)
                col[(int64_t)(64 + bits_ctz64(hi)) * nw] |= bit;
        }
        p0 += c->width[s];
    }
}

static ev_status build_folds(slices_t *sl, ev_error *err)
{
    const fit_tables_t *t = sl->t;
    if (t->agg == AGG_ALL)
        return EV_OK;
    sl->fold_bits = (uint64_t *)calloc((size_t)t->n_folds * (size_t)sl->n_words + 1, sizeof *sl->fold_bits);
    if (!sl->fold_bits)
        return ev_fail(err, EV_ENOMEM, "out of memory for the folds' trade bitsets");
    for (int64_t j = 0; j < t->n_trades; j++)
        sl->fold_bits[(int64_t)t->fold[j] * sl->n_words + (j >> 6)] |= UINT64_C(1) << (j & 63);
    sl->bytes = (uint64_t)t->n_folds * (uint64_t)sl->n_words * 8u;
    return EV_OK;
}

ev_status slices_build_combo(slices_t *sl, uint64_t c, ev_error *err)
{
    const fit_tables_t *t = sl->t;
    int64_t *q, *lf;
    uint64_t size;
    if (!sl->combo || c >= sl->n_combos || sl->state[c] != SLICES_UNBUILT)
        return EV_OK;
    q = (int64_t *)malloc(((size_t)t->n_trades + 1) * sizeof *q);
    lf = (int64_t *)malloc(((size_t)t->n_trades + 1) * sizeof *lf);
    sl->state[c] = SLICES_REFUSED;
    if (!q || !lf) {
        free(q);
        free(lf);
        return ev_fail(err, EV_ENOMEM, "out of memory for the bit planes' outcomes");
    }
    combo_outcomes(sl->ks, c, q, lf);
    sl->combo[c] = combo_layout(slices_sets_of(&t->obj), t->n_trades, q, lf);
    size = (uint64_t)sl->combo[c].planes * (uint64_t)sl->n_words * 8u;
    if (sl->bytes + size <= sl->max_bytes &&
        (sl->planes[c] = (uint64_t *)calloc((size_t)sl->combo[c].planes * (size_t)sl->n_words + 1, 8u)) != NULL) {
        combo_fill(&sl->combo[c], t->n_trades, sl->n_words, q, lf, sl->planes[c]);
        sl->bytes += size;
        sl->combos_built++;
        sl->state[c] = SLICES_BUILT;
        if (sl->combo[c].planes > sl->max_planes)
            sl->max_planes = sl->combo[c].planes;
    }
    free(q);
    free(lf);
    return EV_OK;
}

ev_status slices_open(slices_t *sl, const kept_sets_t *ks, uint64_t max_bytes, ev_error *err)
{
    const fit_tables_t *t = ks->t;
    ev_status st;
    memset(sl, 0, sizeof *sl);
    sl->t = t;
    sl->ks = ks;
    sl->max_bytes = max_bytes;
    sl->n_words = ks->n_words;
    sl->n_combos = tables_exit_combos(t);
    /* the per-combination tables alone must stay well inside the budget */
    if (!ks->bits || !slices_objective_ok(&t->obj) || t->n_trades == 0 ||
        sl->n_combos > max_bytes / 4 / (sizeof *sl->combo + sizeof *sl->planes + 1))
        return EV_OK;
    sl->combo = (slices_combo_t *)calloc((size_t)sl->n_combos, sizeof *sl->combo);
    sl->planes = (uint64_t **)calloc((size_t)sl->n_combos, sizeof *sl->planes);
    sl->state = (uint8_t *)calloc((size_t)sl->n_combos, 1);
    if (!sl->combo || !sl->planes || !sl->state) {
        slices_free(sl);
        return ev_fail(err, EV_ENOMEM, "out of memory for the bit planes' table");
    }
    if ((st = build_folds(sl, err)) != EV_OK)
        slices_free(sl);
    return st;
}

ev_status slices_build(slices_t *sl, const kept_sets_t *ks, uint64_t max_bytes, ev_error *err)
{
    ev_status st = slices_open(sl, ks, max_bytes, err);
    for (uint64_t c = 0; st == EV_OK && sl->combo && c < sl->n_combos; c++)
        if ((st = slices_build_combo(sl, c, err)) == EV_OK && sl->state[c] == SLICES_REFUSED)
            break; /* this one and the rest take the walk */
    if (st != EV_OK || sl->combos_built == 0)
        slices_free(sl);
    return st;
}

void slices_free(slices_t *sl)
{
    for (uint64_t c = 0; sl->planes && c < sl->n_combos; c++)
        free(sl->planes[c]);
    free(sl->planes);
    free(sl->combo);
    free(sl->state);
    free(sl->fold_bits);
    memset(sl, 0, sizeof *sl);
}

const uint64_t *slices_planes(const slices_t *sl, uint64_t c)
{
    return sl->planes && c < sl->n_combos ? sl->planes[c] : NULL;
}
