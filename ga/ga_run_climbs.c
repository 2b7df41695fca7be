/* The memetic step of a GA run (docs/ga.md "Local search"): the climbs'
 * starts, the climbs in threads (or shared out between processes), and the
 * improved genomes put into the bred generation. */
#include "ga/ga_run_internal.h"

#include <string.h>

#include "fitness/lattice.h"
#include "ga/local_search.h"
#include "ga/ls_kick.h"
#include "operators/genome.h"

/* Climb j's start: the generation's j-th best new genome (j < n_best), or
 * a uniformly random genome (RANDOM stream of generation gen, individual
 * population + j - n_best: counters no genome of the run draws; with
 * ls_random_exits_off its exits that can be off at off), or for the
 * last ls_kicks of those, when the hall of fame's best is feasible, a kick
 * of it (ga/ls_kick.h, the same counters from draw LS_KICK_DRAW0). Either
 * result is unknown: it starts as infeasible, so the climb's first move
 * takes the best of its first gene's sweep (docs/ga.md "Local search").
 * Returns 0 where the start is climbed plainly, else the depth of its climb
 * under the real min_trades after the relaxed one (r->relaxed): a kick's
 * ls_depth; with ls_random_relax a random start's 1 (docs/ga.md "Relaxed
 * random starts"). */
static uint32_t climb_start(const ga_run_state_t *r, const topk_t *hof, uint32_t gen, uint32_t j, uint32_t n_best,
                            ga_climb_t *c)
{
    const breed_ctx_t *x = &r->plan.ctx;
    uint32_t kicks = r->s->ls_kicks < r->s->ls_random ? r->s->ls_kicks : r->s->ls_random;
    uint32_t ind = x->population + (j - n_best);
    if (j < n_best) {
        memcpy(c->genes, r->top[j].genes, (size_t)x->n_genes * sizeof *c->genes);
        c->r = r->top[j].r;
        return 0;
    }
    memset(&c->r, 0, sizeof c->r);
    if (j >= n_best + r->s->ls_random - kicks && hof->n && hof->e[0].r.feasible) {
        memcpy(c->genes, hof->e[0].genes, (size_t)x->n_genes * sizeof *c->genes);
        ls_kick(rng_key(x->seed), gen, ind, x->n_genes, x->n_values, 2, r->s->ls_kick_genes, c->genes);
        return r->has_relaxed ? r->s->ls_depth : 0;
    }
    genome_random(rng_key(x->seed), gen, ind, x->n_genes, x->n_values, c->genes);
    /* a target and stop strategy (docs/ga.md "Random starts at off exits") */
    if (r->s->ls_random_exits_off)
        lattice_exits_off(r->p->lat, c->genes);
    return r->has_relaxed && r->s->ls_random_relax;
}

/* 1 when the time budget has run out: local search stops climbing then, as one step's climbs
 * can cost many generations' time (processes sharing climbs out climb alike: they do not stop). */
static int budget_spent(const ga_run_state_t *r)
{
    return ga_time_budget_spent(r->s, ga_run_now(r) - r->t0);
}

/* budget_spent for a climb's thread: the clock (ga_run_opts_t.now, a test's
 * may count its readings) is read by one thread at a time. */
static int climb_budget_spent(const ga_run_state_t *r)
{
    int spent;
#pragma omp critical(ga_climb_budget)
    spent = budget_spent(r);
    return spent;
}

/* Climbs 0..n-1 of this process (docs/ga.md "Local search", "Threads"), in
 * parallel threads, each climb into its own slot of r->climbs: ls_climb
 * keeps its sweep state (cache, tally, buffers) to itself and reads the
 * tables only, so the climbs are those of one thread. Batch sweeps evaluate
 * through the backend, which is not shared between threads: one thread. An
 * error: the first failing climb's. */
static ev_status climb_all(ga_run_state_t *r, const topk_t *hof, uint32_t gen, uint32_t n, uint32_t n_best,
                           uint32_t parts, ev_error *err)
{
    const int32_t ng = r->plan.ctx.n_genes;
    int64_t failed = n; /* the lowest climb that failed */
    ev_status st = EV_OK;
#pragma omp parallel for schedule(dynamic, 1) if (n > 1 && r->sweep.t)
    for (int64_t j = 0; j < (int64_t)n; j++) {
        ga_climb_t *c = &r->climbs[j];
        ls_tally_t tl;
        ev_error lerr;
        ev_status e;
        uint32_t real_depth; /* 0: a plain climb */
        if (parts > 1 && j % parts != r->o->climb_part)
            continue;
        real_depth = climb_start(r, hof, gen, (uint32_t)j, n_best, c);
        c->cost = 0;
        /* not climbed: its start is never put back (its fitness is no better);
         * never where processes share the sweeps' evaluate (their clocks differ) */
        if (r->o->climb_parts <= 1 && climb_budget_spent(r))
            continue;
        memset(&tl, 0, sizeof tl);
        e = real_depth ? ls_climb_relaxed(&r->relaxed.sw, &r->sweep, ng, r->s->ls_depth, real_depth, c->genes, &c->r,
                                          &tl, &lerr)
                       : ls_climb(&r->sweep, ng, r->s->ls_depth, c->genes, &c->r, &tl, &lerr);
        if (e != EV_OK) {
#pragma omp critical(ga_climb_error)
            if (j < failed) {
                failed = j;
                st = e;
                *err = lerr;
            }
            continue;
        }
        c->cost = tl.cost;
    }
    return st;
}

/* The memetic step (docs/ga.md "Local search"), in generations gen with
 * (gen + 1) % ls_every == 0: climbs the generation's ls_members best new
 * genomes and ls_random random ones with r->sweep (tables climbs shared out
 * between processes where the run has several: ga_run_opts_t.climb_parts,
 * and between threads: climb_all); the improved ones (distinct, in climb
 * order) wait in ls_genes for the next generation. Their sweeps count in
 * ls_evaluations. */
ev_status ga_run_local_search(ga_run_state_t *r, uint32_t gen, ga_result_t *res, ev_error *err)
{
    const ga_settings_t *s = r->s;
    const ga_run_opts_t *o = r->o;
    int32_t ng = r->plan.ctx.n_genes;
    uint32_t n_best = r->n_top < s->ls_members ? r->n_top : s->ls_members, n = n_best + s->ls_random;
    /* batch sweeps go through the backend's evaluate, which several
     * processes share out (dist/): every process climbs every member */
    uint32_t parts = r->sweep.t ? o->climb_parts : 1;
    ev_status e;
    r->n_ls = 0;
    if (!s->ls_every || (gen + 1) % s->ls_every != 0)
        return EV_OK;
    if ((e = climb_all(r, &res->hof, gen, n, n_best, parts, err)) != EV_OK)
        return e;
    if (parts > 1)
        o->share_climbs(r->climbs, n);
    for (uint32_t j = 0; j < n; j++) {
        const ga_climb_t *c = &r->climbs[j];
        uint64_t from = j < n_best ? r->top[j].key : 0; /* a random start: any feasible peak */
        uint32_t i;
        res->ls_evaluations += c->cost;
        if (rank_key(c->r) <= from)
            continue;
        for (i = 0; i < r->n_ls && memcmp(r->ls_genes + (size_t)i * ng, c->genes, (size_t)ng * sizeof *c->genes); i++)
            ;
        if (i == r->n_ls)
            memcpy(r->ls_genes + (size_t)r->n_ls++ * ng, c->genes, (size_t)ng * sizeof *c->genes);
    }
    return EV_OK;
}

/* Puts the climbed genomes into the bred generation: genome j replaces the
 * last free slot of island j % islands (slots from the island's end, never
 * its elites' half), parents -1. */
ev_status ga_run_local_search_put(ga_run_state_t *r, ga_result_t *res, ev_error *err)
{
    uint32_t pop = r->plan.ctx.population, isl = r->plan.ctx.islands, size = pop / isl;
    int32_t ng = r->plan.ctx.n_genes;
    ev_status e;
    if (!r->n_ls)
        return EV_OK;
    if ((e = r->gops->ga_download(r->g, r->inj_genes, NULL, r->inj_parents, err)) != EV_OK)
        return e;
    for (uint32_t j = 0; j < r->n_ls; j++) {
        uint32_t from_end = j / isl, slot;
        if (from_end >= size / 2)
            break;
        slot = (j % isl) * size + size - 1 - from_end;
        for (int32_t k = 0; k < ng; k++)
            r->inj_genes[(size_t)k * pop + slot] = r->ls_genes[(size_t)j * ng + k];
        r->inj_parents[slot] = -1;
        r->inj_parents[pop + slot] = -1;
        res->ls_improved++;
    }
    r->n_ls = 0;
    return r->gops->ga_set_population(r->g, r->inj_genes, r->inj_parents, err);
}
