/* The platform layer: path helpers, listing, atomic replace. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/platform.h"
#include "tests/check.h"

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
#ifndef _WIN32
    {
        static const char *const rel[][3] = {
            {"/a/b", "/a/c/x.h5", "../c/x.h5"},  {"/a/b", "/a/b/x.h5", "x.h5"}, {"/a/b", "/a/b/c/x.h5", "c/x.h5"},
            {"/a/bc", "/a/b/x.h5", "../b/x.h5"}, {"/", "/x.h5", "x.h5"},        {"/a/b/c", "/x.h5", "../../../x.h5"}};
        for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
            s = plat_path_relative(rel[i][0], rel[i][1]);
            CHECK_STR(rel[i][2], s);
            free(s);
        }
        s = plat_abs_path("/a/./b/../c/");
        CHECK_STR("/a/c", s);
        free(s);
        s = plat_abs_path("no_such_dir/../x.h5");
        CHECK(s && s[0] == '/' && !strstr(s, "..") && strstr(s, "/x.h5"));
        free(s);
    }
#endif

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
