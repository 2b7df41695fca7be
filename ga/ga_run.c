/* The GA run loop: per generation evaluate, rank, report, decide, breed,
 * and, when asked, snapshot the bred generation for a checkpoint.
 * Decisions that need no population (stopping, the island plans, the hall of
 * fame) are taken here on the host from the small summaries the backend
 * returns; the population itself stays on the backend. */
#include "ga/ga_run.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/platform.h"
#include "ga/ga_ls_sweep.h"
#include "ga/ga_plan.h"
#include "ga/ga_progress.h"
#include "ga/local_search.h"
#include "ga/ls_kick.h"
#include "ga/ls_relax.h"
#include "operators/genome.h"

typedef struct {
    const backend_ops_t *gops; /* whose GA ops run: the backend's, or the CPU's (host_ga) */
    ga_state_t *g;
    ga_plan_t plan;
    const fit_problem_t *p;
    const ga_settings_t *s;
    const ga_run_opts_t *o;
    ls_sweep_t sweep;     /* what local search climbs with (ga_ls_sweep; sweep.t NULL: batches
                           * through the backend's evaluate) */
    ls_relaxed_t relaxed; /* kicks' first climb (local_search.kick_relax), when has_relaxed */
    int has_relaxed;
    ga_hof_entry_t *top;     /* [top_k] */
    uint32_t *island_unique; /* [islands] */
    uint32_t *gene_counts;   /* [gene_values] */
    double *entropy;         /* [n_genes] */
    breed_island_t *islands; /* [islands] */
    uint16_t *dl_genes;      /* observer downloads, when asked for */
    eval_result_t *dl_results;
    int32_t *dl_parents;
    uint16_t *snap_genes; /* checkpoint snapshots, when the observer takes them */
    int32_t *snap_parents;
    ga_climb_t *climbs;  /* [ls_members + ls_random]: local search's climbs of one generation */
    uint16_t *ls_genes;  /* [ls_members + ls_random][n_genes]: climbed genomes for the next generation */
    uint32_t n_ls;       /* of them, waiting to be put in */
    uint32_t n_top;      /* entries of top from the last evaluation */
    uint16_t *inj_genes; /* [n_genes][population], [2][population]: the population they go into */
    int32_t *inj_parents;
    uint32_t last_improvement;
    uint32_t last_restart; /* the last generation a restart made (0: none) */
    /* The current search (docs/ga.md "Restarts"): from the run's start or the
     * last restart, its best population fitness and when that last improved;
     * and how many ended searches reached the hall of fame's best. */
    double search_best;
    uint32_t search_improved;
    uint32_t searches_best;
    uint64_t best_key; /* the hall of fame's best rank_key (0: none) */
    double t0;
    double last_snap; /* run_now() of the last snapshot (0: none yet) */
    ga_progress_t progress;
} run_t;

static double run_now(const run_t *r)
{
    return r->o->now ? r->o->now() : plat_now();
}

static void run_free(run_t *r)
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

static ev_status run_alloc(run_t *r, ev_error *err)
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

/* The hall of fame takes the generation's new genomes; a strictly better
 * best restarts the stall count. */
static void take_new_best(run_t *r, const ga_eval_out_t *ev, topk_t *hof, uint32_t gen)
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
static void track_search(run_t *r, uint32_t gen, double best, ga_result_t *res)
{
    if (r->last_improvement == gen && gen > 0)
        r->searches_best = 0;
    if (best > r->search_best) {
        r->search_best = best;
        r->search_improved = gen;
    }
    res->searches_best = r->searches_best + (res->hof.n && r->search_best == res->hof.e[0].r.fitness);
}

static ev_status notify_observer(run_t *r, const ga_gen_stats_t *st, ev_error *err)
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
static ev_status run_generation(run_t *r, uint32_t gen, ga_result_t *res, ga_gen_stats_t *st, int *full, ev_error *err)
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
    st->wall_s = run_now(r) - r->t0;
    st->hof = &res->hof;
    if ((e = notify_observer(r, st, err)) != EV_OK)
        return e;
    ga_progress_line(&r->progress, st, r->s, &r->p->obj_cfg);
    return EV_OK;
}

/* Hands the observer generation `gen`, bred and not yet evaluated. */
static ev_status take_snapshot(run_t *r, uint32_t gen, const ga_result_t *res, ev_error *err)
{
    ga_snapshot_t snap;
    ev_status e;
    if ((e = r->gops->ga_download(r->g, r->snap_genes, NULL, r->snap_parents, err)) != EV_OK)
        return e;
    memset(&snap, 0, sizeof snap);
    snap.generation = gen;
    snap.population = r->plan.ctx.population;
    snap.n_genes = (uint32_t)r->plan.ctx.n_genes;
    snap.islands = r->plan.ctx.islands;
    snap.last_improvement = r->last_improvement;
    snap.last_restart = r->last_restart;
    snap.restarts = res->restarts;
    snap.search_improved = r->search_improved;
    snap.searches_best = r->searches_best;
    snap.search_best = r->search_best;
    snap.evaluations = res->evaluations;
    snap.lookups = res->lookups;
    snap.ls_evaluations = res->ls_evaluations;
    snap.hof_k = res->hof.k;
    snap.elapsed_s = run_now(r) - r->t0;
    snap.genes = r->snap_genes;
    snap.parents = r->snap_parents;
    snap.plans = r->islands;
    snap.hof_n = res->hof.n;
    snap.hof = res->hof.e;
    return r->o->observer->on_checkpoint(r->o->observer->ctx, &snap, err);
}

/* Puts a resumed run where its snapshot left it: cache, population, hall of
 * fame, counters, the plans that made the population, the clock. */
static ev_status restore(run_t *r, ga_result_t *res, const ga_resume_t *rs, ev_error *err)
{
    const ga_snapshot_t *at = &rs->at;
    ga_snapshot_t run; /* this run's shape */
    char why[512];
    ev_status e;
    memset(&run, 0, sizeof run);
    run.population = r->plan.ctx.population;
    run.n_genes = (uint32_t)r->plan.ctx.n_genes;
    run.islands = r->plan.ctx.islands;
    run.hof_k = res->hof.k;
    if (!ga_snapshot_fits(at, &run, r->plan.ctx.n_values, why, sizeof why))
        return ev_fail(err, EV_EDATA, "the saved GA state does not fit this run: %s", why);
    if (rs->cache_count != at->evaluations)
        return ev_fail(err, EV_EDATA, "the saved GA state does not fit this run: %llu cached of %llu evaluated",
                       (unsigned long long)rs->cache_count, (unsigned long long)at->evaluations);
    if ((e = r->gops->ga_cache_import(r->g, rs->cache_index, rs->cache_results, rs->cache_count, err)) != EV_OK ||
        (e = r->gops->ga_set_population(r->g, at->genes, at->parents, err)) != EV_OK)
        return e;
    for (uint32_t j = 0; j < at->hof_n; j++)
        topk_insert(&res->hof, &at->hof[j]);
    r->best_key = res->hof.n ? res->hof.e[0].key : 0;
    r->last_improvement = at->last_improvement;
    r->last_restart = at->last_restart;
    res->restarts = at->restarts;
    r->search_improved = at->search_improved;
    r->searches_best = at->searches_best;
    r->search_best = at->search_best;
    memcpy(r->islands, at->plans, (size_t)at->islands * sizeof *r->islands);
    res->evaluations = at->evaluations;
    res->lookups = at->lookups;
    res->ls_evaluations = at->ls_evaluations;
    res->hit_rate = 1.0 - (double)res->evaluations / (double)res->lookups;
    res->generations = at->generation;
    r->t0 = run_now(r) - at->elapsed_s;
    return EV_OK;
}

/* Why to stop after generation gen, or GA_STOP_NONE. Ctrl-C counts only
 * when the run would otherwise go on, so a run stopped in its last
 * generation ends as complete (and needs no resume). */
static ga_stop_reason stop_reason(const run_t *r, uint32_t gen, const ga_result_t *res, double wall_s)
{
    ga_stop_input_t in;
    ga_stop_reason why;
    in.generation = gen;
    in.evaluations = res->evaluations;
    in.ls_evaluations = res->ls_evaluations;
    in.lattice_size = r->p->lat->size_fits ? r->p->lat->size : 0;
    in.last_improvement = r->last_improvement;
    in.elapsed_s = wall_s;
    in.interrupted = 0;
    why = ga_stop_check(r->s, &in);
    if (why == GA_STOP_NONE && r->o->observer && r->o->observer->stop_requested &&
        r->o->observer->stop_requested(r->o->observer->ctx))
        return GA_STOP_CALLER;
    return why == GA_STOP_NONE && plat_interrupted() ? GA_STOP_INTERRUPTED : why;
}

/* Climb j's start: the generation's j-th best new genome (j < n_best), or
 * a uniformly random genome (RANDOM stream of generation gen, individual
 * population + j - n_best: counters no genome of the run draws), or for the
 * last ls_kicks of those, when the hall of fame's best is feasible, a kick
 * of it (ga/ls_kick.h, the same counters from draw LS_KICK_DRAW0). Either
 * result is unknown: it starts as infeasible, so the climb's first move
 * takes the best of its first gene's sweep (docs/ga.md "Local search").
 * Returns 1 for a kick. */
static int climb_start(const run_t *r, const topk_t *hof, uint32_t gen, uint32_t j, uint32_t n_best, ga_climb_t *c)
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
        return 1;
    }
    genome_random(rng_key(x->seed), gen, ind, x->n_genes, x->n_values, c->genes);
    return 0;
}

/* 1 when the time budget has run out: local search stops climbing then, as one step's climbs
 * can cost many generations' time (processes sharing climbs out climb alike: they do not stop). */
static int budget_spent(const run_t *r)
{
    return ga_time_budget_spent(r->s, run_now(r) - r->t0);
}

/* budget_spent for a climb's thread: the clock (ga_run_opts_t.now, a test's
 * may count its readings) is read by one thread at a time. */
static int climb_budget_spent(const run_t *r)
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
static ev_status climb_all(run_t *r, const topk_t *hof, uint32_t gen, uint32_t n, uint32_t n_best, uint32_t parts,
                           ev_error *err)
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
        int kick;
        if (parts > 1 && j % parts != r->o->climb_part)
            continue;
        kick = climb_start(r, hof, gen, (uint32_t)j, n_best, c);
        c->cost = 0;
        /* not climbed: its start is never put back (its fitness is no better);
         * never where processes share the sweeps' evaluate (their clocks differ) */
        if (r->o->climb_parts <= 1 && climb_budget_spent(r))
            continue;
        memset(&tl, 0, sizeof tl);
        e = kick && r->has_relaxed
                ? ls_climb_relaxed(&r->relaxed.sw, &r->sweep, ng, r->s->ls_depth, c->genes, &c->r, &tl, &lerr)
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
static ev_status local_search(run_t *r, uint32_t gen, ga_result_t *res, ev_error *err)
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
static ev_status local_search_put(run_t *r, ga_result_t *res, ev_error *err)
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

/* Restart on stall (docs/ga.md "Restarts"): when the current search's best
 * has not improved for restart_stall generations, generation gen + 1 starts
 * a new search: random genomes (an immigrant plan: draws from the RANDOM
 * stream of generation gen + 1), each island's elites kept only with
 * restart_elites. The ended search counts in searches_best when its best is
 * the hall of fame's. */
static void plan_restart(run_t *r, uint32_t gen, ga_result_t *res)
{
    if (!r->s->restart_stall || gen - r->search_improved < r->s->restart_stall)
        return;
    for (uint32_t i = 0; i < r->plan.ctx.islands; i++) {
        if (!r->s->restart_elites)
            r->islands[i].elites = 0;
        r->islands[i].migrants = 0;
        r->islands[i].immigrants = r->plan.ctx.island_size - r->islands[i].elites;
    }
    r->searches_best += res->hof.n && r->search_best == res->hof.e[0].r.fitness;
    r->search_best = -HUGE_VAL;
    r->search_improved = gen + 1;
    r->last_restart = gen + 1;
    res->restarts++;
}

/* Whether bred generation gen is snapshotted: every `every` generations, at
 * least checkpoint_every_s seconds apart when that is set. */
static int snapshot_due(const run_t *r, uint32_t gen, uint32_t every)
{
    double min_s = r->o->observer->checkpoint_every_s;
    if (gen % every != 0)
        return 0;
    return !(min_s > 0) || r->last_snap == 0 || run_now(r) - r->last_snap >= min_s;
}

static ev_status run_loop(run_t *r, ga_result_t *res, ev_error *err)
{
    const ga_observer_t *obs = r->o->observer;
    int snapshots = obs && obs->on_checkpoint;
    uint32_t every = snapshots && obs->checkpoint_every ? obs->checkpoint_every : 1;
    uint32_t gen = 0;
    ga_gen_stats_t st;
    ev_status e;
    if (r->o->resume) {
        if ((e = restore(r, res, r->o->resume, err)) != EV_OK)
            return e;
        gen = r->o->resume->at.generation;
    } else if ((e = r->gops->ga_init_population(r->g, err)) != EV_OK) {
        return e;
    }
    ga_progress_begin(&r->progress, r->o->progress, gen);
    for (;; gen++) {
        int full = 0;
        if ((e = run_generation(r, gen, res, &st, &full, err)) != EV_OK)
            return e;
        if (full) {
            res->reason = GA_STOP_CACHE_FULL;
            return EV_OK;
        }
        res->reason = stop_reason(r, gen, res, st.wall_s);
        if (r->o->agree_stop)
            res->reason = r->o->agree_stop(res->reason);
        if (res->reason != GA_STOP_NONE && !(res->reason == GA_STOP_INTERRUPTED && snapshots))
            return EV_OK;
        if ((e = local_search(r, gen, res, err)) != EV_OK)
            return e;
        ga_plan_islands(&r->plan, r->s, gen + 1, r->island_unique, r->islands);
        plan_restart(r, gen, res);
        if ((e = r->gops->ga_breed(r->g, gen + 1, r->islands, err)) != EV_OK ||
            (e = local_search_put(r, res, err)) != EV_OK)
            return e;
        if (snapshots && (res->reason == GA_STOP_INTERRUPTED || snapshot_due(r, gen + 1, every))) {
            if ((e = take_snapshot(r, gen + 1, res, err)) != EV_OK)
                return e;
            r->last_snap = run_now(r);
        }
        if (res->reason == GA_STOP_INTERRUPTED)
            return EV_OK;
    }
}

ev_status ga_run(const backend_ops_t *ops, backend_t *b, const fit_problem_t *p, const ga_settings_t *s,
                 const ga_run_opts_t *o, ga_result_t *res, ev_error *err)
{
    run_t r;
    ev_status e;
    memset(res, 0, sizeof *res);
    memset(&r, 0, sizeof r);
    r.p = p;
    r.s = s;
    r.o = o;
    r.t0 = run_now(&r);
    r.search_best = -HUGE_VAL;
    if ((e = ga_plan_build(&r.plan, p, s, o->seed, o->top, err)) != EV_OK)
        return e;
    if (!ga_ls_sweep(ops, b, o, r.plan.ctx.n_genes, r.plan.ctx.n_values, &r.sweep)) {
        if (s->ls_every)
            return ev_fail(err, EV_ECONFIG,
                           "ga.local_search needs the problem's host tables (ga_run_opts_t.tables or the backend's "
                           "host_tables) or batch sweeps (ga_run_opts_t.ls_batch)");
    } else if (r.sweep.t) {
        /* exit pairs and relaxed kicks are the tables' (batch: every pair, no relaxed kicks) */
        r.sweep.skip_exit_pairs = !s->ls_exit_pairs;
        r.has_relaxed = s->ls_kicks && ls_relax_init(&r.relaxed, &r.sweep, s->ls_kick_relax);
    }
    r.plan.evaluate = ops->evaluate;
    r.plan.evaluate_b = b;
    /* A backend without GA ops still evaluates: the CPU's GA drives it. */
    res->host_ga = ops->ga_open == NULL;
    r.gops = res->host_ga ? &backend_cpu_ops : ops;
    if ((e = topk_init(&res->hof, o->top, err)) != EV_OK)
        return e;
    if ((e = run_alloc(&r, err)) == EV_OK) {
        e = r.gops->ga_open(res->host_ga ? NULL : b, &r.plan, &r.g, err);
        if (e == EV_ENOMEM && !res->host_ga && ops != &backend_cpu_ops) {
            /* The device cannot hold the population and its cache, the host
             * can: the CPU's GA ops run it, fitness stays on the device (the
             * same results, bit for bit). Out of memory never ends such a run. */
            if (o->progress)
                fprintf(o->progress,
                        "ga: the %s device cannot hold the GA (%s); the population and its cache move "
                        "to the host, fitness stays on the device\n",
                        ops->name, err->msg);
            res->host_ga = 1;
            r.gops = &backend_cpu_ops;
            e = r.gops->ga_open(NULL, &r.plan, &r.g, err);
        }
        if (e == EV_OK)
            e = run_loop(&r, res, err);
        ga_progress_end(&r.progress);
    }
    res->seconds = run_now(&r) - r.t0;
    run_free(&r);
    if (e != EV_OK)
        ga_result_free(res);
    return e;
}

void ga_result_free(ga_result_t *res)
{
    topk_free(&res->hof);
}
