/* Device memory: host memory from a table of live allocations, filled with
 * a poison byte. Copies and sets are checked against the table (range and
 * direction); under AddressSanitizer device memory is poisoned while host
 * code runs, so a host read of device memory is reported where it happens.
 * Leaks are reported at exit. cudaMalloc fails on purpose at the N-th call
 * (EVOLVE_EMU_FAIL_MALLOC=N, or every call from N with N+; with it set, the
 * exit reports the number of calls instead of leaks, since a test stopped by
 * the failure may exit holding memory) and when the emulated device
 * (EVOLVE_EMU_DEVICE_MIB, default 1024) is full. Pinned host memory
 * (cudaMallocHost) is plain host memory whose frees are checked. Every call
 * is counted (counters.cpp). */
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <utility>
#include <unistd.h>
#include <vector>

#include "internal.h"

#if defined(EVOLVE_EMU_ASAN) /* the ASan build (emu.cmake); this file is not instrumented */
#include <sanitizer/asan_interface.h>
#define EMU_POISON(p, n) __asan_poison_memory_region(p, n)
#define EMU_UNPOISON(p, n) __asan_unpoison_memory_region(p, n)
#else
#define EMU_POISON(p, n) ((void)(p), (void)(n))
#define EMU_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

namespace emu
{

namespace
{

struct Alloc {
    size_t bytes;
    const char *file;
    int line;
    int open;     /* the scopes holding it: unpoisoned while > 0 */
    bool pointed; /* a copy to device memory carried a pointer into it */
};

struct Table {
    std::map<uintptr_t, Alloc> live;
    std::vector<uintptr_t> pointed;     /* the allocations marked pointed */
    uintptr_t lo = UINTPTR_MAX, hi = 0; /* every allocation ever made lies in [lo, hi] */
    size_t used = 0;
    std::map<uintptr_t, std::pair<const char *, int>> pinned; /* live cudaMallocHost blocks: their call site */
    size_t total;
    unsigned long calls = 0, fail_at = 0;
    bool fail_after = false;
    Table()
    {
        const char *mib = getenv("EVOLVE_EMU_DEVICE_MIB");
        const char *f = getenv("EVOLVE_EMU_FAIL_MALLOC");
        total = (size_t)(mib && *mib ? strtoull(mib, nullptr, 10) : 1024) << 20;
        if (f && *f) {
            char *end;
            fail_at = strtoul(f, &end, 10);
            fail_after = *end == '+';
        }
    }
};

Table &table()
{
    static Table *t = new Table; /* never destroyed: the leak check runs at exit */
    return *t;
}

/* The allocation holding p (p may be one past its end); nullptr when none. */
std::pair<const uintptr_t, Alloc> *find(const void *p)
{
    auto &live = table().live;
    auto it = live.upper_bound((uintptr_t)p);
    if (it == live.begin())
        return nullptr;
    --it;
    if ((uintptr_t)p > it->first + it->second.bytes)
        return nullptr;
    return &*it;
}

void leak_check(void)
{
    Table &t = table();
    if (t.fail_at) {
        fprintf(stderr, "emu: %lu cudaMalloc calls\n", t.calls);
        return;
    }
    for (auto &h : t.pinned)
        fprintf(stderr, "emu: pinned host memory from cudaMallocHost at %s:%d still live at exit (leaked)\n",
                h.second.first, h.second.second);
    if (t.live.empty()) {
        if (!t.pinned.empty()) {
            fflush(stderr);
            _exit(70);
        }
        return;
    }
    fprintf(stderr, "emu: %zu device allocation(s) of %zu bytes still live at exit (leaked):\n", t.live.size(), t.used);
    int shown = 0;
    for (auto &a : t.live)
        if (shown++ < 20)
            fprintf(stderr, "  %zu bytes from cudaMalloc at %s:%d\n", a.second.bytes, a.second.file, a.second.line);
    fflush(stderr);
    _exit(70);
}

/* The leak check, registered once, at the first allocation of either kind. */
void watch_leaks(void)
{
    static bool registered = (atexit(leak_check), true);
    (void)registered;
}

/* Host memory must not be device memory: the wrong cudaMemcpyKind. */
void check_host_range(const void *p, size_t bytes, const char *what, const char *file, int line)
{
    if (bytes && find(p) && find((const char *)p + bytes - 1))
        fail("%s at %s:%d: the host side (%p) is device memory: wrong cudaMemcpyKind", what, file, line, p);
}

/* Marks the allocations that 8-byte words of a copy to device memory (at
 * dst, from host memory at src) point into: a kernel may follow them. */
void note_pointers(const void *dst, const void *src, size_t bytes)
{
    Table &t = table();
    for (size_t k = (8 - (uintptr_t)dst % 8) % 8; k + 8 <= bytes; k += 8) {
        uintptr_t w;
        memcpy(&w, (const char *)src + k, sizeof w);
        if (w < t.lo || w > t.hi)
            continue; /* (most words: data, not addresses) */
        auto *a = find((const void *)w);
        if (a && !a->second.pointed) {
            a->second.pointed = true;
            t.pointed.push_back(a->first);
        }
    }
}

} // namespace

void add_pointed_allocations(std::vector<const void *> &ptrs)
{
    for (uintptr_t at : table().pointed)
        ptrs.push_back((const void *)at);
}

DeviceScope::DeviceScope(const void *const *ptrs, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        auto *a = ptrs[i] ? find(ptrs[i]) : nullptr;
        if (!a || std::find(held_.begin(), held_.end(), a->first) != held_.end())
            continue;
        held_.push_back(a->first);
        if (a->second.open++ == 0)
            EMU_UNPOISON((void *)a->first, a->second.bytes);
    }
}

DeviceScope::~DeviceScope()
{
    auto &live = table().live;
    for (uintptr_t at : held_) {
        auto it = live.find(at); /* (freed meanwhile: cudaFree unpoisoned it) */
        if (it != live.end() && it->second.open > 0 && --it->second.open == 0)
            EMU_POISON((void *)at, it->second.bytes);
    }
}

bool is_device_pointer(const void *p)
{
    return find(p) != nullptr;
}

void check_device_range(const void *p, size_t bytes, const char *what, const char *file, int line)
{
    const auto *a = find(p);
    if (!a)
        fail("%s at %s:%d: %p is not device memory (no live cudaMalloc holds it)", what, file, line, p);
    uintptr_t end = (uintptr_t)p + bytes, aend = a->first + a->second.bytes;
    if (end > aend || end < (uintptr_t)p)
        fail(
            "%s at %s:%d: %zu bytes from offset %zu run %zu bytes past the end of the %zu-byte device allocation "
            "made at %s:%d",
            what, file, line, bytes, (size_t)((uintptr_t)p - a->first), (size_t)(end - aend), a->second.bytes,
            a->second.file, a->second.line);
}

} // namespace emu

using namespace emu;

cudaError_t emu_cudaMalloc(const char *file, int line, void **p, size_t bytes)
{
    Table &t = table();
    watch_leaks();
    *p = nullptr;
    t.calls++;
    count_call(Count::malloc, file, line, "cudaMalloc", bytes);
    if (t.fail_at && (t.calls == t.fail_at || (t.fail_after && t.calls > t.fail_at))) {
        fprintf(stderr, "emu: cudaMalloc call %lu (%zu bytes at %s:%d) fails (EVOLVE_EMU_FAIL_MALLOC)\n", t.calls,
                bytes, file, line);
        return set_last_error(cudaErrorMemoryAllocation);
    }
    if (bytes > t.total - t.used)
        return set_last_error(cudaErrorMemoryAllocation);
    if (bytes == 0)
        return cudaSuccess;
    void *m = malloc(bytes);
    if (!m)
        return set_last_error(cudaErrorMemoryAllocation);
    memset(m, POISON, bytes);
    t.live[(uintptr_t)m] = Alloc{bytes, file, line, 0, false};
    t.lo = std::min(t.lo, (uintptr_t)m);
    t.hi = std::max(t.hi, (uintptr_t)m + bytes);
    t.used += bytes;
    EMU_POISON(m, bytes);
    *p = m;
    return cudaSuccess;
}

cudaError_t emu_cudaFree(const char *file, int line, void *p)
{
    Table &t = table();
    if (!p)
        return cudaSuccess;
    count_call(Count::free, file, line, "cudaFree", 0);
    auto it = t.live.find((uintptr_t)p);
    if (it == t.live.end())
        fail("cudaFree at %s:%d of %p, which is not the start of a live device allocation", file, line, p);
    EMU_UNPOISON(p, it->second.bytes);
    if (it->second.pointed)
        t.pointed.erase(std::find(t.pointed.begin(), t.pointed.end(), it->first));
    t.used -= it->second.bytes;
    t.live.erase(it);
    free(p);
    return cudaSuccess;
}

/* cudaMemcpy and cudaMemcpyAsync; `waits`: a synchronous copy to or from the host. */
static cudaError_t copy(const char *file, int line, void *dst, const void *src, size_t bytes, cudaMemcpyKind kind,
                        bool waits)
{
    if (kind == cudaMemcpyDefault) {
        bool d = is_device_pointer(dst), h = !is_device_pointer(src);
        kind = d ? (h ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToDevice)
                 : (h ? cudaMemcpyHostToHost : cudaMemcpyDeviceToHost);
    }
    bool dst_dev = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
    bool src_dev = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
    if (kind < cudaMemcpyHostToHost || kind > cudaMemcpyDeviceToDevice)
        fail("cudaMemcpy at %s:%d: kind %d is not a cudaMemcpyKind", file, line, (int)kind);
    if (bytes == 0)
        return cudaSuccess;
    count_call(dst_dev ? (src_dev ? Count::d2d : Count::h2d) : Count::d2h, file, line,
               waits ? "cudaMemcpy" : "cudaMemcpyAsync", bytes);
    if (waits && dst_dev != src_dev)
        count_call(Count::sync, file, line, "cudaMemcpy", 0);
    if (dst_dev)
        check_device_range(dst, bytes, "cudaMemcpy destination", file, line);
    else
        check_host_range(dst, bytes, "cudaMemcpy destination", file, line);
    if (src_dev)
        check_device_range(src, bytes, "cudaMemcpy source", file, line);
    else
        check_host_range(src, bytes, "cudaMemcpy source", file, line);
    DeviceScope scope{dst_dev ? dst : nullptr, src_dev ? src : nullptr};
    if (dst_dev && !src_dev)
        note_pointers(dst, src, bytes);
    memmove(dst, src, bytes);
    return cudaSuccess;
}

cudaError_t emu_cudaMemcpy(const char *file, int line, void *dst, const void *src, size_t bytes, cudaMemcpyKind kind)
{
    return copy(file, line, dst, src, bytes, kind, true);
}

cudaError_t emu_cudaMemcpyAsync(const char *file, int line, void *dst, const void *src, size_t bytes,
                                cudaMemcpyKind kind, cudaStream_t stream)
{
    if (stream)
        fail("cudaMemcpyAsync at %s:%d: only the legacy default stream (0) is emulated", file, line);
    return copy(file, line, dst, src, bytes, kind, false);
}

cudaError_t emu_cudaMallocHost(const char *file, int line, void **p, size_t bytes)
{
    watch_leaks();
    count_call(Count::host_alloc, file, line, "cudaMallocHost", bytes);
    *p = malloc(bytes ? bytes : 1);
    if (!*p)
        return set_last_error(cudaErrorMemoryAllocation);
    table().pinned[(uintptr_t)*p] = {file, line};
    return cudaSuccess;
}

cudaError_t emu_cudaFreeHost(const char *file, int line, void *p)
{
    if (!p)
        return cudaSuccess;
    count_call(Count::host_free, file, line, "cudaFreeHost", 0);
    if (!table().pinned.erase((uintptr_t)p))
        fail("cudaFreeHost at %s:%d of %p, which cudaMallocHost did not return (or was freed)", file, line, p);
    free(p);
    return cudaSuccess;
}

cudaError_t emu_cudaMemset(const char *file, int line, void *dst, int value, size_t bytes)
{
    if (bytes == 0)
        return cudaSuccess;
    count_call(Count::memset, file, line, "cudaMemset", bytes);
    check_device_range(dst, bytes, "cudaMemset", file, line);
    DeviceScope scope{dst};
    memset(dst, value, bytes);
    return cudaSuccess;
}

cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total_bytes)
{
    *free_bytes = table().total - table().used;
    *total_bytes = table().total;
    return cudaSuccess;
}
