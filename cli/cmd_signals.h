/* The signal-strategy commands (docs/signals.md):
 *   evolve bars    bars from a bars CSV or the market files -> a bars CSV
 *   evolve trades  one genome's (or a file of genomes') seller_exhaustion trades */
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
