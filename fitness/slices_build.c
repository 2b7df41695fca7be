#include "fitness/slices_build.h"

#include <stdlib.h>
#include <string.h>

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

/* Sets bit j of plane p0 + b for every bit b of every trade's value. */
static void combo_fill(const slices_combo_t *c, int64_t n, int64_t nw, const int64_t *q, const int64_t *lf,
                       uint64_t *planes)
{
    for (int64_t j = 0; j < n; j++) {
        const uint64_t bit = UINT64_C(1) << (j & 63);
        int p0 = 0;
        for (int s = 0; s < SLICE_SETS; s++) {
            const ev_i128 v = set_value(c, s, q[j], lf[j]);
            for (int i = 0; i < c->width[s]; i++) {
                const int b = i + c->shift[s];
                if ((b < 64 ? v.lo >> b : v.hi >> (b - 64)) & 1u)
                    planes[(int64_t)(p0 + i) * nw + (j >> 6)] |= bit;
            }
            p0 += c->width[s];
        }
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

static ev_status build_combos(slices_t *sl, const kept_sets_t *ks, uint64_t max_bytes, ev_error *err)
{
    const fit_tables_t *t = sl->t;
    const uint32_t sets = slices_sets_of(&t->obj);
    int64_t *q = (int64_t *)malloc(((size_t)t->n_trades + 1) * sizeof *q);
    int64_t *lf = (int64_t *)malloc(((size_t)t->n_trades + 1) * sizeof *lf);
    ev_status st = EV_OK;
    if (!q || !lf)
        st = ev_fail(err, EV_ENOMEM, "out of memory for the bit planes' outcomes");
    for (uint64_t c = 0; st == EV_OK && c < sl->n_combos; c++) {
        uint64_t size;
        combo_outcomes(ks, c, q, lf);
        sl->combo[c] = combo_layout(sets, t->n_trades, q, lf);
        size = (uint64_t)sl->combo[c].planes * (uint64_t)sl->n_words * 8u;
        if (sl->bytes + size > max_bytes)
            break; /* this one and the rest take the walk */
        sl->planes[c] = (uint64_t *)calloc((size_t)sl->combo[c].planes * (size_t)sl->n_words + 1, 8u);
        if (!sl->planes[c]) {
            st = ev_fail(err, EV_ENOMEM, "out of memory for the bit planes of exit combination %llu",
                         (unsigned long long)c);
            break;
        }
        combo_fill(&sl->combo[c], t->n_trades, sl->n_words, q, lf, sl->planes[c]);
        sl->bytes += size;
        sl->combos_built++;
        if (sl->combo[c].planes > sl->max_planes)
            sl->max_planes = sl->combo[c].planes;
    }
    free(q);
    free(lf);
    return st;
}

ev_status slices_build(slices_t *sl, const kept_sets_t *ks, uint64_t max_bytes, ev_error *err)
{
    const fit_tables_t *t = ks->t;
    ev_status st;
    memset(sl, 0, sizeof *sl);
    sl->t = t;
    sl->n_words = ks->n_words;
    sl->n_combos = tables_exit_combos(t);
    /* the per-combination tables alone must stay well inside the budget */
    if (!ks->bits || !slices_objective_ok(&t->obj) || t->n_trades == 0 ||
        sl->n_combos > max_bytes / 4 / (sizeof *sl->combo + sizeof *sl->planes))
        return EV_OK;
    sl->combo = (slices_combo_t *)calloc((size_t)sl->n_combos, sizeof *sl->combo);
    sl->planes = (uint64_t **)calloc((size_t)sl->n_combos, sizeof *sl->planes);
    if (!sl->combo || !sl->planes) {
        slices_free(sl);
        return ev_fail(err, EV_ENOMEM, "out of memory for the bit planes' table");
    }
    if ((st = build_folds(sl, err)) != EV_OK || (st = build_combos(sl, ks, max_bytes, err)) != EV_OK ||
        sl->combos_built == 0) {
        slices_free(sl);
        return st;
    }
    return EV_OK;
}

void slices_free(slices_t *sl)
{
    for (uint64_t c = 0; sl->planes && c < sl->n_combos; c++)
        free(sl->planes[c]);
    free(sl->planes);
    free(sl->combo);
    free(sl->fold_bits);
    memset(sl, 0, sizeof *sl);
}

const uint64_t *slices_planes(const slices_t *sl, uint64_t c)
{
    return sl->planes && c < sl->n_combos ? sl->planes[c] : NULL;
}
