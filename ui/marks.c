/* marks.c - the set of nodes marked for export. */
#include "marks.h"

#include <stdlib.h>
#include <string.h>

#define NO_GRAPH UINT32_MAX

void marks_init(mark_set *s, uint32_t nnodes)
{
    memset(s, 0, sizeof *s);
    s->nnodes = nnodes;
    s->graph = NO_GRAPH;
}

int marks_has(const mark_set *s, uint32_t node)
{
    return s->bits && node < s->nnodes && (s->bits[node >> 3] >> (node & 7) & 1);
}

int marks_toggle(mark_set *s, uint32_t node, uint32_t graph)
{
    if (node >= s->nnodes)
        return MARK_OFF;
    if (s->count && s->graph != graph)
        return MARK_OTHER_GRAPH;
    if (!s->bits) {
        s->bits = calloc(((size_t)s->nnodes + 7) / 8, 1);
        if (!s->bits)
            return MARK_NOMEM;
    }
    uint8_t bit = (uint8_t)(1u << (node & 7));
    s->bits[node >> 3] ^= bit;
    if (s->bits[node >> 3] & bit) {
        s->count++;
        s->graph = graph;
        return MARK_ON;
    }
    if (--s->count == 0)
        s->graph = NO_GRAPH;
    return MARK_OFF;
}

void marks_clear(mark_set *s)
{
    if (s->bits)
        memset(s->bits, 0, ((size_t)s->nnodes + 7) / 8);
    s->count = 0;
    s->graph = NO_GRAPH;
}

size_t marks_list(const mark_set *s, uint32_t first, uint32_t count, uint32_t *out)
{
    size_t n = 0;
    if (!s->bits || !s->count)
        return 0;
    for (uint64_t id = first; id < (uint64_t)first + count && id < s->nnodes && n < s->count; id++)
        if (marks_has(s, (uint32_t)id))
            out[n++] = (uint32_t)id;
    return n;
}

void marks_free(mark_set *s)
{
    free(s->bits);
    marks_init(s, 0);
}
