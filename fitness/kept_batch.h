/* Many genomes' kept-trade walks at once, tiled by trades (bench/RESULTS.md
 * "The GA's new genomes on the exit-role lattices").
 *
 * With the exits of SPEC sec. 4.1 a kept trade's race reads about six cache
 * lines of first-hit tables (~1.6 KB a trade on bench/suite's s11, 7.9 MB for
 * its 4,800 trades: past L2), and a GA generation's new genomes rarely share
 * an exit combination (so kept_sets_t has no pair outcomes for them). A batch
 * walks word by word: the 64 trades of a word are raced for every genome of
 * the batch that keeps them before the next word, so their table rows come
 * from L2 for all but the first. Each genome still adds its kept trades in
 * equity order into its own sums: the results are kept_sets_walk's, bit for
 * bit (drawdown and fold statistics included). The gain measured on s11's
 * own new genomes was modest (about 1.2x of the walk; bench/RESULTS.md). */
#ifndef EVOLVE_KEPT_BATCH_H
#define EVOLVE_KEPT_BATCH_H

#include <stdint.h>

#include "common/status.h"
#include "fitness/kept_sets.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    const kept_sets_t *ks;
    uint32_t cap;       /* genomes a batch holds */
    uint32_t n;         /* genomes added since the last walk */
    int32_t folds;      /* accumulators a genome (1, or the fold statistic's folds) */
    uint64_t *kept;     /* [n_words][cap]: word w of genome i at w * cap + i */
    tables_exits_t *x;  /* [cap]: each genome's exits */
    const int64_t **pq; /* [cap]: the genome's pair outcomes (ks->pair_q), or NULL: tables_outcome */
    const int64_t **pl; /* [cap]: their log factors, or NULL */
    accum_t *acc;       /* [cap * folds] */
} kept_batch_t;

ev_status kept_batch_init(kept_batch_t *b, const kept_sets_t *ks, uint32_t cap, ev_error *err);
void kept_batch_free(kept_batch_t *b);

/* Adds a genome (g and its kept set, kept_sets_genome's); returns its slot.
 * The batch must not be full (b->n < b->cap). */
uint32_t kept_batch_add(kept_batch_t *b, const uint64_t *kept, const tables_genome_t *g);

/* out[slot] = kept_sets_walk of each genome added, bit for bit; empties the batch. */
void kept_batch_walk(kept_batch_t *b, eval_result_t *out);

#ifdef __cplusplus
}
#endif
#endif
