/* The cell writers of the --json summary (io/json_summary.c, io/json_walk.c):
 * each adds one key (or one array element) to a cJSON object. */
#ifndef EVOLVE_JSON_CELLS_H
#define EVOLVE_JSON_CELLS_H

#include <cjson/cJSON.h>
#include <stdint.h>

#include "fitness/lattice.h"
#include "fitness/objective_cfg.h"
#include "fitness/trade_stats.h"
#include "fitness/validation.h"
#include "fitness/verdict.h"
#include "io/json_number.h"

/* cJSON returns NULL on allocation failure; one flag collects them all. */
typedef struct {
    int failed;
    const objective_cfg_t *obj; /* for the reasons of infeasible results */
} jctx;

cJSON *jnum(jctx *c, cJSON *obj, const char *key, double v);
void jstr(jctx *c, cJSON *obj, const char *key, const char *v);
/* A 64-bit count: a number up to 2^53, a string above (JSON numbers are doubles). */
void jcount(jctx *c, cJSON *obj, const char *key, uint64_t v);
/* A fitness: a number, or "inf" / "-inf" / "nan". */
void jfitness(jctx *c, cJSON *obj, const char *key, double v);
/* Parameter p's value v under p's name: a number, or "off" for an exit's off (SPEC sec. 4.1). */
void jvalue(jctx *c, cJSON *obj, const param_t *p, double v);
/* key (ending in "feasible"): false, and beside it why ("infeasible": "zero variance"). */
void jinfeasible(jctx *c, cJSON *obj, const char *key, eval_result_t r);
/* A new object (array: 1, an array) under key. */
cJSON *jchild(jctx *c, cJSON *obj, const char *key, int array);
/* A new object appended to array arr. */
cJSON *jpush(jctx *c, cJSON *arr);
/* {"fitness", "trades"[, "feasible": false, "infeasible"]} under key (NULL: into obj itself). */
void jcell(jctx *c, cJSON *obj, const char *key, const val_cell_t *v);
/* Trader statistics (fitness/trade_stats.h) under key: infinities as strings, undefined figures as null. */
void jstats(jctx *c, cJSON *item, const char *key, const trade_stats_t *st);
/* A span of days[begin, end) under key: {"first", "last" (YYYY-MM-DD), "trading_days"}. */
void jspan(jctx *c, cJSON *obj, const char *key, const int64_t *days, int32_t begin, int32_t end);
/* A day (days since 1970-01-01) appended to arr as YYYY-MM-DD. */
void jday(jctx *c, cJSON *arr, int64_t day);
/* "verdict" (io/json_verdict.h) of v into root, as verdict_of_* made it (made: its status); frees v. */
void jverdict(jctx *c, cJSON *root, verdict_t *v, ev_status made);

#endif
