/* The evolve sub-commands. Each parses its own options, prints its own help,
 * and returns a process exit code (0 on success). */
#ifndef EVOLVE_COMMANDS_H
#define EVOLVE_COMMANDS_H

#ifdef __cplusplus
extern "C" {
#endif

int cmd_run(int argc, char **argv);      /* evolve CONFIG [--grid|--validate] ... */
int cmd_ingest(int argc, char **argv);   /* evolve ingest ... */
int cmd_gen_data(int argc, char **argv); /* evolve gen-data ... */
int cmd_report(int argc, char **argv);   /* evolve report RUN.h5 ... */
int cmd_doctor(int argc, char **argv);   /* evolve doctor: versions, devices, GPU self-tests (exit 3: no GPU) */

#ifdef __cplusplus
}
#endif
#endif
