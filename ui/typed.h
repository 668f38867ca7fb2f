/* typed.h - the typed view in the explorer: when the shape inference runs,
 * the T toggle, and the figures the panes and the header take from it.
 *
 * A model of up to NNAV_SHAPES_EAGER_MAX nodes (shape.h) is inferred before the first screen
 * and shows its types at once. A bigger one opens without them, so the first
 * screen never waits for the pass; the first T runs it (one linear walk over
 * the nodes) behind a status message. Panes ask typed_shapes(): NULL means
 * "draw as if there were no types" (hidden, not run yet, or out of memory).
 * The engine's text (types with dim names, reasons naming nodes) comes
 * escaped, like nnav_value_type_format()'s: it goes out through draw_text().
 */
#ifndef NNAV_UI_TYPED_H
#define NNAV_UI_TYPED_H

#include <stddef.h>
#include <stdint.h>

#include "draw.h"
#include "shape.h"


typedef struct ui_typed {
    nnav_shapes *s;       /* NULL until inferred */
    int on;               /* types shown */
    int failed;           /* inference ran out of memory: do not retry on every T */
    uint32_t cost_graph;  /* the graph whose total is cached, NNAV_NONE when none */
    nnav_cost cost;
} ui_typed;

struct ui;

/* At open: infers at once when the model is small enough, and shows types. */
void typed_open(struct ui *u);
void typed_close(struct ui *u);
/* The T key: shows or hides types, inferring them on the first show. */
void typed_toggle(struct ui *u);
/* The named dims' values the inference takes (--dim): copied in. */
void typed_bind(struct ui *u, const nnav_bind *b, size_t n);
/* The d key: a prompt listing the model's named dims at their values. */
void typed_dims_prompt(struct ui *u);
/* Its Enter: text is "NAME=N,..."; the inference runs again with them. */
void typed_dims_set(struct ui *u, const char *text);
/* The inference results when types are shown, else NULL. */
const nnav_shapes *typed_shapes(struct ui *u);
/* A value's type as shown: the best known while types are shown, else what
 * the file says ("" when it says nothing). Escaped text. */
void typed_value_text(struct ui *u, uint32_t value, char *buf, size_t n);
/* A graph's total cost (its own nodes), cached per graph; NULL when hidden. */
const nnav_cost *typed_graph_cost(struct ui *u, uint32_t g);

/* "4.09 G", "25.6 M", "442 k", "118", "0": three significant digits in 1000s,
 * the command line's units; `tight` drops the space before the unit ("4.09G"). */
const char *typed_count(double v, int tight, char *buf, size_t n);

/* How much of a cost typed_cost_text() writes. */
enum typed_form {
    TYPED_FULL,    /* "4.09 G MACs  8.18 G FLOPs  25.6 M params  3.1 MiB out" */
    TYPED_BRIEF,   /* "4.09 G MACs  25.6 M params" */
    TYPED_TIGHT,   /* "4.09G MACs 25.6M params", for a narrow header */
};
/* The figures, after "at least " when shapes were missing (a partial sum). */
const char *typed_cost_text(const nnav_cost *c, enum typed_form form, char *buf, size_t n);
/* The role a value's type is drawn in: DISAGREE stands out, unknown is dim. */
attr_t typed_attr(const nnav_shapes *s, uint32_t value);

#endif
