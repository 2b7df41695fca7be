#include "gendata/gen_indicators.h"

#include <math.h>

#include "gendata/fast_format.h"

/* A Wilder moving average of period n: the plain mean of the first n inputs
 * (also while fewer than n have arrived), then avg = (avg * (n - 1) + x) / n. */
typedef struct {
    int n, count;
    double value;
} wilder_t;

static void wilder_init(wilder_t *w, int n)
{
    w->n = n;
    w->count = 0;
    w->value = 0.0;
}

static double wilder_push(wilder_t *w, double x)
{
    if (w->count < w->n) {
        w->count++;
        w->value += (x - w->value) / w->count;
    } else {
        w->value = (w->value * (w->n - 1) + x) / w->n;
    }
    return w->value;
}

/* Wilder's ADX of period n: smoothed true range and directional movements
 * give +DI/-DI, DX = 100 |+DI - -DI| / (+DI + -DI), ADX = Wilder mean of DX. */
typedef struct {
    wilder_t tr, plus_dm, minus_dm, dx;
} adx_t;

static void adx_init(adx_t *a, int n)
{
    wilder_init(&a->tr, n);
    wilder_init(&a->plus_dm, n);
    wilder_init(&a->minus_dm, n);
    wilder_init(&a->dx, n);
}

static double adx_push(adx_t *a, double tr, double plus_dm, double minus_dm)
{
    double str = wilder_push(&a->tr, tr);
    double sp = wilder_push(&a->plus_dm, plus_dm);
    double sm = wilder_push(&a->minus_dm, minus_dm);
    double dx = 0.0;
    if (str > 0.0 && sp + sm > 0.0)
        dx = 100.0 * fabs(sp - sm) / (sp + sm); /* the 100/str of both DIs cancels */
    return wilder_push(&a->dx, dx);
}

/* Nearest integer of x * 10^decimals (ties to even, like the trader's
 * round()); x is a finite indicator value far below 2^52 / 10^decimals. */
static int64_t quantize(double x, int decimals)
{
    int64_t q = 0;
    if (!ff_round_scaled(x, decimals, &q))
        q = 0;
    return q;
}

/* The written ratio round(atr14 / atr28, 2), computed from the written values
 * (as a reader of the file would); 1.00 when atr28 is 0 (a flat tape). */
static int32_t ratio_of(int32_t atr14_q, int32_t atr28_q)
{
    if (atr28_q == 0)
        return 100;
    return (int32_t)quantize(((double)atr14_q / 1e4) / ((double)atr28_q / 1e4), 2);
}

static void compute_bars(gen_series_t *s)
{
    wilder_t atr14, atr28, gain, loss;
    adx_t adx28, adx14, adx7;
    double prev_h = 0.0, prev_l = 0.0, prev_c = 0.0;
    wilder_init(&atr14, 14);
    wilder_init(&atr28, 28);
    wilder_init(&gain, 14);
    wilder_init(&loss, 14);
    adx_init(&adx28, 28);
    adx_init(&adx14, 14);
    adx_init(&adx7, 7);
    for (int b = 0; b < GEN_BARS; b++) {
        const int32_t *p = s->price_c + 60 * b;
        double h = p[0], l = p[0], c = p[59], tr, up, down, plus_dm = 0.0, minus_dm = 0.0;
        double a14, a28, g, lo, rsi;
        gen_bar_ind_t *out = &s->bar[b];
        for (int k = 1; k < 60; k++) {
            h = p[k] > h ? p[k] : h;
            l = p[k] < l ? p[k] : l;
        }
        tr = h - l;
        if (b > 0) {
            tr = fmax(tr, fmax(fabs(h - prev_c), fabs(l - prev_c)));
            up = h - prev_h;
            down = prev_l - l;
            plus_dm = up > down && up > 0.0 ? up : 0.0;
            minus_dm = down > up && down > 0.0 ? down : 0.0;
            g = wilder_push(&gain, fmax(c - prev_c, 0.0));
            lo = wilder_push(&loss, fmax(prev_c - c, 0.0));
        } else {
            g = lo = 0.0;
        }
        rsi = lo > 0.0 ? 100.0 - 100.0 / (1.0 + g / lo) : g > 0.0 ? 100.0 : 50.0;
        a14 = wilder_push(&atr14, tr);
        a28 = wilder_push(&atr28, tr);
        /* ATRs are in cents; x 100 = ten-thousandths of a dollar. */
        out->atr14_q = (int32_t)quantize(a14, 2);
        out->atr28_q = (int32_t)quantize(a28, 2);
        out->ratio_c = ratio_of(out->atr14_q, out->atr28_q);
        out->rsi_c = (int32_t)quantize(rsi, 2);
        /* Directional movement needs a previous bar: the ADXs start at bar 1
         * (bar 0 is deep in the warm-up and never written). */
        out->adx28_c = b ? (int32_t)quantize(adx_push(&adx28, tr, plus_dm, minus_dm), 2) : 0;
        out->adx14_c = b ? (int32_t)quantize(adx_push(&adx14, tr, plus_dm, minus_dm), 2) : 0;
        out->adx7_c = b ? (int32_t)quantize(adx_push(&adx7, tr, plus_dm, minus_dm), 2) : 0;
        prev_h = h;
        prev_l = l;
        prev_c = c;
    }
}

void gen_indicators_compute(gen_series_t *s)
{
    double pv = 0.0, v = 0.0; /* cent-shares and shares since the open */
    s->price_sum[0] = 0;
    for (int i = 0; i < GEN_SERIES_SECONDS; i++)
        s->price_sum[i + 1] = s->price_sum[i] + s->price_c[i];
    for (int t = 0; t < GEN_DAY_SECONDS; t++) {
        pv += (double)s->price_c[GEN_WARMUP_SECONDS + t] * s->volume[t];
        v += s->volume[t];
        s->val_q[t] = quantize(pv / v, 2); /* cents x 100 */
    }
    compute_bars(s);
}

double gen_series_sma(const gen_series_t *s, int i, int window)
{
    return (double)(s->price_sum[i + 1] - s->price_sum[i + 1 - window]) / window;
}

void gen_series_row(const gen_series_t *s, int sec, gen_row_t *row)
{
    const int i = GEN_WARMUP_SECONDS + sec;
    const gen_bar_ind_t *b = &s->bar[i / 60 - 1]; /* the last completed minute */
    const int64_t sum = s->price_sum[i + 1] - s->price_sum[i + 1 - GEN_AVG_SECONDS];
    row->price_c = s->price_c[i];
    row->val_q = s->val_q[sec];
    /* Mean in cents x 100, rounded half up in exact integers. */
    row->avg_q = (sum * 100 + GEN_AVG_SECONDS / 2) / GEN_AVG_SECONDS;
    row->atr14_q = b->atr14_q;
    row->atr28_q = b->atr28_q;
    row->rsi_c = b->rsi_c;
    row->volume = s->volume[sec];
    row->adx28_c = b->adx28_c;
    row->adx14_c = b->adx14_c;
    row->adx7_c = b->adx7_c;
    row->ratio_c = b->ratio_c;
    /* round(atr14 / price * 100, 2) on the written atr14 and price, in the
     * order the trader's formula evaluates it. */
    row->volpct_c = (int32_t)quantize(((double)b->atr14_q / 1e4) / ((double)row->price_c / 100.0) * 100.0, 2);
}
