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
    /* the fewest trades the objective itself needs (README "Undefined objectives are infeasible") */
    const int64_t own = cfg->kind == OBJ_SHARPE                                                              ? 2
                        : cfg->kind == OBJ_MEAN || cfg->kind == OBJ_PROFIT_FACTOR || cfg->kind == OBJ_CALMAR ? 1
                                                                                                             : 0;
    const char *rule[3];
    char fewer[64];
    int k = 0;
    size_t at = 0;
    if (cfg->min_trades > 0 && cfg->min_trades >= own) {
        snprintf(fewer, sizeof fewer, "fewer than %lld kept trades (min_trades)", (long long)cfg->min_trades);
        rule[k++] = fewer;
    } else if (own)
        rule[k++] = own == 2 ? "fewer than 2 kept trades (sharpe)" : "no kept trade";
    if (cfg->has_max_drawdown)
        rule[k++] = "beyond max_drawdown_pct";
    if (cfg->kind == OBJ_SHARPE)
        rule[k++] = "zero variance (every kept outcome equal)";
    buf[0] = '\0';
    for (int i = 0; i < k && at < n; i++)
        at += (size_t)snprintf(buf + at, n - at, "%s%s", i == 0 ? "" : i == k - 1 ? ", or " : ", ", rule[i]);
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
