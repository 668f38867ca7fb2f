/* cli_graph.c - nnav tree, nodes and node: the graphs, their nodes, one node. */
#include "cli_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "declutter.h"
#include "export.h"
#include "nnav.h"
#include "opref.h"
#include "opschema.h"
#include "shape.h"
#include "yamlout.h"

/* ---- tree ---- */

static void owner_text(const nnav_model *m, uint32_t g, char *buf, size_t n)
{
    const nnav_graph *gr = nnav_graph_get(m, g);
    char a[512], b[512], c[512];
    if (gr->kind == NNAV_GRAPH_BODY && gr->owner_node == NNAV_NONE) {
        snprintf(buf, n, "default of function attribute %s",
                 esc(nnav_attr_get(m, gr->owner_attr)->name, c, sizeof c));
    } else if (gr->kind == NNAV_GRAPH_BODY) {
        const nnav_attr *at = nnav_attr_get(m, gr->owner_attr);
        snprintf(buf, n, "%s %s.%s", op_name(m, gr->owner_node, a, sizeof a), node_label(m, gr->owner_node, b, sizeof b),
                 esc(at->name, c, sizeof c));
    } else if (gr->kind == NNAV_GRAPH_FUNCTION) {
        const nnav_function *f = nnav_function_get(m, gr->function);
        snprintf(buf, n, "function %s:%s", nnav_report_domain(f->domain, a, sizeof a),
                 esc(f->name, b, sizeof b));
    } else {
        snprintf(buf, n, "%s", graph_kind_name(gr->kind));
    }
}

/* A graph a row: in text its path (indented by depth), owner, node count
 * and name in quotes; in YAML its path, kind, name, depth, owner node and
 * attribute or function, and node counts. */
enum { T_PATH, T_KIND, T_NAME, T_DEPTH, T_OWNER_NODE, T_OWNER_INDEX, T_OWNER_OP, T_ATTRIBUTE,
       T_LIST_INDEX, T_FN_DOMAIN, T_FN_NAME, T_OVERLOAD, T_NODES, T_BELOW, T_OWNER };
static const nnav_rw_col tree_cols[] = {
    [T_PATH] = {"path", 0, 0, NULL, 0},
    [T_KIND] = {"kind", NNAV_RW_NOTEXT, 0, NULL, 0},
    [T_NAME] = {"name", 0, NNAV_RW_SKIP_EMPTY, NULL, 0},
    [T_DEPTH] = {"depth", NNAV_RW_NOTEXT, 0, NULL, 0},
    [T_OWNER_NODE] = {"owner_node", NNAV_RW_NOTEXT, 0, NULL, 0},
    [T_OWNER_INDEX] = {"owner_index", NNAV_RW_NOTEXT, 0, NULL, 0},
    [T_OWNER_OP] = {"owner_op_type", NNAV_RW_NOTEXT, 0, NULL, 0},
    [T_ATTRIBUTE] = {"attribute", NNAV_RW_NOTEXT, 0, NULL, 0},
    [T_LIST_INDEX] = {"list_index", NNAV_RW_NOTEXT, 0, NULL, 0},
    [T_FN_DOMAIN] = {"function_domain", NNAV_RW_NOTEXT, 0, NULL, 0},
    [T_FN_NAME] = {"function_name", NNAV_RW_NOTEXT, 0, NULL, 0},
    [T_OVERLOAD] = {"overload", NNAV_RW_NOTEXT, 0, NULL, 0},
    [T_NODES] = {"nodes", 0, 0, NULL, 0},
    [T_BELOW] = {"nodes_below", NNAV_RW_NOTEXT, 0, NULL, 0},
    [T_OWNER] = {NULL, 0, 0, NULL, 0},
};
static const uint8_t tree_text_order[] = {T_PATH, T_OWNER, T_NODES, T_NAME};
static const nnav_rw_table tree_table = {
    .cols = tree_cols, .ncols = sizeof tree_cols / sizeof *tree_cols, .sep = "  ",
    .text_order = tree_text_order, .ntext = sizeof tree_text_order};

int cmd_tree(const nnav_model *m, const opts *o)
{
    uint32_t ng = nnav_graph_count(m);
    /* Depth-first order for display: children follow their parent. Iterative. */
    uint32_t *order = malloc(sizeof *order * (ng + 1));
    uint32_t *stack = malloc(sizeof *stack * (ng + 1));
    if (!order || !stack) {
        free(order);
        free(stack);
        fprintf(stderr, "nnav: out of memory\n");
        return EXIT_BADINPUT;
    }
    uint32_t no = 0;
    for (uint32_t root = 0; root < ng; root++) {
        if (nnav_graph_get(m, root)->parent != NNAV_NONE)
            continue;
        uint32_t sp = 0;
        stack[sp++] = root;
        while (sp) {
            uint32_t g = stack[--sp];
            order[no++] = g;
            uint32_t nc;
            const uint32_t *ch = nnav_graph_children(m, g, &nc);
            for (uint32_t i = nc; i-- > 0;)
                stack[sp++] = ch[i];
        }
    }
    nnav_rw w;
    if (nnav_rw_open(&w, stdout, o->yaml ? NNAV_RW_YAML : NNAV_RW_TEXT) < 0) {
        free(order);
        free(stack);
        return EXIT_BADINPUT;
    }
    nnav_rw_table_begin(&w, NULL, &tree_table);
    char path[4096], shown[4200], own[2048], owner[2100], nm[1024], quoted[1100], nodes[96];
    for (uint32_t i = 0; i < no; i++) {
        uint32_t g = order[i];
        const nnav_graph *gr = nnav_graph_get(m, g);
        uint64_t below = nnav_graph_total_nodes(m, g);
        nnav_graph_path(m, g, path, sizeof path);
        unsigned indent = gr->depth * 2 > 40 ? 40 : gr->depth * 2;
        snprintf(shown, sizeof shown, "%*s%s", indent, "", path);
        owner_text(m, g, own, sizeof own);
        snprintf(owner, sizeof owner, "[%s]", own);
        quoted[0] = 0;
        if (gr->name.n)
            snprintf(quoted, sizeof quoted, "\"%s\"", esc(gr->name, nm, sizeof nm));
        int k = snprintf(nodes, sizeof nodes, "%u node%s", gr->node_count, pl(gr->node_count));
        if (below != gr->node_count)
            snprintf(nodes + k, sizeof nodes - (size_t)k, " (%llu with bodies)",
                     (unsigned long long)below);
        nnav_rw_row(&w);
        nnav_rw_cell_cstr(&w, T_PATH, path, shown);
        nnav_rw_cell_cstr(&w, T_KIND, graph_kind_name(gr->kind), NULL);
        nnav_rw_cell_span(&w, T_NAME, gr->name, quoted);
        nnav_rw_cell_uint(&w, T_DEPTH, gr->depth, NULL);
        if (gr->kind == NNAV_GRAPH_BODY) {
            if (gr->owner_node != NNAV_NONE) {
                const nnav_node *nd = nnav_node_get(m, gr->owner_node);
                nnav_rw_cell_span(&w, T_OWNER_NODE, nd->name, NULL);
                nnav_rw_cell_uint(&w, T_OWNER_INDEX, nnav_node_index(m, gr->owner_node), NULL);
                nnav_rw_cell_span(&w, T_OWNER_OP, nd->op, NULL);
            }
            nnav_rw_cell_span(&w, T_ATTRIBUTE, nnav_attr_get(m, gr->owner_attr)->name, NULL);
            if (gr->list_index != NNAV_NONE)
                nnav_rw_cell_uint(&w, T_LIST_INDEX, gr->list_index, NULL);
        } else if (gr->kind == NNAV_GRAPH_FUNCTION) {
            const nnav_function *f = nnav_function_get(m, gr->function);
            nnav_rw_cell_span(&w, T_FN_DOMAIN, f->domain, NULL);
            nnav_rw_cell_span(&w, T_FN_NAME, f->name, NULL);
            if (f->overload.n)
                nnav_rw_cell_span(&w, T_OVERLOAD, f->overload, NULL);
        }
        nnav_rw_cell_uint(&w, T_NODES, gr->node_count, nodes);
        nnav_rw_cell_uint(&w, T_BELOW, below, NULL);
        nnav_rw_cell_cstr(&w, T_OWNER, owner, NULL);
        nnav_rw_row_end(&w);
    }
    nnav_rw_table_end(&w);
    free(order);
    free(stack);
    return nnav_rw_close(&w) < 0 ? EXIT_BADINPUT : 0;
}

/* With a decluttered view (d), an input a hidden node folds to a constant
 * shows that value instead of its name: "[1,197,16,64] (folded)". */
static void refs_text(const nnav_model *m, const nnav_declutter *d, uint32_t first,
                      uint32_t count, char *buf, size_t n)
{
    size_t o = 0;
    buf[0] = 0;
    for (uint32_t i = 0; i < count && o + 8 < n; i++) {
        char nm[512];
        const nnav_ref r = nnav_ref_get(m, first + i);
        esc(r.name, nm, sizeof nm);
        if (d && r.value != NNAV_NONE && !r.control)
            nnav_declutter_input_text(d, r.value, nm, sizeof nm);
        if (!nm[0])
            esc(r.name, nm, sizeof nm);
        o += (size_t)snprintf(buf + o, n - o, "%s%s", i ? ", " : "", r.name.n ? nm : "\"\"");
    }
}

/* ---- nodes ---- */

/* A node a row: in text its index, op and name (the op and name columns as
 * wide as the widest shown, at least 20 and 28, at most 40 and 96 display
 * columns: a longer one pushes its own row only, so one hostile name cannot
 * pad every row), "INPUTS -> OUTPUTS" and with --shapes the outputs' types
 * after a colon; YAML has the op type and domain apart, the names exactly,
 * and with --declutter what the hidden nodes folded. */
enum { N_INDEX, N_OP, N_OP_TYPE, N_DOMAIN, N_NAME, N_INPUT, N_OUTPUT, N_TYPES };
static const nnav_rw_col nodes_cols[] = {
    [N_INDEX] = {"index", 6, NNAV_RW_RIGHT, NULL, 0},
    [N_OP] = {NULL, 20, NNAV_RW_MEASURE, "  ", 40},
    [N_OP_TYPE] = {"op_type", NNAV_RW_NOTEXT, 0, NULL, 0},
    [N_DOMAIN] = {"domain", NNAV_RW_NOTEXT, 0, NULL, 0},
    [N_NAME] = {"name", 28, NNAV_RW_MEASURE, NULL, 96},
    [N_INPUT] = {"input", 0, 0, NULL, 0},
    [N_OUTPUT] = {"output", 0, 0, " -> ", 0},
    [N_TYPES] = {"output_types", 0, 0, "", 0},
};
static const nnav_rw_table nodes_table = {
    .cols = nodes_cols, .ncols = sizeof nodes_cols / sizeof *nodes_cols, .sep = " "};

int cmd_nodes(const nnav_model *m, const opts *o)
{
    uint32_t g;
    int rc = pick_graph(m, o, "nodes", &g);
    if (rc)
        return rc;
    const nnav_graph *gr = nnav_graph_get(m, g);
    nnav_shapes *s = NULL;
    if ((o->shapes || o->declutter) && !(s = shapes_of(m, o)))
        return EXIT_BADINPUT;
    /* --declutter: the view without constants, renames and folded shape
     * arithmetic (declutter.h); indices stay the file's. */
    nnav_declutter *d = NULL;
    if (o->declutter && !(d = nnav_declutter_build(m, g, s))) {
        fprintf(stderr, "nnav: out of memory while decluttering\n");
        nnav_shapes_free(s);
        return EXIT_BADINPUT;
    }
    nnav_rw w;
    if (nnav_rw_open(&w, stdout, o->yaml ? NNAV_RW_YAML : NNAV_RW_TEXT) < 0) {
        if (s)
            nnav_shapes_free(s);
        nnav_declutter_free(d);
        return EXIT_BADINPUT;
    }
    int text = !o->yaml;
    char opb[1100], nm[1100], ins[8192], outs[8192], ty[1100];
    nnav_rw_table_begin(&w, NULL, &nodes_table);
    for (int pass = 0; pass < nnav_rw_table_passes(&w) && rc == 0; pass++) {
        nnav_rw_table_pass(&w, pass);
        for (uint32_t i = 0; i < gr->node_count; i++) {
            uint32_t id = gr->node_first + i;
            const nnav_node *nd = nnav_node_get(m, id);
            op_name(m, id, opb, sizeof opb);
            /* --op matches the op type, or the domain-qualified form. */
            if (o->op && strcmp(opb, o->op) != 0 && !nnav_span_eqs(nd->op, o->op))
                continue;
            if (d && nnav_declutter_hidden(d, id))
                continue;
            nnav_rw_row(&w);
            nnav_rw_cell_uint(&w, N_INDEX, i, NULL);
            nnav_rw_cell_cstr(&w, N_OP, opb, NULL);
            nnav_rw_cell_span(&w, N_OP_TYPE, nd->op, NULL);
            nnav_rw_cell_span(&w, N_DOMAIN, nnav_node_domain(m, id), NULL);
            nnav_rw_cell_span(&w, N_NAME, nd->name,
                              !text ? NULL : nd->name.n ? esc(nd->name, nm, sizeof nm) : "-");
            if (text)
                refs_text(m, d, nd->in_first, nd->in_count, ins, sizeof ins);
            nnav_rw_cell_list(&w, N_INPUT, ins);
            for (uint32_t k = 0; !text && k < nd->in_count; k++)
                nnav_rw_span(&w, nnav_ref_get(m, nd->in_first + k).name, NULL);
            nnav_rw_cell_list_end(&w);
            if (d && nnav_rw_yw(&w))
                nnav_declutter_yaml_folded(nnav_rw_yw(&w), m, d, s, nd);
            if (text)
                refs_text(m, NULL, nd->out_first, nd->out_count, outs, sizeof outs);
            nnav_rw_cell_list(&w, N_OUTPUT, outs);
            for (uint32_t k = 0; !text && k < nd->out_count; k++)
                nnav_rw_span(&w, nnav_ref_get(m, nd->out_first + k).name, NULL);
            nnav_rw_cell_list_end(&w);
            if (!o->shapes) {
                nnav_rw_row_end(&w);
                continue;
            }
            /* --shapes: YAML each output's type (null for an output that
             * names no value); text the types after a colon, in output
             * order, "-" for none, control outputs left out. */
            char *types = NULL;
            size_t cap = text ? (size_t)nd->out_count * (sizeof ty + 4) + 1 : 0, at = 0;
            if (text && !(types = malloc(cap))) {
                nnav_rw_row_end(&w);
                rc = EXIT_BADINPUT;
                break;
            }
            for (uint32_t k = 0; text && k < nd->out_count; k++) {
                const nnav_ref r = nnav_ref_get(m, nd->out_first + k);
                if (r.control)
                    continue;
                const char *t = r.value == NNAV_NONE ? "-" : value_type(s, r.value, ty, sizeof ty);
                at += (size_t)snprintf(types + at, cap - at, "%s%s", k ? ", " : "  : ", t);
            }
            if (types)
                types[at] = 0;
            nnav_rw_cell_list(&w, N_TYPES, types);
            free(types);
            for (uint32_t k = 0; !text && k < nd->out_count; k++) {
                const nnav_ref r = nnav_ref_get(m, nd->out_first + k);
                if (r.value == NNAV_NONE)
                    nnav_rw_null(&w, NULL);
                else
                    nnav_rw_cstr(&w, value_type(s, r.value, ty, sizeof ty), NULL);
            }
            nnav_rw_cell_list_end(&w);
            nnav_rw_row_end(&w);
        }
    }
    nnav_rw_table_end(&w);
    nnav_declutter_free(d);
    if (s)
        nnav_shapes_free(s);
    if (rc)
        fprintf(stderr, "nnav nodes: out of memory\n");
    return nnav_rw_close(&w) < 0 ? EXIT_BADINPUT : rc;
}

/* ---- node ---- */

static void yaml_attr_value(nnav_yw *w, const nnav_model *m, uint32_t a)
{
    /* The one YAML renderer of attribute values (export.h), as node shows
     * them: tensors in brief, TensorFlow bools and types as such, graphs by
     * path. What cannot be read is null, as before; the error is not shown. */
    nnav_attr_yaml_opts o = {.max_values = 16, .tf_typed = 1, .graph_paths = 1, .text_size = 2048};
    nnav_error err;
    nnav_yw_attr_value(w, m, a, &o, &err);
}


/* A node's input or output as typed: the source word and the type as best
 * known. Where the file has a type that inference confirms or cannot check,
 * the file's own words for it (which may say the type is malformed); the
 * inferred type where the file has none or disagrees. *file gets the file's
 * type on a disagreement. */
static void typed_cols(const nnav_model *m, const nnav_shapes *s, uint32_t v, char *buf,
                       size_t n, char *file, size_t fn)
{
    char ty[1100], ft[1100];
    const nnav_fact *f = s ? nnav_shapes_fact(s, v) : NULL;
    uint8_t src = f ? f->src : NNAV_SRC_NONE;
    nnav_value_type_format(m, v, ft, sizeof ft);
    file[0] = 0;
    if (ft[0] && (src == NNAV_SRC_FILE || src == NNAV_SRC_AGREE))
        snprintf(ty, sizeof ty, "%s", ft);
    else if (s && f && (f->dtype || f->rank >= 0))
        value_type(s, v, ty, sizeof ty);
    else
        snprintf(ty, sizeof ty, "%s", ft[0] ? ft : "?");
    if (src == NNAV_SRC_DISAGREE)
        snprintf(file, fn, "%s", ft[0] ? ft : "?");
    snprintf(buf, n, "%-9s %-24s", src == NNAV_SRC_DISAGREE ? "DISAGREE" : src_word(src), ty);
}

/* The widest schema name of a node's first count inputs (outputs), in
 * display columns; 0 when the schema names none. */
static int formal_width(const nnav_model *m, uint32_t node, const nnav_op_use *u, int output,
                        uint32_t count)
{
    char f[512];
    int w = 0;
    for (uint32_t i = 0; i < count; i++) {
        int c = nnav_text_cols(nnav_node_formal(m, node, u, output, i, f, sizeof f));
        if (c > w)
            w = c;
    }
    return w;
}

int cmd_node(const nnav_model *m, const opts *o)
{
    uint32_t id;
    int rc = find_node(m, o, &id);
    if (rc)
        return rc;
    const nnav_node *nd = nnav_node_get(m, id);
    char a[8192], b[2048], c[2048], path[2048], ft[1100];
    nnav_graph_path(m, nd->graph, path, sizeof path);
    /* Without memory for the typed view, the node is still shown as the file has it. */
    nnav_shapes *s = shapes_of(m, o);
    const nnav_cost *cost = s ? nnav_shapes_node_cost(s, id) : NULL;
    /* The schema in force; the node without one when it cannot be resolved. */
    nnav_op_use u;
    int have_schema = nnav_op_resolve(m, id, &u) == 0;
    size_t nrows = have_schema ? nnav_node_attr_rows(m, id, &u, NULL, 0) : 0;
    nnav_node_attr_row *rows = nrows ? malloc(nrows * sizeof *rows) : NULL;
    if (rows)
        nnav_node_attr_rows(m, id, &u, rows, nrows);
    else
        nrows = 0;
    if (o->yaml) {
        nnav_yw w;
        if (nnav_yw_open(&w, stdout) < 0) {
            if (s)
                nnav_shapes_free(s);
            free(rows);
            return EXIT_BADINPUT;
        }
        nnav_yw_map(&w);
        nnav_yw_key(&w, "name"), nnav_yw_span(&w, nd->name);
        nnav_yw_key(&w, "op_type"), nnav_yw_span(&w, nd->op);
        nnav_yw_key(&w, "domain"), nnav_yw_span(&w, nnav_node_domain(m, id));
        if (nnav_model_facts_get(m)->format != NNAV_FMT_ONNX)
            nnav_yw_key(&w, "device"), nnav_yw_span(&w, nnav_node_device(m, id));
        nnav_yw_key(&w, "graph"), nnav_yw_cstr(&w, path);
        nnav_yw_key(&w, "index"), nnav_yw_uint(&w, nnav_node_index(m, id));
        if (nd->function != NNAV_NONE) {
            nnav_graph_path(m, nnav_function_get(m, nd->function)->graph, b, sizeof b);
            nnav_yw_key(&w, "function"), nnav_yw_cstr(&w, b);
        }
        if (have_schema) {
            nnav_yw_key(&w, "schema");
            nnav_node_schema_yaml(&w, m, id, &u);
        }
        nnav_yw_key(&w, "attribute");
        nnav_yw_seq(&w);
        for (uint32_t i = 0; i < nd->attr_count; i++) {
            uint32_t aid = nd->attr_first + i;
            const nnav_attr *at = nnav_attr_get(m, aid);
            nnav_yw_map(&w);
            nnav_yw_key(&w, "name"), nnav_yw_span(&w, at->name);
            nnav_yw_key(&w, "type"), nnav_yw_cstr(&w, nnav_attr_type_name(at->type));
            if (at->ref_attr_name.n) {
                nnav_yw_key(&w, "ref_attr_name"), nnav_yw_span(&w, at->ref_attr_name);
            } else {
                nnav_yw_key(&w, "value");
                yaml_attr_value(&w, m, aid);
            }
            nnav_yw_map_end(&w);
        }
        /* Then the schema's defaults for what the file leaves out: the
         * file's attributes keep their places. */
        for (size_t k = 0; k < nrows; k++) {
            if (rows[k].state != NNAV_NA_DEFAULT)
                continue;
            nnav_yw_map(&w);
            nnav_yw_key(&w, "name");
            nnav_yw_span(&w, (nnav_span){(const uint8_t *)rows[k].sa->name,
                                         strlen(rows[k].sa->name)});
            nnav_yw_key(&w, "type"), nnav_yw_cstr(&w, nnav_attr_type_name(rows[k].sa->type));
            nnav_yw_key(&w, "value"), nnav_op_default_yaml(&w, &rows[k].sa->def);
            nnav_yw_key(&w, "default"), nnav_yw_bool(&w, 1);
            nnav_yw_map_end(&w);
        }
        nnav_yw_seq_end(&w);
        for (int side = 0; side < 2; side++) {
            uint32_t first = side ? nd->out_first : nd->in_first;
            uint32_t count = side ? nd->out_count : nd->in_count;
            nnav_yw_key(&w, side ? "output" : "input");
            nnav_yw_seq(&w);
            for (uint32_t i = 0; i < count; i++) {
                const nnav_ref r = nnav_ref_get(m, first + i);
                nnav_yw_map(&w);
                nnav_yw_key(&w, "name"), nnav_yw_span(&w, r.name);
                if (have_schema && u.status == NNAV_OPS_FOUND &&
                    nnav_op_node_arg_name(m, id, u.s, side, i, c, sizeof c)[0])
                    nnav_yw_key(&w, "formal"),
                        nnav_yw_span(&w, (nnav_span){(const uint8_t *)c, strlen(c)});
                if (r.control)
                    nnav_yw_key(&w, "control"), nnav_yw_bool(&w, 1);
                if (r.value != NNAV_NONE) {
                    const nnav_value *v = nnav_value_get(m, r.value);
                    nnav_value_type_format(m, r.value, b, sizeof b);
                    nnav_yw_key(&w, "type"), nnav_yw_cstr(&w, b);
                    if (s) {
                        const nnav_fact *f = nnav_shapes_fact(s, r.value);
                        nnav_yw_key(&w, "inferred_type");
                        nnav_yw_cstr(&w, value_type(s, r.value, c, sizeof c));
                        nnav_yw_key(&w, "type_source");
                        nnav_yw_cstr(&w, src_word(f ? f->src : NNAV_SRC_NONE));
                    }
                    if (!side) {
                        nnav_yw_key(&w, "source"), nnav_yw_cstr(&w, kind_word(v->kind));
                        if (v->kind == NNAV_VAL_NODE) {
                            /* Raw, and by index (within its graph) too: an
                             * unnamed producer has only that. */
                            nnav_yw_key(&w, "producer");
                            nnav_yw_span(&w, nnav_node_get(m, v->producer)->name);
                            nnav_yw_key(&w, "producer_index");
                            nnav_yw_uint(&w, nnav_node_index(m, v->producer));
                        }
                        if (v->graph != nd->graph) {
                            nnav_graph_path(m, v->graph, c, sizeof c);
                            nnav_yw_key(&w, "scope"), nnav_yw_cstr(&w, c);
                        }
                    } else {
                        uint32_t nc;
                        const uint32_t *cons = nnav_value_consumers(m, r.value, &nc);
                        /* Raw names like name and producer, and their
                         * indices (within each one's graph) in the same order. */
                        nnav_yw_key(&w, "consumers");
                        nnav_yw_seq_flow(&w);
                        for (uint32_t k = 0; k < nc; k++)
                            nnav_yw_span(&w, nnav_node_get(m, cons[k])->name);
                        nnav_yw_seq_end(&w);
                        nnav_yw_key(&w, "consumer_index");
                        nnav_yw_seq_flow(&w);
                        for (uint32_t k = 0; k < nc; k++)
                            nnav_yw_uint(&w, nnav_node_index(m, cons[k]));
                        nnav_yw_seq_end(&w);
                        nnav_yw_key(&w, "graph_output"), nnav_yw_bool(&w, v->is_output);
                    }
                }
                nnav_yw_map_end(&w);
            }
            nnav_yw_seq_end(&w);
        }
        if (cost) {
            nnav_yw_key(&w, "cost");
            nnav_yw_map_flow(&w);
            nnav_report_cost_keys(&w, cost);
            nnav_yw_key(&w, "known"), nnav_yw_bool(&w, cost->known);
            nnav_yw_map_end(&w);
        }
        nnav_yw_map_end(&w);
        if (s)
            nnav_shapes_free(s);
        free(rows);
        return nnav_yw_close(&w) < 0 ? EXIT_BADINPUT : 0;
    }
    printf("%-10s %s\n", "node", node_label(m, id, a, sizeof a));
    printf("%-10s %s\n", "op_type", esc(nd->op, a, sizeof a));
    if (nnav_model_facts_get(m)->format == NNAV_FMT_ONNX)
        printf("%-10s %s\n", "domain", nnav_report_domain(nnav_node_domain(m, id), a, sizeof a));
    else if (nnav_node_device(m, id).n)
        printf("%-10s %s\n", "device", esc(nnav_node_device(m, id), a, sizeof a));
    else
        printf("%-10s %s\n", "device", "(any)");
    if (have_schema)
        printf("%-10s %s\n", "schema", nnav_node_schema_line(m, id, &u, a, sizeof a));
    printf("%-10s %s (index %u)\n", "graph", path, nnav_node_index(m, id));
    if (nd->function != NNAV_NONE) {
        nnav_graph_path(m, nnav_function_get(m, nd->function)->graph, b, sizeof b);
        printf("%-10s calls local function %s\n", "function", b);
    }
    size_t ndef = 0;
    for (size_t k = nd->attr_count; k < nrows; k++)
        ndef += rows[k].state == NNAV_NA_DEFAULT;
    if (ndef)
        printf("attributes (%u set, %zu by default):\n", nd->attr_count, ndef);
    else
        printf("attributes (%u):\n", nd->attr_count);
    for (uint32_t i = 0; i < nd->attr_count; i++) {
        uint32_t aid = nd->attr_first + i;
        const nnav_attr *at = nnav_attr_get(m, aid);
        nnav_attr_format(m, aid, 16, a, sizeof a);
        printf("  %-20s %-8s %s", esc(at->name, b, sizeof b), nnav_attr_type_name(at->type), a);
        if (i < nrows && rows[i].state == NNAV_NA_UNKNOWN && u.s->since > 0)
            printf("  (unknown to %s v%d)", esc(nd->op, b, sizeof b), (int)u.s->since);
        else if (i < nrows && rows[i].state == NNAV_NA_UNKNOWN) /* an OpDef has no version */
            printf("  (unknown to %s)", esc(nd->op, b, sizeof b));
        printf("\n");
    }
    for (size_t k = nd->attr_count; k < nrows; k++) {
        if (rows[k].state != NNAV_NA_DEFAULT)
            continue;
        nnav_text_escape_cstr(rows[k].sa->name, b, sizeof b);
        printf("  %-20s %-8s %s (default)\n", b, nnav_attr_type_name(rows[k].sa->type),
               nnav_node_attr_row_value(m, &rows[k], 16, a, sizeof a));
    }
    /* What has neither a value nor a default, on one line each: the
     * optional ones (the operator does without or infers them) and the
     * required ones the node lacks. */
    for (int req = 0; req < 2; req++) {
        int any = 0;
        for (size_t k = nd->attr_count; k < nrows; k++) {
            if (rows[k].state != NNAV_NA_UNSET || !rows[k].sa->required != !req)
                continue;
            nnav_text_escape_cstr(rows[k].sa->name, b, sizeof b);
            printf("%s%s", any++ ? ", " : req ? "  (missing, required: " : "  (not set: ", b);
        }
        if (any)
            printf(")\n");
    }
    int fw = have_schema ? formal_width(m, id, &u, 0, nd->in_count) : 0;
    printf("inputs (%u):\n", nd->in_count);
    for (uint32_t i = 0; i < nd->in_count; i++) {
        const nnav_ref r = nnav_ref_get(m, nd->in_first + i);
        printf("  [%u] ", i);
        if (fw)
            put_padded(nnav_node_formal(m, id, &u, 0, i, a, sizeof a), fw + 2);
        if (r.value == NNAV_NONE) {
            printf("\"\" (omitted optional input)\n");
            continue;
        }
        source_text(m, r.value, nd->graph, b, sizeof b);
        typed_cols(m, s, r.value, c, sizeof c, ft, sizeof ft);
        printf("%-28s %s from %s", esc(r.name, a, sizeof a), c, b);
        if (ft[0])
            printf("; the file says %s", ft);
        printf("\n");
    }
    fw = have_schema ? formal_width(m, id, &u, 1, nd->out_count) : 0;
    printf("outputs (%u):\n", nd->out_count);
    for (uint32_t i = 0; i < nd->out_count; i++) {
        const nnav_ref r = nnav_ref_get(m, nd->out_first + i);
        printf("  [%u] ", i);
        if (fw)
            put_padded(nnav_node_formal(m, id, &u, 1, i, a, sizeof a), fw + 2);
        if (r.value == NNAV_NONE) {
            printf("\"\" (unused optional output)\n");
            continue;
        }
        const nnav_value *v = nnav_value_get(m, r.value);
        uint32_t nc;
        const uint32_t *cons = nnav_value_consumers(m, r.value, &nc);
        typed_cols(m, s, r.value, c, sizeof c, ft, sizeof ft);
        printf("%-28s %s to ", esc(r.name, a, sizeof a), c);
        if (nc == 0 && !v->is_output)
            printf("(no consumers)");
        for (uint32_t k = 0; k < nc && k < 32; k++) {
            const nnav_node *cn = nnav_node_get(m, cons[k]);
            printf("%s%s (%s)", k ? ", " : "", node_label(m, cons[k], a, sizeof a),
                   op_name(m, cons[k], b, sizeof b));
            if (cn->graph != nd->graph) {
                nnav_graph_path(m, cn->graph, c, sizeof c);
                printf(" in %s", c);
            }
        }
        if (nc > 32)
            printf(", ... (%u in all)", nc);
        if (v->is_output)
            printf("%sgraph output", nc ? ", " : "");
        if (ft[0])
            printf("; the file says %s", ft);
        printf("\n");
    }
    if (cost) {
        cost_text(cost, NULL, a, sizeof a);
        printf("%-10s %s\n", "cost", a);
    }
    if (s)
        nnav_shapes_free(s);
    free(rows);
    return 0;
}

