/* The host side of breed_ctx.h: settings -> the operators' POD. */
#include "operators/breed_ctx.h"

#include <math.h>
#include <string.h>

uint32_t breed_share_count(double share, uint32_t n)
{
    double x = ceil(share * (double)n - 1e-9);
    if (!(x > 0.0))
        return 0;
    return x >= (double)n ? n : (uint32_t)x;
}

void breed_ctx_init(breed_ctx_t *ctx, const ga_settings_t *s, uint64_t seed, int32_t n_genes, const uint32_t *n_values,
                    const int32_t *first)
{
    double rate = s->mutation_rate > 0.0 ? s->mutation_rate : 1.0 / (double)n_genes;
    memset(ctx, 0, sizeof *ctx);
    ctx->seed = seed;
    ctx->population = s->population;
    ctx->islands = s->islands;
    ctx->island_size = s->population / s->islands;
    ctx->n_genes = n_genes;
    for (int32_t k = 0; k < GA_MAX_GENES; k++) {
        ctx->n_values[k] = k < n_genes ? n_values[k] : 1;
        ctx->first[k] = (first && k < n_genes) ? first[k] : -1;
    }
    ctx->selection = s->selection;
    ctx->tournament_k = s->tournament_k;
    ctx->truncation_pool = breed_share_count(s->truncation, ctx->island_size);
    if (ctx->truncation_pool == 0)
        ctx->truncation_pool = 1;
    ctx->crossover = s->crossover;
    ctx->crossover_thr = rng_threshold(s->crossover_rate);
    ctx->mutation_thr = rng_threshold(rate);
    ctx->creep_thr = rng_threshold(s->creep_share);
    ctx->creep_max = s->creep_max;
}
