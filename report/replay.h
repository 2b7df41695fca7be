/* A reported genome's trades, replayed: the run file leads back to its
 * dataset (provenance/dataset: path and content hash), the run's lattice and
 * objective are bound to it, and the genome's kept trades are listed over
 * the whole dataset with the exit each took (fitness/trade_stats.h), each
 * marked in-sample or holdout from the run's split (GROUP/validation).
 * `evolve trades RUN.h5` prints them; `evolve report` draws the top-1's
 * equity curve from them. */
#ifndef EVOLVE_REPLAY_H
#define EVOLVE_REPLAY_H

#include <stdint.h>

#include "common/status.h"
#include "fitness/tables.h"
#include "fitness/trade_stats.h"
#include "report/report.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    const char *list;              /* "grid" (grid/top) or "ga" (ga/hall_of_fame) */
    uint32_t rank;                 /* 1-based */
    const ranked_genome_t *genome; /* in r's list */
    double value;                  /* its reported fitness */
    dataset_t ds;                  /* the whole dataset */
    fit_problem_t p;
    tables_host_t tables;
    kept_trade_t *k; /* [n], equity order */
    int64_t n;
    int32_t *part; /* [n]: -1 the holdout (VAL_HOLDOUT), else the in-sample fold (0 without folds) */
    int has_holdout;
    char *dataset_path;      /* the dataset file read, owned */
    const char *dataset_how; /* how it was found: "--dataset", "provenance/dataset path", ... */
} replay_t;

/* list: "grid", "ga" or NULL (the grid's top-K where the run has one, else
 * the hall of fame); dataset: a dataset file instead of the recorded one,
 * or NULL. Without it the dataset is the recorded absolute path when that
 * exists, else the recorded path from the run file's folder (a run moved
 * with its dataset, or older run files' paths relative to where they ran). Fails naming the file when the dataset cannot be read or is not
 * the run's (content hash), when the rank is not in the list, and when the
 * replayed in-sample trades differ from the run's count. */
ev_status replay_load(replay_t *rp, report_run_t *r, const char *list, uint32_t rank, const char *dataset,
                      ev_error *err);
void replay_free(replay_t *rp);

#ifdef __cplusplus
}
#endif
#endif
