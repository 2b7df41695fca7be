/* The top-K's batch paths give the lists one-by-one insertion gives:
 * - topk_merge (one pass over two sorted lists) and topk_insert_many (sort,
 *   then that pass) against topk_insert of every entry, on random entries
 *   with many ties of key, infeasible ones (key 0), lists short and full;
 * - a grid with a top-K long enough for its threads to batch their offers
 *   (GRID_SINK_PEND_MIN_K), by the reference, tables and dominance
 *   evaluators on random problems with SPEC sec. 4.1's exits, against brute
 *   force over the reference evaluator. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fitness/dominance.h"
#include "fitness/eval_reference.h"
#include "ga/grid.h"
#include "tests/check.h"
#include "tests/support/random_problem.h"

static uint64_t next(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return *s >> 17;
}

/* n entries of distinct indices (a shuffled range from base), keys drawn
 * from a few values (ties), one in eight infeasible. */
static void random_entries(ranked_genome_t *x, uint32_t n, uint64_t base, uint64_t *rng)
{
    for (uint32_t i = 0; i < n; i++) {
        memset(&x[i], 0, sizeof x[i]);
        x[i].index = base + i;
        x[i].key = next(rng) % 8 == 0 ? 0 : 1 + next(rng) % 5;
        x[i].r.fitness = (double)x[i].key;
        x[i].r.trades = (int64_t)(x[i].index % 97);
        x[i].r.feasible = x[i].key != 0;
    }
    for (uint32_t i = n; i > 1; i--) {
        uint32_t j = (uint32_t)(next(rng) % i);
        ranked_genome_t t = x[i - 1];
        x[i - 1] = x[j];
        x[j] = t;
    }
}

static int same_list(const topk_t *a, const topk_t *b)
{
    return a->n == b->n && !memcmp(a->e, b->e, (size_t)a->n * sizeof *a->e);
}

static void check_batches(uint64_t *rng)
{
    ev_error err;
    for (int round_no = 0; round_no < 400; round_no++) {
        uint32_t k = (uint32_t)(next(rng) % 40), na = (uint32_t)(next(rng) % 60), nb = (uint32_t)(next(rng) % 60);
        ranked_genome_t *a = (ranked_genome_t *)malloc((na + 1) * sizeof *a);
        ranked_genome_t *b = (ranked_genome_t *)malloc((nb + 1) * sizeof *b);
        topk_t want, got, src;
        random_entries(a, na, 0, rng);
        random_entries(b, nb, 1000, rng);
        topk_init(&want, k, &err);
        topk_init(&got, k, &err);
        topk_init(&src, k, &err);
        for (uint32_t i = 0; i < na; i++) {
            topk_insert(&want, &a[i]);
            topk_insert(&got, &a[i]);
        }
        for (uint32_t i = 0; i < nb; i++) {
            topk_insert(&want, &b[i]);
            topk_insert(&src, &b[i]);
        }
        topk_merge(&got, &src);
        CHECK(same_list(&want, &got));
        /* the same entries in one batch, then in two */
        got.n = 0;
        topk_insert_many(&got, b, nb);
        topk_insert_many(&got, a, na);
        CHECK(same_list(&want, &got));
        free(a);
        free(b);
        topk_free(&src);
        topk_free(&got);
        topk_free(&want);
    }
}

/* A long top-K of every point (threads batching their offers) against
 * brute force, for each evaluator. */
static int check_grid(const fit_problem_t *p, backend_t *b, uint32_t k)
{
    topk_t want;
    ev_error err;
    int runs = 0;
    topk_init(&want, k, &err);
    for (uint64_t i = 0; i < p->lat->size; i++) {
        uint16_t g[EV_MAX_PARAMS];
        shape_decode(&p->shape, i, g);
        topk_offer(&want, i, reference_eval(p, g));
    }
    for (int ev = EVAL_REFERENCE; ev <= EVAL_DOMINANCE; ev++) {
        grid_opts_t o;
        grid_stats_t gs;
        topk_t got;
        if (ev == EVAL_DOMINANCE && !dominance_applicable(p))
            continue;
        memset(&o, 0, sizeof o);
        o.evaluator = (evaluator_kind)ev;
        o.batch = 37;
        topk_init(&got, k, &err);
        CHECK_EQ_I64(EV_OK, grid_run(&backend_cpu_ops, b, p, &o, &got, &gs, &err));
        CHECK(same_list(&want, &got));
        topk_free(&got);
        runs++;
    }
    topk_free(&want);
    return runs;
}

int main(void)
{
    uint64_t rng = 4242;
    int runs = 0, full = 0;
    check_batches(&rng);
    for (int round_no = 0; round_no < 400 && full < 20; round_no++) {
        random_problem_t rp;
        fit_problem_t p;
        tables_host_t t;
        backend_t *b = NULL;
        ev_error err;
        random_problem(&rp, &rng, 1);
        /* lattices past the shortest batching list, half of them past the list */
        if (rp.lat.size > GRID_SINK_PEND_MIN_K && problem_init(&p, &rp.ds, &rp.lat, &rp.obj, &err) == EV_OK) {
            if (tables_build(&t, &p, &err) == EV_OK && backend_cpu_ops.open(&b, &p, &t, &err) == EV_OK) {
                /* shorter than the lattice (the bar rises) or longer (every feasible point) */
                uint32_t k = next(&rng) % 2 ? GRID_SINK_PEND_MIN_K : (uint32_t)p.lat->size + 5;
                full += p.lat->size > k;
                runs += check_grid(&p, b, k);
                backend_cpu_ops.close(b);
                tables_free(&t);
            }
            problem_free(&p);
        }
        random_problem_free(&rp);
    }
    printf("%d grid passes with a batching top-K, %d lattices longer than it\n", runs, full);
    CHECK(runs >= 40);
    CHECK(full >= 20);
    return check_exit();
}
