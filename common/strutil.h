/* Heap copies of strings (strdup and strndup are POSIX, C23 at last, not
 * C11, so evolve keeps its own: one definition instead of a private copy in
 * every file that needs one), and text made safe to show. */
#ifndef EVOLVE_STRUTIL_H
#define EVOLVE_STRUTIL_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A malloc'ed copy of s; NULL when s is NULL or memory runs out (callers that
 * pass NULL on purpose tell the two apart by s). Free with free(). */
char *ev_strdup(const char *s);

/* Copies text src into dst (size bytes, NUL-terminated) so a terminal shows
 * no raw bytes: a control byte (other than newline and tab when keep_layout),
 * a stray or cut-off UTF-8 byte or a malformed sequence becomes \xNN; what no
 * longer fits is cut at a character. Messages quote names and values read
 * from damaged or hand-edited files and configs. */
void ev_show_text(char *dst, size_t size, const char *src, int keep_layout);

/* A malloc'ed copy of the first n bytes of s (s holds at least n), with a NUL
 * after them; NULL when memory runs out. Free with free(). */
char *ev_strndup(const char *s, size_t n);

#ifdef __cplusplus
}
#endif
#endif
