/* Device code under emulation: the built-in indices, barriers, warp
 * collectives, atomics, __shared__ arrays and kernel launches. Each CUDA
 * thread of a block is a fiber (tests/cuda_emu/scheduler.cpp); blocks run one
 * after another. Included by the emulated cuda_runtime.h only. */
#ifndef EVOLVE_CUDA_EMU_DEVICE_H
#define EVOLVE_CUDA_EMU_DEVICE_H

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace emu
{

/* The running thread's indices (set by the scheduler at every switch). */
extern uint3 g_thread_idx, g_block_idx;
extern dim3 g_block_dim, g_grid_dim;

enum class Op { ballot, any, all, match_any, syncwarp, shfl_down };

/* Barriers and collectives: the fiber waits until the scheduler releases it
 * (scheduler.cpp checks masks, absent and exited lanes, deadlocks). */
void syncthreads(const char *file, int line);
uint32_t collective(Op op, uint32_t mask, uint64_t value, const char *file, int line);
/* __shfl_down_sync on the value's bits: lane l gets lane l + delta's value,
 * its own where l + delta is past the warp; reading a lane the mask does not
 * name is reported. */
uint64_t shuffle_down(uint32_t mask, uint64_t value, unsigned delta, const char *file, int line);
template <class T> T shfl_down_sync(uint32_t mask, T v, unsigned delta, const char *file, int line)
{
    static_assert(sizeof(T) <= 8 && std::is_trivially_copyable_v<T>, "__shfl_down_sync of a value of 1-8 bytes");
    uint64_t bits = 0;
    T out;
    std::memcpy(&bits, &v, sizeof v);
    bits = shuffle_down(mask, bits, delta, file, line);
    std::memcpy(&out, &bits, sizeof out);
    return out;
}

/* A __shared__ array: a per-block buffer of poison bytes, one per declaration. */
struct SharedSlot {
    const char *name;
};
void *shared_alloc(SharedSlot *slot, size_t bytes, const char *file, int line);
template <class T> T &shared(SharedSlot &slot, const char *file, int line)
{
    static_assert(sizeof(T) <= 48 * 1024, "a static __shared__ array over 48 KiB does not launch");
    return *static_cast<T *>(shared_alloc(&slot, sizeof(T), file, line));
}

/* Where a launch was written, for every report about it. */
struct LaunchSite {
    const char *file;
    int line;
    const char *kernel;
    unsigned bounds; /* __launch_bounds__ maximum threads, 0 when none */
};

/* Runs body(ctx) as every thread of every block, with the device
 * allocations the arguments point into (ptrs[0..n), DeviceScope) open;
 * false (and the last error set) when the configuration is refused as a GPU
 * would refuse it. */
bool execute(const LaunchSite &site, dim3 grid, dim3 block, void (*body)(void *), void *ctx, const void *const *ptrs,
             size_t n);

/* A kernel's pointer argument, or a pointer in a by-value struct argument
 * (field: its path, e.g. "more[2].hit"; nullptr at the top level), must be
 * null or point into a live device allocation. */
void check_device_pointer(const LaunchSite &site, int arg, const char *field, const void *p);

/* By-value struct arguments: each type declares the fields that hold device
 * pointers (EMU_ARG_POINTERS, through KERNEL_ARG_POINTERS of
 * kernels/kernel_args.cuh) or that it holds none (EMU_ARG_PLAIN); a struct
 * argument declared neither way fails the build, so no pointer goes unchecked
 * by oversight. The declarations make emu_arg_fields / emu_arg_plain, found by
 * argument-dependent lookup. */
struct AnyVisit {
    template <class F> void operator()(const char *, const F &) const
    {
    }
};
template <class T, class = void> struct has_fields : std::false_type {
};
template <class T>
struct has_fields<T, std::void_t<decltype(emu_arg_fields(std::declval<const T &>(), AnyVisit()))>> : std::true_type {
};
template <class T, class = void> struct is_plain : std::is_arithmetic<T> {
};
template <class T> struct is_plain<T, std::enable_if_t<std::is_enum_v<T>>> : std::true_type {
};
template <class T>
struct is_plain<T, std::void_t<decltype(emu_arg_plain(static_cast<const T *>(nullptr)))>> : std::true_type {
};

/* Checks v (argument arg; path: where in it) and adds each device pointer found to ptrs. */
template <class T>
void check_value(const LaunchSite &site, int arg, const std::string &path, const T &v, std::vector<const void *> &ptrs)
{
    if constexpr (std::is_pointer_v<T>) {
        check_device_pointer(site, arg, path.empty() ? nullptr : path.c_str(), (const void *)v);
        if (v)
            ptrs.push_back((const void *)v);
    } else if constexpr (std::is_array_v<T>) {
        for (size_t i = 0; i < std::extent_v<T>; i++)
            check_value(site, arg, path + "[" + std::to_string(i) + "]", v[i], ptrs);
    } else if constexpr (has_fields<T>::value) {
        emu_arg_fields(v, [&](const char *name, const auto &f) {
            check_value(site, arg, path.empty() ? std::string(name) : path + "." + name, f, ptrs);
        });
    } else {
        static_assert(is_plain<T>::value,
                      "a by-value kernel argument of a struct type the emulation does not know: declare its device "
                      "pointer fields with KERNEL_ARG_POINTERS, or KERNEL_ARG_PLAIN when it has none "
                      "(kernels/kernel_args.cuh)");
    }
}
template <class T> void check_arg(const LaunchSite &site, int arg, const T &v, std::vector<const void *> &ptrs)
{
    check_value(site, arg, std::string(), v, ptrs);
}

/* k<<<grid, block>>>(args) is rewritten (tests/cuda_emu/rewrite.py) into
 * Launcher(site, grid, block).run(k, args). */
class Launcher
{
  public:
    Launcher(const char *file, int line, const char *kernel, unsigned bounds, dim3 grid, dim3 block)
        : site_{file, line, kernel, bounds}, grid_(grid), block_(block)
    {
    }
    template <class... P, class... A> void run(void (*k)(P...), A &&...args)
    {
        static_assert(sizeof...(P) == sizeof...(A), "kernel argument count");
        using Params = std::tuple<std::decay_t<P>...>;
        struct Call {
            void (*k)(P...);
            Params params;
        } call{k, Params(std::forward<A>(args)...)};
        int i = 0;
        std::vector<const void *> ptrs;
        count_launch(site_.file, site_.line, site_.kernel, grid_, block_);
        std::apply([&](const auto &...p) { (check_arg(site_, i++, p, ptrs), ...); }, call.params);
        execute(
            site_, grid_, block_,
            [](void *c) {
                Call *cl = static_cast<Call *>(c);
                Params copy = cl->params; /* every thread gets its own copy of the arguments */
                std::apply(cl->k, copy);
            },
            &call, ptrs.data(), ptrs.size());
    }

  private:
    LaunchSite site_;
    dim3 grid_, block_;
};

/* Atomics: fibers switch only at barriers and collectives, so a plain
 * read-modify-write is atomic; __atomic keeps ThreadSanitizer informed. */
template <class T> T atomic_add(T *p, T v)
{
    if constexpr (std::is_integral_v<T>)
        return __atomic_fetch_add(p, v, __ATOMIC_RELAXED);
    T old = *p;
    *p = old + v;
    return old;
}
template <class T> T atomic_cas(T *p, T expected, T desired)
{
    __atomic_compare_exchange_n(p, &expected, desired, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
    return expected;
}

} // namespace emu

/* EMU_ARG_POINTERS(T, f1, f2, ...): T's fields that hold device pointers (a
 * pointer, an array of them, or a struct or array of structs declared in turn);
 * EMU_ARG_PLAIN(T): T holds none. Up to 16 fields. */
#define EMU_ARG_POINTERS(T, ...)                                         \
    template <class V> inline void emu_arg_fields(const T &s, V &&visit) \
    {                                                                    \
        EMU_FOR_EACH(EMU_VISIT_FIELD, __VA_ARGS__)                       \
    }
#define EMU_ARG_PLAIN(T)                           \
    inline constexpr bool emu_arg_plain(const T *) \
    {                                              \
        return true;                               \
    }
#define EMU_VISIT_FIELD(f) visit(#f, s.f);
#define EMU_FE_1(m, a) m(a)
#define EMU_FE_2(m, a, ...) m(a) EMU_FE_1(m, __VA_ARGS__)
#define EMU_FE_3(m, a, ...) m(a) EMU_FE_2(m, __VA_ARGS__)
#define EMU_FE_4(m, a, ...) m(a) EMU_FE_3(m, __VA_ARGS__)
#define EMU_FE_5(m, a, ...) m(a) EMU_FE_4(m, __VA_ARGS__)
#define EMU_FE_6(m, a, ...) m(a) EMU_FE_5(m, __VA_ARGS__)
#define EMU_FE_7(m, a, ...) m(a) EMU_FE_6(m, __VA_ARGS__)
#define EMU_FE_8(m, a, ...) m(a) EMU_FE_7(m, __VA_ARGS__)
#define EMU_FE_9(m, a, ...) m(a) EMU_FE_8(m, __VA_ARGS__)
#define EMU_FE_10(m, a, ...) m(a) EMU_FE_9(m, __VA_ARGS__)
#define EMU_FE_11(m, a, ...) m(a) EMU_FE_10(m, __VA_ARGS__)
#define EMU_FE_12(m, a, ...) m(a) EMU_FE_11(m, __VA_ARGS__)
#define EMU_FE_13(m, a, ...) m(a) EMU_FE_12(m, __VA_ARGS__)
#define EMU_FE_14(m, a, ...) m(a) EMU_FE_13(m, __VA_ARGS__)
#define EMU_FE_15(m, a, ...) m(a) EMU_FE_14(m, __VA_ARGS__)
#define EMU_FE_16(m, a, ...) m(a) EMU_FE_15(m, __VA_ARGS__)
#define EMU_FE_PICK(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, _13, _14, _15, _16, N, ...) EMU_FE_##N
#define EMU_FOR_EACH(m, ...) \
    EMU_FE_PICK(__VA_ARGS__, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1)(m, __VA_ARGS__)

/* CUDA's vector types hold no pointers. */
EMU_ARG_PLAIN(uint2)
EMU_ARG_PLAIN(uint3)
EMU_ARG_PLAIN(uint4)

#define threadIdx ((const uint3)::emu::g_thread_idx)
#define blockIdx ((const uint3)::emu::g_block_idx)
#define blockDim ((const dim3)::emu::g_block_dim)
#define gridDim ((const dim3)::emu::g_grid_dim)
#define warpSize 32

#define __syncthreads() ::emu::syncthreads(__FILE__, __LINE__)
#define __syncwarp(mask) ((void)::emu::collective(::emu::Op::syncwarp, (mask), 0, __FILE__, __LINE__))
#define __ballot_sync(mask, pred) ::emu::collective(::emu::Op::ballot, (mask), (pred) ? 1 : 0, __FILE__, __LINE__)
#define __any_sync(mask, pred) ((int)::emu::collective(::emu::Op::any, (mask), (pred) ? 1 : 0, __FILE__, __LINE__))
#define __all_sync(mask, pred) ((int)::emu::collective(::emu::Op::all, (mask), (pred) ? 1 : 0, __FILE__, __LINE__))
#define __shfl_down_sync(mask, v, delta) ::emu::shfl_down_sync((mask), (v), (unsigned)(delta), __FILE__, __LINE__)
#define __match_any_sync(mask, value) \
    ::emu::collective(::emu::Op::match_any, (mask), (uint64_t)(value), __FILE__, __LINE__)

inline int __popc(unsigned x)
{
    return __builtin_popcount(x);
}
inline int __popcll(unsigned long long x)
{
    return __builtin_popcountll(x);
}
inline int __ffs(int x)
{
    return __builtin_ffs(x);
}
inline int __ffsll(long long x)
{
    return __builtin_ffsll(x);
}
inline int __clz(int x)
{
    return x ? __builtin_clz((unsigned)x) : 32;
}
inline int __clzll(long long x)
{
    return x ? __builtin_clzll((unsigned long long)x) : 64;
}
template <class T> T atomicAdd(T *p, std::common_type_t<T> v) /* T from p alone, as CUDA's overloads */
{
    return ::emu::atomic_add(p, v);
}
template <class T> T atomicCAS(T *p, std::common_type_t<T> expected, std::common_type_t<T> desired)
{
    return ::emu::atomic_cas(p, expected, desired);
}

#endif
