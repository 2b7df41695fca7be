/* Bit-sliced sums (issue 34): a genome's additive sums from popcounts.
 *
 * For one combination of exit values, every trade's outcome gives a few
 * non-negative integers (the sets below), each stored as bit planes: plane b
 * of a set holds bit b of that integer for every trade, 64 trades a word, in
 * equity order like the kept-trade bitsets (fitness/kept_sets.h). For a kept
 * set K, the set's sum over the kept trades is sum_b 2^b * popcount(K & plane
 * b): integers only, so the same bits as the kept-trade walk (SPEC sec. 5).
 * Drawdown needs the order of the trades, so calmar and max_drawdown_pct
 * have no slices (slices_objective_ok).
 *
 * This header is the arithmetic both backends share (EV_HD): which sets an
 * objective needs, and the sums from a plane's popcounts. */
#ifndef EVOLVE_SLICES_H
#define EVOLVE_SLICES_H

#include <stdint.h>

#include "common/hd.h"
#include "fitness/accum.h"
#include "fitness/int128.h"

/* The integers a trade's outcome q (micro-percent) gives, per combination. */
enum {
    SLICE_U = 0, /* q - qmin (total_return, mean, sharpe): sum = S + n * qmin */
    SLICE_POS,   /* q > 0 ? q : 0 (profit_factor) */
    SLICE_NEG,   /* q < 0 ? -q : 0 (profit_factor): sum = S_pos - S_neg */
    SLICE_SQ,    /* q * q, up to 126 bits (sharpe) */
    SLICE_LF,    /* compound: lf - lfmin for a trade above ruin, else 0 */
    SLICE_RUIN,  /* compound: 1 for an outcome at or below -100 % */
    SLICE_SETS
};

#define SLICE_MAX_BITS 127

/* One combination's planes: width[s] planes of set s, sets in enum order,
 * holding its values shifted right by shift[s] (the low bits every value of
 * the set has zero: outcomes on a grid, such as levels or two-decimal logs,
 * need no planes for them). */
typedef struct {
    uint8_t width[SLICE_SETS];
    uint8_t shift[SLICE_SETS];
    uint16_t planes; /* sum of the widths */
    int64_t base_q;  /* qmin of SLICE_U */
    int64_t base_lf; /* lfmin of SLICE_LF */
} slices_combo_t;

/* 1 when the objective's sums are all additive (no drawdown). */
EV_HD int slices_objective_ok(const objective_prep_t *o)
{
    return !o->need_dd && o->kind != OBJ_CALMAR;
}

/* Which sets objective o needs (bit s: set s). */
EV_HD uint32_t slices_sets_of(const objective_prep_t *o)
{
    switch (o->kind) {
    case OBJ_PROFIT_FACTOR: return (1u << SLICE_POS) | (1u << SLICE_NEG);
    case OBJ_SHARPE: return (1u << SLICE_U) | (1u << SLICE_SQ);
    case OBJ_COMPOUND: return (1u << SLICE_LF) | (1u << SLICE_RUIN);
    default: return 1u << SLICE_U; /* total_return, mean */
    }
}

EV_HD uint64_t slices_popc64(uint64_t x)
{
#ifdef __CUDA_ARCH__
    return (uint64_t)__popcll(x);
#else
    x = x - ((x >> 1) & UINT64_C(0x5555555555555555));
    x = (x & UINT64_C(0x3333333333333333)) + ((x >> 2) & UINT64_C(0x3333333333333333));
    x = (x + (x >> 4)) & UINT64_C(0x0F0F0F0F0F0F0F0F);
    return (x * UINT64_C(0x0101010101010101)) >> 56;
#endif
}

/* sum_b cnt[b] << (b + shift) for b < width: a set's sum, exact in 128 bits
 * (width + shift <= SLICE_MAX_BITS). */
EV_HD ev_i128 slices_weigh(const uint64_t *cnt, int width, int shift)
{
    ev_i128 s = i128_zero();
    for (int i = 0; i < width; i++) {
        const int b = i + shift;
        ev_i128 x;
        x.lo = b < 64 ? cnt[i] << b : 0;
        x.hi = b == 0 ? 0 : b < 64 ? cnt[i] >> (64 - b) : cnt[i] << (b - 64);
        s = i128_add(s, x);
    }
    return s;
}

/* A kept set's sums from its n kept trades and the popcounts cnt[p] of K AND
 * plane p (p over the combination's planes, sets in enum order): the fields
 * accum_finish reads for o (int64 sums wrap like the walk's). */
EV_HD void slices_accum(const slices_combo_t *c, const objective_prep_t *o, int64_t n, const uint64_t *cnt, accum_t *a)
{
    ev_i128 s[SLICE_SETS];
    int p = 0;
    accum_init(a);
    for (int k = 0; k < SLICE_SETS; k++) {
        s[k] = slices_weigh(cnt + p, c->width[k], c->shift[k]);
        p += c->width[k];
    }
    a->n = n;
    if (o->kind == OBJ_PROFIT_FACTOR) {
        a->pos = (int64_t)s[SLICE_POS].lo;
        a->sum = (int64_t)(s[SLICE_POS].lo - s[SLICE_NEG].lo);
    } else if (o->kind == OBJ_COMPOUND) {
        a->ruin = (int64_t)s[SLICE_RUIN].lo;
        a->lsum = (int64_t)(s[SLICE_LF].lo + (uint64_t)(n - a->ruin) * (uint64_t)c->base_lf);
    } else {
        a->sum = (int64_t)(s[SLICE_U].lo + (uint64_t)n * (uint64_t)c->base_q);
        a->sumsq = s[SLICE_SQ];
    }
}

/* The popcounts of kept words k[0, nw) against the same words of n_planes
 * planes (plane p at planes + p * stride): cnt[p] += sum_w popcount(k[w] &
 * plane p's word w). The plain form: a CUDA thread's loop over a tile of
 * words (kernels/slices_device.cu); the CPU has vector forms
 * (slices_popcnt.h). */
EV_HD void slices_count_words(const uint64_t *k, int32_t nw, const uint64_t *planes, int64_t stride, int32_t n_planes,
                              uint64_t *cnt)
{
    for (int32_t p = 0; p < n_planes; p++) {
        uint64_t c = 0;
        for (int32_t w = 0; w < nw; w++)
            c += slices_popc64(k[w] & planes[(int64_t)p * stride + w]);
        cnt[p] += c;
    }
}

#endif
