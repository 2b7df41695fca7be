/* evolve CONFIG [--grid | --validate] [options]: the search commands. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/platform.h"
#include "common/strutil.h"
#include "cli/commands.h"
#include "ga/grid.h"
#include "cli/run_guard.h"
#include "cli/modes.h"
#include "cli/run_paths.h"
#include "io/config.h"

static void run_usage(FILE *out)
{
    fprintf(out,
            "usage: evolve CONFIG.yaml [--grid | --validate] [options]\n"
            "       evolve CONFIG.yaml --resume RUN.h5 [options]\n"
            "\n"
            "Searches the config's parameter lattice for the genomes with the best fitness on its data\n"
            "(SPEC: filters keep a trade iff feature >= threshold; target/stop re-simulated second by second).\n"
            "Without --grid or --validate it runs the genetic algorithm (GA).\n"
            "\n"
            "Every mode writes a run file (HDF5; layout in results/README.md) to the config's output\n"
            "(default results/<config>.h5); 'evolve report RUN.h5' summarises and plots it. A GA run is\n"
            "written as it goes to RUN.h5.partial, with a checkpoint RUN.h5.partial.ckpt, and renamed to\n"
            "RUN.h5 when complete: after a crash or Ctrl-C, --resume continues it and ends with the same\n"
            "file, bit for bit (wall-clock fields aside), as a run that never stopped.\n"
            "\n"
            "modes:\n"
            "  --grid              enumerate every lattice point: the exact top-K (the reference answer),\n"
            "                      and the heatmap of report.heatmap's two parameters\n"
            "  --validate          run the GA and the grid and report how the GA compares: the grid rank of\n"
            "                      its best, the overlap of the two top-K lists, the fitness gap, and the\n"
            "                      share of the lattice the GA evaluated\n"
            "  --resume RUN.h5     continue an interrupted GA run (RUN.h5, RUN.h5.partial or its .ckpt)\n"
            "                      from its last checkpoint; refused when the config, seed, top, data,\n"
            "                      evolve version or backend differ from the run's\n"
            "options:\n"
            "  --backend NAME      cpu, cuda or auto (default auto: cuda when a GPU is present)\n"
            "  --evaluator NAME    grid evaluator: auto (default: dominance sums where the objective is\n"
            "                      additive, else tables), tables, dominance, or reference (the slow SPEC loop)\n"
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
            "130 interrupted (Ctrl-C: the generation under way finishes, the GA run is saved and the\n"
            "command that resumes it is printed; a grid or validate run is not saved).\n");
}

static int parse_u64(const char *s, unsigned long long *v)
{
    char *end;
    errno = 0;
    if (!s || !*s || *s == '-')
        return 0;
    *v = strtoull(s, &end, 10);
    return errno == 0 && *end == '\0';
}

static int is_value_option(const char *o)
{
    static const char *const names[] = {"--backend", "--evaluator", "--json", "--output",
                                        "--resume",  "--seed",      "--top",  "--batch"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!strcmp(o, names[i]))
            return 1;
    return 0;
}

/* Returns 0 on success, 2 on a usage error (message printed), -1 for --help. */
static int parse_args(int argc, char **argv, run_args_t *a)
{
    memset(a, 0, sizeof *a);
    a->backend = "auto";
    a->evaluator = EVAL_AUTO;
    a->top = -1;
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        int takes = 1;
        unsigned long long u;
        if (!strcmp(o, "--help") || !strcmp(o, "-h"))
            return -1;
        if (!strcmp(o, "--grid"))
            a->grid = 1, takes = 0;
        else if (!strcmp(o, "--validate"))
            a->validate = 1, takes = 0;
        else if (!strcmp(o, "--quiet"))
            a->quiet = 1, takes = 0;
        else if (o[0] != '-') {
            if (a->config) {
                fprintf(stderr, "evolve: unexpected argument '%s' (one config file is expected)\n", o);
                return 2;
            }
            a->config = o;
            takes = 0;
        } else if (!is_value_option(o)) {
            fprintf(stderr, "evolve: unknown option '%s' (see evolve CONFIG.yaml --help)\n", o);
            return 2;
        } else if (!val) {
            fprintf(stderr, "evolve: option %s needs a value (see evolve CONFIG.yaml --help)\n", o);
            return 2;
        } else if (!strcmp(o, "--backend"))
            a->backend = val;
        else if (!strcmp(o, "--evaluator")) {
            if ((a->evaluator = evaluator_from_name(val)) < 0) {
                fprintf(stderr, "evolve: --evaluator: unknown evaluator '%s' (auto, tables, dominance, reference)\n",
                        val);
                return 2;
            }
        } else if (!strcmp(o, "--json"))
            a->json = val;
        else if (!strcmp(o, "--output"))
            a->output = val;
        else if (!strcmp(o, "--resume"))
            a->resume = val;
        else if (!strcmp(o, "--seed"))
            a->seed = val;
        else if (!strcmp(o, "--top") || !strcmp(o, "--batch")) {
            if (!parse_u64(val, &u) || u == 0) {
                fprintf(stderr, "evolve: %s expects a positive integer, got '%s'\n", o, val);
                return 2;
            }
            if (o[2] == 't' && u > CONFIG_TOP_MAX) {
                fprintf(stderr, "evolve: --top expects an integer from 1 to %u, got '%s'\n", CONFIG_TOP_MAX, val);
                return 2;
            }
            if (o[2] == 't')
                a->top = (long long)u;
            else
                a->batch = u;
        }
        i += takes;
    }
    if (!a->config) {
        fprintf(stderr, "evolve: no config file given (usage: evolve CONFIG.yaml [--grid|--validate])\n");
        return 2;
    }
    if (a->grid && a->validate) {
        fprintf(stderr, "evolve: --grid and --validate are exclusive\n");
        return 2;
    }
    if (a->resume && (a->grid || a->validate)) {
        fprintf(stderr, "evolve: --resume continues a GA run; it does not combine with --%s\n",
                a->grid ? "grid" : "validate");
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
    unsigned long long u;
    if (a->top > 0)
        s->cfg.top = (uint32_t)a->top;
    if (a->seed) {
        if (!parse_u64(a->seed, &u))
            return ev_fail(err, EV_EUSAGE, "--seed expects a non-negative integer, got '%s'", a->seed);
        s->cfg.seed = u;
        s->cfg.seed_random = 0;
    }
    if (a->output) {
        free(s->cfg.output);
        if (!(s->cfg.output = ev_strdup(a->output)))
            return ev_fail(err, EV_ENOMEM, "out of memory");
    }
    return EV_OK;
}

int cmd_run(int argc, char **argv)
{
    run_args_t a;
    session_t s;
    session_opts_t so;
    ev_error err;
    ev_status st;
    double t0 = plat_now();
    int rc = parse_args(argc, argv, &a);
    if (rc) {
        if (rc < 0)
            run_usage(stdout);
        return rc < 0 ? 0 : rc;
    }
    memset(&err, 0, sizeof err);
    plat_install_interrupt();
    if (a.resume) {
        /* before loading any data: is there a run to resume? */
        run_paths_t rp;
        if ((st = run_paths_for_resume(&rp, a.resume, &err)) != EV_OK) {
            fprintf(stderr, "evolve: error: %s\n", err.msg);
            return ev_exit_code(st);
        }
        run_paths_free(&rp);
    }
    st = session_load_config(&s, a.config, &err);
    if (st == EV_OK)
        st = apply_overrides(&s, &a, &err);
    if (st == EV_OK) /* before any data is read or written */
        st = run_guard_outputs(&s.cfg, &a, &err);
    so.backend = a.backend;
    so.log = a.quiet ? NULL : stderr;
    if (st == EV_OK)
        st = session_open(&s, &so, &err);
    if (st == EV_OK) {
        if (a.grid)
            st = run_mode_grid(&s, &a, t0, &err);
        else if (a.validate)
            st = run_mode_validate(&s, &a, t0, &err);
        else
            st = run_mode_ga(&s, &a, t0, &err);
    }
    session_close(&s);
    if (st == EV_EINTR)
        fprintf(stderr, "evolve: %s\n", err.msg);
    else if (st != EV_OK)
        fprintf(stderr, "evolve: error: %s\n", err.msg);
    return ev_exit_code(st);
}
