/* cli_diff.c - nnav diff A B: what changed from model A to model B.
 *
 * The core (diff.h) decides what matches what; this file only walks its
 * findings and prints them, as text (the summary line, totals, then one
 * hunk per graph with a difference, like `git diff --stat` and its hunks)
 * or as YAML with the same facts and exact numbers.
 *
 * Exit status as diff(1): 0 no differences, 1 differences, 2 trouble (a
 * file that cannot be read, two formats, a usage error: cli.c maps this
 * command's usage errors to 2, since 1 means "differences" here).
 * Nodes that are the same are never printed. Every name from a file goes
 * through esc() (text) or nnav_yw_span (YAML). */
#include "cli_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "diff.h"
#include "nnav.h"
#include "record.h"

#define NAMEBUF 1024
#define MAX_LIST_ITEMS 256 /* input slots shown per node, attribute items shown */

/* ---- small formatting helpers ---- */

/* The shortest %g that reads back as the same double (as nnav_values_format
 * writes numbers): 0.5, 1e-07, -0, inf, nan. */
static const char *num(double v, char *buf, size_t n)
{
    if (isnan(v))
        snprintf(buf, n, "nan");
    else if (isinf(v))
        snprintf(buf, n, v < 0 ? "-inf" : "inf");
    else
        for (int prec = 1; prec <= 17; prec++) {
            snprintf(buf, n, "%.*g", prec, v);
            if (strtod(buf, NULL) == v)
                break;
        }
    return buf;
}

/* The same for a float32 number (a narrow tensor's values and differences,
 * diff.h): the shortest text that reads back as the same float, 0.7866509
 * rather than the double's 0.7866509556770325. */
static const char *numf(double v, int narrow, char *buf, size_t n)
{
    if (!narrow || isnan(v) || isinf(v))
        return num(v, buf, n);
    for (int prec = 1; prec <= 9; prec++) {
        snprintf(buf, n, "%.*g", prec, v);
        if ((float)strtod(buf, NULL) == (float)v)
            break;
    }
    return buf;
}

/* The change words of what, joined by sep ("renamed, attributes"). */
static const char *words(unsigned what, const char *sep, char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = 0;
    for (unsigned bit = 0; nnav_diff_word(bit); bit++)
        if (what & (1u << bit)) {
            int k = snprintf(buf + len, n - len, "%s%s", len ? sep : "", nnav_diff_word(bit));
            if (k < 0 || (size_t)k >= n - len)
                break;
            len += (size_t)k;
        }
    return buf;
}

static const char *graph_path(const nnav_model *m, uint32_t g, char *buf, size_t n)
{
    if (g == NNAV_NONE || g >= nnav_graph_count(m))
        snprintf(buf, n, "-");
    else
        nnav_graph_path(m, g, buf, n);
    return buf;
}

/* The element at flat index i of a tensor of the given dims as coordinates
 * "[i,j,k]" (row-major); "#i" when the dims cannot say (a zero or negative
 * dimension, a product that does not cover i). */
static const char *coords(const nnav_model *m, uint32_t t, uint64_t i, char *buf, size_t n)
{
    const nnav_tensor *tn = nnav_tensor_get(m, t);
    const int64_t *dims = nnav_dims(m, tn->dims_first);
    uint64_t c[64];
    uint32_t nd = tn->ndims;
    if (nd > 64 || (nd && !dims) || tn->nelems == UINT64_MAX || i >= tn->nelems) {
        snprintf(buf, n, "#%llu", (unsigned long long)i);
        return buf;
    }
    uint64_t rest = i;
    for (uint32_t k = nd; k-- > 0;) {
        if (dims[k] <= 0) {
            snprintf(buf, n, "#%llu", (unsigned long long)i);
            return buf;
        }
        c[k] = rest % (uint64_t)dims[k];
        rest /= (uint64_t)dims[k];
    }
    size_t len = 0;
    buf[len++] = '[';
    buf[len] = 0;
    for (uint32_t k = 0; k < nd && len + 24 < n; k++)
        len += (size_t)snprintf(buf + len, n - len, "%s%llu", k ? "," : "",
                                (unsigned long long)c[k]);
    snprintf(buf + len, n - len, "]");
    return buf;
}

/* ---- the report: each fact once, through the record writer ---- */

/* The change words: YAML a list; text shows text instead. */
static void rw_words(nnav_rw *w, unsigned what, const char *text)
{
    nnav_rw_list_as(w, text);
    for (unsigned bit = 0; nnav_diff_word(bit); bit++)
        if (what & (1u << bit))
            nnav_rw_cstr(w, nnav_diff_word(bit), NULL);
    nnav_rw_list_end(w);
}

/* The coordinates of flat index i as a list, or null when the dims cannot
 * say (coords' "#i"). */
static void rw_coords(nnav_rw *w, const nnav_model *m, uint32_t t, uint64_t i)
{
    const nnav_tensor *tn = nnav_tensor_get(m, t);
    const int64_t *dims = nnav_dims(m, tn->dims_first);
    uint64_t c[64];
    uint32_t nd = tn->ndims;
    int ok = nd <= 64 && (!nd || dims) && tn->nelems != UINT64_MAX && i < tn->nelems;
    uint64_t rest = i;
    for (uint32_t k = nd; ok && k-- > 0;) {
        if (dims[k] <= 0)
            ok = 0;
        else {
            c[k] = rest % (uint64_t)dims[k];
            rest /= (uint64_t)dims[k];
        }
    }
    if (!ok) { /* the flat index alone */
        nnav_rw_null(w, NULL);
        return;
    }
    nnav_rw_list(w);
    for (uint32_t k = 0; k < nd; k++)
        nnav_rw_uint(w, c[k], NULL);
    nnav_rw_list_end(w);
}

/* key: the span, or null on the side lacking it; text shows text, or
 * (label NULL) nothing. */
static void rw_name(nnav_rw *w, const char *key, const char *label, const nnav_model *m,
                    uint32_t id, nnav_span (*name)(const nnav_model *, uint32_t), const char *text)
{
    nnav_rw_key_as(w, key, label);
    if (id == NNAV_NONE)
        nnav_rw_null(w, text);
    else
        nnav_rw_span(w, name(m, id), text);
}

static nnav_span value_name(const nnav_model *m, uint32_t v) { return nnav_value_get(m, v)->name; }
static nnav_span node_name(const nnav_model *m, uint32_t n) { return nnav_node_get(m, n)->name; }
static nnav_span node_op(const nnav_model *m, uint32_t n) { return nnav_node_get(m, n)->op; }
static nnav_span tensor_name(const nnav_model *m, uint32_t t) { return nnav_tensor_get(m, t)->name; }
static nnav_span attr_name(const nnav_model *m, uint32_t a) { return nnav_attr_get(m, a)->name; }

/* key: s, or null; text shows text, or (NULL) nothing. */
static void rw_text(nnav_rw *w, const char *key, const char *s, const char *text)
{
    nnav_rw_key_as(w, key, text ? "" : NULL);
    if (s)
        nnav_rw_cstr(w, s, text);
    else
        nnav_rw_null(w, text);
}

/* A node's input list: "    inputs A: x, [y], ^z" (the slots whose values
 * do not match in brackets, the first MAX_LIST_ITEMS shown); YAML every
 * name, a control edge's as "^NAME". */
static void rw_inputs(nnav_rw *w, const nnav_diff *d, const nnav_diff_node *dn, int side)
{
    const nnav_model *m = nnav_diff_model(d, side);
    const nnav_node *nd = nnav_node_get(m, side ? dn->b : dn->a);
    char name[NAMEBUF], shown[NAMEBUF + 8], more[64];
    nnav_rw_key_as(w, side ? "inputs_b" : "inputs_a",
                   !nd->in_count ? NULL : side ? "    inputs B:" : "    inputs A:");
    nnav_rw_list(w);
    for (uint32_t i = 0; i < nd->in_count; i++) {
        if (i == MAX_LIST_ITEMS) {
            snprintf(more, sizeof more, ", ... (%u in all)", nd->in_count);
            nnav_rw_list_cut(w, more);
        }
        nnav_ref r = nnav_ref_get(m, nd->in_first + i);
        esc(r.name, name, sizeof name);
        int same = nnav_diff_input_same(d, dn, i);
        snprintf(shown, sizeof shown, "%s%s%s%s", same ? "" : "[", r.control ? "^" : "",
                 r.name.n ? name : "\"\"", same ? "" : "]");
        if (r.control) { /* "^NAME": the control edge's own spelling */
            char buf[NAMEBUF + 2] = "^";
            nnav_text_escape(r.name.p, r.name.n, buf + 1, sizeof buf - 1);
            nnav_rw_span(w, (nnav_span){(const uint8_t *)buf, strlen(buf)}, shown);
        } else {
            nnav_rw_span(w, r.name, shown);
        }
    }
    nnav_rw_list_end(w);
    if (!nd->in_count)
        nnav_rw_text(w, side ? "    inputs B: (none)\n" : "    inputs A: (none)\n");
}

/* An attribute that differs: "    attribute NAME: A -> B". */
enum { DA_NAME, DA_A, DA_B };
static const nnav_rw_col dattr_cols[] = {
    [DA_NAME] = {"name", 0, 0, NULL, 0, NULL},
    [DA_A] = {"a", 0, 0, NULL, 0, NULL},
    [DA_B] = {"b", 0, 0, " -> ", 0, NULL},
};
static const nnav_rw_table dattr_table = {
    .cols = dattr_cols, .ncols = sizeof dattr_cols / sizeof *dattr_cols, .sep = " ",
    .indent = "    "};

/* The words after a changed thing's head: " renamed OLD -> NEW, op A -> B,
 * attributes" (parts[] already written, rest as words). */
static void change_tail(char *buf, size_t n, const char *const *parts, size_t np, unsigned rest)
{
    char wd[256];
    size_t l = 0;
    buf[0] = 0;
    for (size_t i = 0; i < np && l < n; i++)
        l += (size_t)snprintf(buf + l, n - l, "%s%s", i ? ", " : " ", parts[i]);
    if (rest && l < n)
        snprintf(buf + l, n - l, "%s%s", np ? ", " : " ", words(rest, ", ", wd, sizeof wd));
}

/* A node added, removed or changed: "+ node NAME  OP", "- node ...", or
 * "~ node NAME  OP  renamed OLD -> NEW, op A -> B, attributes, inputs",
 * then its attributes and inputs. */
static void rw_node(nnav_rw *w, const nnav_diff *d, const nnav_diff_node *dn)
{
    const nnav_model *ma = nnav_diff_model(d, 0), *mb = nnav_diff_model(d, 1);
    char na[NAMEBUF], nb[NAMEBUF], oa[NAMEBUF], ob[NAMEBUF], p[3][2 * NAMEBUF + 32];
    char tail[8 * NAMEBUF], op[9 * NAMEBUF];
    if (dn->a != NNAV_NONE) {
        node_label(ma, dn->a, na, sizeof na);
        op_name(ma, dn->a, oa, sizeof oa);
    }
    if (dn->b != NNAV_NONE) {
        node_label(mb, dn->b, nb, sizeof nb);
        op_name(mb, dn->b, ob, sizeof ob);
    }
    int changed = dn->a != NNAV_NONE && dn->b != NNAV_NONE;
    const char *parts[3];
    size_t np = 0;
    if (changed && (dn->what & NNAV_DIFF_RENAMED))
        snprintf(p[np], sizeof p[np], "renamed %s -> %s", na, nb), parts[np] = p[np], np++;
    if (changed && (dn->what & NNAV_DIFF_OP))
        snprintf(p[np], sizeof p[np], "op %s -> %s", oa, ob), parts[np] = p[np], np++;
    if (changed && (dn->what & NNAV_DIFF_OUTPUTS))
        snprintf(p[np], sizeof p[np], "outputs %u -> %u", nnav_node_get(ma, dn->a)->out_count,
                 nnav_node_get(mb, dn->b)->out_count), parts[np] = p[np], np++;
    change_tail(tail, sizeof tail, parts, np,
                changed ? dn->what & ~(NNAV_DIFF_RENAMED | NNAV_DIFF_OP | NNAV_DIFF_OUTPUTS) : 0);
    snprintf(op, sizeof op, "  %s%s%s", changed || dn->b != NNAV_NONE ? ob : oa, changed ? " " : "", tail);
    nnav_rw_map(w, 0);
    nnav_rw_sentence(w);
    nnav_rw_key(w, "change");
    rw_words(w, dn->what, dn->a == NNAV_NONE ? "+ node " : dn->b == NNAV_NONE ? "- node " : "~ node ");
    rw_name(w, "name_a", NULL, ma, dn->a, node_name, NULL);
    rw_name(w, "name_b", "", mb, dn->b, node_name, dn->b != NNAV_NONE ? nb : na);
    rw_name(w, "op_a", NULL, ma, dn->a, node_op, NULL);
    rw_name(w, "op_b", "", mb, dn->b, node_op, op);
    nnav_rw_key_as(w, "domain_a", NULL);
    dn->a == NNAV_NONE ? nnav_rw_null(w, NULL) : nnav_rw_span(w, nnav_node_domain(ma, dn->a), NULL);
    nnav_rw_key_as(w, "domain_b", NULL);
    dn->b == NNAV_NONE ? nnav_rw_null(w, NULL) : nnav_rw_span(w, nnav_node_domain(mb, dn->b), NULL);
    nnav_rw_sentence_end(w);
    if (dn->attr_count) {
        nnav_rw_table_begin(w, "attributes", &dattr_table);
        for (uint32_t i = 0; i < dn->attr_count; i++) {
            const nnav_diff_attr *at = nnav_diff_attr_get(d, dn->attr_first + i);
            char va[2048] = "(absent)", vb[2048] = "(absent)", an[NAMEBUF + 16];
            if (at->a != NNAV_NONE)
                nnav_attr_format(ma, at->a, 16, va, sizeof va);
            if (at->b != NNAV_NONE)
                nnav_attr_format(mb, at->b, 16, vb, sizeof vb);
            nnav_span nm = at->b != NNAV_NONE ? attr_name(mb, at->b) : attr_name(ma, at->a);
            snprintf(an, sizeof an, "attribute %s:", esc(nm, na, sizeof na));
            nnav_rw_row(w);
            nnav_rw_cell_span(w, DA_NAME, nm, an);
            at->a == NNAV_NONE ? nnav_rw_cell_null(w, DA_A, va) : nnav_rw_cell_cstr(w, DA_A, va, NULL);
            at->b == NNAV_NONE ? nnav_rw_cell_null(w, DA_B, vb) : nnav_rw_cell_cstr(w, DA_B, vb, NULL);
            nnav_rw_row_end(w);
        }
        nnav_rw_table_end(w);
    }
    if (dn->what & NNAV_DIFF_INPUTS) {
        rw_inputs(w, d, dn, 0);
        rw_inputs(w, d, dn, 1);
        uint32_t ia = nnav_node_get(ma, dn->a)->in_count, ib = nnav_node_get(mb, dn->b)->in_count;
        nnav_rw_key_as(w, "inputs_differ", NULL);
        nnav_rw_list(w);
        for (uint32_t i = 0; i < (ia > ib ? ia : ib); i++)
            if (!nnav_diff_input_same(d, dn, i))
                nnav_rw_uint(w, i, NULL);
        nnav_rw_list_end(w);
    }
    nnav_rw_map_end(w);
}

/* An initializer added, removed or changed: "+ initializer NAME  TYPE",
 * or "~ initializer NAME  TYPE  renamed OLD -> NEW, dtype, shape A -> B,
 * values", then how its values differ. */
static void rw_tensor(nnav_rw *w, const nnav_diff *d, const nnav_diff_tensor *t)
{
    const nnav_model *ma = nnav_diff_model(d, 0), *mb = nnav_diff_model(d, 1);
    char na[NAMEBUF], nb[NAMEBUF], ta[512], tb[512], wd[256], x[64], y[64], z[64], at[1600];
    char p[2][2 * NAMEBUF + 1100], tail[6 * NAMEBUF], ty[7 * NAMEBUF], line[2000];
    if (t->a != NNAV_NONE) {
        esc(nnav_tensor_get(ma, t->a)->name, na, sizeof na);
        nnav_tensor_shape_format(ma, t->a, ta, sizeof ta);
    }
    if (t->b != NNAV_NONE) {
        esc(nnav_tensor_get(mb, t->b)->name, nb, sizeof nb);
        nnav_tensor_shape_format(mb, t->b, tb, sizeof tb);
    }
    int changed = t->a != NNAV_NONE && t->b != NNAV_NONE;
    const char *parts[2];
    size_t np = 0;
    if (changed && (t->what & NNAV_DIFF_RENAMED))
        snprintf(p[np], sizeof p[np], "renamed %s -> %s", na, nb), parts[np] = p[np], np++;
    unsigned layout = NNAV_DIFF_DTYPE | NNAV_DIFF_SHAPE | NNAV_DIFF_TRANSPOSED;
    if (changed && (t->what & layout))
        snprintf(p[np], sizeof p[np], "%s %s -> %s",
                 words(t->what & layout, ", ", wd, sizeof wd), ta, tb),
            parts[np] = p[np], np++;
    change_tail(tail, sizeof tail, parts, np,
                changed ? t->what & (NNAV_DIFF_VALUES | NNAV_DIFF_UNREAD) : 0);
    snprintf(ty, sizeof ty, "  %s%s%s", t->b != NNAV_NONE ? tb : ta, changed ? " " : "", tail);
    nnav_rw_map(w, 0);
    nnav_rw_sentence(w);
    nnav_rw_key(w, "change");
    rw_words(w, t->what, t->a == NNAV_NONE ? "+ initializer " : t->b == NNAV_NONE ? "- initializer "
                                                                                 : "~ initializer ");
    rw_name(w, "name_a", NULL, ma, t->a, tensor_name, NULL);
    rw_name(w, "name_b", "", mb, t->b, tensor_name, t->b != NNAV_NONE ? nb : na);
    nnav_rw_key_as(w, "type_a", NULL);
    t->a == NNAV_NONE ? nnav_rw_null(w, NULL) : nnav_rw_cstr(w, ta, NULL);
    nnav_rw_key(w, "type_b");
    t->b == NNAV_NONE ? nnav_rw_null(w, ty) : nnav_rw_cstr(w, tb, ty);
    nnav_rw_sentence_end(w);
    if (t->what & NNAV_DIFF_VALUES) {
        const nnav_tensor *tn = nnav_tensor_get(mb, t->b);
        char all[48], cnt[48];
        if (tn->nelems == UINT64_MAX)
            snprintf(all, sizeof all, "?");
        else
            nnav_text_commas(tn->nelems, all, sizeof all);
        nnav_text_commas(t->ndiff, cnt, sizeof cnt);
        nnav_rw_sentence(w);
        nnav_rw_key_as(w, "elements", NULL);
        tn->nelems == UINT64_MAX ? nnav_rw_null(w, NULL) : nnav_rw_uint(w, tn->nelems, NULL);
        snprintf(line, sizeof line, "    %s of %s element%s differ%s", cnt, all, pl(tn->nelems),
                 t->ndiff == 1 ? "s" : "");
        nnav_rw_key(w, "differing_elements"), nnav_rw_uint(w, t->ndiff, line);
        nnav_rw_sentence_end(w);
        nnav_rw_sentence(w);
        snprintf(line, sizeof line, "    largest absolute difference %s at %s: %s -> %s",
                 numf(t->max_abs, t->narrow, x, sizeof x), coords(mb, t->b, t->at_abs, at, sizeof at),
                 numf(t->a_at_abs, t->narrow, y, sizeof y), numf(t->b_at_abs, t->narrow, z, sizeof z));
        nnav_rw_key(w, "max_abs"), nnav_rw_double(w, t->max_abs, line);
        nnav_rw_key_as(w, "max_abs_index", NULL), nnav_rw_uint(w, t->at_abs, NULL);
        nnav_rw_key_as(w, "max_abs_at", NULL), rw_coords(w, mb, t->b, t->at_abs);
        nnav_rw_key_as(w, "value_a", NULL), nnav_rw_double(w, t->a_at_abs, NULL);
        nnav_rw_key_as(w, "value_b", NULL), nnav_rw_double(w, t->b_at_abs, NULL);
        nnav_rw_sentence_end(w);
        nnav_rw_sentence(w);
        if (t->max_rel < 0) {
            nnav_rw_key_as(w, "max_rel", NULL), nnav_rw_null(w, NULL);
        } else {
            snprintf(line, sizeof line, "    largest relative difference %s at %s",
                     numf(t->max_rel, t->narrow, x, sizeof x), coords(mb, t->b, t->at_rel, at, sizeof at));
            nnav_rw_key(w, "max_rel"), nnav_rw_double(w, t->max_rel, line);
            nnav_rw_key_as(w, "max_rel_index", NULL), nnav_rw_uint(w, t->at_rel, NULL);
            nnav_rw_key_as(w, "max_rel_at", NULL), rw_coords(w, mb, t->b, t->at_rel);
        }
        nnav_rw_sentence_end(w);
    }
    if (t->what & NNAV_DIFF_UNREAD) {
        nnav_rw_sentence(w);
        snprintf(line, sizeof line, "    values not compared: %s", t->note ? t->note : "");
        rw_text(w, "note", t->note, t->note ? line : NULL);
        nnav_rw_sentence_end(w);
    }
    nnav_rw_map_end(w);
}

/* A graph input or output that differs: "+ input NAME  TYPE", or "~ output
 * NAME  renamed OLD -> NEW dtype, shape A -> B". */
enum { IO_KIND, IO_CHANGE, IO_NAME_A, IO_NAME_B, IO_TYPE_A, IO_TYPE_B, IO_REST };
static const nnav_rw_col io_cols[] = {
    [IO_KIND] = {"kind", 0, 0, NULL, 0, NULL},
    [IO_CHANGE] = {"change", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [IO_NAME_A] = {"name_a", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [IO_NAME_B] = {"name_b", 0, 0, NULL, 0, NULL},
    [IO_TYPE_A] = {"type_a", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [IO_TYPE_B] = {"type_b", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [IO_REST] = {NULL, 0, 0, "", 0, NULL},
};
static const nnav_rw_table io_table = {
    .cols = io_cols, .ncols = sizeof io_cols / sizeof *io_cols, .sep = " "};

static void rw_io(nnav_rw *w, const nnav_diff *d, const nnav_diff_graph *g)
{
    const nnav_model *ma = nnav_diff_model(d, 0), *mb = nnav_diff_model(d, 1);
    char na[NAMEBUF], nb[NAMEBUF], ta[512], tb[512], wd[256], kind[32], rest[3 * NAMEBUF + 1400];
    char fa[4096], fb[4096]; /* the types whole (the text's are cut at 511 bytes) */
    nnav_rw_table_begin(w, "io", &io_table);
    for (uint32_t i = 0; i < g->io_count; i++) {
        const nnav_diff_io *io = nnav_diff_io_get(d, g->io_first + i);
        if (!io)
            continue;
        const char *k = io->output ? "output" : "input";
        if (io->a != NNAV_NONE) {
            esc(nnav_value_get(ma, io->a)->name, na, sizeof na);
            nnav_value_type_format(ma, io->a, ta, sizeof ta);
            nnav_value_type_format(ma, io->a, fa, sizeof fa);
        }
        if (io->b != NNAV_NONE) {
            esc(nnav_value_get(mb, io->b)->name, nb, sizeof nb);
            nnav_value_type_format(mb, io->b, tb, sizeof tb);
            nnav_value_type_format(mb, io->b, fb, sizeof fb);
        }
        snprintf(kind, sizeof kind, "%c %s", io->a == NNAV_NONE ? '+' : io->b == NNAV_NONE ? '-' : '~', k);
        if (io->a == NNAV_NONE) {
            snprintf(rest, sizeof rest, "  %s", tb[0] ? tb : "?");
        } else if (io->b == NNAV_NONE) {
            snprintf(rest, sizeof rest, "  %s", ta[0] ? ta : "?");
        } else {
            size_t l = (size_t)snprintf(rest, sizeof rest, " ");
            if ((io->what & NNAV_DIFF_RENAMED) && l < sizeof rest)
                l += (size_t)snprintf(rest + l, sizeof rest - l, " renamed %s -> %s", na, nb);
            if ((io->what & (NNAV_DIFF_DTYPE | NNAV_DIFF_SHAPE | NNAV_DIFF_TYPE)) && l < sizeof rest)
                snprintf(rest + l, sizeof rest - l, " %s %s -> %s",
                         words(io->what & (NNAV_DIFF_DTYPE | NNAV_DIFF_SHAPE | NNAV_DIFF_TYPE), ", ", wd,
                               sizeof wd), ta[0] ? ta : "?", tb[0] ? tb : "?");
        }
        nnav_rw_row(w);
        nnav_rw_cell_cstr(w, IO_KIND, k, kind);
        nnav_rw_cell_list(w, IO_CHANGE, NULL);
        for (unsigned bit = 0; nnav_diff_word(bit); bit++)
            if (io->what & (1u << bit))
                nnav_rw_cstr(w, nnav_diff_word(bit), NULL);
        nnav_rw_cell_list_end(w);
        io->a == NNAV_NONE ? nnav_rw_cell_null(w, IO_NAME_A, NULL)
                           : nnav_rw_cell_span(w, IO_NAME_A, value_name(ma, io->a), NULL);
        io->b == NNAV_NONE ? nnav_rw_cell_null(w, IO_NAME_B, na)
                           : nnav_rw_cell_span(w, IO_NAME_B, value_name(mb, io->b), nb);
        io->a == NNAV_NONE ? nnav_rw_cell_null(w, IO_TYPE_A, NULL) : nnav_rw_cell_cstr(w, IO_TYPE_A, fa, NULL);
        io->b == NNAV_NONE ? nnav_rw_cell_null(w, IO_TYPE_B, NULL) : nnav_rw_cell_cstr(w, IO_TYPE_B, fb, NULL);
        nnav_rw_cell_null(w, IO_REST, rest);
        nnav_rw_row_end(w);
    }
    nnav_rw_table_end(w);
}

/* Operators by change (YAML only: the text's summary line says it). */
enum { OP_OP, OP_DOMAIN, OP_ADDED, OP_REMOVED, OP_RENAMED, OP_CHANGED, OP_WHAT };
static const nnav_rw_col opsum_cols[] = {
    [OP_OP] = {"op", 0, 0, NULL, 0, NULL},
    [OP_DOMAIN] = {"domain", 0, 0, NULL, 0, NULL},
    [OP_ADDED] = {"added", 0, 0, NULL, 0, NULL},
    [OP_REMOVED] = {"removed", 0, 0, NULL, 0, NULL},
    [OP_RENAMED] = {"renamed", 0, 0, NULL, 0, NULL},
    [OP_CHANGED] = {"changed", 0, 0, NULL, 0, NULL},
    [OP_WHAT] = {"changed_what", 0, 0, NULL, 0, NULL},
};
static const nnav_rw_table opsum_table = {
    .cols = opsum_cols, .ncols = sizeof opsum_cols / sizeof *opsum_cols, .sep = " ", .flow = 1};

/* A model fact that differs: "~ KEY: A -> B". */
enum { FA_KEY, FA_A, FA_B };
static const nnav_rw_col fact_cols[] = {
    [FA_KEY] = {"key", 0, 0, NULL, 0, NULL},
    [FA_A] = {"a", 0, 0, NULL, 0, NULL},
    [FA_B] = {"b", 0, 0, " -> ", 0, NULL},
};
static const nnav_rw_table fact_table = {
    .cols = fact_cols, .ncols = sizeof fact_cols / sizeof *fact_cols, .sep = " ", .flow = 1};

static void rw_fact_cell(nnav_rw *w, size_t col, const char *s, const char *text)
{
    if (s)
        nnav_rw_cell_cstr(w, col, s, text);
    else
        nnav_rw_cell_null(w, col, text);
}

/* The report: the summary line and the files, the totals, the model facts,
 * then a hunk per graph with a difference (as `git diff`); YAML the same
 * facts with exact numbers, and the operators by change. */
static int report(const nnav_diff *d, const char *pa, const char *pb, int yaml)
{
    const nnav_model *ma = nnav_diff_model(d, 0), *mb = nnav_diff_model(d, 1);
    const nnav_diff_totals *t = nnav_diff_totals_get(d);
    char sum[4096], a[1024], b[1024], line[6400], c[48];
    nnav_rw w;
    if (nnav_rw_open(&w, stdout, yaml ? NNAV_RW_YAML : NNAV_RW_TEXT) < 0)
        return -1;
    nnav_diff_summary(d, sum, sizeof sum);
    nnav_text_escape_cstr(pa, a, sizeof a);
    nnav_text_escape_cstr(pb, b, sizeof b);
    const char *fa = nnav_model_facts_get(ma)->format_name, *fb = nnav_model_facts_get(mb)->format_name;
    if (t->weights_only && strcmp(fa, fb)) /* tensors across formats: each side's named */
        snprintf(line, sizeof line, "%s\nA: %s (%s)\nB: %s (%s)\n", sum, a, fa, b, fb);
    else
        snprintf(line, sizeof line, "%s\nA: %s\nB: %s\n", sum, a, b); /* the text's heading */
    nnav_rw_text(&w, line);
    nnav_rw_map(&w, 0);
    nnav_rw_key_as(&w, "a", NULL), nnav_rw_cstr(&w, pa, NULL);
    nnav_rw_key_as(&w, "b", NULL), nnav_rw_cstr(&w, pb, NULL);
    nnav_rw_key_as(&w, "format_a", NULL), nnav_rw_cstr(&w, fa, NULL);
    nnav_rw_key_as(&w, "format_b", NULL), nnav_rw_cstr(&w, fb, NULL);
    nnav_rw_key_as(&w, "differences", NULL), nnav_rw_bool(&w, nnav_diff_any(d), NULL);
    rw_text(&w, "summary", sum, NULL);
    nnav_rw_key_as(&w, "totals", NULL);
    nnav_rw_map(&w, 0);
    /* "nodes: 415 -> 446; 12 same, 56 added, 25 removed, 18 renamed, 360 changed" */
    /* A store of tensors on either side: its nodes are not compared, and
     * the text says so instead of counting them (YAML keeps the counts). */
    const char *wlab = t->weights_only ? NULL : "";
    if (t->weights_only)
        nnav_rw_text(&w, "tensors alone compared (a store of tensors on one side): by name, "
                         "the common renames, then identical bytes; nodes not compared\n");
    nnav_rw_sentence(&w);
    nnav_text_commas(t->nodes_a, c, sizeof c);
    snprintf(line, sizeof line, "nodes: %s -> ", c);
    nnav_rw_key_as(&w, "nodes_a", wlab), nnav_rw_uint(&w, t->nodes_a, line);
    nnav_text_commas(t->nodes_b, c, sizeof c);
    snprintf(line, sizeof line, "%s; ", c);
    nnav_rw_key_as(&w, "nodes_b", wlab), nnav_rw_uint(&w, t->nodes_b, line);
    static const char *const nk[] = {"same", "added", "removed", "renamed", "changed"};
    const uint64_t nv[] = {t->same, t->added, t->removed, t->renamed, t->changed};
    for (size_t i = 0; i < 5; i++) {
        snprintf(line, sizeof line, "%llu %s%s", (unsigned long long)nv[i], nk[i], i < 4 ? ", " : "");
        nnav_rw_key_as(&w, nk[i], wlab), nnav_rw_uint(&w, nv[i], line);
    }
    nnav_rw_sentence_end(&w);
    nnav_rw_key_as(&w, "weights_only", NULL), nnav_rw_bool(&w, t->weights_only, NULL);
    /* The graphs' counts: in text the third line, after the initializers'. */
    nnav_rw_key_as(&w, "graphs_added", NULL), nnav_rw_uint(&w, t->graphs_added, NULL);
    nnav_rw_key_as(&w, "graphs_removed", NULL), nnav_rw_uint(&w, t->graphs_removed, NULL);
    nnav_rw_key_as(&w, "io_changed", NULL), nnav_rw_uint(&w, t->io_changed, NULL);
    /* "initializers: 37 added, 25 removed, 0 renamed, 243 changed; 2,432 bytes compared" */
    nnav_rw_sentence(&w);
    static const char *const ik[] = {"initializers_added", "initializers_removed",
                                     "initializers_renamed", "initializers_changed"};
    const uint64_t iv[] = {t->tensors_added, t->tensors_removed, t->tensors_renamed, t->tensors_changed};
    for (size_t i = 0; i < 4; i++) {
        snprintf(line, sizeof line, "%s%llu %s%s", i ? "" : "initializers: ", (unsigned long long)iv[i],
                 ik[i] + strlen("initializers_"), i < 3 ? ", " : "; ");
        nnav_rw_key(&w, ik[i]), nnav_rw_uint(&w, iv[i], line);
    }
    nnav_text_commas(t->bytes_compared, c, sizeof c);
    snprintf(line, sizeof line, "%s byte%s compared", c, pl(t->bytes_compared));
    nnav_rw_key(&w, "bytes_compared"), nnav_rw_uint(&w, t->bytes_compared, line);
    nnav_rw_sentence_end(&w);
    nnav_rw_key_as(&w, "facts_changed", NULL), nnav_rw_uint(&w, t->facts, NULL);
    nnav_rw_map_end(&w);
    snprintf(line, sizeof line, "graphs: %llu added, %llu removed; graph inputs/outputs changed: %llu; "
             "model facts changed: %u\n", (unsigned long long)t->graphs_added,
             (unsigned long long)t->graphs_removed, (unsigned long long)t->io_changed, t->facts);
    nnav_rw_text(&w, line);
    nnav_rw_table_begin(&w, "ops", &opsum_table);
    nnav_rw_table_hide_text(&w);
    for (size_t i = 0; i < nnav_diff_opsum_count(d); i++) {
        const nnav_diff_opsum *o = nnav_diff_opsum_get(d, i);
        nnav_rw_row(&w);
        nnav_rw_cell_span(&w, OP_OP, o->op, NULL);
        nnav_rw_cell_span(&w, OP_DOMAIN, o->domain, NULL);
        nnav_rw_cell_uint(&w, OP_ADDED, o->added, NULL);
        nnav_rw_cell_uint(&w, OP_REMOVED, o->removed, NULL);
        nnav_rw_cell_uint(&w, OP_RENAMED, o->renamed, NULL);
        nnav_rw_cell_uint(&w, OP_CHANGED, o->changed, NULL);
        nnav_rw_cell_list(&w, OP_WHAT, NULL);
        for (unsigned bit = 0; nnav_diff_word(bit); bit++)
            if (o->changed_what & (1u << bit))
                nnav_rw_cstr(&w, nnav_diff_word(bit), NULL);
        nnav_rw_cell_list_end(&w);
        nnav_rw_row_end(&w);
    }
    nnav_rw_table_end(&w);
    if (nnav_diff_fact_count(d))
        nnav_rw_text(&w, "\nmodel facts:\n");
    nnav_rw_table_begin(&w, "facts", &fact_table);
    for (size_t i = 0; i < nnav_diff_fact_count(d); i++) {
        const nnav_diff_fact *f = nnav_diff_fact_get(d, i);
        snprintf(line, sizeof line, "~ %s:", f->key ? f->key : "");
        nnav_rw_row(&w);
        rw_fact_cell(&w, FA_KEY, f->key, line);
        rw_fact_cell(&w, FA_A, f->a, f->a ? NULL : "(none)");
        rw_fact_cell(&w, FA_B, f->b, f->b ? NULL : "(none)");
        nnav_rw_row_end(&w);
    }
    nnav_rw_table_end(&w);
    nnav_rw_key_as(&w, "graphs", NULL);
    nnav_rw_seq_tight(&w);
    for (size_t i = 0; i < nnav_diff_graph_count(d); i++) {
        const nnav_diff_graph *g = nnav_diff_graph_get(d, i);
        if (!g->what && !g->node_count && !g->io_count && !g->tensor_count)
            continue;
        graph_path(ma, g->a, a, sizeof a);
        graph_path(mb, g->b, b, sizeof b);
        if (g->what & NNAV_DIFF_ADDED)
            snprintf(line, sizeof line, "\n@@ graph %s (only on B) @@", b);
        else if (g->what & NNAV_DIFF_REMOVED)
            snprintf(line, sizeof line, "\n@@ graph %s (only on A) @@", a);
        else if (strcmp(a, b))
            snprintf(line, sizeof line, "\n@@ graph %s on A, %s on B @@", a, b);
        else
            snprintf(line, sizeof line, "\n@@ graph %s @@", b);
        nnav_rw_map(&w, 0);
        nnav_rw_sentence(&w);
        nnav_rw_key(&w, "path_a");
        g->a == NNAV_NONE ? nnav_rw_null(&w, line) : nnav_rw_cstr(&w, a, line);
        nnav_rw_key_as(&w, "path_b", NULL);
        g->b == NNAV_NONE ? nnav_rw_null(&w, NULL) : nnav_rw_cstr(&w, b, NULL);
        nnav_rw_key_as(&w, "change", NULL), rw_words(&w, g->what, "");
        nnav_rw_sentence_end(&w);
        /* "nodes: 12 same, 56 added, 25 removed, 18 renamed, 360 changed" */
        nnav_rw_sentence(&w);
        const uint32_t gv[] = {g->same, g->added, g->removed, g->renamed, g->changed};
        for (size_t k = 0; k < 5; k++) {
            snprintf(line, sizeof line, "%s%u %s%s", k ? "" : "nodes: ", gv[k], nk[k], k < 4 ? ", " : "");
            nnav_rw_key_as(&w, nk[k], wlab), nnav_rw_uint(&w, gv[k], line);
        }
        nnav_rw_sentence_end(&w);
        rw_io(&w, d, g);
        nnav_rw_key_as(&w, "nodes", NULL);
        nnav_rw_seq_tight(&w);
        for (uint32_t k = 0; k < g->node_count; k++)
            rw_node(&w, d, nnav_diff_node_get(d, g->node_first + k));
        nnav_rw_seq_end(&w);
        nnav_rw_key_as(&w, "initializers", NULL);
        nnav_rw_seq_tight(&w);
        for (uint32_t k = 0; k < g->tensor_count; k++)
            rw_tensor(&w, d, nnav_diff_tensor_get(d, g->tensor_first + k));
        nnav_rw_seq_end(&w);
        nnav_rw_map_end(&w);
    }
    nnav_rw_seq_end(&w);
    nnav_rw_map_end(&w);
    return nnav_rw_close(&w);
}

/* ---- the command ---- */

int cmd_diff(const nnav_model *unused, const opts *o)
{
    (void)unused;
    const char *pa = o->model, *pb = o->arg;
    nnav_diff_opts dopt = {.no_values = o->no_values, .tolerance = o->tolerance,
                           .declutter = o->declutter};
    nnav_cli_compare_fn compare = nnav_cli_compare();
    if (compare && !o->yaml && isatty(0) && isatty(1))
        return compare(pa, pb, &dopt, o->follow_links);

    nnav_open_opts oo = {.follow_links = o->follow_links};
    nnav_error err;
    nnav_model *ma = NULL, *mb = NULL;
    if (nnav_model_open(pa, &oo, &ma, &err) < 0) {
        fail_model(pa, &err);
        return EXIT_BADINPUT;
    }
    if (nnav_model_open(pb, &oo, &mb, &err) < 0) {
        fail_model(pb, &err);
        nnav_model_close(ma);
        return EXIT_BADINPUT;
    }
    nnav_diff *d = NULL;
    int rc;
    if (nnav_diff_run(ma, mb, &dopt, &d, &err) < 0) {
        char both[2100], msg[4096];
        snprintf(both, sizeof both, "%s vs %s", pa, pb);
        nnav_error_format(&err, both, msg, sizeof msg);
        fprintf(stderr, "nnav diff: %s\n", msg);
        rc = EXIT_BADINPUT;
    } else {
        rc = nnav_diff_any(d) ? 1 : 0;
        if (report(d, pa, pb, o->yaml) < 0 && o->yaml) {
            fprintf(stderr, "nnav diff: could not write the YAML\n");
            rc = EXIT_BADINPUT;
        }
        nnav_diff_free(d);
    }
    for (int side = 0; side < 2; side++) {
        nnav_model *m = side ? mb : ma;
        if (nnav_model_links_refused(m))
            fprintf(stderr, "nnav diff: a data file was refused for a symbolic link on its way; "
                            "'nnav --follow-links diff ...' follows links\n");
        if (rc != EXIT_BADINPUT)
            rc = finish(m, rc);
    }
    nnav_model_close(ma);
    nnav_model_close(mb);
    return rc;
}
