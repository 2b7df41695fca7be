/* Local search's kicks (docs/ga.md "Local search", local_search.kicks) start
 * where the docs say and their peaks join the next generation: an oracle
 * takes the hall of fame's best after generation g (as the observer sees it),
 * kicks it with ls_kick at the RANDOM stream's (generation g, individual
 * population + j) for the last `kicks` of the `random` climbs j (the others
 * are random starts, as before), climbs it with ls_climb from an unknown
 * result, and every feasible peak must be in generation g + 1 with no
 * parents. Kicks of another genome (the generation's best, or the second of
 * the hall of fame), at other counters, of another size or on the wrong climbs
 * reach other peaks on this problem and fail here. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ga/ga_run.h"
#include "ga/local_search.h"
#include "ga/ls_kick.h"
#include "ga/ls_sweep.h"
#include "operators/genome.h"
#include "tests/check.h"
#include "tests/support/ga_fixture.h"

#define GENS 31
#define POP 64
#define RANDOM 4
#define KICKS 3
#define KICK_GENES 5
#define EVERY 3

typedef struct {
    uint32_t n, ng;
    uint16_t genes[GENS][EV_MAX_PARAMS * POP]; /* SoA [n_genes][POP] */
    int32_t parents[GENS][2 * POP];
    uint16_t best[GENS][EV_MAX_PARAMS]; /* the hall of fame's best after each generation */
    int feasible[GENS];
} log_t;

static ev_status on_gen(void *ctx, const ga_generation_t *g, ev_error *err)
{
    log_t *l = (log_t *)ctx;
    uint32_t i = g->stats->generation;
    (void)err;
    if (i >= GENS || g->population != POP)
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

int main(void)
{
    static log_t l;
    ga_fixture_t f;
    ga_settings_t s;
    ga_observer_t obs;
    ga_run_opts_t o;
    ga_result_t res;
    ev_error err;
    uint32_t peaks[2] = {0, 0}, found[2] = {0, 0}, moved = 0;
    planted_opts_t po;
    planted_defaults(&po);
    po.n_filters = 10;
    po.n_values = 30;
    po.good = 5; /* mostly noise: a rugged landscape, whose kicks end on many peaks */
    po.dip = 0;
    po.crash = 0;
    po.bad_per_filter = 2;
    po.noise = 600;
    fixture_open_planted(&f, &po);
    fixture_settings(&s);
    s.ls_depth = 1; /* peaks nearer to their starts: a kick's differ more */
    s.population = POP;
    s.islands = 1;
    s.generations = GENS;
    s.ls_every = EVERY;
    s.ls_members = 1;
    s.ls_random = RANDOM;
    s.ls_kicks = KICKS;
    s.ls_kick_genes = KICK_GENES;
    memset(&obs, 0, sizeof obs);
    obs.ctx = &l;
    obs.want_population = 1;
    obs.on_generation = on_gen;
    memset(&o, 0, sizeof o);
    o.seed = 11;
    o.top = 5;
    o.observer = &obs;
    CHECK_EQ_I64(EV_OK, ga_run(&backend_cpu_ops, f.b, &f.p, &s, &o, &res, &err));
    CHECK_EQ_I64(GENS, l.n);
    ls_sweep_t sw = ls_sweep_tables(&f.t.view, f.p.shape.n_params);
    for (uint32_t g = 0; g + 1 < l.n; g++) {
        if ((g + 1) % EVERY != 0)
            continue;
        for (uint32_t j = 0; j < RANDOM; j++) {
            int kick = j >= RANDOM - KICKS && l.feasible[g];
            uint16_t genes[EV_MAX_PARAMS];
            eval_result_t r;
            ls_tally_t tl;
            uint32_t k = 0;
            if (kick) {
                memcpy(genes, l.best[g], sizeof genes);
                k = ls_kick(rng_key(o.seed), g, POP + j, f.p.shape.n_params, f.p.shape.n_values, 2, KICK_GENES, genes);
            } else {
                genome_random(rng_key(o.seed), g, POP + j, f.p.shape.n_params, f.p.shape.n_values, genes);
            }
            memset(&r, 0, sizeof r);
            memset(&tl, 0, sizeof tl);
            CHECK_EQ_I64(EV_OK, ls_climb(&sw, f.p.shape.n_params, s.ls_depth, genes, &r, &tl, &err));
            if (rank_key(r) == 0)
                continue;
            peaks[kick]++;
            moved += kick && k >= 2;
            if (in_generation(&l, g + 1, genes))
                found[kick]++;
            else
                fprintf(stderr, "generation %u: %s climb %u's peak (fitness %.17g) is not in generation %u\n", g,
                        kick ? "kicked" : "random", j, r.fitness, g + 1);
        }
    }
    printf("feasible peaks: %u of random climbs, %u of kicks (%u in the next generation); ls_improved %llu\n", peaks[0],
           peaks[1], found[0] + found[1], (unsigned long long)res.ls_improved);
    CHECK(peaks[1] >= 20); /* 10 local search steps of 3 kicks */
    CHECK_EQ_I64(peaks[1], moved);
    CHECK(peaks[0] >= 8); /* and of 1 random climb */
    CHECK_EQ_I64(peaks[0], found[0]);
    CHECK_EQ_I64(peaks[1], found[1]);
    ga_result_free(&res);
    fixture_close(&f);
    return check_exit();
}
