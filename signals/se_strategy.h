/* Strategy seller_exhaustion (docs/signals-spec.md sec. 1.3-1.4): the signal and the
 * backtest loop over precomputed indicator series, written once for the CPU
 * and CUDA (EV_HD). The series come from signals/features.h (each distinct
 * (indicator, length) computed once per run and shared across genomes).
 *
 * The loop, exactly as the reference (backtest/engine.py run_backtest@592842f):
 *  - rows whose ATR is NaN are dropped (the warm-up: the first atr_window-1
 *    bars; interior NaN rows too), and "the next bar" is the next kept row;
 *  - flat and exhaustion on kept row j: enter long at open[j+1], stop =
 *    low[j] - k*ATR[j], risk = max(1e-8, entry - stop), tp = entry + R*risk;
 *    nothing is tested in that iteration (the entry bar is never tested);
 *  - in a position: bars_held += 1, then bar j+1 is tested in the order
 *    open <= stop (stop_gap, at the open), low <= stop (stop, at the stop),
 *    high >= tp (tp, at tp), bars_held >= H (time, at the close);
 *  - one position at a time: a signal while in a position is ignored, not
 *    queued; a signal on the exit bar is taken; one on the last kept row is
 *    not; a position open at the end of the data is dropped, not recorded;
 *  - costs per unit: fee = (entry + exit) * (fee_bp + slippage_bp) / 10000,
 *    pnl = exit - entry - fee, R = pnl / risk, in that order;
 *  - flat_at_close (strategy.session, not the source's): a position still open
 *    after bar j+1's tests (its entry bar's too) is closed at its close when
 *    j+1 ends a session ("session"), so none is held overnight. */
#ifndef EVOLVE_SIGNALS_SE_STRATEGY_H
#define EVOLVE_SIGNALS_SE_STRATEGY_H

#include <math.h>
#include <stdint.h>

#include "common/hd.h"

/* Exit reasons, in the order of the tests. */
enum { SE_STOP_GAP = 0, SE_STOP = 1, SE_TP = 2, SE_TIME = 3, SE_SESSION = 5 }; /* 5: atc's ATC_SESSION too */

/* A genome of seller_exhaustion, materialised (lengths in bars). */
typedef struct {
    int32_t ema_fast, ema_slow, z_window, atr_window, max_hold;
    int32_t flat_at_close; /* strategy.session.flat_at_close (fixed by the config, not optimised) */
    double vol_z, tr_z, cloc_min, atr_stop_mult, reward_r;
    double fee_bp, slippage_bp; /* fixed by the config, not optimised */
} se_params_t;
/* copied to the device byte for byte (signals/strategy_pack.h): one layout for C and CUDA */
EV_STATIC_ASSERT(sizeof(se_params_t) == 80, "se_params_t: 6 int32, 7 doubles");

/* The series one genome reads: the bars and its indicators (all length n;
 * pointers into the shared feature store). */
typedef struct {
    int64_t n;
    const double *open, *high, *low, *close;
    const double *ema_fast, *ema_slow; /* EMA(close, ema_fast / ema_slow) */
    const double *atr;                 /* ATR(atr_window): NaN for the warm-up */
    const double *vol_z;               /* zscore(volume, z_window) */
    const double *tr_z;                /* zscore(ATR * atr_window, z_window) */
    const double *cloc;                /* close location */
    const double *session_end;         /* 1 on each session's last bar (bars_session_ends), else 0 */
} se_series_t;

typedef struct {
    int64_t signal_bar, entry_bar, exit_bar; /* indices into the bars (not the kept rows) */
    double entry, exit, stop, tp, risk, pnl, r_mult;
    int32_t reason;
} se_trade_t;

/* The series as slots, the device's view of them (signals/strategy.h
 * device_view, kernels/strategy_device.cu): slot k's address, and the series
 * bound back from the slots' addresses (inverses, in this order), every slot
 * n doubles. */
enum { SE_SLOTS = 11 };

EV_HD void se_series_slots(const se_series_t *s, const void **slot)
{
    const double *const at[SE_SLOTS] = {s->open, s->high,  s->low,  s->close, s->ema_fast,   s->ema_slow,
                                        s->atr,  s->vol_z, s->tr_z, s->cloc,  s->session_end};
    for (int k = 0; k < SE_SLOTS; k++)
        slot[k] = at[k];
}

EV_HD void se_series_bind(se_series_t *s, int64_t n, const void *const *slot)
{
    s->n = n;
    s->open = (const double *)slot[0];
    s->high = (const double *)slot[1];
    s->low = (const double *)slot[2];
    s->close = (const double *)slot[3];
    s->ema_fast = (const double *)slot[4];
    s->ema_slow = (const double *)slot[5];
    s->atr = (const double *)slot[6];
    s->vol_z = (const double *)slot[7];
    s->tr_z = (const double *)slot[8];
    s->cloc = (const double *)slot[9];
    s->session_end = (const double *)slot[10];
}

EV_HD uint64_t se_series_slot_bytes(int32_t k, int64_t n)
{
    (void)k;
    return (uint64_t)n * sizeof(double);
}

EV_HD int se_exhaustion(const se_series_t *s, const se_params_t *p, int64_t i)
{
    /* every comparison with NaN is false; all strict */
    return s->ema_fast[i] < s->ema_slow[i] && s->vol_z[i] > p->vol_z && s->tr_z[i] > p->tr_z &&
           s->cloc[i] > p->cloc_min;
}

/* The next kept row after i (ATR defined), or n. */
EV_HD int64_t se_next_kept(const se_series_t *s, int64_t i)
{
    int64_t j = i + 1;
    while (j < s->n && s->atr[j] != s->atr[j])
        j++;
    return j;
}

EV_HD void se_close_trade(se_trade_t *t, const se_params_t *p, int64_t bar, double price, int32_t reason)
{
    const double fee = (t->entry + price) * (p->fee_bp + p->slippage_bp) / 10000.0;
    t->exit_bar = bar;
    t->exit = price;
    t->reason = reason;
    t->pnl = price - t->entry - fee;
    t->r_mult = t->pnl / t->risk;
}

/* A backtest in progress, so one can run in slices: the device advances
 * every genome of a launch by a bounded number of rows, launch after launch,
 * to keep each launch under the display watchdog (kernels/strategy_device.cu).
 * Slices change nothing: the same rows in the same order. */
typedef struct {
    se_trade_t t;     /* the open position's trade */
    int64_t j;        /* the current kept row (s->n: ended) */
    int64_t held;     /* rows held so far */
    int64_t n_trades; /* trades closed so far */
    int32_t in_pos;
    int32_t pad_;
} se_run_t;

EV_HD void se_run_start(const se_series_t *s, se_run_t *r)
{
    r->t.signal_bar = r->t.entry_bar = r->t.exit_bar = -1;
    r->t.entry = r->t.exit = r->t.stop = r->t.tp = r->t.risk = r->t.pnl = r->t.r_mult = 0.0;
    r->t.reason = -1;
    r->held = r->n_trades = 0;
    r->in_pos = r->pad_ = 0;
    r->j = se_next_kept(s, -1);
}

/* Closes r's position at bar at `price` for `reason` and records it as
 * trade r->n_trades (into out while below cap). */
EV_HD void se_record(se_trade_t *t, const se_params_t *p, se_run_t *r, se_trade_t *out, int64_t cap, int64_t bar,
                     double price, int32_t reason)
{
    se_close_trade(t, p, bar, price, reason);
    if (r->n_trades < cap)
        out[r->n_trades] = *t;
    r->n_trades++;
    r->in_pos = 0;
}

/* Advances r by at most `steps` kept rows; trade k closed is written to
 * out[k] while k < cap (out may be NULL when cap is 0). Returns 1 once the
 * backtest has ended (every later call does nothing). */
EV_HD int se_run_steps(const se_series_t *s, const se_params_t *p, se_run_t *r, se_trade_t *out, int64_t cap,
                       int64_t steps)
{
    se_trade_t *t = &r->t;
    int64_t j = r->j;
    for (; j < s->n && steps > 0; steps--) {
        const int64_t nx = se_next_kept(s, j);
        if (nx >= s->n) {
            j = s->n; /* the last kept row: nothing follows it */
            break;
        }
        if (!r->in_pos && se_exhaustion(s, p, j)) {
            const double entry = s->open[nx];
            const double stop = s->low[j] - p->atr_stop_mult * s->atr[j];
            const double gap = entry - stop;
            t->signal_bar = j;
            t->entry_bar = nx;
            t->entry = entry;
            t->stop = stop;
            t->risk = gap > 1e-8 ? gap : 1e-8; /* max(1e-8, entry - stop) */
            t->tp = entry + p->reward_r * t->risk;
            r->held = 0;
            r->in_pos = 1;
            if (p->flat_at_close && s->session_end[nx] != 0.0)
                se_record(t, p, r, out, cap, nx, s->close[nx], SE_SESSION);
        } else if (r->in_pos) {
            int32_t reason = -1;
            double price = 0.0;
            r->held += 1;
            if (s->open[nx] <= t->stop) {
                reason = SE_STOP_GAP;
                price = s->open[nx];
            } else if (s->low[nx] <= t->stop) {
                reason = SE_STOP;
                price = t->stop;
            } else if (s->high[nx] >= t->tp) {
                reason = SE_TP;
                price = t->tp;
            } else if (r->held >= p->max_hold) {
                reason = SE_TIME;
                price = s->close[nx];
            } else if (p->flat_at_close && s->session_end[nx] != 0.0) {
                reason = SE_SESSION;
                price = s->close[nx];
            }
            if (reason >= 0)
                se_record(t, p, r, out, cap, nx, price, reason);
        }
        j = nx;
    }
    r->j = j;
    return j >= s->n;
}

/* Runs the backtest whole; writes the first `cap` trades to out (out may be
 * NULL when cap is 0) and returns the number of trades. */
EV_HD int64_t se_backtest(const se_series_t *s, const se_params_t *p, se_trade_t *out, int64_t cap)
{
    se_run_t r;
    se_run_start(s, &r);
    se_run_steps(s, p, &r, out, cap, INT64_MAX);
    return r.n_trades;
}

/* The source's metrics (docs/signals-spec.md sec. 1.4.5) over a genome's trades, in
 * trade order: n; win_rate = mean(pnl > 0); avg_r = mean(R); total_pnl = sum
 * of pnl; max_dd = min(cum_pnl - running max of cum_pnl) (the running max
 * starts at the first trade's cum_pnl, as pandas' cummax; 0 without trades);
 * sharpe = mean(R) / std(R, ddof = 1), 0 when n <= 1 or std == 0. Sums are
 * sequential; the std takes two passes. Without trades every value is 0. */
typedef struct {
    int64_t n;
    double win_rate, avg_r, total_pnl, max_dd, sharpe;
} se_metrics_t;

EV_HD void se_metrics(const se_trade_t *t, int64_t n, se_metrics_t *m)
{
    double wins = 0.0, sum_r = 0.0, cum = 0.0, peak = 0.0, dd = 0.0;
    m->n = n;
    m->win_rate = m->avg_r = m->total_pnl = m->max_dd = m->sharpe = 0.0;
    if (n <= 0)
        return;
    for (int64_t k = 0; k < n; k++) {
        wins += t[k].pnl > 0.0 ? 1.0 : 0.0;
        sum_r += t[k].r_mult;
        cum += t[k].pnl;
        if (k == 0 || cum > peak)
            peak = cum;
        if (cum - peak < dd)
            dd = cum - peak;
    }
    m->win_rate = wins / (double)n;
    m->avg_r = sum_r / (double)n;
    m->total_pnl = cum;
    m->max_dd = dd;
    if (n > 1) {
        double ss = 0.0, sd;
        for (int64_t k = 0; k < n; k++) {
            const double d = t[k].r_mult - m->avg_r;
            ss += d * d;
        }
        sd = sqrt(ss / (double)(n - 1));
        m->sharpe = sd == 0.0 ? 0.0 : m->avg_r / sd;
    }
}

#endif
