/* What the per-child operators need to know, decided once on the host from
 * the GA settings and the lattice: a POD copied to the device as is.
 * Probabilities arrive as integer thresholds (rng_threshold), so no backend
 * compares a double when it draws. */
#ifndef EVOLVE_BREED_CTX_H
#define EVOLVE_BREED_CTX_H

#include <stdint.h>

#include "common/hd.h"
#include "common/status.h"
#include "operators/ga_settings.h"
#include "operators/genome.h"

typedef struct {
    uint64_t seed;        /* the Philox key */
    uint32_t population;  /* individuals in all islands */
    uint32_t islands;     /* island i holds individuals [i * island_size, (i + 1) * island_size) */
    uint32_t island_size; /* population / islands (config: a divisor) */
    int32_t n_genes;
    uint32_t n_values[GA_MAX_GENES];
    int32_t selection;        /* selection_kind */
    uint32_t tournament_k;    /* >= 1 */
    uint32_t truncation_pool; /* truncation: parents from an island's best `pool`, 1..island_size */
    int32_t crossover;        /* crossover_kind */
    uint64_t crossover_thr;   /* rng_threshold(crossover_rate) */
    uint64_t mutation_thr;    /* rng_threshold(mutation rate per gene) */
    uint64_t creep_thr;       /* rng_threshold(creep_share): a mutation creeps, else resets */
    uint32_t creep_max;       /* >= 1 */
    uint32_t pad_;
    /* Individual 0 of generation 0: gene k is first[k] where >= 0 (the
     * "no filter" genome: every filter at its loosest value), else random. */
    int32_t first[GA_MAX_GENES];
} breed_ctx_t;
EV_STATIC_ASSERT(sizeof(breed_ctx_t) == 24 + 8 * GA_MAX_GENES + 48, "breed_ctx_t layout is shared with CUDA");

/* How one island's next generation is made, slot by slot (slots are the
 * island's individuals, 0..island_size-1):
 *   [0, elites)                          the island's best, unchanged (rank order)
 *   [elites, size - immigrants - migrants) bred: select, cross over, mutate
 *   [size - immigrants - migrants, size - migrants) random genomes (immigrants)
 *   [size - migrants, size)              the source island's best, unchanged
 * Migrants and immigrants thus take the places of the bred children, which
 * would have replaced the island's worst. elites + immigrants + migrants <= size. */
typedef struct {
    uint32_t elites;
    uint32_t immigrants;
    uint32_t migrants;
    uint32_t source; /* the island the migrants come from */
} breed_island_t;
EV_STATIC_ASSERT(sizeof(breed_island_t) == 16, "breed_island_t layout is shared with CUDA");

EV_HD uint32_t breed_island_of(const breed_ctx_t *c, uint32_t individual)
{
    return individual / c->island_size;
}

/* EV_EINTERNAL unless every island's plan fits its island (elites +
 * migrants + immigrants <= size, source an island): breed_child would read
 * past the island otherwise. isl: [islands]. */
static inline ev_status breed_islands_check(const breed_ctx_t *c, const breed_island_t *isl, ev_error *err)
{
    uint32_t size = c->island_size;
    for (uint32_t i = 0; i < c->islands; i++) {
        const breed_island_t *p = &isl[i];
        if (p->source >= c->islands || p->elites > size || p->migrants > size - p->elites ||
            p->immigrants > size - p->elites - p->migrants)
            return ev_fail(err, EV_EINTERNAL,
                           "ga_breed: island %u's plan (%u elites, %u migrants, %u immigrants, source %u) does not "
                           "fit islands of %u",
                           i, p->elites, p->migrants, p->immigrants, p->source, size);
    }
    return EV_OK;
}

/* EV_EDATA unless every gene of a SoA population [n_genes][population] is on
 * the lattice (gene k < n_values[k]): ga_set_population's check on every
 * backend (host code: inline so the CUDA files need no link to this folder). */
static inline ev_status breed_genes_check(const breed_ctx_t *c, const uint16_t *genes, ev_error *err)
{
    for (uint64_t j = 0; j < (uint64_t)c->n_genes * c->population; j++)
        if (genes[j] >= c->n_values[j / c->population])
            return ev_fail(err, EV_EDATA,
                           "population: gene %llu of individual %llu is %u, beyond the lattice's %u values",
                           (unsigned long long)(j / c->population), (unsigned long long)(j % c->population),
                           (unsigned)genes[j], c->n_values[j / c->population]);
    return EV_OK;
}

#ifdef __cplusplus
extern "C" {
#endif

/* Fills ctx from validated settings (ga_settings_check), the lattice's value
 * counts and the first genome's fixed genes (first[k] < 0: random; NULL: all
 * random). */
void breed_ctx_init(breed_ctx_t *ctx, const ga_settings_t *s, uint64_t seed, int32_t n_genes, const uint32_t *n_values,
                    const int32_t *first);

/* ceil(share * n) with a 1e-9 allowance for decimal shares that are not exact
 * doubles (0.07 * 100 is 7.000000000000001 in double, and means 7). */
uint32_t breed_share_count(double share, uint32_t n);

#ifdef __cplusplus
}
#endif

#endif
