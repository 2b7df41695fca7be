#define _POSIX_C_SOURCE 200809L
#define _XOPEN_SOURCE 700 /* realpath */
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
#include <fcntl.h>
#include <unistd.h>
#endif

#include "common/strutil.h"

#ifdef _WIN32
typedef struct _stat64 stat_buf_t;
#define IS_REGULAR(m) (((m)&_S_IFMT) == _S_IFREG)
#define IS_DIR(m) (((m)&_S_IFMT) == _S_IFDIR)
#else
typedef struct stat stat_buf_t;
#define IS_REGULAR(m) S_ISREG(m)
#define IS_DIR(m) S_ISDIR(m)
#endif

#ifdef _WIN32
/* The file's identity (its volume's serial number and its file index) and its
 * modification time to 100 ns, which _stat64 gives neither of (st_ino is 0,
 * st_mtime whole seconds: a file rewritten within the second would look
 * unchanged to the hash memo). Left as _stat64 gave them when the file cannot
 * be opened for its attributes. */
static void win_identity(const char *path, plat_stat_t *st)
{
    BY_HANDLE_FILE_INFORMATION fi;
    /* FILE_FLAG_BACKUP_SEMANTICS: a directory opens too (output_guard compares folders) */
    HANDLE h = CreateFileA(path, FILE_READ_ATTRIBUTES, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL,
                           OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS, NULL);
    BOOL ok;
    if (h == INVALID_HANDLE_VALUE)
        return;
    ok = GetFileInformationByHandle(h, &fi);
    CloseHandle(h);
    if (!ok)
        return;
    st->dev = (uint64_t)fi.dwVolumeSerialNumber;
    st->ino = (uint64_t)fi.nFileIndexHigh << 32 | fi.nFileIndexLow;
    /* FILETIME: 100-ns ticks since 1601-01-01; 11644473600 s before the Unix epoch */
    st->mtime_ns = ((int64_t)((uint64_t)fi.ftLastWriteTime.dwHighDateTime << 32 | fi.ftLastWriteTime.dwLowDateTime) -
                    116444736000000000LL) *
                   100;
}
#endif

static void from_stat(const char *path, const stat_buf_t *s, plat_stat_t *st)
{
    st->size = (int64_t)s->st_size;
    st->dev = (uint64_t)s->st_dev;
    st->is_dir = IS_DIR(s->st_mode);
#ifdef _WIN32
    st->mtime_ns = (int64_t)s->st_mtime * 1000000000LL;
    st->ino = 0;
    win_identity(path, st);
#else
    (void)path;
    st->mtime_ns = (int64_t)s->st_mtim.tv_sec * 1000000000LL + s->st_mtim.tv_nsec;
    st->ino = (uint64_t)s->st_ino;
#endif
}

static int stat_path(const char *path, stat_buf_t *s)
{
#ifdef _WIN32
    return _stat64(path, s);
#else
    return stat(path, s);
#endif
}

int plat_stat(const char *path, plat_stat_t *st)
{
    stat_buf_t s;
    if (stat_path(path, &s) != 0)
        return -1;
    from_stat(path, &s, st);
    return 0;
}

/* What a path that exists but is not a regular file is, in words. */
static const char *kind_of(unsigned mode)
{
#ifdef _WIN32
    if (IS_DIR(mode))
        return "is a directory";
    if ((mode & _S_IFMT) == _S_IFCHR)
        return "is a device";
    if ((mode & _S_IFMT) == _S_IFIFO)
        return "is a pipe";
#else
    if (S_ISDIR(mode))
        return "is a directory";
    if (S_ISFIFO(mode))
        return "is a named pipe (FIFO)";
    if (S_ISCHR(mode) || S_ISBLK(mode))
        return "is a device";
    if (S_ISSOCK(mode))
        return "is a socket";
#endif
    return "is not a regular file";
}

/* The error for a path that cannot be stat'ed (errno e): a symbolic link
 * whose target is missing is named as such, not as a missing file. */
static ev_status unreachable(const char *path, const char *expected, int e, ev_error *err)
{
    int dangling = 0;
#ifdef _WIN32
    DWORD a = GetFileAttributesA(path);
    dangling = e == ENOENT && a != INVALID_FILE_ATTRIBUTES && (a & FILE_ATTRIBUTE_REPARSE_POINT);
#else
    struct stat ls;
    dangling = e == ENOENT && lstat(path, &ls) == 0 && S_ISLNK(ls.st_mode);
#endif
    if (dangling)
        return ev_fail(err, EV_EIO,
                       "%s: is a dangling symbolic link (its target does not exist); "
                       "expected %s",
                       path, expected);
    if (e == ENOENT)
        return ev_fail(err, EV_EIO, "%s: no such file; expected %s", path, expected);
    return ev_fail(err, EV_EIO, "%s: cannot access it: %s; expected %s", path, strerror(e), expected);
}

ev_status plat_check_input(const char *path, const char *expected, plat_stat_t *st, ev_error *err)
{
    stat_buf_t s;
    if (stat_path(path, &s) != 0)
        return unreachable(path, expected, errno, err);
    if (!IS_REGULAR(s.st_mode))
        return ev_fail(err, EV_EIO, "%s: %s; expected %s", path, kind_of((unsigned)s.st_mode), expected);
    if (st)
        from_stat(path, &s, st);
    return EV_OK;
}

/* Opens a path that plat_check_input has passed; the file opened must still
 * be a regular file. */
static FILE *open_checked(const char *path, const char *expected, ev_error *err)
{
    stat_buf_t s;
    FILE *f;
#ifdef _WIN32
    if (!(f = fopen(path, "rb"))) {
        ev_fail(err, EV_EIO, "%s: cannot open the file: %s", path, strerror(errno));
        return NULL;
    }
    if (_fstat64(_fileno(f), &s) != 0 || !IS_REGULAR(s.st_mode)) {
        fclose(f);
        ev_fail(err, EV_EIO, "%s: is not a regular file; expected %s", path, expected);
        return NULL;
    }
#else
    /* O_NONBLOCK: opening a FIFO that was swapped in does not wait for a writer. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC), flags;
    if (fd < 0) {
        ev_fail(err, EV_EIO, "%s: cannot open the file: %s", path, strerror(errno));
        return NULL;
    }
    if (fstat(fd, &s) != 0 || !S_ISREG(s.st_mode) || (flags = fcntl(fd, F_GETFL)) < 0 ||
        fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0 || !(f = fdopen(fd, "rb"))) {
        close(fd);
        ev_fail(err, EV_EIO, "%s: is not a regular file that can be read; expected %s", path, expected);
        return NULL;
    }
#endif
    return f;
}

FILE *plat_open_input(const char *path, const char *expected, ev_error *err)
{
    if (plat_check_input(path, expected, NULL, err) != EV_OK)
        return NULL;
    return open_checked(path, expected, err);
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

int plat_fclose_written(FILE *f)
{
    int e = ferror(f) ? (errno ? errno : EIO) : 0;
    errno = 0;
    if (fclose(f) != 0 && !e)
        e = errno ? errno : EIO;
    return e;
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

void plat_setenv(const char *name, const char *value)
{
#ifdef _WIN32
    (void)_putenv_s(name, value);
#else
    (void)setenv(name, value, 1);
#endif
}

void plat_setenv_default(const char *name, const char *value)
{
    if (getenv(name))
        return;
#ifdef _WIN32
    (void)_putenv_s(name, value);
#else
    (void)setenv(name, value, 0);
#endif
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

/* Recursive per thread: a callback of a run that holds it may read a run file. */
static _Thread_local int hdf5_depth;
#ifdef _WIN32
static SRWLOCK hdf5_lock = SRWLOCK_INIT;
void plat_hdf5_lock(void)
{
    if (hdf5_depth++ == 0)
        AcquireSRWLockExclusive(&hdf5_lock);
}
void plat_hdf5_unlock(void)
{
    if (--hdf5_depth == 0)
        ReleaseSRWLockExclusive(&hdf5_lock);
}
#else
#include <pthread.h>
static pthread_mutex_t hdf5_lock = PTHREAD_MUTEX_INITIALIZER;
void plat_hdf5_lock(void)
{
    if (hdf5_depth++ == 0)
        pthread_mutex_lock(&hdf5_lock);
}
void plat_hdf5_unlock(void)
{
    if (--hdf5_depth == 0)
        pthread_mutex_unlock(&hdf5_lock);
}
#endif
