/* bench_climb: random restarts of the GA's exact climber, the multi-start arm
 * of the search suite (bench/suite/README.md). From a uniformly random genome,
 * ls_climb (docs/ga.md "Local search") climbs on the config's first-hit
 * tables to a peak; again from a new random genome until the budget is spent.
 * Prints one JSON line: the best peak as `top` (its value as the run's JSON
 * reports it), the evaluations in the GA's units (each start 1, the sweeps
 * their cost), and how rugged the lattice looked: distinct peaks (`basins`),
 * distinct peak values, and the climbs that ended at the best value.
 *
 *   bench_climb CONFIG [--seed S] [--evals N] [--seconds T] [--depth 1|2]
 *               [--kick K [--kick-min K0] [--from V1,V2,..]] [--relax P [--real-depth 1|2]] [--exits-off]
 *               [--peaks] [--no-exit-pairs]
 *
 * Start j is genome_random(seed, generation 0, individual j): deterministic
 * given the seed with --evals (the budget is checked before each climb, so a
 * run passes it by at most one climb, as a GA passes it by a generation).
 * With --kick, start j is instead a kick (ga/ls_kick.h: K0..K genes redrawn,
 * K0 default 2, draws at generation 0, individual j) of the genome --from
 * gives (each gene's value as its text in the config, `off` for an exit's
 * off), or without --from, of the best peak so far (iterated local search;
 * climb 0 from a random start). --relax P climbs each kick (without --kick,
 * each random start) as the GA's relaxed climbs (ga/ls_relax.h,
 * local_search.kick_relax P): under min_trades at P %, then back under the
 * real one, climbed there at --real-depth (by default --depth; the GA's random
 * starts: 1). --exits-off starts a random start's exits that can be off at off
 * (local_search.random_exits_off; the GA's random starts: `--relax 90
 * --real-depth 1 --exits-off --no-exit-pairs`). --peaks prints every climb's peak
 * (fitness, trades, sweep cost) and its start's trades and feasibility on
 * stderr. --no-exit-pairs climbs as the GA does by default
 * (local_search.exit_pairs false); without it every pair is swept. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/options.h"
#include "common/platform.h"
#include "fitness/lattice_shape.h"
#include "fitness/reported.h"
#include "ga/local_search.h"
#include "ga/ls_kick.h"
#include "ga/ls_relax.h"
#include "operators/genome.h"
#include "runs/session.h"

typedef struct {
    uint64_t evals, seconds, seed, kick, kick_min, relax;
    uint32_t depth, real_depth;
    int seed_given, peaks, no_exit_pairs, exits_off;
    const char *from;
} climb_opts_t;

typedef struct {
    ranked_genome_t *peak; /* every climb's peak, in climb order */
    uint64_t n, cap;
    uint64_t starts, ls_cost;
    double seconds;
} climbs_t;

static int by_rank(const void *a, const void *b)
{
    const ranked_genome_t *x = (const ranked_genome_t *)a, *y = (const ranked_genome_t *)b;
    return ranked_before(x, y) ? -1 : ranked_before(y, x) ? 1 : 0;
}

static ev_status keep_peak(climbs_t *c, const lattice_shape_t *sh, int size_fits, const uint16_t *g, eval_result_t r,
                           ev_error *err)
{
    ranked_genome_t *e;
    if (c->n == c->cap) {
        uint64_t cap = c->cap ? 2 * c->cap : 1024;
        ranked_genome_t *p = (ranked_genome_t *)realloc(c->peak, cap * sizeof *p);
        if (!p)
            return ev_fail(err, EV_ENOMEM, "out of memory for %" PRIu64 " peaks", cap);
        c->peak = p;
        c->cap = cap;
    }
    e = &c->peak[c->n++];
    memset(e, 0, sizeof *e);
    memcpy(e->genes, g, (size_t)sh->n_params * sizeof *g);
    e->r = r;
    e->key = rank_key(r);
    e->index = size_fits ? shape_encode(sh, g) : UINT64_MAX;
    return EV_OK;
}

/* --from's genome: each gene's value text, comma-separated, in gene order. */
static ev_status parse_from(const lattice_t *lat, const char *from, uint16_t *g, ev_error *err)
{
    const char *at = from;
    for (int32_t k = 0; k < lat->n_params; k++) {
        const param_t *p = &lat->params[k];
        size_t len = strcspn(at, ",");
        uint32_t v = 0;
        while (v < p->n_values && (strlen(p->value_text[v]) != len || strncmp(p->value_text[v], at, len) != 0))
            v++;
        if (v == p->n_values)
            return ev_fail(err, EV_EUSAGE, "--from: gene %d (%s): '%.*s' is none of its values", k, p->name, (int)len,
                           at);
        g[k] = (uint16_t)v;
        at += len + (at[len] == ',');
    }
    return *at ? ev_fail(err, EV_EUSAGE, "--from: more values than the %d genes", lat->n_params) : EV_OK;
}

/* Start j: random (with --exits-off its exits that can be off at off), or
 * with --kick a kick of --from's genome or of the best peak so far (best,
 * NULL before the first climb). Returns 1 for a kick. */
static int start_of(const climb_opts_t *o, const lattice_t *lat, const lattice_shape_t *sh, uint32_t j,
                    const uint16_t *from, const ranked_genome_t *best, uint16_t *g)
{
    philox_key_t key = rng_key(o->seed);
    if (!o->kick || (!from && !best)) {
        genome_random(key, 0, j, sh->n_params, sh->n_values, g);
        if (o->exits_off)
            lattice_exits_off(lat, g);
        return 0;
    }
    memcpy(g, from ? from : best->genes, (size_t)sh->n_params * sizeof *g);
    ls_kick(key, 0, j, sh->n_params, sh->n_values, (uint32_t)o->kick_min, (uint32_t)o->kick, g);
    return 1;
}

/* Climbs from random (or kicked) starts until o's budget is spent (at least once). */
static ev_status climb_all(const session_t *s, const climb_opts_t *o, climbs_t *c, ev_error *err)
{
    lattice_shape_t sh;
    ls_sweep_t sw;
    ls_relaxed_t rx;
    int relax;
    uint16_t from[EV_MAX_PARAMS];
    uint64_t best = UINT64_MAX; /* the best peak's index in c->peak (it may move: realloc) */
    double t0 = plat_now();
    ev_status st = EV_OK;
    lattice_shape_from(&sh, &s->cfg.lattice);
    sw = ls_sweep_tables(&s->tables.view, sh.n_params);
    sw.skip_exit_pairs = o->no_exit_pairs;
    relax = o->relax && ls_relax_init(&rx, &sw, (uint32_t)o->relax);
    if (o->from && (st = parse_from(&s->cfg.lattice, o->from, from, err)) != EV_OK)
        return st;
    for (uint32_t j = 0; st == EV_OK; j++) {
        uint16_t g[EV_MAX_PARAMS];
        eval_result_t r, start;
        ls_tally_t tl;
        int kick;
        if (j > 0 && ((o->evals && c->starts + c->ls_cost >= o->evals) ||
                      (o->seconds && plat_now() - t0 >= (double)o->seconds) || j == UINT32_MAX))
            break;
        kick =
            start_of(o, &s->cfg.lattice, &sh, j, o->from ? from : NULL, best == UINT64_MAX ? NULL : &c->peak[best], g);
        if ((st = s->ops->evaluate(s->backend, g, 1, &r, err)) != EV_OK)
            break;
        memset(&tl, 0, sizeof tl);
        start = r;
        /* --relax: the kicks, or without --kick every start */
        st = relax && (kick || !o->kick)
                 ? ls_climb_relaxed(&rx.sw, &sw, sh.n_params, o->depth, o->real_depth, g, &r, &tl, err)
                 : ls_climb(&sw, sh.n_params, o->depth, g, &r, &tl, err);
        if (st == EV_OK)
            st = keep_peak(c, &sh, s->cfg.lattice.size_fits, g, r, err);
        if (st == EV_OK && (best == UINT64_MAX || ranked_before(&c->peak[c->n - 1], &c->peak[best])))
            best = c->n - 1;
        if (st == EV_OK && o->peaks)
            fprintf(stderr, "peak %u %.17g %lld %llu %lld %d\n", j, r.fitness, (long long)r.trades,
                    (unsigned long long)tl.cost, (long long)start.trades, start.feasible);
        c->starts++;
        c->ls_cost += tl.cost;
    }
    c->seconds = plat_now() - t0;
    return st;
}

static void print_number(const char *key, double v)
{
    if (isfinite(v))
        printf("\"%s\": %.17g", key, v);
    else
        printf("\"%s\": \"%s\"", key, v > 0 ? "inf" : v < 0 ? "-inf" : "nan");
}

/* The JSON line; c->peak sorted best first. value: the best's reported value. */
static void print_json(const session_t *s, const climb_opts_t *o, const climbs_t *c, double value)
{
    const ranked_genome_t *b = &c->peak[0];
    const lattice_t *lat = &s->cfg.lattice;
    uint64_t basins = 1, values = 1, in_best = 0;
    for (uint64_t i = 0; i < c->n; i++) {
        in_best += c->peak[i].key == b->key;
        if (i > 0 && by_rank(&c->peak[i - 1], &c->peak[i]) != 0)
            basins++;
        if (i > 0 && c->peak[i - 1].key != c->peak[i].key)
            values++;
    }
    printf("{\"method\": \"climb\", \"seed\": %" PRIu64 ", \"depth\": %u, \"top\": [{", o->seed, o->depth);
    print_number("fitness", value);
    printf(", \"trades\": %" PRId64 ", \"feasible\": %s, \"values\": {", (int64_t)b->r.trades,
           b->r.feasible ? "true" : "false");
    for (int32_t k = 0; k < lat->n_params; k++) { /* an exit's off is the JSON string "off", as --json writes it */
        const param_t *p = &lat->params[k];
        const char *q = isinf(p->values[b->genes[k]]) ? "\"" : "";
        printf("%s\"%s\": %s%s%s", k ? ", " : "", p->name, q, p->value_text[b->genes[k]], q);
    }
    printf("}}], \"unique_evaluations\": %" PRIu64 ", \"ls_evaluations\": %" PRIu64
           ", \"generations\": 0, \"restarts\": %" PRIu64 ", \"searches\": %" PRIu64 ", \"searches_in_best\": %" PRIu64
           ", \"basins\": %" PRIu64 ", \"basin_values\": %" PRIu64 ", \"seconds\": %.3f}\n",
           c->starts, c->ls_cost, c->n - 1, c->n, in_best, basins, values, c->seconds);
}

static ev_status parse(int argc, char **argv, const char **config, climb_opts_t *o, ev_error *err)
{
    static const char *const depths[] = {"0", "1", "2", NULL};
    int depth = 2, real_depth = 0, real_depth_given = 0, n_pos = 0;
    opt_result res;
    ev_status st;
    opt_spec_t spec[] = {
        {"--seed", OPT_U64, &o->seed, 0, UINT64_MAX, NULL, NULL, &o->seed_given},
        {"--evals", OPT_U64, &o->evals, 1, UINT64_MAX, NULL, NULL, NULL},
        {"--seconds", OPT_U64, &o->seconds, 1, UINT64_MAX, NULL, NULL, NULL},
        {"--depth", OPT_CHOICE, &depth, 0, 0, depths, NULL, NULL},
        {"--kick", OPT_U64, &o->kick, 1, GA_MAX_GENES, NULL, NULL, NULL},
        {"--kick-min", OPT_U64, &o->kick_min, 1, GA_MAX_GENES, NULL, NULL, NULL},
        {"--from", OPT_STRING, &o->from, 0, 0, NULL, NULL, NULL},
        {"--peaks", OPT_FLAG, &o->peaks, 0, 0, NULL, NULL, NULL},
        {"--no-exit-pairs", OPT_FLAG, &o->no_exit_pairs, 0, 0, NULL, NULL, NULL},
        {"--relax", OPT_U64, &o->relax, 1, 100, NULL, NULL, NULL},
        {"--real-depth", OPT_CHOICE, &real_depth, 0, 0, depths, NULL, &real_depth_given},
        {"--exits-off", OPT_FLAG, &o->exits_off, 0, 0, NULL, NULL, NULL},
    };
    opt_table_t t = {spec, 12, config, 1, &n_pos, "one config file is expected"};
    if ((st = opt_parse(&t, argc, argv, &res, err)) != EV_OK)
        return st;
    if (res == OPT_HELP || n_pos != 1 || depth == 0 || (real_depth_given && real_depth == 0) ||
        (!o->evals && !o->seconds))
        return ev_fail(
            err, EV_EUSAGE,
            "usage: bench_climb CONFIG [--seed S] [--evals N] [--seconds T] [--depth 1|2] "
            "[--kick K [--kick-min K0] [--from V1,V2,..]] [--relax P [--real-depth 1|2]] [--exits-off] [--peaks] "
            "[--no-exit-pairs] "
            "(a budget: "
            "--evals or --seconds, or both)");
    if (!o->kick_min)
        o->kick_min = o->kick < 2 ? o->kick : 2;
    if ((o->from || o->kick_min > 2) && !o->kick)
        return ev_fail(err, EV_EUSAGE, "--from and --kick-min go with --kick K");
    if (real_depth_given && !o->relax)
        return ev_fail(err, EV_EUSAGE, "--real-depth goes with --relax P");
    if (real_depth > depth)
        return ev_fail(err, EV_EUSAGE, "--real-depth %d is more than --depth %d", real_depth, depth);
    if (o->kick && o->kick_min > o->kick)
        return ev_fail(err, EV_EUSAGE, "--kick-min %llu is more than --kick %llu", (unsigned long long)o->kick_min,
                       (unsigned long long)o->kick);
    o->depth = (uint32_t)depth;
    o->real_depth = real_depth_given ? (uint32_t)real_depth : o->depth;
    return EV_OK;
}

int main(int argc, char **argv)
{
    const char *config = NULL;
    climb_opts_t o = {0};
    climbs_t c = {0};
    session_opts_t so = {0};
    session_t s;
    reported_t rep;
    ev_error err;
    ev_status st;
    so.backend = "cpu"; /* a start's evaluation; the climbs run on the host tables */
    if ((st = parse(argc, argv, &config, &o, &err)) != EV_OK) {
        fprintf(stderr, "bench_climb: %s\n", err.msg);
        return 2;
    }
    if ((st = session_load_config(&s, config, &err)) == EV_OK) {
        if (!o.seed_given)
            o.seed = s.cfg.seed;
        if (s.cfg.strategy_type)
            st = ev_fail(&err, EV_ECONFIG, "%s: a strategy config has no first-hit tables to climb on", config);
    }
    if (st == EV_OK && (st = session_open(&s, &so, &err)) == EV_OK && (st = climb_all(&s, &o, &c, &err)) == EV_OK) {
        qsort(c.peak, c.n, sizeof *c.peak, by_rank);
        /* compound's value is computed from the tables, as a run reports it */
        if ((st = reported_make(&rep, &s.prob, &s.tables.view, &c.peak[0], 1, &err)) == EV_OK) {
            print_json(&s, &o, &c, rep.value[0]);
            reported_free(&rep);
        }
    }
    if (st != EV_OK)
        fprintf(stderr, "bench_climb: %s\n", err.msg);
    free(c.peak);
    session_close(&s);
    return st == EV_OK ? 0 : 1;
}
