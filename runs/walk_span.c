/* A walk-forward window of a trade log (runs/walk_side.h): its days' trades
 * cut out as a dataset of their own, searched and scored there. */
#include <stdlib.h>
#include <string.h>

#include "runs/walk_side.h"
#include "fitness/validation.h"

/* A trade log's window: the trades of its days as a problem of their own:
 * their dataset, problem, tables, and (to search them) a backend opened on
 * them. */
typedef struct {
    dataset_t ds;
    fit_problem_t p;
    tables_host_t t;
    backend_t *b;
    int64_t *map; /* [ds.n_trades]: each trade's index in the session's dataset */
} span_t;

static void span_close(walk_side_t *w, session_t *s)
{
    span_t *sp;
    if (!w->own)
        return;
    sp = (span_t *)w->own;
    if (sp->b)
        s->ops->close(sp->b);
    tables_free(&sp->t);
    problem_free(&sp->p);
    dataset_free(&sp->ds);
    free(sp->map);
    memset(sp, 0, sizeof *sp);
}

/* Days [days[begin], days[end - 1]] of the session's dataset; search: open
 * a backend. The side's state comes with the first window. */
static ev_status span_open(walk_side_t *w, session_t *s, const int64_t *days, int32_t begin, int32_t end, int search,
                           ev_error *err)
{
    const dataset_t *ds = &s->ds;
    const int64_t first = days[begin], last = days[end - 1];
    uint8_t *keep;
    span_t *sp;
    ev_status st;
    if (!w->own && !(w->own = calloc(1, sizeof(span_t))))
        return ev_fail(err, EV_ENOMEM, "out of memory");
    sp = (span_t *)w->own;
    keep = (uint8_t *)malloc((size_t)ds->n_trades + 1);
    if (!keep || !(sp->map = (int64_t *)malloc(((size_t)ds->n_trades + 1) * sizeof *sp->map))) {
        free(keep);
        return ev_fail(err, EV_ENOMEM, "out of memory");
    }
    for (int64_t j = 0, k = 0; j < ds->n_trades; j++) {
        int64_t d = val_day_of(ds->entry_ts[j]);
        keep[j] = d >= first && d <= last;
        if (keep[j])
            sp->map[k++] = j;
    }
    st = dataset_subset(&sp->ds, ds, keep, err);
    free(keep);
    if (st == EV_OK && (st = lattice_bind(&s->cfg.lattice, &sp->ds, err)) == EV_OK &&
        (st = problem_init(&sp->p, &sp->ds, &s->cfg.lattice, &s->cfg.objective, err)) == EV_OK &&
        (st = tables_build(&sp->t, &sp->p, err)) == EV_OK && search)
        st = s->ops->open(&sp->b, &sp->p, &sp->t, err);
    w->b = sp->b;
    w->p = &sp->p;
    w->tables = &sp->t.view;
    return st;
}

/* genes' value on the span as reported (fitness/reported.h), its result and
 * trader statistics. */
static ev_status span_score(walk_side_t *w, const session_t *s, ranked_genome_t *g, double *value, trade_stats_t *stats,
                            ev_error *err)
{
    const span_t *sp = (span_t *)w->own;
    reported_t rep;
    ev_status st;
    (void)s;
    g->r = tables_eval(&sp->t.view, g->genes);
    g->key = rank_key(g->r);
    if ((st = reported_make(&rep, &sp->p, &sp->t.view, g, 1, err)) != EV_OK)
        return st;
    *value = rep.value[0];
    if (stats)
        *stats = rep.stats[0];
    reported_free(&rep);
    return EV_OK;
}

/* Baseline point b on the span: a lattice of that one point on the span's
 * trades, by the objective out of sample. */
static ev_status span_baseline(walk_side_t *w, const session_t *s, const baseline_point_t *b, int32_t j,
                               eval_result_t *r, double *value, ev_error *err)
{
    static const uint16_t genes[EV_MAX_PARAMS] = {0};
    const span_t *sp = (span_t *)w->own;
    const objective_cfg_t obj = walk_side_out_of_sample(s);
    lattice_t lat;
    fit_problem_t p;
    tables_host_t t;
    reported_t rep;
    ranked_genome_t e;
    ev_status st;
    memset(&lat, 0, sizeof lat);
    memset(&p, 0, sizeof p);
    memset(&t, 0, sizeof t);
    memset(&e, 0, sizeof e);
    if ((st = baseline_lattice(&lat, &s->cfg.lattice, b, err)) == EV_OK &&
        (st = lattice_bind(&lat, &sp->ds, err)) == EV_OK &&
        (st = problem_init(&p, &sp->ds, &lat, &obj, err)) == EV_OK && (st = tables_build(&t, &p, err)) == EV_OK) {
        e.r = tables_eval(&t.view, genes);
        e.key = rank_key(e.r);
        if ((st = reported_make(&rep, &p, &t.view, &e, 1, err)) == EV_OK) {
            *r = e.r;
            *value = rep.value[0];
            reported_free(&rep);
        }
        kept_trade_t *k = NULL;
        int64_t n = 0;
        if (st == EV_OK && (st = kept_trades(&p, &t.view, genes, &k, &n, err)) == EV_OK)
            for (int64_t i = 0; i < n; i++)
                walk_side_push_base(w, s, j, &k[i]);
        free(k);
    }
    tables_free(&t);
    problem_free(&p);
    lattice_free(&lat);
    return st;
}

/* The span's kept trades under genes onto the chain (indices into the
 * session's dataset). */
static ev_status span_chain(walk_side_t *w, const session_t *s, const uint16_t *genes, ev_error *err)
{
    const span_t *sp = (span_t *)w->own;
    kept_trade_t *k;
    int64_t n;
    ev_status st = kept_trades(&sp->p, &sp->t.view, genes, &k, &n, err);
    for (int64_t i = 0; st == EV_OK && i < n; i++) {
        k[i].trade = sp->map[k[i].trade];
        st = walk_side_push(w, s, &k[i], err);
    }
    free(k);
    return st;
}

/* The session's problem bound to its own dataset again. */
static ev_status span_finish(walk_side_t *w, session_t *s, ev_error *err)
{
    free(w->own);
    w->own = NULL;
    return lattice_bind(&s->cfg.lattice, &s->ds, err);
}

const walk_side_ops_t walk_span_ops = {
    .open = span_open,
    .score = span_score,
    .baseline = span_baseline,
    .chain = span_chain,
    .close = span_close,
    .finish = span_finish,
};
