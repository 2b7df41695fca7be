/* The CPU backend's GA ops (ga/backend.h): the operators of operators/breed.h
 * in OpenMP loops over individuals. Each child depends only on the ranked
 * previous generation and its own counters, so the loops give the same
 * population whatever the thread count. Internal to ga/: backend_cpu.c
 * puts these in the CPU vtable. */
#ifndef EVOLVE_CPU_GA_H
#define EVOLVE_CPU_GA_H

#include <stdint.h>

#include "ga/backend.h"
#include "ga/dedup_cache.h"

struct ga_state {
    ga_plan_t plan;
    uint32_t pop;
    int32_t n_genes;
    int32_t words;    /* plan.index_words */
    uint16_t *genes;  /* current population, SoA [n_genes][pop] */
    uint16_t *next;   /* the one being bred */
    int32_t *parents; /* [2][pop] of the current population */
    int32_t *next_parents;
    eval_result_t *results; /* [pop], valid once evaluated */
    uint64_t *index;        /* [pop][words]: linear indices, valid once evaluated */
    uint32_t *order;        /* [pop]: each island's individuals in rank order, valid once ranked */
    uint32_t *scratch;      /* [pop] */
    int has_population, evaluated, ranked;
    dedup_cache_t cache;
};

ev_status cpu_ga_open(backend_t *b, const ga_plan_t *plan, ga_state_t **out, ev_error *err);
void cpu_ga_close(ga_state_t *g);
ev_status cpu_ga_init_population(ga_state_t *g, ev_error *err);
ev_status cpu_ga_set_population(ga_state_t *g, const uint16_t *genes, const int32_t *parents, ev_error *err);
ev_status cpu_ga_evaluate(ga_state_t *g, ga_eval_out_t *out, ev_error *err);
ev_status cpu_ga_rank(ga_state_t *g, ga_rank_out_t *out, ev_error *err);
ev_status cpu_ga_breed(ga_state_t *g, uint32_t generation, const breed_island_t *islands, ev_error *err);
ev_status cpu_ga_download(ga_state_t *g, uint16_t *genes, eval_result_t *results, int32_t *parents, ev_error *err);
uint64_t cpu_ga_cache_count(ga_state_t *g);
ev_status cpu_ga_cache_export(ga_state_t *g, uint64_t *index, eval_result_t *results, ev_error *err);
ev_status cpu_ga_cache_import(ga_state_t *g, const uint64_t *index, const eval_result_t *results, uint64_t n,
                              ev_error *err);

/* Below this many individuals a generation's loops run on one thread: a
 * parallel region costs more than it saves (and far more on a busy machine). */
#define CPU_GA_PARALLEL_MIN 4096

/* Individuals sorted by (linear index, individual): groups of equal genomes
 * are adjacent. Used by evaluate (dedup) and rank (unique per island). */
typedef struct {
    uint64_t key;                   /* rank_key (rank) or 0 (dedup) */
    uint64_t w[GA_INDEX_WORDS_MAX]; /* linear index, unused words 0 */
    uint32_t i;
} cpu_ga_item_t;

/* Fills items for individuals [first, first + n) (key from results when
 * with_key) and sorts them: by key descending when with_key, then index, then
 * individual. */
void cpu_ga_sort_items(const ga_state_t *g, uint32_t first, uint32_t n, int with_key, cpu_ga_item_t *items);

#endif
