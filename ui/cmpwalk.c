/* cmpwalk.c - the visiting order of compare mode's differences (cmpwalk.h). */
#include "cmpwalk.h"

#include <stdlib.h>

int cmp_key_cmp(const cmp_key *a, const cmp_key *b)
{
    if (a->graph != b->graph)
        return a->graph < b->graph ? -1 : 1;
    if (a->kind != b->kind)
        return a->kind < b->kind ? -1 : 1;
    if (a->id != b->id)
        return a->id < b->id ? -1 : 1;
    if (a->sub != b->sub)
        return a->sub < b->sub ? -1 : 1;
    return 0;
}

static int cmp_void(const void *a, const void *b)
{
    return cmp_key_cmp(a, b);
}

void cmp_keys_sort(cmp_key *k, size_t n)
{
    if (n > 1)
        qsort(k, n, sizeof *k, cmp_void);
}

size_t cmp_walk(const cmp_key *k, size_t n, cmp_key cur, int dir, int *wrapped)
{
    *wrapped = 0;
    if (!n)
        return n;
    /* The first key not before cur (binary search). */
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (cmp_key_cmp(&k[mid], &cur) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (dir > 0) {
        size_t i = lo < n && cmp_key_cmp(&k[lo], &cur) == 0 ? lo + 1 : lo;
        if (i < n)
            return i;
        *wrapped = 1;
        return 0;
    }
    if (lo > 0)
        return lo - 1;
    *wrapped = 1;
    return n - 1;
}
