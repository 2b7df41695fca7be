#include "archive/run_walk.h"

#include <stdlib.h>
#include <string.h>

#include "archive/run_internal.h"
#include "archive/run_stats.h"
#include "archive/run_verdict.h"
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

/* /walk_forward/baselines: names[B], fitness, trades, feasible [W, B] and
 * over the chained test windows chained_fitness, chained_trades,
 * chained_feasible [B]. */
static ev_status write_baselines(run_file_t *rf, const wf_result_t *r, ev_error *err)
{
    const size_t m = (size_t)r->n * (size_t)r->n_base;
    const char *names[BASELINE_KINDS];
    int64_t *trades = (int64_t *)malloc((m + 1) * sizeof *trades), ch_trades[BASELINE_KINDS];
    uint8_t *feasible = (uint8_t *)malloc(m + 1), ch_feasible[BASELINE_KINDS];
    hsize_t dims[2] = {(hsize_t)r->n, (hsize_t)r->n_base}, nb = (hsize_t)r->n_base;
    hid_t g = trades && feasible ? run_object_open(rf, "walk_forward/baselines", 1, err) : -1;
    ev_status st = EV_OK;
    if (!trades || !feasible)
        st = ev_fail(err, EV_ENOMEM, "out of memory");
    else if (g < 0)
        st = EV_EHDF5;
    for (size_t i = 0; st == EV_OK && i < m; i++) {
        trades[i] = r->base[i].trades;
        feasible[i] = (uint8_t)(r->base[i].feasible != 0);
    }
    for (int32_t j = 0; j < r->n_base; j++) {
        names[j] = baseline_name(r->base_kind[j]);
        ch_trades[j] = r->base_chained[j].trades;
        ch_feasible[j] = (uint8_t)(r->base_chained[j].feasible != 0);
    }
    if (st == EV_OK)
        st = h5u_write_strings(rf->path, g, "names", 0, names, (size_t)nb, err);
    if (st == EV_OK)
        st = h5u_write_array(rf->path, g, "fitness", H5T_NATIVE_DOUBLE, H5T_IEEE_F64LE, 2, dims, r->base_value, err);
    if (st == EV_OK)
        st = h5u_write_array(rf->path, g, "trades", H5T_NATIVE_INT64, H5T_STD_I64LE, 2, dims, trades, err);
    if (st == EV_OK)
        st = h5u_write_array(rf->path, g, "feasible", H5T_NATIVE_UINT8, H5T_STD_U8LE, 2, dims, feasible, err);
    if (st == EV_OK)
        st = h5u_write_array(rf->path, g, "chained_fitness", H5T_NATIVE_DOUBLE, H5T_IEEE_F64LE, 1, &nb,
                             r->base_chained_value, err);
    if (st == EV_OK)
        st = h5u_write_array(rf->path, g, "chained_trades", H5T_NATIVE_INT64, H5T_STD_I64LE, 1, &nb, ch_trades, err);
    if (st == EV_OK)
        st = h5u_write_array(rf->path, g, "chained_feasible", H5T_NATIVE_UINT8, H5T_STD_U8LE, 1, &nb, ch_feasible, err);
    free(trades);
    free(feasible);
    h5u_close(g);
    return st;
}

/* The baselines over the chained test windows, [n_base] each. */
static ev_status read_chained(run_file_t *rf, hid_t g, run_walk_base_t *b, ev_error *err)
{
    hsize_t d[3] = {0, 0, 0};
    int64_t *trades = NULL;
    uint8_t *feasible = NULL;
    ev_status st =
        h5u_read_array(rf->path, g, "chained_fitness", H5T_NATIVE_DOUBLE, 1, &d[0], (void **)&b->chained_fitness, err);
    if (st == EV_OK)
        st = h5u_read_array(rf->path, g, "chained_trades", H5T_NATIVE_INT64, 1, &d[1], (void **)&trades, err);
    if (st == EV_OK)
        st = h5u_read_array(rf->path, g, "chained_feasible", H5T_NATIVE_UINT8, 1, &d[2], (void **)&feasible, err);
    if (st == EV_OK && (d[0] != b->n_base || d[1] != b->n_base || d[2] != b->n_base))
        st = ev_fail(err, EV_EDATA, "%s: /walk_forward/baselines: chained arrays of unlike shapes (a damaged run file)",
                     rf->path);
    if (st == EV_OK && !(b->chained = (eval_result_t *)calloc(b->n_base + 1, sizeof *b->chained)))
        st = ev_fail(err, EV_ENOMEM, "out of memory");
    for (size_t j = 0; st == EV_OK && j < b->n_base; j++) {
        b->chained[j].trades = trades[j];
        b->chained[j].feasible = feasible[j] != 0;
    }
    free(trades);
    free(feasible);
    return st;
}

ev_status run_file_read_walk_baselines(run_file_t *rf, run_walk_base_t *b, ev_error *err)
{
    hsize_t d[3][2] = {{0, 0}, {0, 0}, {0, 0}};
    int64_t *trades = NULL;
    uint8_t *feasible = NULL;
    size_t m;
    hid_t g;
    ev_status st;
    memset(b, 0, sizeof *b);
    if (!run_file_has(rf, "walk_forward/baselines"))
        return EV_OK;
    if ((g = run_object_open(rf, "walk_forward/baselines", 0, err)) < 0)
        return EV_EHDF5;
    st = h5u_read_strings(rf->path, g, "names", 0, &b->names, &b->n_base, err);
    if (st == EV_OK)
        st = h5u_read_array(rf->path, g, "fitness", H5T_NATIVE_DOUBLE, 2, d[0], (void **)&b->fitness, err);
    if (st == EV_OK)
        st = h5u_read_array(rf->path, g, "trades", H5T_NATIVE_INT64, 2, d[1], (void **)&trades, err);
    if (st == EV_OK)
        st = h5u_read_array(rf->path, g, "feasible", H5T_NATIVE_UINT8, 2, d[2], (void **)&feasible, err);
    for (int i = 0; st == EV_OK && i < 3; i++)
        if (d[i][1] != b->n_base || d[i][0] != d[0][0])
            st = ev_fail(err, EV_EDATA, "%s: /walk_forward/baselines: arrays of unlike shapes (a damaged run file)",
                         rf->path);
    b->n_windows = (size_t)d[0][0];
    m = b->n_windows * b->n_base;
    if (st == EV_OK && !(b->r = (eval_result_t *)calloc(m + 1, sizeof *b->r)))
        st = ev_fail(err, EV_ENOMEM, "out of memory");
    for (size_t i = 0; st == EV_OK && i < m; i++) {
        b->r[i].trades = trades[i];
        b->r[i].feasible = feasible[i] != 0;
    }
    free(trades);
    free(feasible);
    if (st == EV_OK && h5u_exists(g, "chained_fitness", 0))
        st = read_chained(rf, g, b, err);
    h5u_close(g);
    if (st != EV_OK)
        run_walk_base_free(b);
    return st;
}

void run_walk_base_free(run_walk_base_t *b)
{
    run_file_free_strings(b->names, b->n_base);
    free(b->fitness);
    free(b->r);
    free(b->chained_fitness);
    free(b->chained);
    memset(b, 0, sizeof *b);
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
        (st = write_spans(rf, r, err)) != EV_OK || (r->n_base && (st = write_baselines(rf, r, err)) != EV_OK))
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
    if (st == EV_OK) {
        verdict_t v;
        if ((st = verdict_of_wf(&v, r, err)) == EV_OK)
            st = run_file_write_verdict(rf, "walk_forward", &v, err);
        verdict_free(&v);
    }
    return st;
}

ev_status run_file_read_walk_days(run_file_t *rf, int64_t *day[4], size_t *n, ev_error *err)
{
    const char *names[4] = {"train_first_day", "train_last_day", "test_first_day", "test_last_day"};
    ev_status st = EV_OK;
    hid_t g = run_object_open(rf, "walk_forward", 0, err);
    for (int c = 0; c < 4; c++)
        day[c] = NULL;
    *n = 0;
    if (g < 0)
        return EV_EHDF5;
    for (int c = 0; c < 4 && st == EV_OK; c++) {
        hsize_t d[1] = {0};
        st = h5u_read_array(rf->path, g, names[c], H5T_NATIVE_INT64, 1, d, (void **)&day[c], err);
        if (st == EV_OK && c && (size_t)d[0] != *n)
            st = ev_fail(err, EV_EDATA, "%s: /walk_forward/%s: %llu windows, %s has %zu (a damaged run file)", rf->path,
                         names[c], (unsigned long long)d[0], names[0], *n);
        *n = (size_t)d[0];
    }
    h5u_close(g);
    return st;
}
