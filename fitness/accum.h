/* Exact fitness accumulation and objective values (SPEC sec. 5).
 *
 * Every trade outcome arrives as an integer number of micro-percent q (and, for
 * `compound`, its log factor in 1e-12 units, computed once on the host). The
 * accumulator only adds integers, so any evaluator, backend and order gives the
 * same sums; objective values are computed from the sums with IEEE + - * / sqrt
 * only, by this one function on every backend. */
#ifndef EVOLVE_ACCUM_H
#define EVOLVE_ACCUM_H

#include <math.h>
#include <stdint.h>

#include "common/hd.h"
#include "fitness/int128.h"
#include "fitness/objective_cfg.h"

/* An outcome at or below -100 % (1e8 micro-percent) wipes the account out:
 * its compound log factor is undefined, so it is counted as ruin instead. */
#define EV_RUIN_Q (-100000000LL)

/* What the objective needs beyond the count and the sum, decided once. */
typedef struct {
    int32_t kind;       /* objective_kind */
    int32_t need_sumsq; /* sharpe */
    int32_t need_pos;   /* profit_factor */
    int32_t need_log;   /* compound */
    int32_t need_dd;    /* calmar or a max_drawdown_pct constraint */
    int32_t has_max_dd;
    int64_t min_trades;
    int64_t max_dd_q; /* llround(max_drawdown_pct * 1e6) */
} objective_prep_t;
EV_STATIC_ASSERT(sizeof(objective_prep_t) == 40, "objective_prep_t layout is shared with CUDA");

typedef struct {
    int64_t n;      /* trades kept */
    int64_t sum;    /* sum of q */
    int64_t pos;    /* sum of positive q */
    ev_i128 sumsq;  /* sum of q^2 */
    int64_t lsum;   /* sum of log factors, 1e-12 units */
    int64_t ruin;   /* outcomes <= -100 % */
    int64_t equity; /* additive equity curve: running sum in entry-time order */
    int64_t peak;   /* its running maximum, starting at 0 */
    int64_t maxdd;  /* largest peak - equity seen */
} accum_t;

/* The result of evaluating one genome. `fitness` orders genomes (higher is
 * better); for every objective but compound it is the objective's value, for
 * compound it is the exact log-growth sum (objective_display turns it into a
 * percent on the host), and a +inf of profit_factor or calmar is its rank
 * value (inf_rank_value; objective_display shows +inf). sharpe without
 * variance is NaN and infeasible. */
typedef struct {
    double fitness;
    int64_t trades;
    int32_t feasible;
    int32_t pad_;
} eval_result_t;
EV_STATIC_ASSERT(sizeof(eval_result_t) == 24, "eval_result_t layout is shared with CUDA");

EV_HD void accum_init(accum_t *a)
{
    a->n = 0;
    a->sum = 0;
    a->pos = 0;
    a->sumsq = i128_zero();
    a->lsum = 0;
    a->ruin = 0;
    a->equity = 0;
    a->peak = 0;
    a->maxdd = 0;
}

/* Adds one kept trade's outcome q (micro-percent) with its log factor lf. */
EV_HD void accum_add(accum_t *a, const objective_prep_t *o, int64_t q, int64_t lf)
{
    a->n += 1;
    a->sum += q;
    if (o->need_pos && q > 0)
        a->pos += q;
    if (o->need_sumsq)
        a->sumsq = i128_add(a->sumsq, i128_mul_i64(q, q));
    if (o->need_log) {
        if (q <= EV_RUIN_Q)
            a->ruin += 1;
        else
            a->lsum += lf;
    }
    if (o->need_dd) {
        a->equity += q;
        if (a->equity > a->peak)
            a->peak = a->equity;
        if (a->peak - a->equity > a->maxdd)
            a->maxdd = a->peak - a->equity;
    }
}

/* Sums of two disjoint sets of trades (dominance sums; not the drawdown). */
EV_HD void accum_merge(accum_t *a, const accum_t *b)
{
    a->n += b->n;
    a->sum += b->sum;
    a->pos += b->pos;
    a->sumsq = i128_add(a->sumsq, b->sumsq);
    a->lsum += b->lsum;
    a->ruin += b->ruin;
}

EV_HD double ev_pos_inf(void)
{
    return HUGE_VAL;
}

EV_HD double ev_nan(void)
{
    union {
        double d;
        uint64_t u;
    } v;
    v.u = UINT64_C(0x7FF8000000000000);
    return v.d;
}

/* +inf of profit_factor (no loss) and calmar (no drawdown) as a rank value
 * (SPEC sec. 5: among +inf, by total return, then by more trades): a finite
 * double from 2^64 up, whose bits are 2^64's plus (sum + 2^40) << 20 plus the
 * trades (each clamped to its field: sums within +-1.1e6 %, 1,048,575
 * trades). Both objectives are ratios of 64-bit sums with a denominator of at
 * least 1 and no objective reaches 2^64 otherwise, so a value there is always
 * such a +inf; objective_display shows it as +inf. Bits, not arithmetic, so
 * every backend gives the same double. */
#define EV_INF_RANK_BITS UINT64_C(0x43F0000000000000) /* 2^64 */
#define EV_INF_SUM_HALF (INT64_C(1) << 40)
#define EV_INF_TRADES_MAX ((INT64_C(1) << 20) - 1)

EV_HD double inf_rank_value(int64_t sum, int64_t trades)
{
    union {
        double d;
        uint64_t u;
    } v;
    const int64_t s = sum < -EV_INF_SUM_HALF ? -EV_INF_SUM_HALF : sum >= EV_INF_SUM_HALF ? EV_INF_SUM_HALF - 1 : sum;
    const int64_t t = trades < 0 ? 0 : trades > EV_INF_TRADES_MAX ? EV_INF_TRADES_MAX : trades;
    v.u = EV_INF_RANK_BITS + ((uint64_t)(s + EV_INF_SUM_HALF) << 20) + (uint64_t)t;
    return v.d;
}

/* 1 when a fitness is such a +inf rank value. */
EV_HD int inf_rank_is(double fitness)
{
    return fitness >= 18446744073709551616.0 && fitness < ev_pos_inf();
}

/* sharpe = mean / sample std, from exact sums: with D = n*SS - S^2 (exact,
 * 128-bit), var = D / (n (n-1)); the 1e6 scale of q cancels. Zero variance
 * (D = 0) has no value: NaN, and accum_finish makes it infeasible. */
EV_HD double objective_sharpe(const accum_t *a)
{
    ev_i128 d = i128_sub(i128_mul_u64(a->sumsq, (uint64_t)a->n), i128_mul_i64(a->sum, a->sum));
    double n = (double)a->n, var, mean;
    if (i128_is_zero(d) || i128_is_neg(d))
        return ev_nan();
    var = u128_to_double(d) / (n * (n - 1.0));
    mean = (double)a->sum / n;
    return mean / sqrt(var);
}

/* Objective value and feasibility from the exact sums. */
EV_HD eval_result_t accum_finish(const accum_t *a, const objective_prep_t *o)
{
    eval_result_t r;
    r.trades = a->n;
    r.pad_ = 0;
    r.feasible = a->n >= o->min_trades;
    if (o->has_max_dd && a->maxdd > o->max_dd_q)
        r.feasible = 0;
    switch (o->kind) {
    case OBJ_MEAN:
        r.feasible &= a->n > 0;
        /* n * 1e6 is exact (n < 2^53 / 1e6), so this is S / (n 10^6) rounded once. */
        r.fitness = a->n > 0 ? (double)a->sum / ((double)a->n * 1e6) : 0.0;
        break;
    case OBJ_SHARPE:
        r.feasible &= a->n >= 2;
        r.fitness = a->n >= 2 ? objective_sharpe(a) : 0.0;
        r.feasible &= r.fitness == r.fitness; /* zero variance: no value (SPEC sec. 5) */
        break;
    case OBJ_PROFIT_FACTOR: {
        int64_t loss = a->pos - a->sum; /* |sum of negative q| */
        r.feasible &= a->n > 0;
        r.fitness = loss == 0 ? inf_rank_value(a->sum, a->n) : (double)a->pos / (double)loss;
        break;
    }
    case OBJ_COMPOUND: r.fitness = a->ruin ? -ev_pos_inf() : (double)a->lsum; break;
    case OBJ_CALMAR:
        r.feasible &= a->n > 0;
        r.fitness = a->maxdd == 0 ? inf_rank_value(a->sum, a->n) : (double)a->sum / (double)a->maxdd;
        break;
    default: /* OBJ_TOTAL_RETURN */ r.fitness = (double)a->sum / 1e6; break;
    }
    return r;
}

/* Sort key: higher is better. Feasible genomes map their fitness onto the
 * order-preserving unsigned image of the double (NaN as -inf, -0 as +0);
 * infeasible genomes all get 0, below every feasible one. Ties are broken by
 * the lower linear index (SPEC sec. 5). */
EV_HD uint64_t rank_key(eval_result_t r)
{
    union {
        double d;
        uint64_t u;
    } v;
    if (!r.feasible)
        return 0;
    v.d = r.fitness;
    if (v.d != v.d)
        v.d = -ev_pos_inf();
    if (v.d == 0.0)
        v.d = 0.0;
    return (v.u >> 63) ? ~v.u : (v.u | (UINT64_C(1) << 63));
}

/* llround((pct - cost_pct) * 1e6): an outcome in percent as micro-percent.
 * The one definition, called by the host (outcome_quantise of
 * fitness/objective_prep.h) and by the device table build; llround is exact,
 * so both give the same integer. */
EV_HD int64_t outcome_quantise_hd(double pct, double cost_pct)
{
    return (int64_t)llround((pct - cost_pct) * 1e6);
}

#endif
