/* decl.c - the explorer's decluttered view; see decl.h. */
#include "ui.h"

const nnav_declutter *decl_view(ui *u, uint32_t g)
{
    ui_decl *v = &u->decl;
    if (!v->on || g == NNAV_NONE)
        return NULL;
    if (v->d && v->graph == g && v->s == u->types.s)
        return v->d;
    nnav_declutter_free(v->d);
    v->d = nnav_declutter_build(u->m, g, u->types.s);
    v->graph = g;
    v->s = u->types.s;
    return v->d;
}

void decl_toggle(ui *u)
{
    u->decl.on = !u->decl.on;
    const nnav_declutter *d = decl_view(u, u->graph);
    if (u->decl.on && !d) {
        u->decl.on = 0;
        ui_message(u, R_ERROR, "out of memory while decluttering");
        return;
    }
    nodes_declutter_changed(u, &u->pane[PANE_NODES]);
    if (u->graph_view) { /* the graph view again, from the node list's cursor */
        graph_centre(u, &u->pane[PANE_GRAPH], NNAV_NONE);
        graph_centre(u, &u->pane[PANE_GRAPH], nodes_current(u, &u->pane[PANE_NODES]));
    }
    detail_refresh(u, &u->pane[PANE_DETAIL]);
    if (d)
        ui_message(u, 0, "decluttered: %u of %u nodes shown, %u hidden (Constant, Identity, "
                         "folded shape arithmetic); D shows them all",
                   nnav_declutter_visible(d), nnav_graph_get(u->m, u->graph)->node_count,
                   nnav_declutter_hidden_count(d));
    else
        ui_message(u, 0, "every node shown, as in the file");
}

void decl_start(ui *u)
{
    u->decl.on = 1;
    const nnav_declutter *d = decl_view(u, u->graph);
    if (!d || !nnav_declutter_hidden_count(d)) { /* nothing to hide: the file as it is */
        u->decl.on = 0;
        return;
    }
    nodes_declutter_changed(u, &u->pane[PANE_NODES]);
    detail_refresh(u, &u->pane[PANE_DETAIL]);
}

void decl_close(ui *u)
{
    nnav_declutter_free(u->decl.d);
    u->decl.d = NULL;
}
