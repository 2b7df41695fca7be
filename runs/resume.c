#include "runs/resume.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "operators/dedup_table.h"
#include "operators/genome.h"
#include "runs/run_identity.h"

/* Without a checkpoint: the identity in the run file's provenance (strings
 * are the caller's to free). EV_OK only when all of it could be read. */
static ev_status identity_from_run_file(run_file_t *rf, run_identity_t *id, char **texts, ev_error *err)
{
    ev_status st;
    if ((st = run_file_read_str(rf, "provenance", "config_text", 0, &texts[0], err)) != EV_OK ||
        (st = run_file_read_str(rf, "provenance", "tool_version", 0, &texts[1], err)) != EV_OK ||
        (st = run_file_read_str(rf, "provenance", "backend", 0, &texts[2], err)) != EV_OK ||
        (st = run_file_read_u64(rf, "provenance", "seed", &id->seed, err)) != EV_OK ||
        (st = run_file_read_u64(rf, "provenance", "top", &id->top, err)) != EV_OK ||
        (st = run_file_read_u64(rf, "provenance/dataset", "content_hash", &id->dataset_hash, err)) != EV_OK)
        return st;
    id->config_text = texts[0];
    id->tool_version = texts[1];
    id->backend = texts[2];
    return EV_OK;
}

/* The old run file's sessions, and (without a checkpoint) its identity. */
static ev_status check_run_file(run_resume_t *r, const run_paths_t *p, const session_t *s, const run_identity_t *now,
                                int need_identity, ev_error *err)
{
    run_file_t old;
    run_identity_t was;
    char *texts[3] = {NULL, NULL, NULL};
    ev_error ignored;
    ev_status st = EV_OK;
    if ((st = run_file_open(&old, p->partial_path, &ignored)) != EV_OK) {
        if (st == EV_EBUSY) /* in use, not damaged: never start over on it */
            return ev_fail(err, st, "%s", ignored.msg);
        return EV_OK; /* unreadable: nothing to check it against; the run starts over */
    }
    if (run_file_read_sessions(&old, &r->sessions, &r->n_sessions, &ignored) != EV_OK)
        r->n_sessions = 0;
    if (need_identity && identity_from_run_file(&old, &was, texts, &ignored) == EV_OK)
        st = run_identity_compare(&was, now, p->partial_path, p->ckpt_path, s, err);
    for (int i = 0; i < 3; i++)
        free(texts[i]);
    run_file_close(&old, NULL);
    return st;
}

/* A damaged or edited checkpoint whose indices would reach past the
 * population or the lattice is not resumed from: the run starts over. */
static int state_fits(run_resume_t *r, const session_t *s, const run_paths_t *p)
{
    ga_snapshot_t run; /* this run's shape */
    char what[512];
    memset(&run, 0, sizeof run);
    run.population = s->cfg.ga.population;
    run.islands = s->cfg.ga.islands;
    run.n_genes = (uint32_t)s->prob.shape.n_params;
    run.hof_k = session_hof_capacity(s);
    if (ga_snapshot_fits(&r->ck.ga, &run, s->prob.shape.n_values, what, sizeof what))
        return 1;
    snprintf(r->why, sizeof r->why, "%.300s does not fit this run (%.600s); the run starts again from generation 0",
             p->ckpt_path, what);
    return 0;
}

ev_status run_resume_check(run_resume_t *r, const run_paths_t *p, session_t *s, const run_reporter_t *rep,
                           ev_error *err)
{
    run_identity_t was, now;
    ev_error why;
    ev_status st;
    memset(r, 0, sizeof *r);
    run_identity_of(s, &now);
    if ((st = checkpoint_read(p->ckpt_path, &r->ck, &why)) != EV_OK) {
        if (st == EV_EBUSY)
            return ev_fail(err, st, "%s", why.msg);
        snprintf(r->why, sizeof r->why, "%.600s; the run starts again from generation 0", why.msg);
        return check_run_file(r, p, s, &now, 1, err);
    }
    was = r->ck.id;
    if (s->cfg.seed_random && was.seed != now.seed) {
        /* "seed: random" means the seed drawn when the run started */
        run_warning(rep, "evolve: seed: random: continuing with the run's seed %" PRIu64 "\n", was.seed);
        s->cfg.seed = now.seed = was.seed;
    }
    if ((st = run_identity_compare(&was, &now, p->partial_path, p->ckpt_path, s, err)) != EV_OK)
        return st;
    if ((st = check_run_file(r, p, s, &now, 0, err)) != EV_OK)
        return st;
    r->have_state = r->ck.ga.generation > 0;
    if (!r->have_state)
        snprintf(r->why, sizeof r->why, "%.600s: no generation was complete; the run starts again from generation 0",
                 p->partial_path);
    else if (!state_fits(r, s, p))
        r->have_state = 0;
    return EV_OK;
}

/* Marks the state unusable and says why; the caller starts over. */
static ev_status start_over(run_resume_t *r, const run_paths_t *p, const char *what)
{
    r->have_state = 0;
    snprintf(
        r->why, sizeof r->why,
        "%.300s does not match its checkpoint (%.400s): the run starts again from generation 0, which gives the same "
        "result",
        p->partial_path, what);
    return EV_OK;
}

/* Inserts generation rows' genomes new to the cache, offering each to the
 * hall of fame as the GA did when it first evaluated them. */
static ev_status take_genomes(run_resume_t *r, const ga_archive_t *a, const session_t *s, int32_t words, ev_error *err)
{
    const run_rows_t *rows = &a->rows;
    uint32_t ng = a->dims.n_genes;
    ev_status st = EV_OK;
    for (uint32_t i = 0; i < a->dims.population && st == EV_OK; i++) {
        const uint16_t *g = (const uint16_t *)rows->col[COL_GENES] + (size_t)i * ng;
        uint64_t index[GA_INDEX_WORDS_MAX];
        eval_result_t res;
        ga_hof_entry_t e;
        genome_index(s->prob.shape.n_values, (int32_t)ng, g, words, index);
        if (dedup_find(&r->cache, index))
            continue;
        if (r->cache.count >= r->cache.capacity)
            return ev_fail(err, EV_EDATA, "the run file holds more genomes than ga.cache_max_mb allows");
        memset(&res, 0, sizeof res);
        res.fitness = ((const double *)rows->col[COL_FITNESS_RAW])[i];
        res.trades = ((const int64_t *)rows->col[COL_TRADES])[i];
        res.feasible = ((const uint8_t *)rows->col[COL_FEASIBLE])[i];
        if ((st = dedup_insert(&r->cache, index, res, err)) == EV_OK) {
            ga_entry_make(&e, g, (int32_t)ng, index, words, res);
            topk_insert(&r->hof, &e);
        }
    }
    return st;
}

static int same_entry(const ga_hof_entry_t *a, const ga_hof_entry_t *b)
{
    return a->key == b->key && a->index == b->index && !memcmp(&a->r.fitness, &b->r.fitness, sizeof(double)) &&
           a->r.trades == b->r.trades && a->r.feasible == b->r.feasible && !memcmp(a->genes, b->genes, sizeof a->genes);
}

/* Copies the verified generations from the old file (open) into a's file. */
static ev_status copy_rows(run_resume_t *r, const run_paths_t *p, run_file_t *old, const session_t *s, ga_archive_t *a,
                           ev_error *err)
{
    const checkpoint_t *ck = &r->ck;
    int32_t words = genome_index_words(s->prob.shape.n_values, s->prob.shape.n_params);
    char what[256];
    ev_error rerr;
    ev_status st;
    if (memcmp(&old->dims, &a->dims, sizeof a->dims) != 0 || old->generations < ck->ga.generation) {
        snprintf(what, sizeof what, "it holds %u generation(s) of another shape or fewer than the %u expected",
                 old->generations, ck->ga.generation);
        return start_over(r, p, what);
    }
    if ((st = dedup_init(&r->cache, words, ga_cache_capacity(s->cfg.ga.cache_max_mb, words), a->dims.population,
                         err)) != EV_OK ||
        (st = topk_init(&r->hof, session_hof_capacity(s), err)) != EV_OK)
        return st;
    for (uint32_t g = 0; g < ck->ga.generation; g++) {
        if (run_file_read_rows(old, g, &a->rows, &rerr) != EV_OK)
            return start_over(r, p, rerr.msg);
        if (run_rows_hash(&a->rows, &a->dims) != ck->gen_hash[g]) {
            snprintf(what, sizeof what, "generation %u differs from what was written", g);
            return start_over(r, p, what);
        }
        if ((st = run_file_append(a->rf, g, &a->rows, err)) != EV_OK ||
            (st = take_genomes(r, a, s, words, err)) != EV_OK)
            return st;
    }
    if (r->cache.count != ck->ga.evaluations || r->hof.n != ck->ga.hof_n)
        return start_over(r, p, "its genomes do not add up to the checkpoint's evaluations and hall of fame");
    for (uint32_t j = 0; j < r->hof.n; j++)
        if (!same_entry(&r->hof.e[j], &ck->ga.hof[j]))
            return start_over(r, p, "its hall of fame differs");
    return ga_archive_adopt_hashes(a, ck->gen_hash, ck->ga.generation, err);
}

static void fill_resume(run_resume_t *r)
{
    r->rs.at = r->ck.ga;
    r->rs.at.hof = r->hof.e; /* rebuilt from the run file, equal to the checkpoint's */
    r->rs.cache_count = r->cache.count;
    r->rs.cache_index = r->cache_index;
    r->rs.cache_results = r->cache_results;
}

ev_status run_resume_copy(run_resume_t *r, const run_paths_t *p, const session_t *s, ga_archive_t *a, ev_error *err)
{
    run_file_t old;
    ev_error oerr;
    ev_status st;
    size_t n;
    if (run_file_open(&old, p->partial_path, &oerr) != EV_OK)
        return oerr.status == EV_EBUSY ? ev_fail(err, EV_EBUSY, "%s", oerr.msg) : start_over(r, p, oerr.msg);
    if (!old.has_ga) {
        run_file_close(&old, NULL);
        return start_over(r, p, "it has no /ga group");
    }
    st = copy_rows(r, p, &old, s, a, err);
    run_file_close(&old, NULL);
    if (st != EV_OK || !r->have_state)
        return st;
    n = (size_t)(r->cache.count ? r->cache.count : 1);
    r->cache_index = (uint64_t *)malloc(n * (size_t)r->cache.words * sizeof *r->cache_index);
    r->cache_results = (eval_result_t *)malloc(n * sizeof *r->cache_results);
    if (!r->cache_index || !r->cache_results)
        return ev_fail(err, EV_ENOMEM, "out of memory for the %llu cached genomes", (unsigned long long)r->cache.count);
    dedup_export(&r->cache, r->cache_index, r->cache_results);
    fill_resume(r);
    return EV_OK;
}

void run_resume_free(run_resume_t *r)
{
    checkpoint_free(&r->ck);
    run_file_free_strings(r->sessions, r->n_sessions);
    if (r->hof.e)
        topk_free(&r->hof);
    if (r->cache.keys)
        dedup_free(&r->cache);
    free(r->cache_index);
    free(r->cache_results);
    memset(r, 0, sizeof *r);
}
