/* gview.h - the layered layout behind the graph view (no curses, no model).
 *
 * The neighbourhood of one node: producers up to `depth` layers above and
 * consumers `depth` layers below, found breadth-first, each node placed once
 * (in the first layer that reaches it). A layer holds at most max_per_layer
 * boxes; the rest fold into one "+N more" box, so a node with a million
 * consumers costs one pass over their ids and a handful of boxes.
 *
 * The model is reached through gv_source, so tests can feed a made-up graph.
 */
#ifndef NNAV_UI_GVIEW_H
#define NNAV_UI_GVIEW_H

#include <stddef.h>
#include <stdint.h>

enum gv_kind { GV_NONE = 0, GV_NODE, GV_INPUT, GV_MORE };

typedef struct gv_item {
    uint8_t kind;    /* gv_kind */
    int layer;       /* -depth..depth; 0 holds the centre */
    uint32_t id;     /* node id (GV_NODE), value id (GV_INPUT) */
    uint64_t more;   /* GV_MORE: boxes folded (at least) */
    int slot;        /* position within the layer */
    int col, row;    /* canvas position of the box's top-left, after gv_place */
} gv_item;

typedef struct gv_edge { uint32_t from, to; } gv_edge; /* item indices, from above to below */

typedef struct gv_source {
    void *ctx;
    /* Candidates for neighbours of node `node`: producers (up) or consumers. */
    uint64_t (*count)(void *ctx, uint32_t node, int up);
    /* The i-th candidate: returns its kind (GV_NONE to skip it) and id. */
    int (*get)(void *ctx, uint32_t node, int up, uint64_t i, uint32_t *id);
} gv_source;

typedef struct gv_layout {
    gv_item *items;
    size_t nitems, icap;
    gv_edge *edges;
    size_t nedges, ecap;
    int up, down;       /* layers present above and below the centre */
    size_t centre;      /* item index of the centre */
    int inexact;        /* the candidate budget ran out: "more" counts are lower bounds */
    int width, height;  /* canvas size, after gv_place */
} gv_layout;

/* Builds the layout around node `centre`; 0 on success, -1 on no memory. */
int gv_build(gv_layout *g, const gv_source *src, uint32_t centre, int depth, int max_per_layer);
/* Canvas positions: boxes box_w x box_h, gap_x columns apart, gap_y rows between layers. */
void gv_place(gv_layout *g, int box_w, int box_h, int gap_x, int gap_y);
/* Moving the cursor: 'u' to a producer, 'd' to a consumer, 'l'/'r' within the
 * layer. Returns the new item index (cur when there is nowhere to go). */
size_t gv_move(const gv_layout *g, size_t cur, int dir);
/* Item index of a node id, or (size_t)-1. */
size_t gv_find(const gv_layout *g, uint8_t kind, uint32_t id);
int gv_has_edge(const gv_layout *g, size_t from, size_t to);
void gv_free(gv_layout *g);

#endif
