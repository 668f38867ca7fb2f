/* panes.h - every pane of the explorer, in one list (no curses).
 *
 * NNAV_PANES is the single source for the pane ids, their titles, the ops
 * table each is driven through (pane_PREFIX_ops, defined in pane_PREFIX.c)
 * and the place on screen each is laid out in: a new pane is one row here
 * and one pane_*.c file; the core (tui.c) opens, sizes, draws and closes
 * every pane from this list.
 *
 * PANE(ID, prefix, "title", PLACE) - PLACE is the ID of the pane whose room
 * on screen it takes. A pane placed in its own room has a rectangle in the
 * layout and the focus can rest on it; those come first in the list, so
 * their ids are 0 .. PANE_COUNT - 1. The others (the graph view, shown in
 * the node list's room while it is on) follow, up to PANE_KINDS.
 */
#ifndef NNAV_UI_PANES_H
#define NNAV_UI_PANES_H

#define NNAV_PANES(PANE) \
    PANE(TREE,    tree,    "Graphs",       TREE)    \
    PANE(NODES,   nodes,   "Nodes",        NODES)   \
    PANE(DETAIL,  detail,  "Detail",       DETAIL)  \
    PANE(TENSORS, tensors, "Initializers", TENSORS) \
    PANE(GRAPH,   graph,   "Graph view",   NODES)

enum pane_id {
#define PANE_ENUM(id, prefix, title, place) PANE_##id,
    NNAV_PANES(PANE_ENUM)
#undef PANE_ENUM
    PANE_KINDS /* every pane */
};

/* The panes with a room of their own: the layout's rectangles, the focus. */
enum {
#define PANE_PLACED(id, prefix, title, place) +(PANE_##id == PANE_##place)
    PANE_COUNT = 0 NNAV_PANES(PANE_PLACED)
#undef PANE_PLACED
};

#endif
