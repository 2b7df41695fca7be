/* The path helpers of the platform layer (common/plat_path.c): joining,
 * splitting, absolute and relative paths, on POSIX and Windows alike.
 * common/platform.h includes it. */
#ifndef EVOLVE_PLAT_PATH_H
#define EVOLVE_PLAT_PATH_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* plat_path_join returns a malloc'ed string: `rel` itself when it
 * is absolute, else base_dir/rel. plat_dirname returns a malloc'ed directory
 * part ("." when there is none). */
int plat_path_is_abs(const char *path);
char *plat_path_join(const char *base_dir, const char *rel);
char *plat_dirname(const char *path);
const char *plat_basename(const char *path);
/* path made absolute (symbolic links resolved when it exists, else against
 * the working directory, "." and ".." dropped; on Windows from its drive,
 * "C:", with the separators the file system gives); NULL when
 * out of memory or the working directory is unknown. plat_path_relative: the
 * path of `to` seen from the directory from_dir, both absolute, with '/'
 * separators on every platform ("../data/x.h5"); NULL when there is none
 * (another drive, a network share). Caller frees both. */
char *plat_abs_path(const char *path);
char *plat_path_relative(const char *from_dir, const char *to);

/* 1 when the first n bytes of a and b name the same entry of one folder:
 * bytewise on POSIX, ASCII letters in either case on Windows (NTFS's default,
 * so T.CSV and t.csv are one file there). */
int plat_name_equal(const char *a, const char *b, size_t n);

/* "<path>.tmp.<pid>": the temporary name an output is written under before
 * plat_rename_replace moves it into place. Caller frees. */
char *plat_temp_name(const char *final_path);

#ifdef __cplusplus
}
#endif
#endif
