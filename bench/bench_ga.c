/* bench_ga: GA throughput and search quality on planted landscapes
 * (tests/support/planted.h). Not a test: it prints a table and, with
 * --csv FILE, appends one CSV row per measurement.
 *
 *   bench_ga [--backend cpu|cuda|auto|all] [--pop 1024,4096,...] [--trades 5000,...]
 *            [--gens N] [--objective total_return,sharpe,...] [--evaluator walk,slices,auto]
 *            [--csv FILE]
 *       time per generation and unique evaluations/s per (objective,
 *       population, trades), every backend side by side (all, the default:
 *       cpu, and cuda where a device exists; the CUDA backend runs the GA on
 *       the device); --evaluator opens each backend once per evaluator
 *       (EVOLVE_EVALUATOR: fitness/slices_eval.h on the CPU,
 *       kernels/slices_device.cu on the device) and runs them side by side
 *   bench_ga --quality [--seeds 20] [--lattice F,V,L] [--backend ...] [--csv FILE]
 *       success rate and unique evaluations to reach the grid optimum over
 *       seeds, against random search with the same budget per seed */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "runs/backend_registry.h"
#include "common/platform.h"
#include "fitness/slices_eval.h"
#include "fitness/tables.h"
#include "ga/dedup_cache.h"
#include "ga/ga_run.h"
#include "ga/grid.h"
#include "operators/genome.h"
#include "tests/support/fitness_harness.h"
#include "tests/support/ga_quality.h"
#include "tests/support/planted.h"

#define MAX_LIST 16
#define MAX_EVALUATORS 3
#define MAX_RUNS (2 * MAX_EVALUATORS)

typedef struct {
    const char *backend, *csv;
    int quality;
    uint32_t pops[MAX_LIST], n_pops;
    uint32_t trades[MAX_LIST], n_trades;
    uint32_t gens, seeds;
    int32_t objectives[OBJ_COUNT], n_objectives;
    char evaluators[MAX_EVALUATORS + 1][16];
    uint32_t n_evaluators;
    int32_t filters;
    uint32_t values, levels;
} bench_opts_t;

typedef struct {
    planted_opts_t po;
    dataset_t ds;
    lattice_t lat;
    fit_problem_t p;
    tables_host_t t;
    uint32_t n_backends;
    const backend_ops_t *ops[MAX_RUNS]; /* cpu first (each once per evaluator) */
    backend_t *b[MAX_RUNS];
    char label[MAX_RUNS][32];
    uint16_t optimum[EV_MAX_PARAMS];
} bench_problem_t;

static void die(const char *what, const ev_error *err)
{
    fprintf(stderr, "bench_ga: %s: %s\n", what, err ? err->msg : "");
    exit(1);
}

static uint32_t parse_list(const char *s, uint32_t *out)
{
    uint32_t n = 0;
    while (*s && n < MAX_LIST) {
        char *end;
        out[n++] = (uint32_t)strtoul(s, &end, 10);
        s = *end == ',' ? end + 1 : end;
        if (end == s && *s)
            break;
    }
    return n;
}

static void usage_die(const char *what, const char *v)
{
    fprintf(stderr, "bench_ga: %s \"%s\" is not one\n", what, v);
    exit(2);
}

/* Item i of comma list v into buf (empty past the end). */
static const char *list_item(const char *v, int i, char *buf, size_t n)
{
    for (; i > 0 && v; i--)
        v = (v = strchr(v, ',')) ? v + 1 : NULL;
    snprintf(buf, n, "%.*s", v ? (int)strcspn(v, ",") : 0, v ? v : "");
    return buf;
}

/* A comma list of objective names. */
static void parse_objectives(const char *v, bench_opts_t *o)
{
    char buf[64];
    o->n_objectives = 0;
    for (int i = 0; *list_item(v, i, buf, sizeof buf) && o->n_objectives < OBJ_COUNT; i++) {
        int k = objective_from_name(buf);
        if (k < 0)
            usage_die("--objective: an objective name such as total_return or sharpe;", buf);
        o->objectives[o->n_objectives++] = k;
    }
}

/* A comma list of walk, slices, auto. */
static void parse_evaluators(const char *v, bench_opts_t *o)
{
    o->n_evaluators = 0;
    for (int i = 0;
         *list_item(v, i, o->evaluators[o->n_evaluators], sizeof o->evaluators[0]) && o->n_evaluators < MAX_EVALUATORS;
         i++) {
        slices_mode m;
        if (!slices_mode_parse(o->evaluators[o->n_evaluators], &m))
            usage_die("--evaluator: walk, slices or auto;", o->evaluators[o->n_evaluators]);
        o->n_evaluators++;
    }
}

static void parse_args(int argc, char **argv, bench_opts_t *o)
{
    memset(o, 0, sizeof *o);
    o->backend = "all";
    o->n_pops = parse_list("1024,4096,16384,65536", o->pops);
    o->n_trades = parse_list("5000,20000,50000", o->trades);
    o->gens = 4;
    o->seeds = 20;
    o->filters = 5;
    o->values = 10;
    o->levels = 6;
    o->objectives[0] = OBJ_TOTAL_RETURN;
    o->n_objectives = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--quality"))
            o->quality = 1;
        else if (!strcmp(a, "--backend") && v && ++i)
            o->backend = v;
        else if (!strcmp(a, "--csv") && v && ++i)
            o->csv = v;
        else if (!strcmp(a, "--pop") && v && ++i)
            o->n_pops = parse_list(v, o->pops);
        else if (!strcmp(a, "--trades") && v && ++i)
            o->n_trades = parse_list(v, o->trades);
        else if (!strcmp(a, "--gens") && v && ++i)
            o->gens = (uint32_t)atoi(v);
        else if (!strcmp(a, "--seeds") && v && ++i)
            o->seeds = (uint32_t)atoi(v);
        else if (!strcmp(a, "--objective") && v && ++i)
            parse_objectives(v, o);
        else if (!strcmp(a, "--evaluator") && v && ++i)
            parse_evaluators(v, o);
        else if (!strcmp(a, "--lattice") && v && ++i)
            sscanf(v, "%d,%u,%u", &o->filters, &o->values, &o->levels);
        else {
            fprintf(stderr,
                    "usage: bench_ga [--quality] [--backend cpu|cuda|auto|all] [--pop LIST] [--trades LIST]\n"
                    "                [--gens N] [--seeds N] [--lattice FILTERS,VALUES,LEVELS] [--csv FILE]\n"
                    "                [--objective total_return,sharpe,...] [--evaluator walk,slices,auto]\n");
            exit(2);
        }
    }
}

/* The backends to measure: "all" is cpu and, where a device exists, cuda;
 * each backend once per --evaluator. */
static void find_backends(bench_problem_t *bp, const bench_opts_t *o)
{
    ev_error err;
    const backend_ops_t *ops[2];
    uint32_t n = 0;
    bp->n_backends = 0;
    if (strcmp(o->backend, "all") != 0) {
        if (backend_find(o->backend, &ops[0], &err))
            die("backend", &err);
        n = 1;
    } else {
        ops[n++] = &backend_cpu_ops;
        if (backend_find("cuda", &ops[n], &err) == EV_OK)
            n++;
    }
    for (uint32_t k = 0; k < n; k++) {
        const int per_evaluator = o->n_evaluators > 0;
        for (uint32_t e = 0; e < (per_evaluator ? o->n_evaluators : 1); e++) {
            bp->ops[bp->n_backends] = ops[k];
            snprintf(bp->label[bp->n_backends], sizeof bp->label[0], "%s%s%s", ops[k]->name, per_evaluator ? "/" : "",
                     per_evaluator ? o->evaluators[e] : "");
            bp->n_backends++;
        }
    }
}

/* Opens run k: both backends read their evaluator from the environment. */
static void open_run(bench_problem_t *bp, uint32_t k)
{
    ev_error err;
    const char *slash = strchr(bp->label[k], '/');
    if (slash)
        plat_setenv(SLICES_MODE_ENV, slash + 1);
    if (bp->ops[k]->open(&bp->b[k], &bp->p, &bp->t, &err))
        die("setup", &err);
}

/* A planted problem with about `trades` trades (0: the default counts). */
static void problem_open(bench_problem_t *bp, const bench_opts_t *o, uint32_t trades, int32_t objective)
{
    objective_cfg_t obj;
    ev_error err;
    memset(bp, 0, sizeof *bp);
    planted_defaults(&bp->po);
    bp->po.n_filters = o->filters;
    bp->po.n_values = o->values;
    bp->po.n_targets = bp->po.n_stops = o->levels;
    if (trades) {
        double f = (double)trades / (double)planted_trades(&bp->po);
        bp->po.good = (int64_t)(bp->po.good * f);
        bp->po.dip = (int64_t)(bp->po.dip * f);
        bp->po.crash = (int64_t)(bp->po.crash * f);
        bp->po.bad_per_filter = (int64_t)(bp->po.bad_per_filter * f);
        bp->po.noise = (int64_t)trades - planted_trades(&bp->po) + bp->po.noise;
    }
    planted_build(&bp->po, &bp->ds, &bp->lat, bp->optimum);
    harness_objective(&obj, (objective_kind)objective);
    find_backends(bp, o);
    if (problem_init(&bp->p, &bp->ds, &bp->lat, &obj, &err) || tables_build(&bp->t, &bp->p, &err))
        die("setup", &err);
    for (uint32_t k = 0; k < bp->n_backends; k++)
        open_run(bp, k);
}

static void problem_close(bench_problem_t *bp)
{
    for (uint32_t k = 0; k < bp->n_backends; k++)
        bp->ops[k]->close(bp->b[k]);
    tables_free(&bp->t);
    problem_free(&bp->p);
    lattice_free(&bp->lat);
    dataset_free(&bp->ds);
}

static FILE *csv_open(const char *path, const char *header)
{
    FILE *f;
    long size;
    if (!path)
        return NULL;
    if (!(f = fopen(path, "a")))
        die(path, NULL);
    fseek(f, 0, SEEK_END);
    size = ftell(f);
    if (size == 0)
        fprintf(f, "%s\n", header);
    return f;
}

/* ---- throughput ---- */

/* One GA run of population pop on run k; returns its CPU seconds (all
 * threads, steadier than wall time on a shared machine) per unique
 * evaluation, and compares them with the first run's (first). */
static double speed_row(bench_problem_t *bp, uint32_t k, uint32_t pop, const bench_opts_t *o, const char *device,
                        int32_t objective, double first, FILE *csv)
{
    ga_settings_t s;
    ga_run_opts_t ro;
    ga_result_t res;
    ev_error err;
    double per_gen, rate, cpu;
    clock_t c0;
    ga_settings_default(&s);
    s.population = pop;
    s.islands = pop >= 4096 ? 4 : 1;
    s.generations = o->gens;
    s.ls_every = 0; /* a generation's evaluation and breeding: no climbs between them (they ran on the host) */
    memset(&ro, 0, sizeof ro);
    ro.seed = 1;
    ro.top = 10;
    c0 = clock();
    if (ga_run(bp->ops[k], bp->b[k], &bp->p, &s, &ro, &res, &err))
        die("ga_run", &err);
    cpu = (double)(clock() - c0) / CLOCKS_PER_SEC / (double)(res.evaluations ? res.evaluations : 1);
    per_gen = res.seconds / res.generations;
    rate = (double)res.evaluations / res.seconds;
    printf("%-14s %-14s %8u %8lld %12.4f %14.4g %16.4g %12.2f %8.2fx\n", bp->label[k],
           objective_name((objective_kind)objective), s.population, (long long)bp->ds.n_trades, per_gen, rate,
           rate * (double)bp->ds.n_trades, cpu * 1e6, cpu > 0.0 && first > 0.0 ? first / cpu : 1.0);
    fflush(stdout);
    if (csv)
        fprintf(csv, "%s,\"%s\",%u,%lld,%u,%.6f,%llu,%.6g,%.6g,%d,%s,%.6g\n", bp->label[k], device, s.population,
                (long long)bp->ds.n_trades, res.generations, per_gen, (unsigned long long)res.evaluations, rate,
                rate * (double)bp->ds.n_trades, res.host_ga, objective_name((objective_kind)objective), cpu);
    ga_result_free(&res);
    return cpu;
}

static void bench_speed(const bench_opts_t *o)
{
    FILE *csv = csv_open(o->csv,
                         "backend,device,population,trades,generations,sec_per_gen,unique_evals,evals_per_s,"
                         "genome_trades_per_s,host_ga,objective,cpu_sec_per_eval");
    slices_kernel kern;
    ev_error err;
    if (slices_kernel_from_env(&kern, &err) != EV_OK)
        die("kernel", &err);
    if (o->n_evaluators)
        printf("CPU bit-sliced popcount kernel: %s\n", slices_kernel_name(kern));
    printf("%-14s %-14s %8s %8s %12s %14s %16s %12s %9s\n", "backend", "objective", "pop", "trades", "s/gen",
           "unique eval/s", "genome-trades/s", "CPU us/eval", "vs first");
    for (int32_t oi = 0; oi < o->n_objectives; oi++)
        for (uint32_t ti = 0; ti < o->n_trades; ti++) {
            bench_problem_t bp;
            char device[MAX_RUNS][256];
            problem_open(&bp, o, o->trades[ti], o->objectives[oi]);
            for (uint32_t k = 0; k < bp.n_backends; k++)
                bp.ops[k]->describe(bp.b[k], device[k], sizeof device[k]);
            for (uint32_t pi = 0; pi < o->n_pops; pi++) {
                double first = 0.0;
                for (uint32_t k = 0; k < bp.n_backends; k++) {
                    double cpu = speed_row(&bp, k, o->pops[pi], o, device[k], o->objectives[oi], first, csv);
                    first = k == 0 ? cpu : first;
                }
            }
            problem_close(&bp);
        }
    if (csv)
        fclose(csv);
}

/* ---- search quality (the protocol of tests/support/ga_quality.h) ---- */

/* Uniform random genomes (Philox stream RNG_STREAM_RANDOM of seed, batch b as
 * the generation), distinct ones evaluated until `budget`; returns the
 * evaluations made when the target was first reached, 0 if never. */
static uint64_t random_search(bench_problem_t *bp, const backend_ops_t *ops, backend_t *be, uint64_t seed,
                              uint64_t budget, uint64_t target_key)
{
    const uint32_t batch = 1024;
    int32_t ng = bp->p.shape.n_params, words = genome_index_words(bp->p.shape.n_values, ng);
    uint16_t *genes = (uint16_t *)malloc((size_t)batch * (size_t)ng * sizeof *genes);
    eval_result_t *res = (eval_result_t *)malloc(batch * sizeof *res);
    dedup_cache_t seen;
    ev_error err;
    uint64_t done = 0, hit = 0;
    if (!genes || !res || dedup_init(&seen, words, budget + batch, budget, &err))
        die("random search", NULL);
    for (uint32_t b = 0; done < budget && !hit; b++) {
        uint32_t n = 0;
        for (uint32_t i = 0; i < batch && done + n < budget; i++) {
            uint16_t g[GA_MAX_GENES];
            uint64_t ix[GA_INDEX_WORDS_MAX];
            eval_result_t none;
            memset(&none, 0, sizeof none);
            genome_random(rng_key(seed), b, i, ng, bp->p.shape.n_values, g);
            genome_index(bp->p.shape.n_values, ng, g, words, ix);
            if (dedup_find(&seen, ix) || dedup_insert(&seen, ix, none, &err))
                continue;
            genome_scatter(genes, batch, n++, ng, g);
        }
        /* genes are SoA with stride `batch`: evaluate compacts them */
        for (int32_t k = 1; k < ng; k++)
            memmove(genes + (size_t)k * n, genes + (size_t)k * batch, n * sizeof *genes);
        if (n && ops->evaluate(be, genes, n, res, &err))
            die("evaluate", &err);
        for (uint32_t i = 0; i < n && !hit; i++)
            if (rank_key(res[i]) == target_key)
                hit = done + i + 1;
        done += n;
    }
    dedup_free(&seen);
    free(genes);
    free(res);
    return hit;
}

static void bench_quality(const bench_opts_t *o)
{
    bench_problem_t bp;
    topk_t grid;
    grid_opts_t go;
    grid_stats_t gs;
    ev_error err;
    ga_settings_t s;
    uint32_t ga_wins = 0, rs_wins = 0;
    double ga_hit_sum = 0, ga_eval_sum = 0, rs_hit_sum = 0;
    FILE *csv = csv_open(o->csv,
                         "backend,lattice,trades,seed,ga_hit,ga_evals_to_hit,ga_evals_total,random_hit,"
                         "random_evals_to_hit");
    const backend_ops_t *ops;
    backend_t *b;
    problem_open(&bp, o, 0, o->objectives[0]);
    /* results are the same on every backend: the last (cuda where it exists) is the fastest */
    ops = bp.ops[bp.n_backends - 1];
    b = bp.b[bp.n_backends - 1];
    memset(&go, 0, sizeof go);
    if (topk_init(&grid, 1, &err) || grid_run(ops, b, &bp.p, &go, &grid, &gs, &err))
        die("grid", &err);
    printf("lattice %llu points, %lld trades; grid optimum %.6g in %.2fs\n", (unsigned long long)bp.lat.size,
           (long long)bp.ds.n_trades, grid.e[0].r.fitness, gs.seconds);
    quality_settings(&s);
    s.max_evaluations = bp.lat.size / 100 - s.population;
    printf("%5s %10s %14s %12s %10s %14s\n", "seed", "GA", "evals to hit", "evals total", "random", "evals to hit");
    for (uint32_t seed = 1; seed <= o->seeds; seed++) {
        ga_observer_t obs;
        ga_run_opts_t ro;
        ga_result_t res;
        quality_watch_t w;
        uint64_t rs;
        quality_watch(&obs, &w, grid.e[0].key);
        memset(&ro, 0, sizeof ro);
        ro.seed = seed;
        ro.top = 1;
        ro.observer = &obs;
        if (ga_run(ops, b, &bp.p, &s, &ro, &res, &err))
            die("ga_run", &err);
        rs = random_search(&bp, ops, b, seed, res.evaluations, grid.e[0].key);
        ga_wins += w.evals_at_hit > 0;
        rs_wins += rs > 0;
        ga_hit_sum += (double)w.evals_at_hit;
        rs_hit_sum += (double)rs;
        ga_eval_sum += (double)res.evaluations;
        printf("%5u %10s %14llu %12llu %10s %14llu\n", seed, w.evals_at_hit ? "optimum" : "missed",
               (unsigned long long)w.evals_at_hit, (unsigned long long)res.evaluations, rs ? "optimum" : "missed",
               (unsigned long long)rs);
        fflush(stdout);
        if (csv)
            fprintf(csv, "%s,%llu,%lld,%u,%d,%llu,%llu,%d,%llu\n", ops->name, (unsigned long long)bp.lat.size,
                    (long long)bp.ds.n_trades, seed, w.evals_at_hit > 0, (unsigned long long)w.evals_at_hit,
                    (unsigned long long)res.evaluations, rs > 0, (unsigned long long)rs);
        ga_result_free(&res);
    }
    printf(
        "GA:     %u/%u reached the optimum; %.0f unique evaluations to reach it (%.4f%% of the lattice), "
        "%.0f per run (%.4f%%)\n",
        ga_wins, o->seeds, ga_wins ? ga_hit_sum / ga_wins : 0.0,
        ga_wins ? 100.0 * ga_hit_sum / ga_wins / (double)bp.lat.size : 0.0, ga_eval_sum / o->seeds,
        100.0 * ga_eval_sum / o->seeds / (double)bp.lat.size);
    printf(
        "random: %u/%u reached it with the GA's budget per seed (%.0f evaluations to reach it; a unique "
        "optimum is found with probability budget / lattice = %.4f%% per seed)\n",
        rs_wins, o->seeds, rs_wins ? rs_hit_sum / rs_wins : 0.0, 100.0 * ga_eval_sum / o->seeds / (double)bp.lat.size);
    if (csv)
        fclose(csv);
    topk_free(&grid);
    problem_close(&bp);
}

int main(int argc, char **argv)
{
    bench_opts_t o;
    parse_args(argc, argv, &o);
    if (o.quality)
        bench_quality(&o);
    else
        bench_speed(&o);
    return 0;
}
