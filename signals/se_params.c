#include "signals/se_params.h"

#include <math.h>
#include <string.h>

#include "io/numparse.h"

const char *const se_param_names[] = {"ema_fast", "ema_slow",      "z_window", "atr_window", "vol_z",  "tr_z",
                                      "cloc_min", "atr_stop_mult", "reward_r", "max_hold",   "fee_bp", "slippage_bp",
                                      NULL};

void se_params_defaults(se_params_t *p)
{
    memset(p, 0, sizeof *p);
    p->ema_fast = 96;
    p->ema_slow = 672;
    p->z_window = 672;
    p->atr_window = 96;
    p->vol_z = 2.0;
    p->tr_z = 1.2;
    p->cloc_min = 0.6;
    p->atr_stop_mult = 0.7;
    p->reward_r = 2.0;
    p->max_hold = 96;
    p->fee_bp = 5.0;
    p->slippage_bp = 5.0;
}

void se_params_put(se_params_t *p, int which, double v)
{
    switch (which) {
    case 0: p->ema_fast = (int32_t)v; break;
    case 1: p->ema_slow = (int32_t)v; break;
    case 2: p->z_window = (int32_t)v; break;
    case 3: p->atr_window = (int32_t)v; break;
    case 4: p->vol_z = v; break;
    case 5: p->tr_z = v; break;
    case 6: p->cloc_min = v; break;
    case 7: p->atr_stop_mult = v; break;
    case 8: p->reward_r = v; break;
    default: p->max_hold = (int32_t)v; break;
    }
}

int se_params_feasible(const se_params_t *p)
{
    return p->ema_slow > p->ema_fast;
}

ev_status se_params_check(const se_params_t *p, ev_error *err)
{
    if (se_params_feasible(p))
        return EV_OK;
    return ev_fail(err, EV_EUSAGE, "infeasible genome: ema_slow (%d) must be greater than ema_fast (%d)",
                   (int)p->ema_slow, (int)p->ema_fast);
}

static int name_is(const char *name, size_t n, const char *s)
{
    return strlen(s) == n && memcmp(name, s, n) == 0;
}

ev_status se_params_set(se_params_t *p, const char *name, size_t nn, const char *value, size_t vn, ev_error *err)
{
    int32_t *ip = NULL;
    double *dp = NULL;
    if (name_is(name, nn, "ema_fast"))
        ip = &p->ema_fast;
    else if (name_is(name, nn, "ema_slow"))
        ip = &p->ema_slow;
    else if (name_is(name, nn, "z_window"))
        ip = &p->z_window;
    else if (name_is(name, nn, "atr_window"))
        ip = &p->atr_window;
    else if (name_is(name, nn, "max_hold"))
        ip = &p->max_hold;
    else if (name_is(name, nn, "vol_z"))
        dp = &p->vol_z;
    else if (name_is(name, nn, "tr_z"))
        dp = &p->tr_z;
    else if (name_is(name, nn, "cloc_min"))
        dp = &p->cloc_min;
    else if (name_is(name, nn, "atr_stop_mult"))
        dp = &p->atr_stop_mult;
    else if (name_is(name, nn, "reward_r"))
        dp = &p->reward_r;
    else if (name_is(name, nn, "fee_bp"))
        dp = &p->fee_bp;
    else if (name_is(name, nn, "slippage_bp"))
        dp = &p->slippage_bp;
    else
        return ev_fail(err, EV_EUSAGE,
                       "unknown seller_exhaustion parameter '%.*s'; expected one of ema_fast, ema_slow, z_window, "
                       "atr_window, vol_z, tr_z, cloc_min, atr_stop_mult, reward_r, max_hold, fee_bp, slippage_bp",
                       (int)(nn > 64 ? 64 : nn), name);
    if (ip) {
        int64_t v;
        if (num_parse_int64(value, vn, &v) != NUM_OK || v < 1 || v > 100000000)
            return ev_fail(err, EV_EUSAGE, "%.*s: expected a whole number of bars 1..100000000, got '%.*s'", (int)nn,
                           name, (int)(vn > 64 ? 64 : vn), value);
        *ip = (int32_t)v;
    } else {
        double v;
        const int cost = dp == &p->fee_bp || dp == &p->slippage_bp;
        if (num_parse_double(value, vn, &v) != NUM_OK || !isfinite(v) || (cost && (v < 0 || v > 10000)) ||
            fabs(v) > 1e12)
            return ev_fail(err, EV_EUSAGE, "%.*s: expected %s, got '%.*s'", (int)nn, name,
                           cost ? "basis points 0..10000" : "a decimal number", (int)(vn > 64 ? 64 : vn), value);
        *dp = v;
    }
    return EV_OK;
}

ev_status se_params_assign(se_params_t *p, const char *a, ev_error *err)
{
    const char *eq = strchr(a, '=');
    if (!eq)
        return ev_fail(err, EV_EUSAGE, "expected NAME=VALUE, got '%s'", a);
    return se_params_set(p, a, (size_t)(eq - a), eq + 1, strlen(eq + 1), err);
}
