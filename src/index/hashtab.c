/* hashtab.c - sizing and growth of the one hash table (hashtab.h). */
#include "hashtab.h"

#include <stdlib.h>
#include <string.h>

/* 2^33 slots: UINT32_MAX ids below 70%. Past it an id could not be new. */
#define CAP_MAX (1ull << 33)

static uint64_t *new_slots(uint64_t cap)
{
    if (cap > CAP_MAX || cap > SIZE_MAX / sizeof(uint64_t))
        return NULL;
    uint64_t *s = malloc((size_t)cap * sizeof *s);
    if (s)
        memset(s, 0xff, (size_t)cap * sizeof *s);
    return s;
}

int nnav_hashtab_init(nnav_hashtab *t, uint64_t n)
{
    t->slot = NULL;
    t->mask = t->used = 0;
    if (n > UINT32_MAX)
        return -1;
    /* n * 10 fits: n < 2^32. Sizing for twice n instead left a million-value
     * table a quarter full: 16 bytes a value of slots that only shortened
     * probes already short (the tag in each slot spares a record visit). */
    uint64_t cap = 16;
    while (cap * 7 < n * 10)
        cap *= 2;
    t->slot = new_slots(cap);
    if (!t->slot)
        return -1;
    t->mask = cap - 1;
    return 0;
}

void nnav_hashtab_free(nnav_hashtab *t)
{
    free(t->slot);
    t->slot = NULL;
    t->mask = t->used = 0;
}

int nnav_hashtab_put(nnav_hashtab *t, uint64_t at, uint64_t hash, uint32_t id,
                     nnav_hashtab_hash rehash, const void *ctx)
{
    if (!t->slot) {
        if (nnav_hashtab_init(t, 1) != 0)
            return -1;
        at = hash & t->mask;
    }
    if (t->used + 1 > t->mask) /* one slot stays empty: every probe ends */
        return -1;
    t->slot[at] = hash >> 32 << 32 | id;
    if (++t->used * 10 < (t->mask + 1) * 7)
        return 0;
    uint64_t cap = (t->mask + 1) * 2;
    uint64_t *ns = new_slots(cap);
    if (!ns)
        return -1;
    for (uint64_t i = 0; i <= t->mask; i++) {
        uint64_t e = t->slot[i];
        if (e == NNAV_HASHTAB_EMPTY)
            continue;
        uint64_t j = rehash(ctx, (uint32_t)e) & (cap - 1);
        while (ns[j] != NNAV_HASHTAB_EMPTY)
            j = (j + 1) & (cap - 1);
        ns[j] = e;
    }
    free(t->slot);
    t->slot = ns;
    t->mask = cap - 1;
    return 0;
}
