/* decl.h - the decluttered view in the explorer (D): which graph's view is
 * built, and the toggle. The view itself is src/declutter.h.
 *
 * Built lazily: the first D (and each graph shown while it is on) runs one
 * linear pass over that graph, with the inferred shapes when they exist
 * (else only Constant and Identity nodes hide). Panes ask decl_view(): NULL
 * means "draw the file as it is" (off, or out of memory).
 */
#ifndef NNAV_UI_DECL_H
#define NNAV_UI_DECL_H

#include <stdint.h>

#include "declutter.h"

typedef struct ui_decl {
    int on;
    nnav_declutter *d;   /* for graph `graph`, built with shapes `s` */
    uint32_t graph;
    const nnav_shapes *s;
} ui_decl;

struct ui;

/* The D key: shows or hides the decluttered view. */
void decl_toggle(struct ui *u);
/* The view of graph g while it is on, else NULL. */
const nnav_declutter *decl_view(struct ui *u, uint32_t g);
/* At start: on, without a word, when the graph in view has nodes to hide. */
void decl_start(struct ui *u);
void decl_close(struct ui *u);

#endif
