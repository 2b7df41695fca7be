/* Marks functions shared by the CPU backend and CUDA kernels.
 *
 * Headers that use EV_HD compile both as C11 and as CUDA C++: no restrict,
 * no compound literals, no VLAs, explicit casts from void *. */
#ifndef EVOLVE_HD_H
#define EVOLVE_HD_H

#ifdef __CUDACC__
#define EV_HD __host__ __device__ __forceinline__
#else
#define EV_HD static inline
#endif

#ifdef __cplusplus
#define EV_STATIC_ASSERT(cond, msg) static_assert(cond, msg)
#else
#define EV_STATIC_ASSERT(cond, msg) _Static_assert(cond, msg)
#endif

#endif
