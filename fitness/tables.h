/* First-hit tables: everything a genome's fitness needs, per trade, as small
 * integers (DESIGN "Fast and exact on every GPU").
 *
 * Built once on the host from a fit_problem_t: the exact double comparisons of
 * SPEC sec. 3 become each trade's lattice cell per filter, and the SPEC sec. 4
 * loop becomes each trade's first-hit offset per target and stop level. A
 * genome's fitness is then integer compares and integer adds, identical on
 * every backend. Trades are stored in equity-curve order (fit_problem_t.order). */
#ifndef EVOLVE_TABLES_H
#define EVOLVE_TABLES_H

#include <stdint.h>

#include "common/hd.h"
#include "common/status.h"
#include "fitness/accum.h"
#include "fitness/accum_seg.h"
#include "fitness/fold_accum.h"
#include "fitness/hits.h"
#include "fitness/lattice.h"
#include "fitness/problem.h"

/* A view of the tables: host pointers on the CPU, device pointers in kernels. */
/* The exits of SPEC sec. 4.1 beside target and stop, in their order within
 * one second (target and stop come first). */
enum { MORE_BREAKEVEN = 0, MORE_TRAIL, MORE_HOLD, MORE_EXITS };

/* One of them: per trade and value of its parameter, the second it exits
 * (path offset; EV_NO_HIT: never) and the outcome it gives there. */
typedef struct {
    const int32_t *hit; /* int32[n_trades][n] */
    const int64_t *q;   /* int64[n_trades][n]: micro-percent, less costs */
    const int64_t *lf;  /* compound: their log factors, else NULL */
    int32_t n;          /* values of the role's parameter (0: no such parameter) */
    int32_t param;      /* its gene position (-1: none) */
} tables_more_t;

typedef struct {
    int64_t n_trades;
    int32_t n_filters;
    int32_t n_targets;    /* values of the target parameter (0: no target) */
    int32_t n_stops;      /* values of the stop parameter (0: no stop) */
    int32_t fill_price;   /* 1: q_t/q_s are per trade and level; 0: per level */
    int32_t need_lf;      /* compound: the lf_* arrays are present */
    int32_t target_param; /* gene position of the target (-1: none) */
    int32_t stop_param;   /* gene position of the stop (-1: none) */
    int32_t agg;          /* aggregate_kind (fold_accum.h): AGG_ALL, or a fold statistic over `fold` */
    int32_t n_folds;      /* folds of `fold` when agg != AGG_ALL, 1 <= n_folds <= EV_AGG_MAX_FOLDS */
    int32_t pad_;
    int32_t filter_param[EV_MAX_PARAMS];  /* gene position of filter f */
    int32_t filter_mirror[EV_MAX_PARAMS]; /* 1 for direction max: gene g is used as n-1-g */
    uint32_t filter_n[EV_MAX_PARAMS];     /* values of filter f */
    objective_prep_t obj;

    /* cells: uint16[n_trades][n_filters]. A trade is kept iff g'_f < cell_f for
     * every filter, with g'_f the gene (mirrored for max): cell = #{v <= x}
     * for min, #{v >= x} for max, x the trade's feature (double compares). */
    const uint16_t *cells;
    const int32_t *hit_t; /* int32[n_trades][n_targets]: first-hit path offset, EV_NO_HIT */
    const int32_t *hit_s; /* int32[n_trades][n_stops] */
    const int64_t *q_t;   /* micro-percent outcome of a target hit: [n_targets] or [n_trades][n_targets] */
    const int64_t *q_s;   /* likewise for stops */
    const int64_t *q_log; /* int64[n_trades]: the logged Trade Percent Change, less costs */
    const int64_t *lf_t;  /* compound: log factors of q_t, q_s, q_log (same shapes), else NULL */
    const int64_t *lf_s;
    const int64_t *lf_log;
    const uint8_t *fold;            /* uint8[n_trades]: each row's day fold when agg != AGG_ALL, else NULL */
    tables_more_t more[MORE_EXITS]; /* breakeven, trail, max_hold (n 0 where absent) */
    int32_t more_exits;             /* 1 when any of them is present: tables_outcome races them */
    int32_t pad2_;
} fit_tables_t;

/* A genome's exits as value indices (-1: the lattice has no such parameter). */
typedef struct {
    int32_t ti;             /* target */
    int32_t si;             /* stop */
    int32_t mi[MORE_EXITS]; /* breakeven, trail, max_hold */
} tables_exits_t;

/* A genome as the tables see it: mirrored filter genes and its exits. */
typedef struct {
    uint16_t gf[EV_MAX_PARAMS];
    tables_exits_t x;
} tables_genome_t;

/* Every combination of the exits' values (target, stop, then more[]; an
 * absent role counts once), for the paths that enumerate them (the dominance
 * sums): how many, combination c's value indices, and those written into a
 * genome's genes. */
EV_HD uint64_t tables_exit_combos(const fit_tables_t *t)
{
    uint64_t n = (uint64_t)(t->n_targets ? t->n_targets : 1) * (uint64_t)(t->n_stops ? t->n_stops : 1);
    for (int r = 0; r < MORE_EXITS; r++)
        n *= (uint64_t)(t->more[r].n ? t->more[r].n : 1);
    return n;
}

EV_HD tables_exits_t tables_exit_combo(const fit_tables_t *t, uint64_t c)
{
    tables_exits_t x;
    for (int r = MORE_EXITS - 1; r >= 0; r--) {
        const uint64_t n = (uint64_t)t->more[r].n;
        x.mi[r] = n ? (int32_t)(c % n) : -1;
        c = n ? c / n : c;
    }
    x.si = t->n_stops ? (int32_t)(c % (uint64_t)t->n_stops) : -1;
    c = t->n_stops ? c / (uint64_t)t->n_stops : c;
    x.ti = t->n_targets ? (int32_t)c : -1;
    return x;
}

/* The combination number of exits x (tables_exit_combo's inverse). */
EV_HD uint64_t tables_exit_combo_of(const fit_tables_t *t, const tables_exits_t *x)
{
    uint64_t c = x->ti > 0 ? (uint64_t)x->ti : 0;
    c = c * (uint64_t)(t->n_stops ? t->n_stops : 1) + (x->si > 0 ? (uint64_t)x->si : 0);
    for (int r = 0; r < MORE_EXITS; r++)
        c = c * (uint64_t)(t->more[r].n ? t->more[r].n : 1) + (x->mi[r] > 0 ? (uint64_t)x->mi[r] : 0);
    return c;
}

EV_HD void tables_exit_genes(const fit_tables_t *t, const tables_exits_t *x, uint16_t *genes)
{
    if (t->target_param >= 0)
        genes[t->target_param] = (uint16_t)x->ti;
    if (t->stop_param >= 0)
        genes[t->stop_param] = (uint16_t)x->si;
    for (int r = 0; r < MORE_EXITS; r++)
        if (t->more[r].param >= 0)
            genes[t->more[r].param] = (uint16_t)x->mi[r];
}

EV_HD void tables_genome(const fit_tables_t *t, const uint16_t *genes, tables_genome_t *g)
{
    for (int32_t f = 0; f < t->n_filters; f++) {
        uint16_t v = genes[t->filter_param[f]];
        g->gf[f] = t->filter_mirror[f] ? (uint16_t)(t->filter_n[f] - 1u - v) : v;
    }
    g->x.ti = t->target_param >= 0 ? (int32_t)genes[t->target_param] : -1;
    g->x.si = t->stop_param >= 0 ? (int32_t)genes[t->stop_param] : -1;
    for (int r = 0; r < MORE_EXITS; r++)
        g->x.mi[r] = t->more[r].param >= 0 ? (int32_t)genes[t->more[r].param] : -1;
}

EV_HD int tables_kept(const fit_tables_t *t, int64_t j, const tables_genome_t *g)
{
    const uint16_t *c = t->cells + j * t->n_filters;
    int keep = 1;
    for (int32_t f = 0; f < t->n_filters; f++)
        keep &= g->gf[f] < c[f];
    return keep;
}

/* Trade j's outcome under target level ti and stop level si (-1: none):
 * the earlier hit wins, the target on a tie (the SPEC loop checks it first). */
/* The exit trade j takes under exits x (SPEC sec. 4, 4.1): the earliest
 * event, ties in the order target, stop, breakeven, trail, time stop. Returns
 * the exit_reason (0 the logged result, 1 target, 2 stop, 3 breakeven, 4
 * trail, 5 time stop); *offset: its path offset (0 for the logged result);
 * *q, *lf: its outcome from the tables. */
EV_HD int32_t tables_first_exit(const fit_tables_t *t, int64_t j, const tables_exits_t *x, int32_t *offset, int64_t *q,
                                int64_t *lf)
{
    int32_t ht = x->ti >= 0 ? t->hit_t[j * t->n_targets + x->ti] : EV_NO_HIT;
    int32_t hs = x->si >= 0 ? t->hit_s[j * t->n_stops + x->si] : EV_NO_HIT;
    int32_t best = EV_NO_HIT, reason = 0;
    int64_t at = 0;
    const int64_t *qv = t->q_log, *lv = t->lf_log;
    if (ht != EV_NO_HIT) {
        best = ht;
        reason = 1;
        at = t->fill_price ? j * t->n_targets + x->ti : x->ti;
        qv = t->q_t;
        lv = t->lf_t;
    }
    if (hs < best) {
        best = hs;
        reason = 2;
        at = t->fill_price ? j * t->n_stops + x->si : x->si;
        qv = t->q_s;
        lv = t->lf_s;
    }
    for (int r = 0; t->more_exits && r < MORE_EXITS; r++) {
        const tables_more_t *m = &t->more[r];
        int64_t k = j * m->n + x->mi[r];
        if (x->mi[r] >= 0 && m->hit[k] < best) {
            best = m->hit[k];
            reason = 3 + r;
            at = k;
            qv = m->q;
            lv = m->lf;
        }
    }
    if (reason == 0)
        at = j;
    *offset = reason ? best : 0;
    *q = qv[at];
    *lf = t->need_lf ? lv[at] : 0;
    return reason;
}

EV_HD void tables_outcome(const fit_tables_t *t, int64_t j, const tables_exits_t *x, int64_t *q, int64_t *lf)
{
    int32_t offset;
    (void)tables_first_exit(t, j, x, &offset, q, lf);
}

/* A genome's fold statistic (objective.aggregate): every trade in equity
 * order into its fold's sums, then fold_aggregate. */
EV_HD eval_result_t tables_eval_folds(const fit_tables_t *t, const uint16_t *genes)
{
    tables_genome_t g;
    accum_t a[EV_AGG_MAX_FOLDS];
    int64_t q, lf;
    tables_genome(t, genes, &g);
    for (int32_t f = 0; f < t->n_folds; f++)
        accum_init(&a[f]);
    for (int64_t j = 0; j < t->n_trades; j++) {
        if (!tables_kept(t, j, &g))
            continue;
        tables_outcome(t, j, &g.x, &q, &lf);
        accum_add(&a[t->fold[j]], &t->obj, q, lf);
    }
    return fold_aggregate(a, t->n_folds, t->agg, &t->obj);
}

/* The kept trades among equity positions [j0, j1), in order, added to s: a
 * whole genome (tables_eval), or one lane's slice of it (kernels/fitness.cu,
 * joined in slice order: fitness/accum_seg.h). */
EV_HD void tables_accum_range(const fit_tables_t *t, const tables_genome_t *g, int64_t j0, int64_t j1, accum_seg_t *s)
{
    int64_t q, lf;
    for (int64_t j = j0; j < j1; j++) {
        if (!tables_kept(t, j, g))
            continue;
        tables_outcome(t, j, &g->x, &q, &lf);
        accum_seg_add(s, &t->obj, q, lf);
    }
}

/* A genome's fitness: every trade in equity order. */
EV_HD eval_result_t tables_eval(const fit_tables_t *t, const uint16_t *genes)
{
    tables_genome_t g;
    accum_seg_t s;
    if (t->agg != AGG_ALL)
        return tables_eval_folds(t, genes);
    tables_genome(t, genes, &g);
    accum_seg_init(&s);
    tables_accum_range(t, &g, 0, t->n_trades, &s);
    return accum_finish(&s.a, &t->obj);
}

/* The hit part of the table rows of the trade at equity position jj
 * (SPEC sec. 4): its target and stop levels (scratch: t_levels[n_targets],
 * s_levels[n_stops]), the first-hit offsets hit_t[jj][.] / hit_s[jj][.], the
 * logged outcome q_log[jj] and, for fill: price, the outcome at each hit
 * (q_t[jj][.], q_s[jj][.]). path: the trade's price[start:end), len = end - start;
 * e: its entry price; t_values/s_values: the lattice's target/stop percents.
 * The host build (tables_build) and the device build (kernels/tables_build.cu)
 * both call this, so their tables agree bit for bit. */
EV_HD void tables_trade_hits(const fit_tables_t *v, int64_t jj, const float *path, int64_t len, double e,
                             double pct_change, double cost_pct, const double *t_values, const double *s_values,
                             float *t_levels, float *s_levels, int32_t *hit_t, int32_t *hit_s, int64_t *q_t,
                             int64_t *q_s, int64_t *q_log)
{
    int32_t nt = v->n_targets, ns = v->n_stops;
    int32_t *ht = hit_t + jj * nt, *hs = hit_s + jj * ns;
    for (int32_t i = 0; i < nt; i++)
        t_levels[i] = level_price(e, t_values[i]);
    for (int32_t i = 0; i < ns; i++)
        s_levels[i] = level_price(e, s_values[i]);
    hits_scan(path, len, t_levels, nt, s_levels, ns, ht, hs);
    q_log[jj] = outcome_quantise_hd(pct_change, cost_pct);
    if (!v->fill_price)
        return;
    for (int32_t i = 0; i < nt; i++)
        q_t[jj * nt + i] =
            ht[i] == EV_NO_HIT ? 0 : outcome_quantise_hd(((double)path[ht[i]] / e - 1.0) * 100.0, cost_pct);
    for (int32_t i = 0; i < ns; i++)
        q_s[jj * ns + i] =
            hs[i] == EV_NO_HIT ? 0 : outcome_quantise_hd(((double)path[hs[i]] / e - 1.0) * 100.0, cost_pct);
}

#ifdef __cplusplus
extern "C" {
#endif

/* Host-owned tables: `view` points into the owned arrays. */
typedef struct {
    fit_tables_t view;
    uint16_t *cells;
    int32_t *hit_t, *hit_s;
    int64_t *q_t, *q_s, *q_log, *lf_t, *lf_s, *lf_log;
    uint8_t *fold;                 /* agg != AGG_ALL: the problem's folds in equity order */
    int64_t q_t_len, q_s_len;      /* elements in q_t/q_s (and lf_t/lf_s) */
    int32_t *more_hit[MORE_EXITS]; /* SPEC sec. 4.1's exits: view.more[r]'s arrays */
    int64_t *more_q[MORE_EXITS], *more_lf[MORE_EXITS];
} tables_host_t;

/* Builds the tables (OpenMP over trades). */
ev_status tables_build(tables_host_t *t, const fit_problem_t *p, ev_error *err);
void tables_free(tables_host_t *t);

/* The layout part of the view (everything but the arrays), shared by the host
 * build and the device upload. */
void tables_layout(fit_tables_t *v, const fit_problem_t *p);

/* fill: level outcomes are the same for every trade: q[i] is level i's
 * percent, less costs, quantised (q: int64[prm->n_values]). */
void tables_level_outcomes(int64_t *q, const param_t *prm, double cost_pct);

/* A trade's lattice cell for one filter parameter (exact double compares). */
uint16_t tables_cell(const param_t *prm, double feature);

#ifdef __cplusplus
}
#endif

#endif
