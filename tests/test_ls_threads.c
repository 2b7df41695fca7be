/* Local search's climbs in parallel threads (ga/ga_run.c climb_all, docs/ga.md
 * "Local search", Threads): on random lattices with SPEC sec. 4.1's exits
 * (`off` among their values) and every objective, a GA run with local
 * search (relaxed kicks among its climbs, half the problems with a
 * min_trades that binds, half of those with relaxed random starts too) at 1
 * thread and at 2, 4 and 8 threads is the same run: every generation's
 * population and results (trace), the hall of fame bit for bit,
 * evaluations, ls_evaluations, ls_improved, generations. Threads sharing a
 * climb's sweep state (its exit columns and kept-trade rows) would race on
 * it and change the climbs' results. Without OpenMP every run is the
 * 1-thread run. */
#include <stdio.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "ga/ga_run.h"
#include "tests/check.h"
#include "tests/support/ga_fixture.h"
#include "tests/support/random_problem.h"

typedef struct {
    uint64_t runs, ls_evaluations, ls_improved, differ;
} tally_t;

static void set_threads(int n)
{
#ifdef _OPENMP
    omp_set_num_threads(n);
#else
    (void)n;
#endif
}

/* One run of settings s at `threads` threads. */
static void run_at(const cpu_problem_t *cp, const ga_settings_t *s, int threads, trace_t *tr, ga_result_t *res)
{
    ga_observer_t obs;
    ga_run_opts_t o;
    ev_error err;
    trace_observer(&obs, tr);
    memset(&o, 0, sizeof o);
    o.seed = 11;
    o.top = 8;
    o.tables = &cp->t.view;
    o.observer = &obs;
    set_threads(threads);
    if (ga_run(&backend_cpu_ops, cp->b, &cp->p, s, &o, res, &err) != EV_OK) {
        fprintf(stderr, "ga_run at %d threads: %s\n", threads, err.msg);
        CHECK(0);
        memset(res, 0, sizeof *res);
    }
}

static int same_run(const trace_t *ta, const ga_result_t *a, const trace_t *tb, const ga_result_t *b)
{
    return ta->n == tb->n && memcmp(ta->hash, tb->hash, ta->n * sizeof ta->hash[0]) == 0 &&
           fixture_same_top(&a->hof, &b->hof) && a->evaluations == b->evaluations &&
           a->ls_evaluations == b->ls_evaluations && a->ls_improved == b->ls_improved &&
           a->generations == b->generations && a->reason == b->reason;
}

static void check_problem(random_problem_t *rp, const ga_settings_t *s, tally_t *c)
{
    static const int threads[] = {2, 4, 8};
    cpu_problem_t cp;
    trace_t one, many;
    ga_result_t r1, rn;
    if (!cpu_problem_open(&cp, &rp->ds, &rp->lat, &rp->obj)) {
        CHECK(0);
        return;
    }
    run_at(&cp, s, 1, &one, &r1);
    c->runs++;
    c->ls_evaluations += r1.ls_evaluations;
    c->ls_improved += r1.ls_improved;
    for (size_t i = 0; i < sizeof threads / sizeof threads[0]; i++) {
        run_at(&cp, s, threads[i], &many, &rn);
        if (!same_run(&one, &r1, &many, &rn)) {
            fprintf(stderr, "run %llu at %d threads: ls_evaluations %llu (1 thread: %llu), ls_improved %llu (%llu)\n",
                    (unsigned long long)c->runs, threads[i], (unsigned long long)rn.ls_evaluations,
                    (unsigned long long)r1.ls_evaluations, (unsigned long long)rn.ls_improved,
                    (unsigned long long)r1.ls_improved);
            c->differ++;
        }
        ga_result_free(&rn);
    }
    ga_result_free(&r1);
    cpu_problem_close(&cp);
}

int main(void)
{
    /* trades enough that climbs overlap in time on 2 cores */
    const random_dataset_opts_t big = {3000, 300, 300};
    int threads = 1;
    uint64_t rng = 61;
    tally_t c;
    ga_settings_t s;
#ifdef _OPENMP
    threads = omp_get_max_threads();
#endif
    /* 12 generations, every one of them climbing its 2 best new genomes and
     * 8 random ones at depth 2, exit pairs too */
    fixture_settings(&s);
    s.ls_every = 1;
    s.ls_members = 2;
    s.ls_random = 8;
    s.ls_depth = 2;
    s.ls_exit_pairs = 1;
    s.ls_kick_relax = 80; /* the default 4 kicks climbed relaxed first where min_trades binds (odd rounds) */
    s.generations = 12;
    memset(&c, 0, sizeof c);
    for (int round_no = 0; round_no < 10; round_no++) {
        random_problem_t rp;
        random_dataset(&rp.ds, &rng, &big);
        random_lattice_off(&rp.lat, &rp.ds, &rng);
        random_objective(&rp.obj, &rng);
        if (round_no % 2)
            rp.obj.min_trades = rp.ds.n_trades / 4;
        s.ls_random_relax = round_no % 4 == 3; /* and in half of those rounds the 4 random starts too */
        check_problem(&rp, &s, &c);
        random_problem_free(&rp);
    }
    set_threads(threads);
    printf(
        "%llu runs at 1, 2, 4 and 8 threads: %llu differ; at 1 thread %llu evaluations' worth of sweeps, %llu climbed "
        "genomes put back\n",
        (unsigned long long)c.runs, (unsigned long long)c.differ, (unsigned long long)c.ls_evaluations,
        (unsigned long long)c.ls_improved);
    CHECK_EQ_I64(10, c.runs);
    CHECK_EQ_I64(0, c.differ);
    CHECK(c.ls_improved >= 10); /* climbs that moved: the runs depend on them */
    return check_exit();
}
