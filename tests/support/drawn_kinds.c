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

/* need: the streams that must draw the kind; shown: those that also count it.
 * Numbers are counted, not needed (costs, min_trades, which feature, how many
 * filters), and so are the objectives of the fold and exits rounds: those
 * rounds enumerate the fold statistics and the exit roles, each objective is
 * the plain rounds'. */
static const struct {
    const char *name;
    int need, shown;
} kinds[K_END] = {
    {"total_return", P, F | E},
    {"mean", P, F | E},
    {"sharpe", P, F | E},
    {"profit_factor", P, F | E},
    {"compound", P, F | E},
    {"calmar", P, F | E},
    {"fill level", P | F | E, 0},
    {"fill price", P | F | E, 0},
    {"cost 0", 0, P | E},
    {"cost 0.01", 0, P | E},
    {"cost 0.05", 0, P | E},
    {"min_trades 0", 0, P | E},
    {"min_trades > 0", 0, P | E},
    {"no max_drawdown", P | E, 0},
    {"max_drawdown", P | E, 0},
    {"a min filter", P | E, 0},
    {"a max filter", P | E, 0},
    {"F0", 0, P | E},
    {"F1", 0, P | E},
    {"F2", 0, P | E},
    {"1 filter", 0, P | E},
    {"2 filters", 0, P | E},
    {"3 filters", 0, P | E},
    {"target", P | E, 0},
    {"no target", P | E, 0},
    {"stop", P | E, 0},
    {"no stop", P | E, 0},
    {"dominance", P | F | E, 0},
    {"no dominance", P | F | E, 0},
    {"mean_fold", F, 0},
    {"median_fold", F, 0},
    {"worst_fold", F, 0},
    {"trail", E, 0},
    {"no trail", E, 0},
    {"breakeven", E, 0},
    {"no breakeven", E, 0},
    {"max_hold", E, 0},
    {"no max_hold", E, 0},
};

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
    for (int i = 0; i < K_END; i++)
        if (k[i] && ((kinds[i].need | kinds[i].shown) >> s & 1)) {
            d->count[s][i]++;
            fprintf(out, " %s,", kinds[i].name);
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
        for (int i = 0; i < K_END; i++)
            if ((kinds[i].need | kinds[i].shown) >> s & 1) {
                fprintf(out, "%s %s %u%s", sep, kinds[i].name, d->count[s][i],
                        kinds[i].need >> s & 1 ? "" : " (counted)");
                sep = ",";
            }
        fputc('\n', out);
    }
    /* a stream without rounds draws none of its kinds: one item for it */
    for (int s = 0; s < DRAWN_STREAMS; s++)
        for (int i = 0; i < K_END; i++)
            if (d->rounds[s] == 0) {
                fprintf(out, "%s no %s rounds", missed++ ? "," : "kinds not drawn:", stream_names[s]);
                break;
            } else if ((kinds[i].need >> s & 1) && d->count[s][i] == 0)
                fprintf(out, "%s %s (%s rounds)", missed++ ? "," : "kinds not drawn:", kinds[i].name, stream_names[s]);
    if (missed)
        fputc('\n', out);
    return missed;
}
