/* The command line's dispatcher: `evolve ARGS...` (cli/main.c), called by
 * the executable's main (cli/evolve.c). */
#ifndef EVOLVE_CLI_MAIN_H
#define EVOLVE_CLI_MAIN_H

#ifdef __cplusplus
extern "C" {
#endif

/* argv[0] is the program; returns the process exit status. */
int cli_main(int argc, char **argv);

#ifdef __cplusplus
}
#endif
#endif
