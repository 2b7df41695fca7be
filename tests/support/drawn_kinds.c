#include "tests/support/drawn_kinds.h"

#include <string.h>

#include "common/hd.h"
#include "fitness/fold_accum.h"
#include "fitness/objective_prep.h"

EV_STATIC_ASSERT((int)DRAWN_KINDS <= 64, "a need mask holds every kind");

/* A stream's bit. */
enum { P = 1 << DRAWN_PLAIN, F = 1 << DRAWN_FOLDS, E = 1 << DRAWN_EXITS };

/* The kinds, a group a row: its first kind, how many, the streams whose
 * rounds enumerate it (their lines and counts show it), and their names (the
 * objectives': objective_name). The fold reruns keep the plain round's
 * lattice, so only their objective, fill and fold statistic are theirs. */
static const struct {
    int first, n, streams;
    const char *names[6];
} groups[] = {
    {DRAWN_OBJ, OBJ_COUNT, P | F | E, {NULL}},
    {DRAWN_FILL, 2, P | F | E, {"fill level", "fill price"}},
    {DRAWN_COST, 3, P | E, {"cost 0", "cost 0.01", "cost 0.05"}},
    {DRAWN_MIN_TRADES, 2, P | E, {"min_trades 0", "min_trades > 0"}},
    {DRAWN_MAX_DD, 2, P | E, {"no max_drawdown", "max_drawdown"}},
    {DRAWN_DIR, 2, P | E, {"a min filter", "a max filter"}},
    {DRAWN_FEATURE, 3, P | E, {"F0", "F1", "F2"}},
    {DRAWN_N_FILTERS, 3, P | E, {"1 filter", "2 filters", "3 filters"}},
    {DRAWN_TARGET, 2, P | E, {"target", "no target"}},
    {DRAWN_STOP, 2, P | E, {"stop", "no stop"}},
    {DRAWN_DOMINANCE, 2, P | F | E, {"dominance", "no dominance"}},
    {DRAWN_AGG, 3, F, {"mean_fold", "median_fold", "worst_fold"}},
    {DRAWN_EXIT, 6, E, {"trail", "no trail", "breakeven", "no breakeven", "max_hold", "no max_hold"}},
};
enum { GROUPS = sizeof groups / sizeof groups[0] };

static const char *kind_name(int g, int j)
{
    return groups[g].names[0] ? groups[g].names[j] : objective_name((objective_kind)j);
}

static const char *const stream_names[DRAWN_STREAMS] = {"plain", "folds", "exits"};

/* Marks in k[] every kind p draws. */
static void kinds_of(const drawn_problem_t *p, uint8_t *k)
{
    const lattice_t *lat = p->lat;
    const objective_cfg_t *o = p->obj;
    const int32_t exits[3] = {lat->trail_param, lat->breakeven_param, lat->hold_param};
    objective_prep_t prep;
    int filters = 0;
    objective_prepare(&prep, o); /* as problem_init does: dominance_applicable's need_dd */
    memset(k, 0, DRAWN_KINDS);
    k[DRAWN_OBJ + o->kind] = 1;
    k[DRAWN_FILL + (o->fill == FILL_PRICE)] = 1;
    k[DRAWN_COST + (o->cost_pct > 0.0) + (o->cost_pct > 0.02)] = 1;
    k[DRAWN_MIN_TRADES + (o->min_trades > 0)] = 1;
    k[DRAWN_MAX_DD + (o->has_max_drawdown != 0)] = 1;
    for (int32_t i = 0; i < lat->n_params; i++) {
        const param_t *q = &lat->params[i];
        if (q->role != PARAM_FILTER)
            continue;
        filters++;
        k[DRAWN_DIR + (q->dir == FILTER_MAX)] = 1;
        for (int f = 0; f < 3; f++)
            k[DRAWN_FEATURE + f] |= q->feature[0] == 'F' && q->feature[1] == '0' + f;
    }
    if (filters >= 1 && filters <= 3)
        k[DRAWN_N_FILTERS + filters - 1] = 1;
    k[DRAWN_TARGET + (lat->target_param < 0)] = 1;
    k[DRAWN_STOP + (lat->stop_param < 0)] = 1;
    k[DRAWN_DOMINANCE + (prep.need_dd != 0)] = 1;
    if (p->n_folds > 0 && p->agg >= AGG_MEAN_FOLD && p->agg <= AGG_WORST_FOLD)
        k[DRAWN_AGG + p->agg - AGG_MEAN_FOLD] = 1;
    for (int r = 0; r < 3; r++)
        k[DRAWN_EXIT + 2 * r + (exits[r] < 0)] = 1;
}

void drawn_add(drawn_kinds_t *d, drawn_stream s, const drawn_problem_t *p)
{
    uint8_t k[DRAWN_KINDS];
    kinds_of(p, k);
    d->rounds[s]++;
    for (int i = 0; i < DRAWN_KINDS; i++)
        d->count[s][i] += k[i];
}

void drawn_print(drawn_stream s, int round, const drawn_problem_t *p, double cpu_s, FILE *out)
{
    uint8_t k[DRAWN_KINDS];
    kinds_of(p, k);
    fprintf(out, "%s round %d:", stream_names[s], round);
    for (int g = 0; g < GROUPS; g++)
        for (int j = 0; j < groups[g].n && (groups[g].streams >> s & 1); j++)
            if (k[groups[g].first + j])
                fprintf(out, " %s,", kind_name(g, j));
    if (p->n_folds > 0)
        fprintf(out, " %d folds,", (int)p->n_folds);
    fprintf(out, " %llu points (%.2f s of CPU)\n", (unsigned long long)p->lat->size, cpu_s);
}

/* "kinds not drawn:" before the first missed item, "," before the others. */
static const char *missed_sep(int *missed)
{
    return (*missed)++ ? "," : "kinds not drawn:";
}

int drawn_report(const drawn_kinds_t *d, const uint64_t need[DRAWN_STREAMS], FILE *out)
{
    int missed = 0;
    for (int s = 0; s < DRAWN_STREAMS; s++) {
        const char *sep = ":";
        if (d->rounds[s] == 0 && need[s] == 0)
            continue; /* a stream this caller does not run */
        fprintf(out, "%s rounds: %u; drawn", stream_names[s], d->rounds[s]);
        for (int g = 0; g < GROUPS; g++)
            for (int j = 0; j < groups[g].n; j++) {
                const int kind = groups[g].first + j, needed = (need[s] & DRAWN_BIT(kind)) != 0;
                if (!needed && !(groups[g].streams >> s & 1))
                    continue;
                fprintf(out, "%s %s %u%s", sep, kind_name(g, j), d->count[s][kind], needed ? "" : " (counted)");
                sep = ",";
            }
        fputc('\n', out);
    }
    for (int s = 0; s < DRAWN_STREAMS; s++) {
        if (d->rounds[s] == 0) { /* a stream without rounds draws none of its kinds: one item for it */
            if (need[s])
                fprintf(out, "%s no %s rounds", missed_sep(&missed), stream_names[s]);
            continue;
        }
        for (int g = 0; g < GROUPS; g++)
            for (int j = 0; j < groups[g].n; j++)
                if ((need[s] & DRAWN_BIT(groups[g].first + j)) && d->count[s][groups[g].first + j] == 0)
                    fprintf(out, "%s %s (%s rounds)", missed_sep(&missed), kind_name(g, j), stream_names[s]);
    }
    if (missed)
        fputc('\n', out);
    return missed;
}
