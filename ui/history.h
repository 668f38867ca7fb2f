/* history.h - places visited, for Backspace/Ctrl-O (back) and ] (forward).
 *
 * Browser rules: a jump records where we were, drops anything ahead, and moves
 * to the new place; going back first refreshes the current entry (so forward
 * returns to where the cursor really was, not where it landed). Bounded: the
 * oldest places fall off.
 */
#ifndef NNAV_UI_HISTORY_H
#define NNAV_UI_HISTORY_H

#include <stddef.h>
#include <stdint.h>

enum place_kind { PLACE_NONE = 0, PLACE_GRAPH, PLACE_NODE, PLACE_TENSOR, PLACE_VALUE };

typedef struct place {
    uint8_t kind;   /* place_kind */
    uint8_t pane;   /* which pane had the focus */
    uint32_t graph; /* graph shown */
    uint32_t id;    /* graph, node, tensor or value id, by kind */
    uint32_t line;  /* the detail pane's cursor line, when it had the focus */
} place;

#define HISTORY_MAX 256

typedef struct history {
    place at[HISTORY_MAX];
    size_t len; /* entries held */
    size_t cur; /* index of the current place (valid when len > 0) */
} history;

void history_init(history *h);
/* We are at `from` and jump to `to`. */
void history_jump(history *h, place from, place to);
/* We are at `here`; returns 1 and the previous place in *out, 0 at the start. */
int history_back(history *h, place here, place *out);
/* Returns 1 and the next place in *out, 0 at the end. */
int history_forward(history *h, place here, place *out);
int place_eq(place a, place b);

#endif
