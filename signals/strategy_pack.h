/* A chunk of prepared genomes packed for a device (docs/signals.md
 * "Backends"): the distinct series the chunk reads, each once, laid out in one
 * arena, each genome's slots as offsets into it and its materialised
 * parameters. The series stay the host store's doubles (computed once, by
 * `prepare`); a device copies the arena and runs the strategy's EV_HD backtest
 * over it, one thread per genome (kernels/strategy_device.cu), and hands back
 * each genome's outcomes in percent and entry bars, which become fitness on the host through
 * strategy_result, the CPU's own function: CPU and device fitness are equal
 * bit for bit when the outcomes are.
 *
 * The packed chunk runner drives it: a chunk's feasible genomes in jobs of at
 * most `batch` genomes (one job per chunk unless memory is short: a job that
 * runs out of memory is retried smaller, as kernels/mem_retry.h says), and a
 * host runner that executes a packed job on the CPU through the strategy's
 * view_outcomes: the device path's test twin (runs/backend_strategy.c). */
#ifndef EVOLVE_SIGNALS_STRATEGY_PACK_H
#define EVOLVE_SIGNALS_STRATEGY_PACK_H

#include <stddef.h>
#include <stdint.h>

#include "common/status.h"
#include "signals/strategy.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Offsets in the arena are multiples of this. */
#define STRATEGY_PACK_ALIGN 64u

typedef struct {
    int64_t n_bars;
    int32_t kind;          /* strategy_ops_t.device_kind */
    int32_t n_slots;       /* per genome */
    size_t params_bytes;   /* per genome */
    uint32_t count;        /* genomes */
    uint64_t *genome;      /* [count]: the genome's index in its batch */
    uint64_t *slot_off;    /* [count][n_slots]: arena offset of each slot's buffer */
    unsigned char *params; /* [count][params_bytes] */
    uint32_t n_bufs;       /* distinct buffers */
    const void **buf;      /* [n_bufs]: host addresses (the store's) */
    uint64_t *buf_bytes;   /* [n_bufs] */
    uint64_t *buf_off;     /* [n_bufs]: arena offsets */
    uint64_t arena_bytes;
} strategy_pack_t;

/* Packs genomes which[0 .. count) of a batch of n (SoA genes), all prepared
 * and feasible. EV_EINTERNAL when one was not prepared. */
ev_status strategy_pack_build(strategy_pack_t *pk, strategy_t *s, const uint16_t *genes, uint64_t n,
                              const uint64_t *which, uint32_t count, ev_error *err);
void strategy_pack_free(strategy_pack_t *pk);

/* What executes packed jobs. run: counts[pk->count] trades per genome, *pct
 * (malloc'ed; NULL when there are no trades) their outcomes in percent and
 * *bar (likewise) their entry bars, genome after genome, in trade order. smaller: the job size to retry with
 * after run failed with EV_ENOMEM at `batch` genomes (0: give up), or NULL. */
typedef struct strategy_packed_runner strategy_packed_runner_t;
struct strategy_packed_runner {
    ev_status (*run)(strategy_packed_runner_t *r, const strategy_pack_t *pk, int64_t *counts, double **pct,
                     int64_t **bar, ev_error *err);
    uint64_t (*smaller)(strategy_packed_runner_t *r, uint64_t batch);
    void *ctx;
    uint64_t batch; /* genomes per job, at most (shrinks after running out of memory) */
    uint64_t jobs;  /* jobs run (statistics) */
};

/* A strategy_chunk_fn (signals/strategy.h) over ctx = a strategy_packed_runner_t. */
ev_status strategy_pack_chunk(void *ctx, strategy_t *s, const strategy_score_t *sc, const uint16_t *genes, uint64_t n,
                              uint64_t from, uint64_t to, const uint8_t *feasible, eval_result_t *out, ev_error *err);

/* The host runner of strategy s: a packed job on the CPU (the arena copied,
 * then every genome's view_outcomes over the copy), serially. */
void strategy_pack_host_runner(strategy_packed_runner_t *r, strategy_t *s);

#ifdef __cplusplus
}
#endif
#endif
