/* Local search's random starts and kicks (docs/ga.md "Local search",
 * local_search.random, local_search.kicks) are climbed where the docs say,
 * and their peaks join the next generation: an oracle draws start j after
 * generation g from the RANDOM stream at (generation g, individual
 * population + j), or for the last `kicks` of the random climbs kicks the
 * hall of fame's best after generation g (as the observer sees it) with
 * ls_kick at those counters, climbs it with ls_climb from an unknown
 * (infeasible) result, and every feasible peak it reaches must be in
 * generation g + 1 with no parents. Starts drawn at other counters (the next
 * generation's, or individuals 0..j, which immigrants draw), kicks of another
 * genome (the generation's best, the hall of fame's second), of another size
 * or on the wrong climbs reach other peaks on these problems and fail here; so
 * do climbs never put in, and relaxed climbs (local_search.kick_relax) of the
 * wrong starts: kicks, and with local_search.random_relax random starts too;
 * and on random lattices whose exits hold off, random starts whose exits are
 * not at off with local_search.random_exits_off (or are with it false), and
 * kicks whose exits are. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ga/ga_run.h"
#include "ga/local_search.h"
#include "ga/ls_kick.h"
#include "ga/ls_relax.h"
#include "ga/ls_sweep.h"
#include "operators/genome.h"
#include "tests/check.h"
#include "tests/support/builder.h"
#include "tests/support/ga_fixture.h"
#include "tests/support/random_problem.h"

#define MAX_GENS 31
#define POP 64
#define RANDOM 4
#define EVERY 3
#define MIN_TRADES 100
#define MIN_TRADES_RANDOM 10
#define MIN_TRADES_DEPTH2 30

typedef struct {
    uint32_t n, ng;
    uint16_t genes[MAX_GENS][EV_MAX_PARAMS * POP]; /* SoA [n_genes][POP] */
    int32_t parents[MAX_GENS][2 * POP];
    uint16_t best[MAX_GENS][EV_MAX_PARAMS]; /* the hall of fame's best after each generation */
    int feasible[MAX_GENS];
} log_t;

typedef struct {
    const char *what;
    uint32_t gens, kicks, kick_genes, depth, islands, kick_relax, random_relax;
    uint64_t seed;      /* the GA's (0: 11) */
    uint32_t exits_off; /* local_search.random_exits_off */
} case_t;

/* What a case runs on: a problem on the CPU backend and its host tables. */
typedef struct {
    const fit_problem_t *p;
    backend_t *b;
    const fit_tables_t *t;
} subject_t;

static ev_status on_gen(void *ctx, const ga_generation_t *g, ev_error *err)
{
    log_t *l = (log_t *)ctx;
    uint32_t i = g->stats->generation;
    (void)err;
    if (i >= MAX_GENS || g->population != POP)
        return EV_OK;
    l->ng = g->n_genes;
    memcpy(l->genes[i], g->genes, (size_t)g->n_genes * POP * sizeof *g->genes);
    memcpy(l->parents[i], g->parents, 2 * POP * sizeof *g->parents);
    l->feasible[i] = g->stats->hof->n && g->stats->hof->e[0].r.feasible;
    if (l->feasible[i])
        memcpy(l->best[i], g->stats->hof->e[0].genes, (size_t)g->n_genes * sizeof *l->best[i]);
    l->n = i + 1;
    return EV_OK;
}

/* Whether genes[] is an individual of generation gen made with no parents. */
static int in_generation(const log_t *l, uint32_t gen, const uint16_t *genes)
{
    for (uint32_t i = 0; i < POP; i++) {
        uint32_t k = 0;
        while (k < l->ng && l->genes[gen][(size_t)k * POP + i] == genes[k])
            k++;
        if (k == l->ng && l->parents[gen][i] == -1 && l->parents[gen][POP + i] == -1)
            return 1;
    }
    return 0;
}

/* Start j after generation g, as the docs say, with a random start's exits
 * at off when exits_off; its kick size in *k (0: random). */
static void start_of(const subject_t *f, const log_t *l, const case_t *c, uint32_t exits_off, uint64_t seed, uint32_t g,
                     uint32_t j, uint16_t *genes, uint32_t *k)
{
    *k = 0;
    if (j >= RANDOM - c->kicks && l->feasible[g]) {
        memcpy(genes, l->best[g], sizeof l->best[g]);
        *k = ls_kick(rng_key(seed), g, POP + j, f->p->shape.n_params, f->p->shape.n_values, 2, c->kick_genes, genes);
        return;
    }
    genome_random(rng_key(seed), g, POP + j, f->p->shape.n_params, f->p->shape.n_values, genes);
    for (int32_t q = 0; exits_off && q < f->p->lat->n_params; q++) /* off: an exit's last value */
        if (f->p->lat->params[q].role != PARAM_FILTER &&
            isinf(f->p->lat->params[q].values[f->p->shape.n_values[q] - 1]))
            genes[q] = (uint16_t)(f->p->shape.n_values[q] - 1);
}

/* Climbs a start as the GA climbs start j (relaxed first where the case says). */
static void climb_start(const subject_t *f, const case_t *c, const ls_sweep_t *sw, const ls_relaxed_t *rx, int relax,
                        int kick, uint16_t *genes, eval_result_t *r)
{
    const int32_t ng = f->p->shape.n_params;
    ls_tally_t tl;
    ev_error err;
    memset(r, 0, sizeof *r);
    memset(&tl, 0, sizeof tl);
    if (relax && (kick || c->random_relax))
        CHECK_EQ_I64(EV_OK, ls_climb_relaxed(&rx->sw, sw, ng, c->depth, kick ? c->depth : 1, genes, r, &tl, &err));
    else
        CHECK_EQ_I64(EV_OK, ls_climb(sw, ng, c->depth, genes, r, &tl, &err));
}

/* peaks[0] of random starts, peaks[1] of kicks: the feasible ones, all checked;
 * peaks[2] of random starts, peaks[3] of kicks: those whose relaxed climb
 * (c->kick_relax) ends elsewhere than a plain climb would; peaks[4] of relaxed
 * random starts at depth 2: those whose climb under the real min_trades ends
 * elsewhere at depth 2 than at depth 1, the depth a random start climbs it at;
 * peaks[5] of random starts: those whose start with the other random_exits_off
 * climbs elsewhere. */
static void check_case(const subject_t *f, const case_t *c, uint32_t *peaks)
{
    static log_t l;
    ga_settings_t s;
    ga_observer_t obs;
    ga_run_opts_t o;
    ga_result_t res;
    ev_error err;
    uint32_t found[2] = {0, 0}, kicked = 0;
    const int32_t ng = f->p->shape.n_params;
    ls_sweep_t sw = ls_sweep_tables(f->t, ng);
    ls_relaxed_t rx;
    int relax;
    sw.skip_exit_pairs = 1; /* as the GA climbs by default (local_search.exit_pairs false) */
    relax = ls_relax_init(&rx, &sw, c->kick_relax);
    memset(&l, 0, sizeof l);
    fixture_settings(&s);
    s.population = POP;
    s.islands = c->islands;
    s.generations = c->gens;
    s.ls_every = EVERY;
    s.ls_members = 1;
    s.ls_depth = c->depth;
    s.ls_random = RANDOM;
    s.ls_kicks = c->kicks;
    s.ls_kick_genes = c->kick_genes;
    s.ls_kick_relax = c->kick_relax;
    s.ls_random_relax = c->random_relax;
    s.ls_random_exits_off = c->exits_off;
    memset(&obs, 0, sizeof obs);
    obs.ctx = &l;
    obs.want_population = 1;
    obs.on_generation = on_gen;
    memset(&o, 0, sizeof o);
    o.seed = c->seed ? c->seed : 11;
    o.top = 5;
    o.observer = &obs;
    CHECK_EQ_I64(EV_OK, ga_run(&backend_cpu_ops, f->b, f->p, &s, &o, &res, &err));
    CHECK_EQ_I64(c->gens, l.n);
    memset(peaks, 0, 6 * sizeof *peaks);
    for (uint32_t g = 0; g + 1 < l.n; g++) {
        if ((g + 1) % EVERY != 0)
            continue;
        for (uint32_t j = 0; j < RANDOM; j++) {
            uint16_t genes[EV_MAX_PARAMS], plain[EV_MAX_PARAMS], deep[EV_MAX_PARAMS], other[EV_MAX_PARAMS];
            eval_result_t r, ro;
            uint32_t k, k_other;
            int kick;
            start_of(f, &l, c, c->exits_off, o.seed, g, j, genes, &k);
            kick = k > 0;
            memcpy(plain, genes, sizeof plain);
            memcpy(deep, genes, sizeof deep);
            climb_start(f, c, &sw, &rx, relax, kick, genes, &r);
            if (relax && (kick || c->random_relax)) { /* climbed under min_trades x kick_relax % first */
                eval_result_t rp, rd;
                ls_tally_t tl;
                memset(&rp, 0, sizeof rp);
                memset(&tl, 0, sizeof tl);
                rd = rp;
                CHECK_EQ_I64(EV_OK, ls_climb(&sw, ng, s.ls_depth, plain, &rp, &tl, &err));
                CHECK_EQ_I64(EV_OK, ls_climb_relaxed(&rx.sw, &sw, ng, s.ls_depth, s.ls_depth, deep, &rd, &tl, &err));
                peaks[4] += !kick && memcmp(deep, genes, (size_t)ng * sizeof *genes) != 0;
            }
            if (!kick) { /* the start the other random_exits_off gives, climbed alike */
                start_of(f, &l, c, !c->exits_off, o.seed, g, j, other, &k_other);
                climb_start(f, c, &sw, &rx, relax, 0, other, &ro);
            }
            if (rank_key(r) == 0)
                continue;
            peaks[kick]++;
            peaks[2 + kick] += memcmp(plain, genes, (size_t)ng * sizeof *genes) != 0;
            peaks[5] += !kick && memcmp(other, genes, (size_t)ng * sizeof *genes) != 0;
            kicked += kick && k >= 2 && k <= c->kick_genes;
            if (in_generation(&l, g + 1, genes))
                found[kick]++;
            else
                fprintf(stderr, "%s: generation %u: %s climb %u's peak (fitness %.17g) is not in generation %u\n",
                        c->what, g, kick ? "kicked" : "random", j, r.fitness, g + 1);
        }
    }
    printf("%s: feasible peaks: %u of random starts, %u of kicks (%u in the next generation); ls_improved %llu\n",
           c->what, peaks[0], peaks[1], found[0] + found[1], (unsigned long long)res.ls_improved);
    CHECK_EQ_I64(peaks[0], found[0]);
    CHECK_EQ_I64(peaks[1], found[1]);
    CHECK_EQ_I64(peaks[1], kicked);
    ga_result_free(&res);
}

/* check_case on the planted landscape po under a min_trades */
static void check_min_trades_case(const planted_opts_t *po, int64_t min_trades, const case_t *c, uint32_t *peaks)
{
    ga_fixture_t f;
    subject_t sf = {&f.p, NULL, NULL};
    fixture_open_min_trades(&f, po, min_trades);
    sf.b = f.b;
    sf.t = &f.t.view;
    check_case(&sf, c, peaks);
    fixture_close(&f);
}

/* Four filters on random datasets' features, a target, a stop and the three
 * exits that can be off, each holding off (its last value). */
static void off_lattice(lattice_t *lat, const dataset_t *ds)
{
    static const double f01[] = {0.0, 0.1, 0.2, 0.3, 0.5, 0.7, 0.8, 1.0},
                        f2[] = {0.0, 0.3, 0.6, 0.9, 1.2, 1.5, 2.0, 2.5};
    static const double tp[] = {0.05, 0.1, 0.2, 0.3, 0.5, 1.0}, sp[] = {-1.0, -0.5, -0.3, -0.2, -0.1, -0.05};
    static const double tr[] = {0.02, 0.05, 0.1, 0.2, 0.5, HUGE_VAL}, be[] = {0.02, 0.05, 0.1, 0.2, 0.3, HUGE_VAL};
    static const double mh[] = {0, 1, 3, 10, 30, HUGE_VAL};
    memset(lat, 0, sizeof *lat);
    tb_param(lat, "f0", PARAM_FILTER, FILTER_MIN, random_feature_names[0], f01, 8);
    tb_param(lat, "f1", PARAM_FILTER, FILTER_MAX, random_feature_names[1], f01, 8);
    tb_param(lat, "f2", PARAM_FILTER, FILTER_MIN, random_feature_names[2], f2, 8);
    tb_param(lat, "f3", PARAM_FILTER, FILTER_MAX, random_feature_names[2], f2, 8);
    tb_param(lat, "target", PARAM_TARGET, FILTER_MIN, NULL, tp, 6);
    tb_param(lat, "stop", PARAM_STOP, FILTER_MIN, NULL, sp, 6);
    tb_param(lat, "trail", PARAM_TRAIL, FILTER_MIN, NULL, tr, 6);
    tb_param(lat, "breakeven", PARAM_BREAKEVEN, FILTER_MIN, NULL, be, 6);
    tb_param(lat, "hold", PARAM_MAX_HOLD, FILTER_MIN, NULL, mh, 6);
    tb_lattice_done(lat, ds);
}

/* Random starts at off exits (local_search.random_exits_off), on and off, on
 * random problems over off_lattice: every feasible peak of the starts the docs
 * give is in the next generation, and enough of them climb elsewhere from the
 * start the other setting gives to tell the two apart. */
static void check_exits_off(void)
{
    const random_dataset_opts_t big = {600, 100, 50};
    case_t c = {"random starts at off exits", 10, 1, 3, 2, 1, 90, 1, 0, 1};
    uint64_t rng = 7;
    uint32_t peaks[6], differ[2] = {0, 0};
    for (int i = 0; i < 3; i++) {
        random_problem_t rp;
        cpu_problem_t cp;
        random_dataset(&rp.ds, &rng, &big);
        off_lattice(&rp.lat, &rp.ds);
        random_objective(&rp.obj, &rng);
        rp.obj.min_trades = 20;
        if (cpu_problem_open(&cp, &rp.ds, &rp.lat, &rp.obj)) {
            subject_t sf = {&cp.p, cp.b, &cp.t.view};
            for (uint32_t on = 0; on < 2; on++) {
                c.exits_off = on;
                check_case(&sf, &c, peaks);
                CHECK(peaks[0] >= 3); /* 3 local search steps of 2 random climbs (and one kick) */
                differ[on] += peaks[5];
            }
            cpu_problem_close(&cp);
        } else {
            CHECK(0);
        }
        random_problem_free(&rp);
    }
    printf(
        "random starts at off exits: %u (exits off) and %u (exits drawn) random starts climbed elsewhere from the "
        "other setting's start\n",
        differ[1], differ[0]);
    CHECK(differ[1] >= 10); /* the setting matters here: the GA must start so */
    CHECK(differ[0] >= 10);
}

int main(void)
{
    const case_t random = {"random starts", 16, 0, 4, 2, 2, 100, 0, 0, 1},
                 kicks = {"kicks", 31, 3, 5, 1, 1, 100, 0, 0, 1};
    const case_t relaxed = {"relaxed kicks", 31, 3, 5, 1, 1, 60, 0, 0, 1};
    const case_t relaxed_random = {"relaxed random starts", 31, 0, 5, 1, 1, 60, 1, 0, 1};
    const case_t relaxed_random_2 = {"relaxed random starts at depth 2", 31, 1, 5, 2, 1, 30, 1, 0, 1};
    ga_fixture_t f;
    planted_opts_t po;
    subject_t sf = {&f.p, NULL, NULL};
    uint32_t peaks[6], shallow = 0;
    fixture_open(&f, 10, 30);
    sf.b = f.b;
    sf.t = &f.t.view;
    check_case(&sf, &random, peaks);
    CHECK(peaks[0] >= 10); /* 5 local search steps of 4 random climbs */
    CHECK_EQ_I64(0, peaks[1]);
    fixture_close(&f);
    /* kicks: a rugged landscape (mostly noise), where a kick's peak depends on
     * the kick, climbed at depth 1 (peaks nearer to their starts) */
    planted_defaults(&po);
    po.n_filters = 10;
    po.n_values = 30;
    po.good = 5;
    po.dip = 0;
    po.crash = 0;
    po.bad_per_filter = 2;
    po.noise = 600;
    fixture_open_planted(&f, &po);
    sf.b = f.b;
    sf.t = &f.t.view;
    check_case(&sf, &kicks, peaks);
    CHECK(peaks[1] >= 20); /* 10 local search steps of 3 kicks */
    CHECK(peaks[0] >= 8);  /* and of 1 random start */
    fixture_close(&f);
    /* relaxed kicks: the same landscape under a min_trades that binds */
    check_min_trades_case(&po, MIN_TRADES, &relaxed, peaks);
    printf("relaxed kicks: %u of %u ended elsewhere than a plain climb\n", peaks[3], peaks[1]);
    CHECK(peaks[1] >= 12);
    CHECK(peaks[3] >= 8);      /* the relaxation matters here: the GA must climb them so */
    CHECK_EQ_I64(0, peaks[2]); /* random starts climb plainly (random_relax 0) */
    /* relaxed random starts: 3 of the 4 random climbs a step, relaxed as the
     * kick is, under a min_trades random starts can meet */
    check_min_trades_case(&po, MIN_TRADES_RANDOM, &relaxed_random, peaks);
    printf("relaxed random starts: %u of %u ended elsewhere than a plain climb\n", peaks[2], peaks[0]);
    CHECK(peaks[0] >= 12); /* 10 local search steps of 4 random climbs */
    CHECK(peaks[2] >= 10); /* the relaxation matters here too */
    /* relaxed random starts at depth 2: climbed at depth 1 under the real
     * min_trades, the kicks at depth 2 */
    po.dip = 40;
    po.crash = 40;
    for (int i = 0; i < 3; i++) { /* GA seeds where the depth of a random start's real climb matters */
        static const uint64_t seeds[3] = {3, 15, 21};
        case_t c2 = relaxed_random_2;
        c2.seed = seeds[i];
        check_min_trades_case(&po, MIN_TRADES_DEPTH2, &c2, peaks);
        printf(
            "relaxed random starts at depth 2, seed %llu: feasible peaks: %u of random starts (%u elsewhere than "
            "a plain climb, %u elsewhere than with pairs under the real min_trades), %u of kicks\n",
            (unsigned long long)c2.seed, peaks[0], peaks[2], peaks[4], peaks[1]);
        CHECK(peaks[0] >= 12);
        CHECK(peaks[1] >= 1);
        shallow += peaks[4];
    }
    CHECK_EQ_I64(3, shallow); /* a random start climbed at depth 2 under the real min_trades ends elsewhere */
    check_exits_off();
    return check_exit();
}
