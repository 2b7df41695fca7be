#include "report/replay.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "archive/run_validation.h"
#include "common/platform.h"
#include "common/strutil.h"
#include "fitness/validation.h"
#include "io/dataset_h5.h"

static ev_status pick(replay_t *rp, const report_run_t *r, const char *list, uint32_t rank, ev_error *err)
{
    const ranked_genome_t *e;
    const double *value;
    uint32_t n;
    if (!list)
        list = r->has_grid ? "grid" : "ga";
    if (!strcmp(list, "grid") && r->has_grid) {
        e = r->top.list.e;
        value = r->top.list.value;
        n = r->top.list.n;
    } else if (!strcmp(list, "ga") && r->rf.has_ga) {
        e = r->hof.list.e;
        value = r->hof.list.value;
        n = r->hof.list.n;
    } else {
        return ev_fail(err, EV_EUSAGE, "%s: the run (mode %s) has no %s list", r->rf.path, r->mode,
                       !strcmp(list, "grid") ? "grid top-K (grid/top)" : "GA hall of fame (ga/hall_of_fame)");
    }
    if (rank < 1 || rank > n)
        return ev_fail(err, EV_EUSAGE, "%s: --rank %u: the %s list holds %u genome(s)", r->rf.path, rank, list, n);
    rp->list = list;
    rp->rank = rank;
    rp->genome = &e[rank - 1];
    rp->value = value[rank - 1];
    return EV_OK;
}

/* Each kept trade's part, from the day split the run recorded. */
static ev_status parts(replay_t *rp, report_run_t *r, ev_error *err)
{
    int64_t *days;
    int32_t *dpart, nd;
    ev_status st = run_file_read_day_parts(&r->rf, rp->list, &days, &dpart, &nd, err);
    if (st != EV_OK)
        return st;
    if (!(rp->part = (int32_t *)calloc((size_t)rp->n + 1, sizeof *rp->part))) {
        free(days);
        free(dpart);
        return ev_fail(err, EV_ENOMEM, "out of memory");
    }
    for (int64_t i = 0; i < rp->n && nd; i++) {
        int64_t d = val_day_of(rp->ds.entry_ts[rp->k[i].trade]);
        int32_t lo = 0, hi = nd;
        while (lo < hi) {
            int32_t mid = lo + (hi - lo) / 2;
            if (days[mid] < d)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo == nd || days[lo] != d) {
            st = ev_fail(err, EV_EDATA, "%s: the dataset has a trade on a day the run's split does not list",
                         r->rf.path);
            break;
        }
        rp->part[i] = dpart[lo];
        rp->has_holdout |= dpart[lo] == VAL_HOLDOUT;
    }
    free(days);
    free(dpart);
    return st;
}

static int is_file(const char *path)
{
    plat_stat_t ps;
    return plat_stat(path, &ps) == 0 && !ps.is_dir;
}

/* Where the run's dataset is: rp->dataset_path and how it was found. */
static ev_status find_dataset(replay_t *rp, const report_run_t *r, const char *dataset, ev_error *err)
{
    char *dir = NULL, *beside = NULL;
    if (dataset) {
        rp->dataset_path = ev_strdup(dataset);
        rp->dataset_how = "--dataset";
    } else if (is_file(r->dataset_path) || !r->dataset_from_run || !r->dataset_from_run[0] ||
               !(dir = plat_dirname(r->rf.path)) || !(beside = plat_path_join(dir, r->dataset_from_run)) ||
               !is_file(beside)) {
        rp->dataset_path = ev_strdup(r->dataset_path);
        rp->dataset_how = "provenance/dataset path";
    } else {
        rp->dataset_path = beside;
        beside = NULL;
        rp->dataset_how = "provenance/dataset path_from_run, from the run file's folder";
    }
    free(dir);
    free(beside);
    return rp->dataset_path ? EV_OK : ev_fail(err, EV_ENOMEM, "out of memory");
}

ev_status replay_load(replay_t *rp, report_run_t *r, const char *list, uint32_t rank, const char *dataset,
                      ev_error *err)
{
    const char *path;
    int64_t in_sample = 0;
    ev_status st;
    memset(rp, 0, sizeof *rp);
    if (r->strategy)
        return ev_fail(err, EV_EUSAGE,
                       "%s: a %s strategy run (bars, not a trade log); its trades: 'evolve trades CONFIG --run %s "
                       "--rank N --csv FILE' (docs/signals.md)",
                       r->rf.path, r->strategy, r->rf.path);
    if ((st = pick(rp, r, list, rank, err)) != EV_OK || (st = find_dataset(rp, r, dataset, err)) != EV_OK)
        return st;
    path = rp->dataset_path;
    if ((st = dataset_read_h5(path, &rp->ds, err)) != EV_OK) {
        ev_error_prefix(err, "the dataset of run %s (%s%s): ", r->rf.path, rp->dataset_how,
                        dataset ? "" : "; --dataset FILE names another copy");
        return st;
    }
    if (rp->ds.content_hash != r->dataset_hash)
        return ev_fail(err, EV_EDATA,
                       "%s: content hash %016" PRIx64 ", but run %s was made on %016" PRIx64
                       " (a different or rebuilt dataset)",
                       path, rp->ds.content_hash, r->rf.path, r->dataset_hash);
    if ((st = lattice_bind(&r->lat, &rp->ds, err)) != EV_OK) {
        ev_error_prefix(err, "%s: ", path);
        return st;
    }
    if ((st = problem_init(&rp->p, &rp->ds, &r->lat, &r->obj, err)) != EV_OK ||
        (st = tables_build(&rp->tables, &rp->p, err)) != EV_OK ||
        (st = kept_trades(&rp->p, &rp->tables.view, rp->genome->genes, &rp->k, &rp->n, err)) != EV_OK ||
        (st = parts(rp, r, err)) != EV_OK)
        return st;
    for (int64_t i = 0; i < rp->n; i++)
        in_sample += rp->part[i] != VAL_HOLDOUT;
    if (in_sample != rp->genome->r.trades)
        return ev_fail(err, EV_EDATA,
                       "%s: rank %u of the %s list keeps %lld in-sample trades on %s, the run recorded %lld (a "
                       "damaged or edited run file)",
                       r->rf.path, rank, rp->list, (long long)in_sample, path, (long long)rp->genome->r.trades);
    return EV_OK;
}

void replay_free(replay_t *rp)
{
    free(rp->k);
    free(rp->part);
    tables_free(&rp->tables);
    problem_free(&rp->p);
    dataset_free(&rp->ds);
    free(rp->dataset_path);
    memset(rp, 0, sizeof *rp);
}
