/* The parity probe (ga/backend_probe.h): the probe set, evaluate and top-K
 * run on both backends (the GA's steps: ga/backend_probe_ga.c; the texts of a
 * difference: ga/probe_diff.c). */
#include "ga/backend_probe.h"
#include "ga/backend_probe_ga.h"
#include "ga/probe_diff.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/platform.h"
#include "ga/ga_plan.h"

/* The probe's cost is the reference's (the CPU's) evaluations: random
 * points are PROBE_RANDOM_DEFAULT, fewer on large datasets (at most
 * PROBE_TRADE_EVALS genome x trade evaluations, at least PROBE_RANDOM_MIN),
 * plus the corners, the top-K ranges and the GA's two small generations:
 * about 3,500 genomes in all, ~0.1 s of CPU at 50,000 trades. */
#define PROBE_RANDOM_DEFAULT 2048u
#define PROBE_RANDOM_MIN 512u
#define PROBE_TRADE_EVALS 1e8
#define PROBE_CORNER_PARAMS 8 /* all 2^n corners up to this many parameters */
#define PROBE_CORNERS_SAMPLED 256u
#define PROBE_TOPK_RANGE 512u
#define PROBE_ONE_TRADE_TRIES 64u /* trades tried as the one a genome keeps */

static uint64_t splitmix(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* ---- the probe set --------------------------------------------------------- */

typedef struct {
    uint16_t *aos; /* [n][n_params] */
    uint64_t n, cap;
    int32_t np;
} genome_list_t;

static int list_push(genome_list_t *l, const uint16_t *genes)
{
    if (l->n == l->cap) {
        uint64_t cap = l->cap ? 2 * l->cap : 1024;
        uint16_t *grown = (uint16_t *)realloc(l->aos, (size_t)cap * (size_t)l->np * sizeof *grown);
        if (!grown)
            return 0;
        l->aos = grown;
        l->cap = cap;
    }
    memcpy(l->aos + l->n * (uint64_t)l->np, genes, (size_t)l->np * sizeof *genes);
    l->n++;
    return 1;
}

/* Gene of filter f that, mirrored, is g' (tables_genome's inverse). */
static uint16_t filter_gene(const fit_tables_t *t, int32_t f, uint32_t gm)
{
    return (uint16_t)(t->filter_mirror[f] ? t->filter_n[f] - 1u - gm : gm);
}

/* A genome keeping trade j and only the trades whose every filter cell is
 * at least j's (g'_f = cell - 1): 0 when trade j is kept by no genome. Target
 * and stop at value 0. */
static int genome_keeping(const fit_tables_t *t, const fit_problem_t *p, int64_t j, uint16_t *genes)
{
    memset(genes, 0, (size_t)p->shape.n_params * sizeof *genes);
    for (int32_t f = 0; f < t->n_filters; f++) {
        uint16_t c = t->cells[j * t->n_filters + f];
        if (c == 0)
            return 0;
        genes[t->filter_param[f]] = filter_gene(t, f, (uint32_t)c - 1u);
    }
    return 1;
}

/* Candidates for genomes that keep exactly one trade: the trades with the
 * largest cell sums (the fewest trades dominate them). */
static int push_one_trade_candidates(probe_t *x, genome_list_t *l)
{
    const fit_tables_t *t = x->t;
    int64_t best[PROBE_ONE_TRADE_TRIES];
    uint64_t sum_of[PROBE_ONE_TRADE_TRIES];
    uint32_t nb = 0;
    uint16_t genes[EV_MAX_PARAMS];
    if (t->n_filters == 0)
        return 1;
    for (int64_t j = 0; j < t->n_trades; j++) {
        uint64_t sum = 0;
        uint32_t at;
        for (int32_t f = 0; f < t->n_filters; f++)
            sum += t->cells[j * t->n_filters + f];
        if (nb < PROBE_ONE_TRADE_TRIES) {
            at = nb++;
        } else {
            at = 0;
            for (uint32_t i = 1; i < nb; i++)
                if (sum_of[i] < sum_of[at])
                    at = i;
            if (sum_of[at] >= sum)
                continue;
        }
        best[at] = j;
        sum_of[at] = sum;
    }
    for (uint32_t i = 0; i < nb; i++)
        if (genome_keeping(t, x->p, best[i], genes) && !list_push(l, genes))
            return 0;
    /* every filter at its strictest value: keeps only trades at the top of every list */
    memset(genes, 0, sizeof genes);
    for (int32_t f = 0; f < t->n_filters; f++)
        genes[t->filter_param[f]] = filter_gene(t, f, t->filter_n[f] - 1u);
    return list_push(l, genes);
}

static int build_set(probe_t *x, const backend_probe_opts_t *o, genome_list_t *l)
{
    const lattice_t *lat = x->p->lat;
    int32_t np = x->p->shape.n_params, first[EV_MAX_PARAMS];
    uint16_t genes[EV_MAX_PARAMS];
    uint32_t randoms = PROBE_RANDOM_DEFAULT;
    double trades = (double)(x->t && x->t->n_trades > 0 ? x->t->n_trades : 1);
    if ((double)randoms * trades > PROBE_TRADE_EVALS)
        randoms =
            PROBE_TRADE_EVALS / trades < PROBE_RANDOM_MIN ? PROBE_RANDOM_MIN : (uint32_t)(PROBE_TRADE_EVALS / trades);
    if (o && o->random_points)
        randoms = o->random_points;
    memset(l, 0, sizeof *l);
    l->np = np;
    /* the no-filter genome, with the first and the last target and stop
     * (trade logs: a strategy's lattice has no filters) */
    ga_first_genome(lat, first);
    for (int end = 0; x->t && end < 2; end++) {
        for (int32_t k = 0; k < np; k++)
            genes[k] = (uint16_t)(first[k] >= 0 ? first[k] : end ? (int32_t)lat->params[k].n_values - 1 : 0);
        if (!list_push(l, genes))
            return 0;
    }
    /* the corners */
    if (np <= PROBE_CORNER_PARAMS) {
        for (uint32_t c = 0; c < (1u << np); c++) {
            for (int32_t k = 0; k < np; k++)
                genes[k] = (uint16_t)((c >> k) & 1u ? lat->params[k].n_values - 1u : 0u);
            if (!list_push(l, genes))
                return 0;
        }
    } else {
        for (uint32_t c = 0; c < PROBE_CORNERS_SAMPLED; c++) {
            uint64_t bits = splitmix(&x->rng);
            for (int32_t k = 0; k < np; k++)
                genes[k] = (uint16_t)((bits >> k) & 1u ? lat->params[k].n_values - 1u : 0u);
            if (!list_push(l, genes))
                return 0;
        }
    }
    if (x->t && !push_one_trade_candidates(x, l))
        return 0;
    for (uint32_t r = 0; r < randoms; r++) {
        for (int32_t k = 0; k < np; k++)
            genes[k] = (uint16_t)(splitmix(&x->rng) % lat->params[k].n_values);
        if (!list_push(l, genes))
            return 0;
    }
    return 1;
}

/* ---- evaluate -------------------------------------------------------------- */

static ev_status probe_evaluate(probe_t *x, const genome_list_t *l, ev_error *err)
{
    uint64_t n = l->n;
    int32_t np = l->np;
    uint16_t *soa = (uint16_t *)malloc((size_t)n * (size_t)(np ? np : 1) * sizeof *soa);
    eval_result_t *r[2];
    ev_error e;
    ev_status st = EV_OK;
    r[0] = (eval_result_t *)calloc((size_t)n, sizeof *r[0]);
    r[1] = (eval_result_t *)calloc((size_t)n, sizeof *r[1]);
    if (!soa || !r[0] || !r[1]) {
        st = ev_fail(err, EV_ENOMEM, "out of memory for the probe's genomes");
        goto done;
    }
    for (uint64_t i = 0; i < n; i++)
        for (int32_t k = 0; k < np; k++)
            soa[(uint64_t)k * n + i] = l->aos[i * (uint64_t)np + (uint64_t)k];
    if ((st = x->ops[0]->evaluate(x->b[0], soa, n, r[0], err)) != EV_OK)
        goto done;
    if (x->ops[1]->evaluate(x->b[1], soa, n, r[1], &e) != EV_OK) {
        probe_test_failed(x, "evaluate", &e);
        goto done;
    }
    x->out->genomes += n;
    for (uint64_t i = 0; i < n; i++) {
        if (r[0][i].trades == 0)
            x->out->kept0 = 1;
        if (r[0][i].trades == 1)
            x->out->kept1 = 1;
    }
    for (uint64_t i = 0; i < n; i++)
        if (!probe_same_result(&r[0][i], &r[1][i])) {
            char g[512], a[128], b[128];
            probe_genome_text(x->p, l->aos + i * (uint64_t)np, g, sizeof g);
            probe_result_text(&r[0][i], a, sizeof a);
            probe_result_text(&r[1][i], b, sizeof b);
            probe_mismatch(x, "evaluate: genome %s (probe genome %llu of %llu): %s: %s; %s: %s", g,
                           (unsigned long long)i, (unsigned long long)n, x->ops[0]->name, a, x->ops[1]->name, b);
            break;
        }
done:
    free(soa);
    free(r[0]);
    free(r[1]);
    return st;
}

/* ---- top-K selections (grid_batch) ----------------------------------------- */

/* "genome (...) at index I: fitness ..." of a grid top-K entry. */
static void entry_text(const probe_t *x, const ranked_genome_t *e, char *buf, size_t n)
{
    uint16_t genes[EV_MAX_PARAMS];
    char g[512], r[128];
    shape_decode(&x->p->shape, e->index, genes);
    probe_genome_text(x->p, genes, g, sizeof g);
    probe_result_text(&e->r, r, sizeof r);
    snprintf(buf, n, "genome %s (index %llu): %s", g, (unsigned long long)e->index, r);
}

static int compare_lists(probe_t *x, const char *step, const topk_t *a, const topk_t *b)
{
    uint32_t n = a->n > b->n ? a->n : b->n;
    for (uint32_t i = 0; i < n; i++) {
        const ranked_genome_t *ea = i < a->n ? &a->e[i] : NULL, *eb = i < b->n ? &b->e[i] : NULL;
        char sa[768] = "none", sb[768] = "none";
        if (ea && eb && memcmp(ea, eb, sizeof *ea) == 0)
            continue;
        if (ea)
            entry_text(x, ea, sa, sizeof sa);
        if (eb)
            entry_text(x, eb, sb, sizeof sb);
        return probe_mismatch(x, "%s: entry %u: %s: %s; %s: %s", step, i + 1, x->ops[0]->name, sa, x->ops[1]->name, sb);
    }
    return 0;
}

static ev_status probe_topk(probe_t *x, const backend_probe_opts_t *o, ev_error *err)
{
    static const uint32_t ks[] = {1, PROBE_TOP, 128};
    const lattice_t *lat = x->p->lat;
    uint64_t m = o && o->topk_range ? o->topk_range : PROBE_TOPK_RANGE, size, most;
    ev_status st = EV_OK;
    if (!lat->size_fits || !x->ops[0]->grid_batch || !x->ops[1]->grid_batch)
        return EV_OK;
    size = lat->size;
    most = x->ops[0]->grid_batch_max(x->b[0]);
    if (x->ops[1]->grid_batch_max(x->b[1]) < most)
        most = x->ops[1]->grid_batch_max(x->b[1]);
    if (m > most)
        m = most;
    if (m > size)
        m = size;
    for (int r = 0; r < 3 && x->out->match; r++) {
        uint64_t first = r == 0 ? 0 : r == 1 ? size - m : splitmix(&x->rng) % (size - m + 1);
        topk_t top[2];
        ev_error e;
        char step[128];
        memset(top, 0, sizeof top);
        if ((st = topk_init(&top[0], ks[r], err)) != EV_OK || (st = topk_init(&top[1], ks[r], err)) != EV_OK) {
            topk_free(&top[0]);
            return st;
        }
        snprintf(step, sizeof step, "top-%u of lattice points [%llu, %llu)", ks[r], (unsigned long long)first,
                 (unsigned long long)(first + m));
        if ((st = x->ops[0]->grid_batch(x->b[0], first, m, &top[0], err)) == EV_OK) {
            if (x->ops[1]->grid_batch(x->b[1], first, m, &top[1], &e) != EV_OK)
                probe_test_failed(x, step, &e);
            else
                compare_lists(x, step, &top[0], &top[1]);
            x->out->genomes += m;
            x->out->topk_lists++;
        }
        topk_free(&top[0]);
        topk_free(&top[1]);
        if (st != EV_OK)
            return st;
    }
    return EV_OK;
}

ev_status backend_probe_run(const backend_ops_t *ref_ops, backend_t *ref, const backend_ops_t *test_ops,
                            backend_t *test, const fit_problem_t *p, const fit_tables_t *t, const ga_settings_t *s,
                            const backend_probe_opts_t *o, backend_probe_t *out, ev_error *err)
{
    probe_t x;
    genome_list_t l;
    double t0 = plat_now();
    uint64_t seed = o ? o->seed : 0;
    ev_status st;
    memset(out, 0, sizeof *out);
    out->match = 1;
    memset(&x, 0, sizeof x);
    x.ops[0] = ref_ops;
    x.ops[1] = test_ops;
    x.b[0] = ref;
    x.b[1] = test;
    x.p = p;
    x.t = t;
    x.out = out;
    x.rng = seed ^ 0x70726F6265ull; /* "probe" */
    if (!build_set(&x, o, &l)) {
        free(l.aos);
        return ev_fail(err, EV_ENOMEM, "out of memory for the probe's genomes");
    }
    st = probe_evaluate(&x, &l, err);
    free(l.aos);
    if (st == EV_OK && out->match)
        st = probe_topk(&x, o, err);
    if (st == EV_OK && out->match)
        st = probe_ga(&x, s, seed, err);
    out->seconds = plat_now() - t0;
    if (st == EV_OK)
        snprintf(out->summary, sizeof out->summary,
                 "%llu genomes (%scorners, %s%srandom points), %u top-K selections%s", (unsigned long long)out->genomes,
                 t ? "the no-filter genome, " : "", out->kept0 ? "a genome keeping 0 trades, " : "",
                 out->kept1 ? "one keeping 1, " : "", out->topk_lists,
                 out->ga_checked ? ", one GA generation, a breed step and a dedup round trip" : "");
    return st;
}
