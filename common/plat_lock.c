#define _DEFAULT_SOURCE /* flock */
#include "common/plat_lock.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/platform.h"
#include "common/strutil.h"

#ifdef _WIN32
#include <io.h>
#include <windows.h>
#else
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

struct plat_lock {
    char *path;
#ifdef _WIN32
    HANDLE h;
#else
    int fd;
#endif
};

char *plat_lock_path(const char *output)
{
    size_t n = strlen(output);
    char *path = (char *)malloc(n + sizeof ".lock");
    if (path) {
        memcpy(path, output, n);
        memcpy(path + n, ".lock", sizeof ".lock");
    }
    return path;
}

/* The process id written in a lock file; 0 when there is none. */
static long read_holder(const char *path)
{
    FILE *f = fopen(path, "rb");
    long pid = 0;
    if (f) {
        if (fscanf(f, "%ld", &pid) != 1 || pid < 0)
            pid = 0;
        fclose(f);
    }
    return pid;
}

/* A holder writes its pid just after it takes the lock: a refusal that finds the file
 * still empty looks again for up to ~100 ms before it says "another process". */
static ev_status busy(const char *path, long *holder, ev_error *err)
{
    for (int tries = 0; (*holder = read_holder(path)) == 0 && tries < 20; tries++)
        plat_sleep_ms(5);
    if (*holder > 0)
        return ev_fail(err, EV_EBUSY, "%s is locked by process %ld", path, *holder);
    return ev_fail(err, EV_EBUSY, "%s is locked by another process", path);
}

#ifdef _WIN32
ev_status plat_lock_take(const char *path, plat_lock_t **lock, long *holder, ev_error *err)
{
    char pid[32];
    DWORD written;
    OVERLAPPED ov;
    HANDLE h = CreateFileA(path, GENERIC_READ | GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                           NULL, OPEN_ALWAYS, FILE_ATTRIBUTE_NORMAL, NULL);
    *lock = NULL;
    *holder = -1;
    if (h == INVALID_HANDLE_VALUE)
        return ev_fail(err, EV_EIO, "%s: cannot create the lock file (error %lu)", path, (unsigned long)GetLastError());
    memset(&ov, 0, sizeof ov);
    /* Byte 2^62 onwards: the pid bytes at the start stay readable. */
    ov.OffsetHigh = 0x40000000u;
    if (!LockFileEx(h, LOCKFILE_EXCLUSIVE_LOCK | LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, &ov)) {
        CloseHandle(h);
        return busy(path, holder, err);
    }
    snprintf(pid, sizeof pid, "%ld\n", plat_pid());
    SetFilePointer(h, 0, NULL, FILE_BEGIN);
    SetEndOfFile(h);
    WriteFile(h, pid, (DWORD)strlen(pid), &written, NULL);
    *lock = (plat_lock_t *)calloc(1, sizeof **lock);
    if (!*lock || !((*lock)->path = ev_strdup(path))) {
        free(*lock);
        *lock = NULL;
        CloseHandle(h);
        return ev_fail(err, EV_ENOMEM, "out of memory");
    }
    (*lock)->h = h;
    *holder = 0;
    return EV_OK;
}

void plat_lock_release(plat_lock_t *lock)
{
    if (!lock)
        return;
    DeleteFileA(lock->path); /* FILE_SHARE_DELETE: removed once the handle closes */
    CloseHandle(lock->h);
    free(lock->path);
    free(lock);
}
#else
ev_status plat_lock_take(const char *path, plat_lock_t **lock, long *holder, ev_error *err)
{
    *lock = NULL;
    *holder = -1;
    for (;;) {
        struct stat held, now;
        char pid[32];
        int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
        if (fd < 0)
            return ev_fail(err, EV_EIO, "%s: cannot create the lock file: %s", path, strerror(errno));
        if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
            int e = errno;
            close(fd);
            if (e == EWOULDBLOCK)
                return busy(path, holder, err);
            return ev_fail(err, EV_EIO, "%s: cannot lock: %s", path, strerror(e));
        }
        /* The owner before us removes the file before it unlocks: a lock
         * taken on a removed file guards nothing, so take the new one. */
        if (fstat(fd, &held) != 0 || stat(path, &now) != 0 || held.st_ino != now.st_ino || held.st_dev != now.st_dev) {
            close(fd);
            continue;
        }
        snprintf(pid, sizeof pid, "%ld\n", plat_pid());
        if (ftruncate(fd, 0) != 0 || write(fd, pid, strlen(pid)) != (ssize_t)strlen(pid)) {
            int e = errno;
            close(fd);
            return ev_fail(err, EV_EIO, "%s: cannot write the lock file: %s", path, strerror(e));
        }
        *lock = (plat_lock_t *)calloc(1, sizeof **lock);
        if (!*lock || !((*lock)->path = ev_strdup(path))) {
            free(*lock);
            *lock = NULL;
            close(fd);
            return ev_fail(err, EV_ENOMEM, "out of memory");
        }
        (*lock)->fd = fd;
        *holder = 0;
        return EV_OK;
    }
}

void plat_lock_release(plat_lock_t *lock)
{
    if (!lock)
        return;
    unlink(lock->path);
    close(lock->fd);
    free(lock->path);
    free(lock);
}
#endif

ev_status plat_lock_wait(const char *path, plat_lock_t **lock, void (*on_wait)(long holder, const void *ctx),
                         const void *ctx, ev_error *err)
{
    int told = 0;
    for (;;) {
        long holder;
        ev_status st = plat_lock_take(path, lock, &holder, err);
        if (st == EV_OK || holder < 0)
            return st;
        if (!told && on_wait)
            on_wait(holder, ctx);
        told = 1;
        plat_sleep_ms(100);
    }
}

void plat_lock_remove_temps(const char *output, FILE *log)
{
    char *dir = plat_dirname(output), **names = NULL;
    const char *base = plat_basename(output);
    size_t n = 0, len = strlen(base);
    if (!dir || plat_list_dir(dir, &names, &n, NULL) != EV_OK) {
        free(dir);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        const char *pid = names[i] + len + 5;
        char *path;
        if (strncmp(names[i], base, len) != 0 || strncmp(names[i] + len, ".tmp.", 5) != 0 || !*pid ||
            strspn(pid, "0123456789") != strlen(pid))
            continue;
        if ((path = plat_path_join(dir, names[i])) != NULL) {
            plat_remove(path);
            if (log)
                fprintf(log, "evolve: note: removed %s, left by process %s, which ended before finishing it\n", path,
                        pid);
        }
        free(path);
    }
    plat_free_names(names, n);
    free(dir);
}
