/* Fibers for the emulated CUDA threads: a stack and a saved context,
 * switched by hand (x86-64: callee-saved registers and the stack pointer,
 * ~0.1 us; ucontext elsewhere), with AddressSanitizer's and
 * ThreadSanitizer's fiber annotations so both keep working across switches. */
#ifndef EVOLVE_CUDA_EMU_FIBER_H
#define EVOLVE_CUDA_EMU_FIBER_H

#include <cstddef>

namespace emu
{

struct Fiber {
    void *sp = nullptr;           /* saved stack pointer (x86-64) or ucontext_t * */
    char *stack = nullptr;        /* mapping, guard page first; nullptr for the scheduler's own stack */
    size_t map_size = 0;          /* bytes mapped */
    const void *bottom = nullptr; /* the usable stack (for the scheduler's: learnt at the first switch) */
    size_t size = 0;
    void *asan_fake = nullptr; /* AddressSanitizer's fake stack while switched out */
    void *tsan = nullptr;      /* ThreadSanitizer's fiber */
};

/* A new fiber whose first switch-in calls entry() (which must never return). */
void fiber_create(Fiber *f, size_t stack_bytes, void (*entry)(void));
void fiber_destroy(Fiber *f);

/* Saves the running context into from and resumes to. */
void fiber_switch(Fiber *from, Fiber *to);

/* Called first thing by every entry(): completes the switch from `from`
 * that started it (and learns where from's stack is). */
void fiber_started(Fiber *from);

/* ThreadSanitizer: the n fibers meet (a barrier or a warp collective
 * completes): each one's clock is released into a sync object that no other
 * meeting uses, then acquired by each, so the meeting orders exactly what
 * its members did before it against what they do after it. Called by the
 * scheduler between switches. Nothing without TSan. */
void fiber_meet(Fiber *const *f, size_t n);

} // namespace emu

#endif
