/* The path helpers of common/plat_path.h: joining, splitting, absolute and
 * relative paths. POSIX paths have one root, "/"; Windows paths a drive
 * ("C:\"), either separator, and names compared without case (NTFS's default),
 * and a link is resolved by the file system (GetFinalPathNameByHandle) rather
 * than realpath. */
#define _POSIX_C_SOURCE 200809L
#define _XOPEN_SOURCE 700 /* realpath */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/plat_path.h"
#include "common/platform.h" /* plat_pid */
#include "common/strutil.h"

#ifdef _WIN32
#include <windows.h>
#else
#include <unistd.h>
#endif

static int is_sep(char c)
{
#ifdef _WIN32
    return c == '/' || c == '\\';
#else
    return c == '/';
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

int plat_name_equal(const char *a, const char *b, size_t n)
{
#ifdef _WIN32
    for (size_t i = 0; i < n; i++)
        if (tolower((unsigned char)a[i]) != tolower((unsigned char)b[i]))
            return 0;
    return 1;
#else
    return memcmp(a, b, n) == 0;
#endif
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

#ifdef _WIN32
/* "\\?\C:\x" -> "C:\x" and "\\?\UNC\srv\x" -> "\\srv\x", in place: the
 * long-path form GetFinalPathNameByHandle answers in, which few programs take. */
static void drop_long_prefix(char *p)
{
    if (strncmp(p, "\\\\?\\UNC\\", 8) == 0)
        memmove(p + 2, p + 8, strlen(p + 8) + 1);
    else if (strncmp(p, "\\\\?\\", 4) == 0)
        memmove(p, p + 4, strlen(p + 4) + 1);
}

/* An existing file's path with every link resolved (as realpath), or NULL. */
static char *final_path(const char *path)
{
    const DWORD how = FILE_NAME_NORMALIZED | VOLUME_NAME_DOS;
    HANDLE h = CreateFileA(path, FILE_READ_ATTRIBUTES, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL,
                           OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS, NULL);
    DWORD n;
    char *out = NULL;
    if (h == INVALID_HANDLE_VALUE)
        return NULL;
    n = GetFinalPathNameByHandleA(h, NULL, 0, how); /* the size, NUL included */
    if (n && (out = (char *)malloc(n + 1)) != NULL) {
        DWORD got = GetFinalPathNameByHandleA(h, out, n + 1, how);
        if (got == 0 || got > n) {
            free(out);
            out = NULL;
        } else {
            drop_long_prefix(out);
        }
    }
    CloseHandle(h);
    return out;
}

char *plat_abs_path(const char *path)
{
    char *out = final_path(path);
    DWORD n;
    size_t len;
    if (out)
        return out;
    /* not there (yet): made absolute against the working directory, "." and ".." dropped */
    n = GetFullPathNameA(path, 0, NULL, NULL);
    if (n == 0 || !(out = (char *)malloc(n)))
        return NULL;
    if (GetFullPathNameA(path, n, out, NULL) >= n) {
        free(out);
        return NULL;
    }
    len = strlen(out);
    if (len > 3 && is_sep(out[len - 1])) /* "C:\a\" -> "C:\a", as realpath */
        out[len - 1] = '\0';
    return out;
}
#else
/* Drops "." and "x/.." components of an absolute '/' path, in place. */
static void normalize_abs(char *p)
{
    char *out = p + 1, *in = p + 1;
    while (*in) {
        size_t n = strcspn(in, "/");
        const int more = in[n] == '/'; /* read before out may overwrite in[n] */
        if ((n == 1 && in[0] == '.') || n == 0) {
            /* skip */
        } else if (n == 2 && in[0] == '.' && in[1] == '.') {
            if (out > p + 1) {
                out--; /* the '/' after the last kept component */
                while (out > p + 1 && out[-1] != '/')
                    out--;
            }
        } else {
            memmove(out, in, n);
            out += n;
            *out++ = '/';
        }
        if (!more)
            break;
        in += n + 1;
    }
    if (out > p + 1)
        out--;
    *out = '\0';
}

char *plat_abs_path(const char *path)
{
    char *real = realpath(path, NULL), *cwd, *out;
    if (real || plat_path_is_abs(path)) {
        out = real ? real : ev_strdup(path);
    } else {
        if (!(cwd = getcwd(NULL, 0)))
            return NULL;
        out = plat_path_join(cwd, path);
        free(cwd);
    }
    if (out && out[0] == '/')
        normalize_abs(out);
    return out;
}
#endif

/* The length of an absolute path's root: 1 for "/" (POSIX), 3 for a drive's
 * "C:\" or "C:/" (Windows); 0 for any other path. */
static size_t root_len(const char *p)
{
#ifdef _WIN32
    return isalpha((unsigned char)p[0]) && p[1] == ':' && is_sep(p[2]) ? 3 : 0;
#else
    return p[0] == '/' ? 1 : 0;
#endif
}

/* Past the separators at p. */
static const char *skip_seps(const char *p)
{
    while (*p && is_sep(*p))
        p++;
    return p;
}

static size_t name_len(const char *p)
{
    size_t n = 0;
    while (p[n] && !is_sep(p[n]))
        n++;
    return n;
}

char *plat_path_relative(const char *from_dir, const char *to)
{
    size_t root = root_len(from_dir), ups = 0, n, k;
    const char *f, *t;
    char *out;
    if (!root || root_len(to) != root || !plat_name_equal(from_dir, to, 1))
        return NULL; /* not absolute, or another drive */
    f = skip_seps(from_dir + root);
    t = skip_seps(to + root);
    /* past the leading folders the two share */
    while (*f && (n = name_len(f)) == name_len(t) && plat_name_equal(f, t, n)) {
        f = skip_seps(f + n);
        t = skip_seps(t + n);
    }
    for (; *f; f = skip_seps(f + name_len(f)))
        ups++;
    if (!(out = (char *)malloc(3 * ups + strlen(t) + 2)))
        return NULL;
    for (k = 0; k < 3 * ups; k += 3)
        memcpy(out + k, "../", 3);
    for (; *t; t++) /* '/' on every platform: a run file moved to another system still resolves it */
        out[k++] = is_sep(*t) ? '/' : *t;
    if (k > 0 && out[k - 1] == '/')
        k--;
    if (k == 0)
        out[k++] = '.';
    out[k] = '\0';
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
