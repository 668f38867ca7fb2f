/* marks.h - the nodes marked for export (Space), curses-free.
 *
 * Marks live in one graph at a time, because an export is a piece of one
 * graph (nnav_select_nodes refuses nodes from two). Marking in another graph
 * is refused rather than silently dropping the marks already made. A graph's
 * nodes have consecutive ids, so listing them in graph order is one scan.
 */
#ifndef NNAV_UI_MARKS_H
#define NNAV_UI_MARKS_H

#include <stddef.h>
#include <stdint.h>

typedef struct mark_set {
    uint8_t *bits;    /* one bit per node id; NULL until the first mark */
    uint32_t nnodes;
    uint32_t count;
    uint32_t graph;   /* the graph holding the marks; UINT32_MAX when none */
} mark_set;

enum { MARK_OFF = 0, MARK_ON = 1, MARK_OTHER_GRAPH = -1, MARK_NOMEM = -2 };

void marks_init(mark_set *s, uint32_t nnodes);
/* Flips the mark on `node` (of `graph`): MARK_ON, MARK_OFF, or an error. */
int marks_toggle(mark_set *s, uint32_t node, uint32_t graph);
int marks_has(const mark_set *s, uint32_t node);
void marks_clear(mark_set *s);
/* The marked ids among [first, first + count), ascending, into out (room for
 * s->count). Returns how many. */
size_t marks_list(const mark_set *s, uint32_t first, uint32_t count, uint32_t *out);
void marks_free(mark_set *s);

#endif
