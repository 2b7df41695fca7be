/* The hall of fame: the top-K unique genomes a GA run ever evaluated, best
 * first (SPEC sec. 5 order: fitness descending, the lower linear index on
 * ties; infeasible genomes are never listed). Each genome is offered once,
 * when it is first evaluated (ga_eval_out_t.top), so no duplicate check. */
#ifndef EVOLVE_HALL_OF_FAME_H
#define EVOLVE_HALL_OF_FAME_H

#include <stdint.h>

#include "common/status.h"
#include "operators/ga_types.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    uint32_t k; /* capacity */
    uint32_t n; /* entries held, best first */
    ga_hof_entry_t *e;
} hof_t;

ev_status hof_init(hof_t *h, uint32_t k, ev_error *err);
void hof_free(hof_t *h);

/* Offers one entry (ignored when infeasible, key 0, or not good enough). */
void hof_offer(hof_t *h, const ga_hof_entry_t *x);

/* Fills an entry from a genome (n_genes genes) and its result. */
void hof_entry_make(ga_hof_entry_t *x, const uint16_t *genes, int32_t n_genes, const uint64_t *index,
                    int32_t index_words, eval_result_t r);

#ifdef __cplusplus
}
#endif
#endif
