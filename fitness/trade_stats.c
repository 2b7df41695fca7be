#include "fitness/trade_stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fitness/dsr.h"

const char *exit_reason_name(int32_t reason)
{
    static const char *const names[EXIT_REASONS] = {"logged", "target", "stop", "breakeven", "trail", "time"};
    return reason > 0 && reason < EXIT_REASONS ? names[reason] : names[0];
}

ev_status kept_trades(const fit_problem_t *p, const fit_tables_t *t, const uint16_t *genes, kept_trade_t **out,
                      int64_t *n, ev_error *err)
{
    const dataset_t *ds = p->ds;
    tables_genome_t g;
    int64_t m = 0;
    kept_trade_t *k = (kept_trade_t *)malloc(((size_t)t->n_trades + 1) * sizeof *k);
    *out = NULL;
    *n = 0;
    if (!k)
        return ev_fail(err, EV_ENOMEM, "out of memory listing a genome's trades");
    tables_genome(t, genes, &g);
    for (int64_t jj = 0; jj < t->n_trades; jj++) {
        int64_t j = p->order[jj], lf;
        int32_t offset;
        if (!tables_kept(t, jj, &g))
            continue;
        k[m].trade = j;
        k[m].reason = tables_first_exit(t, jj, &g.x, &offset, &k[m].q, &lf);
        k[m].entry_ts = ds->entry_ts[j];
        k[m].exit_ts = k[m].reason == EXIT_LOGGED ? ds->exit_ts[j] : ds->ts[ds->start[j] + offset];
        k[m].pad_ = 0;
        m++;
    }
    *out = k;
    *n = m;
    return EV_OK;
}

ev_status trade_stats_of(const kept_trade_t *k, int64_t n, trade_stats_t *s, ev_error *err)
{
    int64_t sum = 0, pos = 0, neg = 0, cum = 0, peak = 0, dd = 0, best = INT64_MIN, worst = INT64_MAX;
    double down = 0.0, hold = 0.0, mean;
    int64_t *q = (int64_t *)calloc((size_t)n + 1, sizeof *q);
    trade_moments_t m;
    if (!q)
        return ev_fail(err, EV_ENOMEM, "out of memory computing trade statistics");
    memset(s, 0, sizeof *s);
    s->trades = n;
    for (int64_t i = 0; i < n; i++) {
        int64_t v = k[i].q;
        q[i] = v;
        sum += v;
        s->wins += v > 0;
        s->losses += v < 0;
        pos += v > 0 ? v : 0;
        neg += v < 0 ? v : 0;
        s->exits[k[i].reason]++;
        cum += v;
        peak = cum > peak ? cum : peak;
        dd = peak - cum > dd ? peak - cum : dd;
        best = v > best ? v : best;
        worst = v < worst ? v : worst;
        down += v < 0 ? ((double)v / 1e6) * ((double)v / 1e6) : 0.0;
        hold += (double)(k[i].exit_ts - k[i].entry_ts);
    }
    trade_moments(q, n, &m);
    free(q);
    mean = n ? (double)sum / 1e6 / (double)n : NAN;
    s->total_return = (double)sum / 1e6;
    s->win_rate = n ? (double)s->wins / (double)n : NAN;
    s->profit_factor = neg ? (double)pos / (double)-neg : pos ? HUGE_VAL : NAN;
    s->expectancy = mean;
    s->max_drawdown = (double)dd / 1e6;
    s->sharpe = n ? m.sharpe : NAN;
    s->sortino = down > 0.0 ? mean / sqrt(down / (double)n) : mean > 0.0 ? HUGE_VAL : NAN;
    s->avg_hold_s = n ? hold / (double)n : NAN;
    s->best = n ? (double)best / 1e6 : NAN;
    s->worst = n ? (double)worst / 1e6 : NAN;
    return EV_OK;
}

const trade_stat_field_t trade_stat_fields[TRADE_STAT_FIELDS] = {
    {"trades", 1, 0},          {"wins", 1, 0},         {"losses", 1, 0},       {"exits_target", 1, 0},
    {"exits_stop", 1, 0},      {"exits_logged", 1, 0}, {"total_return", 0, 0}, {"win_rate", 0, 0},
    {"profit_factor", 0, 0},   {"expectancy", 0, 0},   {"max_drawdown", 0, 0}, {"sharpe", 0, 0},
    {"sortino", 0, 0},         {"avg_hold_s", 0, 0},   {"best", 0, 0},         {"worst", 0, 0},
    {"exits_breakeven", 1, 1}, {"exits_trail", 1, 1},  {"exits_time", 1, 1}};

/* Field f's storage: the first six and the last three are counts, the doubles
 * between them, in trade_stat_fields' order. */
static int64_t *count_at(trade_stats_t *s, int f)
{
    int64_t *c[9] = {&s->trades,
                     &s->wins,
                     &s->losses,
                     &s->exits[EXIT_TARGET],
                     &s->exits[EXIT_STOP],
                     &s->exits[EXIT_LOGGED],
                     &s->exits[EXIT_BREAKEVEN],
                     &s->exits[EXIT_TRAIL],
                     &s->exits[EXIT_TIME]};
    return c[f < 6 ? f : f - 10];
}

int trade_stat_shown(const trade_stats_t *s, int f)
{
    return !trade_stat_fields[f].more_exit || s->more_exits;
}

static double *value_at(trade_stats_t *s, int f)
{
    double *d[10] = {&s->total_return, &s->win_rate, &s->profit_factor, &s->expectancy, &s->max_drawdown,
                     &s->sharpe,       &s->sortino,  &s->avg_hold_s,    &s->best,       &s->worst};
    return d[f - 6];
}

double trade_stat_get(const trade_stats_t *s, int f)
{
    trade_stats_t w = *s;
    return trade_stat_fields[f].is_count ? (double)*count_at(&w, f) : *value_at(&w, f);
}

void trade_stat_set(trade_stats_t *s, int f, double v)
{
    if (trade_stat_fields[f].is_count)
        *count_at(s, f) = (int64_t)v;
    else
        *value_at(s, f) = v;
}
