/* bench_grid: lattice points/s and trade evaluations/s of every grid
 * evaluator on every available backend, side by side in one run, against
 * the floor of each (bytes that must be moved, integer operations).
 *
 *   bench_grid [--synthetic TRADES,DAYS | --dataset X.h5] [--lattice seed,1e8,1.2e9]
 *              [--objective NAME] [--seconds S] [--top K] [--cpu-dominance-max N]
 *              [--seed N] [--csv FILE]
 *
 * reference: the SPEC loop on a sample of genomes spread over the lattice
 * (host only: it is the definition); tables-sample: the backend's evaluate on
 * the same genomes (the side-by-side ratio); tables: lattice batches from index 0, doubling (up to the
 * backend's batch) until a batch takes --seconds / 4 or --seconds are spent
 * (the last batch's rate is reported); dominance: from the first point until the lattice or --seconds
 * ends, with whole exit combinations per thread and, on the CPU, one at a
 * time (dom-block; lattices "+x" add SPEC sec. 4.1's exits, runs/synth_data.h).
 * "CPU pts/s": per second of the process's CPU time (all threads), steadier
 * on a shared machine. Not a test: numbers go to the terminal and, with --csv, are
 * appended to FILE (one line per measurement). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "runs/synth_data.h"
#include "build_info.h"
#include "runs/backend_registry.h"
#include "common/platform.h"
#include "fitness/dominance.h"
#include "fitness/eval_reference.h"
#include "fitness/problem.h"
#include "fitness/tables.h"
#include "ga/backend.h"
#ifdef EVOLVE_HAVE_CUDA
#include "kernels/cuda_api.h"
#endif
#include "io/dataset_h5.h"

typedef struct {
    const char *dataset; /* --dataset path, or NULL */
    int64_t trades;      /* --synthetic */
    int32_t days;
    char lattices[128];
    int objective;
    double seconds;
    uint32_t top;
    uint64_t cpu_dom_max; /* CPU dominance only up to this many points */
    uint64_t seed;
    const char *csv;
} opts_t;

/* One measurement and its floor. */
typedef struct {
    const char *backend, *lattice, *evaluator;
    uint64_t points;
    double seconds, cpu_seconds, trade_evals, floor_bytes, floor_ops; /* cpu_seconds: the process's (0: not taken) */
    double peak_bw, peak_ops;                                         /* 0: unknown */
} row_t;

static int usage(void)
{
    fprintf(stderr,
            "usage: bench_grid [--synthetic TRADES,DAYS | --dataset X.h5] [--lattice seed,1e8,1.2e9]\n"
            "                  [--objective NAME] [--seconds S] [--top K] [--cpu-dominance-max N]\n"
            "                  [--seed N] [--csv FILE]\n");
    return 2;
}

static int parse(opts_t *o, int argc, char **argv)
{
    memset(o, 0, sizeof *o);
    o->trades = 50000;
    o->days = 250;
    snprintf(o->lattices, sizeof o->lattices, "seed,1e8,1.2e9");
    o->seconds = 2.0;
    o->top = 10;
    o->cpu_dom_max = 20000000; /* the CPU needs minutes for the 1e8 lattice */
    o->seed = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v)
            return usage();
        i++;
        if (!strcmp(a, "--synthetic")) {
            long long t;
            int d;
            if (sscanf(v, "%lld,%d", &t, &d) != 2)
                return usage();
            o->trades = t;
            o->days = d;
        } else if (!strcmp(a, "--dataset")) {
            o->dataset = v;
        } else if (!strcmp(a, "--lattice")) {
            snprintf(o->lattices, sizeof o->lattices, "%s", v);
        } else if (!strcmp(a, "--objective")) {
            if ((o->objective = objective_from_name(v)) < 0)
                return usage();
        } else if (!strcmp(a, "--seconds")) {
            o->seconds = atof(v);
        } else if (!strcmp(a, "--top")) {
            o->top = (uint32_t)atoi(v);
        } else if (!strcmp(a, "--cpu-dominance-max")) {
            o->cpu_dom_max = strtoull(v, NULL, 10);
        } else if (!strcmp(a, "--seed")) {
            o->seed = strtoull(v, NULL, 10);
        } else if (!strcmp(a, "--csv")) {
            o->csv = v;
        } else {
            return usage();
        }
    }
    return 0;
}

static void print_row(const row_t *r, const opts_t *o, const char *dataset, const char *device)
{
    double pps = r->seconds > 0 ? (double)r->points / r->seconds : 0;
    double tes = r->seconds > 0 ? r->trade_evals / r->seconds : 0;
    char fb[32] = "-", fo[32] = "-";
    if (r->peak_bw > 0 && r->seconds > 0 && r->floor_bytes > 0)
        snprintf(fb, sizeof fb, "%.1f%%", 100.0 * r->floor_bytes / (r->seconds * r->peak_bw));
    if (r->peak_ops > 0 && r->seconds > 0)
        snprintf(fo, sizeof fo, "%.1f%%", 100.0 * r->floor_ops / (r->seconds * r->peak_ops));
    char b[32] = "-";
    if (r->floor_bytes > 0)
        snprintf(b, sizeof b, "%.3e", r->floor_bytes);
    char cps[32] = "-";
    if (r->cpu_seconds > 0)
        snprintf(cps, sizeof cps, "%.3e", (double)r->points / r->cpu_seconds);
    printf("%-5s %-8s %-13s %13llu %9.3f %11.3e %11s %11.3e %10s %10.3e %8s %8s\n", r->backend, r->lattice,
           r->evaluator, (unsigned long long)r->points, r->seconds, pps, cps, tes, b, r->floor_ops, fb, fo);
    if (o->csv) {
        FILE *f = fopen(o->csv, "a");
        if (!f) {
            fprintf(stderr, "bench_grid: cannot append to %s\n", o->csv);
            return;
        }
        if (fseek(f, 0, SEEK_END) == 0 && ftell(f) == 0)
            fprintf(f,
                    "git_rev,backend,device,dataset,lattice,objective,evaluator,points,seconds,points_per_s,"
                    "trade_evals_per_s,floor_bytes,floor_int_ops,peak_bytes_per_s,peak_int_ops_per_s,cpu_seconds\n");
        fprintf(f, "%s,%s,\"%s\",\"%s\",%s,%s,%s,%llu,%.6f,%.6e,%.6e,%.6e,%.6e,%.6e,%.6e,%.6f\n", EVOLVE_GIT_REV,
                r->backend, device, dataset, r->lattice, objective_name((objective_kind)o->objective), r->evaluator,
                (unsigned long long)r->points, r->seconds, pps, tes, r->floor_bytes, r->floor_ops, r->peak_bw,
                r->peak_ops, r->cpu_seconds);
        fclose(f);
    }
}

/* Bytes of one trade's table row as the tables evaluator reads it. */
static double row_bytes(const fit_tables_t *t)
{
    return 2.0 * t->n_filters + 4.0 * 2 + 8.0 + (t->fill_price ? 16.0 : 0.0) + (t->need_lf ? 24.0 : 0.0);
}

/* The i-th genome of the sample: spread over the lattice (every stride-th point). */
static uint64_t sample_index(const fit_problem_t *p, uint64_t i)
{
    return (i * (p->lat->size / 997 + 1)) % p->lat->size;
}

/* Genomes the reference evaluated, so the tables evaluator is timed on the same ones. */
static uint64_t reference_sample_n;

static void measure_reference(const fit_problem_t *p, const opts_t *o, row_t *r)
{
    uint64_t n = 0;
    double t0 = plat_now();
    r->evaluator = "reference";
    /* Rounds of 64 genomes over the same threads the CPU backend uses, so the
     * ratio to the tables evaluator is the algorithms', not the thread counts'. */
    while (plat_now() - t0 < o->seconds / 4 && n < p->lat->size) {
        uint64_t round = p->lat->size - n < 64 ? p->lat->size - n : 64;
#pragma omp parallel for schedule(dynamic, 1)
        for (int64_t i = 0; i < (int64_t)round; i++) {
            uint16_t g[EV_MAX_PARAMS];
            shape_decode(&p->shape, sample_index(p, n + (uint64_t)i), g);
            (void)reference_eval(p, g);
        }
        n += round;
    }
    reference_sample_n = n;
    r->seconds = plat_now() - t0;
    r->points = n;
    r->trade_evals = (double)n * (double)p->ds->n_trades;
    r->floor_ops = r->trade_evals * (p->shape.n_params + 4);
}

static ev_status measure_tables(const backend_ops_t *ops, backend_t *b, const fit_problem_t *p, const fit_tables_t *t,
                                const opts_t *o, row_t *r, ev_error *err)
{
    topk_t top;
    uint64_t first = 0, count = 1024, most = ops->grid_batch_max(b);
    double start = plat_now();
    ev_status st = topk_init(&top, o->top, err);
    r->evaluator = "tables";
    /* until a batch takes a quarter of the time, or the time is up */
    while (st == EV_OK && first < p->lat->size && plat_now() - start < o->seconds) {
        double t0 = plat_now(), dt;
        if (count > most)
            count = most;
        if (count > p->lat->size - first)
            count = p->lat->size - first;
        st = ops->grid_batch(b, first, count, &top, err);
        dt = plat_now() - t0;
        first += count;
        r->points = count;
        r->seconds = dt;
        if (dt >= o->seconds / 4)
            break;
        count *= 2;
    }
    topk_free(&top);
    r->trade_evals = (double)r->points * (double)t->n_trades;
    r->floor_ops = r->trade_evals * (p->shape.n_params + 4);
    r->floor_bytes = (double)t->n_trades * row_bytes(t); /* the tables, read once */
    return st;
}

/* The tables evaluator (the backend's evaluate) on the reference's sample:
 * the side-by-side ratio of SPEC sec. 6's fast path to the SPEC loop. */
static ev_status measure_sample(const backend_ops_t *ops, backend_t *b, const fit_problem_t *p, row_t *r, ev_error *err)
{
    uint64_t n = reference_sample_n, reps = 0;
    int32_t np = p->shape.n_params;
    uint16_t *genes = (uint16_t *)calloc((size_t)n * (size_t)np + 1, sizeof *genes);
    eval_result_t *out = (eval_result_t *)calloc((size_t)n + 1, sizeof *out);
    uint16_t g[EV_MAX_PARAMS];
    double t0;
    ev_status st = EV_OK;
    if (!genes || !out) {
        free(genes);
        free(out);
        return ev_fail(err, EV_ENOMEM, "out of memory");
    }
    for (uint64_t i = 0; i < n; i++) {
        shape_decode(&p->shape, sample_index(p, i), g);
        for (int32_t k = 0; k < np; k++)
            genes[(uint64_t)k * n + i] = g[k];
    }
    r->evaluator = "tables-sample";
    t0 = plat_now();
    do { /* repeat for at least a second: the sample is small */
        st = ops->evaluate(b, genes, n, out, err);
        reps++;
    } while (st == EV_OK && plat_now() - t0 < 1.0);
    r->seconds = plat_now() - t0;
    r->points = n * reps;
    r->trade_evals = (double)r->points * (double)p->ds->n_trades;
    r->floor_ops = r->trade_evals * (np + 4);
    r->floor_bytes = 0;
    free(genes);
    free(out);
    return st;
}

/* The process's CPU seconds (every thread's). */
static double cpu_now(void)
{
    return (double)clock() / CLOCKS_PER_SEC;
}

/* The dominance pass's hook: stops it once the time is up. */
typedef struct {
    double deadline;
    uint64_t done;
} dom_clock_t;

static ev_status dom_tick(void *ctx, uint64_t done, ev_error *err)
{
    dom_clock_t *c = (dom_clock_t *)ctx;
    c->done = done;
    return plat_now() < c->deadline ? EV_OK : ev_fail(err, EV_EINTR, "time is up");
}

/* The dominance sums from the first point until the lattice or --seconds
 * ends (after the round or block that passes it); by_block: one exit
 * combination at a time (dominance_opts_t.by_block). Floor per point, with
 * T trades binned, C filter cells a combination, F filters, W words a cell:
 * the cells' 8W (3F + 1) bytes and ~W F + 20 operations (suffix sums, rank),
 * plus T / C visits of ~(5R + 6) operations (the race of R exit roles, one
 * add), the tables read once per group of combinations. */
static ev_status measure_dominance(const backend_ops_t *ops, backend_t *b, const fit_problem_t *p,
                                   const fit_tables_t *t, const opts_t *o, int by_block, row_t *r, ev_error *err)
{
    topk_t top;
    dominance_opts_t d;
    dom_clock_t clk = {0, 0};
    grid_progress_hook_t hook = {0, dom_tick, &clk};
    double t0, c0, cells = 1, roles = (t->n_targets > 0) + (t->n_stops > 0);
    /* fields the objective needs: count, sum (+ pos, + 2 for sumsq, + 2 for log) */
    double fields = 2.0 + p->obj.need_pos + 2.0 * p->obj.need_sumsq + 2.0 * p->obj.need_log;
    ev_status st = topk_init(&top, o->top, err);
    for (int32_t f = 0; f < t->n_filters; f++)
        cells *= t->filter_n[f];
    for (int k = 0; k < MORE_EXITS; k++)
        roles += t->more[k].n > 0;
    memset(&d, 0, sizeof d);
    d.hook = &hook;
    d.by_block = by_block;
    r->evaluator = by_block ? "dom-block" : "dominance";
    t0 = plat_now();
    c0 = cpu_now();
    clk.deadline = t0 + o->seconds;
    if (st == EV_OK && (st = ops->grid_dominance(b, &d, &top, err)) == EV_EINTR)
        st = EV_OK;
    r->seconds = plat_now() - t0;
    r->cpu_seconds = cpu_now() - c0;
    topk_free(&top);
    r->points = clk.done;
    r->trade_evals = (double)r->points * (double)t->n_trades; /* what a direct method would do */
    r->floor_bytes = (double)r->points * 8.0 * fields * (3.0 * t->n_filters + 1);
    r->floor_ops =
        (double)r->points * (fields * t->n_filters + 20.0 + (double)t->n_trades / cells * (5.0 * roles + 6.0));
    return st;
}

static ev_status run_backend(const char *name, const fit_problem_t *p, const tables_host_t *th, const char *lat,
                             const opts_t *o, const char *dataset, ev_error *err)
{
    const backend_ops_t *ops;
    backend_t *b;
    row_t r;
    char device[512];
    ev_status st = backend_find(name, &ops, err);
    if (st == EV_ENODEV) {
        printf("(%s backend unavailable: %s)\n", name, err->msg);
        return EV_OK;
    }
    if (st != EV_OK || (st = ops->open(&b, p, th, err)) != EV_OK)
        return st;
    ops->describe(b, device, sizeof device);
    memset(&r, 0, sizeof r);
    r.backend = ops->name;
    r.lattice = lat;
#ifdef EVOLVE_HAVE_CUDA
    if (!strcmp(ops->name, "cuda") && cuda_device_peaks(&r.peak_ops, &r.peak_bw, err) != EV_OK)
        r.peak_ops = r.peak_bw = 0;
#endif
    if (reference_sample_n && (st = measure_sample(ops, b, p, &r, err)) == EV_OK)
        print_row(&r, o, dataset, device);
    if (st == EV_OK)
        st = measure_tables(ops, b, p, &th->view, o, &r, err);
    if (st == EV_OK)
        print_row(&r, o, dataset, device);
    /* the CPU's two dominance passes (whole exit combinations per thread, one at a time) */
    for (int by_block = 0; by_block < (strcmp(ops->name, "cpu") ? 1 : 2); by_block++)
        if (st == EV_OK && dominance_applicable(p) && ops->grid_dominance &&
            (strcmp(ops->name, "cpu") || p->lat->size <= o->cpu_dom_max)) {
            st = measure_dominance(ops, b, p, &th->view, o, by_block, &r, err);
            if (st == EV_OK)
                print_row(&r, o, dataset, device);
            r.cpu_seconds = 0;
        }
    ops->close(b);
    return st;
}

static ev_status run_lattice(const dataset_t *ds, const char *name, const opts_t *o, const char *dataset, ev_error *err)
{
    lattice_t lat;
    fit_problem_t p;
    tables_host_t th;
    objective_cfg_t obj;
    row_t r;
    double t0;
    ev_status st = synth_lattice(&lat, name, ds, err);
    if (st != EV_OK)
        return st;
    memset(&obj, 0, sizeof obj);
    obj.kind = o->objective;
    st = problem_init(&p, ds, &lat, &obj, err);
    if (st != EV_OK) {
        lattice_free(&lat);
        return st;
    }
    t0 = plat_now();
    st = tables_build(&th, &p, err);
    if (st == EV_OK) {
        printf("lattice %s: %llu points; host tables built in %.3f s\n", name, (unsigned long long)lat.size,
               plat_now() - t0);
        memset(&r, 0, sizeof r);
        r.backend = "host";
        r.lattice = name;
        measure_reference(&p, o, &r);
        print_row(&r, o, dataset, "host");
        st = run_backend("cpu", &p, &th, name, o, dataset, err);
        if (st == EV_OK)
            st = run_backend("cuda", &p, &th, name, o, dataset, err);
        tables_free(&th);
    }
    problem_free(&p);
    lattice_free(&lat);
    return st;
}

int main(int argc, char **argv)
{
    opts_t o;
    dataset_t ds;
    ev_error err;
    ev_status st;
    char dataset[256], *name, *next;
    if (parse(&o, argc, argv))
        return 2;
    plat_install_interrupt();
    if (o.dataset) {
        st = dataset_read_h5(o.dataset, &ds, &err);
        snprintf(dataset, sizeof dataset, "%s", o.dataset);
    } else {
        st = synth_dataset(&ds, o.trades, o.days, o.seed, &err);
        snprintf(dataset, sizeof dataset, "synthetic %lld trades, %d days", (long long)o.trades, o.days);
    }
    if (st != EV_OK) {
        fprintf(stderr, "bench_grid: %s\n", err.msg);
        return ev_exit_code(st);
    }
    printf("evolve %s, dataset: %s (%lld trades, %lld prices), objective %s\n", EVOLVE_GIT_REV, dataset,
           (long long)ds.n_trades, (long long)ds.n_prices, objective_name((objective_kind)o.objective));
    printf("%-5s %-8s %-13s %13s %9s %11s %11s %11s %10s %10s %8s %8s\n", "back", "lattice", "evaluator", "points",
           "seconds", "points/s", "CPU pts/s", "t-evals/s", "floor B", "floor ops", "B frac", "ops frac");
    for (name = o.lattices; name && st == EV_OK; name = next) {
        next = strchr(name, ',');
        if (next)
            *next++ = '\0';
        if (*name)
            st = run_lattice(&ds, name, &o, dataset, &err);
    }
    dataset_free(&ds);
    if (st != EV_OK) {
        fprintf(stderr, "bench_grid: %s\n", err.msg);
        return ev_exit_code(st);
    }
    return 0;
}
