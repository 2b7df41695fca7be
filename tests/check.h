/* Minimal checks for test executables: each failed check prints what was
 * expected and what was got, with file and line; main returns check_exit(). */
#ifndef EVOLVE_TESTS_CHECK_H
#define EVOLVE_TESTS_CHECK_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static int check_failures = 0;

#define CHECK(cond)                                                                  \
    do {                                                                             \
        if (!(cond)) {                                                               \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
            check_failures++;                                                        \
        }                                                                            \
    } while (0)

#define CHECK_EQ_I64(expected, got)                                                                    \
    do {                                                                                               \
        long long e_ = (long long)(expected), g_ = (long long)(got);                                   \
        if (e_ != g_) {                                                                                \
            fprintf(stderr, "%s:%d: %s: expected %lld, got %lld\n", __FILE__, __LINE__, #got, e_, g_); \
            check_failures++;                                                                          \
        }                                                                                              \
    } while (0)

/* Exact double comparison (bit-identical results are the contract). */
#define CHECK_EQ_F64(expected, got)                                                                      \
    do {                                                                                                 \
        double e_ = (double)(expected), g_ = (double)(got);                                              \
        if (!(e_ == g_) && !(e_ != e_ && g_ != g_)) {                                                    \
            fprintf(stderr, "%s:%d: %s: expected %.17g, got %.17g\n", __FILE__, __LINE__, #got, e_, g_); \
            check_failures++;                                                                            \
        }                                                                                                \
    } while (0)

#define CHECK_STR(expected, got)                                                                                      \
    do {                                                                                                              \
        const char *e_ = (expected), *g_ = (got);                                                                     \
        if (!e_ || !g_ || strcmp(e_, g_) != 0) {                                                                      \
            fprintf(stderr, "%s:%d: %s: expected \"%s\", got \"%s\"\n", __FILE__, __LINE__, #got, e_ ? e_ : "(null)", \
                    g_ ? g_ : "(null)");                                                                              \
            check_failures++;                                                                                         \
        }                                                                                                             \
    } while (0)

#define CHECK_CONTAINS(haystack, needle)                                                                               \
    do {                                                                                                               \
        const char *h_ = (haystack), *n_ = (needle);                                                                   \
        if (!h_ || !strstr(h_, n_)) {                                                                                  \
            fprintf(stderr, "%s:%d: expected \"%s\" to contain \"%s\"\n", __FILE__, __LINE__, h_ ? h_ : "(null)", n_); \
            check_failures++;                                                                                          \
        }                                                                                                              \
    } while (0)

/* ctest treats this exit code as "skipped" (SKIP_RETURN_CODE). */
#define CHECK_SKIP_CODE 77

static inline int check_exit(void)
{
    if (check_failures)
        fprintf(stderr, "%d check(s) failed\n", check_failures);
    return check_failures ? 1 : 0;
}

#endif
