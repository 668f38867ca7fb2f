/* place.c - a typed place (node index, name, graph path or label) to an id.
 * The order and the cost are stated in place.h. */
#include "place.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

__attribute__((format(printf, 2, 3))) static int fail(nnav_error *err, const char *fmt, ...)
{
    va_list ap;
    memset(err, 0, sizeof *err);
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    err->kind = NNAV_ERR_USAGE;
    return -1;
}

static int found(nnav_place_ref *out, uint8_t kind, uint8_t how, uint32_t id, uint32_t graph)
{
    memset(out, 0, sizeof *out);
    out->kind = kind;
    out->how = how;
    out->id = id;
    out->graph = graph;
    return 0;
}

/* Decimal digits only, no sign or blank, within uint32: *v. */
static int parse_index(const char *s, uint32_t *v)
{
    uint64_t x = 0;
    if (!*s)
        return 0;
    for (; *s; s++) {
        if (*s < '0' || *s > '9')
            return 0;
        x = x * 10 + (uint64_t)(*s - '0');
        if (x > UINT32_MAX)
            return 0;
    }
    *v = (uint32_t)x;
    return 1;
}

/* Whether [t, t+n) is the span's bytes, or "#INDEX" for an unnamed node. */
static int node_word_eq(const nnav_model *m, uint32_t node, const char *t, size_t n)
{
    const nnav_node *nd = nnav_node_get(m, node);
    if (nd->name.n)
        return nnav_span_eq(nd->name, t, n);
    char idx[16];
    int k = snprintf(idx, sizeof idx, "#%u", nnav_node_index(m, node));
    return k > 0 && (size_t)k == n && memcmp(idx, t, n) == 0;
}

/* A body's label as the explorer's tree shows it: NODE.ATTR, NODE.ATTR[i]
 * (#INDEX for an unnamed node; no NODE for a function's attribute default).
 * Each body's own attribute name is matched at the end of the text, so dots
 * inside node names ("layer.0") or attribute names do not confuse it. */
static uint32_t by_label(const nnav_model *m, const char *t)
{
    size_t n = strlen(t);
    if (strcmp(t, "main") == 0 && nnav_graph_count(m) > 0 &&
        nnav_graph_get(m, 0)->kind == NNAV_GRAPH_MAIN)
        return 0;
    if (!strchr(t, '.'))
        return NNAV_NONE;
    /* "[i]" at the end: the text without it, for bodies in a GRAPHS list. */
    uint32_t list = NNAV_NONE;
    size_t ln = n;
    const char *open = n > 3 && t[n - 1] == ']' ? strrchr(t, '[') : NULL;
    if (open) {
        char num[16];
        size_t dl = (size_t)(t + n - 1 - (open + 1));
        if (dl > 0 && dl < sizeof num) {
            memcpy(num, open + 1, dl);
            num[dl] = '\0';
            if (parse_index(num, &list))
                ln = (size_t)(open - t);
        }
    }
    for (uint32_t g = 0; g < nnav_graph_count(m); g++) {
        const nnav_graph *gr = nnav_graph_get(m, g);
        if (gr->kind != NNAV_GRAPH_BODY || gr->owner_attr == NNAV_NONE)
            continue;
        size_t k = gr->list_index == NNAV_NONE ? n : ln;
        if (gr->list_index != NNAV_NONE && (ln == n || gr->list_index != list))
            continue;
        nnav_span a = nnav_attr_get(m, gr->owner_attr)->name;
        if (a.n == 0 || a.n + 1 > k || t[k - a.n - 1] != '.' ||
            memcmp(t + k - a.n, a.p, (size_t)a.n) != 0)
            continue;
        size_t head = k - (size_t)a.n - 1;
        if (gr->owner_node == NNAV_NONE ? head == 0 : node_word_eq(m, gr->owner_node, t, head))
            return g;
    }
    return NNAV_NONE;
}

static uint32_t by_path_unslashed(const nnav_model *m, const char *t)
{
    size_t n = strlen(t);
    char *p = malloc(n + 2);
    if (!p)
        return NNAV_NONE;
    p[0] = '/';
    memcpy(p + 1, t, n + 1);
    uint32_t g = nnav_graph_by_path(m, p);
    free(p);
    return g;
}

int nnav_place_resolve(const nnav_model *m, uint32_t current, const char *text, unsigned flags,
                       nnav_place_ref *out, nnav_error *err)
{
    uint32_t ng = nnav_graph_count(m);
    if (current == NNAV_NONE || current >= ng)
        current = 0;
    if (!text || !*text)
        return fail(err, "nothing given: a node name, #INDEX, or a graph path");
    /* The text as the message shows it: escaped, cut to a readable length. */
    char t[160];
    nnav_text_escape_cstr(text, t, sizeof t);
    if (ng == 0)
        return fail(err, "'%s': the model has no graphs", t);
    int graphs_only = (flags & NNAV_PLACE_GRAPHS) != 0;
    const nnav_graph *cur = nnav_graph_get(m, current);
    size_t len = strlen(text);
    uint32_t idx;
    if (!graphs_only) {
        if (text[0] == '#' && parse_index(text + 1, &idx)) {
            if (idx < cur->node_count)
                return found(out, NNAV_PLACE_NODE, NNAV_PLACE_BY_INDEX, cur->node_first + idx,
                             current);
            if (cur->node_count == 0)
                return fail(err, "no node %s: this graph has no nodes", t);
            return fail(err, "no node %s: this graph's nodes are #0 to #%u", t,
                        cur->node_count - 1);
        }
        if (parse_index(text, &idx) && idx < cur->node_count)
            return found(out, NNAV_PLACE_NODE, NNAV_PLACE_BY_INDEX, cur->node_first + idx,
                         current);
    }
    uint32_t g;
    if ((text[0] == '/' || text[0] == '@' || text[0] == '~') &&
        (g = nnav_graph_by_path(m, text)) != NNAV_NONE)
        return found(out, NNAV_PLACE_GRAPH, NNAV_PLACE_BY_PATH, g, g);
    if (!graphs_only) {
        uint32_t n = nnav_node_by_name(m, current, text, len);
        if (n != NNAV_NONE)
            return found(out, NNAV_PLACE_NODE, NNAV_PLACE_BY_NAME, n, current);
        uint32_t v = nnav_value_lookup(m, current, text, len);
        if (v != NNAV_NONE)
            return found(out, NNAV_PLACE_VALUE, NNAV_PLACE_BY_VALUE, v,
                         nnav_value_get(m, v)->graph);
    }
    /* A body's path has a slash past its first segment ("NODE/ATTR"): a
     * plain name does not pay for a walk of the paths. */
    if (text[0] != '/' && strchr(text, '/') && (g = by_path_unslashed(m, text)) != NNAV_NONE)
        return found(out, NNAV_PLACE_GRAPH, NNAV_PLACE_BY_PATH, g, g);
    if ((g = by_label(m, text)) != NNAV_NONE)
        return found(out, NNAV_PLACE_GRAPH, NNAV_PLACE_BY_LABEL, g, g);
    if (graphs_only)
        return fail(err,
                    "no graph at path '%s' (a path as 'nnav tree' prints it, with or "
                    "without its leading /, NODE.ATTR as the explorer's tree shows it, or "
                    "@FUNCTION)",
                    t);
    uint32_t first = NNAV_NONE, others = 0;
    for (g = 0; g < ng; g++) {
        uint32_t n = g == current ? NNAV_NONE : nnav_node_by_name(m, g, text, len);
        if (n == NNAV_NONE)
            continue;
        if (first == NNAV_NONE)
            first = n;
        else
            others++;
    }
    if (first != NNAV_NONE) {
        found(out, NNAV_PLACE_NODE, NNAV_PLACE_BY_NAME_ELSEWHERE, first,
              nnav_node_get(m, first)->graph);
        out->others = others;
        return 0;
    }
    if (parse_index(text, &idx) && cur->node_count)
        return fail(err, "no node #%s: this graph's nodes are #0 to #%u (and no name is %s)", t,
                    cur->node_count - 1, t);
    return fail(err, "no node, value or graph '%s' in the model", t);
}
