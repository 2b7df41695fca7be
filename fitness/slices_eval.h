/* The CPU's kept-set evaluator (issue 34): per genome, the kept-trade walk
 * (fitness/kept_sets.h) or the bit-sliced sums (fitness/slices.h), both
 * bit-identical to tables_eval. `auto` takes the slices when their popcounts
 * cost less than walking the genome's kept trades (its kept count is one
 * popcount of the kept set away), by per-kernel costs measured in
 * bench/RESULTS.md; `walk` and `slices` force one path (tests, benches). The
 * slices serve the additive objectives only; calmar and max_drawdown_pct,
 * and combinations whose planes are not built (not yet, or past the budget:
 * fitness/slices_build.h), always walk. */
#ifndef EVOLVE_SLICES_EVAL_H
#define EVOLVE_SLICES_EVAL_H

#include <stdint.h>

#include "common/status.h"
#include "fitness/kept_sets.h"
#include "fitness/slices_build.h"
#include "fitness/slices_popcnt.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { SLICES_MODE_AUTO = 0, SLICES_MODE_WALK, SLICES_MODE_SLICES } slices_mode;

/* The environment variable that forces a path: walk, slices or auto. */
#define SLICES_MODE_ENV "EVOLVE_EVALUATOR"

typedef struct {
    const kept_sets_t *ks;
    const slices_t *sl; /* its combo NULL: the walk only */
    slices_mode mode;
    slices_kernel kern;
    double plane_cost; /* time of one plane word (AND + popcount), in walked kept trades */
} slices_eval_t;

typedef struct {
    kept_scratch_t k;
    uint64_t *masked; /* [n_words]: a fold's kept set */
    uint64_t cnt[SLICES_MAX_PLANES];
    uint64_t walks, slices; /* genomes each path evaluated */
} slices_scratch_t;

/* "auto", "walk" or "slices" into *m; 0 when s is none of them. */
int slices_mode_parse(const char *s, slices_mode *m);
/* The mode SLICES_MODE_ENV asks for (auto when unset); an unknown value is
 * an error naming the variable and the values it takes. */
ev_status slices_mode_from_env(slices_mode *m, ev_error *err);

void slices_eval_init(slices_eval_t *e, const kept_sets_t *ks, const slices_t *sl, slices_mode mode,
                      slices_kernel kern);
ev_status slices_scratch_init(slices_scratch_t *s, const slices_eval_t *e, ev_error *err);
void slices_scratch_free(slices_scratch_t *s);

/* == tables_eval(e->ks->t, genes), bit for bit, by the path the mode picks. */
eval_result_t slices_eval(const slices_eval_t *e, slices_scratch_t *s, const uint16_t *genes);

/* slices_eval's slices alone: 1 and *out when the mode picks them for the
 * genome; else 0, with the genome as the tables see it (*g) and its kept set
 * (*k, s's) for kept_sets_walk or a batch of walks (fitness/kept_batch.h). */
int slices_eval_sliced(const slices_eval_t *e, slices_scratch_t *s, const uint16_t *genes, tables_genome_t *g,
                       const uint64_t **k, eval_result_t *out);

#ifdef __cplusplus
}
#endif
#endif
