#include "runs/ga_record.h"

#include "runs/ga_candidates.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "archive/checkpoint.h"
#include "archive/run_baseline.h"
#include "archive/run_groups.h"
#include "archive/run_stats.h"
#include "archive/run_validation.h"
#include "archive/run_verdict.h"
#include "runs/run_identity.h"
#include "common/test_hooks.h"
#include "fitness/objective_prep.h"
#include "operators/genome.h"

void ga_archive_dims(const session_t *s, run_dims_t *d)
{
    memset(d, 0, sizeof *d);
    d->population = s->cfg.ga.population;
    d->n_genes = (uint32_t)s->prob.shape.n_params;
    d->islands = s->cfg.ga.islands;
    d->has_index = genome_index_words(s->prob.shape.n_values, s->prob.shape.n_params) == 1;
}

ev_status ga_archive_init(ga_archive_t *a, run_file_t *rf, const session_t *s, const char *ckpt_path, ev_error *err)
{
    ev_status st;
    memset(a, 0, sizeof *a);
    a->rf = rf;
    a->s = s;
    a->ckpt_path = ckpt_path;
    a->hof_n = UINT32_MAX;
    ga_archive_dims(s, &a->dims);
    if (!rf->has_ga && (st = run_file_ga_begin(rf, &a->dims, &s->cfg.ga, s->cfg.top, err)) != EV_OK)
        return st;
    if (!(a->hof_written = (ga_hof_entry_t *)calloc(s->cfg.top ? s->cfg.top : 1, sizeof *a->hof_written)))
        return ev_fail(err, EV_ENOMEM, "out of memory");
    return run_rows_alloc(&a->rows, &a->dims, err);
}

void ga_archive_free(ga_archive_t *a)
{
    reported_free(&a->hof_values);
    free(a->cand);
    run_rows_free(&a->rows);
    free(a->gen_hash);
    free(a->hof_written);
    memset(a, 0, sizeof *a);
}

static ev_status keep_hash(ga_archive_t *a, uint32_t gen, uint64_t h, ev_error *err)
{
    if (gen >= a->cap_hash) {
        uint32_t cap = a->cap_hash ? 2 * a->cap_hash : 256;
        uint64_t *grown;
        while (cap <= gen)
            cap *= 2;
        if (!(grown = (uint64_t *)realloc(a->gen_hash, cap * sizeof *grown)))
            return ev_fail(err, EV_ENOMEM, "out of memory");
        a->gen_hash = grown;
        a->cap_hash = cap;
    }
    a->gen_hash[gen] = h;
    a->n_hash = gen + 1;
    return EV_OK;
}

ev_status ga_archive_adopt_hashes(ga_archive_t *a, const uint64_t *hash, uint32_t n, ev_error *err)
{
    ev_status st = EV_OK;
    for (uint32_t g = 0; g < n && st == EV_OK; g++)
        st = keep_hash(a, g, hash[g], err);
    return st;
}

/* The displayed value of a raw statistic; NaN when nothing was feasible. */
static double shown(const ga_archive_t *a, double raw, int any)
{
    return any ? objective_display(&a->s->cfg.objective, raw) : NAN;
}

/* The per-individual columns, genes transposed from the GA's SoA to one row
 * per individual (what a reader wants). */
static void fill_population(ga_archive_t *a, const ga_generation_t *g)
{
    const lattice_shape_t *shape = &a->s->prob.shape;
    uint32_t pop = g->population, ng = g->n_genes;
    uint16_t *genes = (uint16_t *)a->rows.col[COL_GENES];
    double *fit = (double *)a->rows.col[COL_FITNESS], *raw = (double *)a->rows.col[COL_FITNESS_RAW];
    double mean = 0.0;
    uint64_t finite = 0;
    for (uint32_t i = 0; i < pop; i++) {
        uint16_t *gi = genes + (size_t)i * ng;
        genome_gather(g->genes, pop, i, (int32_t)ng, gi);
        raw[i] = g->results[i].fitness;
        fit[i] = objective_display(&a->s->cfg.objective, raw[i]);
        ((int64_t *)a->rows.col[COL_TRADES])[i] = g->results[i].trades;
        ((uint8_t *)a->rows.col[COL_FEASIBLE])[i] = (uint8_t)(g->results[i].feasible != 0);
        ((int32_t *)a->rows.col[COL_PARENTS])[2 * (size_t)i] = g->parents[i];
        ((int32_t *)a->rows.col[COL_PARENTS])[2 * (size_t)i + 1] = g->parents[pop + i];
        if (a->dims.has_index)
            genome_index(shape->n_values, shape->n_params, gi, 1, (uint64_t *)a->rows.col[COL_INDEX] + i);
        if (g->results[i].feasible && isfinite(fit[i])) {
            mean += fit[i];
            finite++;
        }
    }
    *(double *)a->rows.col[COL_MEAN_DISPLAY] = finite ? mean / (double)finite : NAN;
}

static void fill_stats(ga_archive_t *a, const ga_generation_t *g)
{
    const ga_gen_stats_t *st = g->stats;
    int any = st->feasible > 0;
    uint32_t *plan = (uint32_t *)a->rows.col[COL_ISLAND_PLAN];
    *(uint32_t *)a->rows.col[COL_GENERATION] = st->generation;
    *(uint64_t *)a->rows.col[COL_FEASIBLE_COUNT] = st->feasible;
    *(double *)a->rows.col[COL_BEST] = st->best;
    *(double *)a->rows.col[COL_MEDIAN] = st->median;
    *(double *)a->rows.col[COL_MEAN] = st->mean;
    *(double *)a->rows.col[COL_STD] = st->std;
    *(double *)a->rows.col[COL_BEST_DISPLAY] = shown(a, st->best, any);
    *(double *)a->rows.col[COL_MEDIAN_DISPLAY] = shown(a, st->median, any);
    *(double *)a->rows.col[COL_HOF_BEST] = st->hof->n ? a->hof_values.value[0] : NAN;
    *(uint64_t *)a->rows.col[COL_UNIQUE] = st->unique;
    *(double *)a->rows.col[COL_DIVERSITY] = st->diversity;
    memcpy(a->rows.col[COL_GENE_ENTROPY], st->gene_entropy, g->n_genes * sizeof(double));
    memcpy(a->rows.col[COL_ISLAND_UNIQUE], st->island_unique, g->islands * sizeof(uint32_t));
    for (uint32_t i = 0; i < g->islands; i++) {
        const breed_island_t *b = st->islands ? &st->islands[i] : NULL;
        plan[4 * i] = b ? b->elites : 0;
        plan[4 * i + 1] = b ? b->immigrants : 0;
        plan[4 * i + 2] = b ? b->migrants : 0;
        plan[4 * i + 3] = b ? b->source : 0;
    }
    *(uint64_t *)a->rows.col[COL_NEW_EVALUATIONS] = st->new_evaluations;
    *(uint64_t *)a->rows.col[COL_EVALUATIONS] = st->evaluations;
    *(uint64_t *)a->rows.col[COL_LOOKUPS] = st->lookups;
    *(double *)a->rows.col[COL_HIT_RATE] = st->hit_rate;
    *(double *)a->rows.col[COL_WALL_S] = st->wall_s;
}

/* The hall of fame's head (the top-K of its candidates, session_hof_capacity)
 * and its reported values into the file when it changed since it was last
 * written (after the first generations it rarely does). */
static ev_status write_hof(ga_archive_t *a, const topk_t *hof, uint64_t trials, ev_error *err)
{
    uint32_t n = hof->n < a->s->cfg.top ? hof->n : a->s->cfg.top;
    ev_status st;
    if (n == a->hof_n && !memcmp(hof->e, a->hof_written, n * sizeof *hof->e))
        return EV_OK;
    reported_free(&a->hof_values);
    a->hof_n = UINT32_MAX;
    if ((st = session_reported(a->s, hof->e, n, &a->hof_values, err)) != EV_OK ||
        (st = run_file_write_ranked(a->rf, "ga/hall_of_fame", a->hof_values.e, a->hof_values.value, n, a->s->cfg.top,
                                    err)) != EV_OK ||
        (st = run_file_write_validation(a->rf, "ga", &a->hof_values, trials, err)) != EV_OK ||
        (st = run_file_write_stats(a->rf, "ga/trader_stats", a->hof_values.stats, a->hof_values.n, err)) != EV_OK ||
        (st = run_file_write_baselines(a->rf, "ga", &a->hof_values, err)) != EV_OK)
        return st;
    memcpy(a->hof_written, hof->e, n * sizeof *hof->e);
    a->hof_n = n;
    return EV_OK;
}

static ev_status on_generation(void *ctx, const ga_generation_t *g, ev_error *err)
{
    ga_archive_t *a = (ga_archive_t *)ctx;
    uint32_t gen = g->stats->generation;
    ev_status st;
    /* The hall of fame first: its best's reported value is a column. */
    if ((st = write_hof(a, g->stats->hof, g->stats->evaluations, err)) != EV_OK)
        return st;
    fill_population(a, g);
    fill_stats(a, g);
    if ((st = keep_hash(a, gen, run_rows_hash(&a->rows, &a->dims), err)) != EV_OK ||
        (st = run_file_append(a->rf, gen, &a->rows, err)) != EV_OK)
        return st;
    test_hook_point("written", gen);
    test_hook_delay();
    return EV_OK;
}

/* The identity part of a checkpoint, from the session. */
static void checkpoint_identity(const ga_archive_t *a, checkpoint_t *c)
{
    const session_t *s = a->s;
    memset(c, 0, sizeof *c);
    run_identity_of(s, &c->id);
    c->ga.population = a->dims.population;
    c->ga.n_genes = a->dims.n_genes;
    c->ga.islands = a->dims.islands;
    c->ga.hof_k = session_hof_capacity(s);
}

static ev_status on_checkpoint(void *ctx, const ga_snapshot_t *snap, ev_error *err)
{
    ga_archive_t *a = (ga_archive_t *)ctx;
    checkpoint_t c;
    ev_status st;
    if (snap->generation > a->n_hash)
        return ev_fail(err, EV_EINTERNAL, "checkpoint of generation %u before it was archived", snap->generation);
    if ((st = run_file_flush(a->rf, err)) != EV_OK) /* its hashes vouch for rows on disk */
        return st;
    checkpoint_identity(a, &c);
    c.ga = *snap;
    c.gen_hash = a->gen_hash;
    if (checkpoint_write(a->ckpt_path, &c, err) != EV_OK)
        return EV_EIO;
    a->checkpoints++;
    return EV_OK;
}

ev_status ga_archive_checkpoint_start(ga_archive_t *a, ev_error *err)
{
    checkpoint_t c;
    checkpoint_identity(a, &c);
    return checkpoint_write(a->ckpt_path, &c, err);
}

void ga_archive_observer(ga_archive_t *a, ga_observer_t *obs)
{
    memset(obs, 0, sizeof *obs);
    obs->ctx = a;
    obs->want_population = 1;
    obs->on_generation = on_generation;
    if (a->ckpt_path) {
        obs->checkpoint_every = a->s->cfg.checkpoint_every;
        obs->checkpoint_every_s = a->s->cfg.checkpoint_every_s;
        obs->on_checkpoint = on_checkpoint;
    }
}

ev_status ga_archive_finish(ga_archive_t *a, const ga_result_t *res, ev_error *err)
{
    run_file_t *rf = a->rf;
    ev_status st = write_hof(a, &res->hof, res->evaluations, err);
    val_rows_t *v = a->hof_values.val;
    if (v) { /* the PBO, computed after the hall of fame was last scored (runs/ga_pbo.h) */
        v->pbo = a->s->pbo;
        v->pbo_combos = a->s->pbo_combos;
        v->pbo_genomes = a->s->pbo_genomes;
        v->pbo_blocks = a->s->pbo_blocks;
    }
    /* the deflated Sharpe ratio with the final count of trials, and the PBO */
    if (st == EV_OK)
        st = run_file_write_validation(rf, "ga", &a->hof_values, res->evaluations, err);
    /* the strategies and basins, once: of the hall of fame and the generations' genomes (runs/ga_candidates.h) */
    if (st == EV_OK && a->hof_values.strat && (st = ga_candidates(rf, &res->hof, &a->cand, &a->n_cand, err)) == EV_OK)
        st = session_groups(a->s, &a->hof_values, a->cand, a->n_cand, NULL, 0, 1, err);
    if (st == EV_OK)
        st = run_file_write_groups(rf, "ga", "ga/hall_of_fame", &a->hof_values, err);
    if (st == EV_OK)
        st = run_file_write_list_verdict(rf, "ga", &a->hof_values, (double)res->evaluations, err);
    if (st == EV_OK &&
        (st = run_file_attr_str(rf, "ga", "stop_reason", ga_stop_reason_name(res->reason), err)) == EV_OK &&
        (st = run_file_attr_u64(rf, "ga", "generations", rf->generations, err)) == EV_OK &&
        (st = run_file_attr_u64(rf, "ga", "evaluations", res->evaluations, err)) == EV_OK &&
        (st = run_file_attr_u64(rf, "ga", "lookups", res->lookups, err)) == EV_OK &&
        (st = run_file_attr_u64(rf, "ga", "ls_evaluations", res->ls_evaluations, err)) == EV_OK &&
        (st = run_file_attr_u64(rf, "ga", "restarts", res->restarts, err)) == EV_OK &&
        (!a->s->cfg.ga.restart_stall ||
         (st = run_file_attr_u64(rf, "ga", "searches_best", res->searches_best, err)) == EV_OK) &&
        (st = run_file_attr_f64(rf, "ga", "hit_rate", res->hit_rate, err)) == EV_OK &&
        (st = run_file_attr_u64(rf, "ga", "host_ga", (uint64_t)res->host_ga, err)) == EV_OK &&
        (st = run_file_attr_f64(rf, "ga", "seconds", res->seconds, err)) == EV_OK &&
        (st = run_file_attr_str(rf, "/", "status", res->reason == GA_STOP_INTERRUPTED ? "interrupted" : "complete",
                                err)) == EV_OK)
        st = run_file_flush(rf, err);
    return st;
}
