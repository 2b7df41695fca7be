#include "io/stable_sort.h"

#include <stdlib.h>
#include <string.h>

/* Runs this short are sorted by insertion (stable: only strictly greater
 * elements move right). */
#define INSERTION_RUN 16

typedef struct {
    size_t size;
    stable_cmp_fn cmp;
    void *ctx;
    char *tmp; /* one element, for insertion */
} sorter_t;

static void insertion_sort(const sorter_t *s, char *a, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        size_t j = i;
        memcpy(s->tmp, a + i * s->size, s->size);
        while (j > 0 && s->cmp(a + (j - 1) * s->size, s->tmp, s->ctx) > 0) {
            memcpy(a + j * s->size, a + (j - 1) * s->size, s->size);
            j--;
        }
        memcpy(a + j * s->size, s->tmp, s->size);
    }
}

/* Sorts a[0, n) using scratch[0, n). */
static void merge_sort(const sorter_t *s, char *a, char *scratch, size_t n)
{
    size_t mid = n / 2, i = 0, j = mid, k = 0, sz = s->size;
    if (n <= INSERTION_RUN) {
        insertion_sort(s, a, n);
        return;
    }
    merge_sort(s, a, scratch, mid);
    merge_sort(s, a + mid * sz, scratch, n - mid);
    if (s->cmp(a + (mid - 1) * sz, a + mid * sz, s->ctx) <= 0)
        return; /* already in order: the common case for nearly sorted data */
    /* Ties take the left element first: that is the stability. */
    while (i < mid && j < n) {
        const char *src = s->cmp(a + j * sz, a + i * sz, s->ctx) < 0 ? a + j++ * sz : a + i++ * sz;
        memcpy(scratch + k++ * sz, src, sz);
    }
    memcpy(scratch + k * sz, a + i * sz, (mid - i) * sz);
    k += mid - i;
    memcpy(a, scratch, k * sz); /* the rest of the right half is already in place */
}

ev_status stable_sort(void *base, size_t n, size_t size, stable_cmp_fn cmp, void *ctx, ev_error *err)
{
    sorter_t s;
    char *scratch;
    if (n < 2)
        return EV_OK;
    scratch = (char *)malloc(n * size + size);
    if (!scratch)
        return ev_fail(err, EV_ENOMEM, "out of memory sorting %zu rows", n);
    s.size = size;
    s.cmp = cmp;
    s.ctx = ctx;
    s.tmp = scratch + n * size;
    merge_sort(&s, (char *)base, scratch, n);
    free(scratch);
    return EV_OK;
}
