/* One generation of a GA run: evaluated and ranked on the backend, its new
 * genomes into the hall of fame, the current search's best tracked, its
 * summary to the observer and the progress line. Only the small summaries
 * come back from the backend; the population stays there. */
#include "ga/ga_run_internal.h"

#include <math.h>
#include <string.h>

/* The hall of fame takes the generation's new genomes; a strictly better
 * best restarts the stall count. */
static void take_new_best(ga_run_state_t *r, const ga_eval_out_t *ev, topk_t *hof, uint32_t gen)
{
    for (uint32_t j = 0; j < ev->n_top; j++)
        topk_insert(hof, &ev->top[j]);
    if (hof->n && hof->e[0].key > r->best_key) {
        r->best_key = hof->e[0].key;
        r->last_improvement = gen;
    }
}

/* The current search's best (the population's best feasible fitness,
 * cached genomes included); a better hall of fame best (this generation)
 * means no ended search reached it. res->searches_best: as if the run
 * ended here. */
static void track_search(ga_run_state_t *r, uint32_t gen, double best, ga_result_t *res)
{
    if (r->last_improvement == gen && gen > 0)
        r->searches_best = 0;
    if (best > r->search_best) {
        r->search_best = best;
        r->search_improved = gen;
    }
    res->searches_best = r->searches_best + (res->hof.n && r->search_best == res->hof.e[0].r.fitness);
}

static ev_status notify_observer(ga_run_state_t *r, const ga_gen_stats_t *st, ev_error *err)
{
    const ga_observer_t *obs = r->o->observer;
    ga_generation_t gen;
    ev_status e;
    if (!obs || !obs->on_generation)
        return EV_OK;
    memset(&gen, 0, sizeof gen);
    gen.population = r->plan.ctx.population;
    gen.n_genes = (uint32_t)r->plan.ctx.n_genes;
    gen.islands = r->plan.ctx.islands;
    gen.stats = st;
    if (obs->want_population) {
        if ((e = r->gops->ga_download(r->g, r->dl_genes, r->dl_results, r->dl_parents, err)) != EV_OK)
            return e;
        gen.genes = r->dl_genes;
        gen.results = r->dl_results;
        gen.parents = r->dl_parents;
    }
    return obs->on_generation(obs->ctx, &gen, err);
}

/* Evaluates and ranks generation `gen`; *full when the cache could not take it. */
ev_status ga_run_generation(ga_run_state_t *r, uint32_t gen, ga_result_t *res, ga_gen_stats_t *st, int *full,
                            ev_error *err)
{
    ga_eval_out_t ev;
    ga_rank_out_t rk;
    ev_status e;
    memset(&ev, 0, sizeof ev);
    ev.top = r->top;
    if ((e = r->gops->ga_evaluate(r->g, &ev, err)) != EV_OK)
        return e;
    if ((*full = ev.cache_full) != 0)
        return EV_OK;
    r->n_top = ev.n_top;
    memset(&rk, 0, sizeof rk);
    rk.island_unique = r->island_unique;
    rk.gene_counts = r->gene_counts;
    if ((e = r->gops->ga_rank(r->g, &rk, err)) != EV_OK)
        return e;
    res->evaluations += ev.new_evals;
    res->lookups += r->plan.ctx.population;
    res->hit_rate = 1.0 - (double)res->evaluations / (double)res->lookups;
    res->generations = gen + 1;
    take_new_best(r, &ev, &res->hof, gen);
    track_search(r, gen, rk.feasible ? rk.best : -HUGE_VAL, res);
    ga_gene_entropy(r->gene_counts, r->plan.ctx.n_values, r->plan.ctx.n_genes, r->plan.ctx.population, r->entropy);

    memset(st, 0, sizeof *st);
    st->generation = gen;
    st->feasible = rk.feasible;
    st->best = rk.best;
    st->median = rk.median;
    st->mean = rk.mean;
    st->std = rk.std;
    st->unique = ev.distinct;
    st->diversity = (double)ev.distinct / (double)r->plan.ctx.population;
    st->island_unique = r->island_unique;
    st->gene_entropy = r->entropy;
    st->islands = gen ? r->islands : NULL;
    st->new_evaluations = ev.new_evals;
    st->evaluations = res->evaluations;
    st->lookups = res->lookups;
    st->ls_evaluations = res->ls_evaluations;
    st->hit_rate = res->hit_rate;
    st->wall_s = ga_run_now(r) - r->t0;
    st->hof = &res->hof;
    if ((e = notify_observer(r, st, err)) != EV_OK)
        return e;
    ga_progress_line(&r->progress, st, r->s, &r->p->obj_cfg);
    return EV_OK;
}
