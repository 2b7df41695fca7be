/* signals/: the indicators on hand-computed values, the backtest's edge cases
 * (docs/signals-spec.md sec. 1.4.3) on hand-made series, and seed 001's three bugs.
 *
 * Each bug is a check that evolve's path passes and that a mutant carrying the
 * bug is shown to fail, so the check would catch the bug coming back:
 *   1. recomputed indicators: every genome's trades from the shared store (run
 *      in a shuffled batch) equal its trades from series recomputed alone; a
 *      mutant that recomputes the indicators its own way (float32 EMAs and
 *      torch.std's ddof = 1, as seed 001's torch pipeline) changes trades;
 *   2. warm-up NaNs used: no signal before max(z_window-1, atr_window+z_window-2)
 *      and every signal bar's indicators defined; a mutant with partial-window
 *      ATR and z-scores (no NaN warm-up, nothing dropped) signals earlier;
 *   3. overlapping positions: each entry after the previous exit; a mutant that
 *      exits each signal's position on its own (seed 001's GPU sketch) overlaps.
 *
 * The strategy table's evaluator: tests/test_strategy_evaluator.c. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "signals/bars.h"
#include "signals/features.h"
#include "signals/indicators.h"
#include "signals/se_params.h"
#include "signals/se_strategy.h"
#include "tests/support/walk_bars.h"

/* ---- indicators ------------------------------------------------------------- */

static void test_indicators(void)
{
    const double x[6] = {10, 11, 11, 9, 12, 12};
    double y[6];
    const double a = 2.0 / 4.0; /* span 3 */
    ind_ema_pandas(x, 6, 3, y);
    CHECK_EQ_F64(10, y[0]);
    CHECK_EQ_F64(((1 - a) * 10 + a * 11) / 1.0, y[1]);
    CHECK_EQ_F64((1 - a) * y[1] + a * 11, y[2]);
    CHECK_EQ_F64((1 - a) * y[2] + a * 9, y[3]);
    CHECK_EQ_F64(10.5, y[1]);
    /* the equality skip: y stays when x equals it */
    {
        const double c[4] = {0.1, 0.1, 0.1, 0.1};
        double e[4];
        ind_ema_pandas(c, 4, 7, e);
        for (int i = 0; i < 4; i++)
            CHECK_EQ_F64(0.1, e[i]);
    }
    CHECK_EQ_F64(1.0, ind_ema_alpha(1));
    CHECK_EQ_F64(2.0 / 97.0, ind_ema_alpha(96));
    {
        const double h[3] = {10, 12, 9}, l[3] = {8, 11, 7}, c[3] = {9, 11.5, 8};
        CHECK_EQ_F64(2, ind_true_range_at(h, l, c, 0));
        CHECK_EQ_F64(3, ind_true_range_at(h, l, c, 1));   /* |h - c[0]| = 3 */
        CHECK_EQ_F64(4.5, ind_true_range_at(h, l, c, 2)); /* |l - c[1]| = 4.5 */
    }
    CHECK(isnan(ind_sma_at(x, 1, 3)));
    CHECK_EQ_F64((10.0 + 11.0 + 11.0) / 3.0, ind_sma_at(x, 2, 3));
    CHECK_EQ_F64((11.0 + 9.0 + 12.0) / 3.0, ind_sma_at(x, 4, 3));
    {
        /* z of [11, 9, 12] at 12: mean 32/3, var ((1/3)^2 + (5/3)^2 + (4/3)^2)/3 */
        const double m = 32.0 / 3.0;
        const double d1 = 11 - m, d2 = 9 - m, d3 = 12 - m;
        const double sd = sqrt((d1 * d1 + d2 * d2 + d3 * d3) / 3.0);
        CHECK_EQ_F64((12 - m) / sd, ind_zscore_at(x, 4, 3));
        CHECK(isnan(ind_zscore_at(x, 1, 3)));
        CHECK(isnan(ind_zscore_at(x, 5, 1))); /* one value: std 0 */
    }
    {
        const double c[5] = {0.1, 0.1, 0.1, 0.1, 0.3};
        const double nanx[4] = {1, NAN, 2, 3};
        CHECK(isnan(ind_zscore_at(c, 3, 3))); /* constant window: 0/0, as pandas */
        CHECK(ind_zscore_at(c, 4, 3) > 1.0);
        CHECK(isnan(ind_zscore_at(nanx, 2, 2)));
        CHECK(!isnan(ind_zscore_at(nanx, 3, 2)));
    }
    CHECK(isnan(ind_close_location(5, 5, 5)));
    CHECK_EQ_F64(0.75, ind_close_location(10, 6, 9));
}

/* ---- the backtest's edge cases on hand-made series ----------------------------- */

#define N 12

typedef struct {
    double o[N], h[N], l[N], c[N], ef[N], es[N], atr[N], vz[N], tz[N], cl[N], end[N];
    se_series_t s;
} hand_t;

static void hand_init(hand_t *t)
{
    for (int i = 0; i < N; i++) {
        t->o[i] = t->c[i] = 100;
        t->h[i] = 101;
        t->l[i] = 99;
        t->ef[i] = 1;
        t->es[i] = 2; /* downtrend everywhere */
        t->atr[i] = i < 2 ? NAN : 1.0;
        t->vz[i] = t->tz[i] = 5;
        t->cl[i] = 0;  /* no signal unless set */
        t->end[i] = 0; /* one session unless set */
    }
    t->s.n = N;
    t->s.open = t->o;
    t->s.high = t->h;
    t->s.low = t->l;
    t->s.close = t->c;
    t->s.ema_fast = t->ef;
    t->s.ema_slow = t->es;
    t->s.atr = t->atr;
    t->s.vol_z = t->vz;
    t->s.tr_z = t->tz;
    t->s.cloc = t->cl;
    t->s.session_end = t->end;
}

static void hand_params(se_params_t *p)
{
    se_params_defaults(p);
    p->vol_z = p->tr_z = 1;
    p->cloc_min = 0.5;
    p->atr_stop_mult = 1; /* stop = low - 1 = 98 */
    p->reward_r = 2;      /* entry 100, risk 2, tp 104 */
    p->max_hold = 3;
    p->fee_bp = p->slippage_bp = 0;
}

/* strategy.session.flat_at_close on hand-made sessions (bars 0-5 one day,
 * 6-11 the next): a position open at a session's last bar closes at its
 * close ("session"), the entry bar's included; every other exit comes first;
 * off, the same bars hold the position overnight. */
static void test_flat_at_close(void)
{
    hand_t t;
    se_params_t p;
    se_trade_t tr[8];
    int64_t n;
    hand_params(&p);
    p.max_hold = 20;
    hand_init(&t);
    t.end[5] = t.end[11] = 1;
    t.cl[3] = 1; /* entry at 4, held over bar 5 */
    t.c[5] = 100.5;
    t.cl[5] = 1;  /* a signal on the session's last bar: entry at the next session's open (6) */
    t.h[8] = 104; /* tp at 104 on bar 8 */
    t.cl[10] = 1; /* entry on the last bar (11), which ends its session */
    t.o[11] = 99.5;
    t.c[11] = 99;
    n = se_backtest(&t.s, &p, tr, 8);
    CHECK_EQ_I64(0, p.flat_at_close); /* off by default: held overnight, tp on bar 8 */
    CHECK_EQ_I64(1, n);
    CHECK_EQ_I64(4, tr[0].entry_bar);
    CHECK_EQ_I64(8, tr[0].exit_bar);
    CHECK_EQ_I64(SE_TP, tr[0].reason);
    p.flat_at_close = 1;
    n = se_backtest(&t.s, &p, tr, 8);
    CHECK_EQ_I64(3, n);
    CHECK_EQ_I64(4, tr[0].entry_bar);
    CHECK_EQ_I64(5, tr[0].exit_bar);
    CHECK_EQ_I64(SE_SESSION, tr[0].reason);
    CHECK_EQ_F64(100.5, tr[0].exit);
    CHECK_EQ_F64(0.5, tr[0].pnl);
    CHECK_EQ_I64(6, tr[1].entry_bar);
    CHECK_EQ_I64(8, tr[1].exit_bar);
    CHECK_EQ_I64(SE_TP, tr[1].reason); /* the tp comes first; the session's end is bar 11 */
    CHECK_EQ_I64(11, tr[2].entry_bar);
    CHECK_EQ_I64(11, tr[2].exit_bar); /* the entry bar ends the session: closed at its close */
    CHECK_EQ_I64(SE_SESSION, tr[2].reason);
    CHECK_EQ_F64(-0.5, tr[2].pnl);
    CHECK_STR("session", se_reason_name(tr[2].reason));
    /* a stop on the session's last bar is the stop, not the session */
    hand_init(&t);
    t.end[5] = 1;
    t.cl[3] = 1;
    t.l[5] = 97;
    n = se_backtest(&t.s, &p, tr, 8);
    CHECK_EQ_I64(1, n);
    CHECK_EQ_I64(SE_STOP, tr[0].reason);
    CHECK_EQ_I64(5, tr[0].exit_bar);
}

static void test_backtest_edges(void)
{
    hand_t t;
    se_params_t p;
    se_trade_t tr[8];
    int64_t n;
    hand_params(&p);

    /* time exit at the close of entry + H; the entry bar (3) is never tested */
    hand_init(&t);
    t.cl[2] = 1;   /* signal on the first kept row */
    t.l[3] = 90;   /* would stop on the entry bar: not tested */
    t.cl[4] = 1;   /* a signal while in the position: ignored, not queued */
    t.c[6] = 101;  /* time exit: held 3 at bar 6 */
    t.cl[6] = 1;   /* a signal on the exit bar: taken, entry at 7 */
    t.o[8] = 97.5; /* gap below the stop 98 -> stop_gap at the open */
    t.cl[11] = 1;  /* a signal on the last bar: never taken */
    n = se_backtest(&t.s, &p, tr, 8);
    CHECK_EQ_I64(2, n);
    CHECK_EQ_I64(2, tr[0].signal_bar);
    CHECK_EQ_I64(3, tr[0].entry_bar);
    CHECK_EQ_I64(6, tr[0].exit_bar);
    CHECK_EQ_I64(SE_TIME, tr[0].reason);
    CHECK_EQ_F64(101, tr[0].exit);
    CHECK_EQ_F64(1, tr[0].pnl);
    CHECK_EQ_F64(0.5, tr[0].r_mult);
    CHECK_EQ_I64(6, tr[1].signal_bar);
    CHECK_EQ_I64(8, tr[1].exit_bar);
    CHECK_EQ_I64(SE_STOP_GAP, tr[1].reason);
    CHECK_EQ_F64(97.5, tr[1].exit);

    /* priority: stop before tp on the same bar; tp; costs */
    hand_init(&t);
    t.cl[2] = 1;
    t.l[4] = 98; /* low == stop: stop (<=) */
    t.h[4] = 110;
    t.cl[5] = 1;
    t.h[7] = 104; /* high == tp: tp (>=) */
    p.fee_bp = 3;
    p.slippage_bp = 2;
    n = se_backtest(&t.s, &p, tr, 8);
    CHECK_EQ_I64(2, n);
    CHECK_EQ_I64(SE_STOP, tr[0].reason);
    CHECK_EQ_F64(98, tr[0].exit);
    CHECK_EQ_F64(98.0 - 100.0 - (100.0 + 98.0) * (3.0 + 2.0) / 10000.0, tr[0].pnl);
    CHECK_EQ_I64(SE_TP, tr[1].reason);
    CHECK_EQ_I64(7, tr[1].exit_bar);
    CHECK_EQ_F64(104, tr[1].exit);

    /* an entry below the stop: risk 1e-8; the position open at the end is dropped */
    hand_init(&t);
    hand_params(&p);
    t.cl[2] = 1;
    t.o[3] = 97; /* entry 97 < stop 98 */
    t.o[4] = 97.5;
    t.l[4] = 97;
    t.cl[5] = 1;
    n = se_backtest(&t.s, &p, tr, 8);
    CHECK_EQ_I64(2, n);
    CHECK_EQ_F64(1e-8, tr[0].risk);
    CHECK_EQ_I64(SE_STOP_GAP, tr[0].reason);
    CHECK_EQ_F64(97.5, tr[0].exit);
    CHECK_EQ_I64(SE_TIME, tr[1].reason);
    CHECK_EQ_I64(9, tr[1].exit_bar);
    hand_init(&t);
    t.cl[9] = 1; /* entry at 10, tested at 11 only: held 1 < 3, open at the end: dropped */
    n = se_backtest(&t.s, &p, tr, 8);
    CHECK_EQ_I64(0, n);

    /* interior NaN ATR rows are dropped: the next bar is the next kept row */
    hand_init(&t);
    t.cl[2] = 1;
    t.atr[3] = NAN; /* bar 3 dropped: the entry is at bar 4's open */
    t.o[4] = 100.5;
    n = se_backtest(&t.s, &p, tr, 8);
    CHECK(n >= 1);
    CHECK_EQ_I64(4, tr[0].entry_bar);
    CHECK_EQ_F64(100.5, tr[0].entry);
}

static void test_metrics(void)
{
    se_trade_t t[3];
    se_metrics_t m;
    const double pnl[3] = {1, -2, 0.5}, r[3] = {0.5, -1, 0.25};
    double mean, ss = 0;
    memset(t, 0, sizeof t);
    for (int k = 0; k < 3; k++) {
        t[k].pnl = pnl[k];
        t[k].r_mult = r[k];
    }
    se_metrics(t, 0, &m);
    CHECK_EQ_I64(0, m.n);
    CHECK_EQ_F64(0, m.sharpe);
    se_metrics(t, 1, &m);
    CHECK_EQ_F64(0, m.sharpe); /* n <= 1 */
    CHECK_EQ_F64(0, m.max_dd);
    se_metrics(t, 3, &m);
    mean = ((0.5 + -1.0) + 0.25) / 3.0;
    for (int k = 0; k < 3; k++)
        ss += (r[k] - mean) * (r[k] - mean);
    CHECK_EQ_I64(3, m.n);
    CHECK_EQ_F64(2.0 / 3.0, m.win_rate);
    CHECK_EQ_F64(mean, m.avg_r);
    CHECK_EQ_F64(-0.5, m.total_pnl);
    CHECK_EQ_F64(-2.0, m.max_dd); /* cum 1, -1, -0.5 under a peak of 1 */
    CHECK_EQ_F64(mean / sqrt(ss / 2.0), m.sharpe);
}

/* ---- bars and genomes for the bug checks ----------------------------------------- */

static uint64_t rng_state = 88172645463325252ULL;

static double uniform(void)
{
    return walk_uniform(&rng_state);
}

static void make_bars(bars_t *b, int64_t n)
{
    walk_bars(b, n, 100, &rng_state);
}

static void random_genome(se_params_t *p)
{
    se_params_defaults(p);
    p->ema_fast = 2 + (int32_t)(uniform() * 40);
    p->ema_slow = 5 + (int32_t)(uniform() * 150);
    p->z_window = 3 + (int32_t)(uniform() * 100);
    p->atr_window = 2 + (int32_t)(uniform() * 40);
    p->max_hold = 1 + (int32_t)(uniform() * 60);
    p->vol_z = (double)(int)(uniform() * 20) / 10.0;
    p->tr_z = (double)(int)(uniform() * 15) / 10.0;
    p->cloc_min = (double)(4 + (int)(uniform() * 10)) / 20.0;
    p->atr_stop_mult = (double)(3 + (int)(uniform() * 12)) / 10.0;
    p->reward_r = (double)(6 + (int)(uniform() * 10)) / 4.0;
}

static int same_trades(const se_trade_t *a, int64_t na, const se_trade_t *b, int64_t nb)
{
    if (na != nb)
        return 0;
    for (int64_t k = 0; k < na; k++)
        if (a[k].signal_bar != b[k].signal_bar || a[k].entry_bar != b[k].entry_bar || a[k].exit_bar != b[k].exit_bar ||
            a[k].reason != b[k].reason || a[k].entry != b[k].entry || a[k].exit != b[k].exit || a[k].pnl != b[k].pnl)
            return 0;
    return 1;
}

/* The series of one genome computed alone, by the EV_HD functions (evolve's
 * path) or by a mutant. mode 0: evolve's; 1: recomputed as seed 001's torch
 * pipeline would (float32 EMAs, torch.std's ddof = 1 in the z-scores; bug 1); 2:
 * partial-window ATR and z-scores, no NaN warm-up (bug 2). */
typedef struct {
    double *ef, *es, *tr, *atr, *prod, *vz, *tz, *cl;
} own_t;

static void own_series(const bars_t *b, const se_params_t *p, int mode, own_t *o, se_series_t *s)
{
    const int64_t n = b->n;
    double **all[8] = {&o->ef, &o->es, &o->tr, &o->atr, &o->prod, &o->vz, &o->tz, &o->cl};
    for (int k = 0; k < 8; k++)
        *all[k] = (double *)malloc((size_t)n * sizeof(double));
    if (mode == 1) {
        for (int e = 0; e < 2; e++) {
            const int32_t span = e ? p->ema_slow : p->ema_fast;
            const float a = 2.0f / ((float)span + 1.0f);
            double *y = e ? o->es : o->ef;
            float w = (float)b->close[0];
            for (int64_t i = 0; i < n; i++) {
                if (i)
                    w = (1.0f - a) * w + a * (float)b->close[i];
                y[i] = (double)w;
            }
        }
    } else {
        ind_ema_pandas(b->close, n, p->ema_fast, o->ef);
        ind_ema_pandas(b->close, n, p->ema_slow, o->es);
    }
    for (int64_t i = 0; i < n; i++) {
        o->tr[i] = ind_true_range_at(b->high, b->low, b->close, i);
        o->cl[i] = ind_close_location(b->high[i], b->low[i], b->close[i]);
    }
    for (int64_t i = 0; i < n; i++) {
        if (mode == 2) { /* min_periods = 1: every bar defined */
            const int32_t w = (int32_t)(i + 1 < p->atr_window ? i + 1 : p->atr_window);
            o->atr[i] = ind_sma_at(o->tr, i, w);
        } else
            o->atr[i] = ind_sma_at(o->tr, i, p->atr_window);
        o->prod[i] = o->atr[i] * (double)p->atr_window;
    }
    for (int64_t i = 0; i < n; i++) {
        int32_t w = p->z_window;
        if (mode == 2 && i + 1 < w)
            w = (int32_t)(i + 1);
        o->vz[i] = ind_zscore_at(b->volume, i, w);
        o->tz[i] = ind_zscore_at(o->prod, i, w);
        if (mode == 1) { /* torch.std's default: the sample std (ddof = 1) */
            const double scale = sqrt(((double)w - 1.0) / (double)w);
            o->vz[i] *= scale;
            o->tz[i] *= scale;
        }
    }
    s->n = n;
    s->open = b->open;
    s->high = b->high;
    s->low = b->low;
    s->close = b->close;
    s->ema_fast = o->ef;
    s->ema_slow = o->es;
    s->atr = o->atr;
    s->vol_z = o->vz;
    s->tr_z = o->tz;
    s->cloc = o->cl;
    s->session_end = NULL; /* read only with flat_at_close */
}

static void own_free(own_t *o)
{
    free(o->ef);
    free(o->es);
    free(o->tr);
    free(o->atr);
    free(o->prod);
    free(o->vz);
    free(o->tz);
    free(o->cl);
}

/* Bug 2's check: no signal before the first bar that can signal, and every
 * indicator defined at each signal bar. */
static int warmup_ok(const se_series_t *s, const se_params_t *p, const se_trade_t *t, int64_t n)
{
    const int64_t first = (int64_t)(p->atr_window + p->z_window - 2) > (int64_t)(p->z_window - 1)
                              ? (int64_t)(p->atr_window + p->z_window - 2)
                              : (int64_t)(p->z_window - 1);
    for (int64_t k = 0; k < n; k++) {
        const int64_t i = t[k].signal_bar;
        if (i < first || isnan(s->atr[i]) || isnan(s->vol_z[i]) || isnan(s->tr_z[i]))
            return 0;
    }
    return 1;
}

/* Bug 3's check: one position at a time. */
static int no_overlap(const se_trade_t *t, int64_t n)
{
    for (int64_t k = 1; k < n; k++)
        if (t[k].entry_bar <= t[k - 1].exit_bar)
            return 0;
    return 1;
}

/* Seed 001's GPU sketch: every signal opens a position and looks for its own
 * exit, whatever is open (in_position set before the exit search). */
static int64_t mutant_overlapping(const se_series_t *s, const se_params_t *p, se_trade_t *out, int64_t cap)
{
    int64_t n = 0;
    for (int64_t j = 0; j + 1 < s->n; j++) {
        if (isnan(s->atr[j]) || !se_exhaustion(s, p, j))
            continue;
        {
            se_trade_t t;
            int64_t held = 0;
            memset(&t, 0, sizeof t);
            t.signal_bar = j;
            t.entry_bar = j + 1;
            t.entry = s->open[j + 1];
            t.stop = s->low[j] - p->atr_stop_mult * s->atr[j];
            t.risk = t.entry - t.stop > 1e-8 ? t.entry - t.stop : 1e-8;
            t.tp = t.entry + p->reward_r * t.risk;
            for (int64_t k = j + 2; k < s->n; k++) {
                held++;
                if (s->low[k] <= t.stop || s->high[k] >= t.tp || held >= p->max_hold) {
                    se_close_trade(&t, p, k, s->close[k], SE_TIME);
                    if (n < cap)
                        out[n] = t;
                    n++;
                    break;
                }
            }
        }
    }
    return n;
}

#define G 120
#define NB 3000
#define CAP 4096

static void test_seed001_bugs(void)
{
    bars_t b;
    se_features_t *f = NULL;
    ev_error err;
    se_params_t gs[G];
    int order[G];
    se_trade_t *batch[G];
    int64_t nbatch[G];
    se_trade_t *alone = (se_trade_t *)malloc(CAP * sizeof *alone);
    int bug1_caught = 0, bug2_caught = 0, bug3_caught = 0, total = 0;
    make_bars(&b, NB);
    for (int g = 0; g < G; g++) {
        random_genome(&gs[g]);
        order[g] = g;
    }
    /* the batch in a shuffled order, from one store */
    for (int g = G - 1; g > 0; g--) {
        int k = (int)(uniform() * (g + 1)), t = order[g];
        order[g] = order[k];
        order[k] = t;
    }
    CHECK(se_features_create(&b, &f, &err) == EV_OK);
    for (int k = 0; k < G; k++) {
        const int g = order[k];
        CHECK(se_run_genome(f, &gs[g], &batch[g], &nbatch[g], &err) == EV_OK);
        total += (int)nbatch[g];
    }
    CHECK(total > G); /* the genomes trade */
    {
        /* each distinct (indicator, length) computed once */
        int64_t distinct = 0;
        for (int g = 0; g < G; g++) {
            int seen_f = 0, seen_s = 0, seen_a = 0, seen_v = 0, seen_t = 0;
            for (int h = 0; h < g; h++) {
                seen_f |= gs[h].ema_fast == gs[g].ema_fast || gs[h].ema_slow == gs[g].ema_fast;
                seen_s |= gs[h].ema_fast == gs[g].ema_slow || gs[h].ema_slow == gs[g].ema_slow;
                seen_a |= gs[h].atr_window == gs[g].atr_window;
                seen_v |= gs[h].z_window == gs[g].z_window;
                seen_t |= gs[h].atr_window == gs[g].atr_window && gs[h].z_window == gs[g].z_window;
            }
            distinct += !seen_f + (!seen_s && gs[g].ema_slow != gs[g].ema_fast) + !seen_a + !seen_v + !seen_t;
        }
        CHECK_EQ_I64(distinct, se_features_computed(f));
    }
    for (int g = 0; g < G; g++) {
        own_t o;
        se_series_t s;
        int64_t n;
        const se_trade_t *t = batch[g];
        const int64_t nt = nbatch[g];
        /* bug 1: the genome alone, its series recomputed: the batch's trades */
        own_series(&b, &gs[g], 0, &o, &s);
        n = se_backtest(&s, &gs[g], alone, CAP);
        CHECK(same_trades(t, nt, alone, n));
        CHECK_EQ_I64(n, se_backtest(&s, &gs[g], NULL, 0)); /* the device's counting pass */
        CHECK(warmup_ok(&s, &gs[g], t, nt));               /* bug 2 */
        CHECK(no_overlap(t, nt));                          /* bug 3 */
        /* bug 3's mutant on evolve's own series */
        n = mutant_overlapping(&s, &gs[g], alone, CAP);
        bug3_caught += !no_overlap(alone, n < CAP ? n : CAP);
        own_free(&o);
        /* bug 1's mutant: float32 EMAs */
        own_series(&b, &gs[g], 1, &o, &s);
        n = se_backtest(&s, &gs[g], alone, CAP);
        bug1_caught += !same_trades(t, nt, alone, n);
        own_free(&o);
        /* bug 2's mutant: partial windows, nothing dropped */
        own_series(&b, &gs[g], 2, &o, &s);
        n = se_backtest(&s, &gs[g], alone, CAP);
        bug2_caught += !warmup_ok(&s, &gs[g], alone, n < CAP ? n : CAP);
        own_free(&o);
    }
    printf(
        "seed 001's bugs: of %d genomes (%d trades), the torch-style recompute changes the trades of %d, the "
        "partial-window mutant signals in the warm-up in %d, the per-signal-exit mutant overlaps in %d\n",
        G, total, bug1_caught, bug2_caught, bug3_caught);
    CHECK(bug1_caught > G / 4);
    CHECK(bug2_caught > G / 4);
    CHECK(bug3_caught > G / 4);
    for (int g = 0; g < G; g++)
        free(batch[g]);
    free(alone);
    se_features_free(f);
    bars_free(&b);
}

int main(void)
{
    test_indicators();
    test_backtest_edges();
    test_flat_at_close();
    test_metrics();
    test_seed001_bugs();
    return check_failures ? 1 : 0;
}
