#include "runs/run_paths.h"

#include <stdlib.h>
#include <string.h>

#include "common/plat_lock.h"
#include "common/platform.h"

static char *concat(const char *a, size_t a_len, const char *b)
{
    size_t nb = strlen(b);
    char *s = (char *)malloc(a_len + nb + 1);
    if (s) {
        memcpy(s, a, a_len);
        memcpy(s + a_len, b, nb + 1);
    }
    return s;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n > m && !strcmp(s + n - m, suffix);
}

static int exists(const char *path)
{
    plat_stat_t st;
    return plat_stat(path, &st) == 0;
}

static ev_status make_from(run_paths_t *p, const char *final, size_t final_len, ev_error *err)
{
    memset(p, 0, sizeof *p);
    p->final_path = concat(final, final_len, "");
    p->partial_path = concat(final, final_len, RUN_PARTIAL_SUFFIX);
    p->ckpt_path = concat(final, final_len, RUN_PARTIAL_SUFFIX RUN_CKPT_SUFFIX);
    p->lock_path = concat(final, final_len, ".lock");
    if (!p->final_path || !p->partial_path || !p->ckpt_path || !p->lock_path) {
        run_paths_free(p);
        return ev_fail(err, EV_ENOMEM, "out of memory");
    }
    return EV_OK;
}

ev_status run_paths_make(run_paths_t *p, const char *output, ev_error *err)
{
    return make_from(p, output, strlen(output), err);
}

/* The paths of the run `given` names by any of its files. */
static ev_status make_given(run_paths_t *p, const char *given, ev_error *err)
{
    size_t n = strlen(given);
    if (ends_with(given, RUN_PARTIAL_SUFFIX RUN_CKPT_SUFFIX))
        n -= strlen(RUN_PARTIAL_SUFFIX RUN_CKPT_SUFFIX);
    else if (ends_with(given, RUN_PARTIAL_SUFFIX))
        n -= strlen(RUN_PARTIAL_SUFFIX);
    return make_from(p, given, n, err);
}

ev_status run_paths_for_resume(run_paths_t *p, const char *given, ev_error *err)
{
    ev_status st;
    if ((st = make_given(p, given, err)) != EV_OK)
        return st;
    /* a checkpoint without its run file is something to resume only when no
     * finished run exists (a kill between the final rename and the
     * checkpoint's removal leaves a finished run and a stale checkpoint) */
    if (exists(p->partial_path) || (!exists(p->final_path) && exists(p->ckpt_path)))
        return EV_OK;
    st = exists(p->final_path)
             ? ev_fail(err, EV_EIO, "%s: a finished run, nothing to resume (no %s)", p->final_path, p->partial_path)
             : ev_fail(err, EV_EIO, "%s: no run to resume (neither it nor %s exists)", given, p->partial_path);
    run_paths_free(p);
    return st;
}

int run_paths_live(const char *given, long *holder)
{
    run_paths_t p;
    plat_lock_t *lock = NULL;
    ev_error err;
    ev_status st;
    *holder = 0;
    if (make_given(&p, given, &err) != EV_OK)
        return -1;
    st = plat_lock_take(p.lock_path, &lock, holder, &err);
    plat_lock_release(lock); /* taken: nobody else held it, and the lock file goes */
    run_paths_free(&p);
    return st == EV_OK ? 0 : st == EV_EBUSY ? 1 : -1;
}

void run_paths_free(run_paths_t *p)
{
    free(p->final_path);
    free(p->partial_path);
    free(p->ckpt_path);
    free(p->lock_path);
    memset(p, 0, sizeof *p);
}

ev_status run_paths_make_dir(const run_paths_t *p, ev_error *err)
{
    char *dir = plat_dirname(p->final_path);
    plat_stat_t st;
    ev_status s = EV_OK;
    if (!dir)
        return ev_fail(err, EV_ENOMEM, "out of memory");
    if (plat_stat(dir, &st) != 0)
        s = plat_mkdirs(dir, err);
    else if (!st.is_dir)
        s = ev_fail(err, EV_EIO, "%s: cannot write the run file there: %s is not a directory", p->final_path, dir);
    free(dir);
    return s;
}

void run_paths_remove_temps(const run_paths_t *p, FILE *log)
{
    plat_lock_remove_temps(p->final_path, log);
    plat_lock_remove_temps(p->partial_path, log);
    plat_lock_remove_temps(p->ckpt_path, log);
}
