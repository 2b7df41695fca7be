/* The platform layer: path helpers, file identity, listing, atomic replace. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/plat_cache.h"
#include "common/platform.h"
#include "tests/check.h"

/* plat_path_relative on each platform's absolute paths; NULL: none. */
static void test_relative(void)
{
    static const char *const rel[][3] = {
#ifdef _WIN32
        {"C:\\a\\b", "C:\\a\\c\\x.h5", "../c/x.h5"},
        {"c:/a/b", "C:\\A\\b\\x.h5", "x.h5"}, /* one file system's names: no case */
        {"C:\\a\\bc", "C:\\a\\b\\x.h5", "../b/x.h5"},
        {"C:\\", "C:\\x.h5", "x.h5"},
        {"C:\\a\\b\\c", "C:/x.h5", "../../../x.h5"},
        {"C:\\a", "D:\\a\\x.h5", NULL}, /* another drive */
        {"\\\\srv\\share", "\\\\srv\\share\\x.h5", NULL},
#else
        {"/a/b", "/a/c/x.h5", "../c/x.h5"},  {"/a/b", "/a/b/x.h5", "x.h5"}, {"/a/b", "/a/b/c/x.h5", "c/x.h5"},
        {"/a/bc", "/a/b/x.h5", "../b/x.h5"}, {"/", "/x.h5", "x.h5"},        {"/a/b/c", "/x.h5", "../../../x.h5"},
        {"/a/B", "/a/b/x.h5", "../b/x.h5"}, /* names with their case */
        {"/a//b/", "/a/b//x.h5", "x.h5"},
#endif
        {"rel/a", "rel/a/x.h5", NULL},
    };
    for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
        char *s = plat_path_relative(rel[i][0], rel[i][1]);
        printf("%s from %s: %s\n", rel[i][1], rel[i][0], s ? s : "NULL");
        if (rel[i][2])
            CHECK_STR(rel[i][2], s);
        else
            CHECK(s == NULL);
        free(s);
    }
}

/* plat_abs_path of paths not there: "." and ".." dropped, from the root. */
static void test_abs(void)
{
    char *s;
#ifdef _WIN32
    s = plat_abs_path("C:\\no_such_a\\.\\b\\..\\c\\");
    CHECK_STR("C:\\no_such_a\\c", s);
    free(s);
    s = plat_abs_path("no_such_dir/../x.h5");
    CHECK(s && s[1] == ':' && s[2] == '\\' && !strstr(s, "..") && strstr(s, "\\x.h5"));
#else
    s = plat_abs_path("/a/./b/../c/");
    CHECK_STR("/a/c", s);
    free(s);
    s = plat_abs_path("no_such_dir/../x.h5");
    CHECK(s && s[0] == '/' && !strstr(s, "..") && strstr(s, "/x.h5"));
#endif
    free(s);
}

/* Files that are there: one identity and one absolute path whatever the
 * spelling, another for another file; a touch moves the modification time
 * even within the second of the last write (the hash memo relies on both). */
static void test_identity(void)
{
    plat_stat_t a, b, c;
    char *x = plat_abs_path("tmp_platform/x/b.txt"), *y = plat_abs_path("tmp_platform/x/y/.././b.txt");
    char *dir = plat_abs_path("tmp_platform"), *r = x && dir ? plat_path_relative(dir, x) : NULL;
    CHECK(plat_stat("tmp_platform/x", &a) == 0 && plat_stat("tmp_platform/x/y/..", &b) == 0 &&
          plat_stat("tmp_platform/x/y", &c) == 0);
    CHECK(a.ino != 0 && a.ino == b.ino && a.dev == b.dev);
    CHECK(c.ino != a.ino);
    CHECK(plat_same_file("tmp_platform/x/./b.txt", "tmp_platform/x/y/../b.txt"));
    CHECK(!plat_same_file("tmp_platform/x/b.txt", "tmp_platform/x/y"));
#ifdef _WIN32
    CHECK(plat_same_file("tmp_platform/X/B.TXT", "tmp_platform/x/b.txt"));
#endif
    printf("%s = %s; from %s: %s\n", x ? x : "NULL", y ? y : "NULL", dir ? dir : "NULL", r ? r : "NULL");
    CHECK(x && y && strcmp(x, y) == 0 && plat_path_is_abs(x));
    CHECK_STR("x/b.txt", r);
    free(x);
    free(y);
    free(dir);
    free(r);
    CHECK(plat_stat("tmp_platform/x/b.txt", &a) == 0);
    plat_sleep_ms(20);
    CHECK(plat_touch("tmp_platform/x/b.txt") == 0 && plat_stat("tmp_platform/x/b.txt", &b) == 0);
    printf("touched: %lld ns later\n", (long long)(b.mtime_ns - a.mtime_ns));
    CHECK(b.mtime_ns > a.mtime_ns && b.mtime_ns - a.mtime_ns < 60000000000LL);
}

int main(void)
{
    ev_error err;
    char *s;
    char **names;
    size_t n;
    FILE *f;

    s = plat_path_join("configs", "../data/x.csv");
    CHECK_STR("configs/../data/x.csv", s);
    free(s);
    s = plat_path_join("configs", "/abs/x.csv");
    CHECK_STR("/abs/x.csv", s);
    free(s);
    s = plat_dirname("a/b/c.yaml");
    CHECK_STR("a/b", s);
    free(s);
    s = plat_dirname("c.yaml");
    CHECK_STR(".", s);
    free(s);
    CHECK_STR("c.yaml", plat_basename("a/b/c.yaml"));
    test_relative();
    test_abs();

    CHECK(plat_mkdirs("tmp_platform/x/y", &err) == EV_OK);
    f = fopen("tmp_platform/x/b.txt", "w");
    CHECK(f != NULL);
    if (f)
        fclose(f);
    f = fopen("tmp_platform/x/a.txt", "w");
    if (f) {
        fputs("new", f);
        fclose(f);
    }
    CHECK(plat_list_dir("tmp_platform/x", &names, &n, &err) == EV_OK);
    CHECK_EQ_I64(3, n);
    if (n == 3) {
        CHECK_STR("a.txt", names[0]);
        CHECK_STR("b.txt", names[1]);
        CHECK_STR("y", names[2]);
    }
    plat_free_names(names, n);
    CHECK(plat_rename_replace("tmp_platform/x/a.txt", "tmp_platform/x/b.txt", &err) == EV_OK);
    {
        plat_stat_t st;
        CHECK(plat_stat("tmp_platform/x/b.txt", &st) == 0 && st.size == 3);
        CHECK(plat_stat("tmp_platform/x/a.txt", &st) != 0);
    }
    test_identity();
    CHECK(plat_list_dir("tmp_platform/missing", &names, &n, &err) == EV_EIO);
    CHECK_CONTAINS(err.msg, "tmp_platform/missing");

    /* Inputs: only a regular file is read (named pipes and symbolic links are
     * in test_ingest_badinput.py, which can make them on every POSIX system). */
    {
        plat_stat_t st;
        CHECK(plat_check_input("tmp_platform/x/b.txt", "a file", &st, &err) == EV_OK && st.size == 3);
        f = plat_open_input("tmp_platform/x/b.txt", "a file", &err);
        CHECK(f != NULL);
        if (f)
            fclose(f);
        CHECK(plat_open_input("tmp_platform/x/y", "a text file", &err) == NULL);
        CHECK_CONTAINS(err.msg, "tmp_platform/x/y: is a directory; expected a text file");
        CHECK(plat_check_input("tmp_platform/x/none", "a text file", &st, &err) == EV_EIO);
        CHECK_CONTAINS(err.msg, "tmp_platform/x/none: no such file; expected a text file");
#ifndef _WIN32
        CHECK(plat_check_input("/dev/null", "a text file", &st, &err) == EV_EIO); /* stat only */
        CHECK_CONTAINS(err.msg, "/dev/null: is a device; expected a text file");
#endif
    }
    return check_exit();
}
