/* The device build of the first-hit tables (cuda_tables_build).
 *
 * One thread per trade (equity position jj) runs the shared HD function
 * tables_trade_hits: levels, one pass over the trade's price path (hits_scan),
 * the logged outcome and the fill-price outcomes. Threads of a warp read
 * different paths (uncoalesced), but each reads its own path sequentially, so
 * L1/L2 lines are reused; the build runs once per problem. What needs double
 * compares or log1p (cells, log factors) is computed on the host. */
#include <cstdlib>
#include <cstring>

#include "fitness/objective_prep.h"
#include "kernels/cuda_check.h"
#include "kernels/tables_device.cuh"

/* A trade's path and numbers, gathered into equity order on the host. 32 B. */
typedef struct {
    int64_t start; /* first price index of the path */
    int64_t len;   /* path length (end - start) */
    double entry;  /* entry price */
    double pct;    /* logged Trade Percent Change */
} trade_in_t;

enum {
    BUILD_THREADS = 128,
    /* Trades per launch: bounds the level scratch and the launch time (a
     * launch's time is the longest path it scans, not the trade count). */
    BUILD_CHUNK = 65536
};

__global__ void __launch_bounds__(BUILD_THREADS)
    tables_hits_kernel(fit_tables_t v, int64_t first, int64_t count, const trade_in_t *in, const float *price,
                       const double *t_values, const double *s_values, double cost_pct, float *t_levels,
                       float *s_levels, int32_t *hit_t, int32_t *hit_s, int64_t *q_t, int64_t *q_s, int64_t *q_log)
{
    int64_t k = (int64_t)blockIdx.x * BUILD_THREADS + threadIdx.x;
    int64_t jj = first + k;
    trade_in_t tr;
    if (k >= count)
        return;
    tr = in[jj];
    /* scratch is per launch: row k of [BUILD_CHUNK][n_targets] (and stops) */
    tables_trade_hits(&v, jj, price + tr.start, tr.len, tr.entry, tr.pct, cost_pct, t_values, s_values,
                      t_levels + k * v.n_targets, s_levels + k * v.n_stops, hit_t, hit_s, q_t, q_s, q_log);
}

/* Device scratch of one build, one allocation. */
typedef struct {
    void *mem;
    trade_in_t *in;   /* [n_trades] */
    float *price;     /* [n_prices] */
    double *t_values; /* [n_targets] */
    double *s_values; /* [n_stops] */
    float *t_levels;  /* [BUILD_CHUNK][n_targets] */
    float *s_levels;  /* [BUILD_CHUNK][n_stops] */
    uint64_t bytes;
} build_scratch_t;

static uint64_t align_up(uint64_t x)
{
    return (x + 255u) & ~(uint64_t)255u;
}

static ev_status scratch_alloc(build_scratch_t *s, const fit_tables_t *v, int64_t n_prices, ev_error *err)
{
    ev_status st = EV_OK;
    uint64_t n = (uint64_t)v->n_trades, chunk = n < BUILD_CHUNK ? n : (uint64_t)BUILD_CHUNK;
    uint64_t o_in = 0, o_price, o_tv, o_sv, o_tl, o_sl;
    o_price = o_in + align_up(n * sizeof(trade_in_t));
    o_tv = o_price + align_up((uint64_t)n_prices * sizeof(float));
    o_sv = o_tv + align_up((uint64_t)v->n_targets * sizeof(double));
    o_tl = o_sv + align_up((uint64_t)v->n_stops * sizeof(double));
    o_sl = o_tl + align_up(chunk * (uint64_t)v->n_targets * sizeof(float));
    s->bytes = o_sl + align_up(chunk * (uint64_t)v->n_stops * sizeof(float)) + 256;
    CUDA_TRY(cudaMalloc(&s->mem, s->bytes));
    s->in = (trade_in_t *)((char *)s->mem + o_in);
    s->price = (float *)((char *)s->mem + o_price);
    s->t_values = (double *)((char *)s->mem + o_tv);
    s->s_values = (double *)((char *)s->mem + o_sv);
    s->t_levels = (float *)((char *)s->mem + o_tl);
    s->s_levels = (float *)((char *)s->mem + o_sl);
    return EV_OK;
fail:
    s->mem = NULL;
    if (st == EV_ENOMEM)
        ev_error_prefix(err,
                        "building the first-hit tables on the device needs the %lld market prices there "
                        "(%.1f MiB): ",
                        (long long)n_prices, (double)s->bytes / 1048576.0);
    return st;
}

/* Uploads the trades (equity order), prices and target/stop values. */
static ev_status scratch_fill(build_scratch_t *s, const fit_problem_t *p, const fit_tables_t *v, ev_error *err)
{
    ev_status st = EV_OK;
    const dataset_t *ds = p->ds;
    const lattice_t *lat = p->lat;
    int64_t n = v->n_trades;
    trade_in_t *h = (trade_in_t *)malloc(((size_t)n + 1) * sizeof *h);
    if (!h)
        return ev_fail(err, EV_ENOMEM, "out of host memory gathering %lld trades", (long long)n);
    for (int64_t jj = 0; jj < n; jj++) {
        int64_t j = p->order[jj];
        h[jj].start = ds->start[j];
        h[jj].len = ds->end[j] - ds->start[j];
        h[jj].entry = ds->entry_price[j];
        h[jj].pct = ds->pct_change[j];
    }
    if (n)
        CUDA_TRY(cudaMemcpy(s->in, h, (size_t)n * sizeof *h, cudaMemcpyHostToDevice));
    if (ds->n_prices)
        CUDA_TRY(cudaMemcpy(s->price, ds->price, (size_t)ds->n_prices * sizeof(float), cudaMemcpyHostToDevice));
    if (v->n_targets)
        CUDA_TRY(cudaMemcpy(s->t_values, lat->params[v->target_param].values, (size_t)v->n_targets * sizeof(double),
                            cudaMemcpyHostToDevice));
    if (v->n_stops)
        CUDA_TRY(cudaMemcpy(s->s_values, lat->params[v->stop_param].values, (size_t)v->n_stops * sizeof(double),
                            cudaMemcpyHostToDevice));
fail:
    free(h);
    return st;
}

/* fill: level: q_t/q_s hold one outcome per level, computed on the host by
 * the same function tables_build uses. */
static ev_status put_level_outcomes(cuda_tables_t *t, const fit_problem_t *p, ev_error *err)
{
    const fit_tables_t *v = &t->view;
    int32_t most = v->n_targets > v->n_stops ? v->n_targets : v->n_stops;
    int64_t *q = (int64_t *)malloc(((size_t)most + 1) * sizeof *q);
    ev_status st = EV_OK;
    if (!q)
        return ev_fail(err, EV_ENOMEM, "out of host memory");
    if (v->n_targets) {
        tables_level_outcomes(q, &p->lat->params[v->target_param], p->obj_cfg.cost_pct);
        st = tables_device_put(t, TA_Q_T, q, err);
    }
    if (st == EV_OK && v->n_stops) {
        tables_level_outcomes(q, &p->lat->params[v->stop_param], p->obj_cfg.cost_pct);
        st = tables_device_put(t, TA_Q_S, q, err);
    }
    free(q);
    return st;
}

/* compound: log factors of every outcome array, on the host (log1p is not
 * the same function on the host and the device), from the device's outcomes. */
static ev_status put_log_factors(cuda_tables_t *t, ev_error *err)
{
    static const int from[3] = {TA_Q_T, TA_Q_S, TA_Q_LOG}, to[3] = {TA_LF_T, TA_LF_S, TA_LF_LOG};
    ev_status st = EV_OK;
    int64_t *q = NULL;
    for (int i = 0; i < 3; i++) {
        uint64_t n = t->lay.count[from[i]];
        free(q);
        q = (int64_t *)malloc((n ? n : 1) * sizeof *q);
        if (!q) {
            st = ev_fail(err, EV_ENOMEM, "out of host memory for %llu log factors", (unsigned long long)n);
            goto fail;
        }
        if (n == 0)
            continue;
        CUDA_TRY(cudaMemcpy(q, t->arr[from[i]], n * sizeof *q, cudaMemcpyDeviceToHost));
        for (uint64_t k = 0; k < n; k++)
            q[k] = outcome_log_factor(q[k]);
        st = tables_device_put(t, to[i], q, err);
        if (st != EV_OK)
            goto fail;
    }
fail:
    free(q);
    return st;
}

static ev_status run_hits(cuda_tables_t *t, const build_scratch_t *s, double cost_pct, ev_error *err)
{
    ev_status st = EV_OK;
    const fit_tables_t *v = &t->view;
    for (int64_t first = 0; first < v->n_trades; first += BUILD_CHUNK) {
        int64_t count = v->n_trades - first < BUILD_CHUNK ? v->n_trades - first : (int64_t)BUILD_CHUNK;
        unsigned blocks = (unsigned)((count + BUILD_THREADS - 1) / BUILD_THREADS);
        tables_hits_kernel<<<blocks, BUILD_THREADS>>>(*v, first, count, s->in, s->price, s->t_values, s->s_values,
                                                      cost_pct, s->t_levels, s->s_levels, (int32_t *)t->arr[TA_HIT_T],
                                                      (int32_t *)t->arr[TA_HIT_S], (int64_t *)t->arr[TA_Q_T],
                                                      (int64_t *)t->arr[TA_Q_S], (int64_t *)t->arr[TA_Q_LOG]);
        CUDA_TRY_LAUNCH();
        /* one chunk at a time: each launch stays short (watchdog), and a bad
         * path is reported with the chunk it was in */
        CUDA_TRY(cudaDeviceSynchronize());
    }
    return EV_OK;
fail:
    return st;
}

/* objective.aggregate: each row's day fold, in equity order (as tables_build). */
static ev_status put_folds(cuda_tables_t *t, const fit_problem_t *p, ev_error *err)
{
    int64_t n = t->view.n_trades;
    uint8_t *fold = (uint8_t *)malloc((size_t)n + 1);
    ev_status st;
    if (!fold)
        return ev_fail(err, EV_ENOMEM, "out of host memory");
    for (int64_t jj = 0; jj < n; jj++)
        fold[jj] = p->fold[p->order[jj]];
    st = tables_device_put(t, TA_FOLD, fold, err);
    free(fold);
    return st;
}

extern "C" ev_status cuda_tables_build(cuda_tables_t **out, const fit_problem_t *p, const uint16_t *cells,
                                       ev_error *err)
{
    ev_status st;
    fit_tables_t layout;
    cuda_tables_t *t = NULL;
    build_scratch_t s;
    int64_t n;
    memset(&s, 0, sizeof s);
    *out = NULL;
    tables_layout(&layout, p);
    if (layout.more_exits) /* kernels/backend_cuda.c uploads the host's instead */
        return ev_fail(err, EV_EUSAGE, "the device builds no tables for the exits trail, breakeven and max_hold");
    n = layout.n_trades;
    st = tables_device_alloc(&t, &layout, layout.fill_price ? n * layout.n_targets : layout.n_targets,
                             layout.fill_price ? n * layout.n_stops : layout.n_stops, err);
    if (st == EV_OK)
        st = tables_device_put(t, TA_CELLS, cells, err);
    if (st == EV_OK && !layout.fill_price)
        st = put_level_outcomes(t, p, err);
    if (st == EV_OK)
        st = scratch_alloc(&s, &layout, p->ds->n_prices, err);
    if (st == EV_OK)
        st = scratch_fill(&s, p, &layout, err);
    if (st == EV_OK)
        st = run_hits(t, &s, p->obj_cfg.cost_pct, err);
    if (s.mem)
        cudaFree(s.mem); /* after run_hits synchronised; nothing left to undo on error */
    if (st == EV_OK && layout.need_lf)
        st = put_log_factors(t, err);
    if (st == EV_OK && layout.agg != AGG_ALL)
        st = put_folds(t, p, err);
    if (st != EV_OK) {
        cuda_tables_free(t);
        return st;
    }
    *out = t;
    return EV_OK;
}
