/* cli_find.c - nnav find: names and op types by substring. */
#include "cli_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nnav.h"
#include "record.h"

/* ---- find ---- */

static const char *hit_kind(uint8_t k)
{
    switch (k) {
    case NNAV_HIT_NODE_NAME: return "node";
    case NNAV_HIT_OP: return "op";
    case NNAV_HIT_VALUE: return "value";
    case NNAV_HIT_INITIALIZER: return "initializer";
    }
    return "?";
}

/* A hit a row: in text its kind, name (an unnamed node as #INDEX), what it
 * is (a node's op, a value's kind, a tensor's shape) and graph, the name and
 * what columns as wide as the widest; in YAML its kind, name, a node's
 * index and op type, and graph. */
enum { F_KIND, F_NAME, F_INDEX, F_OP_TYPE, F_WHAT, F_GRAPH };
static const nnav_rw_col find_cols[] = {
    [F_KIND] = {"kind", 12, 0, NULL, 0, NULL},
    [F_NAME] = {"name", 40, NNAV_RW_MEASURE, NULL, 0, NULL},
    [F_INDEX] = {"index", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [F_OP_TYPE] = {"op_type", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [F_WHAT] = {NULL, 24, NNAV_RW_MEASURE, NULL, 0, NULL},
    [F_GRAPH] = {"graph", 0, 0, NULL, 0, NULL},
};
static const nnav_rw_table find_table = {
    .cols = find_cols, .ncols = sizeof find_cols / sizeof *find_cols, .sep = " ", .flow = 1};

int cmd_find(const nnav_model *m, const opts *o)
{
    nnav_search *s = nnav_search_new(m, o->arg);
    if (!s)
        return EXIT_BADINPUT;
    while (nnav_search_step(s, 1u << 20) == 0)
        ;
    size_t n;
    const nnav_hit *h = nnav_search_hits(s, &n);
    char nm[2048], what[2048], path[2048];
    nnav_rw w;
    if (nnav_rw_open(&w, stdout, o->yaml ? NNAV_RW_YAML : NNAV_RW_TEXT) < 0) {
        nnav_search_free(s);
        return EXIT_BADINPUT;
    }
    nnav_rw_table_begin(&w, NULL, &find_table);
    for (int pass = 0; pass < nnav_rw_table_passes(&w); pass++) {
        nnav_rw_table_pass(&w, pass);
        for (size_t i = 0; i < n; i++) {
            int node = h[i].kind == NNAV_HIT_NODE_NAME || h[i].kind == NNAV_HIT_OP;
            nnav_span name;
            nnav_graph_path(m, h[i].graph, path, sizeof path);
            what[0] = 0;
            if (node) {
                name = nnav_node_get(m, h[i].id)->name;
                op_name(m, h[i].id, what, sizeof what);
            } else if (h[i].kind == NNAV_HIT_VALUE) {
                name = nnav_value_get(m, h[i].id)->name;
                snprintf(what, sizeof what, "%s", kind_word(nnav_value_get(m, h[i].id)->kind));
            } else {
                name = nnav_tensor_get(m, h[i].id)->name;
                nnav_tensor_shape_format(m, h[i].id, what, sizeof what);
            }
            if (node && !name.n)
                snprintf(nm, sizeof nm, "#%u", nnav_node_index(m, h[i].id));
            else
                esc(name, nm, sizeof nm);
            nnav_rw_row(&w);
            nnav_rw_cell_cstr(&w, F_KIND, hit_kind(h[i].kind), NULL);
            nnav_rw_cell_span(&w, F_NAME, name, nm);
            if (node) {
                nnav_rw_cell_uint(&w, F_INDEX, nnav_node_index(m, h[i].id), NULL);
                nnav_rw_cell_span(&w, F_OP_TYPE, nnav_node_get(m, h[i].id)->op, NULL);
            }
            nnav_rw_cell_cstr(&w, F_WHAT, what, NULL);
            nnav_rw_cell_cstr(&w, F_GRAPH, path, NULL);
            nnav_rw_row_end(&w);
        }
    }
    nnav_rw_table_end(&w);
    nnav_search_free(s);
    int rc = nnav_rw_close(&w) < 0 ? EXIT_BADINPUT : 0;
    if (n == 0 && !o->yaml)
        fprintf(stderr, "nnav find: no matches\n");
    /* Nothing found is exit 1, as grep says it, so that a script can test
     * `nnav find M x && ...`; YAML's empty list too. */
    return rc ? rc : n == 0 ? EXIT_NOMATCH : 0;
}
