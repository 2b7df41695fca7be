#include "signals/atc_config.h"

#include "signals/atc_params.h"

void atc_config_base(const se_config_t *c, atc_params_t *p)
{
    atc_params_defaults(p);
    p->fee_bp = c->fee_bp;
    p->slippage_bp = c->slippage_bp;
    p->hma_as_sma = c->pine[0];
    p->pine_sticky_a = c->pine[1];
    p->python_cut = c->pine[2];
    p->flat_at_close = c->flat_at_close;
}

static double atc_value(const void *genome, int which)
{
    return atc_params_get((const atc_params_t *)genome, which);
}

ev_status atc_config_check(const se_config_t *c, const atc_params_t *p, ev_error *err)
{
    ev_status st = se_config_check_lattice(c, atc_value, p, err);
    return st != EV_OK ? st : atc_params_check(p, err);
}
