/* The config's `validation:` block (docs/config.md): a holdout of trading
 * days the search never sees, and day folds of the in-sample days. Absent:
 * validation.enabled = 0 and every run is as before. */
#include <stdlib.h>
#include <string.h>

#include "io/config_internal.h"
#include "io/timeparse.h"

static const char *const validation_keys[] = {"holdout",    "folds",        "fold_by",    "rank_by", "pbo_genomes",
                                              "pbo_blocks", "walk_forward", "min_trades", NULL};
static const char *const walk_keys[] = {"train_days", "test_days", "step_days", NULL};
static const char *const rank_by_names[] = {"fitness", "plateau", NULL}; /* rank_by_kind order */
static const char *const holdout_keys[] = {"share", "last", "days", NULL};
static const char *const fold_by_names[] = {"shuffle", "week", "month", NULL}; /* fold_by_kind order */

static ev_status parse_days(const ymap_t *m, validation_cfg_t *v, ev_error *err)
{
    char path[YDOC_PATH_MAX], ipath[YDOC_PATH_MAX];
    yaml_node_t *seq = ymap_get(m, "days");
    size_t n;
    ev_status st;
    ymap_path(m, "days", path);
    if ((st = ydoc_get_sequence(m->doc, seq, path, "trading days YYYY-MM-DD", err)) != EV_OK)
        return st;
    n = ydoc_length(seq);
    if (n == 0)
        return ydoc_fail(m->doc, err, seq, path, "expected at least one trading day YYYY-MM-DD, found an empty list");
    if (!(v->days = (int64_t *)calloc(n, sizeof *v->days)))
        return ev_fail(err, EV_ENOMEM, "out of memory");
    for (size_t i = 0; i < n; i++) {
        yaml_node_t *item = ydoc_item(m->doc, seq, i);
        const char *s = ydoc_plain(item);
        ydoc_path_index(ipath, path, i);
        if (!s || !time_parse_date(s, strlen(s), &v->days[i]))
            return ydoc_expected(m->doc, item, ipath, "a date YYYY-MM-DD", err);
        for (size_t k = 0; k < i; k++)
            if (v->days[k] == v->days[i])
                return ydoc_fail(m->doc, err, item, ipath, "day %s is listed twice", s);
        v->n_days = (int32_t)(i + 1);
    }
    return EV_OK;
}

static ev_status parse_holdout(const ymap_t *root, validation_cfg_t *v, ev_error *err)
{
    ymap_t m;
    int present = 0, given = 0;
    uint64_t last = 0;
    char path[YDOC_PATH_MAX];
    ybounds_t b = {0.0, 1.0, 1, 1};
    ev_status st;
    if ((st = ymap_submap(root, "holdout", holdout_keys, &m, &present, err)) != EV_OK || !present)
        return st;
    for (int k = 0; holdout_keys[k]; k++)
        given += ymap_key(&m, holdout_keys[k]) != NULL;
    ymap_path(root, "holdout", path);
    if (given != 1)
        return ydoc_fail(m.doc, err, m.node, path,
                         "expected exactly one of share (a fraction in (0, 1)), last (a number of days) or days "
                         "(a list of YYYY-MM-DD), found %d",
                         given);
    if (ymap_key(&m, "share")) {
        v->holdout = HOLDOUT_SHARE;
        return ymap_number(&m, "share", b, &v->share, err);
    }
    if (ymap_key(&m, "last")) {
        v->holdout = HOLDOUT_LAST;
        st = ymap_uint(&m, "last", 1, 1000000, &last, err);
        v->last = (uint32_t)last;
        return st;
    }
    v->holdout = HOLDOUT_DAYS;
    return parse_days(&m, v, err);
}

/* walk_forward: {train_days, test_days, step_days}: the first two required,
 * step_days at least test_days (the test windows never overlap). */
static ev_status parse_walk_forward(const ymap_t *root, validation_cfg_t *v, ev_error *err)
{
    ymap_t m;
    int present = 0;
    uint64_t train = 0, test = 0, step = 0;
    char path[YDOC_PATH_MAX];
    ev_status st;
    if ((st = ymap_submap(root, "walk_forward", walk_keys, &m, &present, err)) != EV_OK || !present)
        return st;
    ymap_path(root, "walk_forward", path);
    if (!ymap_key(&m, "train_days") || !ymap_key(&m, "test_days"))
        return ydoc_fail(m.doc, err, m.node, path,
                         "expected train_days and test_days (trading days per window; step_days defaults to "
                         "test_days)");
    if ((st = ymap_uint(&m, "train_days", 1, 1000000, &train, err)) != EV_OK ||
        (st = ymap_uint(&m, "test_days", 1, 1000000, &test, err)) != EV_OK)
        return st;
    step = test;
    if ((st = ymap_uint(&m, "step_days", 1, 1000000, &step, err)) != EV_OK)
        return st;
    if (step < test) {
        ymap_path(&m, "step_days", path);
        return ydoc_fail(m.doc, err, ymap_key(&m, "step_days"), path,
                         "expected at least test_days (%llu): overlapping test windows would count their trades "
                         "twice in the chained result, found %llu",
                         (unsigned long long)test, (unsigned long long)step);
    }
    v->wf_train = (uint32_t)train;
    v->wf_test = (uint32_t)test;
    v->wf_step = (uint32_t)step;
    return EV_OK;
}

/* min_trades: the holdout's and the folds' apart from the objective's; not
 * beside objective.aggregate, whose fold statistic is the search's fitness
 * (ranked by objective.min_trades on every backend). */
static ev_status parse_min_trades(const ymap_t *m, const objective_cfg_t *obj, validation_cfg_t *v, ev_error *err)
{
    uint64_t n = 0;
    char path[YDOC_PATH_MAX];
    ev_status st;
    v->min_trades = -1;
    if (!ymap_key(m, "min_trades"))
        return EV_OK;
    if ((st = ymap_uint(m, "min_trades", 0, (uint64_t)INT64_MAX, &n, err)) != EV_OK)
        return st;
    ymap_path(m, "min_trades", path);
    if (obj->aggregate != AGG_ALL)
        return ydoc_fail(m->doc, err, ymap_key(m, "min_trades"), path,
                         "with objective.aggregate the folds are the search's own fitness, feasible by "
                         "objective.min_trades; drop validation.min_trades or objective.aggregate");
    v->min_trades = (int64_t)n;
    return EV_OK;
}

ev_status config_parse_validation(const ymap_t *root, const objective_cfg_t *obj, validation_cfg_t *v, ev_error *err)
{
    ymap_t m;
    int present = 0, fold_by = FOLD_BY_SHUFFLE, rank_by = RANK_BY_FITNESS;
    uint64_t folds = 0, pbo_genomes = 1000, pbo_blocks = 16;
    ev_status st;
    memset(v, 0, sizeof *v);
    v->min_trades = -1;
    if ((st = ymap_submap(root, "validation", validation_keys, &m, &present, err)) != EV_OK || !present)
        return st;
    v->enabled = 1;
    if ((st = parse_min_trades(&m, obj, v, err)) != EV_OK)
        return st;
    if ((st = parse_holdout(&m, v, err)) != EV_OK ||
        (st = ymap_uint(&m, "folds", 0, VAL_MAX_FOLDS, &folds, err)) != EV_OK ||
        (st = ymap_choice(&m, "fold_by", fold_by_names, &fold_by, err)) != EV_OK ||
        (st = ymap_choice(&m, "rank_by", rank_by_names, &rank_by, err)) != EV_OK ||
        (st = parse_walk_forward(&m, v, err)) != EV_OK)
        return st;
    v->rank_by = rank_by;
    if ((st = ymap_uint(&m, "pbo_genomes", 0, CONFIG_TOP_MAX, &pbo_genomes, err)) != EV_OK ||
        (st = ymap_uint(&m, "pbo_blocks", 2, 16, &pbo_blocks, err)) != EV_OK)
        return st;
    if (pbo_blocks & 1) {
        char path[YDOC_PATH_MAX];
        ymap_path(&m, "pbo_blocks", path);
        return ydoc_fail(m.doc, err, ymap_get(&m, "pbo_blocks"), path,
                         "expected an even number of blocks (CSCV trains on half of them), found %llu",
                         (unsigned long long)pbo_blocks);
    }
    v->pbo_genomes = (uint32_t)pbo_genomes;
    v->pbo_blocks = (uint32_t)pbo_blocks;
    v->folds = (uint32_t)folds;
    v->fold_by = fold_by;
    if (folds > 0 && fold_by != FOLD_BY_SHUFFLE) {
        char path[YDOC_PATH_MAX];
        ymap_path(&m, "folds", path);
        return ydoc_fail(m.doc, err, ymap_key(&m, "folds"), path,
                         "folds: K draws shuffled day folds; fold_by: %s makes one fold per %s; give one of them",
                         fold_by_names[fold_by], fold_by == FOLD_BY_WEEK ? "week" : "month");
    }
    return EV_OK;
}
