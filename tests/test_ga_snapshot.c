/* The GA state's field table (operators/ga_snapshot.h) drives the
 * checkpoint's writer and reader and ga_snapshot_fits, so every field of the
 * table must come back from a checkpoint as it was written, whatever its
 * value, and every array or run-shape field must be refused by the check when
 * it no longer fits the run. A field added to ga_snapshot_t and its table is
 * covered here without touching this test. A write that fails leaves no
 * temporary file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archive/checkpoint.h"
#include "common/platform.h"
#include "tests/check.h"
#include "tests/fixture_files.h"

#define DIR "tmp_ga_snapshot"
#define PATH DIR "/run.h5.partial.ckpt"
#define TAKEN DIR "/taken.ckpt" /* a folder: no checkpoint can be renamed there */

static const uint32_t n_values[2] = {3, 2};

/* A valid state of generation 3: 4 individuals in 2 islands, 2 genes, top 3. */
typedef struct {
    uint16_t genes[8];
    int32_t parents[8];
    breed_island_t plans[2];
    ranked_genome_t hof[2];
    ga_snapshot_t s;
} state_t;

static void state_init(state_t *st)
{
    static const uint16_t genes[8] = {0, 1, 2, 0, 1, 0, 1, 1};
    static const int32_t parents[8] = {0, 1, 2, 3, -1, -1, 0, 2};
    memset(st, 0, sizeof *st);
    memcpy(st->genes, genes, sizeof genes);
    memcpy(st->parents, parents, sizeof parents);
    st->plans[0] = (breed_island_t){1, 0, 0, 1};
    st->plans[1] = (breed_island_t){1, 0, 0, 0};
    for (int j = 0; j < 2; j++) {
        st->hof[j].key = 100 - (uint64_t)j;
        st->hof[j].index = (uint64_t)j + 2;
        st->hof[j].r.fitness = 1.25 - j;
        st->hof[j].r.trades = 11 + j;
        st->hof[j].r.feasible = 1;
        st->hof[j].genes[0] = 1;
        st->hof[j].genes[1] = (uint16_t)j;
    }
    st->s.generation = 3;
    st->s.population = 4;
    st->s.n_genes = 2;
    st->s.islands = 2;
    st->s.last_improvement = 1;
    st->s.evaluations = 7;
    st->s.lookups = 12;
    st->s.hof_k = 3;
    st->s.elapsed_s = 1.0 / 3.0;
    st->s.genes = st->genes;
    st->s.parents = st->parents;
    st->s.plans = st->plans;
    st->s.hof_n = 2;
    st->s.hof = st->hof;
}

static void run_shape(ga_snapshot_t *run)
{
    memset(run, 0, sizeof *run);
    run->population = 4;
    run->islands = 2;
    run->n_genes = 2;
    run->hof_k = 3;
}

/* The checkpoint of state s with generation hashes hash[s->generation]. */
static checkpoint_t checkpoint_of(const ga_snapshot_t *s, const uint64_t *hash)
{
    checkpoint_t c;
    memset(&c, 0, sizeof c);
    c.id.config_text = "ga: {}";
    c.id.tool_version = "evolve test";
    c.id.backend = "cpu";
    c.ga = *s;
    c.gen_hash = hash;
    return c;
}

/* Writes s as a checkpoint and reads it back into *back; 0 on failure. */
static int round_trip(const ga_snapshot_t *s, checkpoint_t *back)
{
    checkpoint_t c;
    uint64_t *hash = (uint64_t *)calloc(s->generation + 1u, sizeof *hash); /* [generation] */
    ev_error err;
    int ok = 1;
    for (uint32_t g = 0; hash && g < s->generation; g++)
        hash[g] = 0x9E3779B97F4A7C15u * (g + 1u);
    c = checkpoint_of(s, hash);
    if (!hash || checkpoint_write(PATH, &c, &err) != EV_OK || checkpoint_read(PATH, back, &err) != EV_OK) {
        fprintf(stderr, "checkpoint round trip: %s\n", hash ? err.msg : "out of memory");
        check_failures++;
        ok = 0;
    } else {
        CHECK(!memcmp(back->gen_hash, hash, s->generation * sizeof *hash));
    }
    free(hash);
    return ok;
}

static size_t elem_size(ga_field_kind k)
{
    switch (k) {
    case GA_FIELD_GENES: return sizeof(uint16_t);
    case GA_FIELD_PARENTS: return sizeof(int32_t);
    case GA_FIELD_PLANS: return sizeof(uint32_t); /* dims [islands][4] */
    default: return sizeof(ranked_genome_t);
    }
}

/* Every field of back equals s's. */
static void same_state(const ga_snapshot_t *s, const ga_snapshot_t *back)
{
    for (size_t i = 0; i < ga_snapshot_n_fields; i++) {
        const ga_snapshot_field_t *f = &ga_snapshot_fields[i];
        uint64_t dims[2];
        size_t bytes;
        switch (f->kind) {
        case GA_FIELD_U32:
        case GA_FIELD_U64:
            if (ga_snapshot_u64(s, f) != ga_snapshot_u64(back, f)) {
                fprintf(stderr, "field %s: wrote %llu, read %llu\n", f->name, (unsigned long long)ga_snapshot_u64(s, f),
                        (unsigned long long)ga_snapshot_u64(back, f));
                check_failures++;
            }
            break;
        case GA_FIELD_F64: CHECK(ga_snapshot_f64(s, f) == ga_snapshot_f64(back, f)); break;
        default:
            ga_snapshot_dims(s, f, dims);
            bytes = (size_t)dims[0] * (dims[1] ? (size_t)dims[1] : 1) * elem_size(f->kind);
            if (memcmp(ga_snapshot_array(s, f), ga_snapshot_array(back, f), bytes) != 0) {
                fprintf(stderr, "field %s: read back differently\n", f->name);
                check_failures++;
            }
        }
    }
    CHECK_EQ_I64(s->hof_n, back->hof_n);
}

/* Each scalar field, changed alone, is read back changed. */
static void scalars_round_trip(void)
{
    for (size_t i = 0; i < ga_snapshot_n_fields; i++) {
        const ga_snapshot_field_t *f = &ga_snapshot_fields[i];
        state_t st;
        checkpoint_t back;
        void *at;
        state_init(&st);
        at = ga_snapshot_at(&st.s, f);
        if (f->kind == GA_FIELD_U32)
            *(uint32_t *)at += 13u; /* n_genes stays within EV_MAX_PARAMS */
        else if (f->kind == GA_FIELD_U64)
            *(uint64_t *)at += (uint64_t)1 << 40;
        else if (f->kind == GA_FIELD_F64)
            *(double *)at = -*(double *)at * 7.0;
        else
            continue;
        if (f->run_shape) { /* the arrays have no such sizes: write none (generation 0) */
            st.s.generation = 0;
            st.s.hof_n = 0;
        }
        if (round_trip(&st.s, &back)) {
            same_state(&st.s, &back.ga);
            checkpoint_free(&back);
        }
    }
}

/* The valid state fits; each run-shape field and each array, changed alone,
 * is refused (after a round trip through the file). */
static void check_refuses(void)
{
    ga_snapshot_t run;
    state_t st;
    checkpoint_t back;
    char why[512];
    run_shape(&run);
    state_init(&st);
    if (round_trip(&st.s, &back)) {
        same_state(&st.s, &back.ga);
        CHECK(ga_snapshot_fits(&back.ga, &run, n_values, why, sizeof why));
        back.ga.generation = 0;
        CHECK(!ga_snapshot_fits(&back.ga, &run, n_values, why, sizeof why));
        CHECK_CONTAINS(why, "generation 0");
        checkpoint_free(&back);
    }
    for (size_t i = 0; i < ga_snapshot_n_fields; i++) {
        const ga_snapshot_field_t *f = &ga_snapshot_fields[i];
        ga_snapshot_t bad;
        state_init(&st);
        bad = st.s;
        if (f->run_shape) {
            ga_snapshot_t want = run;
            *(uint32_t *)ga_snapshot_at(&want, f) += 1; /* the run differs instead: the arrays stay valid */
            CHECK(!ga_snapshot_fits(&bad, &want, n_values, why, sizeof why));
            CHECK_CONTAINS(why, f->name);
            continue;
        }
        switch (f->kind) {
        case GA_FIELD_GENES:
            st.genes[5] = 2; /* gene 1 of individual 1: the lattice has 2 values */
            break;
        case GA_FIELD_PARENTS: st.parents[3] = 4; break;
        case GA_FIELD_PLANS: st.plans[1].migrants = 2; break;
        case GA_FIELD_RANKED:
            bad.hof_k = 1; /* two entries in a hall of fame of one */
            run.hof_k = 1;
            break;
        default: continue;
        }
        if (round_trip(&bad, &back)) {
            CHECK(!ga_snapshot_fits(&back.ga, &run, n_values, why, sizeof why));
            printf("%-14s refused: %s\n", f->name, why);
            checkpoint_free(&back);
        }
        run_shape(&run);
    }
}

/* A write that fails once its temporary file exists (here: the final name
 * is taken by a folder, so the rename fails) leaves no temporary behind. */
static void failed_write_leaves_no_temp(void)
{
    static const uint64_t hash[3] = {1, 2, 3};
    state_t st;
    checkpoint_t c;
    ev_error err;
    char **names = NULL;
    size_t n = 0;
    int temps = 0;
    state_init(&st);
    c = checkpoint_of(&st.s, hash);
    if (plat_mkdirs(TAKEN "/inside", &err) != EV_OK) {
        fprintf(stderr, "%s\n", err.msg);
        check_failures++;
        return;
    }
    CHECK(checkpoint_write(TAKEN, &c, &err) != EV_OK);
    CHECK_CONTAINS(err.msg, "taken.ckpt");
    if (plat_list_dir(DIR, &names, &n, &err) != EV_OK) {
        fprintf(stderr, "%s\n", err.msg);
        check_failures++;
        return;
    }
    for (size_t i = 0; i < n; i++)
        if (!strncmp(names[i], "taken.ckpt.", strlen("taken.ckpt."))) {
            fprintf(stderr, "left behind: %s/%s\n", DIR, names[i]);
            temps++;
        }
    CHECK_EQ_I64(0, temps);
    plat_free_names(names, n);
}

int main(void)
{
    if (fx_clean_dir(DIR) != 0)
        return 1;
    scalars_round_trip();
    check_refuses();
    failed_write_leaves_no_temp();
    return check_exit();
}
