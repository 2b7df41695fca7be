#include "gendata/gen_trades.h"

#include <math.h>
#include <stdlib.h>

#include "gendata/gen_rng.h"

#define SHORT_MEAN_SECONDS 300 /* the rule's 5-minute mean */
#define LONG_MEAN_SECONDS 1800 /* the rule's 30-minute mean */
#define PULLBACK_ATRS 0.25     /* how far under the short mean, in one-minute ATR14s */
#define FILL_DELAY_MIN 5       /* seconds from signal to fill: log-uniform in [min, max] */
#define FILL_DELAY_MAX 60
#define SEARCH_SECONDS (GEN_TRADE_MIN_WINDOW - GEN_TRADE_MIN_HOLD) /* least time to find an entry */
#define HOLD_SHARE 0.5                                             /* of the session that holds may fill on average */

/* Log-uniform whole seconds in [lo, hi] (lo >= 1; hi <= lo gives hi). */
static int log_uniform(uint64_t key, uint64_t counter, int lo, int hi)
{
    double u = gen_rng_uniform(key, counter);
    int v;
    if (hi <= lo)
        return hi;
    v = (int)floor(lo * exp(u * log((double)hi / lo)));
    return v < lo ? lo : v > hi ? hi : v;
}

/* Mean of the log-uniform distribution on [GEN_TRADE_MIN_HOLD, h]. */
static double mean_hold(int h)
{
    return h <= GEN_TRADE_MIN_HOLD ? GEN_TRADE_MIN_HOLD
                                   : (h - GEN_TRADE_MIN_HOLD) / log((double)h / GEN_TRADE_MIN_HOLD);
}

/* The longest hold for `count` trades a session: the largest h <= 3 h whose
 * holds fill at most HOLD_SHARE of the session on average, so a busy day
 * gets shorter holds instead of truncated ones. */
static int hold_cap(int count)
{
    int lo = GEN_TRADE_MIN_HOLD, hi = GEN_TRADE_MAX_HOLD;
    if (count * mean_hold(hi) <= HOLD_SHARE * GEN_DAY_SECONDS)
        return hi;
    while (hi - lo > 1) { /* count * mean_hold(lo) fits, (hi) does not */
        int mid = lo + (hi - lo) / 2;
        if (count * mean_hold(mid) <= HOLD_SHARE * GEN_DAY_SECONDS)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* Draws the holds (draw 3k+2) and cuts [0, GEN_DAY_SECONDS) into count
 * windows bounds[k] .. bounds[k+1]-1: window k is SEARCH_SECONDS + hold[k]
 * plus a share of the idle time given by exponential spacings (draw 3k), so
 * windows, and so entries, fall at random through the session. */
static void plan_windows(int count, uint64_t key, int *hold, int *bounds)
{
    const int cap = hold_cap(count);
    const double room = GEN_DAY_SECONDS - (double)count * GEN_TRADE_MIN_WINDOW;
    double excess = 0.0, total = 0.0, run = 0.0, spare;
    int used = 0;
    for (int k = 0; k < count; k++) {
        hold[k] = log_uniform(key, 3 * (uint64_t)k + 2, GEN_TRADE_MIN_HOLD, cap);
        excess += hold[k] - GEN_TRADE_MIN_HOLD;
        total += -log(gen_rng_uniform(key, 3 * (uint64_t)k));
    }
    if (excess > room) { /* rare (a few trades drawing hours): shrink the holds to fit */
        double kept = 0.0;
        for (int k = 0; k < count; k++) {
            hold[k] = GEN_TRADE_MIN_HOLD + (int)floor((hold[k] - GEN_TRADE_MIN_HOLD) * room / excess);
            kept += hold[k] - GEN_TRADE_MIN_HOLD;
        }
        excess = kept;
    }
    spare = room - excess;
    bounds[0] = 0;
    for (int k = 1; k < count; k++) {
        used += SEARCH_SECONDS + hold[k - 1];
        run += -log(gen_rng_uniform(key, 3 * (uint64_t)(k - 1)));
        bounds[k] = used + (int)floor(spare * run / total);
    }
    bounds[count] = GEN_DAY_SECONDS;
}

static int is_pullback(const gen_series_t *s, int sec)
{
    const int i = GEN_WARMUP_SECONDS + sec;
    const double atr_c = s->bar[i / 60 - 1].atr14_q / 100.0; /* cents */
    const double short_mean = gen_series_sma(s, i, SHORT_MEAN_SECONDS);
    return short_mean > gen_series_sma(s, i, LONG_MEAN_SECONDS) && s->price_c[i] <= short_mean - PULLBACK_ATRS * atr_c;
}

/* The signal second in [first, last]: the first pullback with a row, else
 * the deepest dip under the 5-minute mean with a row, else `first` (given a
 * row). */
static int find_signal(gen_series_t *s, int first, int last, int *kind)
{
    int best = -1;
    double best_dip = 0.0;
    for (int sec = first; sec <= last; sec++) {
        int i = GEN_WARMUP_SECONDS + sec;
        double dip;
        if (!s->present[sec])
            continue;
        if (is_pullback(s, sec)) {
            *kind = GEN_ENTRY_PULLBACK;
            return sec;
        }
        dip = s->price_c[i] / gen_series_sma(s, i, SHORT_MEAN_SECONDS);
        if (best < 0 || dip < best_dip) {
            best = sec;
            best_dip = dip;
        }
    }
    *kind = GEN_ENTRY_DIP;
    if (best < 0) {
        s->present[first] = 1;
        best = first;
    }
    return best;
}

/* A second with a row near target, within [lo, hi]: searching first towards
 * `toward` (-1 earlier, +1 later) then the other way; if none has a row, the
 * target is given one. */
static int find_row(gen_series_t *s, int target, int lo, int hi, int toward)
{
    for (int pass = 0; pass < 2; pass++, toward = -toward) {
        int sec = pass == 0 ? target : target + toward;
        for (; sec >= lo && sec <= hi; sec += toward)
            if (s->present[sec])
                return sec;
    }
    s->present[target] = 1;
    return target;
}

static void path_extremes(const gen_series_t *s, gen_trade_t *t)
{
    t->worst_c = t->best_c = s->price_c[GEN_WARMUP_SECONDS + t->entry];
    for (int sec = t->entry + 1; sec <= t->exit; sec++) {
        int32_t p = s->price_c[GEN_WARMUP_SECONDS + sec];
        if (!s->present[sec])
            continue; /* the path is the rows a reader of the file sees */
        t->worst_c = p < t->worst_c ? p : t->worst_c;
        t->best_c = p > t->best_c ? p : t->best_c;
    }
}

void gen_trades_pick(gen_series_t *s, int count, uint64_t seed, int day, uint64_t ticker_hash, int ticker,
                     gen_trade_t *out)
{
    const uint64_t key = gen_rng_key(seed, (uint64_t)day, ticker_hash, GEN_STREAM_TRADES);
    int bounds[GEN_TRADES_PER_TICKER_DAY_MAX + 1], hold[GEN_TRADES_PER_TICKER_DAY_MAX];
    if (count <= 0)
        return;
    plan_windows(count, key, hold, bounds);
    for (int k = 0; k < count; k++) {
        gen_trade_t *t = &out[k];
        const int last = bounds[k + 1] - 1; /* the position is flat again by here */
        const int last_entry = last - hold[k];
        int signal, fill;
        t->ticker = ticker;
        /* Draws of trade k: 3k window, 3k+1 fill delay, 3k+2 hold. */
        signal = find_signal(s, bounds[k], last_entry, &t->kind);
        fill = signal + log_uniform(key, 3 * (uint64_t)k + 1, FILL_DELAY_MIN, FILL_DELAY_MAX);
        t->entry = find_row(s, fill < last_entry ? fill : last_entry, signal, last_entry, +1);
        t->exit = find_row(s, t->entry + hold[k], t->entry + 1, last, -1);
        path_extremes(s, t);
    }
}

static int cmp_trades(const void *a, const void *b)
{
    const gen_trade_t *x = (const gen_trade_t *)a, *y = (const gen_trade_t *)b;
    if (x->entry != y->entry)
        return x->entry < y->entry ? -1 : 1;
    return (x->ticker > y->ticker) - (x->ticker < y->ticker);
}

void gen_trades_sort(gen_trade_t *t, int n)
{
    /* Keys are unique (one position per ticker), so qsort is deterministic. */
    qsort(t, (size_t)n, sizeof *t, cmp_trades);
}
