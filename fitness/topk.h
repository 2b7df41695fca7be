/* The exact top-K of SPEC sec. 5: higher fitness first, the lower linear index
 * on a tie; infeasible genomes are never listed. Small K, kept sorted. The
 * one best-first list of the engine: the grid's top-K (genomes offered by
 * index, genes decoded when reported) and the GA's hall of fame (ranked
 * genomes with their genes, ordered by ranked_before). */
#ifndef EVOLVE_TOPK_H
#define EVOLVE_TOPK_H

#include <stdint.h>

#include "common/hd.h"
#include "common/status.h"
#include "fitness/accum.h"
#include "fitness/lattice_shape.h"
#include "fitness/ranked.h"

/* A grid genome as a device's selection pass gathers it (kernels/). */
typedef struct {
    uint64_t key;   /* rank_key(r) */
    uint64_t index; /* linear index of the genome */
    eval_result_t r;
} topk_entry_t;

/* a ranks before b */
EV_HD int rank_before(uint64_t key_a, uint64_t index_a, uint64_t key_b, uint64_t index_b)
{
    return key_a > key_b || (key_a == key_b && index_a < index_b);
}

/* What a top-K list admits at one moment, as a POD a kernel can take by
 * value: an entry enters iff its key is nonzero (feasible) and the list has
 * room or the entry ranks before the list's last. Admission only gets
 * stricter as entries arrive, so a candidate refused by an older bar would
 * be refused by the list later too. */
typedef struct {
    uint64_t key;   /* the last entry's key (when full) */
    uint64_t index; /* the last entry's index (when full) */
    int32_t full;   /* 1: the list holds k entries */
    int32_t closed; /* 1: k == 0, nothing enters */
} topk_bar_t;
EV_STATIC_ASSERT(sizeof(topk_bar_t) == 24, "topk_bar_t layout is shared with CUDA");

EV_HD int topk_bar_admits(const topk_bar_t *b, uint64_t key, uint64_t index)
{
    if (key == 0 || b->closed)
        return 0;
    return !b->full || rank_before(key, index, b->key, b->index);
}

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    uint32_t k;         /* capacity */
    uint32_t n;         /* entries held, best first (ranked_before) */
    ranked_genome_t *e; /* grid lists leave the genes 0 (topk_to_ranked decodes them) */
} topk_t;

ev_status topk_init(topk_t *t, uint32_t k, ev_error *err);
void topk_free(topk_t *t);

/* 1 when an entry with this key and index (and genes 0) would enter the list. */
int topk_would_enter(const topk_t *t, uint64_t key, uint64_t index);

/* The list's current bar (topk_bar_admits(&bar, key, index) == topk_would_enter):
 * for lists of entries without genes (the grid's). */
topk_bar_t topk_bar(const topk_t *t);

/* Offers one ranked genome: it enters, at its place by ranked_before, unless
 * it is infeasible (key 0) or the list is full of entries that rank before
 * it. The caller guarantees a genome is offered once (the GA offers each
 * genome when it is first evaluated, so no duplicate check). */
void topk_insert(topk_t *t, const ranked_genome_t *x);

/* Offers one evaluated genome by its index (genes left 0): topk_insert. */
void topk_offer(topk_t *t, uint64_t index, eval_result_t r);

/* Offers every entry of src (disjoint index sets): one pass over both
 * lists, O(dst->n + src->n), with the list topk_insert of each would give. */
void topk_merge(topk_t *dst, const topk_t *src);

/* Offers x[n] (any order; sorted here, in place): O(n log n + t->k), the
 * list topk_insert of each would give. For many offers to a long list, where
 * inserting one by one moves O(k) entries each (grid/grid_sink.h buffers). */
void topk_insert_many(topk_t *t, ranked_genome_t *x, uint32_t n);

/* The entries as ranked genomes (genes decoded from the index): out[t->n]. */
void topk_to_ranked(const topk_t *t, const lattice_shape_t *shape, ranked_genome_t *out);

/* The same in a new array of t->n + 1 entries (an empty list still gets
 * one), to free(); NULL when out of memory. */
ranked_genome_t *topk_ranked_new(const topk_t *t, const lattice_shape_t *shape);

#ifdef __cplusplus
}
#endif
#endif
