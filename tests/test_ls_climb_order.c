/* The order of a climb's moves (ga/local_search.h ls_climb, docs/ga.md
 * "Climbing") on random NK-like landscapes, where climbs take many pair
 * moves: every gene's sweep has a random best, and the fitness of a gene
 * depends on its two neighbours', so a 1-gene peak is often not a pair peak.
 * A reference climbs by the text alone (1-gene passes in gene order, the best
 * value when strictly better; then the first pair, k1 < k2 in order, whose
 * best is strictly better, cyclically from the pair after the climb's last
 * pair move) through the same batch sweeps, and must reach the same genome
 * and result with the same sweeps, cost and moves, less the sweeps of genes
 * that stand at their best given the others, which the reference runs to see
 * that they never move. A pair pass that started from the first pair again,
 * or at the pair that moved, climbs elsewhere. */
#include <stdio.h>
#include <string.h>

#include "ga/local_search.h"
#include "tests/check.h"

#define MAX_GENES 9
#define MAX_VALUES 6

typedef struct {
    int32_t n_genes;
    uint32_t n_values[MAX_GENES];
    double part[MAX_GENES][MAX_VALUES][MAX_VALUES][MAX_VALUES]; /* gene k's share, by k, k + 1, k + 2 */
} landscape_t;

static uint64_t next_u64(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static double fitness_of(const landscape_t *l, const uint16_t *g)
{
    double f = 0;
    for (int32_t k = 0; k < l->n_genes; k++)
        f += l->part[k][g[k]][g[(k + 1) % l->n_genes]][g[(k + 2) % l->n_genes]];
    return f;
}

static eval_result_t result_of(const landscape_t *l, const uint16_t *g)
{
    eval_result_t r;
    memset(&r, 0, sizeof r);
    r.fitness = fitness_of(l, g);
    r.trades = 1;
    r.feasible = 1;
    return r;
}

/* The batch sweeps' evaluate: n genomes, SoA (gene k of genome i at k * n + i). */
static ev_status evaluate(struct backend *b, const uint16_t *genes, uint64_t n, eval_result_t *out, ev_error *err)
{
    const landscape_t *l = (const landscape_t *)b;
    (void)err;
    for (uint64_t i = 0; i < n; i++) {
        uint16_t g[MAX_GENES];
        for (int32_t k = 0; k < l->n_genes; k++)
            g[k] = genes[(size_t)k * n + i];
        out[i] = result_of(l, g);
    }
    return EV_OK;
}

/* The best of the sweep over k1 (and k2, or -1): its value index, the first
 * of the highest rank_key. */
static uint64_t ref_best(const landscape_t *l, const uint16_t *genes, int32_t k1, int32_t k2, eval_result_t *best)
{
    uint16_t g[MAX_GENES];
    uint64_t n2 = k2 < 0 ? 1 : l->n_values[k2], at = 0;
    memcpy(g, genes, sizeof g);
    for (uint64_t v = 0; v < l->n_values[k1] * n2; v++) {
        eval_result_t r;
        g[k1] = (uint16_t)(v / n2);
        if (k2 >= 0)
            g[k2] = (uint16_t)(v % n2);
        r = result_of(l, g);
        if (v == 0 || rank_key(r) > rank_key(*best)) {
            *best = r;
            at = v;
        }
    }
    return at;
}

typedef struct {
    uint64_t climbs, pair_moves, resumed, settled;
} tally_t;

/* A climb by docs/ga.md "Climbing"; *tl as ls_climb counts: a sweep of a gene
 * that stands at its best given the others (swept or moved since the last
 * move of another gene, or moved by the last pair move) is run here, must not
 * move, and is not counted (ls_climb skips it). */
static void ref_climb(const landscape_t *l, uint16_t *g, eval_result_t *r, ls_tally_t *tl, tally_t *c)
{
    const uint32_t ng = (uint32_t)l->n_genes, np = ng * ng;
    uint32_t next = 0;            /* pair p = k1 * ng + k2 */
    uint64_t version = 1;         /* moves taken so far, plus one */
    uint64_t at[MAX_GENES] = {0}; /* the version each gene stood at its best in (0: none) */
    for (int moved = 1; moved;) {
        moved = 0;
        for (int32_t k = 0; k < l->n_genes; k++) {
            const int settled = at[k] == version;
            eval_result_t b;
            uint64_t v = ref_best(l, g, k, -1, &b);
            c->settled += settled;
            if (!settled) {
                tl->sweeps++;
                tl->cost += l->n_values[k];
            }
            at[k] = version;
            if (rank_key(b) > rank_key(*r)) {
                CHECK(!settled);
                g[k] = (uint16_t)v;
                *r = b;
                tl->moves++;
                moved = 1;
                at[k] = ++version;
            }
        }
        for (uint32_t i = 0; !moved && i < np; i++) {
            const uint32_t p = (next + i) % np, k1 = p / ng, k2 = p % ng;
            eval_result_t b;
            uint64_t v;
            if (k2 <= k1)
                continue;
            v = ref_best(l, g, (int32_t)k1, (int32_t)k2, &b);
            tl->sweeps++;
            tl->cost += (uint64_t)l->n_values[k1] * l->n_values[k2];
            if (rank_key(b) > rank_key(*r)) {
                g[k1] = (uint16_t)(v / l->n_values[k2]);
                g[k2] = (uint16_t)(v % l->n_values[k2]);
                *r = b;
                tl->moves++;
                c->pair_moves++;
                c->resumed += next != 0;
                next = (p + 1) % np;
                moved = 1;
                at[k1] = at[k2] = ++version;
            }
        }
    }
}

static void check_landscape(uint64_t *rng, tally_t *c)
{
    landscape_t l;
    ls_sweep_t sw;
    memset(&l, 0, sizeof l);
    l.n_genes = 5 + (int32_t)(next_u64(rng) % 5);
    for (int32_t k = 0; k < l.n_genes; k++)
        l.n_values[k] = 2 + (uint32_t)(next_u64(rng) % (MAX_VALUES - 1));
    for (int32_t k = 0; k < l.n_genes; k++)
        for (int a = 0; a < MAX_VALUES; a++)
            for (int b = 0; b < MAX_VALUES; b++)
                for (int d = 0; d < MAX_VALUES; d++)
                    l.part[k][a][b][d] = (double)(next_u64(rng) >> 11) * 0x1.0p-53;
    sw = ls_sweep_batch(l.n_genes, l.n_values, evaluate, (struct backend *)&l);
    for (int start = 0; start < 20; start++) {
        uint16_t got[MAX_GENES], want[MAX_GENES];
        eval_result_t r, w;
        ls_tally_t tg, tw;
        ev_error err;
        for (int32_t k = 0; k < l.n_genes; k++)
            got[k] = want[k] = (uint16_t)(next_u64(rng) % l.n_values[k]);
        r = w = result_of(&l, got);
        memset(&tg, 0, sizeof tg);
        memset(&tw, 0, sizeof tw);
        CHECK_EQ_I64(EV_OK, ls_climb(&sw, l.n_genes, 2, got, &r, &tg, &err));
        ref_climb(&l, want, &w, &tw, c);
        CHECK(memcmp(got, want, (size_t)l.n_genes * sizeof *got) == 0);
        CHECK(memcmp(&r.fitness, &w.fitness, sizeof r.fitness) == 0);
        CHECK_EQ_I64(tw.sweeps, tg.sweeps);
        CHECK_EQ_I64(tw.cost, tg.cost);
        CHECK_EQ_I64(tw.moves, tg.moves);
        c->climbs++;
    }
}

int main(void)
{
    uint64_t rng = 34;
    tally_t c;
    memset(&c, 0, sizeof c);
    for (int i = 0; i < 40; i++)
        check_landscape(&rng, &c);
    printf(
        "%llu climbs, %llu pair moves, %llu of them by passes that went on from a move before; %llu sweeps of "
        "settled genes skipped\n",
        (unsigned long long)c.climbs, (unsigned long long)c.pair_moves, (unsigned long long)c.resumed,
        (unsigned long long)c.settled);
    CHECK(c.pair_moves >= 400);
    CHECK(c.resumed >= 200); /* where a pass starts is exercised */
    CHECK(c.settled >= 1000);
    return check_exit();
}
