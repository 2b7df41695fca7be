/* What `evolve trades` needs of each signal strategy, behind one table, so
 * the command (cli/cmd_signals.c) is written once for all of them: a genome's
 * size, defaults and NAME=VALUE settings, its config check, the shared store
 * of indicator series, and the trades CSV's header and rows. */
#ifndef EVOLVE_CLI_TRADES_KINDS_H
#define EVOLVE_CLI_TRADES_KINDS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/status.h"
#include "signals/bars.h"
#include "signals/se_config.h"

typedef struct {
    const char *name;           /* strategy.type */
    size_t genome_size;         /* bytes of one genome (se_params_t, atc_params_t) */
    const char *header;         /* the trades CSV's first line */
    const char *metrics_header; /* NULL: no --metrics */
    void (*defaults)(void *genome);
    ev_status (*set)(void *genome, const char *name, size_t name_len, const char *value, size_t value_len,
                     ev_error *err);
    void (*base)(const se_config_t *c, void *genome);
    ev_status (*config_check)(const se_config_t *c, const void *genome, ev_error *err);
    ev_status (*check)(const void *genome, ev_error *err); /* feasibility without a config; NULL: none */
    ev_status (*store_create)(const bars_t *b, void **store, ev_error *err);
    void (*store_free)(void *store);
    int64_t (*computed)(const void *store);
    int64_t (*lookups)(const void *store);
    /* Backtests genome g and writes its trade rows (outcome_pct less
     * cost_pct, objective.cost_pct) and its metrics row when mout is not
     * NULL; *n: the trades. */
    ev_status (*write)(void *store, const bars_t *b, int64_t g, const void *genome, double cost_pct, FILE *out,
                       FILE *mout, int64_t *n, ev_error *err);
} trades_kind_t;

/* The table entry of a strategy.type (STRATEGY_*), or by name (NULL when
 * unknown). */
const trades_kind_t *trades_kind_of(int type);
const trades_kind_t *trades_kind_named(const char *name);

/* The trades and metrics headers of every strategy (outputs `evolve trades`
 * wrote, io/output_guard.h's marks) into out, NULL-terminated when there is
 * room; the count. */
#define TRADES_KIND_MARKS_MAX 8
size_t trades_kind_marks(const char **out, size_t cap);

#endif
