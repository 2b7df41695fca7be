/* What one walk-forward window's days are to the search and the scoring
 * (runs/mode_walk.c): a trade log's days become a dataset of their own (a
 * span, runs/walk_span.c); a strategy's bars stay whole and only the trades
 * entered on those days count (runs/walk_strategy.c, strategy_set_split).
 * One window loop drives either through these ops. */
#ifndef EVOLVE_WALK_SIDE_H
#define EVOLVE_WALK_SIDE_H

#include "runs/session.h"
#include "common/status.h"
#include "fitness/walk_forward.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct walk_side walk_side_t;

typedef struct {
    /* days[begin, end) become the problem; search: w->b must search it. */
    ev_status (*open)(walk_side_t *w, session_t *s, const int64_t *days, int32_t begin, int32_t end, int search,
                      ev_error *err);
    /* g's result there (g->r, g->key) and its value as reported; stats (NULL
     * when not wanted) its trader statistics there. */
    ev_status (*score)(walk_side_t *w, const session_t *s, ranked_genome_t *g, double *value, trade_stats_t *stats,
                       ev_error *err);
    /* The open days' kept trades under genes onto the chain (walk_side_push). */
    ev_status (*chain)(walk_side_t *w, const session_t *s, const uint16_t *genes, ev_error *err);
    /* The baseline point b on the open days: its result (feasible as a test
     * window is, walk_side_window_done) and value as reported, and its kept
     * trades onto baseline chain j (walk_side_push_base). A strategy's side
     * scores only the config's baseline: (its pinned strategy). */
    ev_status (*baseline)(walk_side_t *w, const session_t *s, const baseline_point_t *b, int32_t j, eval_result_t *r,
                          double *value, ev_error *err);
    void (*close)(walk_side_t *w, session_t *s);
    /* After the last window or a failure: the session as before. */
    ev_status (*finish)(walk_side_t *w, session_t *s, ev_error *err);
} walk_side_ops_t;

struct walk_side {
    const walk_side_ops_t *ops;
    backend_t *b;               /* searches the open days */
    const fit_problem_t *p;     /* their problem */
    const fit_tables_t *tables; /* the GA's tables option */
    accum_t acc;                /* the chain: every test window's kept trades, in order */
    accum_t win;                /* the open test window's part of the chain */
    double prod;                /* compound: prod(1 + q / 1e8), 0 on ruin */
    kept_trade_t *k;            /* the chain's trades [n_k] (cap_k), for its trader statistics */
    int64_t n_k, cap_k;
    accum_t base_acc[BASELINE_KINDS]; /* baseline j's chain over the same test windows */
    double base_prod[BASELINE_KINDS];
    void *own; /* the side's own state */
};

/* The trade-log side (runs/walk_span.c) and the strategy side
 * (runs/walk_strategy.c). */
extern const walk_side_ops_t walk_span_ops;
extern const walk_side_ops_t walk_strategy_ops;

/* An empty chain on ops; walk_side_free. */
void walk_side_init(walk_side_t *w, const walk_side_ops_t *ops);
void walk_side_free(walk_side_t *w);
/* One kept test trade onto the chain, by the session's objective. */
ev_status walk_side_push(walk_side_t *w, const session_t *s, const kept_trade_t *k, ev_error *err);
/* One kept test trade of baseline j onto its chain. */
void walk_side_push_base(walk_side_t *w, const session_t *s, int32_t j, const kept_trade_t *k);
/* The open test window's feasibility into *r by its chained trades, out of
 * sample (validation.min_trades where set, as for a holdout); the next window
 * starts afresh. */
void walk_side_window_done(walk_side_t *w, const session_t *s, eval_result_t *r);
/* The objective out of sample: s's with validation.min_trades where set. */
objective_cfg_t walk_side_out_of_sample(const session_t *s);
/* The chain's result (feasible as a test window is), reported value and
 * trader statistics into r, and each baseline's chain's result and value. */
ev_status walk_side_chained(const walk_side_t *w, const session_t *s, wf_result_t *r, ev_error *err);

#ifdef __cplusplus
}
#endif
#endif
