/* evolve: GPU-resident genetic search for trading-strategy parameters.
 * This file only dispatches to the sub-commands (cli/commands.h). The
 * executable is cli/evolve.c: main() calls this cli_main. The commands stand
 * on runs/ (the application), as libevolve (lib/) does. */
#include <stdio.h>
#include <string.h>

#include "build_info.h"
#include "cli/cmd_cache.h"
#include "cli/cmd_run_trades.h"
#include "cli/cmd_signals.h"
#include "cli/commands.h"
#include "cli/main.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: evolve CONFIG.yaml [options]        evolve the config's lattice (GA)\n"
            "       evolve CONFIG.yaml --grid [options] enumerate the whole lattice (exact optimum)\n"
            "       evolve CONFIG.yaml --validate       run both and compare the GA with the grid\n"
            "       evolve CONFIG.yaml --resume RUN.h5  continue an interrupted GA run (with --grid: grid) exactly\n"
            "       evolve ingest [options]             CSVs -> dataset.h5 (docs/spec.md sec. 2)\n"
            "       evolve gen-data [options]           write realistic sample data in the trader's format\n"
            "       evolve report RUN.h5 [options]      summarise a run and draw SVG plots\n"
            "       evolve doctor                       check the build, the CUDA driver and the GPU (self-tests)\n"
            "       evolve cache [--clear]              list or clear the shared dataset cache\n"
            "       evolve bars [options]               OHLCV bars from a bars CSV or the market files\n"
            "       evolve trades [options]             a strategy genome's trades on bars (seller_exhaustion, atc)\n"
            "       evolve trades RUN.h5 [--rank N]     a reported genome's kept trades (exits, outcomes)\n"
            "       evolve --version\n"
            "\n"
            "Run 'evolve CONFIG.yaml --help', 'evolve ingest --help', 'evolve gen-data --help' or\n"
            "'evolve report --help' for each command's options. The config schema is in docs/config.md;\n"
            "the run file (RUN.h5) is described in results/README.md.\n");
}

/* evolve trades RUN.h5 (a run's trades) or evolve trades CONFIG / --bars
 * (a strategy's): a run file is an .h5 / .h5.partial name or has the HDF5
 * signature. */
static int names_run_file(const char *arg)
{
    static const unsigned char sig[8] = {0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'};
    unsigned char head[8];
    size_t n = strlen(arg);
    FILE *f;
    int is;
    if ((n > 3 && !strcmp(arg + n - 3, ".h5")) || (n > 11 && !strcmp(arg + n - 11, ".h5.partial")))
        return 1;
    if (arg[0] == '-' || !(f = fopen(arg, "rb")))
        return 0;
    is = fread(head, 1, sizeof head, f) == sizeof head && !memcmp(head, sig, sizeof sig);
    fclose(f);
    return is;
}

int cli_main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("evolve %s (git %s, %s, %s)\n", EVOLVE_VERSION, EVOLVE_GIT_REV, EVOLVE_C_COMPILER, EVOLVE_BUILD_TYPE);
        return 0;
    }
    if (!strcmp(argv[1], "ingest"))
        return cmd_ingest(argc - 1, argv + 1);
    if (!strcmp(argv[1], "gen-data"))
        return cmd_gen_data(argc - 1, argv + 1);
    if (!strcmp(argv[1], "report"))
        return cmd_report(argc - 1, argv + 1);
    if (!strcmp(argv[1], "doctor"))
        return cmd_doctor(argc - 1, argv + 1);
    if (!strcmp(argv[1], "cache"))
        return cmd_cache(argc - 1, argv + 1);
    if (!strcmp(argv[1], "bars"))
        return cmd_bars(argc - 1, argv + 1);
    if (!strcmp(argv[1], "trades"))
        return argc > 2 && names_run_file(argv[2]) ? cmd_run_trades(argc - 1, argv + 1)
                                                   : cmd_trades(argc - 1, argv + 1);
    return cmd_run(argc, argv);
}
