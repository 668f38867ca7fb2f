/* gview.c - breadth-first layers, folding, placement and cursor moves. */
#include "gview.h"

#include <stdlib.h>
#include <string.h>

#include "hashtab.h"

/* Candidates looked at in one build: past this, folded counts stop growing. */
#define GV_BUDGET 4000000u
#define FOLDED UINT32_MAX

/* (kind, id) -> item index, or FOLDED: each key met and its value in two
 * arrays, the table finding a key's entry. */
typedef struct gv_map {
    nnav_hashtab t;
    uint64_t *key;
    uint32_t *val;
    size_t len, cap;
} gv_map;

typedef struct map_probe {
    const gv_map *m;
    uint64_t k;
} map_probe;

static int map_same(const void *ctx, uint32_t e)
{
    const map_probe *p = ctx;
    return p->m->key[e] == p->k;
}

static uint64_t map_rehash(const void *ctx, uint32_t e)
{
    return nnav_hashtab_mix64(((const gv_map *)ctx)->key[e]);
}

/* Returns a pointer to the value slot; *fresh tells whether it was just added. */
static uint32_t *map_put(gv_map *m, uint64_t k, int *fresh)
{
    uint64_t h = nnav_hashtab_mix64(k), at = 0;
    map_probe p = { m, k };
    uint32_t e = nnav_hashtab_find(&m->t, h, map_same, &p, &at);
    *fresh = e == NNAV_HASHTAB_NONE;
    if (!*fresh)
        return &m->val[e];
    if (m->len == m->cap) {
        size_t cap = m->cap ? m->cap * 2 : 256;
        if (cap >= NNAV_HASHTAB_NONE)
            return NULL;
        uint64_t *key = realloc(m->key, cap * sizeof *key);
        if (!key)
            return NULL;
        m->key = key;
        uint32_t *val = realloc(m->val, cap * sizeof *val);
        if (!val)
            return NULL;
        m->val = val;
        m->cap = cap;
    }
    e = (uint32_t)m->len;
    m->key[e] = k;
    if (nnav_hashtab_put(&m->t, at, h, e, map_rehash, m) != 0)
        return NULL;
    m->len++;
    return &m->val[e];
}

static void map_free(gv_map *m)
{
    nnav_hashtab_free(&m->t);
    free(m->key);
    free(m->val);
}

static uint64_t item_key(uint8_t kind, uint32_t id)
{
    return (uint64_t)kind << 32 | id;
}

static int add_item(gv_layout *g, gv_item it)
{
    if (g->nitems == g->icap) {
        size_t cap = g->icap ? g->icap * 2 : 32;
        gv_item *p = realloc(g->items, cap * sizeof *p);
        if (!p)
            return -1;
        g->items = p;
        g->icap = cap;
    }
    g->items[g->nitems++] = it;
    return 0;
}

int gv_has_edge(const gv_layout *g, size_t from, size_t to)
{
    for (size_t i = 0; i < g->nedges; i++)
        if (g->edges[i].from == from && g->edges[i].to == to)
            return 1;
    return 0;
}

static int add_edge(gv_layout *g, size_t from, size_t to)
{
    if (gv_has_edge(g, from, to))
        return 0;
    if (g->nedges == g->ecap) {
        size_t cap = g->ecap ? g->ecap * 2 : 32;
        gv_edge *p = realloc(g->edges, cap * sizeof *p);
        if (!p)
            return -1;
        g->edges = p;
        g->ecap = cap;
    }
    g->edges[g->nedges++] = (gv_edge){ (uint32_t)from, (uint32_t)to };
    return 0;
}

void gv_free(gv_layout *g)
{
    free(g->items);
    free(g->edges);
    memset(g, 0, sizeof *g);
}

/* Expands layer `from_layer` (items [lo, hi)) one step up or down. */
static int expand(gv_layout *g, gv_map *map, const gv_source *src, size_t lo, size_t hi,
                  int up, int max_per_layer, uint64_t *budget)
{
    int layer = g->items[lo].layer + (up ? -1 : 1);
    size_t added = 0, more_item = (size_t)-1;
    uint64_t folded = 0;
    for (size_t a = lo; a < hi; a++) {
        if (g->items[a].kind != GV_NODE)
            continue;
        uint64_t n = src->count(src->ctx, g->items[a].id, up);
        for (uint64_t i = 0; i < n; i++) {
            if (*budget == 0) {
                g->inexact = 1;
                break;
            }
            (*budget)--;
            uint32_t id;
            int kind = src->get(src->ctx, g->items[a].id, up, i, &id);
            if (kind == GV_NONE)
                continue;
            int fresh;
            uint32_t *slot = map_put(map, item_key((uint8_t)kind, id), &fresh);
            if (!slot)
                return -1;
            size_t b;
            if (fresh) {
                if (added < (size_t)max_per_layer) {
                    gv_item it = { .kind = (uint8_t)kind, .layer = layer, .id = id,
                                   .slot = (int)added };
                    if (add_item(g, it) != 0)
                        return -1;
                    b = g->nitems - 1;
                    *slot = (uint32_t)b;
                    added++;
                } else {
                    *slot = FOLDED;
                    folded++;
                    if (more_item == (size_t)-1) {
                        gv_item it = { .kind = GV_MORE, .layer = layer, .id = UINT32_MAX,
                                       .slot = (int)max_per_layer };
                        if (add_item(g, it) != 0)
                            return -1;
                        more_item = g->nitems - 1;
                    }
                    b = more_item;
                }
            } else if (*slot == FOLDED) {
                b = more_item;
            } else {
                b = *slot;
                if (g->items[b].layer != layer)
                    continue; /* already placed nearer the centre */
            }
            if (b == (size_t)-1)
                continue;
            if (add_edge(g, up ? b : a, up ? a : b) != 0)
                return -1;
        }
    }
    if (more_item != (size_t)-1)
        g->items[more_item].more = folded;
    return (int)(added + (more_item != (size_t)-1));
}

int gv_build(gv_layout *g, const gv_source *src, uint32_t centre, int depth, int max_per_layer)
{
    gv_free(g);
    if (max_per_layer < 1)
        max_per_layer = 1;
    gv_map map = { 0 };
    int fresh, rc = -1;
    gv_item c = { .kind = GV_NODE, .layer = 0, .id = centre };
    if (add_item(g, c) != 0)
        goto out;
    g->centre = 0;
    uint32_t *slot = map_put(&map, item_key(GV_NODE, centre), &fresh);
    if (!slot)
        goto out;
    *slot = 0;
    uint64_t budget = GV_BUDGET;
    for (int dir = 0; dir < 2; dir++) {
        int up = dir == 0;
        size_t lo = 0, hi = 1;
        for (int d = 1; d <= depth; d++) {
            size_t start = g->nitems;
            int n = expand(g, &map, src, lo, hi, up, max_per_layer, &budget);
            if (n < 0)
                goto out;
            if (n == 0)
                break;
            if (up)
                g->up = d;
            else
                g->down = d;
            lo = start;
            hi = g->nitems;
        }
    }
    rc = 0;
out:
    map_free(&map);
    return rc;
}

void gv_place(gv_layout *g, int box_w, int box_h, int gap_x, int gap_y)
{
    int layers = g->up + g->down + 1;
    int width = box_w;
    for (int l = -g->up; l <= g->down; l++) {
        int n = 0;
        for (size_t i = 0; i < g->nitems; i++)
            n += g->items[i].layer == l;
        int w = n * box_w + (n > 0 ? n - 1 : 0) * gap_x;
        if (w > width)
            width = w;
    }
    for (int l = -g->up; l <= g->down; l++) {
        int n = 0;
        for (size_t i = 0; i < g->nitems; i++)
            n += g->items[i].layer == l;
        int w = n * box_w + (n > 0 ? n - 1 : 0) * gap_x;
        int x0 = (width - w) / 2, k = 0;
        /* Items of a layer are stored in slot order, the "more" box last. */
        for (size_t i = 0; i < g->nitems; i++) {
            if (g->items[i].layer != l)
                continue;
            g->items[i].col = x0 + k * (box_w + gap_x);
            g->items[i].row = (l + g->up) * (box_h + gap_y);
            k++;
        }
    }
    g->width = width;
    g->height = layers * box_h + (layers - 1) * gap_y;
}

size_t gv_find(const gv_layout *g, uint8_t kind, uint32_t id)
{
    for (size_t i = 0; i < g->nitems; i++)
        if (g->items[i].kind == kind && g->items[i].id == id)
            return i;
    return (size_t)-1;
}

size_t gv_move(const gv_layout *g, size_t cur, int dir)
{
    if (cur >= g->nitems)
        return cur;
    const gv_item *c = &g->items[cur];
    if (dir == 'l' || dir == 'r') {
        size_t best = cur;
        int bestd = 0;
        for (size_t i = 0; i < g->nitems; i++) {
            const gv_item *it = &g->items[i];
            if (it->layer != c->layer || i == cur)
                continue;
            int d = it->col - c->col;
            if ((dir == 'l' && d < 0 && (best == cur || d > bestd)) ||
                (dir == 'r' && d > 0 && (best == cur || d < bestd))) {
                best = i;
                bestd = d;
            }
        }
        return best;
    }
    int layer = c->layer + (dir == 'u' ? -1 : 1);
    size_t best = cur;
    int best_linked = 0, bestd = 0;
    for (size_t i = 0; i < g->nitems; i++) {
        const gv_item *it = &g->items[i];
        if (it->layer != layer)
            continue;
        int linked = dir == 'u' ? gv_has_edge(g, i, cur) : gv_has_edge(g, cur, i);
        int d = it->col - c->col;
        if (d < 0)
            d = -d;
        if (best == cur || linked > best_linked || (linked == best_linked && d < bestd)) {
            best = i;
            best_linked = linked;
            bestd = d;
        }
    }
    return best;
}
