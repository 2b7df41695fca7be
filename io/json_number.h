/* Numbers of the --json summaries written exactly: a double as the text
 * that reads back as the same double. */
#ifndef EVOLVE_JSON_NUMBER_H
#define EVOLVE_JSON_NUMBER_H

#include <cjson/cJSON.h>

/* A JSON number that reads back as exactly v (common/shortest.h, as in every
 * CSV; cJSON's own printing keeps a text that reads back within an epsilon of
 * v, one ulp off the run file's double); a non-finite v as cJSON writes it
 * (null). NULL when out of memory. */
cJSON *json_number(double v);
/* json_number(v) under key; NULL when out of memory. */
cJSON *json_add_number(cJSON *obj, const char *key, double v);
/* A fitness under key: json_number(v), or the string "inf" / "-inf" / "nan"
 * (a zero-variance sharpe; README "JSON"); NULL when out of memory. */
cJSON *json_add_fitness(cJSON *obj, const char *key, double v);

#endif
