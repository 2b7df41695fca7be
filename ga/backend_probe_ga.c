/* The parity probe's GA part (ga/backend_probe_ga.h): generation 0, one
 * breed step, generation 1 and the dedup cache on both backends. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ga/backend_probe_ga.h"
#include "ga/ga_plan.h"

#define PROBE_ISLANDS_MAX 4u
#define PROBE_ISLAND_SIZE_MAX 128u

typedef struct {
    ga_state_t *g;
    uint16_t *genes;
    eval_result_t *results;
    int32_t *parents;
    ga_hof_entry_t top[PROBE_TOP];
    uint32_t *unique, *counts;
    ga_eval_out_t ev;
    ga_rank_out_t rk;
} ga_side_t;

/* The probe's settings: the run's operators on a small population. */
static void probe_settings(const ga_settings_t *s, ga_settings_t *ps)
{
    uint32_t islands = s->islands ? s->islands : 1, size = s->population / islands;
    *ps = *s;
    if (islands > PROBE_ISLANDS_MAX)
        islands = PROBE_ISLANDS_MAX;
    if (size > PROBE_ISLAND_SIZE_MAX)
        size = PROBE_ISLAND_SIZE_MAX;
    if (size < 2)
        size = 2;
    ps->islands = islands;
    ps->population = islands * size;
    if (ps->migration_count >= size)
        ps->migration_count = size - 1;
    if (ps->cache_max_mb > 64)
        ps->cache_max_mb = 64;
    ps->generations = 2;
}

static int compare_eval_out(probe_t *x, const char *step, const ga_eval_out_t *a, const ga_eval_out_t *b)
{
    if (a->distinct != b->distinct || a->new_evals != b->new_evals || a->cache_full != b->cache_full)
        return probe_mismatch(x, "%s: %s: %llu distinct genomes, %llu new; %s: %llu distinct, %llu new", step,
                              x->ops[0]->name, (unsigned long long)a->distinct, (unsigned long long)a->new_evals,
                              x->ops[1]->name, (unsigned long long)b->distinct, (unsigned long long)b->new_evals);
    for (uint32_t i = 0; i < a->n_top || i < b->n_top; i++)
        if (i >= a->n_top || i >= b->n_top || memcmp(&a->top[i], &b->top[i], sizeof a->top[i]) != 0) {
            char g[512], ra[128], rb[128];
            const ga_hof_entry_t *e = i < a->n_top ? &a->top[i] : &b->top[i];
            probe_genome_text(x->p, e->genes, g, sizeof g);
            probe_result_text(&a->top[i < a->n_top ? i : 0].r, ra, sizeof ra);
            probe_result_text(&b->top[i < b->n_top ? i : 0].r, rb, sizeof rb);
            return probe_mismatch(x, "%s: new top entry %u, genome %s: %s: %s; %s: %s", step, i + 1, g, x->ops[0]->name,
                                  i < a->n_top ? ra : "none", x->ops[1]->name, i < b->n_top ? rb : "none");
        }
    return 0;
}

static int compare_population(probe_t *x, const char *step, const ga_plan_t *plan, ga_side_t *sd, int with_results)
{
    uint64_t pop = plan->ctx.population, ng = (uint64_t)plan->ctx.n_genes;
    uint16_t ga[EV_MAX_PARAMS], gb[EV_MAX_PARAMS];
    for (uint64_t i = 0; i < pop; i++) {
        char ta[512], tb[512], ra[128], rb[128];
        int genes_differ = 0;
        for (uint64_t k = 0; k < ng; k++) {
            ga[k] = sd[0].genes[k * pop + i];
            gb[k] = sd[1].genes[k * pop + i];
            genes_differ |= ga[k] != gb[k];
        }
        if (genes_differ) {
            probe_genome_text(x->p, ga, ta, sizeof ta);
            probe_genome_text(x->p, gb, tb, sizeof tb);
            return probe_mismatch(x, "%s: individual %llu: %s: genome %s; %s: genome %s", step, (unsigned long long)i,
                                  x->ops[0]->name, ta, x->ops[1]->name, tb);
        }
        if (sd[0].parents[i] != sd[1].parents[i] || sd[0].parents[pop + i] != sd[1].parents[pop + i]) {
            probe_genome_text(x->p, ga, ta, sizeof ta);
            return probe_mismatch(x, "%s: individual %llu, genome %s: parents %d and %d on %s, %d and %d on %s", step,
                                  (unsigned long long)i, ta, sd[0].parents[i], sd[0].parents[pop + i], x->ops[0]->name,
                                  sd[1].parents[i], sd[1].parents[pop + i], x->ops[1]->name);
        }
        if (with_results && !probe_same_result(&sd[0].results[i], &sd[1].results[i])) {
            probe_genome_text(x->p, ga, ta, sizeof ta);
            probe_result_text(&sd[0].results[i], ra, sizeof ra);
            probe_result_text(&sd[1].results[i], rb, sizeof rb);
            return probe_mismatch(x, "%s: individual %llu, genome %s: %s: %s; %s: %s", step, (unsigned long long)i, ta,
                                  x->ops[0]->name, ra, x->ops[1]->name, rb);
        }
    }
    return 0;
}

static int compare_rank(probe_t *x, const ga_plan_t *plan, const ga_rank_out_t *a, const ga_rank_out_t *b)
{
    if (memcmp(a->island_unique, b->island_unique, plan->ctx.islands * sizeof *a->island_unique) != 0 ||
        memcmp(a->gene_counts, b->gene_counts, plan->gene_values * sizeof *a->gene_counts) != 0 ||
        a->feasible != b->feasible || memcmp(&a->best, &b->best, sizeof a->best) != 0 ||
        memcmp(&a->median, &b->median, sizeof a->median) != 0)
        return probe_mismatch(
            x,
            "rank of generation 0: %s: %llu feasible, best %.17g, median %.17g; %s: %llu feasible, best "
            "%.17g, median %.17g (or the distinct counts or gene histograms differ)",
            x->ops[0]->name, (unsigned long long)a->feasible, a->best, a->median, x->ops[1]->name,
            (unsigned long long)b->feasible, b->best, b->median);
    return 0;
}

static int32_t sort_words;

static int cmp_cache_entry(const void *pa, const void *pb)
{
    const uint64_t *a = (const uint64_t *)pa, *b = (const uint64_t *)pb;
    for (int32_t w = sort_words - 1; w >= 0; w--)
        if (a[w] != b[w])
            return a[w] < b[w] ? -1 : 1;
    return 0;
}

/* A cache's entries as records [words + 3] sorted by index; NULL on an error
 * (err set) or out of memory (err set, EV_ENOMEM). */
static uint64_t *cache_sorted(const backend_ops_t *ops, ga_state_t *g, int32_t words, uint64_t *n, ev_status *st,
                              ev_error *err)
{
    uint64_t m = ops->ga_cache_count(g), rec = (uint64_t)words + 3;
    uint64_t *ix = (uint64_t *)malloc((size_t)(m ? m : 1) * (size_t)words * sizeof *ix);
    eval_result_t *rs = (eval_result_t *)malloc((size_t)(m ? m : 1) * sizeof *rs);
    uint64_t *recs = (uint64_t *)malloc((size_t)(m ? m : 1) * (size_t)rec * sizeof *recs);
    *n = m;
    *st = EV_OK;
    if (!ix || !rs || !recs)
        *st = ev_fail(err, EV_ENOMEM, "out of memory for the probe's dedup caches");
    else
        *st = ops->ga_cache_export(g, ix, rs, err);
    if (*st == EV_OK) {
        for (uint64_t j = 0; j < m; j++) {
            memcpy(recs + j * rec, ix + j * (uint64_t)words, (size_t)words * sizeof *ix);
            memcpy(recs + j * rec + words, &rs[j], sizeof rs[j]);
        }
        sort_words = words;
        qsort(recs, (size_t)m, (size_t)rec * sizeof *recs, cmp_cache_entry);
    }
    free(ix);
    free(rs);
    if (*st != EV_OK) {
        free(recs);
        return NULL;
    }
    return recs;
}

static ev_status compare_caches(probe_t *x, const ga_plan_t *plan, ga_side_t *sd, ev_error *err)
{
    int32_t w = plan->index_words;
    uint64_t n[2], rec = (uint64_t)w + 3;
    uint64_t *c[2] = {NULL, NULL};
    ev_status st;
    ev_error e;
    if (!(c[0] = cache_sorted(x->ops[0], sd[0].g, w, &n[0], &st, err)))
        return st;
    if (!(c[1] = cache_sorted(x->ops[1], sd[1].g, w, &n[1], &st, &e))) {
        free(c[0]);
        if (st == EV_ENOMEM)
            return ev_fail(err, EV_ENOMEM, "%s", e.msg);
        probe_test_failed(x, "dedup cache export", &e);
        return EV_OK;
    }
    if (n[0] != n[1])
        probe_mismatch(x, "dedup cache: %s holds %llu genomes, %s %llu", x->ops[0]->name, (unsigned long long)n[0],
                       x->ops[1]->name, (unsigned long long)n[1]);
    else
        for (uint64_t j = 0; j < n[0]; j++)
            if (memcmp(c[0] + j * rec, c[1] + j * rec, (size_t)rec * sizeof *c[0]) != 0) {
                eval_result_t ra, rb;
                char ta[128], tb[128], ga[512] = "", gb[512] = "";
                memcpy(&ra, c[0] + j * rec + w, sizeof ra);
                memcpy(&rb, c[1] + j * rec + w, sizeof rb);
                probe_result_text(&ra, ta, sizeof ta);
                probe_result_text(&rb, tb, sizeof tb);
                if (w == 1 && x->p->lat->size_fits) {
                    uint16_t genes[EV_MAX_PARAMS];
                    shape_decode(&x->p->shape, c[0][j * rec], genes);
                    probe_genome_text(x->p, genes, ga, sizeof ga);
                    shape_decode(&x->p->shape, c[1][j * rec], genes);
                    probe_genome_text(x->p, genes, gb, sizeof gb);
                }
                probe_mismatch(x,
                               "dedup cache entry %llu (sorted by index): %s: genome %s (index word 0 %llu): %s; %s: "
                               "genome %s (index word 0 %llu): %s",
                               (unsigned long long)j, x->ops[0]->name, ga, (unsigned long long)c[0][j * rec], ta,
                               x->ops[1]->name, gb, (unsigned long long)c[1][j * rec], tb);
                break;
            }
    free(c[0]);
    free(c[1]);
    return EV_OK;
}

/* The reference's cache imported into a fresh state of the backend under
 * test, given generation 1: every genome must be found (no new evaluation)
 * with the reference's results. */
static ev_status round_trip(probe_t *x, const ga_plan_t *plan, ga_side_t *sd, ev_error *err)
{
    int32_t w = plan->index_words;
    uint64_t m = x->ops[0]->ga_cache_count(sd[0].g), pop = plan->ctx.population;
    uint64_t *ix = (uint64_t *)malloc((size_t)(m ? m : 1) * (size_t)w * sizeof *ix);
    eval_result_t *rs = (eval_result_t *)malloc((size_t)(m ? m : 1) * sizeof *rs);
    eval_result_t *got = (eval_result_t *)malloc((size_t)pop * sizeof *got);
    ga_plan_t tp = *plan;
    ga_state_t *g = NULL;
    ga_hof_entry_t top[PROBE_TOP];
    ga_eval_out_t ev;
    ev_error e;
    ev_status st = EV_OK;
    if (!ix || !rs || !got) {
        st = ev_fail(err, EV_ENOMEM, "out of memory for the probe's dedup round trip");
        goto done;
    }
    if ((st = x->ops[0]->ga_cache_export(sd[0].g, ix, rs, err)) != EV_OK)
        goto done;
    tp.evaluate = x->ops[1]->evaluate;
    tp.evaluate_b = x->b[1];
    memset(&ev, 0, sizeof ev);
    ev.top = top;
    if (x->ops[1]->ga_open(x->b[1], &tp, &g, &e) != EV_OK || x->ops[1]->ga_cache_import(g, ix, rs, m, &e) != EV_OK ||
        x->ops[1]->ga_set_population(g, sd[0].genes, sd[0].parents, &e) != EV_OK ||
        x->ops[1]->ga_evaluate(g, &ev, &e) != EV_OK || x->ops[1]->ga_download(g, NULL, got, NULL, &e) != EV_OK) {
        probe_test_failed(x, "dedup round trip", &e);
        goto done;
    }
    if (ev.new_evals != 0 || ev.distinct != sd[0].ev.distinct)
        probe_mismatch(
            x,
            "dedup round trip: the %s cache imported into %s: %llu of generation 1's %llu distinct genomes not "
            "found (%llu distinct counted)",
            x->ops[0]->name, x->ops[1]->name, (unsigned long long)ev.new_evals, (unsigned long long)sd[0].ev.distinct,
            (unsigned long long)ev.distinct);
    else
        for (uint64_t i = 0; i < pop; i++)
            if (!probe_same_result(&got[i], &sd[0].results[i])) {
                uint16_t genes[EV_MAX_PARAMS];
                char t[512], ra[128], rb[128];
                for (int32_t k = 0; k < plan->ctx.n_genes; k++)
                    genes[k] = sd[0].genes[(uint64_t)k * pop + i];
                probe_genome_text(x->p, genes, t, sizeof t);
                probe_result_text(&sd[0].results[i], ra, sizeof ra);
                probe_result_text(&got[i], rb, sizeof rb);
                probe_mismatch(x, "dedup round trip: genome %s: %s: %s; found in %s's imported cache: %s", t,
                               x->ops[0]->name, ra, x->ops[1]->name, rb);
                break;
            }
done:
    if (g)
        x->ops[1]->ga_close(g);
    free(ix);
    free(rs);
    free(got);
    return st;
}

static void side_free(const backend_ops_t *ops, ga_side_t *sd)
{
    if (sd->g)
        ops->ga_close(sd->g);
    free(sd->genes);
    free(sd->results);
    free(sd->parents);
    free(sd->unique);
    free(sd->counts);
}

/* One GA op on both sides: the reference's error is returned, the tested
 * backend's recorded as a probe_mismatch; either ends the GA part. */
#define BOTH(call_ref, call_test, step)     \
    do {                                    \
        if ((st = (call_ref)) != EV_OK)     \
            goto done;                      \
        if ((call_test) != EV_OK) {         \
            probe_test_failed(x, step, &e); \
            goto done;                      \
        }                                   \
    } while (0)

ev_status probe_ga(probe_t *x, const ga_settings_t *s, uint64_t seed, ev_error *err)
{
    const backend_ops_t *go[2];
    ga_settings_t ps;
    ga_plan_t plan;
    ga_side_t sd[2];
    breed_island_t *isl = NULL;
    ev_error e;
    ev_status st = EV_OK;
    uint64_t pop, ng;
    if (!x->ops[1]->ga_open) /* the host GA with the tested backend's evaluate: covered above */
        return EV_OK;
    go[0] = x->ops[0]->ga_open ? x->ops[0] : &backend_cpu_ops;
    go[1] = x->ops[1];
    probe_settings(s, &ps);
    if (ga_plan_build(&plan, x->p, &ps, seed, PROBE_TOP, &e) != EV_OK) {
        ga_settings_default(&ps);
        ps.islands = 2;
        ps.population = 256;
        ps.generations = 2;
        ps.cache_max_mb = 64;
        if ((st = ga_plan_build(&plan, x->p, &ps, seed, PROBE_TOP, err)) != EV_OK)
            return st;
    }
    pop = plan.ctx.population;
    ng = (uint64_t)plan.ctx.n_genes;
    memset(sd, 0, sizeof sd);
    isl = (breed_island_t *)calloc(plan.ctx.islands, sizeof *isl);
    for (int k = 0; k < 2; k++) {
        sd[k].genes = (uint16_t *)calloc((size_t)(ng * pop), sizeof *sd[k].genes);
        sd[k].results = (eval_result_t *)calloc((size_t)pop, sizeof *sd[k].results);
        sd[k].parents = (int32_t *)calloc((size_t)(2 * pop), sizeof *sd[k].parents);
        sd[k].unique = (uint32_t *)calloc(plan.ctx.islands, sizeof *sd[k].unique);
        sd[k].counts = (uint32_t *)calloc((size_t)plan.gene_values, sizeof *sd[k].counts);
        if (!sd[k].genes || !sd[k].results || !sd[k].parents || !sd[k].unique || !sd[k].counts || !isl) {
            st = ev_fail(err, EV_ENOMEM, "out of memory for the probe's GA");
            goto done;
        }
        sd[k].ev.top = sd[k].top;
        sd[k].rk.island_unique = sd[k].unique;
        sd[k].rk.gene_counts = sd[k].counts;
    }
    {
        ga_plan_t p0 = plan, p1 = plan;
        p0.evaluate = x->ops[0]->evaluate;
        p0.evaluate_b = x->b[0];
        p1.evaluate = x->ops[1]->evaluate;
        p1.evaluate_b = x->b[1];
        BOTH(go[0]->ga_open(go[0] == x->ops[0] ? x->b[0] : NULL, &p0, &sd[0].g, err),
             go[1]->ga_open(x->b[1], &p1, &sd[1].g, &e), "GA open");
    }
    /* generation 0: made, evaluated, ranked */
    BOTH(go[0]->ga_init_population(sd[0].g, err), go[1]->ga_init_population(sd[1].g, &e), "generation 0");
    BOTH(go[0]->ga_evaluate(sd[0].g, &sd[0].ev, err), go[1]->ga_evaluate(sd[1].g, &sd[1].ev, &e),
         "evaluate generation 0");
    x->out->genomes += sd[0].ev.new_evals;
    if (compare_eval_out(x, "GA evaluate, generation 0", &sd[0].ev, &sd[1].ev))
        goto done;
    BOTH(go[0]->ga_download(sd[0].g, sd[0].genes, sd[0].results, sd[0].parents, err),
         go[1]->ga_download(sd[1].g, sd[1].genes, sd[1].results, sd[1].parents, &e), "download generation 0");
    if (compare_population(x, "GA generation 0", &plan, sd, 1))
        goto done;
    BOTH(go[0]->ga_rank(sd[0].g, &sd[0].rk, err), go[1]->ga_rank(sd[1].g, &sd[1].rk, &e), "rank generation 0");
    if (compare_rank(x, &plan, &sd[0].rk, &sd[1].rk))
        goto done;
    /* one breed step: children and parents */
    ga_plan_islands(&plan, &ps, 1, sd[0].unique, isl);
    BOTH(go[0]->ga_breed(sd[0].g, 1, isl, err), go[1]->ga_breed(sd[1].g, 1, isl, &e), "breed generation 1");
    BOTH(go[0]->ga_download(sd[0].g, sd[0].genes, NULL, sd[0].parents, err),
         go[1]->ga_download(sd[1].g, sd[1].genes, NULL, sd[1].parents, &e), "download generation 1");
    if (compare_population(x, "breed (generation 1)", &plan, sd, 0))
        goto done;
    /* generation 1: cache hits (the elites) and new genomes */
    BOTH(go[0]->ga_evaluate(sd[0].g, &sd[0].ev, err), go[1]->ga_evaluate(sd[1].g, &sd[1].ev, &e),
         "evaluate generation 1");
    x->out->genomes += sd[0].ev.new_evals;
    if (compare_eval_out(x, "GA evaluate, generation 1 (dedup lookups)", &sd[0].ev, &sd[1].ev))
        goto done;
    BOTH(go[0]->ga_download(sd[0].g, NULL, sd[0].results, NULL, err),
         go[1]->ga_download(sd[1].g, NULL, sd[1].results, NULL, &e), "download generation 1's results");
    if (compare_population(x, "GA generation 1", &plan, sd, 1))
        goto done;
    if ((st = compare_caches(x, &plan, sd, err)) != EV_OK || !x->out->match)
        goto done;
    if ((st = round_trip(x, &plan, sd, err)) != EV_OK)
        goto done;
    x->out->ga_checked = x->out->match;
done:
    side_free(go[0], &sd[0]);
    side_free(go[1], &sd[1]);
    free(isl);
    return st;
}
