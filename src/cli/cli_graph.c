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
    [T_PATH] = {"path", 0, 0, NULL, 0, NULL},
    [T_KIND] = {"kind", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [T_NAME] = {"name", 0, NNAV_RW_SKIP_EMPTY, NULL, 0, NULL},
    [T_DEPTH] = {"depth", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [T_OWNER_NODE] = {"owner_node", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [T_OWNER_INDEX] = {"owner_index", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [T_OWNER_OP] = {"owner_op_type", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [T_ATTRIBUTE] = {"attribute", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [T_LIST_INDEX] = {"list_index", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [T_FN_DOMAIN] = {"function_domain", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [T_FN_NAME] = {"function_name", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [T_OVERLOAD] = {"overload", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [T_NODES] = {"nodes", 0, 0, NULL, 0, NULL},
    [T_BELOW] = {"nodes_below", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [T_OWNER] = {NULL, 0, 0, NULL, 0, NULL},
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
/* In text a node's name is cut in its middle past NAME_CAP columns, and
 * each of its inputs and outputs past REF_CAP, so that one long name does
 * not make a row of hundreds of columns (YAML has them whole). */
enum { NAME_CAP = 48, REF_CAP = 48 };

/* The names of count refs from first, ", " between, each cut at REF_CAP
 * columns. */
static void refs_text(const nnav_model *m, const nnav_declutter *d, uint32_t first,
                      uint32_t count, char *buf, size_t n)
{
    size_t o = 0;
    buf[0] = 0;
    for (uint32_t i = 0; i < count && o + 8 < n; i++) {
        char nm[512], cut[512];
        const nnav_ref r = nnav_ref_get(m, first + i);
        nm[0] = 0;
        if (d && r.value != NNAV_NONE && !r.control)
            nnav_declutter_input_text(d, r.value, nm, sizeof nm);
        const char *t = nm; /* what declutter says for it stays whole */
        if (!nm[0])
            t = nnav_text_elide_mid(esc(r.name, nm, sizeof nm), REF_CAP, cut, sizeof cut);
        o += (size_t)snprintf(buf + o, n - o, "%s%s", i ? ", " : "", r.name.n ? t : "\"\"");
    }
}

/* ---- nodes ---- */

/* A node a row: in text its index, op and name (the op and name columns as
 * wide as the widest shown, at least 20 and 28; an op over 40 columns
 * pushes its own row only, so one hostile op cannot pad every row; a name
 * is cut in its middle past 48, "abc…xyz", as each input and output is),
 * "INPUTS -> OUTPUTS" and with --shapes the outputs' types after a colon;
 * YAML has the op type and domain apart, the names exactly, and with
 * --declutter what the hidden nodes folded. */
enum { N_INDEX, N_OP, N_OP_TYPE, N_DOMAIN, N_NAME, N_INPUT, N_OUTPUT, N_TYPES };
static const nnav_rw_col nodes_cols[] = {
    [N_INDEX] = {"index", 6, NNAV_RW_RIGHT, NULL, 0, NULL},
    [N_OP] = {NULL, 20, NNAV_RW_MEASURE, "  ", 40, NULL},
    [N_OP_TYPE] = {"op_type", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [N_DOMAIN] = {"domain", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [N_NAME] = {"name", 28, NNAV_RW_MEASURE | NNAV_RW_CAP, NULL, NAME_CAP, NULL},
    [N_INPUT] = {"input", 0, 0, NULL, 0, NULL},
    [N_OUTPUT] = {"output", 0, 0, " -> ", 0, NULL},
    [N_TYPES] = {"output_types", 0, 0, "", 0, NULL},
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
    char opb[1100], nm[1100], cut[1100], ins[8192], outs[8192], ty[1100];
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
                              !text       ? NULL
                              : nd->name.n ? nnav_text_elide_mid(esc(nd->name, nm, sizeof nm),
                                                                 NAME_CAP, cut, sizeof cut)
                                           : "-");
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
    if (src == NNAV_SRC_DISAGREE && f->conflict)
        snprintf(file, fn, "(%s)", nnav_shapes_why(s, f->why)); /* no type fits */
    else if (src == NNAV_SRC_DISAGREE)
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

/* node's tables. The attributes: the file's, then the schema's defaults
 * for what it leaves out. In text "  NAME TYPE VALUE", a default's value
 * "(default)" after it, an attribute the schema lacks "(unknown to ...)";
 * in YAML the value typed (ref_attr_name for a reference). */
enum { A_NAME, A_TYPE, A_REF, A_TEXT, A_DEFAULT, A_NOTE };
static const nnav_rw_col attr_cols[] = {
    [A_NAME] = {"name", 20, 0, NULL, 0, NULL},
    [A_TYPE] = {"type", 8, 0, NULL, 0, NULL},
    [A_REF] = {"ref_attr_name", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [A_TEXT] = {NULL, 0, 0, NULL, 0, NULL}, /* YAML's value follows it */
    [A_DEFAULT] = {"default", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [A_NOTE] = {NULL, 0, NNAV_RW_SKIP_EMPTY, "  ", 0, NULL},
};
static const nnav_rw_table attr_table = {
    .cols = attr_cols, .ncols = sizeof attr_cols / sizeof *attr_cols, .sep = " ", .indent = "  "};

/* Inputs and outputs: in text "  [i] FORMAL NAME SOURCE TYPE from/to ...",
 * the formal column as wide as the node's widest; YAML the argument's
 * name, the file's and the inferred type, where it comes from or goes. */
enum { R_POS, R_FTEXT, R_NAME, R_FORMAL, R_CONTROL, R_TYPE, R_INF, R_TSRC, R_SOURCE, R_PROD,
       R_PIDX, R_SCOPE, R_CONS, R_CIDX, R_GOUT, R_TYPED, R_WHERE, R_FILE };
static const nnav_rw_col ref_cols[] = {
    [R_POS] = {NULL, 0, 0, NULL, 0, NULL},
    [R_FTEXT] = {NULL, 0, 0, NULL, 0, NULL},
    [R_NAME] = {"name", 28, 0, NULL, 0, NULL},
    [R_FORMAL] = {"formal", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [R_CONTROL] = {"control", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [R_TYPE] = {"type", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [R_INF] = {"inferred_type", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [R_TSRC] = {"type_source", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [R_SOURCE] = {"source", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [R_PROD] = {"producer", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [R_PIDX] = {"producer_index", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [R_SCOPE] = {"scope", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [R_CONS] = {"consumers", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [R_CIDX] = {"consumer_index", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [R_GOUT] = {"graph_output", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [R_TYPED] = {NULL, 0, 0, NULL, 0, NULL},
    [R_WHERE] = {NULL, 0, 0, NULL, 0, NULL},
    [R_FILE] = {NULL, 0, NNAV_RW_SKIP_EMPTY, "; ", 0, NULL},
};
static const nnav_rw_table ref_table = {
    .cols = ref_cols, .ncols = sizeof ref_cols / sizeof *ref_cols, .sep = " ", .indent = "  "};

/* In text where an output goes: "to A (Add), B (Mul) in /g, graph output". */
static void consumers_text(const nnav_model *m, const nnav_node *nd, const nnav_value *v,
                           const uint32_t *cons, uint32_t nc, FILE *f)
{
    char a[8192], b[2048], c[2048];
    fputs("to ", f);
    if (nc == 0 && !v->is_output)
        fputs("(no consumers)", f);
    for (uint32_t k = 0; k < nc && k < 32; k++) {
        const nnav_node *cn = nnav_node_get(m, cons[k]);
        fprintf(f, "%s%s (%s)", k ? ", " : "", node_label(m, cons[k], a, sizeof a),
                op_name(m, cons[k], b, sizeof b));
        if (cn->graph != nd->graph) {
            nnav_graph_path(m, cn->graph, c, sizeof c);
            fprintf(f, " in %s", c);
        }
    }
    if (nc > 32)
        fprintf(f, ", ... (%u in all)", nc);
    if (v->is_output)
        fprintf(f, "%sgraph output", nc ? ", " : "");
}

/* A node's inputs (side 0) or outputs (1), with their heading in text. */
static void node_refs(nnav_rw *w, const nnav_model *m, const nnav_shapes *s, uint32_t id,
                      const nnav_op_use *u, int have_schema, int side)
{
    const nnav_node *nd = nnav_node_get(m, id);
    uint32_t first = side ? nd->out_first : nd->in_first;
    uint32_t count = side ? nd->out_count : nd->in_count;
    char a[2048], b[2048], c[2048], ft[1100], fs[1200], pos[32];
    int fw = have_schema ? formal_width(m, id, u, side, count) : 0;
    snprintf(a, sizeof a, "%s (%u):\n", side ? "outputs" : "inputs", count);
    nnav_rw_text(w, a);
    nnav_rw_table_begin(w, side ? "output" : "input", &ref_table);
    nnav_rw_table_least(w, R_FTEXT, fw + 1);
    for (uint32_t i = 0; i < count; i++) {
        const nnav_ref r = nnav_ref_get(m, first + i);
        nnav_rw_row(w);
        snprintf(pos, sizeof pos, "[%u]", i);
        nnav_rw_cell_null(w, R_POS, pos);
        if (fw)
            nnav_rw_cell_null(w, R_FTEXT, nnav_node_formal(m, id, u, side, i, a, sizeof a));
        nnav_rw_cell_span(w, R_NAME, r.name, r.value == NNAV_NONE
                              ? side ? "\"\" (unused optional output)" : "\"\" (omitted optional input)"
                              : esc(r.name, b, sizeof b));
        if (have_schema && u->status == NNAV_OPS_FOUND &&
            nnav_op_node_arg_name(m, id, u->s, side, i, c, sizeof c)[0])
            nnav_rw_cell_span(w, R_FORMAL, (nnav_span){(const uint8_t *)c, strlen(c)}, NULL);
        if (r.control)
            nnav_rw_cell_bool(w, R_CONTROL, 1, NULL);
        if (r.value == NNAV_NONE) {
            nnav_rw_row_end(w);
            continue;
        }
        const nnav_value *v = nnav_value_get(m, r.value);
        nnav_value_type_format(m, r.value, b, sizeof b);
        nnav_rw_cell_cstr(w, R_TYPE, b, NULL);
        if (s) {
            const nnav_fact *f = nnav_shapes_fact(s, r.value);
            nnav_rw_cell_cstr(w, R_INF, value_type(s, r.value, c, sizeof c), NULL);
            nnav_rw_cell_cstr(w, R_TSRC, src_word(f ? f->src : NNAV_SRC_NONE), NULL);
        }
        uint32_t nc = 0;
        const uint32_t *cons = NULL;
        if (!side) {
            nnav_rw_cell_cstr(w, R_SOURCE, kind_word(v->kind), NULL);
            if (v->kind == NNAV_VAL_NODE) {
                /* Raw, and by index (within its graph) too: an unnamed
                 * producer has only that. */
                nnav_rw_cell_span(w, R_PROD, nnav_node_get(m, v->producer)->name, NULL);
                nnav_rw_cell_uint(w, R_PIDX, nnav_node_index(m, v->producer), NULL);
            }
            if (v->graph != nd->graph) {
                nnav_graph_path(m, v->graph, c, sizeof c);
                nnav_rw_cell_cstr(w, R_SCOPE, c, NULL);
            }
        } else {
            /* Raw names like name and producer, and their indices (within
             * each one's graph) in the same order. */
            cons = nnav_value_consumers(m, r.value, &nc);
            nnav_rw_cell_list(w, R_CONS, NULL);
            for (uint32_t k = 0; k < nc; k++)
                nnav_rw_span(w, nnav_node_get(m, cons[k])->name, NULL);
            nnav_rw_cell_list_end(w);
            nnav_rw_cell_list(w, R_CIDX, NULL);
            for (uint32_t k = 0; k < nc; k++)
                nnav_rw_uint(w, nnav_node_index(m, cons[k]), NULL);
            nnav_rw_cell_list_end(w);
            nnav_rw_cell_bool(w, R_GOUT, v->is_output, NULL);
        }
        if (!nnav_rw_yaml(w)) { /* the text's columns: how typed, and from or to where */
            typed_cols(m, s, r.value, c, sizeof c, ft, sizeof ft);
            nnav_rw_cell_null(w, R_TYPED, c);
            char *where = NULL;
            size_t wl = 0;
            FILE *f = open_memstream(&where, &wl);
            if (f) {
                if (side) {
                    consumers_text(m, nd, v, cons, nc, f);
                } else {
                    source_text(m, r.value, nd->graph, b, sizeof b);
                    fprintf(f, "from %s", b);
                }
                fclose(f);
            }
            nnav_rw_cell_null(w, R_WHERE, where ? where : "");
            free(where);
            snprintf(fs, sizeof fs, "%s%s", ft[0] && ft[0] != '(' ? "the file says " : "", ft);
            nnav_rw_cell_null(w, R_FILE, fs);
        }
        nnav_rw_row_end(w);
    }
    nnav_rw_table_end(w);
}

int cmd_node(const nnav_model *m, const opts *o)
{
    uint32_t id;
    int rc = find_node(m, o, &id);
    if (rc)
        return rc;
    const nnav_node *nd = nnav_node_get(m, id);
    char a[8192], b[2048], path[2048], line[4200];
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
    nnav_rw w;
    if (nnav_rw_open(&w, stdout, o->yaml ? NNAV_RW_YAML : NNAV_RW_TEXT) < 0) {
        if (s)
            nnav_shapes_free(s);
        free(rows);
        return EXIT_BADINPUT;
    }
    unsigned traits = nnav_model_facts_get(m)->traits;
    int onnx = (traits & NNAV_TRAIT_OPSETS) != 0; /* nodes name a domain */
    nnav_rw_map(&w, 10);
    nnav_rw_key_as(&w, "name", "node"), nnav_rw_span(&w, nd->name, node_label(m, id, a, sizeof a));
    nnav_rw_key(&w, "op_type"), nnav_rw_span(&w, nd->op, NULL);
    nnav_rw_key_as(&w, "domain", onnx ? "domain" : NULL);
    nnav_rw_span(&w, nnav_node_domain(m, id), nnav_report_domain(nnav_node_domain(m, id), a, sizeof a));
    if (traits & NNAV_TRAIT_DEVICES) {
        nnav_span dev = nnav_node_device(m, id);
        nnav_rw_key(&w, "device"), nnav_rw_span(&w, dev, dev.n ? NULL : "(any)");
    }
    if (have_schema) { /* in text before the graph; in YAML a map after it */
        snprintf(line, sizeof line, "%-10s %s\n", "schema", nnav_node_schema_line(m, id, &u, a, sizeof a));
        nnav_rw_text(&w, line);
    }
    snprintf(line, sizeof line, "%s (index %u)", path, nnav_node_index(m, id));
    nnav_rw_key(&w, "graph"), nnav_rw_cstr(&w, path, line);
    nnav_rw_key_as(&w, "index", NULL), nnav_rw_uint(&w, nnav_node_index(m, id), NULL);
    if (nd->function != NNAV_NONE) {
        nnav_graph_path(m, nnav_function_get(m, nd->function)->graph, b, sizeof b);
        snprintf(line, sizeof line, "calls local function %s", b);
        nnav_rw_key(&w, "function"), nnav_rw_cstr(&w, b, line);
    }
    nnav_yw *y = nnav_rw_yw(&w); /* maps of the schema's own: written by hand, YAML only */
    if (y && have_schema) {
        nnav_yw_key(y, "schema");
        nnav_node_schema_yaml(y, m, id, &u);
    }
    size_t ndef = 0;
    for (size_t k = nd->attr_count; k < nrows; k++)
        ndef += rows[k].state == NNAV_NA_DEFAULT;
    if (ndef)
        snprintf(line, sizeof line, "attributes (%u set, %zu by default):\n", nd->attr_count, ndef);
    else
        snprintf(line, sizeof line, "attributes (%u):\n", nd->attr_count);
    nnav_rw_text(&w, line);
    nnav_rw_table_begin(&w, "attribute", &attr_table);
    for (uint32_t i = 0; i < nd->attr_count; i++) {
        uint32_t aid = nd->attr_first + i;
        const nnav_attr *at = nnav_attr_get(m, aid);
        nnav_rw_row(&w);
        nnav_rw_cell_span(&w, A_NAME, at->name, NULL);
        nnav_rw_cell_cstr(&w, A_TYPE, nnav_attr_type_name(at->type), NULL);
        if (at->ref_attr_name.n)
            nnav_rw_cell_span(&w, A_REF, at->ref_attr_name, NULL);
        if (!y)
            nnav_attr_format(m, aid, 16, a, sizeof a);
        nnav_rw_cell_null(&w, A_TEXT, y ? NULL : a);
        if (y && !at->ref_attr_name.n) {
            nnav_yw_key(y, "value");
            yaml_attr_value(y, m, aid);
        }
        if (i < nrows && rows[i].state == NNAV_NA_UNKNOWN && u.s->since > 0)
            snprintf(line, sizeof line, "(unknown to %s v%d)", esc(nd->op, b, sizeof b), (int)u.s->since);
        else if (i < nrows && rows[i].state == NNAV_NA_UNKNOWN) /* an OpDef has no version */
            snprintf(line, sizeof line, "(unknown to %s)", esc(nd->op, b, sizeof b));
        else
            line[0] = 0;
        nnav_rw_cell_null(&w, A_NOTE, line);
        nnav_rw_row_end(&w);
    }
    /* Then the schema's defaults for what the file leaves out: the file's
     * attributes keep their places. */
    for (size_t k = nd->attr_count; k < nrows; k++) {
        if (rows[k].state != NNAV_NA_DEFAULT)
            continue;
        nnav_rw_row(&w);
        nnav_text_escape_cstr(rows[k].sa->name, b, sizeof b);
        nnav_rw_cell_span(&w, A_NAME, (nnav_span){(const uint8_t *)rows[k].sa->name,
                                                  strlen(rows[k].sa->name)}, b);
        nnav_rw_cell_cstr(&w, A_TYPE, nnav_attr_type_name(rows[k].sa->type), NULL);
        snprintf(line, sizeof line, "%s (default)", nnav_node_attr_row_value(m, &rows[k], 16, a, sizeof a));
        nnav_rw_cell_null(&w, A_TEXT, line);
        if (y)
            nnav_yw_key(y, "value"), nnav_op_default_yaml(y, &rows[k].sa->def);
        nnav_rw_cell_bool(&w, A_DEFAULT, 1, NULL);
        nnav_rw_row_end(&w);
    }
    nnav_rw_table_end(&w);
    /* What has neither a value nor a default, on one line each (text): the
     * optional ones (the operator does without or infers them) and the
     * required ones the node lacks. */
    for (int req = 0; req < 2; req++) {
        size_t at = 0;
        line[0] = 0;
        for (size_t k = nd->attr_count; k < nrows; k++) {
            if (rows[k].state != NNAV_NA_UNSET || !rows[k].sa->required != !req)
                continue;
            nnav_text_escape_cstr(rows[k].sa->name, b, sizeof b);
            int n = snprintf(line + at, sizeof line - at, "%s%s", at ? ", " : req ? "  (missing, required: " : "  (not set: ", b);
            at = n > 0 && (size_t)n < sizeof line - at ? at + (size_t)n : sizeof line - 1;
        }
        if (at) {
            nnav_rw_text(&w, line);
            nnav_rw_text(&w, ")\n");
        }
    }
    node_refs(&w, m, s, id, &u, have_schema, 0);
    node_refs(&w, m, s, id, &u, have_schema, 1);
    if (cost) {
        nnav_rw_key(&w, "cost");
        nnav_rw_line(&w);
        rw_cost(&w, cost, NULL, NULL);
        nnav_rw_key_as(&w, "known", NULL), nnav_rw_bool(&w, cost->known, NULL);
        nnav_rw_line_end(&w);
    }
    nnav_rw_map_end(&w);
    if (s)
        nnav_shapes_free(s);
    free(rows);
    return nnav_rw_close(&w) < 0 ? EXIT_BADINPUT : 0;
}

