/* Strategy atc, Adaptive Trend Classification (docs/signals-spec.md sec. 2): the layer-1
 * cross states, the equity curves, both layers, the Average signal, the
 * direction and the trade rule of sec. 2.8, written once for the CPU and CUDA
 * (EV_HD). The moving averages and each (family, length)'s cross state come
 * from the shared store (signals/atc_features.h); everything a genome adds
 * (La, De, cutout, weights, thresholds) is applied here in one pass over the
 * bars, so a genome needs no memory beyond its trades.
 *
 * Per bar i >= cutout, in this order (sec. 2.5-2.8):
 *  - g = exp(lambda * (i - cutout)), from i alone (never as a running
 *    product: seed 002's kernel did that and drifted), read from the store's
 *    table for the genome's La; r = R[i] * g;
 *  - each of the 54 layer-1 equities (6 families x 9 lengths in sec. 2.2's
 *    order): p = s_k[i-1], a = 0 / r / -r, e = start at i == cutout, else
 *    (e * d) * (1 + a); then max(e, 0.25);
 *  - L1_f = round2(sum_k s_k * E_k / sum_k E_k), sums in k order;
 *  - the family's layer-2 equity on L1_f (start: its weight), and
 *    Average = sum_f Cut(L1_f) * S_f / sum_f S_f in family order, 0 when not
 *    finite (and 0 for i < cutout);
 *  - from the warm-up bar B on, a crossover of long_threshold sets the
 *    direction to +1 and then a crossunder of short_threshold to -1; a change
 *    executes at open[i+1]: the open position (if any) closes there with
 *    reason "signal" and the new one opens there. A change on the last bar is
 *    ignored; a position open at the end is dropped.
 *  - costs per unit as sec. 1.4: fee = (entry + exit) * (fee_bp + slippage_bp)
 *    / 10000; pnl = (exit - entry) - fee long, (entry - exit) - fee short. */
#ifndef EVOLVE_SIGNALS_ATC_STRATEGY_H
#define EVOLVE_SIGNALS_ATC_STRATEGY_H

#include <math.h>
#include <stdint.h>

#include "common/hd.h"
#include "signals/atc_ma.h"

/* The members per family (the families: signals/atc_ma.h). */
enum { ATC_MEMBERS = 9 };
enum { ATC_NARROW = 0, ATC_MEDIUM = 1, ATC_WIDE = 2 };
/* the exit reasons (after seller_exhaustion's 0..3; session is its SE_SESSION) */
enum { ATC_SIGNAL = 4, ATC_SESSION = 5 };

/* The smallest member length the lattice admits (sec. 2.2: L - a4 >= 3). */
#define ATC_MIN_MEMBER 3

/* A genome of atc, materialised: lengths and cutout in bars, the rest binary64
 * as parsed from their decimal text. */
typedef struct {
    int32_t len[ATC_FAMILIES]; /* ema_len, hull_len, wma_len, dema_len, lsma_len, kama_len */
    double w[ATC_FAMILIES];    /* ema_w, hma_w, wma_w, dema_w, lsma_w, kama_w: layer-2 start */
    int32_t robustness;        /* ATC_NARROW / ATC_MEDIUM / ATC_WIDE */
    int32_t cutout;
    double la, de; /* unscaled: lambda = La/1000, decay = 1 - De/100 */
    double long_threshold, short_threshold, cut_threshold;
    double fee_bp, slippage_bp;
    /* Pine parity (sec. 2.3, 2.5, 2.7); all 0 is the canonical form */
    int32_t hma_as_sma;    /* the "HMA" family is Pine's ta.sma(src, L) */
    int32_t pine_sticky_a; /* a keeps its previous value when p == 0 */
    int32_t python_cut;    /* Cut uses long/short_threshold instead of +-cut_threshold */
    int32_t flat_at_close; /* strategy.session.flat_at_close (fixed by the config, not optimised) */
} atc_params_t;
/* copied to the device byte for byte (signals/strategy_pack.h): one layout for C and CUDA */
EV_STATIC_ASSERT(sizeof(atc_params_t) == 152, "atc_params_t: 8 int32, 13 doubles, 4 int32");

/* The series a genome reads: the bars' open and close, the close's return
 * R[i] (NaN at 0), the growth table of its La (growth[j] = exp(lambda * j),
 * read at j = i - cutout: one table per La, computed on the host, so the CPU
 * and the device multiply by the same doubles; libm's and CUDA's exp need
 * not agree in the last bit, docs/signals-spec.md sec. 4.6), and the 54 cross states
 * (s_k: -1, 0, +1 after each bar). */
typedef struct {
    int64_t n;
    const double *open, *close, *ret, *growth;
    const double *session_end; /* 1 on each session's last bar (bars_session_ends), else 0 */
    const int8_t *state[ATC_FAMILIES][ATC_MEMBERS];
} atc_series_t;

typedef struct {
    int64_t signal_bar, entry_bar, exit_bar; /* indices into the bars */
    int32_t side;                            /* +1 long, -1 short */
    int32_t reason;                          /* ATC_SIGNAL */
    double entry, exit, pnl;
} atc_trade_t;

/* The series as slots, the device's view of them (signals/strategy.h
 * device_view, kernels/strategy_device.cu): slot k's address, and the series
 * bound back from the slots' addresses (inverses, in this order): open,
 * close, ret, growth and session_end (n doubles each), then the 54 cross
 * states (n bytes each) family by family. */
enum { ATC_DOUBLE_SLOTS = 5, ATC_SLOTS = ATC_DOUBLE_SLOTS + ATC_FAMILIES * ATC_MEMBERS };

EV_HD void atc_series_slots(const atc_series_t *s, const void **slot)
{
    slot[0] = s->open;
    slot[1] = s->close;
    slot[2] = s->ret;
    slot[3] = s->growth;
    slot[4] = s->session_end;
    for (int f = 0; f < ATC_FAMILIES; f++)
        for (int k = 0; k < ATC_MEMBERS; k++)
            slot[ATC_DOUBLE_SLOTS + f * ATC_MEMBERS + k] = s->state[f][k];
}

EV_HD void atc_series_bind(atc_series_t *s, int64_t n, const void *const *slot)
{
    s->n = n;
    s->open = (const double *)slot[0];
    s->close = (const double *)slot[1];
    s->ret = (const double *)slot[2];
    s->growth = (const double *)slot[3];
    s->session_end = (const double *)slot[4];
    for (int f = 0; f < ATC_FAMILIES; f++)
        for (int k = 0; k < ATC_MEMBERS; k++)
            s->state[f][k] = (const int8_t *)slot[ATC_DOUBLE_SLOTS + f * ATC_MEMBERS + k];
}

EV_HD uint64_t atc_series_slot_bytes(int32_t k, int64_t n)
{
    return (uint64_t)n * (k < ATC_DOUBLE_SLOTS ? sizeof(double) : sizeof(int8_t));
}

/* Member k's length for family length L: [L, L+a1..L+a4, L-a1..L-a4]. */
EV_HD int32_t atc_member_len(int32_t L, int32_t robustness, int k)
{
    const int32_t off[3][4] = {{1, 2, 3, 4}, {1, 2, 4, 6}, {1, 3, 5, 7}};
    if (k == 0)
        return L;
    return k <= 4 ? L + off[robustness][k - 1] : L - off[robustness][k - 5];
}

/* lambda = La/1000 and d = 1 - De/100, once per genome (sec. 2.1). */
EV_HD double atc_lambda(double la)
{
    return la / 1000.0;
}

EV_HD double atc_decay(double de)
{
    return 1.0 - de / 100.0;
}

/* The growth factor j bars after the cutout, exp(lambda * j): from j alone,
 * never as a running product (the store fills its tables with it). */
EV_HD double atc_growth(double lambda, int64_t j)
{
    return exp(lambda * (double)j);
}

/* The close's return R[i] = (c[i] - c[i-1]) / c[i-1]; NaN at 0. */
EV_HD double atc_return_at(const double *close, int64_t i)
{
    return i == 0 ? ind_nan() : (close[i] - close[i - 1]) / close[i - 1];
}

/* The cross state after each bar (sec. 2.4) of close against ma. */
EV_HD void atc_cross_state(const double *close, const double *ma, int64_t n, int8_t *s)
{
    int8_t st = 0;
    for (int64_t i = 0; i < n; i++) {
        if (i > 0) {
            const double c = close[i], m = ma[i], pc = close[i - 1], pm = ma[i - 1];
            /* any NaN makes both comparisons false */
            if (c > m && pc <= pm)
                st = 1;
            else if (c < m && pc >= pm)
                st = -1;
        }
        s[i] = st;
    }
}

/* The first bar where the MA of family f and length m is defined. */
EV_HD int64_t atc_first_defined(int f, int32_t m, int32_t hma_as_sma)
{
    if (f == ATC_KAMA)
        return 0;
    if (f == ATC_HMA && !hma_as_sma) {
        const int32_t s = atc_isqrt(m);
        return (int64_t)m + (s > 1 ? s : 1) - 2;
    }
    return (int64_t)m - 1;
}

/* The warm-up bar B of sec. 2.9: no direction change before it. */
EV_HD int64_t atc_warmup_bar(const atc_params_t *p)
{
    int64_t b = p->cutout;
    for (int f = 0; f < ATC_FAMILIES; f++) {
        const int64_t v = atc_first_defined(f, atc_member_len(p->len[f], p->robustness, 4), p->hma_as_sma);
        if (v > b)
            b = v;
    }
    return b + 1;
}

/* One step of the equity recurrence (sec. 2.5) at a bar i > cutout: p the
 * signal at i-1, r the scaled return at i; *a is the previous bar's a (read
 * only with pine_sticky_a) and becomes this bar's. */
EV_HD double atc_equity_step(double e, double p, double r, double d, int32_t sticky, double *a)
{
    double v;
    if (p != p || r != r)
        *a = 0.0;
    else if (p > 0.0)
        *a = r;
    else if (p < 0.0)
        *a = -r;
    else if (!sticky)
        *a = 0.0;
    v = (e * d) * (1.0 + *a);
    return v < 0.25 ? 0.25 : v;
}

EV_HD double atc_floor(double e)
{
    return e < 0.25 ? 0.25 : e;
}

/* round2 (sec. 2.6): rint(x * 100) / 100, ties to even. */
EV_HD double atc_round2(double x)
{
    return rint(x * 100.0) / 100.0;
}

EV_HD double atc_cut(double x, double t_long, double t_short)
{
    return x > t_long ? 1.0 : x < t_short ? -1.0 : 0.0; /* NaN: 0 */
}

EV_HD double atc_fee(const atc_params_t *p, double entry, double exit)
{
    return (entry + exit) * (p->fee_bp + p->slippage_bp) / 10000.0;
}

/* The running state of one genome over the bars. */
typedef struct {
    double e1[ATC_FAMILIES][ATC_MEMBERS], a1[ATC_FAMILIES][ATC_MEMBERS];
    double e2[ATC_FAMILIES], a2[ATC_FAMILIES], l1_prev[ATC_FAMILIES];
} atc_state_t;

/* The Average signal at bar i (sec. 2.5-2.7), advancing st; bars are fed in
 * order from 0. */
EV_HD double atc_average_step(const atc_series_t *s, const atc_params_t *p, double d, int64_t i, atc_state_t *st)
{
    const double t_long = p->python_cut ? p->long_threshold : p->cut_threshold;
    const double t_short = p->python_cut ? p->short_threshold : -p->cut_threshold;
    double r, num2 = 0.0, den2 = 0.0, avg;
    int branchless;
    if (i < p->cutout)
        return 0.0;
    r = s->ret[i] * s->growth[i - p->cutout];
    branchless = !p->pine_sticky_a && isfinite(r);
    for (int f = 0; f < ATC_FAMILIES; f++) {
        double num = 0.0, den = 0.0, l1;
        for (int k = 0; k < ATC_MEMBERS; k++) {
            const int8_t *sk = s->state[f][k];
            double e;
            if (i == p->cutout) {
                e = atc_floor(1.0);
                st->a1[f][k] = 0.0;
            } else if (branchless) {
                /* a state is -1, 0 or +1 (never NaN) and r is finite: s*r is
                 * exactly -r, +-0 or r, the a of sec. 2.5 without branches */
                const double v = (st->e1[f][k] * d) * (1.0 + (double)sk[i - 1] * r);
                e = atc_floor(v);
            } else
                e = atc_equity_step(st->e1[f][k], (double)sk[i - 1], r, d, 1, &st->a1[f][k]);
            st->e1[f][k] = e;
            num += (double)sk[i] * e;
            den += e;
        }
        l1 = atc_round2(num / den);
        {
            double e;
            if (i == p->cutout) {
                e = atc_floor(p->w[f]);
                st->a2[f] = 0.0;
            } else
                e = atc_equity_step(st->e2[f], st->l1_prev[f], r, d, p->pine_sticky_a, &st->a2[f]);
            st->e2[f] = e;
            num2 += atc_cut(l1, t_long, t_short) * e;
            den2 += e;
        }
        st->l1_prev[f] = l1;
    }
    avg = num2 / den2;
    return isfinite(avg) ? avg : 0.0;
}

EV_HD void atc_close_trade(atc_trade_t *t, const atc_params_t *p, int64_t bar, double price, int32_t reason)
{
    const double fee = atc_fee(p, t->entry, price);
    t->exit_bar = bar;
    t->exit = price;
    t->reason = reason;
    t->pnl = t->side > 0 ? (price - t->entry) - fee : (t->entry - price) - fee;
}

/* A backtest in progress, so one can run in slices: the device advances
 * every genome of a launch by a bounded number of bars, launch after launch,
 * to keep each launch under the display watchdog (kernels/strategy_device.cu).
 * Slices change nothing: the same bars in the same order. */
typedef struct {
    atc_state_t st;   /* the equities (set from bar p->cutout on) */
    atc_trade_t t;    /* the open position's trade */
    int64_t i;        /* the next bar (s->n: ended) */
    int64_t n_trades; /* trades closed so far */
    double prev;      /* the Average signal at bar i - 1 */
    int32_t dir;      /* the open position's side, 0: none */
    int32_t pad_;
} atc_run_t;

EV_HD void atc_run_start(const atc_series_t *s, atc_run_t *r)
{
    (void)s; /* the same form as se_run_start */
    r->t.signal_bar = r->t.entry_bar = r->t.exit_bar = -1;
    r->t.side = 0;
    r->t.reason = -1;
    r->t.entry = r->t.exit = r->t.pnl = 0.0;
    r->i = r->n_trades = 0;
    r->prev = 0.0;
    r->dir = r->pad_ = 0;
}

/* Advances r by at most `steps` bars; trade k closed is written to out[k]
 * while k < cap (out may be NULL when cap is 0). Returns 1 once the
 * backtest has ended (every later call does nothing). */
EV_HD int atc_run_steps(const atc_series_t *s, const atc_params_t *p, atc_run_t *r, atc_trade_t *out, int64_t cap,
                        int64_t steps)
{
    const double d = atc_decay(p->de);
    const int64_t b = atc_warmup_bar(p);
    atc_trade_t *t = &r->t;
    int64_t i = r->i;
    for (; i < s->n && steps > 0; i++, steps--) {
        const double avg = atc_average_step(s, p, d, i, &r->st);
        if (r->dir != 0 && p->flat_at_close && s->session_end[i] != 0.0) {
            atc_close_trade(t, p, i, s->close[i], ATC_SESSION); /* flat overnight: before the next open */
            if (r->n_trades < cap)
                out[r->n_trades] = *t;
            r->n_trades++;
            r->dir = 0;
        }
        if (i >= b) {
            int32_t nd = r->dir;
            if (r->prev <= p->long_threshold && p->long_threshold < avg)
                nd = 1;
            if (r->prev >= p->short_threshold && p->short_threshold > avg)
                nd = -1;
            if (nd != r->dir && i + 1 < s->n) {
                const double px = s->open[i + 1];
                if (r->dir != 0) {
                    atc_close_trade(t, p, i + 1, px, ATC_SIGNAL);
                    if (r->n_trades < cap)
                        out[r->n_trades] = *t;
                    r->n_trades++;
                }
                t->signal_bar = i;
                t->entry_bar = i + 1;
                t->entry = px;
                t->side = nd;
                r->dir = nd;
            }
        }
        r->prev = avg;
    }
    r->i = i;
    return i >= s->n;
}

/* Runs the backtest whole; writes the first `cap` trades to out (out may be
 * NULL when cap is 0) and returns the number of trades. */
EV_HD int64_t atc_backtest(const atc_series_t *s, const atc_params_t *p, atc_trade_t *out, int64_t cap)
{
    atc_run_t r;
    atc_run_start(s, &r);
    atc_run_steps(s, p, &r, out, cap, INT64_MAX);
    return r.n_trades;
}

#endif
