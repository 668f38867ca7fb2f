/* compare.h - the explorer's compare mode (`nnav A B`, `nnav diff A B` on a
 * terminal): two models open, their nnav_diff (diff.h), and one of them
 * shown with the differences marked.
 *
 * The explorer shows one side at a time (ui.m is the model of side `side`);
 * every id a pane holds is that model's. The diff's data is read through
 * diff.h only. Without compare mode (ui.cmp NULL) every function here
 * answers "no difference" and the panes draw as they always have.
 *
 * Marks: '+' added (only on B), '-' removed (only on A), '~' changed, as
 * nnav_diff_mark() gives them; a graph row is '~' when anything inside it
 * (its nodes, initializers, inputs and outputs, its bodies' ones) differs.
 */
#ifndef NNAV_UI_COMPARE_H
#define NNAV_UI_COMPARE_H

#include "cmpwalk.h"
#include "diff.h"
#include "draw.h"

typedef struct ui ui;

typedef struct compare {
    nnav_model *m[2];
    const char *path[2];
    nnav_diff *d;
    int side;                 /* the side shown: 0 A (the old), 1 B (the new) */
    int swap;                 /* X: the explorer ends and opens on the other side */
    int keep_kind;            /* where the cursor goes on the other side (place kind) */
    uint32_t keep_id;         /* ... and the id there, on the side shown next */
    int keep_focus;
    int declutter;            /* D is on (from --declutter, kept across X) */
    char summary[1024];       /* nnav_diff_summary, control bytes replaced */
    uint8_t *gmark[2];        /* per graph of each side: its mark (' ' none) */
    uint32_t *anchor;         /* per node of the other side lacking on the side shown:
                                 the node of the side shown its row goes before
                                 (CMP_AT_END: after the last); else NNAV_NONE */
    cmp_key *keys;            /* the differences on the side shown, in visiting order */
    size_t nkeys;
    int prefix;               /* ']' or '[' typed, waiting for 'c'; 0 none */
    double prefix_at;         /* when (ms) */
} compare;

/* Sets up what the panes of side c->side read: the graph marks of both
 * sides and the walk's keys. -1 when out of memory. */
int cmp_prepare(compare *c);
void cmp_release(compare *c);

/* What differs about a node / tensor of the side shown (NNAV_DIFF_* bits);
 * 0 without compare mode or when the same. */
unsigned cmp_node_what(const ui *u, uint32_t node);
unsigned cmp_tensor_what(const ui *u, uint32_t t);
/* The diff's entry for a tensor of the side shown, or NULL. */
const nnav_diff_tensor *cmp_tensor_entry(const ui *u, uint32_t t);
/* A graph's mark on the side shown: '+', '-', '~' or ' '. */
char cmp_graph_mark(const ui *u, uint32_t g);
/* Draws a one-column mark for `what` ("+", "-", "~" or " ") in its colour;
 * returns the columns used (1). */
int cmp_draw_mark(char mark, int y, int x, int w, attr_t sel);
char cmp_mark_of(unsigned what);

/* The node list's rows for the other side's nodes that the side shown lacks
 * (removed ones on B, added ones on A), at their place in the unified order:
 * a row's id is CMP_OTHER_BIT | the node's id on the other side. */
#define CMP_OTHER_BIT 0x80000000u
const nnav_model *cmp_other_model(const ui *u);
/* For graph g of the side shown: the other side's nodes it lacks (*ids, in
 * the other side's order) and the node of g each row goes before (*at,
 * CMP_AT_END after the last); both malloc'ed, freed by the caller. Returns
 * the count (0 with nothing allocated: none, no compare mode, out of memory). */
uint32_t cmp_other_rows(ui *u, uint32_t g, uint32_t **ids, uint32_t **at);
unsigned cmp_other_what(const ui *u, uint32_t other_node);
/* The other side's graph matched with graph g of the side shown, or NNAV_NONE. */
uint32_t cmp_other_graph(const ui *u, uint32_t g);

/* ]c / [c: to the next / previous difference on the side shown. */
void cmp_jump(ui *u, int dir);

/* The header row in compare mode: which side is shown, the other, and the
 * summary. */
void cmp_draw_header(ui *u, int y, int w, attr_t a);

/* The detail pane's compare rows for a node of the side shown, laid out for
 * `width` columns: side by side (label | A | B) when wide, A above B when
 * narrow. cmp_detail_count() is how many rows; cmp_detail_draw() draws row k. */
uint32_t cmp_detail_count(ui *u, uint32_t node, int width);
void cmp_detail_draw(ui *u, uint32_t node, uint32_t k, int width, int y, int x, int w, attr_t sel);
/* The same for a node only the other side has (a row CMP_OTHER_BIT): that
 * one side, op, name, attributes, inputs and outputs. */
uint32_t cmp_other_count(ui *u, uint32_t other_node);
void cmp_other_draw(ui *u, uint32_t other_node, uint32_t k, int y, int x, int w, attr_t sel);
/* One row about a tensor of the side shown (what differs; the counts and
 * the largest difference when its values differ); 0 when no compare mode. */
uint32_t cmp_tensor_detail_count(ui *u, uint32_t t);
void cmp_tensor_detail_draw(ui *u, uint32_t t, uint32_t k, int y, int x, int w, attr_t sel);

/* Rows about a graph of the side shown: its nodes by outcome, its inputs
 * and outputs that differ (with both types), and for the main graph the
 * model facts that differ (IR, opsets, producer, metadata...). */
uint32_t cmp_graph_detail_count(ui *u, uint32_t g);
void cmp_graph_detail_draw(ui *u, uint32_t g, uint32_t k, int y, int x, int w, attr_t sel);

/* A tensor entry's "what differs" words ("values, shape"), into buf. */
size_t cmp_what_text(unsigned what, char *buf, size_t n);

#endif
