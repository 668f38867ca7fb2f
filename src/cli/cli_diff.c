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
#include "yamlout.h"

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

static void yw_words(nnav_yw *y, unsigned what)
{
    nnav_yw_seq_flow(y);
    for (unsigned bit = 0; nnav_diff_word(bit); bit++)
        if (what & (1u << bit))
            nnav_yw_cstr(y, nnav_diff_word(bit));
    nnav_yw_seq_end(y);
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

static void yw_coords(nnav_yw *y, const nnav_model *m, uint32_t t, uint64_t i)
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
        nnav_yw_null(y);
        return;
    }
    nnav_yw_seq_flow(y);
    for (uint32_t k = 0; k < nd; k++)
        nnav_yw_uint(y, c[k]);
    nnav_yw_seq_end(y);
}

/* ---- text ---- */

static void text_facts(const nnav_diff *d)
{
    size_t n = nnav_diff_fact_count(d);
    if (!n)
        return;
    printf("\nmodel facts:\n");
    for (size_t i = 0; i < n; i++) {
        const nnav_diff_fact *f = nnav_diff_fact_get(d, i);
        printf("~ %s: %s -> %s\n", f->key, f->a ? f->a : "(none)", f->b ? f->b : "(none)");
    }
}

static void text_io(const nnav_diff *d, const nnav_diff_graph *g)
{
    const nnav_model *ma = nnav_diff_model(d, 0), *mb = nnav_diff_model(d, 1);
    char na[NAMEBUF], nb[NAMEBUF], ta[512], tb[512], w[256];
    for (uint32_t i = 0; i < g->io_count; i++) {
        const nnav_diff_io *io = nnav_diff_io_get(d, g->io_first + i);
        if (!io)
            continue;
        const char *kind = io->output ? "output" : "input";
        if (io->a != NNAV_NONE) {
            esc(nnav_value_get(ma, io->a)->name, na, sizeof na);
            nnav_value_type_format(ma, io->a, ta, sizeof ta);
        }
        if (io->b != NNAV_NONE) {
            esc(nnav_value_get(mb, io->b)->name, nb, sizeof nb);
            nnav_value_type_format(mb, io->b, tb, sizeof tb);
        }
        if (io->a == NNAV_NONE)
            printf("+ %s %s  %s\n", kind, nb, tb[0] ? tb : "?");
        else if (io->b == NNAV_NONE)
            printf("- %s %s  %s\n", kind, na, ta[0] ? ta : "?");
        else {
            printf("~ %s %s ", kind, nb);
            if (io->what & NNAV_DIFF_RENAMED)
                printf(" renamed %s -> %s", na, nb);
            if (io->what & (NNAV_DIFF_DTYPE | NNAV_DIFF_SHAPE | NNAV_DIFF_TYPE))
                printf(" %s %s -> %s",
                       words(io->what & (NNAV_DIFF_DTYPE | NNAV_DIFF_SHAPE | NNAV_DIFF_TYPE), ", ",
                             w, sizeof w), ta[0] ? ta : "?", tb[0] ? tb : "?");
            printf("\n");
        }
    }
}

/* A node's input list, the slots whose values do not match in brackets. */
static void text_inputs(const nnav_diff *d, const nnav_diff_node *dn, int side)
{
    const nnav_model *m = nnav_diff_model(d, side);
    const nnav_node *nd = nnav_node_get(m, side ? dn->b : dn->a);
    char name[NAMEBUF];
    printf("    inputs %c: ", side ? 'B' : 'A');
    if (!nd->in_count)
        printf("(none)");
    for (uint32_t i = 0; i < nd->in_count; i++) {
        if (i == MAX_LIST_ITEMS) {
            printf(", ... (%u in all)", nd->in_count);
            break;
        }
        nnav_ref r = nnav_ref_get(m, nd->in_first + i);
        esc(r.name, name, sizeof name);
        int same = nnav_diff_input_same(d, dn, i);
        printf("%s%s%s%s%s", i ? ", " : "", same ? "" : "[", r.control ? "^" : "",
               r.name.n ? name : "\"\"", same ? "" : "]");
    }
    printf("\n");
}

static void text_node(const nnav_diff *d, const nnav_diff_node *dn)
{
    const nnav_model *ma = nnav_diff_model(d, 0), *mb = nnav_diff_model(d, 1);
    char na[NAMEBUF], nb[NAMEBUF], oa[NAMEBUF], ob[NAMEBUF], w[256];
    if (dn->a != NNAV_NONE) {
        node_label(ma, dn->a, na, sizeof na);
        op_name(ma, dn->a, oa, sizeof oa);
    }
    if (dn->b != NNAV_NONE) {
        node_label(mb, dn->b, nb, sizeof nb);
        op_name(mb, dn->b, ob, sizeof ob);
    }
    if (dn->a == NNAV_NONE) {
        printf("+ node %s  %s\n", nb, ob);
        return;
    }
    if (dn->b == NNAV_NONE) {
        printf("- node %s  %s\n", na, oa);
        return;
    }
    /* "~ node NAME  OP  renamed OLD -> NEW, op A -> B, attributes, inputs" */
    printf("~ node %s  %s ", nb, ob);
    const char *sep = " ";
    if (dn->what & NNAV_DIFF_RENAMED) {
        printf("%srenamed %s -> %s", sep, na, nb);
        sep = ", ";
    }
    if (dn->what & NNAV_DIFF_OP) {
        printf("%sop %s -> %s", sep, oa, ob);
        sep = ", ";
    }
    if (dn->what & NNAV_DIFF_OUTPUTS) {
        printf("%soutputs %u -> %u", sep, nnav_node_get(ma, dn->a)->out_count,
               nnav_node_get(mb, dn->b)->out_count);
        sep = ", ";
    }
    unsigned rest = dn->what & ~(NNAV_DIFF_RENAMED | NNAV_DIFF_OP | NNAV_DIFF_OUTPUTS);
    if (rest)
        printf("%s%s", sep, words(rest, ", ", w, sizeof w));
    printf("\n");
    for (uint32_t i = 0; i < dn->attr_count; i++) {
        const nnav_diff_attr *at = nnav_diff_attr_get(d, dn->attr_first + i);
        char va[2048] = "(absent)", vb[2048] = "(absent)";
        nnav_span an = {0};
        if (at->a != NNAV_NONE) {
            nnav_attr_format(ma, at->a, 16, va, sizeof va);
            an = nnav_attr_get(ma, at->a)->name;
        }
        if (at->b != NNAV_NONE) {
            nnav_attr_format(mb, at->b, 16, vb, sizeof vb);
            an = nnav_attr_get(mb, at->b)->name;
        }
        printf("    attribute %s: %s -> %s\n", esc(an, na, sizeof na), va, vb);
    }
    if (dn->what & NNAV_DIFF_INPUTS) {
        text_inputs(d, dn, 0);
        text_inputs(d, dn, 1);
    }
}

static void text_tensor(const nnav_diff *d, const nnav_diff_tensor *t)
{
    const nnav_model *ma = nnav_diff_model(d, 0), *mb = nnav_diff_model(d, 1);
    char na[NAMEBUF], nb[NAMEBUF], ta[512], tb[512], w[256], x[64], y[64], at[1600];
    if (t->a != NNAV_NONE) {
        esc(nnav_tensor_get(ma, t->a)->name, na, sizeof na);
        nnav_tensor_shape_format(ma, t->a, ta, sizeof ta);
    }
    if (t->b != NNAV_NONE) {
        esc(nnav_tensor_get(mb, t->b)->name, nb, sizeof nb);
        nnav_tensor_shape_format(mb, t->b, tb, sizeof tb);
    }
    if (t->a == NNAV_NONE) {
        printf("+ initializer %s  %s\n", nb, tb);
        return;
    }
    if (t->b == NNAV_NONE) {
        printf("- initializer %s  %s\n", na, ta);
        return;
    }
    /* "~ initializer NAME  TYPE  renamed OLD -> NEW, dtype, shape A -> B, values" */
    printf("~ initializer %s  %s ", nb, tb);
    const char *sep = " ";
    if (t->what & NNAV_DIFF_RENAMED) {
        printf("%srenamed %s -> %s", sep, na, nb);
        sep = ", ";
    }
    if (t->what & (NNAV_DIFF_DTYPE | NNAV_DIFF_SHAPE)) {
        printf("%s%s %s -> %s", sep,
               words(t->what & (NNAV_DIFF_DTYPE | NNAV_DIFF_SHAPE), ", ", w, sizeof w), ta, tb);
        sep = ", ";
    }
    unsigned rest = t->what & (NNAV_DIFF_VALUES | NNAV_DIFF_UNREAD);
    if (rest)
        printf("%s%s", sep, words(rest, ", ", w, sizeof w));
    printf("\n");
    if (t->what & NNAV_DIFF_VALUES) {
        const nnav_tensor *tn = nnav_tensor_get(mb, t->b);
        char all[48];
        if (tn->nelems == UINT64_MAX)
            snprintf(all, sizeof all, "?");
        else
            nnav_text_commas(tn->nelems, all, sizeof all);
        char cnt[48];
        nnav_text_commas(t->ndiff, cnt, sizeof cnt);
        printf("    %s of %s element%s differ%s\n", cnt, all, pl(tn->nelems),
               t->ndiff == 1 ? "s" : "");
        printf("    largest absolute difference %s at %s: %s -> %s\n",
               num(t->max_abs, x, sizeof x), coords(mb, t->b, t->at_abs, at, sizeof at),
               num(t->a_at_abs, y, sizeof y), num(t->b_at_abs, ta, sizeof ta));
        if (t->max_rel >= 0)
            printf("    largest relative difference %s at %s\n", num(t->max_rel, x, sizeof x),
                   coords(mb, t->b, t->at_rel, at, sizeof at));
    }
    if ((t->what & NNAV_DIFF_UNREAD) && t->note)
        printf("    values not compared: %s\n", t->note);
}

static void text_report(const nnav_diff *d, const char *pa, const char *pb)
{
    const nnav_model *ma = nnav_diff_model(d, 0), *mb = nnav_diff_model(d, 1);
    const nnav_diff_totals *t = nnav_diff_totals_get(d);
    char sum[4096], a[1024], b[1024], c[6][32];
    nnav_diff_summary(d, sum, sizeof sum);
    printf("%s\n", sum);
    nnav_text_escape_cstr(pa, a, sizeof a);
    nnav_text_escape_cstr(pb, b, sizeof b);
    printf("A: %s\nB: %s\n", a, b);
    nnav_text_commas(t->nodes_a, c[0], sizeof c[0]);
    nnav_text_commas(t->nodes_b, c[1], sizeof c[1]);
    printf("nodes: %s -> %s; %llu same, %llu added, %llu removed, %llu renamed, %llu changed\n",
           c[0], c[1], (unsigned long long)t->same, (unsigned long long)t->added,
           (unsigned long long)t->removed, (unsigned long long)t->renamed,
           (unsigned long long)t->changed);
    nnav_text_commas(t->bytes_compared, c[2], sizeof c[2]);
    printf("initializers: %llu added, %llu removed, %llu renamed, %llu changed; %s byte%s "
           "compared\n",
           (unsigned long long)t->tensors_added, (unsigned long long)t->tensors_removed,
           (unsigned long long)t->tensors_renamed, (unsigned long long)t->tensors_changed, c[2],
           pl(t->bytes_compared));
    printf("graphs: %llu added, %llu removed; graph inputs/outputs changed: %llu; model facts "
           "changed: %u\n",
           (unsigned long long)t->graphs_added, (unsigned long long)t->graphs_removed,
           (unsigned long long)t->io_changed, t->facts);
    text_facts(d);
    size_t ng = nnav_diff_graph_count(d);
    for (size_t i = 0; i < ng; i++) {
        const nnav_diff_graph *g = nnav_diff_graph_get(d, i);
        if (!g->what && !g->node_count && !g->io_count && !g->tensor_count)
            continue;
        graph_path(ma, g->a, a, sizeof a);
        graph_path(mb, g->b, b, sizeof b);
        if (g->what & NNAV_DIFF_ADDED)
            printf("\n@@ graph %s (only on B) @@\n", b);
        else if (g->what & NNAV_DIFF_REMOVED)
            printf("\n@@ graph %s (only on A) @@\n", a);
        else if (strcmp(a, b))
            printf("\n@@ graph %s on A, %s on B @@\n", a, b);
        else
            printf("\n@@ graph %s @@\n", b);
        printf("nodes: %u same, %u added, %u removed, %u renamed, %u changed\n", g->same,
               g->added, g->removed, g->renamed, g->changed);
        text_io(d, g);
        for (uint32_t k = 0; k < g->node_count; k++)
            text_node(d, nnav_diff_node_get(d, g->node_first + k));
        for (uint32_t k = 0; k < g->tensor_count; k++)
            text_tensor(d, nnav_diff_tensor_get(d, g->tensor_first + k));
    }
}

/* ---- YAML ---- */

/* key: the span, or null on the side lacking it. */
static void yw_name(nnav_yw *y, const char *key, const nnav_model *m, uint32_t id,
                    nnav_span (*name)(const nnav_model *, uint32_t))
{
    nnav_yw_key(y, key);
    if (id == NNAV_NONE)
        nnav_yw_null(y);
    else
        nnav_yw_span(y, name(m, id));
}

static nnav_span value_name(const nnav_model *m, uint32_t v) { return nnav_value_get(m, v)->name; }
static nnav_span node_name(const nnav_model *m, uint32_t n) { return nnav_node_get(m, n)->name; }
static nnav_span node_op(const nnav_model *m, uint32_t n) { return nnav_node_get(m, n)->op; }
static nnav_span tensor_name(const nnav_model *m, uint32_t t) { return nnav_tensor_get(m, t)->name; }
static nnav_span attr_name(const nnav_model *m, uint32_t a) { return nnav_attr_get(m, a)->name; }

static void yw_text(nnav_yw *y, const char *key, const char *s)
{
    nnav_yw_key(y, key);
    if (s)
        nnav_yw_cstr(y, s);
    else
        nnav_yw_null(y);
}

static void yw_inputs(nnav_yw *y, const nnav_diff *d, const nnav_diff_node *dn, int side)
{
    const nnav_model *m = nnav_diff_model(d, side);
    const nnav_node *nd = nnav_node_get(m, side ? dn->b : dn->a);
    nnav_yw_key(y, side ? "inputs_b" : "inputs_a");
    nnav_yw_seq_flow(y);
    for (uint32_t i = 0; i < nd->in_count; i++) {
        nnav_ref r = nnav_ref_get(m, nd->in_first + i);
        if (r.control) { /* "^NAME": the control edge's own spelling */
            char buf[NAMEBUF + 2] = "^";
            nnav_text_escape(r.name.p, r.name.n, buf + 1, sizeof buf - 1);
            nnav_yw_span(y, (nnav_span){(const uint8_t *)buf, strlen(buf)});
        } else
            nnav_yw_span(y, r.name);
    }
    nnav_yw_seq_end(y);
}

static void yaml_node(nnav_yw *y, const nnav_diff *d, const nnav_diff_node *dn)
{
    const nnav_model *ma = nnav_diff_model(d, 0), *mb = nnav_diff_model(d, 1);
    nnav_yw_map(y);
    nnav_yw_key(y, "change");
    yw_words(y, dn->what);
    yw_name(y, "name_a", ma, dn->a, node_name);
    yw_name(y, "name_b", mb, dn->b, node_name);
    yw_name(y, "op_a", ma, dn->a, node_op);
    yw_name(y, "op_b", mb, dn->b, node_op);
    nnav_yw_key(y, "domain_a");
    if (dn->a == NNAV_NONE)
        nnav_yw_null(y);
    else
        nnav_yw_span(y, nnav_node_domain(ma, dn->a));
    nnav_yw_key(y, "domain_b");
    if (dn->b == NNAV_NONE)
        nnav_yw_null(y);
    else
        nnav_yw_span(y, nnav_node_domain(mb, dn->b));
    if (dn->attr_count) {
        nnav_yw_key(y, "attributes");
        nnav_yw_seq(y);
        for (uint32_t i = 0; i < dn->attr_count; i++) {
            const nnav_diff_attr *at = nnav_diff_attr_get(d, dn->attr_first + i);
            char v[2048];
            nnav_yw_map(y);
            nnav_yw_key(y, "name");
            nnav_yw_span(y, at->b != NNAV_NONE ? attr_name(mb, at->b) : attr_name(ma, at->a));
            nnav_yw_key(y, "a");
            if (at->a == NNAV_NONE)
                nnav_yw_null(y);
            else {
                nnav_attr_format(ma, at->a, 16, v, sizeof v);
                nnav_yw_cstr(y, v);
            }
            nnav_yw_key(y, "b");
            if (at->b == NNAV_NONE)
                nnav_yw_null(y);
            else {
                nnav_attr_format(mb, at->b, 16, v, sizeof v);
                nnav_yw_cstr(y, v);
            }
            nnav_yw_map_end(y);
        }
        nnav_yw_seq_end(y);
    }
    if (dn->what & NNAV_DIFF_INPUTS) {
        yw_inputs(y, d, dn, 0);
        yw_inputs(y, d, dn, 1);
        uint32_t na = nnav_node_get(ma, dn->a)->in_count, nb = nnav_node_get(mb, dn->b)->in_count;
        nnav_yw_key(y, "inputs_differ");
        nnav_yw_seq_flow(y);
        for (uint32_t i = 0; i < (na > nb ? na : nb); i++)
            if (!nnav_diff_input_same(d, dn, i))
                nnav_yw_uint(y, i);
        nnav_yw_seq_end(y);
    }
    nnav_yw_map_end(y);
}

static void yaml_tensor(nnav_yw *y, const nnav_diff *d, const nnav_diff_tensor *t)
{
    const nnav_model *ma = nnav_diff_model(d, 0), *mb = nnav_diff_model(d, 1);
    char buf[512];
    nnav_yw_map(y);
    nnav_yw_key(y, "change");
    yw_words(y, t->what);
    yw_name(y, "name_a", ma, t->a, tensor_name);
    yw_name(y, "name_b", mb, t->b, tensor_name);
    nnav_yw_key(y, "type_a");
    if (t->a == NNAV_NONE)
        nnav_yw_null(y);
    else {
        nnav_tensor_shape_format(ma, t->a, buf, sizeof buf);
        nnav_yw_cstr(y, buf);
    }
    nnav_yw_key(y, "type_b");
    if (t->b == NNAV_NONE)
        nnav_yw_null(y);
    else {
        nnav_tensor_shape_format(mb, t->b, buf, sizeof buf);
        nnav_yw_cstr(y, buf);
    }
    if (t->what & NNAV_DIFF_VALUES) {
        const nnav_tensor *tn = nnav_tensor_get(mb, t->b);
        nnav_yw_key(y, "elements");
        if (tn->nelems == UINT64_MAX)
            nnav_yw_null(y);
        else
            nnav_yw_uint(y, tn->nelems);
        nnav_yw_key(y, "differing_elements");
        nnav_yw_uint(y, t->ndiff);
        nnav_yw_key(y, "max_abs");
        nnav_yw_double(y, t->max_abs);
        nnav_yw_key(y, "max_abs_index");
        nnav_yw_uint(y, t->at_abs);
        nnav_yw_key(y, "max_abs_at");
        yw_coords(y, mb, t->b, t->at_abs);
        nnav_yw_key(y, "value_a");
        nnav_yw_double(y, t->a_at_abs);
        nnav_yw_key(y, "value_b");
        nnav_yw_double(y, t->b_at_abs);
        nnav_yw_key(y, "max_rel");
        if (t->max_rel < 0)
            nnav_yw_null(y);
        else
            nnav_yw_double(y, t->max_rel);
        if (t->max_rel >= 0) {
            nnav_yw_key(y, "max_rel_index");
            nnav_yw_uint(y, t->at_rel);
            nnav_yw_key(y, "max_rel_at");
            yw_coords(y, mb, t->b, t->at_rel);
        }
    }
    if (t->what & NNAV_DIFF_UNREAD)
        yw_text(y, "note", t->note);
    nnav_yw_map_end(y);
}

static int yaml_report(const nnav_diff *d, const char *pa, const char *pb)
{
    const nnav_model *ma = nnav_diff_model(d, 0), *mb = nnav_diff_model(d, 1);
    const nnav_diff_totals *t = nnav_diff_totals_get(d);
    nnav_yw yw, *y = &yw;
    char buf[4096];
    if (nnav_yw_open(y, stdout) < 0)
        return -1;
    nnav_yw_map(y);
    nnav_yw_key(y, "a");
    nnav_yw_cstr(y, pa);
    nnav_yw_key(y, "b");
    nnav_yw_cstr(y, pb);
    nnav_yw_key(y, "differences");
    nnav_yw_bool(y, nnav_diff_any(d));
    nnav_diff_summary(d, buf, sizeof buf);
    yw_text(y, "summary", buf);
    nnav_yw_key(y, "totals");
    nnav_yw_map(y);
    static const char *const tk[] = {"nodes_a", "nodes_b", "same", "added", "removed", "renamed",
                                     "changed", "graphs_added", "graphs_removed", "io_changed",
                                     "initializers_added", "initializers_removed",
                                     "initializers_renamed", "initializers_changed",
                                     "bytes_compared", "facts_changed"};
    const uint64_t tv[] = {t->nodes_a, t->nodes_b, t->same, t->added, t->removed, t->renamed,
                           t->changed, t->graphs_added, t->graphs_removed, t->io_changed,
                           t->tensors_added, t->tensors_removed, t->tensors_renamed,
                           t->tensors_changed, t->bytes_compared, t->facts};
    for (size_t i = 0; i < sizeof tv / sizeof *tv; i++) {
        nnav_yw_key(y, tk[i]);
        nnav_yw_uint(y, tv[i]);
    }
    nnav_yw_map_end(y);
    nnav_yw_key(y, "ops");
    nnav_yw_seq(y);
    for (size_t i = 0; i < nnav_diff_opsum_count(d); i++) {
        const nnav_diff_opsum *o = nnav_diff_opsum_get(d, i);
        nnav_yw_map_flow(y);
        nnav_yw_key(y, "op");
        nnav_yw_span(y, o->op);
        nnav_yw_key(y, "domain");
        nnav_yw_span(y, o->domain);
        nnav_yw_key(y, "added");
        nnav_yw_uint(y, o->added);
        nnav_yw_key(y, "removed");
        nnav_yw_uint(y, o->removed);
        nnav_yw_key(y, "renamed");
        nnav_yw_uint(y, o->renamed);
        nnav_yw_key(y, "changed");
        nnav_yw_uint(y, o->changed);
        nnav_yw_key(y, "changed_what");
        yw_words(y, o->changed_what);
        nnav_yw_map_end(y);
    }
    nnav_yw_seq_end(y);
    nnav_yw_key(y, "facts");
    nnav_yw_seq(y);
    for (size_t i = 0; i < nnav_diff_fact_count(d); i++) {
        const nnav_diff_fact *f = nnav_diff_fact_get(d, i);
        nnav_yw_map_flow(y);
        yw_text(y, "key", f->key);
        yw_text(y, "a", f->a);
        yw_text(y, "b", f->b);
        nnav_yw_map_end(y);
    }
    nnav_yw_seq_end(y);
    nnav_yw_key(y, "graphs");
    nnav_yw_seq(y);
    for (size_t i = 0; i < nnav_diff_graph_count(d); i++) {
        const nnav_diff_graph *g = nnav_diff_graph_get(d, i);
        if (!g->what && !g->node_count && !g->io_count && !g->tensor_count)
            continue;
        nnav_yw_map(y);
        nnav_yw_key(y, "path_a");
        if (g->a == NNAV_NONE)
            nnav_yw_null(y);
        else
            nnav_yw_cstr(y, graph_path(ma, g->a, buf, sizeof buf));
        nnav_yw_key(y, "path_b");
        if (g->b == NNAV_NONE)
            nnav_yw_null(y);
        else
            nnav_yw_cstr(y, graph_path(mb, g->b, buf, sizeof buf));
        nnav_yw_key(y, "change");
        yw_words(y, g->what);
        static const char *const gk[] = {"same", "added", "removed", "renamed", "changed"};
        const uint32_t gv[] = {g->same, g->added, g->removed, g->renamed, g->changed};
        for (size_t k = 0; k < 5; k++) {
            nnav_yw_key(y, gk[k]);
            nnav_yw_uint(y, gv[k]);
        }
        nnav_yw_key(y, "io");
        nnav_yw_seq(y);
        for (uint32_t k = 0; k < g->io_count; k++) {
            const nnav_diff_io *io = nnav_diff_io_get(d, g->io_first + k);
            nnav_yw_map(y);
            nnav_yw_key(y, "kind");
            nnav_yw_cstr(y, io->output ? "output" : "input");
            nnav_yw_key(y, "change");
            yw_words(y, io->what);
            yw_name(y, "name_a", ma, io->a, value_name);
            yw_name(y, "name_b", mb, io->b, value_name);
            nnav_yw_key(y, "type_a");
            if (io->a == NNAV_NONE)
                nnav_yw_null(y);
            else {
                nnav_value_type_format(ma, io->a, buf, sizeof buf);
                nnav_yw_cstr(y, buf);
            }
            nnav_yw_key(y, "type_b");
            if (io->b == NNAV_NONE)
                nnav_yw_null(y);
            else {
                nnav_value_type_format(mb, io->b, buf, sizeof buf);
                nnav_yw_cstr(y, buf);
            }
            nnav_yw_map_end(y);
        }
        nnav_yw_seq_end(y);
        nnav_yw_key(y, "nodes");
        nnav_yw_seq(y);
        for (uint32_t k = 0; k < g->node_count; k++)
            yaml_node(y, d, nnav_diff_node_get(d, g->node_first + k));
        nnav_yw_seq_end(y);
        nnav_yw_key(y, "initializers");
        nnav_yw_seq(y);
        for (uint32_t k = 0; k < g->tensor_count; k++)
            yaml_tensor(y, d, nnav_diff_tensor_get(d, g->tensor_first + k));
        nnav_yw_seq_end(y);
        nnav_yw_map_end(y);
    }
    nnav_yw_seq_end(y);
    nnav_yw_map_end(y);
    return nnav_yw_close(y);
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
        if (o->yaml) {
            if (yaml_report(d, pa, pb) < 0) {
                fprintf(stderr, "nnav diff: could not write the YAML\n");
                rc = EXIT_BADINPUT;
            }
        } else
            text_report(d, pa, pb);
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
