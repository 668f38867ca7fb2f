/* place.h - what a user types to name a place in a model, resolved once for
 * both faces (the explorer's `:` and the CLI's --graph).
 *
 * Calling rules:
 *  - The text is what nnav prints elsewhere, taken as typed (a C string from
 *    the user, not from the file). Accepted, in this order:
 *      #N, or N alone        node N of the current graph; nodes count from 0,
 *                            as everywhere in nnav (the node list, `nnav
 *                            nodes`, paths' #INDEX, graph.node[N] in errors).
 *                            N alone that is out of range is tried as a name.
 *      /PATH, @FUNC, ~...    a graph path exactly as `nnav tree` prints it
 *      NAME                  a node of the current graph, then a value the
 *                            current graph sees (scoping through parents)
 *      PATH without the /    "If_177/else_branch" as "/If_177/else_branch"
 *      NODE.ATTR[i], main    a graph's label, as the tree and breadcrumbs
 *                            show it ("If_177.else_branch", "main")
 *      NAME                  a node anywhere in the model: the first graph in
 *                            graph order that has one; `others` counts the
 *                            other graphs that do too.
 *    With NNAV_PLACE_GRAPHS only the graph spellings are tried.
 *  - Names are compared byte for byte with the file's names (spans into the
 *    map); nothing is copied from the file.
 *  - Cost: a hash probe per graph for a name (the node-name table nnav
 *    builds on first use), one pass over the graphs for a label or path;
 *    never a pass over the nodes per graph.
 *  - Returns 0 and fills *out, or -1 with err->msg saying what was not found
 *    (the text escaped) and err->kind NNAV_ERR_USAGE: a wrong name is the user's, not
 *    the file's.
 */
#ifndef NNAV_PLACE_H
#define NNAV_PLACE_H

#include "nnav.h"

typedef enum nnav_place_kind {
    NNAV_PLACE_GRAPH = 0,
    NNAV_PLACE_NODE,
    NNAV_PLACE_VALUE,
} nnav_place_kind;

/* How the text was read: a front end may say so (e.g. "also in 3 graphs"). */
typedef enum nnav_place_how {
    NNAV_PLACE_BY_INDEX = 0, /* #N or N */
    NNAV_PLACE_BY_PATH,      /* a graph path, with or without its leading / */
    NNAV_PLACE_BY_LABEL,     /* a graph's label (NODE.ATTR, main) */
    NNAV_PLACE_BY_NAME,      /* a node of the current graph */
    NNAV_PLACE_BY_VALUE,     /* a value the current graph sees */
    NNAV_PLACE_BY_NAME_ELSEWHERE, /* a node of another graph */
} nnav_place_how;

typedef struct nnav_place_ref {
    uint8_t kind;    /* nnav_place_kind */
    uint8_t how;     /* nnav_place_how */
    uint32_t id;     /* graph, node or value id, by kind */
    uint32_t graph;  /* the graph that holds it (the graph itself for a graph) */
    uint32_t others; /* BY_NAME_ELSEWHERE: other graphs with a node of that name */
} nnav_place_ref;

#define NNAV_PLACE_GRAPHS 1u /* graph spellings only (the CLI's --graph) */

/* current: the graph the user is in (NNAV_NONE: the main graph, 0). */
int nnav_place_resolve(const nnav_model *m, uint32_t current, const char *text, unsigned flags,
                       nnav_place_ref *out, nnav_error *err);

#endif
