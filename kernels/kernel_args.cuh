/* The structs kernels take by value, and the fields of each that hold device
 * pointers. Under the emulation (tests/cuda_emu) every launch checks those
 * pointers as it checks pointer arguments: a host pointer left in a struct
 * faults on a GPU. A struct argument declared neither way fails the emu
 * build. For nvcc both macros are empty: nothing is compiled. A struct made
 * in one .cu file is declared there, after its definition. */
#ifndef EVOLVE_KERNEL_ARGS_CUH
#define EVOLVE_KERNEL_ARGS_CUH

#include "fitness/dom_cells.h"
#include "fitness/dominance_cell.h"
#include "fitness/lattice_shape.h"
#include "fitness/tables.h"
#include "fitness/topk.h"
#include "operators/breed_ctx.h"

/* KERNEL_ARG_POINTERS(T, field, ...): T's fields holding device pointers
 * (pointers, arrays of them, or structs declared here in turn);
 * KERNEL_ARG_PLAIN(T): T holds no pointer. */
#if defined(EVOLVE_CUDA_EMU)
#define KERNEL_ARG_POINTERS(T, ...) EMU_ARG_POINTERS(T, __VA_ARGS__)
#define KERNEL_ARG_PLAIN(T) EMU_ARG_PLAIN(T)
#else
#define KERNEL_ARG_POINTERS(T, ...)
#define KERNEL_ARG_PLAIN(T)
#endif

KERNEL_ARG_POINTERS(tables_more_t, hit, q, lf)
KERNEL_ARG_POINTERS(fit_tables_t, cells, hit_t, hit_s, q_t, q_s, q_log, lf_t, lf_s, lf_log, fold, more)
KERNEL_ARG_POINTERS(dom_cells_t, n, sum, pos, sq_lo, sq_hi, lsum, ruin)
KERNEL_ARG_PLAIN(tables_exits_t)
KERNEL_ARG_PLAIN(dom_plan_t)
KERNEL_ARG_PLAIN(lattice_shape_t)
KERNEL_ARG_PLAIN(topk_bar_t)
KERNEL_ARG_PLAIN(breed_ctx_t)

#endif
