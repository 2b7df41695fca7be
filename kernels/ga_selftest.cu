/* Device self-tests of the GA's shared code (kernels/ga_selftest.h). Thin
 * kernels around the __host__ __device__ functions: nothing here is
 * GA logic, so a mismatch with the host is a compiler or RNG difference. */
#include "kernels/ga_selftest.h"

#include <curand_philox4x32_x.h>

#include "kernels/cuda_check.h"
#include "kernels/kernel_args.cuh"
#include "operators/breed.h"

static __global__ void philox_kernel(const uint4 *ctr, uint2 key, uint32_t n, uint4 *out_curand, uint4 *out_hd)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    philox_ctr_t c;
    philox_key_t k;
    if (i >= n)
        return;
    out_curand[i] = curand_Philox4x32_10(ctr[i], key);
    c.x = ctr[i].x;
    c.y = ctr[i].y;
    c.z = ctr[i].z;
    c.w = ctr[i].w;
    k.x = key.x;
    k.y = key.y;
    c = philox4x32_10(c, k);
    out_hd[i] = make_uint4(c.x, c.y, c.z, c.w);
}

extern "C" ev_status cuda_selftest_philox(const uint32_t *ctr, const uint32_t *key, uint32_t n, uint32_t *out_curand,
                                          uint32_t *out_hd, ev_error *err)
{
    ev_status st = EV_OK;
    uint4 *d_ctr = NULL, *d_cu = NULL, *d_hd = NULL;
    size_t bytes = (size_t)n * sizeof(uint4);
    if (n == 0)
        return EV_OK; /* a launch of 0 blocks is an invalid configuration */
    CUDA_TRY(cudaMalloc((void **)&d_ctr, bytes));
    CUDA_TRY(cudaMalloc((void **)&d_cu, bytes));
    CUDA_TRY(cudaMalloc((void **)&d_hd, bytes));
    CUDA_TRY(cudaMemcpy(d_ctr, ctr, bytes, cudaMemcpyHostToDevice));
    /* in 64 bits: (n + 255) / 256 wraps to 0 blocks in 32 bits for n > 2^32 - 256 */
    philox_kernel<<<(unsigned)(((uint64_t)n + 255) / 256), 256>>>(d_ctr, make_uint2(key[0], key[1]), n, d_cu, d_hd);
    CUDA_TRY_LAUNCH();
    CUDA_TRY(cudaMemcpy(out_curand, d_cu, bytes, cudaMemcpyDeviceToHost));
    CUDA_TRY(cudaMemcpy(out_hd, d_hd, bytes, cudaMemcpyDeviceToHost));
fail:
    cudaFree(d_ctr);
    cudaFree(d_cu);
    cudaFree(d_hd);
    return st;
}

static __global__ void breed_kernel(breed_ctx_t ctx, const breed_island_t *isl, const uint16_t *prev,
                                    const uint32_t *order, uint32_t generation, uint16_t *next, int32_t *parents)
{
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= ctx.population)
        return;
    if (generation == 0)
        breed_initial(&ctx, i, next, parents);
    else
        breed_child(&ctx, isl, prev, order, generation, i, next, parents);
}

extern "C" ev_status cuda_selftest_breed(const breed_ctx_t *ctx, const breed_island_t *isl, const uint16_t *prev,
                                         const uint32_t *order, uint32_t generation, uint16_t *next, int32_t *parents,
                                         ev_error *err)
{
    ev_status st = EV_OK;
    size_t pop = ctx->population, genes = pop * (size_t)ctx->n_genes * sizeof(uint16_t);
    breed_island_t *d_isl = NULL;
    uint16_t *d_prev = NULL, *d_next = NULL;
    uint32_t *d_order = NULL;
    int32_t *d_par = NULL;
    if (pop == 0)
        return EV_OK; /* a launch of 0 blocks is an invalid configuration */
    CUDA_TRY(cudaMalloc((void **)&d_isl, ctx->islands * sizeof(breed_island_t)));
    CUDA_TRY(cudaMalloc((void **)&d_prev, genes));
    CUDA_TRY(cudaMalloc((void **)&d_next, genes));
    CUDA_TRY(cudaMalloc((void **)&d_order, pop * sizeof(uint32_t)));
    CUDA_TRY(cudaMalloc((void **)&d_par, 2 * pop * sizeof(int32_t)));
    if (generation > 0) {
        CUDA_TRY(cudaMemcpy(d_isl, isl, ctx->islands * sizeof(breed_island_t), cudaMemcpyHostToDevice));
        CUDA_TRY(cudaMemcpy(d_prev, prev, genes, cudaMemcpyHostToDevice));
        CUDA_TRY(cudaMemcpy(d_order, order, pop * sizeof(uint32_t), cudaMemcpyHostToDevice));
    }
    breed_kernel<<<(unsigned)((pop + 255) / 256), 256>>>(*ctx, d_isl, d_prev, d_order, generation, d_next, d_par);
    CUDA_TRY_LAUNCH();
    CUDA_TRY(cudaMemcpy(next, d_next, genes, cudaMemcpyDeviceToHost));
    CUDA_TRY(cudaMemcpy(parents, d_par, 2 * pop * sizeof(int32_t), cudaMemcpyDeviceToHost));
fail:
    cudaFree(d_isl);
    cudaFree(d_prev);
    cudaFree(d_next);
    cudaFree(d_order);
    cudaFree(d_par);
    return st;
}
