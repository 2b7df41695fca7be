/* The genomes evolve trades backtests: --set NAME=VALUE, a --genomes CSV, a run file's --run/--rank. */
#ifndef EVOLVE_TRADES_GENOMES_H
#define EVOLVE_TRADES_GENOMES_H

#include <stdint.h>

#include "common/status.h"
#include "runs/trades_kinds.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The --set arguments in order (v[n], the strings argv's). */
typedef struct {
    const char **v;
    int n, cap;
} sets_t;

/* An OPT_CALL for --set: keeps value in the sets_t at dest, checked later
 * (a config or --strategy may come after it). */
ev_status trades_add_set(const char *name, const char *value, void *dest, ev_error *err);
/* One NAME=VALUE onto genome g of strategy k; EV_EUSAGE when bad. */
ev_status trades_apply_set(const trades_kind_t *k, void *g, const char *a, ev_error *err);
/* The genomes of a CSV whose header names parameters, the rest from base:
 * *out[*n] (k->genome_size bytes each; free it). */
ev_status trades_read_genomes(const trades_kind_t *k, const char *path, const void *base, char **out, int64_t *n,
                              ev_error *err);
/* The run's genome at rank onto genome g (before --set). */
ev_status trades_apply_run_genome(const trades_kind_t *k, const char *run, uint64_t rank, void *g, ev_error *err);

#ifdef __cplusplus
}
#endif
#endif
