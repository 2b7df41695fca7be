/* The validation split and its per-part figures on hand-made inputs
 * (fitness/validation.c, fitness/plateau.c), each pinned by a value worked
 * out here:
 *  - holdout share: k = share x days rounded to the nearest (2.5 -> 3);
 *  - fold_by week: weeks start on Monday; data with weekend days puts each
 *    Sunday in the week of the Monday before it;
 *  - a fold whose sum is exactly 0 is not profitable (only a sum > 0 is);
 *  - the plateau mean divides by the feasible neighbours only. */
#include <math.h>
#include <string.h>

#include "fitness/objective_prep.h"
#include "fitness/plateau.h"
#include "fitness/validation.h"
#include "tests/check.h"

/* 2024-01-01, a Monday, in days since 1970-01-01. */
#define MON_2024_01_01 19723

/* One timestamp at noon of each day first .. first + n - 1. */
static void noon_of_days(int64_t first, int32_t n, int64_t *ts)
{
    for (int32_t i = 0; i < n; i++)
        ts[i] = (first + i) * 86400 + 43200;
}

static int32_t holdout_days(double share, int32_t n)
{
    validation_cfg_t cfg;
    val_split_t s;
    int64_t ts[64];
    ev_error err;
    int32_t counted = 0;
    memset(&cfg, 0, sizeof cfg);
    cfg.enabled = 1;
    cfg.holdout = HOLDOUT_SHARE;
    cfg.share = share;
    noon_of_days(MON_2024_01_01, n, ts);
    if (val_split_of(&s, &cfg, ts, n, "no bar", 7, &err) != EV_OK) {
        CHECK(!"val_split_of");
        return -1;
    }
    for (int32_t i = 0; i < s.n_days; i++)
        counted += s.part[i] == VAL_HOLDOUT;
    CHECK_EQ_I64(counted, s.n_holdout);
    val_split_free(&s);
    return counted;
}

static void test_holdout_share_rounds_to_nearest(void)
{
    CHECK_EQ_I64(3, holdout_days(0.25, 10)); /* 2.5: rounded down would be 2 */
    CHECK_EQ_I64(8, holdout_days(0.75, 10)); /* 7.5 */
    CHECK_EQ_I64(2, holdout_days(0.2, 10));  /* 2 exactly */
    CHECK_EQ_I64(1, holdout_days(0.04, 10)); /* 0.4: at least one day */
    CHECK_EQ_I64(2, holdout_days(0.25, 6));  /* 1.5 */
}

/* Wednesday 2024-01-03 to Tuesday 2024-01-16, weekends included: the weeks
 * Wed 3 - Sun 7, Mon 8 - Sun 14, Mon 15 - Tue 16. */
static void test_fold_by_week_starts_monday(void)
{
    static const int32_t want[14] = {0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 2, 2};
    validation_cfg_t cfg;
    val_split_t s;
    int64_t ts[14];
    ev_error err;
    memset(&cfg, 0, sizeof cfg);
    cfg.enabled = 1;
    cfg.fold_by = FOLD_BY_WEEK;
    noon_of_days(MON_2024_01_01 + 2, 14, ts);
    if (val_split_of(&s, &cfg, ts, 14, "no bar", 7, &err) != EV_OK) {
        CHECK(!"val_split_of");
        return;
    }
    CHECK_EQ_I64(14, s.n_days);
    CHECK_EQ_I64(3, s.n_folds);
    CHECK_EQ_I64(1, s.has_folds);
    for (int32_t i = 0; i < 14 && i < s.n_days; i++)
        CHECK_EQ_I64(want[i], s.part[i]);
    CHECK_EQ_I64(0, val_ts_part(&s, (MON_2024_01_01 + 6) * 86400 + 1)); /* Sunday 7, just after midnight */
    CHECK_EQ_I64(1, val_ts_part(&s, (MON_2024_01_01 + 7) * 86400));     /* Monday 8 at midnight */
    val_split_free(&s);
}

/* Three folds: fold 0's trades sum to exactly 0, fold 1's to +100, fold 2's
 * to -100 (micro-percent); one holdout trade. One profitable fold of three. */
static void test_zero_sum_fold_not_profitable(void)
{
    static const int64_t q[5] = {500000, -500000, 100, -100, 7};
    static const int32_t part[5] = {0, 0, 1, 2, VAL_HOLDOUT};
    val_trade_t tr[5];
    fit_problem_t p;
    val_rows_t v;
    ev_error err;
    memset(&p, 0, sizeof p);
    p.obj_cfg.kind = OBJ_TOTAL_RETURN;
    objective_prepare(&p.obj, &p.obj_cfg);
    memset(tr, 0, sizeof tr);
    for (int j = 0; j < 5; j++) {
        tr[j].q = q[j];
        tr[j].lf = outcome_log_factor(q[j]);
        tr[j].part = part[j];
    }
    if (val_rows_alloc(&v, 3, 1, -1, &err) != EV_OK || val_row_fill(&v, 0, &p, tr, 5, NULL, &err) != EV_OK) {
        CHECK(!"val_row_fill");
        return;
    }
    CHECK_EQ_I64(0, v.row[0].fold[0].sum);
    CHECK_EQ_I64(100, v.row[0].fold[1].sum);
    CHECK_EQ_I64(-100, v.row[0].fold[2].sum);
    CHECK_EQ_I64(0, v.row[0].in_sample.sum);
    CHECK_EQ_I64(7, v.row[0].out_of_sample.sum);
    CHECK_EQ_F64(1.0 / 3.0, v.row[0].fold_profitable);
    val_rows_free(&v);
}

/* Four neighbours: 2.0 and 4.0 feasible, two infeasible (with fitness
 * values that must not count): mean 3.0, worst -inf. */
static void test_plateau_mean_of_feasible(void)
{
    eval_result_t r[4];
    fit_problem_t p;
    plateau_t out;
    memset(&p, 0, sizeof p);
    p.obj_cfg.kind = OBJ_TOTAL_RETURN;
    memset(r, 0, sizeof r);
    r[0].feasible = 1;
    r[0].fitness = 2.0;
    r[1].fitness = 50.0;
    r[2].feasible = 1;
    r[2].fitness = 4.0;
    r[3].fitness = -8.0;
    plateau_of(&p, r, 4, &out);
    CHECK_EQ_I64(4, out.n);
    CHECK_EQ_I64(2, out.feasible);
    CHECK_EQ_F64(3.0, out.mean); /* divided by all 4: 1.5 */
    CHECK(isinf(out.worst) && out.worst < 0);
    plateau_of(&p, r + 1, 1, &out); /* none feasible: -inf */
    CHECK(isinf(out.mean) && out.mean < 0);
}

int main(void)
{
    test_holdout_share_rounds_to_nearest();
    test_fold_by_week_starts_monday();
    test_zero_sum_fold_not_profitable();
    test_plateau_mean_of_feasible();
    return check_exit();
}
