/* The top-K table on the terminal: rank, each parameter's value, fitness,
 * trades kept. */
#ifndef EVOLVE_TOP_TABLE_H
#define EVOLVE_TOP_TABLE_H

#include <stdio.h>

#include "fitness/reported.h"
#include "io/config.h"

#ifdef __cplusplus
extern "C" {
#endif

/* top: best first, with the values to show */
void top_table_print(FILE *out, const config_t *cfg, const reported_t *top);

#ifdef __cplusplus
}
#endif
#endif
