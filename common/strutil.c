#include "common/strutil.h"

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
