/* What may be overwritten; see output_guard.h. */
#include "io/output_guard.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/platform.h"
#include "io/h5_util.h"

#define JSON_MAX_BYTES (256u << 20) /* a summary of 100,000 genomes is ~50 MiB */

static ev_status refuse(const char *path, const char *what, const char *found, const char *kind, ev_error *err)
{
    return ev_fail(err, EV_EIO,
                   "%s: refusing to overwrite it with the %s: it is %s, not %s (name a new file, or one evolve "
                   "wrote)",
                   path, what, found, kind);
}

/* 1: nothing there; 0: a file that may be inspected; -1: refused (err set). */
static int existing(const char *path, const char *what, const char *kind, ev_error *err)
{
    plat_stat_t ps;
    if (plat_stat(path, &ps) != 0)
        return 1;
    if (ps.is_dir) {
        refuse(path, what, "a directory", kind, err);
        return -1;
    }
    return 0;
}

ev_status output_check_h5(const char *path, const char *format, const char *what, const char *kind, ev_error *err)
{
    char *found = NULL;
    hid_t f;
    int ok;
    int e = existing(path, what, kind, err);
    if (e)
        return e > 0 ? EV_OK : EV_EIO;
    h5u_init();
    if (H5Fis_hdf5(path) <= 0) {
        H5Eclear2(H5E_DEFAULT);
        return refuse(path, what, "not an HDF5 file", kind, err);
    }
    if ((f = h5u_file_open(path, 0, NULL)) < 0)
        return refuse(path, what, "an HDF5 file evolve cannot open", kind, err);
    ok = h5u_exists(f, "format", 1) > 0 && h5u_read_attr_str(path, f, "format", &found, NULL) == EV_OK &&
         strcmp(found, format) == 0;
    free(found);
    H5Fclose(f);
    return ok ? EV_OK : refuse(path, what, "an HDF5 file of another kind", kind, err);
}

/* The file's text (NUL-terminated), or NULL when unreadable or too big. */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    long n;
    if (!f)
        return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && (unsigned long)n <= JSON_MAX_BYTES &&
        fseek(f, 0, SEEK_SET) == 0 && (buf = (char *)malloc((size_t)n + 1)) != NULL) {
        if (fread(buf, 1, (size_t)n, f) != (size_t)n) {
            free(buf);
            buf = NULL;
        } else {
            buf[n] = '\0';
        }
    }
    fclose(f);
    return buf;
}

/* EV_OK when the folder path would be written in is a directory. */
static ev_status folder_there(const char *path, const char *what, ev_error *err)
{
    char *dir = plat_dirname(path);
    plat_stat_t ps;
    ev_status st = EV_OK;
    if (!dir)
        return ev_fail(err, EV_ENOMEM, "out of memory");
    if (plat_stat(dir, &ps) != 0 || !ps.is_dir)
        st = ev_fail(err, EV_EIO, "%s: the folder %s is not there (%s): create it first, or name another file", path,
                     dir, what);
    free(dir);
    return st;
}

ev_status output_check_json(const char *path, const char *what, ev_error *err)
{
    static const char *const kind = "a JSON summary evolve wrote";
    char *text;
    cJSON *root;
    int ok;
    int e = existing(path, what, kind, err);
    if (e)
        return e > 0 ? folder_there(path, what, err) : EV_EIO;
    if (!(text = slurp(path)))
        return refuse(path, what, "a file evolve cannot read as a summary", kind, err);
    root = cJSON_Parse(text);
    free(text);
    ok = cJSON_IsObject(root) && cJSON_IsString(cJSON_GetObjectItemCaseSensitive(root, "mode")) &&
         cJSON_GetObjectItemCaseSensitive(root, "lattice_size") != NULL;
    cJSON_Delete(root);
    return ok ? EV_OK : refuse(path, what, "a file without the keys of one (mode, lattice_size)", kind, err);
}

ev_status output_check_text(const char *path, const char *what, const char *const *marks, ev_error *err)
{
    char head[1024];
    size_t n = 0;
    FILE *f;
    int e = existing(path, what, "a file this command wrote", err);
    if (e)
        return e > 0 ? EV_OK : EV_EIO;
    if ((f = fopen(path, "rb")) != NULL) {
        n = fread(head, 1, sizeof head, f);
        fclose(f);
    }
    if (!f)
        return ev_fail(err, EV_EIO, "%s: exists and cannot be read; not replacing it (%s)", path, what);
    if (n == 0)
        return EV_OK;
    for (; *marks; marks++) {
        size_t m = strlen(*marks);
        if (m <= n && memcmp(head, *marks, m) == 0)
            return EV_OK;
    }
    return ev_fail(err, EV_EIO, "%s: exists and is not a file this command wrote; not replacing it (%s)", path, what);
}

/* 1 when a and b name one file: the same text, the same file there (a link,
 * another spelling), or, for a file not written yet, the same name in the
 * same folder (./t.csv and t.csv, a linked folder; T.csv and t.csv on
 * Windows). */
static int same_place(const char *a, const char *b)
{
    const char *na = plat_basename(a), *nb = plat_basename(b);
    char *da, *db;
    int same;
    if (strcmp(a, b) == 0 || plat_same_file(a, b))
        return 1;
    if (strlen(na) != strlen(nb) || !plat_name_equal(na, nb, strlen(na)))
        return 0;
    da = plat_dirname(a);
    db = plat_dirname(b);
    same = da && db && (strcmp(da, db) == 0 || plat_same_file(da, db));
    free(da);
    free(db);
    return same;
}

ev_status output_check_distinct(const char *a, const char *a_what, const char *b, const char *b_what, ev_error *err)
{
    if (!a || !b || !same_place(a, b))
        return EV_OK;
    return ev_fail(err, EV_EIO, "%s: the %s would overwrite the %s (%s); give each output a file of its own", a, a_what,
                   b_what, b);
}
