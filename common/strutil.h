/* Heap copies of strings. strdup and strndup are POSIX (C23 at last), not
 * C11, so evolve keeps its own: one definition instead of a private copy in
 * every file that needs one. */
#ifndef EVOLVE_STRUTIL_H
#define EVOLVE_STRUTIL_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A malloc'ed copy of s; NULL when s is NULL or memory runs out (callers that
 * pass NULL on purpose tell the two apart by s). Free with free(). */
char *ev_strdup(const char *s);

/* A malloc'ed copy of the first n bytes of s (s holds at least n), with a NUL
 * after them; NULL when memory runs out. Free with free(). */
char *ev_strndup(const char *s, size_t n);

#ifdef __cplusplus
}
#endif
#endif
