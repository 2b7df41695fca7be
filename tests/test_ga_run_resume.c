/* ga_run's resume entry point (ga_resume_t) and its checkpoint snapshots
 * (ga_observer_t.on_checkpoint): a run restored from the snapshot of
 * generation K and the dedup cache rebuilt from the generations before K,
 * as the run archive does, continues exactly like the run that never
 * stopped: every later generation (genes, results, parents, statistics),
 * the hall of fame (grid_pool_size(7) candidates, as evolve keeps for a top
 * 7: the strategies are picked from them), the counters and the stop reason. Then Ctrl-C: in the
 * run's last generation it is no interruption; earlier, ga_run breeds the
 * next generation and hands it over for a checkpoint. Every snapshot's
 * last_restart is the last generation whose plans were a restart's (every
 * island: no migrants, all but its elites immigrants), read from the plans
 * the run reports, and a resumed run's snapshots carry the same values. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/platform.h"
#include "ga/dedup_cache.h"
#include "ga/ga_plan.h"
#include "ga/grid_pool.h"
#include "operators/dedup_table.h"
#include "operators/genome.h"
#include "tests/check.h"
#include "tests/support/ga_fixture.h"

#define MAX_GENS 256

/* Observes a run: its trace, every genome (the cache a resume rebuilds),
 * and a deep copy of the snapshot of generation `want`. */
typedef struct {
    ga_observer_t inner; /* the fixture's trace observer */
    trace_t tr;
    const ga_fixture_t *f;
    int32_t words;
    dedup_cache_t cache;
    uint32_t want, snapshots;
    int press_ctrl_c_at;                 /* -1: never */
    uint32_t restart_seen;               /* the last observed generation a restart made (0: none) */
    uint32_t restart_plans;              /* observed generations a restart made */
    uint32_t last_restart[MAX_GENS];     /* each snapshot's last_restart, by generation */
    const uint32_t *expect_last_restart; /* a resumed run: the uninterrupted run's (NULL: from the plans) */
    /* the copy */
    int have;
    ga_snapshot_t snap;
    topk_t hof;
    uint16_t *genes;
    int32_t *parents;
    breed_island_t plans[16];
    uint64_t *cache_index;
    eval_result_t *cache_results;
    uint64_t cache_count;
} recorder_t;

/* Whether plans[islands] made a generation by a restart (ga_run.c
 * plan_restart): every island all immigrants but its elites, no migrants. */
static int restart_plan(const breed_island_t *plans, uint32_t islands, uint32_t island_size)
{
    for (uint32_t i = 0; i < islands; i++)
        if (plans[i].migrants != 0 || plans[i].immigrants != island_size - plans[i].elites)
            return 0;
    return 1;
}

static ev_status rec_gen(void *ctx, const ga_generation_t *g, ev_error *err)
{
    recorder_t *r = (recorder_t *)ctx;
    ev_status st = r->inner.on_generation(r->inner.ctx, g, err);
    if (g->stats->islands && restart_plan(g->stats->islands, g->islands, g->population / g->islands)) {
        r->restart_seen = g->stats->generation;
        r->restart_plans++;
    }
    for (uint32_t i = 0; st == EV_OK && i < g->population; i++) {
        uint16_t genes[EV_MAX_PARAMS];
        uint64_t index[GA_INDEX_WORDS_MAX];
        genome_gather(g->genes, g->population, i, (int32_t)g->n_genes, genes);
        genome_index(r->f->p.shape.n_values, (int32_t)g->n_genes, genes, r->words, index);
        if (!dedup_find(&r->cache, index))
            st = dedup_insert(&r->cache, index, g->results[i], err);
    }
    if (r->press_ctrl_c_at >= 0 && g->stats->generation == (uint32_t)r->press_ctrl_c_at)
        raise(SIGINT);
    return st;
}

static ev_status rec_snap(void *ctx, const ga_snapshot_t *s, ev_error *err)
{
    recorder_t *r = (recorder_t *)ctx;
    size_t ng = s->n_genes, pop = s->population;
    uint32_t want = restart_plan(s->plans, s->islands, s->population / s->islands) ? s->generation : r->restart_seen;
    r->snapshots++;
    if (s->generation < MAX_GENS) {
        r->last_restart[s->generation] = s->last_restart;
        CHECK_EQ_I64(r->expect_last_restart ? r->expect_last_restart[s->generation] : want, s->last_restart);
    }
    if (s->generation != r->want || r->have)
        return EV_OK;
    CHECK_EQ_I64(r->cache.count, s->evaluations); /* the cache is the observed generations' genomes */
    r->have = 1;
    r->snap = *s;
    r->genes = (uint16_t *)malloc(ng * pop * sizeof *r->genes);
    r->parents = (int32_t *)malloc(2 * pop * sizeof *r->parents);
    memcpy(r->genes, s->genes, ng * pop * sizeof *r->genes);
    memcpy(r->parents, s->parents, 2 * pop * sizeof *r->parents);
    memcpy(r->plans, s->plans, s->islands * sizeof *r->plans);
    if (topk_init(&r->hof, s->hof_k, err) != EV_OK)
        return EV_ENOMEM;
    for (uint32_t j = 0; j < s->hof_n; j++)
        topk_insert(&r->hof, &s->hof[j]);
    r->cache_count = r->cache.count;
    r->cache_index = (uint64_t *)malloc((r->cache_count + 1) * (size_t)r->words * sizeof *r->cache_index);
    r->cache_results = (eval_result_t *)malloc((r->cache_count + 1) * sizeof *r->cache_results);
    dedup_export(&r->cache, r->cache_index, r->cache_results);
    r->snap.genes = r->genes;
    r->snap.parents = r->parents;
    r->snap.plans = r->plans;
    r->snap.hof = r->hof.e;
    return EV_OK;
}

static void rec_open(recorder_t *r, const ga_fixture_t *f, const ga_settings_t *s, uint32_t want, uint32_t every,
                     ga_observer_t *obs)
{
    ev_error err;
    memset(r, 0, sizeof *r);
    trace_observer(&r->inner, &r->tr);
    r->f = f;
    r->words = genome_index_words(f->p.shape.n_values, f->p.shape.n_params);
    r->want = want;
    r->press_ctrl_c_at = -1;
    if (dedup_init(&r->cache, r->words, ga_cache_capacity(s->cache_max_mb, r->words), s->population, &err)) {
        fprintf(stderr, "cache: %s\n", err.msg);
        exit(2);
    }
    memset(obs, 0, sizeof *obs);
    obs->ctx = r;
    obs->want_population = 1;
    obs->on_generation = rec_gen;
    obs->checkpoint_every = every;
    obs->on_checkpoint = rec_snap;
}

static void rec_close(recorder_t *r)
{
    dedup_free(&r->cache);
    if (r->have)
        topk_free(&r->hof);
    free(r->genes);
    free(r->parents);
    free(r->cache_index);
    free(r->cache_results);
}

static ev_status run(const ga_fixture_t *f, const ga_settings_t *s, const ga_observer_t *obs, const ga_resume_t *resume,
                     ga_result_t *res, ev_error *err)
{
    ga_run_opts_t o;
    memset(&o, 0, sizeof o);
    o.seed = 99;
    o.top = grid_pool_size(7); /* as evolve's: the hall of fame holds the candidates of a top 7 */
    o.observer = obs;
    o.resume = resume;
    o.tables = &f->t.view;
    return ga_run(&backend_cpu_ops, f->b, &f->p, s, &o, res, err);
}

static void same_result(const ga_result_t *a, const ga_result_t *b)
{
    CHECK_EQ_I64(a->reason, b->reason);
    CHECK_EQ_I64(a->generations, b->generations);
    CHECK_EQ_I64(a->evaluations, b->evaluations);
    CHECK_EQ_I64(a->lookups, b->lookups);
    CHECK_EQ_I64(a->ls_evaluations, b->ls_evaluations);
    CHECK_EQ_I64(a->restarts, b->restarts);
    CHECK_EQ_I64(a->searches_best, b->searches_best);
    CHECK_EQ_F64(a->hit_rate, b->hit_rate);
    CHECK_EQ_I64(a->hof.n, b->hof.n);
    for (uint32_t j = 0; j < a->hof.n && j < b->hof.n; j++)
        CHECK(!memcmp(&a->hof.e[j], &b->hof.e[j], sizeof a->hof.e[j]));
}

/* The uninterrupted run, then a resume from each of several generations. */
static void check_resumes(const ga_fixture_t *f, const ga_settings_t *s, const char *what)
{
    recorder_t ref;
    ga_observer_t obs;
    ga_result_t full;
    ev_error err;
    uint32_t points[5] = {1, 2, 5, 13, 0};
    rec_open(&ref, f, s, 0, 1, &obs);
    if (run(f, s, &obs, NULL, &full, &err)) {
        fprintf(stderr, "%s: %s\n", what, err.msg);
        exit(2);
    }
    CHECK_EQ_I64(full.generations - 1, ref.snapshots); /* one after each breeding */
    points[4] = full.generations - 1;                  /* the last generation bred */
    if (s->ls_every) {
        printf("%s: local search swept %llu evaluations' worth, put %llu improved genomes in\n", what,
               (unsigned long long)full.ls_evaluations, (unsigned long long)full.ls_improved);
        CHECK(full.ls_evaluations > 0);
        CHECK(full.ls_improved > 0);
    }
    if (s->restart_stall) {
        printf("%s: %u restarts, the last made generation %u\n", what, full.restarts, ref.restart_seen);
        CHECK(full.restarts > 0);
        CHECK_EQ_I64(full.restarts, ref.restart_plans);
    }
    for (int i = 0; i < 5; i++) {
        recorder_t cut, again;
        ga_observer_t o1, o2;
        ga_result_t r1, r2;
        ga_resume_t rs;
        if (points[i] >= full.generations)
            continue;
        rec_open(&cut, f, s, points[i], 1, &o1);
        CHECK_EQ_I64(EV_OK, run(f, s, &o1, NULL, &r1, &err));
        CHECK(cut.have);
        memset(&rs, 0, sizeof rs);
        rs.at = cut.snap;
        rs.cache_count = cut.cache_count;
        rs.cache_index = cut.cache_index;
        rs.cache_results = cut.cache_results;
        rec_open(&again, f, s, UINT32_MAX, 1, &o2);
        again.expect_last_restart = ref.last_restart;
        CHECK_EQ_I64(EV_OK, run(f, s, &o2, &rs, &r2, &err));
        same_result(&full, &r2);
        CHECK_EQ_I64(full.generations - points[i], again.tr.n);
        for (uint32_t g = points[i]; g < full.generations && g - points[i] < again.tr.n; g++)
            CHECK_EQ_I64(ref.tr.hash[g], again.tr.hash[g - points[i]]);
        printf("%s: resumed at generation %u of %u: identical\n", what, points[i], full.generations);
        ga_result_free(&r1);
        ga_result_free(&r2);
        rec_close(&cut);
        rec_close(&again);
    }
    ga_result_free(&full);
    rec_close(&ref);
}

static void check_every(const ga_fixture_t *f, const ga_settings_t *s)
{
    recorder_t r;
    ga_observer_t obs;
    ga_result_t res;
    ev_error err;
    rec_open(&r, f, s, 0, 3, &obs);
    CHECK_EQ_I64(EV_OK, run(f, s, &obs, NULL, &res, &err));
    CHECK_EQ_I64((res.generations - 1) / 3, r.snapshots); /* generations 3, 6, ... */
    ga_result_free(&res);
    rec_close(&r);
    rec_open(&r, f, s, 0, 1, &obs); /* checkpoint_every_s: the first, then at least an hour apart */
    obs.checkpoint_every_s = 3600.0;
    CHECK_EQ_I64(EV_OK, run(f, s, &obs, NULL, &res, &err));
    CHECK_EQ_I64(1, r.snapshots);
    ga_result_free(&res);
    rec_close(&r);
}

/* Last: the interrupt flag stays set once raised. */
static void check_ctrl_c(const ga_fixture_t *f, const ga_settings_t *s)
{
    recorder_t r;
    ga_observer_t obs;
    ga_result_t res;
    ev_error err;
    plat_install_interrupt();
    rec_open(&r, f, s, UINT32_MAX, 1000, &obs);
    r.press_ctrl_c_at = (int)s->generations - 1;
    CHECK_EQ_I64(EV_OK, run(f, s, &obs, NULL, &res, &err));
    CHECK_EQ_I64(GA_STOP_GENERATIONS, res.reason); /* the run was complete anyway */
    CHECK_EQ_I64(0, r.snapshots);                  /* every 1000: none, and no interruption */
    ga_result_free(&res);
    rec_close(&r);

    rec_open(&r, f, s, 4, 1000, &obs); /* the flag is still set: stops after generation 3 */
    r.press_ctrl_c_at = 3;
    CHECK_EQ_I64(EV_OK, run(f, s, &obs, NULL, &res, &err));
    CHECK_EQ_I64(GA_STOP_INTERRUPTED, res.reason);
    CHECK_EQ_I64(1, res.generations); /* the flag was already set: generation 0 finished */
    CHECK_EQ_I64(1, r.snapshots);     /* generation 1, bred for the resume */
    ga_result_free(&res);
    rec_close(&r);
}

/* Relaxed kicks (local_search.kick_relax) on a planted problem whose
 * min_trades binds, then relaxed random starts too (local_search.random_relax):
 * each run differs from the one before, and resumes exactly. */
static void check_relaxed(void)
{
    ga_fixture_t f;
    planted_opts_t po;
    ga_settings_t s;
    ga_result_t plain, relaxed, random;
    ev_error err;
    planted_defaults(&po);
    fixture_open_min_trades(&f, &po, planted_trades(&po) / 3);
    fixture_settings(&s);
    s.islands = 1;
    s.ls_every = 3;
    s.ls_random = 4;
    s.ls_kicks = 2;
    s.ls_random_relax = 0; /* relaxed kicks alone first (the default relaxes random starts too) */
    CHECK_EQ_I64(EV_OK, run(&f, &s, NULL, NULL, &plain, &err));
    s.ls_kick_relax = 60;
    CHECK_EQ_I64(EV_OK, run(&f, &s, NULL, NULL, &relaxed, &err));
    CHECK(plain.ls_evaluations != relaxed.ls_evaluations);
    check_resumes(&f, &s, "local search with relaxed kicks");
    s.ls_random_relax = 1;
    CHECK_EQ_I64(EV_OK, run(&f, &s, NULL, NULL, &random, &err));
    CHECK(random.ls_evaluations != relaxed.ls_evaluations);
    check_resumes(&f, &s, "local search with relaxed random starts");
    ga_result_free(&plain);
    ga_result_free(&relaxed);
    ga_result_free(&random);
    fixture_close(&f);
}

int main(void)
{
    ga_fixture_t f;
    ga_settings_t s;
    fixture_open(&f, 4, 10);
    fixture_settings(&s);
    check_resumes(&f, &s, "2 islands");
    s.islands = 1;
    s.stall_generations = 4; /* the stall state must survive a resume */
    s.generations = 200;
    check_resumes(&f, &s, "stall");
    fixture_settings(&s);
    s.ls_every = 2; /* local search: climbed genomes join the population */
    s.ls_members = 3;
    check_resumes(&f, &s, "local search depth 1");
    s.ls_every = 3;
    s.ls_depth = 2;
    s.islands = 1;
    check_resumes(&f, &s, "local search depth 2");
    s.ls_random = 4; /* random starts climbed too (their draws must resume exactly) */
    check_resumes(&f, &s, "local search with random climbs");
    s.ls_kicks = 2; /* kicks of the hall of fame's best: it must resume exactly */
    check_resumes(&f, &s, "local search with kicks");
    s.ls_kicks = 0;
    s.ls_random = 0;
    s.restart_stall = 3; /* restarts with local search on */
    s.generations = 60;
    check_resumes(&f, &s, "restarts and local search");
    s.restart_elites = 1;
    check_resumes(&f, &s, "restarts keeping elites");
    s.restart_elites = 0; /* a budget and no generation cap (docs/ga.md "Budgets") */
    s.generations = GA_GENERATIONS_UNCAPPED;
    s.max_evaluations = 3000;
    check_resumes(&f, &s, "budget, restarts and local search");
    fixture_settings(&s);
    check_every(&f, &s);
    fixture_close(&f);
    check_relaxed();
    fixture_open(&f, 14, 30); /* two-word indices */
    fixture_settings(&s);
    s.generations = 16;
    check_resumes(&f, &s, "2^64+ lattice");
    fixture_settings(&s);
    s.generations = 12;
    check_ctrl_c(&f, &s);
    fixture_close(&f);
    return check_exit();
}
