/* The top-K table on the terminal: rank, each parameter's value, fitness,
 * trades kept. */
#ifndef EVOLVE_TOP_TABLE_H
#define EVOLVE_TOP_TABLE_H

#include <stdio.h>

#include "fitness/ranked.h"
#include "io/config.h"

#ifdef __cplusplus
extern "C" {
#endif

/* top[n], best first */
void top_table_print(FILE *out, const config_t *cfg, const ranked_genome_t *top, uint32_t n);

#ifdef __cplusplus
}
#endif
#endif
