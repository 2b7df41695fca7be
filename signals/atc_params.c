#include "signals/atc_params.h"

#include <math.h>
#include <string.h>

#include "io/numparse.h"

const char *const atc_param_names[] = {"ema_len",
                                       "hull_len",
                                       "wma_len",
                                       "dema_len",
                                       "lsma_len",
                                       "kama_len",
                                       "ema_w",
                                       "hma_w",
                                       "wma_w",
                                       "dema_w",
                                       "lsma_w",
                                       "kama_w",
                                       "robustness",
                                       "La",
                                       "De",
                                       "cutout",
                                       "long_threshold",
                                       "short_threshold",
                                       "cut_threshold",
                                       "fee_bp",
                                       "slippage_bp",
                                       "hma_as_sma",
                                       "pine_sticky_a",
                                       "python_cut",
                                       NULL};

const char *const atc_robustness_names[] = {"Narrow", "Medium", "Wide", NULL};

void atc_params_defaults(atc_params_t *p)
{
    memset(p, 0, sizeof *p);
    for (int f = 0; f < ATC_FAMILIES; f++) {
        p->len[f] = 28;
        p->w[f] = 1.0;
    }
    p->robustness = ATC_MEDIUM;
    p->la = 0.02;
    p->de = 0.03;
    p->cutout = 0;
    p->long_threshold = 0.1;
    p->short_threshold = -0.1;
    p->cut_threshold = 0.49;
    p->fee_bp = 5.0;
    p->slippage_bp = 5.0;
}

static int find_name(const char *name, size_t n)
{
    for (int k = 0; atc_param_names[k]; k++)
        if (strlen(atc_param_names[k]) == n && memcmp(name, atc_param_names[k], n) == 0)
            return k;
    return -1;
}

/* Where parameter k lives: an int32 or a double. */
static void slot(atc_params_t *p, int k, int32_t **ip, double **dp)
{
    *ip = NULL;
    *dp = NULL;
    if (k < 6)
        *ip = &p->len[k];
    else if (k < 12)
        *dp = &p->w[k - 6];
    else
        switch (k) {
        case 12: *ip = &p->robustness; break;
        case 13: *dp = &p->la; break;
        case 14: *dp = &p->de; break;
        case 15: *ip = &p->cutout; break;
        case 16: *dp = &p->long_threshold; break;
        case 17: *dp = &p->short_threshold; break;
        case 18: *dp = &p->cut_threshold; break;
        case 19: *dp = &p->fee_bp; break;
        case 20: *dp = &p->slippage_bp; break;
        case 21: *ip = &p->hma_as_sma; break;
        case 22: *ip = &p->pine_sticky_a; break;
        default: *ip = &p->python_cut; break;
        }
}

static int text_is(const char *v, size_t n, const char *s)
{
    size_t k = strlen(s);
    if (k != n)
        return 0;
    for (size_t i = 0; i < n; i++)
        if ((v[i] | 0x20) != (s[i] | 0x20))
            return 0;
    return 1;
}

ev_status atc_params_set(atc_params_t *p, const char *name, size_t nn, const char *value, size_t vn, ev_error *err)
{
    const int k = find_name(name, nn);
    const int vshow = (int)(vn > 64 ? 64 : vn);
    int32_t *ip;
    double *dp;
    if (k < 0)
        return ev_fail(err, EV_EUSAGE,
                       "unknown atc parameter '%.*s'; expected one of ema_len, hull_len, wma_len, dema_len, "
                       "lsma_len, kama_len, ema_w, hma_w, wma_w, dema_w, lsma_w, kama_w, robustness, La, De, cutout, "
                       "long_threshold, short_threshold, cut_threshold, fee_bp, slippage_bp, hma_as_sma, "
                       "pine_sticky_a, python_cut",
                       (int)(nn > 64 ? 64 : nn), name);
    slot(p, k, &ip, &dp);
    if (k == ATC_ROBUSTNESS_PARAM) {
        for (int r = 0; atc_robustness_names[r]; r++)
            if (text_is(value, vn, atc_robustness_names[r])) {
                *ip = r;
                return EV_OK;
            }
        return ev_fail(err, EV_EUSAGE, "robustness: expected Narrow, Medium or Wide, got '%.*s'", vshow, value);
    }
    if (k >= 21) {
        if (text_is(value, vn, "1") || text_is(value, vn, "true"))
            *ip = 1;
        else if (text_is(value, vn, "0") || text_is(value, vn, "false"))
            *ip = 0;
        else
            return ev_fail(err, EV_EUSAGE, "%s: expected true or false (1 or 0), got '%.*s'", atc_param_names[k], vshow,
                           value);
        return EV_OK;
    }
    if (ip) {
        int64_t v;
        const int64_t lo = k == 15 ? 0 : 1;
        if (num_parse_int64(value, vn, &v) != NUM_OK || v < lo || v > 100000000)
            return ev_fail(err, EV_EUSAGE, "%s: expected a whole number of bars %d..100000000, got '%.*s'",
                           atc_param_names[k], (int)lo, vshow, value);
        *ip = (int32_t)v;
    } else {
        double v;
        const int cost = k == 19 || k == 20;
        if (num_parse_double(value, vn, &v) != NUM_OK || !isfinite(v) || (cost && (v < 0 || v > 10000)) ||
            fabs(v) > 1e12)
            return ev_fail(err, EV_EUSAGE, "%s: expected %s, got '%.*s'", atc_param_names[k],
                           cost ? "basis points 0..10000" : "a decimal number", vshow, value);
        *dp = v;
    }
    return EV_OK;
}

ev_status atc_params_assign(atc_params_t *p, const char *a, ev_error *err)
{
    const char *eq = strchr(a, '=');
    if (!eq)
        return ev_fail(err, EV_EUSAGE, "expected NAME=VALUE, got '%s'", a);
    return atc_params_set(p, a, (size_t)(eq - a), eq + 1, strlen(eq + 1), err);
}

double atc_params_get(const atc_params_t *p, int which)
{
    atc_params_t q = *p;
    int32_t *ip;
    double *dp;
    slot(&q, which, &ip, &dp);
    return ip ? (double)*ip : *dp;
}

void atc_params_put(atc_params_t *p, int which, double value)
{
    int32_t *ip;
    double *dp;
    slot(p, which, &ip, &dp);
    if (ip)
        *ip = (int32_t)value;
    else
        *dp = value;
}

/* The first family whose shortest member is under ATC_MIN_MEMBER (its
 * index) or whose weight is not > 0 (ATC_FAMILIES + its index); -1 if none. */
static int infeasible_at(const atc_params_t *p)
{
    for (int f = 0; f < ATC_FAMILIES; f++) {
        if (atc_member_len(p->len[f], p->robustness, ATC_MEMBERS - 1) < ATC_MIN_MEMBER)
            return f;
        if (!(p->w[f] > 0))
            return ATC_FAMILIES + f;
    }
    return -1;
}

int atc_params_feasible(const atc_params_t *p)
{
    return infeasible_at(p) < 0;
}

ev_status atc_params_check(const atc_params_t *p, ev_error *err)
{
    const int f = infeasible_at(p);
    if (f < 0)
        return EV_OK;
    if (f < ATC_FAMILIES)
        return ev_fail(err, EV_EUSAGE,
                       "infeasible genome: %s = %d with robustness %s gives a member of length %d; every member "
                       "must be at least %d bars (docs/signals-spec.md sec. 2.2)",
                       atc_param_names[f], (int)p->len[f], atc_robustness_names[p->robustness],
                       (int)atc_member_len(p->len[f], p->robustness, ATC_MEMBERS - 1), ATC_MIN_MEMBER);
    return ev_fail(err, EV_EUSAGE, "infeasible genome: %s = %.17g; weights must be > 0", atc_param_names[f],
                   p->w[f - ATC_FAMILIES]);
}
