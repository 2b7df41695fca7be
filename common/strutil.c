#include "common/strutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *ev_strdup(const char *s)
{
    return s ? ev_strndup(s, strlen(s)) : NULL;
}

char *ev_strndup(const char *s, size_t n)
{
    char *d = (char *)malloc(n + 1);
    if (!d)
        return NULL;
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

/* Length of the UTF-8 character of printable text at s, or 0 for a control
 * byte, a stray or cut-off byte, or a malformed sequence. */
static size_t printable_char(const unsigned char *s, int keep_layout)
{
    size_t k = s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 && s[0] < 0xe0 ? 2 : 0;
    if (s[0] < 0x80)
        return (s[0] >= 0x20 && s[0] != 0x7f) || (keep_layout && (s[0] == '\n' || s[0] == '\t'));
    for (size_t i = 1; i < k; i++)
        if ((s[i] & 0xc0) != 0x80)
            return 0;
    return k;
}

void ev_show_text(char *dst, size_t size, const char *src, int keep_layout)
{
    const unsigned char *p = (const unsigned char *)src;
    size_t w = 0;
    if (size == 0)
        return;
    while (*p) {
        size_t k = printable_char(p, keep_layout);
        if (k ? w + k >= size : w + 4 >= size)
            break;
        if (k) {
            memcpy(dst + w, p, k);
            w += k;
            p += k;
        } else {
            snprintf(dst + w, size - w, "\\x%02x", (unsigned)*p++);
            w += 4;
        }
    }
    dst[w] = '\0';
}
