/* The signal-strategy commands (docs/signals.md), one file each:
 *   evolve bars    bars from a bars CSV or the market files -> a bars CSV (cmd_bars.c)
 *   evolve trades  one genome's (or a file of genomes') strategy trades (cmd_trades.c) */
#ifndef EVOLVE_CMD_SIGNALS_H
#define EVOLVE_CMD_SIGNALS_H

#ifdef __cplusplus
extern "C" {
#endif

int cmd_bars(int argc, char **argv);
int cmd_trades(int argc, char **argv);

#ifdef __cplusplus
}
#endif
#endif
