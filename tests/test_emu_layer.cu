/* The emulation layer's own checks (tests/cuda_emu, kernels/README.md
 * "Emulation"), on small kernels written for them: an emu build only.
 *
 *   test_emu_layer clean           the kernels below written right: values
 *                                  checked, and no report from any sanitizer
 *   test_emu_layer host-read       host code reads device memory: ASan reports
 *                                  use-after-poison (ASan builds)
 *   test_emu_layer struct-pointer  a host pointer in a by-value struct's array
 *                                  of structs: the launch stops, naming the field
 *   test_emu_layer late-barrier    a barrier missing between the second and the
 *                                  third phase, with barriers before and after:
 *                                  TSan reports the race (TSan builds)
 *   test_emu_layer inter-block     two blocks write the same words (blockIdx
 *                                  forgotten): TSan reports the race (TSan builds)
 *
 * tests/CMakeLists.txt expects each report; ctest fails where the layer stays
 * silent. */
#include <cuda_runtime.h>

#include <stdio.h>
#include <string.h>

#include "kernels/kernel_args.cuh"
#include "tests/check.h"

enum { N = 64, BLOCKS = 2 };

/* Three phases through two shared arrays; `late` leaves out the barrier
 * between the second and the third. out[b][t] = 2 * (((t + 4) % N) + 1) + b. */
__global__ void phases_kernel(int late, int *out)
{
    __shared__ int a[N];
    __shared__ int b[N];
    const unsigned t = threadIdx.x;
    a[t] = (int)t + 1;
    __syncthreads();
    b[t] = a[(t + 1) % N];
    if (!late)
        __syncthreads();
    a[t] = 2 * b[(t + 3) % N];
    __syncthreads();
    out[blockIdx.x * N + t] = a[t] + (int)blockIdx.x;
}

/* Each block adds its number to its own row; `shared_row` has every block
 * write row 0 (the bug). */
__global__ void rows_kernel(int shared_row, int *out)
{
    const unsigned row = shared_row ? 0 : blockIdx.x;
    out[row * N + threadIdx.x] += (int)blockIdx.x + 1;
}

/* A by-value struct whose device pointers sit in an array of structs. */
typedef struct {
    const int *from;
    int *to;
} copy_pair_t;
typedef struct {
    int n;
    copy_pair_t pair[2];
} copy_args_t;
KERNEL_ARG_POINTERS(copy_pair_t, from, to)
KERNEL_ARG_POINTERS(copy_args_t, pair)

__global__ void copy_kernel(copy_args_t c)
{
    const unsigned t = threadIdx.x;
    if ((int)t < c.n)
        for (int k = 0; k < 2; k++)
            c.pair[k].to[t] = c.pair[k].from[t] * (k + 2);
}

static int *device_ints(size_t n)
{
    int *p = NULL;
    if (cudaMalloc(&p, n * sizeof *p) != cudaSuccess || cudaMemset(p, 0, n * sizeof *p) != cudaSuccess) {
        fprintf(stderr, "test_emu_layer: cudaMalloc or cudaMemset failed\n");
        exit(1);
    }
    return p;
}

static void phases(int late)
{
    int *d = device_ints(BLOCKS * N), h[BLOCKS * N];
    phases_kernel<<<BLOCKS, N>>>(late, d);
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost) == cudaSuccess);
    for (int b = 0; b < BLOCKS; b++)
        for (int t = 0; t < N; t++)
            CHECK_EQ_I64(2 * ((t + 4) % N + 1) + b, h[b * N + t]);
    cudaFree(d);
}

static void rows(int shared_row)
{
    int *d = device_ints(BLOCKS * N), h[BLOCKS * N];
    rows_kernel<<<BLOCKS, N>>>(shared_row, d);
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost) == cudaSuccess);
    for (int b = 0; b < BLOCKS; b++)
        for (int t = 0; t < N; t++)
            CHECK_EQ_I64(b + 1, h[b * N + t]);
    cudaFree(d);
}

static void copies(int host_pointer)
{
    int src[N], h[N], host_out[N];
    copy_args_t c;
    int *d[4];
    for (int k = 0; k < 4; k++)
        d[k] = device_ints(N);
    for (int t = 0; t < N; t++)
        src[t] = 3 * t - 7;
    CHECK(cudaMemcpy(d[0], src, sizeof src, cudaMemcpyHostToDevice) == cudaSuccess);
    CHECK(cudaMemcpy(d[2], src, sizeof src, cudaMemcpyHostToDevice) == cudaSuccess);
    c.n = N;
    c.pair[0].from = d[0];
    c.pair[0].to = d[1];
    c.pair[1].from = d[2];
    c.pair[1].to = host_pointer ? host_out : d[3];
    copy_kernel<<<1, N>>>(c);
    for (int k = 0; k < 2; k++) {
        CHECK(cudaMemcpy(h, k ? d[3] : d[1], sizeof h, cudaMemcpyDeviceToHost) == cudaSuccess);
        for (int t = 0; t < N; t++)
            CHECK_EQ_I64((3 * t - 7) * (k + 2), h[t]);
    }
    for (int k = 0; k < 4; k++)
        cudaFree(d[k]);
}

static void host_read(void)
{
    int *d = device_ints(4);
    volatile int *v = d;
    printf("host read %d\n", v[1]); /* device memory: a fault on a GPU, use-after-poison under ASan */
    cudaFree(d);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "clean";
    if (!strcmp(mode, "clean")) {
        phases(0);
        rows(0);
        copies(0);
    } else if (!strcmp(mode, "host-read")) {
        host_read();
    } else if (!strcmp(mode, "struct-pointer")) {
        copies(1);
    } else if (!strcmp(mode, "late-barrier")) {
        phases(1);
    } else if (!strcmp(mode, "inter-block")) {
        rows(1);
    } else {
        fprintf(stderr,
                "test_emu_layer: unknown mode %s (clean, host-read, struct-pointer, late-barrier, "
                "inter-block)\n",
                mode);
        return 2;
    }
    return check_exit();
}
