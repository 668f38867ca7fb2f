/* cli_find.c - nnav find: names and op types by substring. */
#include "cli_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nnav.h"

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

int cmd_find(const nnav_model *m, const opts *o)
{
    nnav_search *s = nnav_search_new(m, o->arg);
    if (!s)
        return EXIT_BADINPUT;
    while (nnav_search_step(s, 1u << 20) == 0)
        ;
    size_t n;
    const nnav_hit *h = nnav_search_hits(s, &n);
    char nm[2048], extra[2048], path[2048];
    nnav_yw w;
    if (o->yaml) {
        if (nnav_yw_open(&w, stdout) < 0) {
            nnav_search_free(s);
            return EXIT_BADINPUT;
        }
        nnav_yw_seq(&w);
    }
    /* Tables take two passes: the first measures the name and detail columns
     * (in display columns), the second prints them padded to the widest. */
    int wname = 40, wextra = 24;
    for (int pass = o->yaml; pass < 2; pass++)
    for (size_t i = 0; i < n; i++) {
        nnav_span name;
        nnav_graph_path(m, h[i].graph, path, sizeof path);
        extra[0] = 0;
        if (h[i].kind == NNAV_HIT_NODE_NAME || h[i].kind == NNAV_HIT_OP) {
            const nnav_node *nd = nnav_node_get(m, h[i].id);
            name = nd->name;
            op_name(m, h[i].id, extra, sizeof extra);
        } else if (h[i].kind == NNAV_HIT_VALUE) {
            name = nnav_value_get(m, h[i].id)->name;
            snprintf(extra, sizeof extra, "%s", kind_word(nnav_value_get(m, h[i].id)->kind));
        } else {
            name = nnav_tensor_get(m, h[i].id)->name;
            nnav_tensor_shape_format(m, h[i].id, extra, sizeof extra);
        }
        if (o->yaml) {
            nnav_yw_map_flow(&w);
            nnav_yw_key(&w, "kind"), nnav_yw_cstr(&w, hit_kind(h[i].kind));
            nnav_yw_key(&w, "name"), nnav_yw_span(&w, name);
            if (h[i].kind == NNAV_HIT_NODE_NAME || h[i].kind == NNAV_HIT_OP) {
                nnav_yw_key(&w, "index"), nnav_yw_uint(&w, nnav_node_index(m, h[i].id));
                nnav_yw_key(&w, "op_type"), nnav_yw_span(&w, nnav_node_get(m, h[i].id)->op);
            }
            nnav_yw_key(&w, "graph"), nnav_yw_cstr(&w, path);
            nnav_yw_map_end(&w);
            continue;
        }
        if (h[i].kind <= NNAV_HIT_OP && !name.n)
            snprintf(nm, sizeof nm, "#%u", nnav_node_index(m, h[i].id));
        else
            esc(name, nm, sizeof nm);
        if (pass == 0) {
            wname = text_cols(nm) > wname ? text_cols(nm) : wname;
            wextra = text_cols(extra) > wextra ? text_cols(extra) : wextra;
            continue;
        }
        printf("%-12s ", hit_kind(h[i].kind));
        put_padded(nm, wname + 1);
        put_padded(extra, wextra + 1);
        printf("%s\n", path);
    }
    nnav_search_free(s);
    if (o->yaml) {
        nnav_yw_seq_end(&w);
        return nnav_yw_close(&w) < 0 ? EXIT_BADINPUT : 0;
    }
    if (n == 0)
        fprintf(stderr, "nnav find: no matches\n");
    return 0;
}

