/* The verdict (fitness/verdict.h) as the terminal prints it and as the
 * page's first section shows it: the headline, a row per part of the days
 * with rank 1 and each baseline side by side (value, trades, rank 1's
 * difference), then the DSR and the PBO with their readings. */
#ifndef EVOLVE_VERDICT_PRINT_H
#define EVOLVE_VERDICT_PRINT_H

#include <stdio.h>

#include "fitness/verdict.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Where the words the output uses are explained. */
#define VERDICT_GLOSSARY "docs/report.md \"Glossary\""

void verdict_print_text(FILE *out, const verdict_t *v);
/* A <section id="verdict">: the same lines and table as HTML. */
void verdict_print_html(FILE *out, const verdict_t *v);

#ifdef __cplusplus
}
#endif
#endif
