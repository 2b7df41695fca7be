/* A report file written whole or not at all. */
#include "report/out_file.h"

#include <stdlib.h>
#include <string.h>

#include "common/platform.h"
#include "io/output_guard.h"

ev_status out_file_check(const char *dir, const char *name, const char *what, const char *const *marks, ev_error *err)
{
    char *path = plat_path_join(dir, name);
    ev_status st = path ? output_check_text(path, what, marks, err) : ev_fail(err, EV_ENOMEM, "out of memory");
    free(path);
    return st;
}

ev_status out_file_write(const char *dir, const char *name, const char *what, const char *const *marks,
                         out_body_fn body, const void *ctx, FILE *log, ev_error *err)
{
    char *path, *tmp;
    FILE *f;
    ev_status st = out_file_check(dir, name, what, marks, err);
    if (st != EV_OK)
        return st;
    path = plat_path_join(dir, name);
    tmp = path ? plat_temp_name(path) : NULL;
    f = tmp ? fopen(tmp, "wb") : NULL;
    if (!path || !tmp)
        st = ev_fail(err, EV_ENOMEM, "out of memory");
    else if (!f)
        st = ev_fail(err, EV_EIO, "%s: cannot write it (is the directory writable?)", path);
    if (f) {
        int e;
        body(f, ctx);
        if ((e = plat_fclose_written(f)) != 0)
            st = ev_fail(err, EV_EIO, "%s: cannot write it: %s", path, strerror(e));
        if (st == EV_OK)
            st = plat_rename_replace(tmp, path, err);
        if (st != EV_OK)
            plat_remove(tmp);
    }
    if (st == EV_OK && log)
        fprintf(log, "report: wrote %s\n", path);
    free(tmp);
    free(path);
    return st;
}
