/* Strategies are exact (fitness/strategy_class.h): on small random lattices
 * every point's kept trades and exits are listed by brute force through
 * kept_trades (trade, exit reason, exit second, outcome), and strat_same,
 * strat_group's classes and first entries, and every gene's equal range must
 * agree with those lists. Random datasets, min and max filters, target, stop,
 * SPEC sec. 4.1's exits, every objective. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fitness/problem.h"
#include "fitness/strategy_class.h"
#include "fitness/tables.h"
#include "fitness/trade_stats.h"
#include "tests/check.h"
#include "tests/support/brute_force.h"
#include "tests/support/random_problem.h"
#include "tests/support/sweep_check.h"

#define MAX_POINTS 20000
#define LIST 48

typedef struct {
    kept_trade_t *k;
    int64_t n;
} sig_t;

typedef struct {
    uint64_t points, pairs, classes, shared, ranges_wide, mismatches;
} tally_t;

/* cls[i]: the brute-force class of point i (the lowest point with its list),
 * through an open-addressing table of the lists' hashes. */
#define SLOTS (1u << 16)
static void brute_classes(const sig_t *sig, uint64_t n, uint64_t *hash, uint64_t *cls)
{
    static uint64_t slot[SLOTS];
    for (uint32_t s = 0; s < SLOTS; s++)
        slot[s] = UINT64_MAX;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t h = 1469598103934665603ull;
        uint32_t s;
        for (int64_t j = 0; j < sig[i].n; j++) {
            const kept_trade_t *x = &sig[i].k[j];
            uint64_t w[4] = {(uint64_t)x->trade, (uint64_t)x->reason, (uint64_t)x->exit_ts, (uint64_t)x->q};
            for (int m = 0; m < 4; m++)
                h = (h ^ w[m]) * 1099511628211ull;
        }
        hash[i] = h ^ (uint64_t)sig[i].n;
        for (s = (uint32_t)(hash[i] % SLOTS); slot[s] != UINT64_MAX; s = (s + 1) % SLOTS)
            if (hash[slot[s]] == hash[i] && kept_same(sig[slot[s]].k, sig[slot[s]].n, sig[i].k, sig[i].n))
                break;
        if (slot[s] == UINT64_MAX)
            slot[s] = i;
        cls[i] = slot[s];
    }
}

/* A list of random points and neighbours of earlier ones (so strategies
 * repeat); pts[LIST] are their indices. */
static void make_list(const lattice_shape_t *sh, uint64_t n, uint64_t *rng, ranked_genome_t *e, uint64_t *pts)
{
    for (int i = 0; i < LIST; i++) {
        memset(&e[i], 0, sizeof e[i]);
        if (i > 0 && splitmix(rng) % 2) {
            int32_t k = (int32_t)(splitmix(rng) % (uint64_t)sh->n_params);
            shape_decode(sh, pts[splitmix(rng) % (uint64_t)i], e[i].genes);
            e[i].genes[k] = (uint16_t)((e[i].genes[k] + 1) % sh->n_values[k]);
            pts[i] = shape_encode(sh, e[i].genes);
        } else {
            pts[i] = splitmix(rng) % n;
            shape_decode(sh, pts[i], e[i].genes);
        }
        e[i].index = pts[i];
    }
}

static void check_list(const fit_tables_t *t, const lattice_shape_t *sh, const uint64_t *cls, uint64_t *rng, tally_t *c)
{
    static ranked_genome_t e[LIST];
    static strat_entry_t out[LIST];
    uint64_t pts[LIST], n = 1;
    uint32_t m = 0, want_m = 0;
    for (int32_t k = 0; k < sh->n_params; k++)
        n *= sh->n_values[k];
    make_list(sh, n, rng, e, pts);
    strat_group(t, sh, e, LIST, out, &m);
    for (int i = 0; i < LIST; i++) {
        int first = 1;
        for (int j = 0; j < i; j++) {
            int want = cls[pts[i]] == cls[pts[j]];
            first &= !want;
            if (want != (out[i].cls == out[j].cls) || want != strat_same(t, e[i].genes, e[j].genes))
                c->mismatches++;
            c->pairs++;
            c->shared += want;
        }
        want_m += (uint32_t)first;
        if (first != (int)out[i].first)
            c->mismatches++;
        for (int32_t k = 0; first && k < sh->n_params; k++) {
            uint16_t lo, hi;
            brute_range(sh, cls, pts[i], k, &lo, &hi);
            if (lo != out[i].lo[k] || hi != out[i].hi[k]) {
                if (c->mismatches++ < 5)
                    fprintf(stderr, "point %llu gene %d: range %u..%u, brute force %u..%u\n",
                            (unsigned long long)pts[i], k, out[i].lo[k], out[i].hi[k], lo, hi);
            }
            c->ranges_wide += hi > lo;
        }
    }
    if (m != want_m)
        c->mismatches++;
    c->classes += m;
}

static void check_problem(const dataset_t *ds, const lattice_t *lat, const objective_cfg_t *obj, uint64_t *rng,
                          tally_t *c)
{
    fit_problem_t p;
    tables_host_t t;
    ev_error err;
    sig_t *sig;
    uint64_t *hash, *cls, n = lat->size;
    memset(&t, 0, sizeof t);
    if (!lat->size_fits || n > MAX_POINTS)
        return;
    if (problem_init(&p, ds, lat, obj, &err) != EV_OK || tables_build(&t, &p, &err) != EV_OK) {
        fprintf(stderr, "problem: %s\n", err.msg);
        c->mismatches++;
        return;
    }
    sig = (sig_t *)calloc(n, sizeof *sig);
    hash = (uint64_t *)calloc(n, sizeof *hash);
    cls = (uint64_t *)calloc(n, sizeof *cls);
    CHECK(sig && hash && cls);
    for (uint64_t i = 0; sig && i < n; i++) {
        uint16_t g[EV_MAX_PARAMS];
        shape_decode(&p.shape, i, g);
        CHECK_EQ_I64(EV_OK, kept_trades(&p, &t.view, g, &sig[i].k, &sig[i].n, &err));
    }
    if (sig && hash && cls) {
        brute_classes(sig, n, hash, cls);
        check_list(&t.view, &p.shape, cls, rng, c);
        c->points += n;
    }
    for (uint64_t i = 0; sig && i < n; i++)
        free(sig[i].k);
    free(sig);
    free(hash);
    free(cls);
    tables_free(&t);
    problem_free(&p);
}

int main(void)
{
    uint64_t rng = 25;
    tally_t c;
    memset(&c, 0, sizeof c);
    for (int round_no = 0; round_no < 120 && !c.mismatches; round_no++) {
        random_problem_t rp;
        random_problem(&rp, &rng, round_no % 2);
        check_problem(&rp.ds, &rp.lat, &rp.obj, &rng, &c);
        if (c.mismatches)
            fprintf(stderr, "round %d (objective %d, fill %d) disagrees\n", round_no, rp.obj.kind, rp.obj.fill);
        random_problem_free(&rp);
    }
    printf("%llu points enumerated, %llu pairs compared (%llu the same strategy), %llu strategies, %llu wide ranges\n",
           (unsigned long long)c.points, (unsigned long long)c.pairs, (unsigned long long)c.shared,
           (unsigned long long)c.classes, (unsigned long long)c.ranges_wide);
    CHECK_EQ_I64(0, (int64_t)c.mismatches);
    /* not vacuous: lattices were enumerated, strategies repeated in lists, ranges were wider than one value */
    CHECK(c.points > 10000);
    CHECK(c.shared > 100);
    CHECK(c.ranges_wide > 100);
    return check_exit();
}
