/* Local search's random starts (docs/ga.md "Local search", local_search.random)
 * are climbed where the docs say, and their peaks join the next generation:
 * an oracle draws start j after generation g from the RANDOM stream at
 * (generation g, individual population + j), climbs it with ls_climb from an
 * unknown (infeasible) result, and every feasible peak it reaches must be in
 * generation g + 1 with no parents. Starts drawn at other counters (the next
 * generation's, or individuals 0..j, which immigrants draw) reach other
 * peaks on this problem and fail here; so do climbs never put in. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ga/ga_run.h"
#include "ga/local_search.h"
#include "ga/ls_sweep.h"
#include "operators/genome.h"
#include "tests/check.h"
#include "tests/support/ga_fixture.h"

#define GENS 16
#define POP 64
#define RANDOM 4
#define EVERY 3

typedef struct {
    uint32_t n, ng;
    uint16_t genes[GENS][EV_MAX_PARAMS * POP]; /* SoA [n_genes][POP] */
    int32_t parents[GENS][2 * POP];
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
    uint32_t peaks = 0, found = 0;
    fixture_open(&f, 10, 30);
    fixture_settings(&s);
    s.population = POP;
    s.generations = GENS;
    s.ls_every = EVERY;
    s.ls_members = 1;
    s.ls_random = RANDOM;
    s.ls_kicks = 0; /* every one a random start (kicks: tests/test_ga_kicks.c) */
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
            uint16_t genes[EV_MAX_PARAMS];
            eval_result_t r;
            ls_tally_t tl;
            genome_random(rng_key(o.seed), g, POP + j, f.p.shape.n_params, f.p.shape.n_values, genes);
            memset(&r, 0, sizeof r);
            memset(&tl, 0, sizeof tl);
            CHECK_EQ_I64(EV_OK, ls_climb(&sw, f.p.shape.n_params, s.ls_depth, genes, &r, &tl, &err));
            if (rank_key(r) == 0)
                continue;
            peaks++;
            if (in_generation(&l, g + 1, genes))
                found++;
            else
                fprintf(stderr, "generation %u: random climb %u's peak (fitness %.17g) is not in generation %u\n", g, j,
                        r.fitness, g + 1);
        }
    }
    printf("%u feasible peaks of random climbs, %u in the next generation; ls_improved %llu\n", peaks, found,
           (unsigned long long)res.ls_improved);
    CHECK(peaks >= 10); /* 5 local search steps of 4 random climbs */
    CHECK_EQ_I64(peaks, found);
    ga_result_free(&res);
    fixture_close(&f);
    return check_exit();
}
