/* A memo of input files' content hashes (<cache dir>/hash-memo), so that a
 * run does not read every input again to find its dataset's key while the
 * inputs are unchanged. One line a file: size, mtime_ns, dev, ino, when it
 * was hashed, the hash, the absolute path. An entry is used only when the
 * file's size, modification time and identity are those recorded, and the
 * file had not been modified for HASH_MEMO_SETTLE_NS when it was hashed: a
 * write within the same clock tick as an earlier one leaves the time as it
 * was, so a file modified just before its hash is hashed again every time
 * (git's "racy" entries). Only an optimisation: any failure means no memo. */
#ifndef EVOLVE_HASH_MEMO_H
#define EVOLVE_HASH_MEMO_H

#include <stdint.h>

#include "common/platform.h"

#ifdef __cplusplus
extern "C" {
#endif

#define HASH_MEMO_SETTLE_NS 2000000000LL
#define HASH_MEMO_MAX_ENTRIES 4096

typedef struct hash_memo hash_memo_t;

/* The memo at path (read when it exists); NULL when out of memory. */
hash_memo_t *hash_memo_open(const char *path);

/* 1 with *hash when abs_path has a usable entry for st, else 0. */
int hash_memo_get(const hash_memo_t *m, const char *abs_path, const plat_stat_t *st, uint64_t *hash);

/* Records the hash of abs_path as it was at st, hashed at hashed_ns (wall
 * clock, ns since 1970). */
void hash_memo_put(hash_memo_t *m, const char *abs_path, const plat_stat_t *st, int64_t hashed_ns, uint64_t hash);

/* Writes the memo back when it changed (a temporary file renamed into place:
 * with two processes the last one wins), then frees it. NULL is allowed. */
void hash_memo_close(hash_memo_t *m);

#ifdef __cplusplus
}
#endif
#endif
