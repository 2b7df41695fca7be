#include <math.h>
#include <stddef.h>
#include <stdio.h>

#include "fitness/objective_prep.h"

void objective_prepare(objective_prep_t *p, const objective_cfg_t *cfg)
{
    p->kind = cfg->kind;
    p->need_sumsq = cfg->kind == OBJ_SHARPE;
    p->need_pos = cfg->kind == OBJ_PROFIT_FACTOR;
    p->need_log = cfg->kind == OBJ_COMPOUND;
    p->has_max_dd = cfg->has_max_drawdown != 0;
    p->need_dd = cfg->kind == OBJ_CALMAR || p->has_max_dd;
    p->min_trades = cfg->min_trades;
    p->max_dd_q = p->has_max_dd ? llround(cfg->max_drawdown_pct * 1e6) : 0;
}

int64_t outcome_quantise(double pct, double cost_pct)
{
    return outcome_quantise_hd(pct, cost_pct);
}

int64_t outcome_log_factor(int64_t q)
{
    if (q <= EV_RUIN_Q)
        return 0;
    return (int64_t)llround(log1p((double)q / 1e8) * 1e12);
}

double objective_display(const objective_cfg_t *cfg, double fitness)
{
    if (inf_rank_is(fitness))
        return HUGE_VAL;
    if (cfg->kind != OBJ_COMPOUND)
        return fitness;
    if (isinf(fitness) && fitness < 0)
        return -100.0;
    return expm1(fitness * 1e-12) * 100.0;
}

void objective_infeasible_rules(char *buf, size_t n, const objective_cfg_t *cfg)
{
    const int dd = cfg->has_max_drawdown != 0, var = cfg->kind == OBJ_SHARPE;
    snprintf(buf, n, "fewer than %lld kept trades (min_trades)%s%s", (long long)cfg->min_trades,
             dd ? (var ? ", beyond max_drawdown_pct" : ", or beyond max_drawdown_pct") : "",
             var ? ", or zero variance (every kept outcome equal)" : "");
}

const char *objective_infeasible_why(const objective_cfg_t *cfg, eval_result_t r)
{
    if (r.feasible)
        return NULL;
    if (r.trades < cfg->min_trades)
        return "fewer kept trades than min_trades";
    if (r.fitness != r.fitness)
        return "zero variance";
    if (r.trades == 0 || (cfg->kind == OBJ_SHARPE && r.trades < 2))
        return "too few kept trades for the objective";
    return "beyond max_drawdown_pct";
}
