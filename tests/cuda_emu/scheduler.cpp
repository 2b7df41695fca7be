/* Kernel execution (device.h): blocks one after another in the schedule's
 * order; in a block each CUDA thread is a fiber that runs until it reaches a
 * barrier or a warp collective, or ends. When no thread can run, waiting
 * collectives whose lanes have all arrived complete, then a barrier that
 * every thread reached; anything else is reported, naming the threads. */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <string>

#include "fiber.h"
#include "internal.h"

/* ThreadSanitizer sees the fibers as threads and, switches being unsynchronised,
 * only CUDA's happens-before edges: launch -> every thread, every thread ->
 * the launch's end, and each barrier or warp collective, as it completes, from
 * its members' arrivals to their leaving it (fiber_meet: a sync object of its
 * own, so one barrier does not order what lies between two others). The
 * i-th block run gives thread t fiber (t + i) mod n, so the same threadIdx of
 * two blocks fewer than n apart in the run are distinct threads. This file
 * itself is not instrumented (emu.cmake). */
#if defined(EVOLVE_EMU_TSAN)
#include <sanitizer/tsan_interface.h>
#define EMU_RELEASE(addr) __tsan_release((void *)(addr))
#define EMU_ACQUIRE(addr) __tsan_acquire((void *)(addr))
#else
#define EMU_RELEASE(addr) ((void)(addr))
#define EMU_ACQUIRE(addr) ((void)(addr))
#endif

namespace emu
{

uint3 g_thread_idx, g_block_idx;
dim3 g_block_dim, g_grid_dim;

namespace
{

constexpr unsigned MAX_THREADS = 1024, MAX_SHARED = 48 * 1024, WARP = 32;

enum class State { runnable, barrier, collective, done };

struct Thread {
    State state;
    const char *file;
    int line;
    Op op;
    uint32_t mask;
    uint64_t value;
    uint32_t result;
    unsigned delta;    /* __shfl_down_sync's lane offset */
    uint64_t result64; /* __shfl_down_sync's value */
};

struct Block {
    const LaunchSite *site;
    void (*body)(void *);
    void *ctx;
    unsigned n;   /* threads */
    unsigned cur; /* the running thread */
    unsigned rot; /* thread t runs on fiber (t + rot) % n */
    std::vector<Thread> th;
    std::map<SharedSlot *, void *> shared;
    size_t shared_bytes;
};

Fiber g_sched;
char g_launch_start, g_launch_end; /* ThreadSanitizer's sync objects of a launch */
/* The fibers that run a block's threads; a deque keeps them in place. Under TSan each fiber is a thread,
 * so the i-th block of a launch turns the mapping by i (Block::rot): a race between two blocks on the same
 * threadIdx is then one between two threads. (Two sets of fibers, alternating, did so for adjacent blocks
 * only, and doubled TSan's vector clocks and with them the time of its every barrier.) */
#if defined(EVOLVE_EMU_TSAN)
constexpr bool ROTATE = true;
#else
constexpr bool ROTATE = false;
#endif
std::deque<Fiber> g_fibers;
std::vector<Fiber *> g_members; /* a meeting's fibers (fiber_meet) */
Block *g_block;

const char *op_name(Op op)
{
    switch (op) {
    case Op::ballot: return "__ballot_sync";
    case Op::any: return "__any_sync";
    case Op::all: return "__all_sync";
    case Op::match_any: return "__match_any_sync";
    case Op::syncwarp: return "__syncwarp";
    case Op::shfl_down: return "__shfl_down_sync";
    }
    return "?";
}

[[noreturn]] void block_fail(const char *what)
{
    const LaunchSite *s = g_block->site;
    fail("kernel %s (launched at %s:%d), block (%u,%u,%u) of %u threads: %s", s->kernel, s->file, s->line,
         g_block_idx.x, g_block_idx.y, g_block_idx.z, g_block->n, what);
}

/* "3, 5-9" for the set bits of a lane mask, offset by base. */
std::string lanes(uint32_t mask, unsigned base)
{
    std::string out;
    for (unsigned i = 0; i < WARP; i++) {
        if (!(mask >> i & 1))
            continue;
        unsigned j = i;
        while (j + 1 < WARP && (mask >> (j + 1) & 1))
            j++;
        char buf[32];
        if (j > i)
            snprintf(buf, sizeof buf, "%s%u-%u", out.empty() ? "" : ", ", base + i, base + j);
        else
            snprintf(buf, sizeof buf, "%s%u", out.empty() ? "" : ", ", base + i);
        out += buf;
        i = j;
    }
    return out;
}

/* Where each thread waits, grouped: the deadlock report. */
std::string waiting(void)
{
    std::string out;
    const Block *b = g_block;
    for (unsigned t = 0; t < b->n;) {
        const Thread &a = b->th[t];
        unsigned u = t + 1;
        while (u < b->n && b->th[u].state == a.state && b->th[u].line == a.line && b->th[u].file == a.file &&
               (a.state != State::collective || b->th[u].mask == a.mask))
            u++;
        char buf[512];
        if (a.state == State::done)
            snprintf(buf, sizeof buf, "\n  threads %u-%u: exited", t, u - 1);
        else if (a.state == State::barrier)
            snprintf(buf, sizeof buf, "\n  threads %u-%u: at __syncthreads (%s:%d)", t, u - 1, a.file, a.line);
        else
            snprintf(buf, sizeof buf, "\n  threads %u-%u: at %s (%s:%d), mask 0x%08x", t, u - 1, op_name(a.op), a.file,
                     a.line, a.mask);
        out += buf;
        t = u;
    }
    return out;
}

Fiber *fiber_of(unsigned t)
{
    return &g_fibers[(t + g_block->rot) % g_block->n];
}

void set_indices(unsigned t)
{
    g_thread_idx.x = t % g_block_dim.x;
    g_thread_idx.y = t / g_block_dim.x % g_block_dim.y;
    g_thread_idx.z = t / (g_block_dim.x * g_block_dim.y);
}

/* The running thread gives the CPU back to the scheduler. */
void yield(void)
{
    fiber_switch(fiber_of(g_block->cur), &g_sched);
}

void fiber_main(void)
{
    fiber_started(&g_sched);
    for (;;) {
        Block *b = g_block;
        unsigned t = b->cur;
        EMU_ACQUIRE(&g_launch_start);
        b->body(b->ctx);
        EMU_RELEASE(&g_launch_end);
        b->th[t].state = State::done;
        yield();
    }
}

void resume(unsigned t)
{
    g_block->cur = t;
    set_indices(t);
    fiber_switch(&g_sched, fiber_of(t));
}

/* Completes the collectives whose named lanes have all arrived; true when one did. */
bool resolve_collectives(void)
{
    Block *b = g_block;
    bool any = false;
    for (unsigned w0 = 0; w0 < b->n; w0 += WARP) {
        unsigned n = b->n - w0 < WARP ? b->n - w0 : WARP;
        for (unsigned l = 0; l < n; l++) {
            Thread &a = b->th[w0 + l];
            if (a.state != State::collective)
                continue;
            uint32_t exited = 0, elsewhere = 0, match = 0;
            for (unsigned k = 0; k < n; k++) {
                const Thread &o = b->th[w0 + k];
                if (!(a.mask >> k & 1))
                    continue;
                if (o.state == State::done)
                    exited |= 1u << k;
                else if (o.state != State::collective)
                    elsewhere |= 1u << k;
                else if (o.op != a.op || o.mask != a.mask || o.line != a.line || o.file != a.file)
                    match |= 1u << k;
            }
            char msg[1024];
            if (exited) {
                snprintf(msg, sizeof msg,
                         "%s at %s:%d with mask 0x%08x names threads %s, which have exited: a lane that left "
                         "cannot join a collective (only the active lanes may be named)",
                         op_name(a.op), a.file, a.line, a.mask, lanes(exited, w0).c_str());
                block_fail(msg);
            }
            if (match) {
                const Thread &o = b->th[w0 + (unsigned)__builtin_ctz(match)];
                snprintf(msg, sizeof msg,
                         "thread %u is at %s (%s:%d, mask 0x%08x) but threads %s, named by its mask, are at %s "
                         "(%s:%d, mask 0x%08x)",
                         w0 + l, op_name(a.op), a.file, a.line, a.mask, lanes(match, w0).c_str(), op_name(o.op), o.file,
                         o.line, o.mask);
                block_fail(msg);
            }
            if (elsewhere)
                continue; /* they may come once a barrier is released; else a deadlock */
            uint32_t ballot = 0;
            g_members.clear();
            for (unsigned k = 0; k < n; k++) {
                if ((a.mask >> k & 1) && b->th[w0 + k].value)
                    ballot |= 1u << k;
                if (a.mask >> k & 1)
                    g_members.push_back(fiber_of(w0 + k));
            }
            fiber_meet(g_members.data(), g_members.size());
            for (unsigned k = 0; k < n; k++) {
                Thread &o = b->th[w0 + k];
                if (!(a.mask >> k & 1))
                    continue;
                switch (a.op) {
                case Op::ballot: o.result = ballot; break;
                case Op::any: o.result = ballot != 0; break;
                case Op::all: o.result = ballot == a.mask; break;
                case Op::syncwarp: o.result = 0; break;
                case Op::match_any:
                    o.result = 0;
                    for (unsigned m = 0; m < n; m++)
                        if ((a.mask >> m & 1) && b->th[w0 + m].value == o.value)
                            o.result |= 1u << m;
                    break;
                case Op::shfl_down: {
                    const unsigned src = k + o.delta;
                    if (src < WARP && !(a.mask >> src & 1)) {
                        snprintf(msg, sizeof msg,
                                 "__shfl_down_sync at %s:%d: thread %u reads lane %u, which its mask 0x%08x does not "
                                 "name (an undefined value on a GPU)",
                                 a.file, a.line, w0 + k, src, a.mask);
                        block_fail(msg);
                    }
                    o.result64 = src < n ? b->th[w0 + src].value : o.value;
                    break;
                }
                }
                o.state = State::runnable;
            }
            any = true;
        }
    }
    return any;
}

/* Releases a barrier every thread of the block reached; true when it did. */
bool resolve_barrier(void)
{
    Block *b = g_block;
    const Thread *first = nullptr;
    unsigned at = 0, done = 0;
    for (unsigned t = 0; t < b->n; t++) {
        const Thread &a = b->th[t];
        if (a.state == State::barrier) {
            if (!first)
                first = &a;
            else if (a.line != first->line || a.file != first->file)
                block_fail(("threads wait at different __syncthreads:" + waiting()).c_str());
            at++;
        } else if (a.state == State::done) {
            done++;
        }
    }
    if (!at || at + done != b->n)
        return false;
    if (done)
        block_fail(("__syncthreads reached by part of the block (the others have exited):" + waiting()).c_str());
    g_members.clear();
    for (unsigned t = 0; t < b->n; t++) {
        b->th[t].state = State::runnable;
        g_members.push_back(fiber_of(t));
    }
    fiber_meet(g_members.data(), g_members.size());
    return true;
}

void run_block(std::vector<uint64_t> &order)
{
    Block *b = g_block;
    b->th.assign(b->n, Thread{State::runnable, nullptr, 0, Op::ballot, 0, 0, 0, 0, 0});
    b->shared_bytes = 0;
    for (;;) {
        bool left = false;
        schedule_order(b->n, order);
        for (uint64_t i = 0; i < b->n; i++)
            if (b->th[order[i]].state == State::runnable)
                resume((unsigned)order[i]);
        for (unsigned t = 0; t < b->n && !left; t++)
            left = b->th[t].state != State::done;
        if (!left)
            break;
        if (resolve_collectives() || resolve_barrier())
            continue;
        block_fail(("deadlock: no thread can go on:" + waiting()).c_str());
    }
    EMU_ACQUIRE(&g_launch_end); /* the block's threads are done with its shared memory */
    for (auto &s : b->shared)
        free(s.second);
    b->shared.clear();
}

bool geometry_ok(const LaunchSite &site, dim3 grid, dim3 block)
{
    uint64_t threads = (uint64_t)block.x * block.y * block.z;
    const char *why = nullptr;
    cudaError_t e = cudaErrorInvalidConfiguration;
    if (!grid.x || !grid.y || !grid.z || grid.x > 0x7FFFFFFFu || grid.y > 65535 || grid.z > 65535)
        why = "grid dimensions out of range (x 1..2^31-1, y and z 1..65535)";
    else if (!threads || threads > MAX_THREADS || block.z > 64)
        why = "block dimensions out of range (1..1024 threads, z <= 64)";
    else if (site.bounds && threads > site.bounds) {
        why = "more threads per block than the kernel's __launch_bounds__";
        e = cudaErrorLaunchOutOfResources;
    }
    if (!why)
        return true;
    fprintf(stderr, "emu: kernel %s launched at %s:%d with grid (%u,%u,%u), block (%u,%u,%u): %s\n", site.kernel,
            site.file, site.line, grid.x, grid.y, grid.z, block.x, block.y, block.z, why);
    set_last_error(e);
    return false;
}

size_t stack_bytes(void)
{
    const char *s = getenv("EVOLVE_EMU_STACK_KIB");
    size_t kib = s ? strtoull(s, nullptr, 10) : 0;
    return (kib ? kib : 256) * 1024;
}

} // namespace

void syncthreads(const char *file, int line)
{
    if (!g_block)
        fail("__syncthreads at %s:%d outside a kernel", file, line);
    Thread &a = g_block->th[g_block->cur];
    a.state = State::barrier;
    a.file = file;
    a.line = line;
    yield(); /* the scheduler's fiber_meet is the barrier's edge */
}

static Thread &arrive(Op op, uint32_t mask, uint64_t value, unsigned delta, const char *file, int line);

uint32_t collective(Op op, uint32_t mask, uint64_t value, const char *file, int line)
{
    return arrive(op, mask, value, 0, file, line).result;
}

uint64_t shuffle_down(uint32_t mask, uint64_t value, unsigned delta, const char *file, int line)
{
    return arrive(Op::shfl_down, mask, value, delta, file, line).result64;
}

/* The running thread joins a collective and waits until it completes. */
static Thread &arrive(Op op, uint32_t mask, uint64_t value, unsigned delta, const char *file, int line)
{
    if (!g_block)
        fail("%s at %s:%d outside a kernel", op_name(op), file, line);
    Block *b = g_block;
    unsigned t = b->cur, w0 = t / WARP * WARP, lane = t % WARP;
    unsigned n = b->n - w0 < WARP ? b->n - w0 : WARP;
    uint32_t present = n == WARP ? 0xFFFFFFFFu : (1u << n) - 1;
    char msg[512];
    if (!(mask >> lane & 1)) {
        snprintf(msg, sizeof msg, "thread %u calls %s at %s:%d with mask 0x%08x, which does not name its own lane", t,
                 op_name(op), file, line, mask);
        block_fail(msg);
    }
    if (mask & ~present) {
        snprintf(msg, sizeof msg, "%s at %s:%d with mask 0x%08x names threads %s, which the block does not have",
                 op_name(op), file, line, mask, lanes(mask & ~present, w0).c_str());
        block_fail(msg);
    }
    Thread &a = b->th[t];
    a.state = State::collective;
    a.op = op;
    a.mask = mask;
    a.value = value;
    a.delta = delta;
    a.file = file;
    a.line = line;
    yield(); /* the scheduler's fiber_meet is the collective's edge */
    return b->th[t];
}

void *shared_alloc(SharedSlot *slot, size_t bytes, const char *file, int line)
{
    if (!g_block)
        fail("__shared__ array at %s:%d outside a kernel", file, line);
    Block *b = g_block;
    auto it = b->shared.find(slot);
    if (it != b->shared.end()) {
        EMU_ACQUIRE(it->second); /* the poison written by the thread that allocated it */
        return it->second;
    }
    b->shared_bytes += bytes;
    if (b->shared_bytes > MAX_SHARED) {
        char msg[256];
        snprintf(msg, sizeof msg, "static __shared__ memory of %zu bytes (at %s:%d) is over 48 KiB", b->shared_bytes,
                 file, line);
        block_fail(msg);
    }
    void *p = malloc(bytes);
    if (!p)
        fail("out of host memory");
    memset(p, POISON, bytes);
    EMU_RELEASE(p);
    b->shared[slot] = p;
    return p;
}

bool execute(const LaunchSite &site, dim3 grid, dim3 block, void (*body)(void *), void *ctx, const void *const *ptrs,
             size_t n)
{
    if (g_block)
        fail("kernel %s launched at %s:%d from device code", site.kernel, site.file, site.line);
    if (!geometry_ok(site, grid, block))
        return false;
    static const size_t stack = stack_bytes();
    Block b{&site, body, ctx, block.x * block.y * block.z, 0, 0, {}, {}, 0};
    while (g_fibers.size() < b.n) {
        g_fibers.emplace_back();
        fiber_create(&g_fibers.back(), stack, fiber_main);
    }
    std::vector<const void *> reach(ptrs, ptrs + n); /* and what device structs may point to */
    add_pointed_allocations(reach);
    DeviceScope scope(reach.data(), reach.size());
    std::vector<uint64_t> blocks, order;
    uint64_t nblocks = (uint64_t)grid.x * grid.y * grid.z;
    schedule_order(nblocks, blocks);
    g_block = &b;
    g_block_dim = block;
    g_grid_dim = grid;
    EMU_RELEASE(&g_launch_start);
    for (uint64_t i = 0; i < nblocks; i++) {
        uint64_t k = blocks[i];
        g_block_idx.x = (unsigned)(k % grid.x);
        g_block_idx.y = (unsigned)(k / grid.x % grid.y);
        g_block_idx.z = (unsigned)(k / ((uint64_t)grid.x * grid.y));
        b.rot = ROTATE ? (unsigned)(i % b.n) : 0;
        run_block(order);
    }
    EMU_ACQUIRE(&g_launch_end);
    g_block = nullptr;
    return true;
}

void check_device_pointer(const LaunchSite &site, int arg, const char *field, const void *p)
{
    if (p && !is_device_pointer(p))
        fail("kernel %s launched at %s:%d: argument %d%s%s (%p) is not device memory (no live cudaMalloc holds it)",
             site.kernel, site.file, site.line, arg + 1, field ? ", field " : "", field ? field : "", p);
}

} // namespace emu
