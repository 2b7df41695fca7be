/* Exclusive ownership of an output between processes: an OS lock on a small
 * lock file beside the output. The OS drops the lock when its process ends,
 * however it ends (kill -9 too), so a lock is never stale; the lock file
 * holds the owner's process id, for the message another process prints. */
#ifndef EVOLVE_PLAT_LOCK_H
#define EVOLVE_PLAT_LOCK_H

#include <stdio.h>

#include "common/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct plat_lock plat_lock_t;

/* "<output>.lock", the lock file of an output (malloc'ed; NULL when out of
 * memory). */
char *plat_lock_path(const char *output);

/* Takes the lock file `path` (created when missing) without waiting.
 * EV_OK: *lock holds it until plat_lock_release or the end of the process.
 * Another process holding it: EV_EBUSY with *holder its process id (0 when
 * it could not be read) and err saying "PATH is locked by process N". Any other
 * failure (an unwritable directory): EV_EIO with *holder = -1. */
ev_status plat_lock_take(const char *path, plat_lock_t **lock, long *holder, ev_error *err);

/* Waits (polling every 100 ms) until the lock can be taken; calls
 * on_wait(holder, ctx) once, when it first has to wait. */
ev_status plat_lock_wait(const char *path, plat_lock_t **lock, void (*on_wait)(long holder, const void *ctx),
                         const void *ctx, ev_error *err);

/* Removes the temporary files "<output>.tmp.<pid>" that processes killed
 * while writing `output` left behind, with a note on log for each. Only for
 * the holder of the output's lock: no live process writes them then. */
void plat_lock_remove_temps(const char *output, FILE *log);

/* Removes the lock file and releases the lock; NULL is a no-op. */
void plat_lock_release(plat_lock_t *lock);

#ifdef __cplusplus
}
#endif
#endif
