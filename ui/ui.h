/* ui.h - what the explorer's files share: the pane ops table, the ui state,
 * and the navigation calls panes use to move each other.
 *
 * The shared core (tui.c) owns the screen, scrolling, focus, history, the
 * prompt and the overlays. A pane (a row of NNAV_PANES in panes.h, and
 * pane_*.c with its ops table) fills in its lines and handles the requests it
 * cares about, handing the rest back by returning 0 from request(). Panes
 * read the model only through nnav.h and put text on screen only through
 * draw.h.
 */
#ifndef NNAV_UI_UI_H
#define NNAV_UI_UI_H

#include <stddef.h>
#include <stdint.h>

#include "draw.h"
#include "history.h"
#include "keys.h"
#include "layout.h"
#include "marks.h"
#include "msglog.h"
#include "nnav.h"
#include "typed.h"
#include "decl.h"
#include "compare.h"

typedef struct ui ui;
typedef struct pane pane;

typedef struct pane_ops {
    /* The pane's private state: the core gives each pane `size` zeroed bytes
     * in pane.priv before open() and frees them after close(). */
    size_t size;
    /* Optional: sets the state up once the model is open; -1 when out of
     * memory (close() is still called). */
    int (*open)(ui *u, pane *p);
    /* Optional: frees what open() and the pane's work allocated in the state. */
    void (*close)(ui *u, pane *p);
    /* The rest of the title row after the name: counts, sort order, filter. */
    void (*title)(ui *u, pane *p, int y, int x, int w, attr_t a);
    uint32_t (*lines)(ui *u, pane *p);
    /* One on-screen row; `selected` is R_CURSOR, R_CURSOR_BLUR or 0. */
    void (*draw_line)(ui *u, pane *p, uint32_t line, int y, int x, int w, int selected);
    /* Optional: draws the whole body instead of lines (the graph view). */
    void (*draw)(ui *u, pane *p, int y, int x, int h, int w);
    /* Returns 1 when handled; 0 hands the request back to the core. */
    int (*request)(ui *u, pane *p, enum request r);
    /* The cursor moved (or the pane got the focus): update the others. */
    void (*select)(ui *u, pane *p);
    /* The name `y` copies: a span from the model, or text in buf. 0 if none. */
    int (*yank)(ui *u, pane *p, nnav_span *out, char *buf, size_t n);
    /* Where the pane's cursor is, for the history. 0 if nowhere. */
    int (*here)(ui *u, pane *p, place *out);
    /* Optional: a click at body row/column (the core moves the cursor otherwise). */
    void (*click)(ui *u, pane *p, int row, int col);
} pane_ops;

struct pane {
    const pane_ops *ops;
    const char *name; /* its title, from NNAV_PANES */
    int id;          /* the pane_id of its place; the graph view sits in PANE_NODES */
    rect r;          /* title row included */
    uint32_t top;    /* first line on screen */
    uint32_t cur;    /* cursor line */
    void *priv;      /* ops->size zeroed bytes, allocated and freed by the core */
};

/* The export prompts (exporter.c) carry their own label in ui.plabel; the
 * overwrite question takes a single key instead of a line. */
enum prompt_kind {
    PROMPT_NONE = 0, PROMPT_SEARCH, PROMPT_GOTO, PROMPT_FILTER,
    PROMPT_EXPORT_PATH, PROMPT_REGION_IN, PROMPT_REGION_OUT, PROMPT_OVERWRITE, PROMPT_DIMS,
};

typedef struct ui_menu {
    int on;
    char title[160];     /* already escaped */
    uint32_t *nodes;
    uint32_t n, cur, top;
} ui_menu;

struct find;     /* find.c */
struct exporter; /* exporter.c */

struct ui {
    nnav_model *m;
    const char *path;
    ui_layout lay;
    pane pane[PANE_KINDS]; /* by pane_id; PANE_GRAPH, the graph view, shows in
                              the node list's place while graph_view is on */
    int graph_view;
    int zoom;            /* z: the focused pane fills the screen */
    int focus;           /* pane_id */
    uint32_t graph;      /* the graph in the node list and initializer panes */
    history hist;
    char msg[512];       /* status message, escaped text */
    int msg_role;
    msglog log;          /* the last messages, for M */
    text_view text;      /* the overlay of M (messages) and i (the model's details) */
    int prompt;          /* prompt_kind */
    char pbuf[1024];     /* raw bytes as typed (a file name, value names) */
    size_t plen;
    size_t pcur;         /* the prompt's cursor, a byte offset in pbuf (a character's start) */
    int psel;            /* pbuf is a suggestion, all selected: a printable key replaces it,
                            Backspace and Delete clear it, arrows, Home and End keep it */
    char plabel[400];    /* the export prompts' label, escaped text */
    struct find *find;
    struct exporter *exp;
    mark_set marks;      /* nodes marked with Space, for export */
    ui_typed types;       /* inferred types and costs, and whether they are shown (T) */
    ui_decl decl;         /* the decluttered view (D) */
    nnav_bind bind[64];   /* the named dims' values (--dim, d), names in bind_text */
    size_t n_bind;
    char bind_text[2048];
    int help;
    uint32_t help_top;
    ui_menu menu;
    compare *cmp;        /* compare mode (nnav A B), NULL otherwise */
    int quit;
};

#define PANE_OPS_DECL(id, prefix, title, place) extern const pane_ops pane_##prefix##_ops;
NNAV_PANES(PANE_OPS_DECL)
#undef PANE_OPS_DECL

/* ---- the core's services (tui.c) ---- */
pane *ui_pane(ui *u, int id);   /* PANE_NODES is the graph view while it is on */
void ui_message(ui *u, int role, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The last part of a path ("model.onnx"; a folder's own name with or
 * without its trailing slash), escaped for the screen. */
void ui_base_name(const char *path, char *buf, size_t n);
void ui_set_focus(ui *u, int id);
/* The node list has no room: a model of no nodes (a store of tensors),
 * outside the graph view and compare mode (layout_compute_store). The
 * focus then never rests on it: the tree takes it. */
int ui_nodes_hidden(const ui *u);
/* Lays the panes out again (the tree pane's rows changed width). */
void ui_relayout(ui *u);
/* Shows text in the status line at once, before slow work starts. */
void ui_status_now(ui *u, const char *text);
/* Opens the prompt line with `init` as a selected suggestion (typing replaces
 * it, arrows keep it); `label` (escaped text) is shown before it for the
 * export prompts. */
void ui_prompt_open(ui *u, int kind, const char *label, const char *init);
/* Moves a list pane's cursor, keeping it on screen. */
void pane_set_cursor(pane *p, uint32_t line, uint32_t lines);
int pane_body_rows(const pane *p);

/* ---- navigation (nav.c) ---- */
place ui_here(ui *u);
void ui_go(ui *u, place p);     /* show a place, no history */
void ui_jump(ui *u, place p);   /* show a place, remembered for back/forward */
void ui_back(ui *u);
void ui_forward(ui *u);
void ui_set_graph(ui *u, uint32_t g);
place ui_place_node(ui *u, uint32_t node);
place ui_place_tensor(ui *u, uint32_t t);
place ui_place_graph(ui *u, uint32_t g);
/* Where a value comes from: its producer node, initializer, or the value itself. */
place ui_place_value(ui *u, uint32_t v);
/* Enter on an output: jump to its only consumer or offer the list. */
void ui_pick_consumers(ui *u, uint32_t value);
void ui_menu_open(ui *u, const char *title, const uint32_t *nodes, uint32_t n);
void ui_menu_close(ui *u);

/* ---- shared row pieces (nav.c) ---- */
/* "Loop_0.body", "main", "@func": a graph's short label, escaped, into buf. */
size_t ui_graph_label(ui *u, uint32_t g, char *buf, size_t n);
/* The same label drawn. Returns columns used. */
int ui_draw_graph_label(ui *u, uint32_t g, int y, int x, int w, attr_t a);
/* "Conv conv1" (op in its colour, then the name or #index). */
int ui_draw_node_label(ui *u, uint32_t node, int y, int x, int w, attr_t a);
/* Breadcrumbs from the root down to g. */
int ui_draw_breadcrumbs(ui *u, uint32_t g, int y, int x, int w, attr_t a);

/* ---- per-pane entry points ---- */
void tree_reveal(ui *u, pane *p, uint32_t g);
/* Reveals a node's scope: expands its graph and the scope's ancestors, puts
 * the tree's cursor on it; the node list is left as it is. */
void tree_reveal_node(ui *u, pane *p, uint32_t node);
/* S: shows each graph's scopes (the module hierarchy) in the tree, or only
 * the graphs; off, the node list shows its whole graph again. */
void tree_toggle_scopes(ui *u, pane *p);
/* Columns the tree pane needs for its longest row (every body open). */
int tree_fit_width(ui *u);
void nodes_set_graph(ui *u, pane *p, uint32_t g);
void nodes_reveal(ui *u, pane *p, uint32_t node);
uint32_t nodes_current(ui *u, pane *p);
/* Compare mode: the other side's node on the cursor's row (a node the side
 * shown lacks), or NNAV_NONE; and the cursor put on such a row. */
uint32_t nodes_current_other(ui *u, pane *p);
void nodes_reveal_other(ui *u, pane *p, uint32_t other);
/* Narrows the node list to `ids` (nodes of graph g, any order; copied), the
 * scope at `path` (its components joined by '/', raw bytes; `note`, escaped
 * text such as its params and MACs, follows it in the title), or widens it to
 * the whole graph when ids is NULL. The filters stay set. -1 when out of
 * memory (the whole graph is shown). */
int nodes_set_scope(ui *u, pane *p, uint32_t g, const uint32_t *ids, uint32_t n,
                    const uint8_t *path, size_t pathlen, const char *note);
/* A name relative to the scope in the node list: the scope's path cut from
 * its front; the whole name when the list shows a whole graph or the name is
 * not under the scope. Points into `name`. */
nnav_span nodes_relative_name(ui *u, nnav_span name);
int nodes_filter(ui *u, pane *p, const char *op);
const char *nodes_filter_text(pane *p);
/* The decluttered view went on or off (or to another graph): rows again. */
void nodes_declutter_changed(ui *u, pane *p);
void detail_set(ui *u, pane *p, uint8_t kind, uint32_t id);
/* Compare mode: the detail of a node only the other side has. */
void detail_set_other(ui *u, pane *p, uint32_t other);
void detail_stats(ui *u, pane *p);
/* The node the detail pane shows, or NNAV_NONE (a tensor, graph or value). */
uint32_t detail_node(pane *p);
/* Lays the target out again (types shown or hidden), keeping the cursor line. */
void detail_refresh(ui *u, pane *p);
void tensors_set_graph(ui *u, pane *p, uint32_t g);
/* Narrows the rows to the tensors of a store's scope (`vals`, value ids of
 * graph g: nnav_scope_tensors) whose path (raw bytes) the title shows, or
 * widens them to the whole graph when vals is NULL. */
void tensors_set_scope(ui *u, pane *p, uint32_t g, const uint32_t *vals, uint32_t n,
                       const uint8_t *path, size_t pathlen);
/* Puts the cursor on tensor t (widening a scope's rows when t is outside). */
void tensors_reveal(ui *u, pane *p, uint32_t t);
void graph_centre(ui *u, pane *p, uint32_t node);
uint32_t graph_cursor_node(ui *u, pane *p);

#endif
