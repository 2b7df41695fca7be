/* Sorting a selection pass's candidates and merging the best into the host
 * top-K (kernels/topk_device.cuh). The grid's file that uses CUB (the GA's
 * is ga_sort.cu): its device algorithms report errors as cudaError_t and
 * allocate nothing themselves (scratch is sized once, here), so no C++
 * exception can arise or escape. */
#include <cstdlib>
#include <cstring>

#include <cub/device/device_merge_sort.cuh>

#include "kernels/topk_device.cuh"

/* Best first: higher key, then lower index (SPEC sec. 5), as rank_before. */
struct entry_before {
    __host__ __device__ bool operator()(const topk_entry_t &a, const topk_entry_t &b) const
    {
        return rank_before(a.key, a.index, b.key, b.index) != 0;
    }
};

ev_status topk_dev_init(topk_dev_t *d, uint32_t cap, ev_error *err)
{
    ev_status st = EV_OK;
    memset(d, 0, sizeof *d);
    d->cap = cap ? cap : 1;
    CUDA_TRY(cub::DeviceMergeSort::SortKeys(NULL, d->sort_temp_bytes, (topk_entry_t *)NULL, (int64_t)d->cap,
                                            entry_before()));
    CUDA_TRY(cudaMalloc(&d->cand, (size_t)d->cap * sizeof *d->cand));
    CUDA_TRY(cudaMalloc(&d->count, sizeof *d->count));
    CUDA_TRY(cudaMalloc(&d->sort_temp, d->sort_temp_bytes ? d->sort_temp_bytes : 1));
    d->host = (topk_entry_t *)malloc((size_t)d->cap * sizeof *d->host);
    if (!d->host) {
        st = ev_fail(err, EV_ENOMEM, "out of host memory for %u top-K candidates", d->cap);
        goto fail;
    }
    return EV_OK;
fail:
    if (st == EV_ENOMEM)
        ev_error_prefix(err, "top-K selection buffers for %u candidates: ", d->cap);
    topk_dev_free(d);
    return st;
}

void topk_dev_free(topk_dev_t *d)
{
    /* errors here (a dead context) leave nothing to undo */
    if (d->cand)
        cudaFree(d->cand);
    if (d->count)
        cudaFree(d->count);
    if (d->sort_temp)
        cudaFree(d->sort_temp);
    free(d->host);
    memset(d, 0, sizeof *d);
}

ev_status topk_dev_merge(topk_dev_t *d, uint32_t m, topk_t *top, ev_error *err)
{
    ev_status st = EV_OK;
    size_t temp = d->sort_temp_bytes;
    uint32_t keep = m < top->k ? m : top->k;
    if (m > d->cap)
        return ev_fail(err, EV_EINTERNAL, "top-K merge of %u candidates exceeds the buffer (%u)", m, d->cap);
    if (keep == 0)
        return EV_OK;
    if (m > 1)
        CUDA_TRY(cub::DeviceMergeSort::SortKeys(d->sort_temp, temp, d->cand, (int64_t)m, entry_before()));
    CUDA_TRY_LAUNCH();
    CUDA_TRY(cudaMemcpy(d->host, d->cand, (size_t)keep * sizeof *d->host, cudaMemcpyDeviceToHost));
    for (uint32_t i = 0; i < keep; i++)
        topk_offer(top, d->host[i].index, d->host[i].r);
    return EV_OK;
fail:
    return st;
}
