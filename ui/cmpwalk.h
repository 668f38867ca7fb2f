/* cmpwalk.h - the order compare mode visits differences in (]c / [c), with
 * no curses and no model: pure, tested by tests/unit/test_ui_cmpwalk.c.
 *
 * A difference is a key (graph, kind, id, sub) on the side shown: its graph
 * id, 0 for a node row or 1 for an initializer (a graph's nodes first, then
 * its initializers), and the node or tensor id (node ids run in graph
 * order). A node of the side shown has sub CMP_SUB_SELF; a row for a node
 * only the other side has sits before the node it is placed at (id: that
 * node, or CMP_AT_END after the last) with sub its id on the other side, so
 * several such rows keep the other side's order. Keys are visited in that
 * lexicographic order.
 */
#ifndef NNAV_UI_CMPWALK_H
#define NNAV_UI_CMPWALK_H

#include <stddef.h>
#include <stdint.h>

typedef struct cmp_key {
    uint32_t graph, kind, id, sub;
} cmp_key;

#define CMP_SUB_SELF UINT32_MAX
#define CMP_AT_END UINT32_MAX

int cmp_key_cmp(const cmp_key *a, const cmp_key *b);
/* Sorts keys into the visiting order. */
void cmp_keys_sort(cmp_key *k, size_t n);
/* From `cur` (a difference or any other place), the next (dir > 0) or
 * previous (dir < 0) key strictly after / before it in sorted k[0..n);
 * past the end it wraps to the other end and sets *wrapped. Returns the
 * index, or n when there is none. */
size_t cmp_walk(const cmp_key *k, size_t n, cmp_key cur, int dir, int *wrapped);

#endif
