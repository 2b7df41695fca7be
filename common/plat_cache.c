/* plat_cache_dir, plat_touch (common/plat_cache.h). */
#include "common/plat_cache.h"

#include <stdlib.h>

#ifdef _WIN32
#include <windows.h>
#else
#include <utime.h>
#endif

#include "common/platform.h"
#include "common/strutil.h"

static const char *env_set(const char *name)
{
    const char *v = getenv(name);
    return v && v[0] ? v : NULL;
}

char *plat_cache_dir(void)
{
    const char *v = env_set("EVOLVE_CACHE_DIR");
    if (v)
        return ev_strdup(v);
#ifdef _WIN32
    v = env_set("LOCALAPPDATA");
    return v ? plat_path_join(v, "evolve\\cache") : NULL;
#else
    /* the XDG base directory rules: a relative XDG_CACHE_HOME is ignored */
    if ((v = env_set("XDG_CACHE_HOME")) && plat_path_is_abs(v))
        return plat_path_join(v, "evolve");
    v = env_set("HOME");
    return v ? plat_path_join(v, ".cache/evolve") : NULL;
#endif
}

int plat_touch(const char *path)
{
#ifdef _WIN32
    /* not _utime(path, NULL): it sets whole seconds, so a touch within the
     * second of the last write would leave the time as it was */
    FILETIME now;
    BOOL ok;
    HANDLE h = CreateFileA(path, FILE_WRITE_ATTRIBUTES, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL,
                           OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, NULL);
    if (h == INVALID_HANDLE_VALUE)
        return -1;
    GetSystemTimeAsFileTime(&now);
    ok = SetFileTime(h, NULL, NULL, &now);
    CloseHandle(h);
    return ok ? 0 : -1;
#else
    return utime(path, NULL);
#endif
}
