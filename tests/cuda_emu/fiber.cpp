/* Fibers (fiber.h). */
#include "fiber.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sys/mman.h>
#include <unistd.h>

#if defined(EVOLVE_EMU_ASAN) /* the ASan build (emu.cmake); this file is not instrumented */
#define EMU_ASAN 1
#include <sanitizer/common_interface_defs.h>
#endif
#if defined(EVOLVE_EMU_TSAN) /* the TSan build (emu.cmake); this file is not instrumented */
#define EMU_TSAN 1
#include <sanitizer/tsan_interface.h>
#endif

#if !defined(__x86_64__)
#include <ucontext.h>
#endif

namespace emu
{

namespace
{

size_t page_size()
{
    return (size_t)sysconf(_SC_PAGESIZE);
}

} // namespace

#if defined(__x86_64__)
/* emu_fiber_switch(&from->sp, to->sp): pushes the callee-saved registers, the
 * SSE and x87 control words, saves rsp, loads the other stack and pops its. */
extern "C" void emu_fiber_switch(void **save, void *to);
asm(R"(
    .text
    .p2align 4
    .globl emu_fiber_switch
    .hidden emu_fiber_switch
    .type emu_fiber_switch, @function
emu_fiber_switch:
    pushq %rbp
    pushq %rbx
    pushq %r12
    pushq %r13
    pushq %r14
    pushq %r15
    subq $8, %rsp
    stmxcsr (%rsp)
    fnstcw 4(%rsp)
    movq %rsp, (%rdi)
    movq %rsi, %rsp
    ldmxcsr (%rsp)
    fldcw 4(%rsp)
    addq $8, %rsp
    popq %r15
    popq %r14
    popq %r13
    popq %r12
    popq %rbx
    popq %rbp
    ret
    .size emu_fiber_switch, .-emu_fiber_switch
)");
#endif

void fiber_create(Fiber *f, size_t stack_bytes, void (*entry)(void))
{
    size_t pg = page_size();
    size_t size = (stack_bytes + pg - 1) / pg * pg;
    void *m = mmap(nullptr, size + pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED) {
        fprintf(stderr, "emu: cannot map a %zu-byte fiber stack\n", size);
        abort();
    }
    mprotect(m, pg, PROT_NONE); /* the guard page: a stack overflow faults */
    f->stack = static_cast<char *>(m);
    f->map_size = size + pg;
    f->bottom = f->stack + pg;
    f->size = size;
#if defined(__x86_64__)
    {
        /* The frame emu_fiber_switch pops: control words, six registers, then
         * `ret` into entry with rsp = 8 mod 16, as after a call. */
        uintptr_t top = ((uintptr_t)(f->stack + pg + size)) & ~(uintptr_t)15;
        uint64_t *sp = reinterpret_cast<uint64_t *>(top);
        *--sp = 0;                  /* entry's return address: never used */
        *--sp = (uintptr_t)entry;   /* popped by ret */
        for (int i = 0; i < 6; i++) /* rbp rbx r12 r13 r14 r15 */
            *--sp = 0;
        *--sp = 0x037F00001F80ull; /* mxcsr 0x1F80 (low half), x87 control word 0x037F */
        f->sp = sp;
    }
#else
    {
        ucontext_t *uc = new ucontext_t;
        getcontext(uc);
        uc->uc_stack.ss_sp = f->stack + pg;
        uc->uc_stack.ss_size = size;
        uc->uc_link = nullptr;
        makecontext(uc, entry, 0);
        f->sp = uc;
    }
#endif
#if defined(EMU_TSAN)
    f->tsan = __tsan_create_fiber(0);
#endif
}

void fiber_destroy(Fiber *f)
{
    if (!f->stack)
        return;
#if defined(EMU_TSAN)
    __tsan_destroy_fiber(f->tsan);
#endif
#if !defined(__x86_64__)
    delete static_cast<ucontext_t *>(f->sp);
#endif
    munmap(f->stack, f->map_size);
    *f = Fiber();
}

void fiber_switch(Fiber *from, Fiber *to)
{
#if defined(EMU_TSAN)
    if (!from->tsan)
        from->tsan = __tsan_get_current_fiber();
    __tsan_switch_to_fiber(to->tsan, __tsan_switch_to_fiber_no_sync); /* CUDA's edges only: scheduler.cpp */
#endif
#if defined(EMU_ASAN)
    __sanitizer_start_switch_fiber(&from->asan_fake, to->bottom, to->size);
#endif
#if defined(__x86_64__)
    emu_fiber_switch(&from->sp, to->sp);
#else
    if (!from->sp)
        from->sp = new ucontext_t;
    swapcontext(static_cast<ucontext_t *>(from->sp), static_cast<ucontext_t *>(to->sp));
#endif
#if defined(EMU_ASAN)
    __sanitizer_finish_switch_fiber(from->asan_fake, nullptr, nullptr);
#endif
}

void fiber_started(Fiber *from)
{
#if defined(EMU_ASAN)
    const void *bottom = nullptr;
    size_t size = 0;
    __sanitizer_finish_switch_fiber(nullptr, &bottom, &size);
    if (!from->stack) {
        from->bottom = bottom;
        from->size = size;
    }
#endif
    (void)from;
}

#if defined(EMU_TSAN)
namespace
{

/* A sync object no earlier meeting used: 8-byte cells of an arena, which
 * is freed (TSan then forgets its objects) and made anew when used up. */
void *fresh_sync_object()
{
    enum { ARENA = 64 * 1024 };
    static char *arena;
    static size_t used = ARENA;
    if (used == ARENA) {
        free(arena);
        arena = static_cast<char *>(malloc(ARENA));
        if (!arena) {
            fprintf(stderr, "emu: out of host memory\n");
            abort();
        }
        used = 0;
    }
    used += 8;
    return arena + used - 8;
}

} // namespace
#endif

void fiber_meet(Fiber *const *f, size_t n)
{
#if defined(EMU_TSAN)
    void *self = __tsan_get_current_fiber(), *sync = fresh_sync_object();
    for (size_t i = 0; i < n; i++) {
        __tsan_switch_to_fiber(f[i]->tsan, __tsan_switch_to_fiber_no_sync);
        __tsan_release(sync);
    }
    for (size_t i = 0; i < n; i++) {
        __tsan_switch_to_fiber(f[i]->tsan, __tsan_switch_to_fiber_no_sync);
        __tsan_acquire(sync);
    }
    __tsan_switch_to_fiber(self, __tsan_switch_to_fiber_no_sync);
#else
    (void)f, (void)n;
#endif
}

} // namespace emu
