/* evolve trades RUN.h5: the kept trades of a reported genome of a run. */
#ifndef EVOLVE_CMD_RUN_TRADES_H
#define EVOLVE_CMD_RUN_TRADES_H

#ifdef __cplusplus
extern "C" {
#endif

/* evolve trades RUN.h5 [--rank N] [--list grid|ga] [--csv FILE] [--dataset FILE]; an exit code. */
int cmd_run_trades(int argc, char **argv);

#ifdef __cplusplus
}
#endif
#endif
