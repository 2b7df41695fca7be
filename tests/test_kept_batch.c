/* The GA's new genomes walked in batches (fitness/kept_batch.h) are exact: on
 * random problems (every objective, fill level and price, costs, min_trades,
 * drawdown limits, fold statistics, target, stop, trail, breakeven and
 * max_hold with `off`):
 *  - the kept-trade rows hold exactly the trades each filter value keeps;
 *  - kept_batch_walk gives tables_eval's bits for every genome of batches of
 *    1 to 512 (partly filled, full, reused), with the exit combinations'
 *    pair outcomes and without them;
 *  - the CPU backend's evaluate (batches beside the slices, populations of 1
 *    to 1,300 on 1 or 2 threads, each EVOLVE_EVALUATOR mode) gives
 *    tables_eval's bits. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/platform.h"
#include "fitness/kept_batch.h"
#include "fitness/tables.h"
#include "ga/backend.h"
#include "tests/check.h"
#include "tests/support/slices_problem.h"
#include "tests/support/sweep_check.h"

#ifdef _OPENMP
#include <omp.h>
#endif

typedef struct {
    uint64_t problems, rows, batched, no_pairs, pairs, full, backend, offs;
} tally_t;

static void random_genes(const fit_problem_t *p, uint64_t *rng, uint16_t *g)
{
    shape_decode(&p->shape, splitmix(rng) % p->lat->size, g);
}

/* Row (f, g) of the kept sets holds trade j iff g < cell_f(j). */
static int check_rows(const kept_sets_t *ks, const fit_tables_t *t, tally_t *tl)
{
    int bad = 0;
    for (int32_t f = 0; f < t->n_filters; f++)
        for (uint32_t g = 0; g < t->filter_n[f]; g++)
            for (int64_t j = 0; j < t->n_trades; j++) {
                const uint64_t w = ks->bits[(ks->row0[f] + (int64_t)g) * ks->n_words + (j >> 6)];
                bad += (int)((w >> (j & 63)) & 1u) != (g < t->cells[j * t->n_filters + f]);
                tl->rows++;
            }
    return bad;
}

/* Batches of cap genomes (the last one partly filled), each walk against
 * tables_eval; the batch is reused across walks. */
static int check_batches(const fit_problem_t *p, const kept_sets_t *ks, uint32_t cap, uint64_t *rng, tally_t *tl)
{
    const fit_tables_t *t = ks->t;
    const uint32_t total = cap * 2 + 1 + (uint32_t)(splitmix(rng) % 5);
    kept_batch_t b;
    kept_scratch_t s;
    uint16_t(*genes)[EV_MAX_PARAMS] = (uint16_t(*)[EV_MAX_PARAMS])malloc(cap * sizeof *genes);
    eval_result_t *out = (eval_result_t *)malloc(cap * sizeof *out);
    ev_error err;
    int bad = 0;
    if (!genes || !out || kept_batch_init(&b, ks, cap, &err) != EV_OK || kept_scratch_init(&s, ks, &err) != EV_OK)
        exit(2);
    for (uint32_t done = 0; done < total;) {
        const uint32_t m = total - done < cap ? total - done : cap;
        for (uint32_t i = 0; i < m; i++) {
            tables_genome_t tg;
            const uint64_t *k;
            if (i > 0 && splitmix(rng) % 4 == 0) /* a repeat, and a kept set reused by the scratch */
                memcpy(genes[i], genes[i - 1], sizeof genes[i]);
            else
                random_genes(p, rng, genes[i]);
            k = kept_sets_genome(ks, &s, genes[i], &tg);
            CHECK_EQ_I64(i, kept_batch_add(&b, k, &tg));
        }
        tl->full += m == cap;
        kept_batch_walk(&b, out);
        CHECK_EQ_I64(0, b.n);
        for (uint32_t i = 0; i < m; i++) {
            const eval_result_t want = tables_eval(t, genes[i]);
            if (!same(want, out[i])) {
                if (bad++ < 5)
                    fprintf(stderr, "batch of %u, slot %u: %.17g/%lld/%d, tables_eval %.17g/%lld/%d\n", cap, i,
                            out[i].fitness, (long long)out[i].trades, out[i].feasible, want.fitness,
                            (long long)want.trades, want.feasible);
            }
            tl->batched++;
        }
        done += m;
    }
    kept_scratch_free(&s);
    kept_batch_free(&b);
    free(genes);
    free(out);
    return bad;
}

/* The backend's evaluate on populations of n random genomes (SoA genes). */
static int check_backend(const fit_problem_t *p, const tables_host_t *h, uint64_t *rng, tally_t *tl)
{
    static const uint64_t sizes[] = {1, 100, 1300};
    static const char *modes[] = {"auto", "walk", "slices"};
    int bad = 0;
    for (int mo = 0; mo < 3; mo++) {
        backend_t *b;
        ev_error err;
        plat_setenv("EVOLVE_EVALUATOR", modes[mo]);
        if (backend_cpu_ops.open(&b, p, h, &err) != EV_OK)
            exit(2);
        for (int si = 0; si < 3; si++) {
            const uint64_t n = sizes[si];
            const int32_t np = p->shape.n_params;
            uint16_t *genes = (uint16_t *)malloc(n * (uint64_t)np * sizeof *genes);
            eval_result_t *out = (eval_result_t *)malloc(n * sizeof *out);
            if (!genes || !out)
                exit(2);
            for (uint64_t i = 0; i < n; i++) {
                uint16_t g[EV_MAX_PARAMS];
                random_genes(p, rng, g);
                for (int32_t k = 0; k < np; k++)
                    genes[(uint64_t)k * n + i] = g[k];
            }
            if (backend_cpu_ops.evaluate(b, genes, n, out, &err) != EV_OK)
                exit(2);
            for (uint64_t i = 0; i < n; i++) {
                uint16_t g[EV_MAX_PARAMS];
                for (int32_t k = 0; k < np; k++)
                    g[k] = genes[(uint64_t)k * n + i];
                bad += !same(tables_eval(&h->view, g), out[i]);
                tl->backend++;
            }
            free(genes);
            free(out);
        }
        backend_cpu_ops.close(b);
    }
    plat_setenv("EVOLVE_EVALUATOR", "");
    return bad;
}

static int round_once(uint64_t *rng, int round_no, tally_t *tl)
{
    static const uint32_t caps[] = {1, 3, 64, 512};
    slices_problem_t sp;
    const fit_tables_t *t;
    kept_sets_t ks;
    ev_error err;
    uint64_t rows = 0;
    int bad;
    slices_problem_draw(&sp, rng, (objective_kind)(round_no % OBJ_COUNT), 1);
    t = &sp.t.view;
    for (int32_t k = 0; k < sp.lat.n_params; k++)
        tl->offs += (uint64_t)param_has_off(&sp.lat.params[k]);
    for (int32_t f = 0; f < t->n_filters; f++)
        rows += t->filter_n[f];
    bad = 0;
    /* the rows alone (a budget of their bytes: no pair outcomes), then with them */
    for (int pairs = 0; pairs < 2; pairs++) {
        const uint64_t budget = pairs ? (uint64_t)64 << 20 : rows * (uint64_t)((t->n_trades + 63) / 64) * 8u;
        if (kept_sets_build(&ks, t, budget, &err) != EV_OK || !ks.bits)
            exit(2);
        if (!pairs)
            bad += check_rows(&ks, t, tl);
        tl->no_pairs += ks.pair_q == NULL;
        tl->pairs += ks.pair_q != NULL;
        bad += check_batches(&sp.p, &ks, caps[splitmix(rng) % 4], rng, tl);
        kept_sets_free(&ks);
    }
    bad += check_backend(&sp.p, &sp.t, rng, tl);
    if (bad)
        fprintf(stderr, "round %d (objective %d, fill %d, aggregate %d): %d mismatches\n", round_no, sp.obj.kind,
                sp.obj.fill, sp.agg, bad);
    tl->problems++;
    slices_problem_free(&sp);
    return bad;
}

int main(void)
{
    uint64_t rng = 3477;
    tally_t tl;
    int bad = 0;
    memset(&tl, 0, sizeof tl);
#ifdef _OPENMP
    omp_set_num_threads(2); /* the backend's batches split between threads */
#endif
    for (int r = 0; r < 48 && !bad; r++)
        bad += round_once(&rng, r, &tl);
    CHECK_EQ_I64(0, bad);
    printf(
        "%llu problems (%llu exit roles with off): %llu row bits, %llu genomes in batches (%llu "
        "full; %llu kept sets without pair outcomes, %llu with), %llu through the backend\n",
        (unsigned long long)tl.problems, (unsigned long long)tl.offs, (unsigned long long)tl.rows,
        (unsigned long long)tl.batched, (unsigned long long)tl.full, (unsigned long long)tl.no_pairs,
        (unsigned long long)tl.pairs, (unsigned long long)tl.backend);
    CHECK(tl.offs > 10);
    CHECK(tl.full > 10);
    CHECK(tl.no_pairs > 20 && tl.pairs > 40);
    return check_exit();
}
