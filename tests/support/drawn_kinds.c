#include "tests/support/drawn_kinds.h"

#include <string.h>

#include "fitness/dominance.h"
#include "fitness/fold_accum.h"

/* A stream's bit. */
enum { P = 1 << DRAWN_PLAIN, F = 1 << DRAWN_FOLDS, E = 1 << DRAWN_EXITS };

enum {
    K_OBJ = 0,                   /* + objective_kind */
    K_FILL = K_OBJ + OBJ_COUNT,  /* + fill_mode */
    K_COST = K_FILL + 2,         /* 0, 0.01, 0.05 (random_objective's) */
    K_MIN_TRADES = K_COST + 3,   /* 0, > 0 */
    K_MAX_DD = K_MIN_TRADES + 2, /* off, on */
    K_DIR = K_MAX_DD + 2,        /* a min filter, a max filter */
    K_FEATURE = K_DIR + 2,       /* F0, F1, F2 */
    K_N_FILTERS = K_FEATURE + 3, /* 1, 2, 3 */
    K_TARGET = K_N_FILTERS + 3,  /* with, without */
    K_STOP = K_TARGET + 2,       /* with, without */
    K_DOMINANCE = K_STOP + 2,    /* applicable, not */
    K_AGG = K_DOMINANCE + 2,     /* mean, median, worst fold */
    K_EXIT = K_AGG + 3,          /* trail, breakeven, max_hold: each with, without */
    K_END = K_EXIT + 6
};
EV_STATIC_ASSERT((int)K_END <= (int)DRAWN_KINDS, "drawn_kinds_t holds every kind");

/* The kinds, a group a row: its first kind, how many, the streams that must
 * draw each (need) and those that also count it (shown), and their names (the
 * objectives': objective_name). Numbers are counted, not needed (costs,
 * min_trades, which feature, how many filters), and so are the objectives of
 * the fold and exits rounds: those rounds enumerate the fold statistics and
 * the exit roles, each objective is the plain rounds'. */
static const struct {
    int first, n, need, shown;
    const char *names[6];
} groups[] = {
    {K_OBJ, OBJ_COUNT, P, F | E, {NULL}},
    {K_FILL, 2, P | F | E, 0, {"fill level", "fill price"}},
    {K_COST, 3, 0, P | E, {"cost 0", "cost 0.01", "cost 0.05"}},
    {K_MIN_TRADES, 2, 0, P | E, {"min_trades 0", "min_trades > 0"}},
    {K_MAX_DD, 2, P | E, 0, {"no max_drawdown", "max_drawdown"}},
    {K_DIR, 2, P | E, 0, {"a min filter", "a max filter"}},
    {K_FEATURE, 3, 0, P | E, {"F0", "F1", "F2"}},
    {K_N_FILTERS, 3, 0, P | E, {"1 filter", "2 filters", "3 filters"}},
    {K_TARGET, 2, P | E, 0, {"target", "no target"}},
    {K_STOP, 2, P | E, 0, {"stop", "no stop"}},
    {K_DOMINANCE, 2, P | F | E, 0, {"dominance", "no dominance"}},
    {K_AGG, 3, F, 0, {"mean_fold", "median_fold", "worst_fold"}},
    {K_EXIT, 6, E, 0, {"trail", "no trail", "breakeven", "no breakeven", "max_hold", "no max_hold"}},
};
enum { GROUPS = sizeof groups / sizeof groups[0] };

static const char *kind_name(int g, int j)
{
    return groups[g].names[0] ? groups[g].names[j] : objective_name((objective_kind)j);
}

static const char *const stream_names[DRAWN_STREAMS] = {"plain", "folds", "exits"};

/* Marks in k[] every kind p draws. */
static void kinds_of(const fit_problem_t *p, uint8_t *k)
{
    const lattice_t *lat = p->lat;
    const objective_cfg_t *o = &p->obj_cfg;
    const int32_t exits[3] = {lat->trail_param, lat->breakeven_param, lat->hold_param};
    int filters = 0;
    memset(k, 0, K_END);
    k[K_OBJ + o->kind] = 1;
    k[K_FILL + (o->fill == FILL_PRICE)] = 1;
    k[K_COST + (o->cost_pct > 0.0) + (o->cost_pct > 0.02)] = 1;
    k[K_MIN_TRADES + (o->min_trades > 0)] = 1;
    k[K_MAX_DD + (o->has_max_drawdown != 0)] = 1;
    for (int32_t i = 0; i < lat->n_params; i++) {
        const param_t *q = &lat->params[i];
        if (q->role != PARAM_FILTER)
            continue;
        filters++;
        k[K_DIR + (q->dir == FILTER_MAX)] = 1;
        for (int f = 0; f < 3; f++)
            k[K_FEATURE + f] |= q->feature[0] == 'F' && q->feature[1] == '0' + f;
    }
    if (filters >= 1 && filters <= 3)
        k[K_N_FILTERS + filters - 1] = 1;
    k[K_TARGET + (lat->target_param < 0)] = 1;
    k[K_STOP + (lat->stop_param < 0)] = 1;
    k[K_DOMINANCE + !dominance_applicable(p)] = 1;
    if (p->fold && p->agg >= AGG_MEAN_FOLD && p->agg <= AGG_WORST_FOLD)
        k[K_AGG + p->agg - AGG_MEAN_FOLD] = 1;
    for (int r = 0; r < 3; r++)
        k[K_EXIT + 2 * r + (exits[r] < 0)] = 1;
}

void drawn_add(drawn_kinds_t *d, drawn_stream s, int round, const fit_problem_t *p, double cpu_s, FILE *out)
{
    uint8_t k[K_END];
    kinds_of(p, k);
    d->rounds[s]++;
    fprintf(out, "%s round %d:", stream_names[s], round);
    for (int g = 0; g < GROUPS; g++)
        for (int j = 0; j < groups[g].n; j++)
            if (k[groups[g].first + j] && ((groups[g].need | groups[g].shown) >> s & 1)) {
                d->count[s][groups[g].first + j]++;
                fprintf(out, " %s,", kind_name(g, j));
            }
    if (p->fold)
        fprintf(out, " %d folds,", (int)p->n_folds);
    fprintf(out, " %llu points (%.2f s of CPU)\n", (unsigned long long)p->lat->size, cpu_s);
}

int drawn_report(const drawn_kinds_t *d, FILE *out)
{
    int missed = 0;
    for (int s = 0; s < DRAWN_STREAMS; s++) {
        const char *sep = ":";
        fprintf(out, "%s rounds: %u; drawn", stream_names[s], d->rounds[s]);
        for (int g = 0; g < GROUPS; g++)
            for (int j = 0; j < groups[g].n && ((groups[g].need | groups[g].shown) >> s & 1); j++) {
                fprintf(out, "%s %s %u%s", sep, kind_name(g, j), d->count[s][groups[g].first + j],
                        groups[g].need >> s & 1 ? "" : " (counted)");
                sep = ",";
            }
        fputc('\n', out);
    }
    for (int s = 0; s < DRAWN_STREAMS; s++) {
        if (d->rounds[s] == 0) { /* a stream without rounds draws none of its kinds: one item for it */
            fprintf(out, "%s no %s rounds", missed++ ? "," : "kinds not drawn:", stream_names[s]);
            continue;
        }
        for (int g = 0; g < GROUPS; g++)
            for (int j = 0; j < groups[g].n && (groups[g].need >> s & 1); j++)
                if (d->count[s][groups[g].first + j] == 0)
                    fprintf(out, "%s %s (%s rounds)", missed++ ? "," : "kinds not drawn:", kind_name(g, j),
                            stream_names[s]);
    }
    if (missed)
        fputc('\n', out);
    return missed;
}
