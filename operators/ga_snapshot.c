#include "operators/ga_snapshot.h"

#include <stdio.h>
#include <string.h>

/* A member added to ga_snapshot_t needs its line below (hof_n is the
 * hall_of_fame table's length): this size is a reminder. */
EV_STATIC_ASSERT(sizeof(ga_snapshot_t) == 128, "a new ga_snapshot_t member needs its line in ga_snapshot_fields");

#define FIELD(name, kind, member, run_shape)                   \
    {                                                          \
        name, kind, offsetof(ga_snapshot_t, member), run_shape \
    }

const ga_snapshot_field_t ga_snapshot_fields[] = {
    FIELD("generation", GA_FIELD_U32, generation, 0),
    FIELD("population", GA_FIELD_U32, population, 1),
    FIELD("n_genes", GA_FIELD_U32, n_genes, 1),
    FIELD("islands", GA_FIELD_U32, islands, 1),
    FIELD("last_improvement", GA_FIELD_U32, last_improvement, 0),
    FIELD("last_restart", GA_FIELD_U32, last_restart, 0),
    FIELD("restarts", GA_FIELD_U32, restarts, 0),
    FIELD("search_improved", GA_FIELD_U32, search_improved, 0),
    FIELD("searches_best", GA_FIELD_U32, searches_best, 0),
    FIELD("search_best", GA_FIELD_F64, search_best, 0),
    FIELD("evaluations", GA_FIELD_U64, evaluations, 0),
    FIELD("lookups", GA_FIELD_U64, lookups, 0),
    FIELD("ls_evaluations", GA_FIELD_U64, ls_evaluations, 0),
    FIELD("hof_k", GA_FIELD_U32, hof_k, 1),
    FIELD("elapsed_s", GA_FIELD_F64, elapsed_s, 0),
    FIELD("genes", GA_FIELD_GENES, genes, 0),
    FIELD("parents", GA_FIELD_PARENTS, parents, 0),
    FIELD("plans", GA_FIELD_PLANS, plans, 0),
    FIELD("hall_of_fame", GA_FIELD_RANKED, hof, 0),
};
const size_t ga_snapshot_n_fields = sizeof ga_snapshot_fields / sizeof ga_snapshot_fields[0];

uint64_t ga_snapshot_u64(const ga_snapshot_t *s, const ga_snapshot_field_t *f)
{
    const char *at = (const char *)s + f->offset;
    uint32_t u32;
    uint64_t u64;
    if (f->kind == GA_FIELD_U32) {
        memcpy(&u32, at, sizeof u32);
        return u32;
    }
    memcpy(&u64, at, sizeof u64);
    return u64;
}

double ga_snapshot_f64(const ga_snapshot_t *s, const ga_snapshot_field_t *f)
{
    double v;
    memcpy(&v, (const char *)s + f->offset, sizeof v);
    return v;
}

void *ga_snapshot_at(ga_snapshot_t *s, const ga_snapshot_field_t *f)
{
    return (char *)s + f->offset;
}

const void *ga_snapshot_array(const ga_snapshot_t *s, const ga_snapshot_field_t *f)
{
    const void *p;
    memcpy(&p, (const char *)s + f->offset, sizeof p);
    return p;
}

void ga_snapshot_dims(const ga_snapshot_t *s, const ga_snapshot_field_t *f, uint64_t dims[2])
{
    int live = s->generation > 0;
    dims[0] = dims[1] = 0;
    switch (f->kind) {
    case GA_FIELD_GENES:
        dims[0] = live ? s->n_genes : 0;
        dims[1] = live ? s->population : 0;
        break;
    case GA_FIELD_PARENTS:
        dims[0] = live ? 2 : 0;
        dims[1] = live ? s->population : 0;
        break;
    case GA_FIELD_PLANS:
        dims[0] = live ? s->islands : 0;
        dims[1] = 4;
        break;
    case GA_FIELD_RANKED: dims[0] = s->hof_n; break;
    default: break;
    }
}

/* The first parent outside the population, as j of [2][population], or -1. */
static int64_t parent_outside(const int32_t *parents, uint32_t population)
{
    for (uint64_t j = 0; j < 2 * (uint64_t)population; j++)
        if (parents[j] < -1 || parents[j] >= (int64_t)population)
            return (int64_t)j;
    return -1;
}

/* The run's shape: the run_shape fields equal. */
static int shape_fits(const ga_snapshot_t *s, const ga_snapshot_t *run, char *why, size_t n)
{
    for (size_t i = 0; i < ga_snapshot_n_fields; i++) {
        const ga_snapshot_field_t *f = &ga_snapshot_fields[i];
        if (f->run_shape && ga_snapshot_u64(s, f) != ga_snapshot_u64(run, f)) {
            snprintf(why, n, "%s %llu; the run has %llu", f->name, (unsigned long long)ga_snapshot_u64(s, f),
                     (unsigned long long)ga_snapshot_u64(run, f));
            return 0;
        }
    }
    return 1;
}

/* One array field's contents (the shape fits, so ctx's sizes are s's). */
static int array_fits(const ga_snapshot_t *s, const ga_snapshot_field_t *f, const breed_ctx_t *ctx, char *why, size_t n)
{
    const void *p = ga_snapshot_array(s, f);
    ev_error e;
    int64_t at;
    switch (f->kind) {
    case GA_FIELD_GENES:
        if (breed_genes_check(ctx, (const uint16_t *)p, &e) == EV_OK)
            return 1;
        snprintf(why, n, "%s", e.msg);
        return 0;
    case GA_FIELD_PARENTS:
        if ((at = parent_outside((const int32_t *)p, s->population)) < 0)
            return 1;
        snprintf(why, n, "parent %d of individual %u is not an individual of a population of %u",
                 ((const int32_t *)p)[at], (unsigned)(at % s->population), s->population);
        return 0;
    case GA_FIELD_PLANS:
        if (breed_islands_check(ctx, (const breed_island_t *)p, &e) == EV_OK)
            return 1;
        snprintf(why, n, "%s", e.msg);
        return 0;
    case GA_FIELD_RANKED:
        if (s->hof_n <= s->hof_k)
            return 1;
        snprintf(why, n, "a hall of fame of %u genomes, more than its %u", s->hof_n, s->hof_k);
        return 0;
    default: return 1;
    }
}

int ga_snapshot_fits(const ga_snapshot_t *s, const ga_snapshot_t *run, const uint32_t *n_values, char *why, size_t n)
{
    breed_ctx_t ctx; /* the fields the operators' own population and plan checks read */
    if (s->generation < 1) {
        snprintf(why, n, "generation %u: no bred generation to continue from", s->generation);
        return 0;
    }
    if (!shape_fits(s, run, why, n))
        return 0;
    if (s->last_improvement >= s->generation || s->last_restart > s->generation || s->restarts > s->generation ||
        s->search_improved > s->generation || s->searches_best > s->restarts ||
        s->lookups != (uint64_t)s->generation * s->population || s->evaluations > s->lookups) {
        snprintf(why, n,
                 "counters that contradict generation %u (last improvement %u, %llu evaluations, %llu "
                 "lookups)",
                 s->generation, s->last_improvement, (unsigned long long)s->evaluations,
                 (unsigned long long)s->lookups);
        return 0;
    }
    memset(&ctx, 0, sizeof ctx);
    ctx.population = s->population;
    ctx.islands = s->islands;
    ctx.island_size = s->islands ? s->population / s->islands : 0;
    ctx.n_genes = (int32_t)s->n_genes;
    memcpy(ctx.n_values, n_values, s->n_genes * sizeof *ctx.n_values);
    for (size_t i = 0; i < ga_snapshot_n_fields; i++)
        if (!array_fits(s, &ga_snapshot_fields[i], &ctx, why, n))
            return 0;
    return 1;
}
