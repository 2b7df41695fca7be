/* The per-user cache folder, and the touch that marks a cached file as
 * used (its modification time is its "last used"). */
#ifndef EVOLVE_PLAT_CACHE_H
#define EVOLVE_PLAT_CACHE_H

#ifdef __cplusplus
extern "C" {
#endif

/* $EVOLVE_CACHE_DIR; else on Windows %LOCALAPPDATA%\evolve\cache; else
 * $XDG_CACHE_HOME/evolve (when absolute), else $HOME/.cache/evolve.
 * Malloc'ed; NULL when none of them is set (or out of memory). */
char *plat_cache_dir(void);

/* Sets the file's modification time to now; 0 on success. */
int plat_touch(const char *path);

#ifdef __cplusplus
}
#endif
#endif
