/* evolve cache [--clear]: lists or clears the shared dataset cache
 * (docs/dataset.md, "The dataset cache"). */
#ifndef EVOLVE_CMD_CACHE_H
#define EVOLVE_CMD_CACHE_H

#ifdef __cplusplus
extern "C" {
#endif

int cmd_cache(int argc, char **argv);

#ifdef __cplusplus
}
#endif
#endif
