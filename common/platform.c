#define _POSIX_C_SOURCE 200809L
#include "common/platform.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#ifdef _WIN32
#include <direct.h>
#include <io.h>
#include <process.h>
#include <windows.h>
#else
#include <dirent.h>
#include <unistd.h>
#endif

#include "common/strutil.h"

int plat_stat(const char *path, plat_stat_t *st)
{
#ifdef _WIN32
    struct _stat64 s;
    if (_stat64(path, &s) != 0)
        return -1;
    st->size = (int64_t)s.st_size;
    st->mtime_ns = (int64_t)s.st_mtime * 1000000000LL;
    st->is_dir = (s.st_mode & _S_IFDIR) != 0;
    st->dev = (uint64_t)s.st_dev;
    st->ino = 0; /* _stat64's st_ino is always 0 */
#else
    struct stat s;
    if (stat(path, &s) != 0)
        return -1;
    st->size = (int64_t)s.st_size;
    st->mtime_ns = (int64_t)s.st_mtim.tv_sec * 1000000000LL + s.st_mtim.tv_nsec;
    st->is_dir = S_ISDIR(s.st_mode);
    st->dev = (uint64_t)s.st_dev;
    st->ino = (uint64_t)s.st_ino;
#endif
    return 0;
}

int plat_same_file(const char *a, const char *b)
{
    plat_stat_t x, y;
    if (plat_stat(a, &x) != 0 || plat_stat(b, &y) != 0)
        return 0;
    return x.ino ? x.dev == y.dev && x.ino == y.ino : strcmp(a, b) == 0;
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static ev_status push_name(char ***names, size_t *count, size_t *cap, const char *name, ev_error *err)
{
    if (*count == *cap) {
        size_t ncap = *cap ? *cap * 2 : 64;
        char **grown = (char **)realloc(*names, ncap * sizeof *grown);
        if (!grown)
            return ev_fail(err, EV_ENOMEM, "out of memory listing a directory");
        *names = grown;
        *cap = ncap;
    }
    if (!((*names)[*count] = ev_strdup(name)))
        return ev_fail(err, EV_ENOMEM, "out of memory listing a directory");
    (*count)++;
    return EV_OK;
}

ev_status plat_list_dir(const char *dir, char ***names, size_t *count, ev_error *err)
{
    size_t cap = 0;
    ev_status st = EV_OK;
    *names = NULL;
    *count = 0;
#ifdef _WIN32
    char pattern[4096];
    WIN32_FIND_DATAA fd;
    HANDLE h;
    snprintf(pattern, sizeof pattern, "%s\\*", dir);
    h = FindFirstFileA(pattern, &fd);
    if (h == INVALID_HANDLE_VALUE)
        return ev_fail(err, EV_EIO, "%s: cannot open directory", dir);
    do {
        if (strcmp(fd.cFileName, ".") && strcmp(fd.cFileName, ".."))
            st = push_name(names, count, &cap, fd.cFileName, err);
    } while (st == EV_OK && FindNextFileA(h, &fd));
    FindClose(h);
#else
    DIR *d = opendir(dir);
    struct dirent *e;
    if (!d)
        return ev_fail(err, EV_EIO, "%s: cannot open directory: %s", dir, strerror(errno));
    while (st == EV_OK && (e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            st = push_name(names, count, &cap, e->d_name, err);
    }
    closedir(d);
#endif
    if (st != EV_OK) {
        plat_free_names(*names, *count);
        *names = NULL;
        *count = 0;
        return st;
    }
    if (*count > 1) /* qsort(NULL, 0, ...) is undefined */
        qsort(*names, *count, sizeof **names, cmp_names);
    return EV_OK;
}

void plat_free_names(char **names, size_t count)
{
    for (size_t i = 0; i < count; i++)
        free(names[i]);
    free(names);
}

ev_status plat_rename_replace(const char *from, const char *to, ev_error *err)
{
#ifdef _WIN32
    if (!MoveFileExA(from, to, MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH))
        return ev_fail(err, EV_EIO, "%s: cannot move into place as %s", from, to);
#else
    if (rename(from, to) != 0)
        return ev_fail(err, EV_EIO, "%s: cannot move into place as %s: %s", from, to, strerror(errno));
#endif
    return EV_OK;
}

void plat_remove(const char *path)
{
    if (path)
        remove(path);
}

static int make_dir(const char *dir)
{
#ifdef _WIN32
    return _mkdir(dir);
#else
    return mkdir(dir, 0777);
#endif
}

ev_status plat_mkdirs(const char *dir, ev_error *err)
{
    size_t n = strlen(dir);
    char *buf = ev_strdup(dir);
    plat_stat_t st;
    if (!buf)
        return ev_fail(err, EV_ENOMEM, "out of memory");
    for (size_t i = 1; i <= n; i++) {
        if (buf[i] == '/' || buf[i] == '\\' || buf[i] == '\0') {
            char c = buf[i];
            buf[i] = '\0';
            if (plat_stat(buf, &st) != 0 && make_dir(buf) != 0 && errno != EEXIST) {
                ev_fail(err, EV_EIO, "%s: cannot create directory: %s", buf, strerror(errno));
                free(buf);
                return EV_EIO;
            }
            buf[i] = c;
        }
    }
    free(buf);
    if (plat_stat(dir, &st) != 0 || !st.is_dir)
        return ev_fail(err, EV_EIO, "%s: not a directory", dir);
    return EV_OK;
}

double plat_now(void)
{
#ifdef _WIN32
    LARGE_INTEGER f, c;
    QueryPerformanceFrequency(&f);
    QueryPerformanceCounter(&c);
    return (double)c.QuadPart / (double)f.QuadPart;
#else
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
#endif
}

void plat_utc_timestamp(char *buf, size_t n)
{
    time_t t = time(NULL);
    struct tm tmv;
#ifdef _WIN32
    gmtime_s(&tmv, &t);
#else
    gmtime_r(&t, &tmv);
#endif
    strftime(buf, n, "%Y-%m-%dT%H:%M:%SZ", &tmv);
}

int plat_stderr_is_tty(void)
{
#ifdef _WIN32
    return _isatty(_fileno(stderr));
#else
    return isatty(STDERR_FILENO);
#endif
}

void plat_sleep_ms(unsigned ms)
{
#ifdef _WIN32
    Sleep(ms);
#else
    struct timespec ts;
    ts.tv_sec = (time_t)(ms / 1000);
    ts.tv_nsec = (long)(ms % 1000) * 1000000L;
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
#endif
}

void plat_kill_self(void)
{
#ifdef _WIN32
    TerminateProcess(GetCurrentProcess(), 137);
#else
    raise(SIGKILL);
#endif
    abort(); /* not reached */
}

long plat_pid(void)
{
#ifdef _WIN32
    return (long)_getpid();
#else
    return (long)getpid();
#endif
}

int plat_path_is_abs(const char *path)
{
    if (path[0] == '/' || path[0] == '\\')
        return 1;
#ifdef _WIN32
    if (path[0] && path[1] == ':')
        return 1;
#endif
    return 0;
}

char *plat_path_join(const char *base_dir, const char *rel)
{
    size_t nb = base_dir ? strlen(base_dir) : 0;
    size_t nr = strlen(rel);
    char *out;
    if (plat_path_is_abs(rel) || nb == 0 || (nb == 1 && base_dir[0] == '.')) {
        out = (char *)malloc(nr + 1);
        if (out)
            memcpy(out, rel, nr + 1);
        return out;
    }
    out = (char *)malloc(nb + nr + 2);
    if (!out)
        return NULL;
    memcpy(out, base_dir, nb);
    out[nb] = '/';
    memcpy(out + nb + 1, rel, nr + 1);
    return out;
}

/* The last directory separator in path ('/', and '\\' on Windows), or NULL. */
static const char *last_separator(const char *path)
{
    const char *slash = strrchr(path, '/');
#ifdef _WIN32
    const char *bs = strrchr(path, '\\');
    if (bs && (!slash || bs > slash))
        slash = bs;
#endif
    return slash;
}

char *plat_dirname(const char *path)
{
    const char *slash = last_separator(path);
    size_t n = slash ? (size_t)(slash - path) : 0;
    if (!slash)
        return ev_strdup(".");
    if (n == 0)
        n = 1; /* "/file" -> "/" */
    return ev_strndup(path, n);
}

const char *plat_basename(const char *path)
{
    const char *slash = last_separator(path);
    return slash ? slash + 1 : path;
}

char *plat_temp_name(const char *final_path)
{
    size_t n = strlen(final_path) + 32;
    char *out = (char *)malloc(n);
    if (out)
        snprintf(out, n, "%s.tmp.%ld", final_path, plat_pid());
    return out;
}

static volatile sig_atomic_t g_interrupted = 0;

static void on_sigint(int sig)
{
    if (g_interrupted)
        _Exit(130); /* second Ctrl-C: the user means it */
    g_interrupted = 1;
    signal(sig, on_sigint);
}

void plat_install_interrupt(void)
{
    signal(SIGINT, on_sigint);
}

int plat_interrupted(void)
{
    return g_interrupted != 0;
}

