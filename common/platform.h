/* The small platform layer: every POSIX-only call lives behind these
 * functions (a Windows branch sits beside each one), so the rest of evolve is
 * plain C11. */
#ifndef EVOLVE_PLATFORM_H
#define EVOLVE_PLATFORM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/plat_path.h" /* the path helpers, for every user of this layer */
#include "common/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    int64_t size;     /* bytes */
    int64_t mtime_ns; /* modification time, nanoseconds since the epoch */
    int is_dir;
    /* the file's identity: device and inode (POSIX), volume serial and file
     * index (Windows); ino is 0 where the file system gives none */
    uint64_t dev, ino;
} plat_stat_t;

/* 0 on success; nonzero if the path does not exist or cannot be stat'ed. */
int plat_stat(const char *path, plat_stat_t *st);

/* Checks that an input path is a regular file, following symbolic links: a
 * missing path, a dangling symbolic link, a directory, a named pipe, a device
 * or a socket is an error "PATH: <what it is>; expected <expected>". Fills
 * *st (may be NULL). */
ev_status plat_check_input(const char *path, const char *expected, plat_stat_t *st, ev_error *err);

/* Opens an input for reading (binary), with plat_check_input's errors, on
 * the opened file itself: a named pipe is never waited on, and a path
 * swapped after a check is still refused. NULL on error. */
FILE *plat_open_input(const char *path, const char *expected, ev_error *err);

/* 1 when a and b both exist and are the same file (the same identity, or,
 * where the file system gives none, the same path text): "d/./t.csv" and
 * "d/t.csv", a folder and its link. */
int plat_same_file(const char *a, const char *b);

/* Regular-file and directory names in dir (no "." or ".."), sorted bytewise.
 * Free with plat_free_names. */
ev_status plat_list_dir(const char *dir, char ***names, size_t *count, ev_error *err);
void plat_free_names(char **names, size_t count);

/* Atomically replaces `to` with `from` (both in the same directory). */
ev_status plat_rename_replace(const char *from, const char *to, ev_error *err);

/* Closes a file written through stdio: 0 when every write and the close
 * went through, else the errno of the failure (EIO where none was kept), for
 * a message such as "PATH: cannot write: No space left on device". */
int plat_fclose_written(FILE *f);

/* Removes a file; a missing file is not an error. */
void plat_remove(const char *path);

/* Creates dir and its parents (like mkdir -p). */
ev_status plat_mkdirs(const char *dir, ev_error *err);

/* Monotonic seconds, for rates and ETAs. */
double plat_now(void);

/* Wall-clock time as "YYYY-MM-DDTHH:MM:SSZ" (UTC), for provenance. */
void plat_utc_timestamp(char *buf, size_t n);

int plat_stderr_is_tty(void);
long plat_pid(void);

/* Sets environment variable name to value (tests and benches). */
void plat_setenv(const char *name, const char *value);
/* Sets environment variable name to value unless it is set already. */
void plat_setenv_default(const char *name, const char *value);

/* Sleeps for ms milliseconds. */
void plat_sleep_ms(unsigned ms);

/* Ends the process at once, as kill -9 would (no handlers, no flushing):
 * the crash the run file's checkpoints are tested against. */
void plat_kill_self(void);

/* Ctrl-C: the first SIGINT sets the flag (the run finishes its generation and
 * saves); the second one exits at once. */
void plat_install_interrupt(void);
int plat_interrupted(void);

/* One process-wide lock, for a library that is not thread-safe (Debian's
 * HDF5 is built without --enable-threadsafe): libevolve's calls that read or
 * write HDF5 files hold it, so threads with their own handles can call them. */
void plat_hdf5_lock(void);
void plat_hdf5_unlock(void);

#ifdef __cplusplus
}
#endif
#endif
