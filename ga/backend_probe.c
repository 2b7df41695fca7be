/* The parity probe (ga/backend_probe.h): the probe set, each step run on
 * both backends, and the comparisons, which name the first genome that
 * differs with both backends' values. */
#include "ga/backend_probe.h"

#include <stdarg.h>
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
#define PROBE_ISLANDS_MAX 4u
#define PROBE_ISLAND_SIZE_MAX 128u
#define PROBE_TOP 16u

typedef struct {
    const backend_ops_t *ops[2]; /* 0: the reference, 1: the backend under test */
    backend_t *b[2];
    const fit_problem_t *p;
    const fit_tables_t *t;
    backend_probe_t *out;
    uint64_t rng;
} probe_t;

static uint64_t splitmix(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* "(name=value, ...)" of a genome's genes. */
static void genome_text(const fit_problem_t *p, const uint16_t *genes, char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int32_t k = 0; k < p->lat->n_params && used + 1 < n; k++) {
        const param_t *prm = &p->lat->params[k];
        int w =
            snprintf(buf + used, n - used, "%s%s=%s%s", k ? ", " : "(", prm->name,
                     genes[k] < prm->n_values ? prm->value_text[genes[k]] : "?", k + 1 == p->lat->n_params ? ")" : "");
        if (w < 0)
            break;
        used += (size_t)w < n - used ? (size_t)w : n - used - 1;
    }
}

static void result_text(const eval_result_t *r, char *buf, size_t n)
{
    snprintf(buf, n, "fitness %.17g, %lld trade(s) kept, %s", r->fitness, (long long)r->trades,
             r->feasible ? "feasible" : "infeasible");
}

static int mismatch(probe_t *x, const char *fmt, ...) EV_PRINTF(2, 3);

/* Records the first difference; returns 1. */
static int mismatch(probe_t *x, const char *fmt, ...)
{
    va_list ap;
    if (x->out->match) {
        x->out->match = 0;
        va_start(ap, fmt);
        vsnprintf(x->out->what, sizeof x->out->what, fmt, ap);
        va_end(ap);
    }
    return 1;
}

/* An error of the backend under test: a mismatch that says so. */
static int test_failed(probe_t *x, const char *step, const ev_error *e)
{
    return mismatch(x, "%s: the %s backend failed: %s", step, x->ops[1]->name, e->msg);
}

static int same_result(const eval_result_t *a, const eval_result_t *b)
{
    return memcmp(a, b, sizeof *a) == 0;
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
        test_failed(x, "evaluate", &e);
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
        if (!same_result(&r[0][i], &r[1][i])) {
            char g[512], a[128], b[128];
            genome_text(x->p, l->aos + i * (uint64_t)np, g, sizeof g);
            result_text(&r[0][i], a, sizeof a);
            result_text(&r[1][i], b, sizeof b);
            mismatch(x, "evaluate: genome %s (probe genome %llu of %llu): %s: %s; %s: %s", g, (unsigned long long)i,
                     (unsigned long long)n, x->ops[0]->name, a, x->ops[1]->name, b);
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
    genome_text(x->p, genes, g, sizeof g);
    result_text(&e->r, r, sizeof r);
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
        return mismatch(x, "%s: entry %u: %s: %s; %s: %s", step, i + 1, x->ops[0]->name, sa, x->ops[1]->name, sb);
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
                test_failed(x, step, &e);
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

/* ---- the GA: generation 0, one breed step, generation 1, the dedup cache --- */

typedef struct {
    ga_state_t *g;
    uint16_t *genes;
    eval_result_t *results;
    int32_t *parents;
    ga_hof_entry_t top[PROBE_TOP];
    uint32_t *unique, *counts;
    ga_eval_out_t ev;
    ga_rank_out_t rk;
} ga_side_t;

/* The probe's settings: the run's operators on a small population. */
static void probe_settings(const ga_settings_t *s, ga_settings_t *ps)
{
    uint32_t islands = s->islands ? s->islands : 1, size = s->population / islands;
    *ps = *s;
    if (islands > PROBE_ISLANDS_MAX)
        islands = PROBE_ISLANDS_MAX;
    if (size > PROBE_ISLAND_SIZE_MAX)
        size = PROBE_ISLAND_SIZE_MAX;
    if (size < 2)
        size = 2;
    ps->islands = islands;
    ps->population = islands * size;
    if (ps->migration_count >= size)
        ps->migration_count = size - 1;
    if (ps->cache_max_mb > 64)
        ps->cache_max_mb = 64;
    ps->generations = 2;
}

static int compare_eval_out(probe_t *x, const char *step, const ga_eval_out_t *a, const ga_eval_out_t *b)
{
    if (a->distinct != b->distinct || a->new_evals != b->new_evals || a->cache_full != b->cache_full)
        return mismatch(x, "%s: %s: %llu distinct genomes, %llu new; %s: %llu distinct, %llu new", step,
                        x->ops[0]->name, (unsigned long long)a->distinct, (unsigned long long)a->new_evals,
                        x->ops[1]->name, (unsigned long long)b->distinct, (unsigned long long)b->new_evals);
    for (uint32_t i = 0; i < a->n_top || i < b->n_top; i++)
        if (i >= a->n_top || i >= b->n_top || memcmp(&a->top[i], &b->top[i], sizeof a->top[i]) != 0) {
            char g[512], ra[128], rb[128];
            const ga_hof_entry_t *e = i < a->n_top ? &a->top[i] : &b->top[i];
            genome_text(x->p, e->genes, g, sizeof g);
            result_text(&a->top[i < a->n_top ? i : 0].r, ra, sizeof ra);
            result_text(&b->top[i < b->n_top ? i : 0].r, rb, sizeof rb);
            return mismatch(x, "%s: new top entry %u, genome %s: %s: %s; %s: %s", step, i + 1, g, x->ops[0]->name,
                            i < a->n_top ? ra : "none", x->ops[1]->name, i < b->n_top ? rb : "none");
        }
    return 0;
}

static int compare_population(probe_t *x, const char *step, const ga_plan_t *plan, ga_side_t *sd, int with_results)
{
    uint64_t pop = plan->ctx.population, ng = (uint64_t)plan->ctx.n_genes;
    uint16_t ga[EV_MAX_PARAMS], gb[EV_MAX_PARAMS];
    for (uint64_t i = 0; i < pop; i++) {
        char ta[512], tb[512], ra[128], rb[128];
        int genes_differ = 0;
        for (uint64_t k = 0; k < ng; k++) {
            ga[k] = sd[0].genes[k * pop + i];
            gb[k] = sd[1].genes[k * pop + i];
            genes_differ |= ga[k] != gb[k];
        }
        if (genes_differ) {
            genome_text(x->p, ga, ta, sizeof ta);
            genome_text(x->p, gb, tb, sizeof tb);
            return mismatch(x, "%s: individual %llu: %s: genome %s; %s: genome %s", step, (unsigned long long)i,
                            x->ops[0]->name, ta, x->ops[1]->name, tb);
        }
        if (sd[0].parents[i] != sd[1].parents[i] || sd[0].parents[pop + i] != sd[1].parents[pop + i]) {
            genome_text(x->p, ga, ta, sizeof ta);
            return mismatch(x, "%s: individual %llu, genome %s: parents %d and %d on %s, %d and %d on %s", step,
                            (unsigned long long)i, ta, sd[0].parents[i], sd[0].parents[pop + i], x->ops[0]->name,
                            sd[1].parents[i], sd[1].parents[pop + i], x->ops[1]->name);
        }
        if (with_results && !same_result(&sd[0].results[i], &sd[1].results[i])) {
            genome_text(x->p, ga, ta, sizeof ta);
            result_text(&sd[0].results[i], ra, sizeof ra);
            result_text(&sd[1].results[i], rb, sizeof rb);
            return mismatch(x, "%s: individual %llu, genome %s: %s: %s; %s: %s", step, (unsigned long long)i, ta,
                            x->ops[0]->name, ra, x->ops[1]->name, rb);
        }
    }
    return 0;
}

static int compare_rank(probe_t *x, const ga_plan_t *plan, const ga_rank_out_t *a, const ga_rank_out_t *b)
{
    if (memcmp(a->island_unique, b->island_unique, plan->ctx.islands * sizeof *a->island_unique) != 0 ||
        memcmp(a->gene_counts, b->gene_counts, plan->gene_values * sizeof *a->gene_counts) != 0 ||
        a->feasible != b->feasible || memcmp(&a->best, &b->best, sizeof a->best) != 0 ||
        memcmp(&a->median, &b->median, sizeof a->median) != 0)
        return mismatch(x,
                        "rank of generation 0: %s: %llu feasible, best %.17g, median %.17g; %s: %llu feasible, best "
                        "%.17g, median %.17g (or the distinct counts or gene histograms differ)",
                        x->ops[0]->name, (unsigned long long)a->feasible, a->best, a->median, x->ops[1]->name,
                        (unsigned long long)b->feasible, b->best, b->median);
    return 0;
}

static int32_t sort_words;

static int cmp_cache_entry(const void *pa, const void *pb)
{
    const uint64_t *a = (const uint64_t *)pa, *b = (const uint64_t *)pb;
    for (int32_t w = sort_words - 1; w >= 0; w--)
        if (a[w] != b[w])
            return a[w] < b[w] ? -1 : 1;
    return 0;
}

/* A cache's entries as records [words + 3] sorted by index; NULL on an error
 * (err set) or out of memory (err set, EV_ENOMEM). */
static uint64_t *cache_sorted(const backend_ops_t *ops, ga_state_t *g, int32_t words, uint64_t *n, ev_status *st,
                              ev_error *err)
{
    uint64_t m = ops->ga_cache_count(g), rec = (uint64_t)words + 3;
    uint64_t *ix = (uint64_t *)malloc((size_t)(m ? m : 1) * (size_t)words * sizeof *ix);
    eval_result_t *rs = (eval_result_t *)malloc((size_t)(m ? m : 1) * sizeof *rs);
    uint64_t *recs = (uint64_t *)malloc((size_t)(m ? m : 1) * (size_t)rec * sizeof *recs);
    *n = m;
    *st = EV_OK;
    if (!ix || !rs || !recs)
        *st = ev_fail(err, EV_ENOMEM, "out of memory for the probe's dedup caches");
    else
        *st = ops->ga_cache_export(g, ix, rs, err);
    if (*st == EV_OK) {
        for (uint64_t j = 0; j < m; j++) {
            memcpy(recs + j * rec, ix + j * (uint64_t)words, (size_t)words * sizeof *ix);
            memcpy(recs + j * rec + words, &rs[j], sizeof rs[j]);
        }
        sort_words = words;
        qsort(recs, (size_t)m, (size_t)rec * sizeof *recs, cmp_cache_entry);
    }
    free(ix);
    free(rs);
    if (*st != EV_OK) {
        free(recs);
        return NULL;
    }
    return recs;
}

static ev_status compare_caches(probe_t *x, const ga_plan_t *plan, ga_side_t *sd, ev_error *err)
{
    int32_t w = plan->index_words;
    uint64_t n[2], rec = (uint64_t)w + 3;
    uint64_t *c[2] = {NULL, NULL};
    ev_status st;
    ev_error e;
    if (!(c[0] = cache_sorted(x->ops[0], sd[0].g, w, &n[0], &st, err)))
        return st;
    if (!(c[1] = cache_sorted(x->ops[1], sd[1].g, w, &n[1], &st, &e))) {
        free(c[0]);
        if (st == EV_ENOMEM)
            return ev_fail(err, EV_ENOMEM, "%s", e.msg);
        test_failed(x, "dedup cache export", &e);
        return EV_OK;
    }
    if (n[0] != n[1])
        mismatch(x, "dedup cache: %s holds %llu genomes, %s %llu", x->ops[0]->name, (unsigned long long)n[0],
                 x->ops[1]->name, (unsigned long long)n[1]);
    else
        for (uint64_t j = 0; j < n[0]; j++)
            if (memcmp(c[0] + j * rec, c[1] + j * rec, (size_t)rec * sizeof *c[0]) != 0) {
                eval_result_t ra, rb;
                char ta[128], tb[128], ga[512] = "", gb[512] = "";
                memcpy(&ra, c[0] + j * rec + w, sizeof ra);
                memcpy(&rb, c[1] + j * rec + w, sizeof rb);
                result_text(&ra, ta, sizeof ta);
                result_text(&rb, tb, sizeof tb);
                if (w == 1 && x->p->lat->size_fits) {
                    uint16_t genes[EV_MAX_PARAMS];
                    shape_decode(&x->p->shape, c[0][j * rec], genes);
                    genome_text(x->p, genes, ga, sizeof ga);
                    shape_decode(&x->p->shape, c[1][j * rec], genes);
                    genome_text(x->p, genes, gb, sizeof gb);
                }
                mismatch(x,
                         "dedup cache entry %llu (sorted by index): %s: genome %s (index word 0 %llu): %s; %s: "
                         "genome %s (index word 0 %llu): %s",
                         (unsigned long long)j, x->ops[0]->name, ga, (unsigned long long)c[0][j * rec], ta,
                         x->ops[1]->name, gb, (unsigned long long)c[1][j * rec], tb);
                break;
            }
    free(c[0]);
    free(c[1]);
    return EV_OK;
}

/* The reference's cache imported into a fresh state of the backend under
 * test, given generation 1: every genome must be found (no new evaluation)
 * with the reference's results. */
static ev_status round_trip(probe_t *x, const ga_plan_t *plan, ga_side_t *sd, ev_error *err)
{
    int32_t w = plan->index_words;
    uint64_t m = x->ops[0]->ga_cache_count(sd[0].g), pop = plan->ctx.population;
    uint64_t *ix = (uint64_t *)malloc((size_t)(m ? m : 1) * (size_t)w * sizeof *ix);
    eval_result_t *rs = (eval_result_t *)malloc((size_t)(m ? m : 1) * sizeof *rs);
    eval_result_t *got = (eval_result_t *)malloc((size_t)pop * sizeof *got);
    ga_plan_t tp = *plan;
    ga_state_t *g = NULL;
    ga_hof_entry_t top[PROBE_TOP];
    ga_eval_out_t ev;
    ev_error e;
    ev_status st = EV_OK;
    if (!ix || !rs || !got) {
        st = ev_fail(err, EV_ENOMEM, "out of memory for the probe's dedup round trip");
        goto done;
    }
    if ((st = x->ops[0]->ga_cache_export(sd[0].g, ix, rs, err)) != EV_OK)
        goto done;
    tp.evaluate = x->ops[1]->evaluate;
    tp.evaluate_b = x->b[1];
    memset(&ev, 0, sizeof ev);
    ev.top = top;
    if (x->ops[1]->ga_open(x->b[1], &tp, &g, &e) != EV_OK || x->ops[1]->ga_cache_import(g, ix, rs, m, &e) != EV_OK ||
        x->ops[1]->ga_set_population(g, sd[0].genes, sd[0].parents, &e) != EV_OK ||
        x->ops[1]->ga_evaluate(g, &ev, &e) != EV_OK || x->ops[1]->ga_download(g, NULL, got, NULL, &e) != EV_OK) {
        test_failed(x, "dedup round trip", &e);
        goto done;
    }
    if (ev.new_evals != 0 || ev.distinct != sd[0].ev.distinct)
        mismatch(x,
                 "dedup round trip: the %s cache imported into %s: %llu of generation 1's %llu distinct genomes not "
                 "found (%llu distinct counted)",
                 x->ops[0]->name, x->ops[1]->name, (unsigned long long)ev.new_evals,
                 (unsigned long long)sd[0].ev.distinct, (unsigned long long)ev.distinct);
    else
        for (uint64_t i = 0; i < pop; i++)
            if (!same_result(&got[i], &sd[0].results[i])) {
                uint16_t genes[EV_MAX_PARAMS];
                char t[512], ra[128], rb[128];
                for (int32_t k = 0; k < plan->ctx.n_genes; k++)
                    genes[k] = sd[0].genes[(uint64_t)k * pop + i];
                genome_text(x->p, genes, t, sizeof t);
                result_text(&sd[0].results[i], ra, sizeof ra);
                result_text(&got[i], rb, sizeof rb);
                mismatch(x, "dedup round trip: genome %s: %s: %s; found in %s's imported cache: %s", t, x->ops[0]->name,
                         ra, x->ops[1]->name, rb);
                break;
            }
done:
    if (g)
        x->ops[1]->ga_close(g);
    free(ix);
    free(rs);
    free(got);
    return st;
}

static void side_free(const backend_ops_t *ops, ga_side_t *sd)
{
    if (sd->g)
        ops->ga_close(sd->g);
    free(sd->genes);
    free(sd->results);
    free(sd->parents);
    free(sd->unique);
    free(sd->counts);
}

/* One GA op on both sides: the reference's error is returned, the tested
 * backend's recorded as a mismatch; either ends the GA part. */
#define BOTH(call_ref, call_test, step) \
    do {                                \
        if ((st = (call_ref)) != EV_OK) \
            goto done;                  \
        if ((call_test) != EV_OK) {     \
            test_failed(x, step, &e);   \
            goto done;                  \
        }                               \
    } while (0)

static ev_status probe_ga(probe_t *x, const ga_settings_t *s, uint64_t seed, ev_error *err)
{
    const backend_ops_t *go[2];
    ga_settings_t ps;
    ga_plan_t plan;
    ga_side_t sd[2];
    breed_island_t *isl = NULL;
    ev_error e;
    ev_status st = EV_OK;
    uint64_t pop, ng;
    if (!x->ops[1]->ga_open) /* the host GA with the tested backend's evaluate: covered above */
        return EV_OK;
    go[0] = x->ops[0]->ga_open ? x->ops[0] : &backend_cpu_ops;
    go[1] = x->ops[1];
    probe_settings(s, &ps);
    if (ga_plan_build(&plan, x->p, &ps, seed, PROBE_TOP, &e) != EV_OK) {
        ga_settings_default(&ps);
        ps.islands = 2;
        ps.population = 256;
        ps.generations = 2;
        ps.cache_max_mb = 64;
        if ((st = ga_plan_build(&plan, x->p, &ps, seed, PROBE_TOP, err)) != EV_OK)
            return st;
    }
    pop = plan.ctx.population;
    ng = (uint64_t)plan.ctx.n_genes;
    memset(sd, 0, sizeof sd);
    isl = (breed_island_t *)calloc(plan.ctx.islands, sizeof *isl);
    for (int k = 0; k < 2; k++) {
        sd[k].genes = (uint16_t *)calloc((size_t)(ng * pop), sizeof *sd[k].genes);
        sd[k].results = (eval_result_t *)calloc((size_t)pop, sizeof *sd[k].results);
        sd[k].parents = (int32_t *)calloc((size_t)(2 * pop), sizeof *sd[k].parents);
        sd[k].unique = (uint32_t *)calloc(plan.ctx.islands, sizeof *sd[k].unique);
        sd[k].counts = (uint32_t *)calloc((size_t)plan.gene_values, sizeof *sd[k].counts);
        if (!sd[k].genes || !sd[k].results || !sd[k].parents || !sd[k].unique || !sd[k].counts || !isl) {
            st = ev_fail(err, EV_ENOMEM, "out of memory for the probe's GA");
            goto done;
        }
        sd[k].ev.top = sd[k].top;
        sd[k].rk.island_unique = sd[k].unique;
        sd[k].rk.gene_counts = sd[k].counts;
    }
    {
        ga_plan_t p0 = plan, p1 = plan;
        p0.evaluate = x->ops[0]->evaluate;
        p0.evaluate_b = x->b[0];
        p1.evaluate = x->ops[1]->evaluate;
        p1.evaluate_b = x->b[1];
        BOTH(go[0]->ga_open(go[0] == x->ops[0] ? x->b[0] : NULL, &p0, &sd[0].g, err),
             go[1]->ga_open(x->b[1], &p1, &sd[1].g, &e), "GA open");
    }
    /* generation 0: made, evaluated, ranked */
    BOTH(go[0]->ga_init_population(sd[0].g, err), go[1]->ga_init_population(sd[1].g, &e), "generation 0");
    BOTH(go[0]->ga_evaluate(sd[0].g, &sd[0].ev, err), go[1]->ga_evaluate(sd[1].g, &sd[1].ev, &e),
         "evaluate generation 0");
    x->out->genomes += sd[0].ev.new_evals;
    if (compare_eval_out(x, "GA evaluate, generation 0", &sd[0].ev, &sd[1].ev))
        goto done;
    BOTH(go[0]->ga_download(sd[0].g, sd[0].genes, sd[0].results, sd[0].parents, err),
         go[1]->ga_download(sd[1].g, sd[1].genes, sd[1].results, sd[1].parents, &e), "download generation 0");
    if (compare_population(x, "GA generation 0", &plan, sd, 1))
        goto done;
    BOTH(go[0]->ga_rank(sd[0].g, &sd[0].rk, err), go[1]->ga_rank(sd[1].g, &sd[1].rk, &e), "rank generation 0");
    if (compare_rank(x, &plan, &sd[0].rk, &sd[1].rk))
        goto done;
    /* one breed step: children and parents */
    ga_plan_islands(&plan, &ps, 1, sd[0].unique, isl);
    BOTH(go[0]->ga_breed(sd[0].g, 1, isl, err), go[1]->ga_breed(sd[1].g, 1, isl, &e), "breed generation 1");
    BOTH(go[0]->ga_download(sd[0].g, sd[0].genes, NULL, sd[0].parents, err),
         go[1]->ga_download(sd[1].g, sd[1].genes, NULL, sd[1].parents, &e), "download generation 1");
    if (compare_population(x, "breed (generation 1)", &plan, sd, 0))
        goto done;
    /* generation 1: cache hits (the elites) and new genomes */
    BOTH(go[0]->ga_evaluate(sd[0].g, &sd[0].ev, err), go[1]->ga_evaluate(sd[1].g, &sd[1].ev, &e),
         "evaluate generation 1");
    x->out->genomes += sd[0].ev.new_evals;
    if (compare_eval_out(x, "GA evaluate, generation 1 (dedup lookups)", &sd[0].ev, &sd[1].ev))
        goto done;
    BOTH(go[0]->ga_download(sd[0].g, NULL, sd[0].results, NULL, err),
         go[1]->ga_download(sd[1].g, NULL, sd[1].results, NULL, &e), "download generation 1's results");
    if (compare_population(x, "GA generation 1", &plan, sd, 1))
        goto done;
    if ((st = compare_caches(x, &plan, sd, err)) != EV_OK || !x->out->match)
        goto done;
    if ((st = round_trip(x, &plan, sd, err)) != EV_OK)
        goto done;
    x->out->ga_checked = x->out->match;
done:
    side_free(go[0], &sd[0]);
    side_free(go[1], &sd[1]);
    free(isl);
    return st;
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
