#include "runs/session_validation.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fitness/pbo.h"
#include "signals/strategy.h"
#include "ga/grid.h"

ev_status session_validation_check_folds(const session_t *s, ev_error *err)
{
    if (s->cfg.objective.aggregate == AGG_ALL)
        return EV_OK;
    if (!s->split.has_folds || s->split.n_folds < 2 || s->split.n_folds > EV_AGG_MAX_FOLDS)
        return ev_fail(err, EV_ECONFIG,
                       "%s: objective.aggregate needs validation.folds (or fold_by) giving 2 to %d folds; there are %d",
                       s->cfg.path, EV_AGG_MAX_FOLDS, s->split.has_folds ? s->split.n_folds : 0);
    return EV_OK;
}

ev_status session_validation_split(session_t *s, const run_reporter_t *rep, ev_error *err)
{
    const dataset_t *full;
    uint8_t *keep;
    int64_t kept = 0;
    ev_status st;
    int32_t agg = s->cfg.objective.aggregate;
    if ((st = val_split_make(&s->split, &s->cfg.validation, &s->ds, s->cfg.seed, err)) != EV_OK) {
        ev_error_prefix(err, "%s: ", s->cfg.path);
        return st;
    }
    s->ds_full = s->ds; /* moved: s->ds is rebuilt from it */
    memset(&s->ds, 0, sizeof s->ds);
    s->validating = 1;
    s->pbo = NAN;
    full = &s->ds_full;
    keep = (uint8_t *)malloc((size_t)full->n_trades + 1);
    s->trade_part = (int32_t *)malloc(((size_t)full->n_trades + 1) * sizeof *s->trade_part);
    if (!keep || !s->trade_part) {
        free(keep);
        return ev_fail(err, EV_ENOMEM, "out of memory splitting the days");
    }
    for (int64_t j = 0; j < full->n_trades; j++) {
        s->trade_part[j] = val_trade_part(&s->split, full, j);
        keep[j] = s->trade_part[j] != VAL_HOLDOUT;
        kept += keep[j];
    }
    st = dataset_subset(&s->ds, full, keep, err);
    free(keep);
    if (st != EV_OK)
        return st;
    if (agg != AGG_ALL) {
        if ((st = session_validation_check_folds(s, err)) != EV_OK)
            return st;
        if (!(s->fold_in = (uint8_t *)malloc((size_t)s->ds.n_trades + 1)))
            return ev_fail(err, EV_ENOMEM, "out of memory");
        for (int64_t j = 0, k = 0; j < full->n_trades; j++)
            if (s->trade_part[j] != VAL_HOLDOUT)
                s->fold_in[k++] = (uint8_t)s->trade_part[j];
    }
    if (kept == 0)
        return ev_fail(err, EV_EDATA, "%s: validation: no trade is left in-sample", s->cfg.path);
    if (s->split.has_folds)
        run_note(rep,
                 "validation: %d trading days: %d held out (%lld trades), %d in-sample (%lld trades) in %d folds\n",
                 s->split.n_days, s->split.n_holdout, (long long)(full->n_trades - kept),
                 s->split.n_days - s->split.n_holdout, (long long)kept, s->split.n_folds);
    else
        run_note(rep, "validation: %d trading days: %d held out (%lld trades), %d in-sample (%lld trades)\n",
                 s->split.n_days, s->split.n_holdout, (long long)(full->n_trades - kept),
                 s->split.n_days - s->split.n_holdout, (long long)kept);
    return EV_OK;
}

void session_validation_folds(session_t *s)
{
    if (!s->fold_in)
        return;
    s->prob.fold = s->fold_in;
    s->prob.n_folds = s->split.n_folds;
    s->prob.agg = s->cfg.objective.aggregate;
}

ev_status session_validation_tables(session_t *s, ev_error *err)
{
    ev_status st;
    if ((st = problem_init(&s->prob_full, &s->ds_full, &s->cfg.lattice, &s->cfg.objective, err)) != EV_OK)
        return st;
    s->var_sr = sharpe_variance(&s->prob, &s->tables.view, SESSION_SHARPE_SAMPLE, s->cfg.seed, &s->var_sr_points);
    return tables_build(&s->tables_full, &s->prob_full, err);
}

/* rank_by: plateau: the list reordered by plateau mean, higher first, the
 * fitness order (the position) breaking ties; stable insertion sort. */
static ev_status by_plateau(reported_t *r, ev_error *err)
{
    uint32_t n = r->n, *ord = (uint32_t *)malloc(((size_t)n + 1) * sizeof *ord);
    ranked_genome_t *e = (ranked_genome_t *)malloc(((size_t)n + 1) * sizeof *e);
    double *value = (double *)malloc(((size_t)n + 1) * sizeof *value);
    val_row_t *row = (val_row_t *)malloc(((size_t)n + 1) * sizeof *row);
    trade_stats_t *stats = (trade_stats_t *)malloc(((size_t)n + 1) * sizeof *stats);
    if (!ord || !e || !value || !row || !stats) {
        free(stats);
        free(ord);
        free(e);
        free(value);
        free(row);
        return ev_fail(err, EV_ENOMEM, "out of memory");
    }
    for (uint32_t i = 0; i < n; i++) {
        double m = r->val->row[i].plateau.mean;
        uint32_t j = i;
        while (j > 0 && r->val->row[ord[j - 1]].plateau.mean < m) {
            ord[j] = ord[j - 1];
            j--;
        }
        ord[j] = i;
    }
    for (uint32_t i = 0; i < n; i++) {
        e[i] = r->e[ord[i]];
        value[i] = r->value[ord[i]];
        row[i] = r->val->row[ord[i]];
        stats[i] = r->stats[ord[i]];
    }
    memcpy(r->stats, stats, (size_t)n * sizeof *stats);
    free(stats);
    memcpy(r->value, value, (size_t)n * sizeof *value);
    memcpy(r->val->row, row, (size_t)n * sizeof *row);
    free(ord);
    free(value);
    free(row);
    r->own_e = e;
    r->e = e;
    return EV_OK;
}

/* Each genome's trader statistics on the holdout days: its kept trades on
 * the whole dataset, those of holdout days. */
static ev_status holdout_stats(const session_t *s, const reported_t *r, val_rows_t *v, ev_error *err)
{
    ev_status st = EV_OK;
    for (uint32_t i = 0; i < r->n && st == EV_OK; i++) {
        kept_trade_t *k;
        int64_t n, m = 0;
        if ((st = kept_trades(&s->prob_full, &s->tables_full.view, r->e[i].genes, &k, &n, err)) != EV_OK)
            break;
        for (int64_t j = 0; j < n; j++)
            if (s->trade_part[k[j].trade] == VAL_HOLDOUT)
                k[m++] = k[j];
        st = trade_stats_of(k, m, &v->row[i].oos_stats, err);
        v->row[i].oos_stats.more_exits = s->tables_full.view.more_exits;
        free(k);
    }
    return st;
}

ev_status session_validation_attach(const session_t *s, reported_t *r, val_rows_t *v, ev_error *err)
{
    r->val = v;
    r->split = &s->split;
    v->pbo = s->pbo;
    v->pbo_combos = s->pbo_combos;
    v->pbo_genomes = s->pbo_genomes;
    v->pbo_blocks = s->pbo_blocks;
    v->var_sr = s->var_sr;
    v->var_sr_points = s->var_sr_points;
    if (s->cfg.validation.rank_by == RANK_BY_PLATEAU)
        return by_plateau(r, err);
    for (uint32_t i = 0; i < r->n; i++) {
        const eval_result_t *a = &r->e[i].r, *b = &v->row[i].search;
        if (memcmp(&a->fitness, &b->fitness, sizeof a->fitness) != 0 || a->trades != b->trades ||
            a->feasible != b->feasible)
            return ev_fail(err, EV_EINTERNAL,
                           "validation: rank %u's in-sample score (%.17g, %lld trades) differs from the search's "
                           "(%.17g, %lld trades); please report this",
                           i + 1, b->fitness, (long long)b->trades, a->fitness, (long long)a->trades);
    }
    return EV_OK;
}

ev_status session_validation_rows(const session_t *s, reported_t *r, ev_error *err)
{
    val_rows_t *v = (val_rows_t *)calloc(1, sizeof *v);
    ev_status st;
    if (!v)
        return ev_fail(err, EV_ENOMEM, "out of memory");
    if ((st = val_rows_make(v, &s->prob_full, &s->tables_full.view, s->trade_part, s->split.n_folds, r->e, r->n,
                            s->cfg.validation.min_trades, err)) != EV_OK) {
        free(v);
        return st;
    }
    for (uint32_t i = 0; i < r->n; i++)
        plateau_score(&s->prob, &s->tables.view, r->e[i].genes, &v->row[i].plateau);
    if ((st = holdout_stats(s, r, v, err)) != EV_OK) {
        val_rows_free(v);
        free(v);
        return st;
    }
    return session_validation_attach(s, r, v, err);
}

/* The PBO of a strategy's candidates: their trades by the block of their
 * entry bar's day. */
static ev_status pbo_of_strategy(session_t *s, const ranked_genome_t *cand, uint32_t n, const int32_t *day_block,
                                 int32_t blocks, ev_error *err)
{
    const strategy_ops_t *so = strategy_ops(s->strategy);
    const int64_t nb = so->n_bars(strategy_state(s->strategy));
    const int64_t *ts = so->bar_ts(strategy_state(s->strategy));
    int32_t *bar_block = (int32_t *)malloc(((size_t)nb + 1) * sizeof *bar_block);
    accum_t *a = (accum_t *)calloc((size_t)n * (size_t)blocks + 1, sizeof *a);
    ev_status st;
    if (!bar_block || !a) {
        free(bar_block);
        free(a);
        return ev_fail(err, EV_ENOMEM, "out of memory");
    }
    for (int64_t k = 0; k < nb; k++) {
        int32_t at = val_day_index(&s->split, ts[k]);
        bar_block[k] = at < 0 ? -1 : day_block[at];
    }
    if ((st = strategy_block_sums(s->strategy, cand, n, bar_block, blocks, a, err)) == EV_OK)
        st = pbo_of_sums(a, n, blocks, &s->prob.obj, &s->pbo, &s->pbo_combos, err);
    free(bar_block);
    free(a);
    return st;
}

/* The PBO of a trade log's candidates: its trades by the block of their
 * entry day. */
static ev_status pbo_of_trades(session_t *s, const ranked_genome_t *cand, uint32_t n, const int32_t *day_block,
                               int32_t blocks, ev_error *err)
{
    int32_t *block = (int32_t *)malloc(((size_t)s->ds.n_trades + 1) * sizeof *block);
    ev_status st;
    if (!block)
        return ev_fail(err, EV_ENOMEM, "out of memory");
    for (int64_t j = 0; j < s->ds.n_trades; j++) {
        int32_t at = val_day_index(&s->split, s->ds.entry_ts[j]);
        block[j] = at < 0 ? -1 : day_block[at];
    }
    st = pbo_cscv(&s->prob, &s->tables.view, cand, n, block, blocks, &s->pbo, &s->pbo_combos, err);
    free(block);
    return st;
}

/* The PBO over cand[n] (best first). */
static ev_status pbo_over(session_t *s, const ranked_genome_t *cand, uint32_t n, ev_error *err)
{
    const validation_cfg_t *vc = &s->cfg.validation;
    int32_t n_in = 0, blocks = (int32_t)vc->pbo_blocks, k = 0;
    int32_t *day_block;
    ev_status st;
    s->pbo = NAN;
    if (n < 2 || s->prob.obj.need_dd)
        return EV_OK;
    for (int32_t i = 0; i < s->split.n_days; i++)
        n_in += s->split.part[i] != VAL_HOLDOUT;
    if (blocks > n_in)
        blocks = n_in & ~1;
    if (blocks < 2)
        return EV_OK;
    if (!(day_block = (int32_t *)malloc(((size_t)s->split.n_days + 1) * sizeof *day_block)))
        return ev_fail(err, EV_ENOMEM, "out of memory");
    /* the in-sample days in time order, cut into `blocks` contiguous blocks */
    for (int32_t i = 0; i < s->split.n_days; i++)
        day_block[i] = s->split.part[i] == VAL_HOLDOUT ? -1 : (int32_t)((int64_t)(k++) * blocks / n_in);
    st = s->strategy ? pbo_of_strategy(s, cand, n, day_block, blocks, err)
                     : pbo_of_trades(s, cand, n, day_block, blocks, err);
    free(day_block);
    s->pbo_genomes = n;
    s->pbo_blocks = (uint32_t)blocks;
    return st;
}

ev_status session_validation_pbo_of(session_t *s, const topk_t *cand, ev_error *err)
{
    ranked_genome_t *e = topk_ranked_new(cand, &s->prob.shape);
    ev_status st = e ? pbo_over(s, e, cand->n, err) : ev_fail(err, EV_ENOMEM, "out of memory");
    free(e);
    return st;
}

ev_status session_validation_pbo(session_t *s, ev_error *err)
{
    const validation_cfg_t *vc = &s->cfg.validation;
    backend_t *cpu = NULL;
    grid_opts_t go;
    grid_stats_t gs;
    topk_t top;
    ev_status st;
    s->pbo = NAN;
    if (vc->pbo_genomes < 2 || s->prob.obj.need_dd)
        return EV_OK;
    if ((st = topk_init(&top, vc->pbo_genomes, err)) != EV_OK)
        return st;
    memset(&go, 0, sizeof go);
    if (s->strategy) { /* the candidates: a second pass of backtests */
        st = grid_run(s->ops, s->backend, &s->prob, &go, &top, &gs, err);
    } else if ((st = backend_cpu_ops.open(&cpu, &s->prob, &s->tables, err)) == EV_OK) {
        st = grid_run(&backend_cpu_ops, cpu, &s->prob, &go, &top, &gs, err);
        backend_cpu_ops.close(cpu);
    }
    if (st == EV_OK)
        st = session_validation_pbo_of(s, &top, err);
    topk_free(&top);
    return st;
}

void session_validation_free(session_t *s)
{
    tables_free(&s->tables_full);
    problem_free(&s->prob_full);
    dataset_free(&s->ds_full);
    val_split_free(&s->split);
    free(s->trade_part);
    s->trade_part = NULL;
    free(s->fold_in);
    s->fold_in = NULL;
    s->validating = 0;
}
