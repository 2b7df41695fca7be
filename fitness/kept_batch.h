/* Many genomes' kept-trade walks at once, tiled by trades (bench/RESULTS.md
 * "The GA's new genomes on the exit-role lattices").
 *
 * With the exits of SPEC sec. 4.1 a kept trade's race reads about six cache
 * lines of first-hit tables (~1.6 KB a trade on bench/suite's s11), far past
 * L2 for a whole dataset, and a GA generation's new genomes rarely share an
 * exit combination (so kept_sets_t has no pair outcomes for them). A batch
 * walks word by word: the 64 trades of a word are raced for every genome of
 * the batch that keeps them before the next word, so their table rows are read
 * from memory once per batch instead of once per genome. Each genome still
 * adds its kept trades in equity order into its own sums: the results are
 * kept_sets_walk's, bit for bit (drawdown and fold statistics included). */
#ifndef EVOLVE_KEPT_BATCH_H
#define EVOLVE_KEPT_BATCH_H

#include <stdint.h>

#include "common/status.h"
#include "fitness/exit_race.h"
#include "fitness/kept_sets.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The tables' exit roles, hoisted out of the walk (the sums' stores could
 * alias the tables' fields, which the walk would then read again per trade):
 * per race level (0: the logged result) its first hits' and outcomes' rows.
 * Level L's value i of trade j: hit[L][j * n[L] + i], outcome q[L][j * qn[L]
 * + i] (qn 0: one outcome per value, fill level). */
typedef struct {
    const int32_t *hit[RACE_LEVELS];
    const int64_t *q[RACE_LEVELS];
    const int64_t *lf[RACE_LEVELS]; /* NULL unless compound */
    int64_t n[RACE_LEVELS], qn[RACE_LEVELS];
    int32_t level[RACE_LEVELS]; /* the levels present, in race order */
    int32_t roles;
} race_plan_t;

/* Plan of tables t. */
void race_plan_of(race_plan_t *p, const fit_tables_t *t);

/* == tables_outcome(t, j, x) for p = race_plan_of(t) and ix[L] = level L's
 * value index in x (ix[0] = 0): every present role's key raced without a
 * branch (first hits are data: their compares mispredict), the winner's key
 * naming the row of its one outcome load. */
static inline void race_plan_outcome(const race_plan_t *p, int64_t j, const int32_t *ix, int64_t *q, int64_t *lf)
{
    int64_t key = (int64_t)EV_NO_HIT * 8;
    int32_t L;
    for (int32_t r = 0; r < p->roles; r++) {
        const int32_t l = p->level[r];
        const int64_t k = (int64_t)p->hit[l][j * p->n[l] + ix[l]] * 8 + l;
        key = k < key ? k : key;
    }
    L = (int32_t)(key & 7);
    *q = p->q[L][j * p->qn[L] + ix[L]];
    *lf = p->lf[L] ? p->lf[L][j * p->qn[L] + ix[L]] : 0;
}

/* ix of race_plan_outcome for exits x. */
void race_plan_index(const tables_exits_t *x, int32_t *ix);

typedef struct {
    const kept_sets_t *ks;
    race_plan_t plan;
    uint32_t cap;               /* genomes a batch holds */
    uint32_t n;                 /* genomes added since the last walk */
    int32_t folds;              /* accumulators a genome (1, or the fold statistic's folds) */
    uint64_t *kept;             /* [n_words][cap]: word w of genome i at w * cap + i */
    int32_t (*ix)[RACE_LEVELS]; /* [cap]: race_plan_index of each genome's exits */
    const int64_t **pq;         /* [cap]: the genome's pair outcomes (ks->pair_q), or NULL: tables_outcome */
    const int64_t **pl;         /* [cap]: their log factors, or NULL */
    accum_t *acc;               /* [cap * folds] */
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
