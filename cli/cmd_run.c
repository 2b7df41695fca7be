/* evolve CONFIG [--grid | --validate] [options]: the search commands. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/options.h"
#include "common/platform.h"
#include "cli/commands.h"
#include "cli/run_print.h"
#include "ga/grid.h"
#include "runs/run_guard.h"
#include "runs/run_name.h"
#include "runs/mode_walk.h"
#include "runs/modes.h"
#include "runs/run_paths.h"
#include "runs/session_strategy.h"
#include "dist/dist.h"
#include "io/config.h"

static void run_usage(FILE *out)
{
    fprintf(out,
            "usage: evolve CONFIG.yaml [--grid | --validate] [options]\n"
            "       evolve CONFIG.yaml --resume RUN.h5 [options]\n"
            "\n"
            "Searches the config's parameter lattice for the genomes with the best fitness on its data\n"
            "(docs/spec.md: filters keep a trade iff feature >= threshold; target/stop re-simulated second\n"
            "by second).\n"
            "Without --grid or --validate it runs the genetic algorithm (GA). A strategy config (strategy:\n"
            "instead of data:, docs/signals.md) searches an indicator-signal strategy's parameters on bars\n"
            "the same way (its backtests on the CPU or, with --backend cuda or auto, the GPU).\n"
            "\n"
            "Every mode writes a run file (HDF5; layout in results/README.md) to the config's output\n"
            "(default results/<config>.h5); 'evolve report RUN.h5' summarises and plots it. A GA run is\n"
            "written as it goes to RUN.h5.partial, with a checkpoint RUN.h5.partial.ckpt, and renamed to\n"
            "RUN.h5 when complete: after a crash or Ctrl-C, --resume continues it and ends with the same\n"
            "file, bit for bit (wall-clock fields aside), as a run that never stopped. A grid keeps its\n"
            "pass so far in RUN.h5.partial (grid.checkpoint_every_s, and on Ctrl-C): --grid --resume\n"
            "continues it to the same file.\n"
            "\n"
            "modes:\n"
            "  --grid              enumerate every lattice point: the exact top-K (the reference answer),\n"
            "                      and the heatmap of report.heatmap's two parameters\n"
            "  --validate          run the GA and the grid and report how the GA compares: the grid rank of\n"
            "                      its best, the overlap of the two top-K lists, the fitness gap, and the\n"
            "                      share of the lattice the GA evaluated\n"
            "  --resume RUN.h5     continue an interrupted GA run (RUN.h5, RUN.h5.partial or its .ckpt)\n"
            "                      from its last checkpoint, or with --grid a grid where it stopped;\n"
            "                      refused when the config, seed, top, data, evolve version or backend\n"
            "                      (a grid's: or --evaluator) differ from the run's\n"
            "  --walk-forward      validation.walk_forward's windows: the GA (with --grid the grid) on each\n"
            "                      window's train days, its winner scored on the test days after them; prints\n"
            "                      the per-window table and the chained out-of-sample result\n"
            "options:\n"
            "  --backend NAME      cpu, cuda or auto (default auto: cuda when a GPU is present). Before\n"
            "                      the first batch a GPU is checked against the CPU on a probe set, bit\n"
            "                      for bit (milliseconds); on a difference --backend cuda stops naming the\n"
            "                      genome, --backend auto warns and runs on the CPU\n"
            "  --no-gpu-probe      skip that check (unsafe: a wrong GPU result would go unnoticed)\n"
            "  --evaluator NAME    grid evaluator: auto (default: dominance sums where the objective is\n"
            "                      additive, else tables), tables, dominance, or reference (the slow loop\n"
            "                      of docs/spec.md sec. 4)\n"
            "  --batch N           grid: genomes per batch (default: from memory and launch-time limits)\n"
            "  --top N             override the config's top (size of the reported top-K)\n"
            "  --seed N            override the config's seed\n"
            "  --output FILE.h5    override the config's output (the run file; not with --resume)\n"
            "  --json FILE         also write a JSON summary (mode, lattice size, top-K, timings; validate:\n"
            "                      a \"validate\" object)\n"
            "  --quiet             no progress lines or dataset summary\n"
            "  --help              this text\n"
            "\n"
            "Exit status: 0 success, 1 error (the message names the file, line or key), 2 usage error,\n"
            "130 interrupted (Ctrl-C: the generation or grid block under way finishes, the run is saved\n"
            "and the command that resumes it is printed; a validate run is not saved).\n");
}

/* --evaluator's names, in evaluator_kind order (ga/grid.h). */
static const char *const *evaluator_names(void)
{
    static const char *names[EVAL_DOMINANCE + 2];
    for (int e = EVAL_AUTO; e <= EVAL_DOMINANCE; e++)
        names[e] = evaluator_name((evaluator_kind)e);
    return names;
}

/* Returns 0 on success, 2 on a usage error (message printed), -1 for --help. */
static int parse_args(int argc, char **argv, run_args_t *a)
{
    const opt_spec_t opts[] = {
        {.name = "--grid", .kind = OPT_FLAG, .dest = &a->grid},
        {.name = "--validate", .kind = OPT_FLAG, .dest = &a->validate},
        {.name = "--walk-forward", .kind = OPT_FLAG, .dest = &a->walk_forward},
        {.name = "--quiet", .kind = OPT_FLAG, .dest = &a->quiet},
        {.name = "--no-gpu-probe", .kind = OPT_FLAG, .dest = &a->no_gpu_probe},
        {.name = "--backend", .kind = OPT_STRING, .dest = &a->backend},
        {.name = "--evaluator", .kind = OPT_CHOICE, .dest = &a->evaluator, .choices = evaluator_names()},
        {.name = "--json", .kind = OPT_STRING, .dest = &a->json},
        {.name = "--output", .kind = OPT_STRING, .dest = &a->output},
        {.name = "--resume", .kind = OPT_STRING, .dest = &a->resume},
        {.name = "--seed", .kind = OPT_U64, .dest = &a->seed, .hi = UINT64_MAX, .seen = &a->seed_given},
        {.name = "--top", .kind = OPT_U64, .dest = &a->top, .lo = 1, .hi = CONFIG_TOP_MAX},
        {.name = "--batch", .kind = OPT_U64, .dest = &a->batch, .lo = 1, .hi = UINT64_MAX},
    };
    const opt_table_t t = {.opts = opts,
                           .n_opts = (int)(sizeof opts / sizeof opts[0]),
                           .positional = &a->config,
                           .max_positional = 1,
                           .positional_hint = "one config file is expected"};
    opt_result res;
    ev_error err;
    ev_status st;
    memset(a, 0, sizeof *a);
    a->backend = "auto";
    a->evaluator = EVAL_AUTO;
    if ((st = opt_parse(&t, argc, argv, &res, &err)) != EV_OK) {
        fprintf(stderr, "evolve: %s (see evolve CONFIG.yaml --help)\n", err.msg);
        return ev_exit_code(st);
    }
    if (res == OPT_HELP)
        return -1;
    if (!a->config) {
        fprintf(stderr, "evolve: no config file given (usage: evolve CONFIG.yaml [--grid|--validate])\n");
        return 2;
    }
    if (a->grid && a->validate) {
        fprintf(stderr, "evolve: --grid and --validate are exclusive\n");
        return 2;
    }
    if (a->walk_forward && (a->validate || a->resume)) {
        fprintf(stderr,
                "evolve: --walk-forward runs the GA (or with --grid the grid) per window; it does not combine "
                "with --%s\n",
                a->validate ? "validate" : "resume");
        return 2;
    }
    if (a->resume && a->validate) {
        fprintf(stderr, "evolve: --resume continues a GA or grid run; it does not combine with --validate\n");
        return 2;
    }
    if (a->resume && a->output) {
        fprintf(stderr, "evolve: --resume continues the run file it names; --output does not combine with it\n");
        return 2;
    }
    a->argc = argc;
    a->argv = argv;
    return 0;
}

static ev_status apply_overrides(session_t *s, const run_args_t *a, ev_error *err)
{
    if (a->top > 0)
        s->cfg.top = (uint32_t)a->top;
    if (a->seed_given) {
        s->cfg.seed = a->seed;
        s->cfg.seed_random = 0;
    }
    return run_name_output(&s->cfg, a, err);
}

/* The search on an open session: rank 0 (or the only process) runs the
 * mode and records it; the other ranks of an MPI job follow (dist/dist.h). */
static ev_status run_modes(session_t *s, const run_args_t *a, double t0, ev_error *err)
{
    if (dist_rank() != 0)
        return run_mode_follow(s, a, err);
    if (a->walk_forward)
        return run_mode_walk_forward(s, a, t0, err);
    if (a->grid)
        return run_mode_grid(s, a, t0, err);
    if (a->validate)
        return run_mode_validate(s, a, t0, err);
    return run_mode_ga(s, a, t0, err);
}

int cmd_run(int argc, char **argv)
{
    run_args_t a;
    session_t s;
    session_opts_t so;
    run_reporter_t rep;
    plat_lock_t *lock = NULL;
    ev_error err;
    ev_status st;
    double t0 = plat_now();
    int rc = parse_args(argc, argv, &a), lead;
    if (rc) {
        if (rc < 0)
            run_usage(stdout);
        return rc < 0 ? 0 : rc;
    }
    memset(&err, 0, sizeof err);
    memset(&s, 0, sizeof s);
    if ((st = dist_init(&argc, &argv, &err)) != EV_OK) {
        fprintf(stderr, "evolve: error: %s\n", err.msg);
        return ev_exit_code(st);
    }
    lead = dist_rank() == 0; /* the one process that reads the run's files and writes its outputs */
    run_print_reporter(&rep, a.quiet || !lead);
    a.report = &rep;
    plat_install_interrupt();
    if (a.resume && lead) {
        /* before loading any data: is there a run to resume? */
        run_paths_t rp;
        if ((st = run_paths_for_resume(&rp, a.resume, &err)) == EV_OK)
            run_paths_free(&rp);
    }
    if (st == EV_OK && (a.validate || a.walk_forward) && dist_size() > 1)
        st = ev_fail(&err, EV_EUSAGE, "--%s runs on one process; under mpirun run --grid and the GA apart",
                     a.validate ? "validate" : "walk-forward");
    if (st == EV_OK)
        st = session_load_config(&s, a.config, &err);
    if (st == EV_OK && s.cfg.strategy_type && a.evaluator != EVAL_AUTO)
        st = ev_fail(&err, EV_EUSAGE,
                     "--evaluator %s: a strategy config has one evaluator, its backtest; leave --evaluator out",
                     evaluator_name((evaluator_kind)a.evaluator));
    if (st == EV_OK)
        st = apply_overrides(&s, &a, &err);
    if (st == EV_OK && a.walk_forward)
        st = run_walk_check(&s.cfg, &err);
    if (st == EV_OK && lead) /* before any data is read or written */
        st = run_guard_outputs(&s.cfg, &a, &lock, &err);
    memset(&so, 0, sizeof so);
    so.backend = a.backend;
    so.report = &rep;
    so.no_probe = a.no_gpu_probe;
    so.walk_forward = a.walk_forward;
    if (st == EV_OK)
        st = session_open(&s, &so, &err);
    if (st == EV_OK && dist_size() > 1) { /* the provenance says how many ranks ran it */
        size_t used = strlen(s.device);
        snprintf(s.device + used, sizeof s.device - used, ", %d MPI ranks", dist_size());
    }
    if ((st = dist_agree(st, &err)) == EV_OK)
        st = run_modes(&s, &a, t0, &err);
    if (st == EV_OK && s.strategy)
        session_strategy_note(&s, &rep);
    session_close(&s);
    plat_lock_release(lock);
    if (st == EV_EINTR && lead)
        fprintf(stderr, "evolve: %s\n", err.msg);
    else if (st != EV_OK && st != EV_EINTR && dist_report(&err))
        fprintf(stderr, "evolve: error: %s\n", err.msg);
    rc = ev_exit_code(st);
    dist_finish(rc);
    return rc;
}
