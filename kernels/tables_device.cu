/* First-hit tables in device memory: allocation, upload of host-built tables,
 * download (for byte-for-byte checks) and release. The device build of the
 * hit part is in kernels/tables_build.cu. */
#include <cstdlib>
#include <cstring>

#include "kernels/cuda_check.h"
#include "kernels/tables_device.cuh"

/* Points the view at the arrays (NULL for absent ones, as on the host). */
static void bind_view(cuda_tables_t *t)
{
    fit_tables_t *v = &t->view;
    v->cells = (const uint16_t *)t->arr[TA_CELLS];
    v->hit_t = (const int32_t *)t->arr[TA_HIT_T];
    v->hit_s = (const int32_t *)t->arr[TA_HIT_S];
    v->q_t = (const int64_t *)t->arr[TA_Q_T];
    v->q_s = (const int64_t *)t->arr[TA_Q_S];
    v->q_log = (const int64_t *)t->arr[TA_Q_LOG];
    v->lf_t = (const int64_t *)t->arr[TA_LF_T];
    v->lf_s = (const int64_t *)t->arr[TA_LF_S];
    v->lf_log = (const int64_t *)t->arr[TA_LF_LOG];
    v->fold = (const uint8_t *)t->arr[TA_FOLD];
    for (int r = 0; r < MORE_EXITS; r++) {
        v->more[r].hit = (const int32_t *)t->arr[TA_MORE_HIT + r];
        v->more[r].q = (const int64_t *)t->arr[TA_MORE_Q + r];
        v->more[r].lf = (const int64_t *)t->arr[TA_MORE_LF + r];
    }
}

ev_status tables_device_alloc(cuda_tables_t **out, const fit_tables_t *layout, int64_t q_t_len, int64_t q_s_len,
                              ev_error *err)
{
    ev_status st = EV_OK;
    cuda_tables_t *t = NULL;
    *out = NULL;
    t = (cuda_tables_t *)calloc(1, sizeof *t);
    if (!t)
        return ev_fail(err, EV_ENOMEM, "out of host memory for the device tables' descriptor");
    t->view = *layout;
    t->q_t_len = q_t_len;
    t->q_s_len = q_s_len;
    tables_layout_plan(layout, q_t_len, q_s_len, &t->lay);
    CUDA_TRY(cudaMalloc(&t->mem, t->lay.bytes));
    for (int a = 0; a < TA_COUNT; a++)
        t->arr[a] = t->lay.present[a] ? (void *)((char *)t->mem + t->lay.offset[a]) : NULL;
    bind_view(t);
    *out = t;
    return EV_OK;
fail:
    if (st == EV_ENOMEM)
        ev_error_prefix(err,
                        "the first-hit tables of %lld trades need %.1f MiB of device memory (use fewer trades, "
                        "fewer target/stop values or the cpu backend): ",
                        (long long)layout->n_trades, (double)t->lay.bytes / 1048576.0);
    cuda_tables_free(t);
    return st;
}

/* The host arrays of tables_host_t in TA_ order. */
static void host_arrays(const tables_host_t *h, const void **p)
{
    p[TA_CELLS] = h->cells;
    p[TA_HIT_T] = h->hit_t;
    p[TA_HIT_S] = h->hit_s;
    p[TA_Q_T] = h->q_t;
    p[TA_Q_S] = h->q_s;
    p[TA_Q_LOG] = h->q_log;
    p[TA_LF_T] = h->lf_t;
    p[TA_LF_S] = h->lf_s;
    p[TA_LF_LOG] = h->lf_log;
    p[TA_FOLD] = h->fold;
    for (int r = 0; r < MORE_EXITS; r++) {
        p[TA_MORE_HIT + r] = h->more_hit[r];
        p[TA_MORE_Q + r] = h->more_q[r];
        p[TA_MORE_LF + r] = h->more_lf[r];
    }
}

ev_status tables_device_put(cuda_tables_t *t, int a, const void *host, ev_error *err)
{
    ev_status st = EV_OK;
    if (!t->lay.present[a] || t->lay.count[a] == 0)
        return EV_OK;
    CUDA_TRY(cudaMemcpy(t->arr[a], host, t->lay.count[a] * t->lay.elem[a], cudaMemcpyHostToDevice));
    return EV_OK;
fail:
    return st;
}

extern "C" ev_status cuda_tables_upload(cuda_tables_t **out, const tables_host_t *host, ev_error *err)
{
    ev_status st;
    cuda_tables_t *t = NULL;
    const void *src[TA_COUNT];
    *out = NULL;
    st = tables_device_alloc(&t, &host->view, host->q_t_len, host->q_s_len, err);
    if (st != EV_OK)
        return st;
    host_arrays(host, src);
    for (int a = 0; a < TA_COUNT && st == EV_OK; a++)
        st = tables_device_put(t, a, src[a], err);
    if (st != EV_OK) {
        cuda_tables_free(t);
        return st;
    }
    *out = t;
    return EV_OK;
}

extern "C" ev_status cuda_tables_download(const cuda_tables_t *t, tables_host_t *host, ev_error *err)
{
    ev_status st = EV_OK;
    void *dst[TA_COUNT];
    memset(host, 0, sizeof *host);
    memset(dst, 0, sizeof dst);
    for (int a = 0; a < TA_COUNT; a++) {
        if (!t->lay.present[a])
            continue;
        /* like tables_build: at least one element, so a pointer is never NULL */
        dst[a] = malloc((t->lay.count[a] ? t->lay.count[a] : 1) * t->lay.elem[a]);
        if (!dst[a]) {
            st = ev_fail(err, EV_ENOMEM, "out of host memory downloading the device tables");
            goto fail;
        }
        if (t->lay.count[a])
            CUDA_TRY(cudaMemcpy(dst[a], t->arr[a], t->lay.count[a] * t->lay.elem[a], cudaMemcpyDeviceToHost));
    }
    host->view = t->view;
    host->q_t_len = t->q_t_len;
    host->q_s_len = t->q_s_len;
    host->cells = (uint16_t *)dst[TA_CELLS];
    host->hit_t = (int32_t *)dst[TA_HIT_T];
    host->hit_s = (int32_t *)dst[TA_HIT_S];
    host->q_t = (int64_t *)dst[TA_Q_T];
    host->q_s = (int64_t *)dst[TA_Q_S];
    host->q_log = (int64_t *)dst[TA_Q_LOG];
    host->lf_t = (int64_t *)dst[TA_LF_T];
    host->lf_s = (int64_t *)dst[TA_LF_S];
    host->lf_log = (int64_t *)dst[TA_LF_LOG];
    host->fold = (uint8_t *)dst[TA_FOLD];
    host->view.cells = host->cells;
    host->view.hit_t = host->hit_t;
    host->view.hit_s = host->hit_s;
    host->view.q_t = host->q_t;
    host->view.q_s = host->q_s;
    host->view.q_log = host->q_log;
    host->view.lf_t = host->lf_t;
    host->view.lf_s = host->lf_s;
    host->view.lf_log = host->lf_log;
    host->view.fold = host->fold;
    for (int r = 0; r < MORE_EXITS; r++) {
        host->more_hit[r] = (int32_t *)dst[TA_MORE_HIT + r];
        host->more_q[r] = (int64_t *)dst[TA_MORE_Q + r];
        host->more_lf[r] = (int64_t *)dst[TA_MORE_LF + r];
        host->view.more[r].hit = host->more_hit[r];
        host->view.more[r].q = host->more_q[r];
        host->view.more[r].lf = host->more_lf[r];
    }
    return EV_OK;
fail:
    for (int a = 0; a < TA_COUNT; a++)
        free(dst[a]);
    memset(host, 0, sizeof *host);
    return st;
}

extern "C" uint64_t cuda_tables_bytes(const cuda_tables_t *t)
{
    return t ? t->lay.bytes : 0;
}

extern "C" void cuda_tables_free(cuda_tables_t *t)
{
    if (!t)
        return;
    if (t->mem)
        cudaFree(t->mem); /* an error here (a dead context) leaves nothing to undo */
    free(t);
}
