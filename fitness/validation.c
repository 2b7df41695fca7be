#include "fitness/validation.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fitness/objective_prep.h"

void validation_cfg_free(validation_cfg_t *v)
{
    free(v->days);
    memset(v, 0, sizeof *v);
}

int64_t val_day_of(int64_t ts)
{
    int64_t d = ts / 86400;
    return (ts % 86400 < 0) ? d - 1 : d;
}

/* splitmix64: the split's own counter-based stream, (seed, stream, draw). */
static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static uint64_t draw(uint64_t seed, uint64_t stream, uint64_t i)
{
    return mix64(mix64(seed ^ (stream * UINT64_C(0x9e3779b97f4a7c15))) + i * UINT64_C(0x9e3779b97f4a7c15));
}

/* Fisher-Yates shuffle of idx[n] (the modulo bias is < n / 2^64). */
static void shuffle(int32_t *idx, int32_t n, uint64_t seed, uint64_t stream)
{
    for (int32_t i = n - 1; i > 0; i--) {
        int32_t j = (int32_t)(draw(seed, stream, (uint64_t)i) % (uint64_t)(i + 1));
        int32_t t = idx[i];
        idx[i] = idx[j];
        idx[j] = t;
    }
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Day number -> year * 12 + month - 1 (proleptic Gregorian, H. Hinnant's
 * civil_from_days). */
static int64_t month_of(int64_t z)
{
    int64_t era, doe, yoe, y, doy, mp, m;
    z += 719468;
    era = (z >= 0 ? z : z - 146096) / 146097;
    doe = z - era * 146097;
    yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    y = yoe + era * 400;
    doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    mp = (5 * doy + 2) / 153;
    m = mp < 10 ? mp + 3 : mp - 9;
    return (y + (m <= 2)) * 12 + (m - 1);
}

/* Monday-based week number: 1970-01-01 (day 0) was a Thursday. */
static int64_t week_of(int64_t d)
{
    int64_t x = d + 3;
    return x >= 0 ? x / 7 : -((-x + 6) / 7);
}

static int32_t find_day(const val_split_t *s, int64_t d)
{
    int32_t lo = 0, hi = s->n_days;
    while (lo < hi) {
        int32_t mid = lo + (hi - lo) / 2;
        if (s->day[mid] < d)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < s->n_days && s->day[lo] == d ? lo : -1;
}

static ev_status pick_holdout(val_split_t *s, const validation_cfg_t *cfg, const char *unit, uint64_t seed,
                              ev_error *err)
{
    int32_t n = s->n_days, k = 0;
    int32_t *idx;
    switch (cfg->holdout) {
    case HOLDOUT_SHARE:
        k = (int32_t)floor(cfg->share * (double)n + 0.5);
        if (k < 1)
            k = 1;
        if (!(idx = (int32_t *)malloc((size_t)n * sizeof *idx)))
            return ev_fail(err, EV_ENOMEM, "out of memory");
        for (int32_t i = 0; i < n; i++)
            idx[i] = i;
        shuffle(idx, n, seed, 1);
        for (int32_t i = 0; i < k && i < n; i++)
            s->part[idx[i]] = VAL_HOLDOUT;
        free(idx);
        break;
    case HOLDOUT_LAST:
        k = (int32_t)(cfg->last < (uint32_t)n ? cfg->last : (uint32_t)n);
        for (int32_t i = n - k; i < n; i++)
            s->part[i] = VAL_HOLDOUT;
        break;
    case HOLDOUT_DAYS:
        for (int32_t i = 0; i < cfg->n_days; i++) {
            int32_t at = find_day(s, cfg->days[i]);
            if (at < 0)
                return ev_fail(err, EV_ECONFIG,
                               "validation.holdout.days: %s on day %lld (days since 1970-01-01); list only "
                               "trading days of the data",
                               unit, (long long)cfg->days[i]);
            s->part[at] = VAL_HOLDOUT;
        }
        break;
    default: break;
    }
    s->n_holdout = 0;
    for (int32_t i = 0; i < n; i++)
        s->n_holdout += s->part[i] == VAL_HOLDOUT;
    if (s->n_holdout >= n)
        return ev_fail(err, EV_ECONFIG,
                       "validation.holdout takes all %d trading days of the data; the search needs at least one", n);
    return EV_OK;
}

static ev_status assign_folds(val_split_t *s, const validation_cfg_t *cfg, uint64_t seed, ev_error *err)
{
    int32_t n_in = 0, *idx;
    for (int32_t i = 0; i < s->n_days; i++)
        n_in += s->part[i] != VAL_HOLDOUT;
    s->n_folds = 1;
    s->has_folds = 0;
    if (cfg->fold_by == FOLD_BY_WEEK || cfg->fold_by == FOLD_BY_MONTH) {
        int64_t prev = 0;
        int32_t f = -1;
        for (int32_t i = 0; i < s->n_days; i++) {
            int64_t key;
            if (s->part[i] == VAL_HOLDOUT)
                continue;
            key = cfg->fold_by == FOLD_BY_WEEK ? week_of(s->day[i]) : month_of(s->day[i]);
            if (f < 0 || key != prev)
                f++;
            if (f >= VAL_MAX_FOLDS)
                return ev_fail(err, EV_ECONFIG, "validation.fold_by: the in-sample days span more than %d %ss",
                               VAL_MAX_FOLDS, cfg->fold_by == FOLD_BY_WEEK ? "week" : "month");
            prev = key;
            s->part[i] = f;
        }
        s->n_folds = f + 1;
        s->has_folds = 1;
        return EV_OK;
    }
    if (cfg->folds < 2)
        return EV_OK;
    if ((int64_t)cfg->folds > n_in)
        return ev_fail(err, EV_ECONFIG,
                       "validation.folds: %u folds need at least %u in-sample trading days, the data has %d",
                       cfg->folds, cfg->folds, n_in);
    if (!(idx = (int32_t *)malloc(((size_t)n_in + 1) * sizeof *idx)))
        return ev_fail(err, EV_ENOMEM, "out of memory");
    n_in = 0;
    for (int32_t i = 0; i < s->n_days; i++)
        if (s->part[i] != VAL_HOLDOUT)
            idx[n_in++] = i;
    shuffle(idx, n_in, seed, 2);
    for (int32_t i = 0; i < n_in; i++)
        s->part[idx[i]] = (int32_t)((uint32_t)i % cfg->folds);
    free(idx);
    s->n_folds = (int32_t)cfg->folds;
    s->has_folds = 1;
    return EV_OK;
}

ev_status val_days_of(const int64_t *ts, int64_t n_ts, int64_t **days, int32_t *n_days, ev_error *err)
{
    int64_t *d = (int64_t *)malloc(((size_t)n_ts + 1) * sizeof *d);
    int32_t n = 0;
    *days = d;
    *n_days = 0;
    if (!d)
        return ev_fail(err, EV_ENOMEM, "out of memory");
    for (int64_t j = 0; j < n_ts; j++)
        d[j] = val_day_of(ts[j]);
    qsort(d, (size_t)n_ts, sizeof *d, cmp_i64);
    for (int64_t j = 0; j < n_ts; j++)
        if (n == 0 || d[n - 1] != d[j])
            d[n++] = d[j];
    *n_days = n;
    return EV_OK;
}

ev_status val_days(const dataset_t *ds, int64_t **days, int32_t *n_days, ev_error *err)
{
    return val_days_of(ds->entry_ts, ds->n_trades, days, n_days, err);
}

ev_status val_split_of(val_split_t *s, const validation_cfg_t *cfg, const int64_t *ts, int64_t n_ts, const char *unit,
                       uint64_t seed, ev_error *err)
{
    int32_t n;
    ev_status st;
    memset(s, 0, sizeof *s);
    if ((st = val_days_of(ts, n_ts, &s->day, &s->n_days, err)) != EV_OK)
        return st;
    n = s->n_days;
    if (!(s->part = (int32_t *)calloc((size_t)n + 1, sizeof *s->part))) {
        val_split_free(s);
        return ev_fail(err, EV_ENOMEM, "out of memory");
    }
    if ((st = pick_holdout(s, cfg, unit, seed, err)) != EV_OK || (st = assign_folds(s, cfg, seed, err)) != EV_OK)
        val_split_free(s);
    return st;
}

ev_status val_split_make(val_split_t *s, const validation_cfg_t *cfg, const dataset_t *ds, uint64_t seed, ev_error *err)
{
    return val_split_of(s, cfg, ds->entry_ts, ds->n_trades, "no trade of the dataset enters", seed, err);
}

void val_split_free(val_split_t *s)
{
    free(s->day);
    free(s->part);
    memset(s, 0, sizeof *s);
}

int32_t val_day_index(const val_split_t *s, int64_t ts)
{
    return find_day(s, val_day_of(ts));
}

int32_t val_ts_part(const val_split_t *s, int64_t ts)
{
    int32_t at = find_day(s, val_day_of(ts));
    return at < 0 ? VAL_HOLDOUT : s->part[at];
}

int32_t val_trade_part(const val_split_t *s, const dataset_t *ds, int64_t j)
{
    return val_ts_part(s, ds->entry_ts[j]);
}

static void cell_finish(val_cell_t *c, const accum_t *a, const fit_problem_t *p, const objective_prep_t *obj)
{
    c->r = accum_finish(a, obj);
    c->value = objective_display(&p->obj_cfg, c->r.fitness);
    c->sum = a->sum;
}

/* compound's reported value per part (as fitness/reported.c computes it for
 * the whole list): (prod(1 + q_j / 1e8) - 1) * 100 over the part's kept
 * trades tr[m] in the product's order, -100 on ruin. prod[n_folds]:
 * in-sample, prod[n_folds + 1]: the holdout. */
static void compound_parts(const val_trade_t *tr, int64_t m, int32_t n_folds, double *prod)
{
    for (int32_t f = 0; f < n_folds + 2; f++)
        prod[f] = 1.0;
    for (int64_t j = 0; j < m; j++) {
        int32_t part = tr[j].part;
        int64_t q = tr[j].q;
        if (part == VAL_HOLDOUT) {
            prod[n_folds + 1] = q <= EV_RUIN_Q ? 0.0 : prod[n_folds + 1] * (1.0 + (double)q / 1e8);
        } else {
            prod[n_folds] = q <= EV_RUIN_Q ? 0.0 : prod[n_folds] * (1.0 + (double)q / 1e8);
            prod[part] = q <= EV_RUIN_Q ? 0.0 : prod[part] * (1.0 + (double)q / 1e8);
        }
    }
}

/* every part, feasible or not: an infeasible one is shown with its value too */
static void compound_value(val_cell_t *c, double prod)
{
    c->value = prod == 0.0 ? -100.0 : (prod - 1.0) * 100.0;
}

objective_cfg_t val_part_objective(const objective_cfg_t *obj, const val_rows_t *v)
{
    objective_cfg_t o = *obj;
    if (v && v->min_trades >= 0)
        o.min_trades = v->min_trades;
    return o;
}

ev_status val_rows_alloc(val_rows_t *out, int32_t n_folds, uint32_t n, int64_t min_trades, ev_error *err)
{
    memset(out, 0, sizeof *out);
    out->n = n;
    out->n_folds = n_folds;
    out->min_trades = min_trades;
    out->row = (val_row_t *)calloc((size_t)n + 1, sizeof *out->row);
    out->cells = (val_cell_t *)calloc((size_t)n * (size_t)n_folds + 1, sizeof *out->cells);
    if (!out->row || !out->cells) {
        val_rows_free(out);
        return ev_fail(err, EV_ENOMEM, "out of memory scoring the reported genomes per part");
    }
    for (uint32_t i = 0; i < n; i++)
        out->row[i].fold = out->cells + (size_t)i * (size_t)n_folds;
    return EV_OK;
}

ev_status val_row_fill(val_rows_t *v, uint32_t i, const fit_problem_t *p, const val_trade_t *tr, int64_t m,
                       const val_trade_t *ctr, ev_error *err)
{
    const int32_t n_folds = v->n_folds;
    accum_t *acc = (accum_t *)malloc(((size_t)n_folds + 2) * sizeof *acc);
    double *prod = (double *)malloc(((size_t)n_folds + 2) * sizeof *prod);
    int64_t *qis = (int64_t *)malloc(((size_t)m + 1) * sizeof *qis), nis = 0;
    val_row_t *r = &v->row[i];
    objective_prep_t part = p->obj; /* the holdout's and the folds' */
    accum_t *is, *oos;
    int32_t profitable = 0;
    if (!acc || !qis || !prod) {
        free(acc);
        free(qis);
        free(prod);
        return ev_fail(err, EV_ENOMEM, "out of memory scoring the reported genomes per part");
    }
    if (v->min_trades >= 0)
        part.min_trades = v->min_trades;
    is = &acc[n_folds];
    oos = &acc[n_folds + 1];
    for (int32_t f = 0; f < n_folds + 2; f++)
        accum_init(&acc[f]);
    for (int64_t j = 0; j < m; j++) {
        if (tr[j].part == VAL_HOLDOUT) {
            accum_add(oos, &p->obj, tr[j].q, tr[j].lf);
        } else {
            qis[nis++] = tr[j].q;
            accum_add(is, &p->obj, tr[j].q, tr[j].lf);
            accum_add(&acc[tr[j].part], &p->obj, tr[j].q, tr[j].lf);
        }
    }
    trade_moments(qis, nis, &r->moments);
    cell_finish(&r->in_sample, is, p, &p->obj);
    cell_finish(&r->out_of_sample, oos, p, &part);
    if (p->obj_cfg.kind == OBJ_COMPOUND) {
        compound_parts(ctr ? ctr : tr, m, n_folds, prod);
        compound_value(&r->in_sample, prod[n_folds]);
        compound_value(&r->out_of_sample, prod[n_folds + 1]);
    }
    r->worst_fold = HUGE_VAL;
    for (int32_t f = 0; f < n_folds; f++) {
        double x;
        cell_finish(&r->fold[f], &acc[f], p, &part);
        if (p->obj_cfg.kind == OBJ_COMPOUND)
            compound_value(&r->fold[f], prod[f]);
        x = r->fold[f].value == r->fold[f].value ? r->fold[f].value : -HUGE_VAL; /* feasible or not, as shown */
        if (x < r->worst_fold)
            r->worst_fold = x;
        profitable += r->fold[f].sum > 0;
    }
    r->fold_profitable = n_folds ? (double)profitable / (double)n_folds : 0.0;
    r->search = r->in_sample.r;
    if (p->obj_cfg.aggregate != AGG_ALL && n_folds >= 1 && n_folds <= EV_AGG_MAX_FOLDS)
        r->search = fold_aggregate(acc, n_folds, p->obj_cfg.aggregate, &p->obj);
    free(acc);
    free(qis);
    free(prod);
    return EV_OK;
}

ev_status val_rows_make(val_rows_t *out, const fit_problem_t *p, const fit_tables_t *t, const int32_t *trade_part,
                        int32_t n_folds, const ranked_genome_t *e, uint32_t n, int64_t min_trades, ev_error *err)
{
    const int64_t nt = t->n_trades;
    const int compound = p->obj_cfg.kind == OBJ_COMPOUND;
    val_trade_t *tr = (val_trade_t *)malloc(((size_t)nt + 1) * sizeof *tr);
    val_trade_t *ctr = (val_trade_t *)malloc(((size_t)nt + 1) * sizeof *ctr);
    int64_t *at = (int64_t *)malloc(((size_t)nt + 1) * sizeof *at);
    ev_status st;
    memset(out, 0, sizeof *out);
    st = tr && ctr && at ? val_rows_alloc(out, n_folds, n, min_trades, err)
                         : ev_fail(err, EV_ENOMEM, "out of memory scoring the reported genomes per part");
    for (int64_t jj = 0; st == EV_OK && jj < nt; jj++)
        at[p->order[jj]] = jj;
    for (uint32_t i = 0; st == EV_OK && i < n; i++) {
        tables_genome_t g;
        int64_t m = 0, mc = 0;
        tables_genome(t, e[i].genes, &g);
        /* rows in equity order, as the search's evaluators add them */
        for (int64_t jj = 0; jj < nt; jj++) {
            if (!tables_kept(t, jj, &g))
                continue;
            tables_outcome(t, jj, &g.x, &tr[m].q, &tr[m].lf);
            tr[m++].part = trade_part[p->order[jj]];
        }
        /* compound's product in dataset order (fitness/reported.c) */
        for (int64_t j = 0; compound && j < nt; j++) {
            if (!tables_kept(t, at[j], &g))
                continue;
            tables_outcome(t, at[j], &g.x, &ctr[mc].q, &ctr[mc].lf);
            ctr[mc++].part = trade_part[j];
        }
        st = val_row_fill(out, i, p, tr, m, ctr, err);
    }
    if (st != EV_OK)
        val_rows_free(out);
    free(tr);
    free(ctr);
    free(at);
    return st;
}

void val_rows_free(val_rows_t *v)
{
    free(v->row);
    free(v->cells);
    memset(v, 0, sizeof *v);
}

static void *dup_bytes(const void *src, size_t n, int *failed)
{
    void *d = malloc(n ? n : 1);
    if (!d) {
        *failed = 1;
        return NULL;
    }
    if (n)
        memcpy(d, src, n);
    return d;
}

static char *dup_str(const char *s, int *failed)
{
    return s ? (char *)dup_bytes(s, strlen(s) + 1, failed) : NULL;
}

static char **dup_strs(char *const *s, int32_t n, int *failed)
{
    char **d = (char **)calloc((size_t)n + 1, sizeof *d);
    if (!d) {
        *failed = 1;
        return NULL;
    }
    for (int32_t i = 0; i < n; i++)
        d[i] = dup_str(s[i], failed);
    return d;
}

ev_status dataset_subset(dataset_t *dst, const dataset_t *src, const uint8_t *keep, ev_error *err)
{
    int failed = 0;
    int64_t m = 0, nt = src->n_trades;
    size_t np = (size_t)src->n_prices, nk = (size_t)src->n_tickers;
    memset(dst, 0, sizeof *dst);
    for (int64_t j = 0; j < nt; j++)
        m += keep[j] != 0;
    *dst = *src; /* counts, fingerprints */
    dst->n_trades = m;
    dst->tickers = dup_strs(src->tickers, src->n_tickers, &failed);
    dst->price = (float *)dup_bytes(src->price, np * sizeof *src->price, &failed);
    dst->ts = (int64_t *)dup_bytes(src->ts, np * sizeof *src->ts, &failed);
    dst->ticker_begin = (int64_t *)dup_bytes(src->ticker_begin, nk * sizeof(int64_t), &failed);
    dst->ticker_end = (int64_t *)dup_bytes(src->ticker_end, nk * sizeof(int64_t), &failed);
    dst->feature_names = dup_strs(src->feature_names, src->n_features, &failed);
    dst->tool_version = dup_str(src->tool_version, &failed);
    dst->created_utc = dup_str(src->created_utc, &failed);
    dst->sources = (dataset_source_t *)calloc((size_t)src->n_sources + 1, sizeof *dst->sources);
    failed |= dst->sources == NULL;
    for (int32_t i = 0; dst->sources && i < src->n_sources; i++) {
        dst->sources[i] = src->sources[i];
        dst->sources[i].path = dup_str(src->sources[i].path, &failed);
        dst->sources[i].kind = dup_str(src->sources[i].kind, &failed);
    }
#define ALLOC_TRADES(field, type, per)                                   \
    dst->field = (type *)malloc(((size_t)m * (per) + 1) * sizeof(type)); \
    failed |= dst->field == NULL
    ALLOC_TRADES(ticker, int32_t, 1);
    ALLOC_TRADES(trade_id, int64_t, 1);
    ALLOC_TRADES(source_row, int64_t, 1);
    ALLOC_TRADES(entry_ts, int64_t, 1);
    ALLOC_TRADES(exit_ts, int64_t, 1);
    ALLOC_TRADES(start, int64_t, 1);
    ALLOC_TRADES(end, int64_t, 1);
    ALLOC_TRADES(entry_price, double, 1);
    ALLOC_TRADES(pct_change, double, 1);
    ALLOC_TRADES(features, double, (size_t)src->n_features);
#undef ALLOC_TRADES
    if (failed) {
        dataset_free(dst);
        return ev_fail(err, EV_ENOMEM, "out of memory splitting the dataset");
    }
    for (int64_t j = 0, k = 0; j < nt; j++) {
        if (!keep[j])
            continue;
        dst->ticker[k] = src->ticker[j];
        dst->trade_id[k] = src->trade_id[j];
        dst->source_row[k] = src->source_row[j];
        dst->entry_ts[k] = src->entry_ts[j];
        dst->exit_ts[k] = src->exit_ts[j];
        dst->start[k] = src->start[j];
        dst->end[k] = src->end[j];
        dst->entry_price[k] = src->entry_price[j];
        dst->pct_change[k] = src->pct_change[j];
        for (int32_t f = 0; f < src->n_features; f++)
            dst->features[(int64_t)f * m + k] = src->features[(int64_t)f * nt + j];
        k++;
    }
    return EV_OK;
}
