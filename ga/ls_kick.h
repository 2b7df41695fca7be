/* Local search's kicks (docs/ga.md "Local search", local_search.kicks): a
 * climb that starts near the hall of fame's best instead of anywhere. The
 * best genome with a few genes redrawn crosses the gaps between neighbouring
 * peaks that a depth-2 climb cannot (bench/suite s11: peaks 5-7 genes apart
 * sharing one filter region). */
#ifndef EVOLVE_LS_KICK_H
#define EVOLVE_LS_KICK_H

#include <stdint.h>

#include "operators/genome.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A kick's draws start here in their RANDOM stream counters: past any
 * genome_random's (draw k = gene k < GA_MAX_GENES), so a kick may share the
 * counters of a random start without reusing a draw. */
#define LS_KICK_DRAW0 GA_MAX_GENES

/* Redraws k genes of genes[n_genes] in place, k uniform in [k_min, k_max]
 * (at most the genes with two values or more), each to a value other than
 * its own, from stream RANDOM at (generation, individual), draws from
 * LS_KICK_DRAW0: draw 0 picks k, then per moved gene i draw 1 + 2i picks it
 * (uniform among the movable genes not moved yet, in gene order) and draw
 * 2 + 2i its new value (uniform among the n - 1 others, in value order).
 * Returns k. Deterministic: a pure function of its arguments. */
uint32_t ls_kick(philox_key_t key, uint32_t generation, uint32_t individual, int32_t n_genes, const uint32_t *n_values,
                 uint32_t k_min, uint32_t k_max, uint16_t *genes);

#ifdef __cplusplus
}
#endif
#endif
