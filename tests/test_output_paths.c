#define _DEFAULT_SOURCE /* symlink */
/* Which files an output is, and which it owns:
 * - output_check_distinct (io/output_guard.c) refuses two paths of one file:
 *   the same text, ./t.csv and t.csv, dir/../t.csv, a symbolic link to the
 *   file, a name under a linked folder, whether the file is there yet or
 *   not (on Windows also t.csv and T.CSV, and either separator); it lets two
 *   files of their own pass (another name, another folder, NULL; T.csv on
 *   POSIX);
 * - plat_lock_remove_temps (common/plat_lock.c) removes only the temporary
 *   files a killed evolve left, OUT.tmp.<pid>, and leaves every other file
 *   alone: the user's OUT.tmp.notes, OUT.tmp., OUT.tmp.12a, OUT.tmpx.5,
 *   OUTX.tmp.7, OUT.bak.1, OUT.old.20, OUT itself, and another output's
 *   big.h5.tmp.77 (a name of OUT's length);
 * - output_check_text replaces an empty file or one that begins with a mark
 *   of the command, never another; output_check_json a JSON object with
 *   both "mode" and "lattice_size", not one with only one of them, nor a new
 *   file in a folder that is not there (io/output_guard.h).
 * The files of an earlier run are removed first. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/plat_lock.h"
#include "common/platform.h"
#include "io/output_guard.h"
#include "tests/check.h"

#ifndef _WIN32
#include <unistd.h>
#endif

#define DIR "tmp_output_paths"

static void touch(const char *path)
{
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (f) {
        fputs("mine\n", f);
        fclose(f);
    }
}

static int there(const char *path)
{
    plat_stat_t st;
    return plat_stat(path, &st) == 0;
}

static void refused(const char *a, const char *b)
{
    ev_error err;
    ev_status st = output_check_distinct(a, "--csv output", b, "--metrics output", &err);
    printf("%s vs %s: %s\n", a, b, st == EV_OK ? "distinct" : err.msg);
    CHECK_EQ_I64(EV_EIO, st);
    if (st != EV_OK)
        CHECK_CONTAINS(err.msg, "the --csv output would overwrite the --metrics output");
}

static void distinct(const char *a, const char *b)
{
    ev_error err;
    ev_status st = output_check_distinct(a, "--csv output", b, "--metrics output", &err);
    printf("%s vs %s: %s\n", a ? a : "NULL", b ? b : "NULL", st == EV_OK ? "distinct" : err.msg);
    CHECK_EQ_I64(EV_OK, st);
}

/* Every file an earlier run of this test left (they would be "there"). */
static void clean(void)
{
    static const char *const left[] = {"t.csv",
                                       "link.csv",
                                       "linked",
                                       "sub/new.csv",
                                       "temps/out.h5",
                                       "temps/out.h5.tmp.notes",
                                       "temps/out.h5.tmp.",
                                       "temps/out.h5.tmp.12a",
                                       "temps/out.h5.tmpx.5",
                                       "temps/big.h5.tmp.77",
                                       "temps/out.h5x.tmp.7",
                                       "temps/other.h5.tmp.9",
                                       "temps/out.h5.lock",
                                       "temps/out.h5.bak.1",
                                       "temps/out.h5.old.20",
                                       "temps/out.h5.tmp.123",
                                       "temps/out.h5.tmp.4"};
    char path[256];
    for (size_t i = 0; i < sizeof left / sizeof left[0]; i++) {
        snprintf(path, sizeof path, DIR "/%s", left[i]);
        remove(path);
    }
}

static void test_same_file(void)
{
    ev_error err;
    CHECK(plat_mkdirs(DIR "/sub", &err) == EV_OK);
    /* not there yet */
    refused(DIR "/t.csv", DIR "/t.csv");
    refused(DIR "/t.csv", DIR "/./t.csv");
    refused(DIR "/sub/../t.csv", DIR "/t.csv");
    distinct(DIR "/t.csv", DIR "/u.csv");
    distinct(DIR "/t.csv", DIR "/sub/t.csv");
#ifdef _WIN32 /* one file there: either separator, names without case */
    refused(DIR "\\t.csv", DIR "/t.csv");
    refused(DIR "/sub\\..\\T.CSV", DIR "/t.csv");
#else
    distinct(DIR "/T.csv", DIR "/t.csv");
#endif
    distinct(DIR "/t.csv", NULL);
    distinct(NULL, DIR "/t.csv");
    /* there */
    touch(DIR "/t.csv");
    refused(DIR "/./t.csv", DIR "/t.csv");
    refused(DIR "/sub/../t.csv", DIR "/t.csv");
    distinct(DIR "/t.csv", DIR "/sub/t.csv");
#ifndef _WIN32
    CHECK(symlink("t.csv", DIR "/link.csv") == 0);
    CHECK(symlink("sub", DIR "/linked") == 0);
    refused(DIR "/link.csv", DIR "/t.csv");
    refused(DIR "/linked/new.csv", DIR "/sub/new.csv"); /* a linked folder, the file not there yet */
    touch(DIR "/sub/new.csv");
    refused(DIR "/linked/new.csv", DIR "/sub/new.csv");
    distinct(DIR "/linked/new.csv", DIR "/new.csv");
#endif
}

/* What was written to f, from its start (caller frees). */
static char *read_back(FILE *f)
{
    long n;
    char *s;
    fflush(f);
    n = ftell(f);
    if (n < 0 || !(s = (char *)malloc((size_t)n + 1)))
        return NULL;
    rewind(f);
    s[fread(s, 1, (size_t)n, f)] = '\0';
    return s;
}

static void test_temps(void)
{
    static const char *const kept[] = {"out.h5",        "out.h5.tmp.notes", "out.h5.tmp.",    "out.h5.tmp.12a",
                                       "out.h5.tmpx.5", "out.h5x.tmp.7",    "other.h5.tmp.9", "out.h5.lock",
                                       "out.h5.bak.1",  "out.h5.old.20",    "big.h5.tmp.77"};
    static const char *const removed[] = {"out.h5.tmp.123", "out.h5.tmp.4"};
    char path[256], *log_text;
    FILE *log = tmpfile();
    ev_error err;
    CHECK(plat_mkdirs(DIR "/temps", &err) == EV_OK);
    for (size_t i = 0; i < sizeof kept / sizeof kept[0]; i++) {
        snprintf(path, sizeof path, DIR "/temps/%s", kept[i]);
        touch(path);
    }
    for (size_t i = 0; i < sizeof removed / sizeof removed[0]; i++) {
        snprintf(path, sizeof path, DIR "/temps/%s", removed[i]);
        touch(path);
    }
    plat_lock_remove_temps(DIR "/temps/out.h5", log);
    for (size_t i = 0; i < sizeof kept / sizeof kept[0]; i++) {
        snprintf(path, sizeof path, DIR "/temps/%s", kept[i]);
        if (!there(path))
            printf("removed a file evolve did not write: %s\n", path);
        CHECK(there(path));
    }
    for (size_t i = 0; i < sizeof removed / sizeof removed[0]; i++) {
        snprintf(path, sizeof path, DIR "/temps/%s", removed[i]);
        CHECK(!there(path));
    }
    CHECK(log != NULL);
    if (!log)
        return;
    log_text = read_back(log);
    printf("%s", log_text ? log_text : "");
    CHECK(log_text && strstr(log_text, "removed " DIR "/temps/out.h5.tmp.123, left by process 123") != NULL);
    CHECK(log_text && strstr(log_text, "notes") == NULL);
    free(log_text);
    fclose(log);
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

/* status of a check on a file holding text (NULL: no file). */
static ev_status kind_of(const char *text, int json)
{
    static const char *const marks[] = {"trade_id,", NULL};
    const char *path = json ? DIR "/kinds/out.json" : DIR "/kinds/out.csv";
    ev_error err;
    ev_status st;
    remove(path);
    if (text)
        write_text(path, text);
    st = json ? output_check_json(path, "--json output", &err) : output_check_text(path, "--csv output", marks, &err);
    if (st != EV_OK)
        CHECK_CONTAINS(err.msg, path);
    return st;
}

static void test_kinds(void)
{
    ev_error err;
    CHECK(plat_mkdirs(DIR "/kinds", &err) == EV_OK);
    CHECK_EQ_I64(EV_OK, kind_of(NULL, 0));
    CHECK_EQ_I64(EV_OK, kind_of("", 0));
    CHECK_EQ_I64(EV_OK, kind_of("trade_id,part\n1,in_sample\n", 0));
    CHECK_EQ_I64(EV_EIO, kind_of("my notes\n", 0));
    CHECK_EQ_I64(EV_EIO, kind_of("trade_i", 0));
    CHECK_EQ_I64(EV_OK, kind_of(NULL, 1));
    CHECK_EQ_I64(EV_OK, kind_of("{\"mode\": \"ga\", \"lattice_size\": 81}", 1));
    CHECK_EQ_I64(EV_EIO, kind_of("{\"mode\": \"ga\"}", 1));
    CHECK_EQ_I64(EV_EIO, kind_of("{\"lattice_size\": 81}", 1));
    CHECK_EQ_I64(EV_EIO, kind_of("[\"mode\", \"lattice_size\"]", 1));
    CHECK_EQ_I64(EV_EIO, output_check_json(DIR "/kinds/none/out.json", "--json output", &err));
    CHECK_CONTAINS(err.msg, "is not there");
}

int main(void)
{
    clean();
    test_same_file();
    test_temps();
    test_kinds();
    return check_exit();
}
