#include "archive/run_walk.h"

#include <stdlib.h>

#include "archive/run_internal.h"
#include "archive/run_stats.h"
#include "io/h5_util.h"

/* The first and last day of each window's train and test spans. */
static ev_status write_spans(run_file_t *rf, const wf_result_t *r, ev_error *err)
{
    const char *names[4] = {"train_first_day", "train_last_day", "test_first_day", "test_last_day"};
    int64_t *col = (int64_t *)malloc(((size_t)r->n + 1) * sizeof *col);
    hsize_t n[1] = {(hsize_t)r->n};
    hid_t g = col ? run_object_open(rf, "walk_forward", 1, err) : -1;
    ev_status st = EV_OK;
    if (!col) {
        return ev_fail(err, EV_ENOMEM, "out of memory");
    }
    if (g < 0) {
        free(col);
        return EV_EHDF5;
    }
    for (int c = 0; c < 4 && st == EV_OK; c++) {
        for (int32_t w = 0; w < r->n; w++) {
            const wf_window_t *win = &r->win[w];
            int32_t at[4] = {win->train_begin, win->train_end - 1, win->test_begin, win->test_end - 1};
            col[w] = r->days[at[c]];
        }
        st = h5u_write_array(rf->path, g, names[c], H5T_NATIVE_INT64, H5T_STD_I64LE, 1, n, col, err);
    }
    free(col);
    h5u_close(g);
    return st;
}

ev_status run_file_write_walk_forward(run_file_t *rf, const wf_result_t *r, const char *search, ev_error *err)
{
    ev_status st;
    if ((st = run_file_write_ranked(rf, "walk_forward/winners", r->winner, r->train_value, (uint32_t)r->n,
                                    (uint32_t)r->n, err)) != EV_OK ||
        (st = run_file_write_ranked(rf, "walk_forward/test", r->test, r->test_value, (uint32_t)r->n, (uint32_t)r->n,
                                    err)) != EV_OK ||
        (st = run_file_write_stats(rf, "walk_forward/test/trader_stats", r->test_stats, (uint32_t)r->n, err)) !=
            EV_OK ||
        (st = run_file_write_stats(rf, "walk_forward/chained_trader_stats", &r->chained_stats, 1, err)) != EV_OK ||
        (st = write_spans(rf, r, err)) != EV_OK)
        return st;
    if ((st = run_file_attr_str(rf, "walk_forward", "search", search, err)) == EV_OK &&
        (st = run_file_attr_u64(rf, "walk_forward", "train_days", r->train_days, err)) == EV_OK &&
        (st = run_file_attr_u64(rf, "walk_forward", "test_days", r->test_days, err)) == EV_OK &&
        (st = run_file_attr_u64(rf, "walk_forward", "step_days", r->step_days, err)) == EV_OK &&
        (st = run_file_attr_u64(rf, "walk_forward", "windows", (uint64_t)r->n, err)) == EV_OK &&
        (st = run_file_attr_u64(rf, "walk_forward", "evaluated", r->evaluated, err)) == EV_OK &&
        (st = run_file_attr_f64(rf, "walk_forward", "chained_fitness", r->chained_value, err)) == EV_OK &&
        (st = run_file_attr_u64(rf, "walk_forward", "chained_trades", (uint64_t)r->chained.trades, err)) == EV_OK)
        st = run_file_attr_u64(rf, "walk_forward", "chained_feasible", (uint64_t)(r->chained.feasible != 0), err);
    return st;
}
