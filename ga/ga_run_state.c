/* A GA run's state: its clock and its buffers, allocated and freed together
 * (ga/ga_run_internal.h). */
#include "ga/ga_run_internal.h"

#include <stdlib.h>

#include "common/platform.h"

double ga_run_now(const ga_run_state_t *r)
{
    return r->o->now ? r->o->now() : plat_now();
}

void ga_run_free(ga_run_state_t *r)
{
    if (r->g)
        r->gops->ga_close(r->g);
    free(r->top);
    free(r->island_unique);
    free(r->gene_counts);
    free(r->entropy);
    free(r->islands);
    free(r->dl_genes);
    free(r->dl_results);
    free(r->dl_parents);
    free(r->snap_genes);
    free(r->snap_parents);
    free(r->climbs);
    free(r->ls_genes);
    free(r->inj_genes);
    free(r->inj_parents);
}

ev_status ga_run_alloc(ga_run_state_t *r, ev_error *err)
{
    uint32_t pop = r->plan.ctx.population, ng = (uint32_t)r->plan.ctx.n_genes, isl = r->plan.ctx.islands;
    int ok;
    r->top = (ga_hof_entry_t *)calloc(r->plan.top_k, sizeof *r->top);
    r->island_unique = (uint32_t *)calloc(isl, sizeof *r->island_unique);
    r->gene_counts = (uint32_t *)calloc(r->plan.gene_values, sizeof *r->gene_counts);
    r->entropy = (double *)calloc(ng, sizeof *r->entropy);
    r->islands = (breed_island_t *)calloc(isl, sizeof *r->islands);
    ok = r->top && r->island_unique && r->gene_counts && r->entropy && r->islands;
    if (ok && r->o->observer && r->o->observer->want_population) {
        r->dl_genes = (uint16_t *)malloc((size_t)ng * pop * sizeof *r->dl_genes);
        r->dl_results = (eval_result_t *)malloc((size_t)pop * sizeof *r->dl_results);
        r->dl_parents = (int32_t *)malloc(2u * (size_t)pop * sizeof *r->dl_parents);
        ok = r->dl_genes && r->dl_results && r->dl_parents;
    }
    if (ok && r->o->observer && r->o->observer->on_checkpoint) {
        r->snap_genes = (uint16_t *)malloc((size_t)ng * pop * sizeof *r->snap_genes);
        r->snap_parents = (int32_t *)malloc(2u * (size_t)pop * sizeof *r->snap_parents);
        ok = r->snap_genes && r->snap_parents;
    }
    if (ok && r->s->ls_every) {
        uint32_t climbs = r->s->ls_members + r->s->ls_random;
        r->climbs = (ga_climb_t *)calloc(climbs, sizeof *r->climbs);
        r->ls_genes = (uint16_t *)calloc((size_t)climbs * ng, sizeof *r->ls_genes);
        r->inj_genes = (uint16_t *)malloc((size_t)ng * pop * sizeof *r->inj_genes);
        r->inj_parents = (int32_t *)malloc(2u * (size_t)pop * sizeof *r->inj_parents);
        ok = r->climbs && r->ls_genes && r->inj_genes && r->inj_parents;
    }
    return ok ? EV_OK : ev_fail(err, EV_ENOMEM, "out of memory for the GA run's buffers");
}
