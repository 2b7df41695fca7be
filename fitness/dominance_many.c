#include "fitness/dominance_many.h"

#include <stdlib.h>
#include <string.h>

#include "fitness/dom_cells.h"
#include "fitness/dominance_suffix.h"

#ifdef _OPENMP
#include <omp.h>
#endif

/* Rounds a pass is cut into at least, and the most points of one (seconds). */
#define DOM_ROUNDS 32u
#define DOM_ROUND_POINTS ((uint64_t)1 << 25)

uint32_t dominance_many_group(const dom_plan_t *plan, uint64_t block_bytes, uint64_t exits, uint64_t budget,
                              int threads)
{
    uint64_t g = block_bytes ? DOM_GROUP_BYTES / block_bytes : DOM_GROUP_MAX;
    uint64_t th = threads > 0 ? (uint64_t)threads : 1;
    if (plan->lead != 0 || exits < 2 * th || block_bytes == 0)
        return 0;
    g = g < 1 ? 1 : g > DOM_GROUP_MAX ? DOM_GROUP_MAX : g;
    while (g > 1 && th * g * block_bytes > budget)
        g /= 2;
    return budget / block_bytes >= th * g ? (uint32_t)g : 0u;
}

/* An exit role's columns of the tables (target, stop, SPEC sec. 4.1's) as the
 * race reads them: a trade's row of first seconds, of outcomes and of their
 * log factors (outcomes per level, the same for every trade: qrow 0). */
typedef struct {
    const int32_t *hit;
    const int64_t *q, *lf;
    int64_t row, qrow;
} role_t;

/* One thread's group: its blocks (words), their exits, the plan. */
typedef struct {
    const fit_problem_t *p;
    const fit_tables_t *t;
    const dom_plan_t *plan;
    uint64_t sums, block_words; /* cells x sum sets; uint64 words of one block */
    uint32_t g;
    uint64_t tile_bytes;
    int32_t n_roles; /* roles the lattice has, in the race's tie order */
    role_t role[2 + MORE_EXITS];
    uint64_t *words;
    dom_cells_t c[DOM_GROUP_MAX];
    tables_exits_t x[DOM_GROUP_MAX];
    int32_t col[DOM_GROUP_MAX][2 + MORE_EXITS]; /* combination k's value of each role */
} group_t;

/* The roles present, in tables_first_exit's order: target, stop, more[]. */
static void group_roles(group_t *m)
{
    const fit_tables_t *t = m->t;
    const role_t target = {t->hit_t, t->q_t, t->lf_t, t->n_targets, t->fill_price ? t->n_targets : 0};
    const role_t stop = {t->hit_s, t->q_s, t->lf_s, t->n_stops, t->fill_price ? t->n_stops : 0};
    m->n_roles = 0;
    if (t->n_targets)
        m->role[m->n_roles++] = target;
    if (t->n_stops)
        m->role[m->n_roles++] = stop;
    for (int r = 0; r < MORE_EXITS; r++) {
        const tables_more_t *x = &t->more[r];
        const role_t more = {x->hit, x->q, x->lf, x->n, x->n};
        if (x->n)
            m->role[m->n_roles++] = more;
    }
}

/* Combination k's value of each role present (group_roles' order). */
static void group_cols(group_t *m, uint32_t k)
{
    const tables_exits_t *x = &m->x[k];
    int32_t i = 0;
    if (m->t->n_targets)
        m->col[k][i++] = x->ti;
    if (m->t->n_stops)
        m->col[k][i++] = x->si;
    for (int r = 0; r < MORE_EXITS; r++)
        if (m->t->more[r].n)
            m->col[k][i++] = x->mi[r];
}

/* Every trade the filters' value 0 keeps into its cell of each block, trade
 * by trade: its rows of the tables are read once for the g combinations.
 * Each outcome is tables_outcome's: the earliest first second wins, the
 * earlier role on a tie (a strict <, roles in tie order), none: the log's. */
static void group_bin(group_t *m)
{
    const fit_tables_t *t = m->t;
    const uint16_t none[EV_MAX_PARAMS] = {0}; /* no fixed leading filter (lead 0) */
    const int need_lf = t->need_lf;
    memset(m->words, 0, (size_t)(m->g * m->block_words) * sizeof *m->words);
    for (int64_t j = 0; j < t->n_trades; j++) {
        const int32_t *hit[2 + MORE_EXITS];
        const int64_t *qs[2 + MORE_EXITS], *lfs[2 + MORE_EXITS];
        uint64_t idx;
        if (!dominance_trade_cell(m->plan, none, t->cells + j * t->n_filters, &idx))
            continue;
        idx += dominance_trade_set(t, j) * m->plan->cells;
        for (int32_t i = 0; i < m->n_roles; i++) {
            hit[i] = m->role[i].hit + j * m->role[i].row;
            qs[i] = m->role[i].q + j * m->role[i].qrow;
            lfs[i] = need_lf ? m->role[i].lf + j * m->role[i].qrow : NULL;
        }
        for (uint32_t k = 0; k < m->g; k++) {
            int32_t best = EV_NO_HIT;
            int64_t q = t->q_log[j], lf = need_lf ? t->lf_log[j] : 0;
            accum_t a;
            for (int32_t i = 0; i < m->n_roles; i++) {
                const int32_t c = m->col[k][i], h = hit[i][c];
                const int64_t qv = qs[i][c], lv = need_lf ? lfs[i][c] : 0;
                q = h < best ? qv : q;
                lf = h < best ? lv : lf;
                best = h < best ? h : best;
            }
            accum_init(&a);
            accum_add(&a, &t->obj, q, lf);
            dom_cells_add(&m->c[k], idx, &a);
        }
    }
}

/* Combinations [c0, c0 + g): binned together, then each block swept and
 * ranked into the thread's sink. */
static void group_run(group_t *m, uint64_t c0, uint32_t g, grid_sink_t *local, const topk_bar_t *shared)
{
    const uint16_t none[EV_MAX_PARAMS] = {0};
    m->g = g;
    for (uint32_t k = 0; k < g; k++) {
        m->x[k] = tables_exit_combo(m->t, c0 + k);
        group_cols(m, k);
        dom_cells_bind(&m->c[k], m->words + k * m->block_words, m->sums, &m->t->obj);
    }
    group_bin(m);
    for (uint32_t k = 0; k < g; k++) {
        const dom_block_t v = {m->p, m->t, m->plan, &m->c[k], none, &m->x[k], m->tile_bytes};
        dominance_suffix_rank(&v, local, shared);
    }
}

/* Combinations [c, c + n) over the threads, `group` at a time each. */
static ev_status round_run(const group_t *proto, uint64_t *words, uint32_t group, uint64_t c, uint64_t n,
                           grid_sink_t *sink, ev_error *err)
{
    const int64_t groups = (int64_t)((n + group - 1) / group);
    const topk_bar_t shared = sink->top ? topk_bar(sink->top) : (topk_bar_t){0, 0, 0, 0};
    ev_status st = EV_OK;
#pragma omp parallel
    {
        group_t m = *proto;
        grid_sink_t local;
        ev_error lerr;
        int me = 0, ok;
#ifdef _OPENMP
        me = omp_get_thread_num();
#endif
        m.words = words + (uint64_t)me * group * m.block_words;
        ok = grid_sink_local(&local, sink, &lerr) == EV_OK;
        if (!ok) {
#pragma omp critical(dominance_err)
            st = ev_fail(err, EV_ENOMEM, "%s", lerr.msg);
        }
#pragma omp for schedule(dynamic, 1)
        for (int64_t i = 0; i < groups; i++) {
            uint64_t c0 = c + (uint64_t)i * group;
            if (ok)
                group_run(&m, c0, (uint32_t)(c + n - c0 < group ? c + n - c0 : group), &local, &shared);
        }
        if (ok) {
#pragma omp critical(dominance_merge)
            grid_sink_merge(sink, &local);
        }
        grid_sink_local_free(&local);
    }
    return st;
}

ev_status dominance_many_pass(const fit_problem_t *p, const fit_tables_t *t, const dom_plan_t *plan, uint32_t group,
                              uint64_t tile_bytes, uint64_t first, grid_sink_t *sink, const grid_progress_hook_t *hook,
                              progress_t *prog, uint64_t *done, ev_error *err)
{
    const uint64_t exits = tables_exit_combos(t);
    group_t proto;
    uint64_t *words, round;
    int threads = 1;
    ev_status st = EV_OK;
#ifdef _OPENMP
    threads = omp_get_max_threads();
#endif
    memset(&proto, 0, sizeof proto);
    proto.p = p;
    proto.t = t;
    proto.plan = plan;
    proto.tile_bytes = tile_bytes;
    proto.sums = plan->cells * (uint64_t)dominance_sets(t);
    proto.block_words = proto.sums * dom_cells_words(&t->obj);
    group_roles(&proto);
    /* rounds: a pass has at least DOM_ROUNDS of them (progress, Ctrl-C and the
     * checkpoint come between rounds), a round at most DOM_ROUND_POINTS and at
     * least a combination per thread; a barrier a round, not a combination */
    round = (exits + DOM_ROUNDS - 1) / DOM_ROUNDS;
    if (round > DOM_ROUND_POINTS / plan->cells)
        round = DOM_ROUND_POINTS / plan->cells;
    if (round < (uint64_t)threads)
        round = (uint64_t)threads;
    if ((uint64_t)group * (uint64_t)threads > round)
        group = (uint32_t)((round + (uint64_t)threads - 1) / (uint64_t)threads);
    words = (uint64_t *)malloc((size_t)((uint64_t)threads * group * proto.block_words) * sizeof *words);
    if (!words)
        return ev_fail(err, EV_ENOMEM, "out of memory for %d x %u blocks of %llu dominance cells", threads, group,
                       (unsigned long long)plan->cells);
    for (uint64_t c = first; c < exits && st == EV_OK; c += round) {
        uint64_t n = exits - c < round ? exits - c : round;
        if ((st = round_run(&proto, words, group, c, n, sink, err)) == EV_OK)
            st = grid_pass_step(hook, prog, *done += n * plan->cells, p->lat->size, err);
    }
    free(words);
    return st;
}
