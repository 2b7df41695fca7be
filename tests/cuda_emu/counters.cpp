/* The emulated runtime's counters (tests/cuda_emu/counters.h): each counted
 * call adds to one field under a lock (the host may call the runtime from
 * several threads) and is traced when a trace file is set: by the test
 * (emu_counters_trace), or for any run by EVOLVE_EMU_TRACE=FILE (appended to:
 * which kernels a test launches, on how many blocks and threads). */
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include "counters.h"
#include "internal.h"

namespace
{

std::mutex g_mu;
emu_counters_t g_counts;
FILE *g_trace;
bool g_env_read; /* EVOLVE_EMU_TRACE looked at (once, at the first counted call) */

/* The trace file (under g_mu): the test's, else EVOLVE_EMU_TRACE's. */
FILE *trace_file()
{
    if (!g_env_read) {
        g_env_read = true;
        const char *path = getenv("EVOLVE_EMU_TRACE");
        if (path && *path && !g_trace) {
            if (!(g_trace = fopen(path, "a")))
                emu::fail("EVOLVE_EMU_TRACE=%s: cannot open it for appending: %s", path, strerror(errno));
            setvbuf(g_trace, nullptr, _IOLBF, 0); /* a line a write: several processes (evolve's runs) append */
        }
    }
    return g_trace;
}

uint64_t *field(emu::Count kind)
{
    switch (kind) {
    case emu::Count::launch: return &g_counts.launches;
    case emu::Count::cub: return &g_counts.cub_calls;
    case emu::Count::h2d: return &g_counts.copies_h2d;
    case emu::Count::d2h: return &g_counts.copies_d2h;
    case emu::Count::d2d: return &g_counts.copies_d2d;
    case emu::Count::memset: return &g_counts.memsets;
    case emu::Count::sync: return &g_counts.syncs;
    case emu::Count::malloc: return &g_counts.mallocs;
    case emu::Count::free: return &g_counts.frees;
    case emu::Count::host_alloc: return &g_counts.host_allocs;
    case emu::Count::host_free: return &g_counts.host_frees;
    }
    return nullptr;
}

const char *kind_name(emu::Count kind)
{
    static const char *const names[] = {"launch", "cub",    "h2d",  "d2h",        "d2d",      "memset",
                                        "sync",   "malloc", "free", "host_alloc", "host_free"};
    return names[(int)kind];
}

} // namespace

namespace emu
{

void count_call(Count kind, const char *file, int line, const char *name, uint64_t bytes)
{
    std::lock_guard<std::mutex> lock(g_mu);
    (*field(kind))++;
    if (kind == Count::h2d)
        g_counts.bytes_h2d += bytes;
    else if (kind == Count::d2h)
        g_counts.bytes_d2h += bytes;
    else if (kind == Count::d2d)
        g_counts.bytes_d2d += bytes;
    if (FILE *f = trace_file())
        fprintf(f, "%-10s %s:%d %s %llu\n", kind_name(kind), file ? file : "?", line, name ? name : "-",
                (unsigned long long)bytes);
}

void count_launch(const char *file, int line, const char *kernel, dim3 grid, dim3 block)
{
    std::lock_guard<std::mutex> lock(g_mu);
    g_counts.launches++;
    if (FILE *f = trace_file())
        fprintf(f, "%-10s %s:%d %s 0 grid %ux%ux%u block %ux%ux%u\n", kind_name(Count::launch), file ? file : "?", line,
                kernel ? kernel : "-", grid.x, grid.y, grid.z, block.x, block.y, block.z);
}

} // namespace emu

extern "C" void emu_counters_get(emu_counters_t *c)
{
    std::lock_guard<std::mutex> lock(g_mu);
    *c = g_counts;
}

extern "C" void emu_counters_reset(void)
{
    std::lock_guard<std::mutex> lock(g_mu);
    g_counts = emu_counters_t{};
}

extern "C" void emu_counters_trace(FILE *f)
{
    std::lock_guard<std::mutex> lock(g_mu);
    g_trace = f;
}
