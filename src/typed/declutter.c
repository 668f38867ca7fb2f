/* declutter.c - which nodes of a graph are clutter; see declutter.h. */
#include "declutter.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opset_rules.h"

struct nnav_declutter {
    const nnav_model *m;
    const nnav_shapes *s;
    uint32_t graph, first, count, hidden;
    uint8_t *why;   /* per node of the graph: enum nnav_decl_why */
    uint32_t *src;  /* per node: for a hidden Identity, the value it renames
                       (already walked through earlier Identities), else NONE */
};

static int in_graph(const nnav_declutter *d, uint32_t node)
{
    return node != NNAV_NONE && node >= d->first && node - d->first < d->count;
}

/* A value's folded value when every element is a number: a constant. */
static size_t folded_const(const nnav_shapes *s, uint32_t v, const nnav_dim **vals)
{
    if (!s || v == NNAV_NONE)
        return 0;
    size_t n = nnav_shapes_folded(s, v, vals);
    for (size_t i = 0; i < n; i++)
        if (!nnav_dim_is_num((*vals)[i]))
            return 0;
    return n;
}

/* What kind of clutter node `id` is, before asking whether it may hide. */
static int classify(const nnav_declutter *d, uint32_t id)
{
    const nnav_model *m = d->m;
    const nnav_node *n = nnav_node_get(m, id);
    const nnav_opset_rules *R = nnav_opset_rules_of(m);
    if (nnav_opset_is(R, m, id, n->op, R->constant_op))
        return NNAV_DECL_CONSTANT;
    if (nnav_opset_is(R, m, id, n->op, R->identity_op) || nnav_opset_is(R, m, id, n->op, R->noop_op))
        return NNAV_DECL_RENAME;
    if (!d->s || n->function != NNAV_NONE)
        return NNAV_DECL_SHOWN;
    for (uint32_t a = 0; a < n->attr_count; a++)
        if (nnav_attr_get(m, n->attr_first + a)->graph_count)
            return NNAV_DECL_SHOWN; /* a body runs: not arithmetic on constants */
    uint32_t data = 0;
    for (uint32_t k = 0; k < n->out_count; k++) {
        nnav_ref r = nnav_ref_get(m, n->out_first + k);
        if (r.control || r.value == NNAV_NONE)
            continue;
        const nnav_dim *vals;
        if (!folded_const(d->s, r.value, &vals))
            return NNAV_DECL_SHOWN;
        data++;
    }
    return data ? NNAV_DECL_FOLDED : NNAV_DECL_SHOWN;
}

/* A clutter node stays shown when an output is a graph output or is read
 * from another graph (a body using it from outside). */
static int must_show(const nnav_declutter *d, uint32_t id)
{
    const nnav_node *n = nnav_node_get(d->m, id);
    for (uint32_t k = 0; k < n->out_count; k++) {
        nnav_ref r = nnav_ref_get(d->m, n->out_first + k);
        if (r.value == NNAV_NONE)
            continue;
        const nnav_value *v = nnav_value_get(d->m, r.value);
        if (v->is_output)
            return 1;
        uint32_t nc;
        const uint32_t *c = nnav_value_consumers(d->m, r.value, &nc);
        for (uint32_t i = 0; i < nc; i++)
            if (!in_graph(d, c[i]))
                return 1;
    }
    return 0;
}

nnav_declutter *nnav_declutter_build(const nnav_model *m, uint32_t graph, const nnav_shapes *s)
{
    if (graph >= nnav_graph_count(m))
        return NULL;
    const nnav_graph *g = nnav_graph_get(m, graph);
    nnav_declutter *d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    size_t n = g->node_count ? g->node_count : 1;
    d->why = calloc(n, 1);
    d->src = malloc(n * sizeof *d->src);
    if (!d->why || !d->src) {
        nnav_declutter_free(d);
        return NULL;
    }
    d->m = m;
    d->s = s;
    d->graph = graph;
    d->first = g->node_first;
    d->count = g->node_count;
    for (uint32_t i = 0; i < d->count; i++)
        d->src[i] = NNAV_NONE; /* a later Identity may be asked for before its turn */
    for (uint32_t i = 0; i < d->count; i++) {
        uint32_t id = d->first + i;
        int why = classify(d, id);
        if (why == NNAV_DECL_SHOWN || must_show(d, id))
            continue;
        d->why[i] = (uint8_t)why;
        d->hidden++;
        const nnav_node *nd = nnav_node_get(m, id);
        if (why == NNAV_DECL_RENAME && nd->in_count) {
            nnav_ref r = nnav_ref_get(m, nd->in_first);
            if (r.control || r.value == NNAV_NONE)
                continue;
            /* Walk one step: an earlier Identity already points at its
             * source, so a chain resolves in one pass (a hostile cycle,
             * which node order cannot close, stops at the value itself). */
            d->src[i] = nnav_declutter_source(d, r.value);
        }
    }
    return d;
}

void nnav_declutter_free(nnav_declutter *d)
{
    if (!d)
        return;
    free(d->why);
    free(d->src);
    free(d);
}

uint32_t nnav_declutter_graph(const nnav_declutter *d) { return d->graph; }
uint32_t nnav_declutter_visible(const nnav_declutter *d) { return d->count - d->hidden; }
uint32_t nnav_declutter_hidden_count(const nnav_declutter *d) { return d->hidden; }

int nnav_declutter_why(const nnav_declutter *d, uint32_t node)
{
    return in_graph(d, node) ? d->why[node - d->first] : NNAV_DECL_SHOWN;
}

/* The node that makes value v, when it is one of this graph's. */
static uint32_t maker(const nnav_declutter *d, uint32_t v)
{
    if (v == NNAV_NONE || v >= nnav_value_count(d->m))
        return NNAV_NONE;
    const nnav_value *val = nnav_value_get(d->m, v);
    if (val->kind != NNAV_VAL_NODE || !in_graph(d, val->producer))
        return NNAV_NONE;
    return val->producer;
}

uint32_t nnav_declutter_source(const nnav_declutter *d, uint32_t value)
{
    uint32_t p = maker(d, value);
    if (p == NNAV_NONE || d->src[p - d->first] == NNAV_NONE)
        return value;
    return d->src[p - d->first];
}

uint32_t nnav_declutter_producer(const nnav_declutter *d, uint32_t value)
{
    uint32_t src = nnav_declutter_source(d, value);
    if (src == NNAV_NONE || src >= nnav_value_count(d->m))
        return NNAV_NONE;
    const nnav_value *v = nnav_value_get(d->m, src);
    return v->kind == NNAV_VAL_NODE ? v->producer : NNAV_NONE;
}

int nnav_declutter_input(const nnav_declutter *d, uint32_t value)
{
    uint32_t src = nnav_declutter_source(d, value);
    uint32_t p = maker(d, src);
    if (p == NNAV_NONE || !d->why[p - d->first])
        return NNAV_DECL_IN_PLAIN;
    const nnav_dim *vals;
    if (folded_const(d->s, src, &vals))
        return NNAV_DECL_IN_FOLDED;
    return d->why[p - d->first] == NNAV_DECL_CONSTANT ? NNAV_DECL_IN_CONSTANT
                                                      : NNAV_DECL_IN_PLAIN;
}

void nnav_declutter_input_text(const nnav_declutter *d, uint32_t value, char *buf, size_t n)
{
    if (!n)
        return;
    buf[0] = '\0';
    int kind = nnav_declutter_input(d, value);
    uint32_t src = nnav_declutter_source(d, value);
    size_t len = 0;
    if (kind == NNAV_DECL_IN_FOLDED) {
        const nnav_dim *vals;
        size_t k = folded_const(d->s, src, &vals);
        const nnav_fact *f = nnav_shapes_fact(d->s, src);
        int scalar = f && f->rank == 0 && k == 1;
        len = (size_t)snprintf(buf, n, "%s", scalar ? "" : "[");
        for (size_t i = 0; i < k && len < n; i++)
            len += (size_t)snprintf(buf + len, n - len, "%s%lld", i ? "," : "",
                                    (long long)nnav_dim_val(vals[i]));
        if (len < n)
            snprintf(buf + len, n - len, "%s (folded)", scalar ? "" : "]");
    } else if (kind == NNAV_DECL_IN_CONSTANT) {
        char t[256];
        t[0] = '\0';
        if (d->s)
            nnav_shapes_value_format(d->s, src, t, sizeof t);
        snprintf(buf, n, "%s (constant)", t[0] ? t : "?");
    }
}

/* --declutter: the "folded" list of a node of the decluttered graph, one item
 * per input: null, the folded value (an int or a list of ints), or a hidden
 * Constant's type ("float32[768] (constant)"); only when some input is one. */
void nnav_declutter_yaml_folded(nnav_yw *w, const nnav_model *m, const nnav_declutter *d,
                                const nnav_shapes *s, const nnav_node *nd)
{
    uint32_t any = 0;
    for (uint32_t i = 0; i < nd->in_count; i++) {
        nnav_ref r = nnav_ref_get(m, nd->in_first + i);
        any += r.value != NNAV_NONE && !r.control &&
               nnav_declutter_input(d, r.value) != NNAV_DECL_IN_PLAIN;
    }
    if (!any)
        return;
    nnav_yw_key(w, "folded");
    nnav_yw_seq_flow(w);
    for (uint32_t i = 0; i < nd->in_count; i++) {
        nnav_ref r = nnav_ref_get(m, nd->in_first + i);
        int kind = r.value == NNAV_NONE || r.control ? NNAV_DECL_IN_PLAIN
                                                     : nnav_declutter_input(d, r.value);
        uint32_t src = r.value != NNAV_NONE ? nnav_declutter_source(d, r.value) : NNAV_NONE;
        const nnav_dim *v;
        size_t n = kind == NNAV_DECL_IN_FOLDED ? nnav_shapes_folded(s, src, &v) : 0;
        const nnav_fact *fa = kind == NNAV_DECL_IN_FOLDED ? nnav_shapes_fact(s, src) : NULL;
        if (kind == NNAV_DECL_IN_FOLDED && fa && fa->rank == 0 && n == 1) {
            nnav_yw_int(w, nnav_dim_val(v[0]));
        } else if (kind == NNAV_DECL_IN_FOLDED) {
            nnav_yw_seq_flow(w);
            for (size_t k = 0; k < n; k++)
                nnav_yw_int(w, nnav_dim_val(v[k]));
            nnav_yw_seq_end(w);
        } else if (kind == NNAV_DECL_IN_CONSTANT) {
            char t[300];
            nnav_declutter_input_text(d, r.value, t, sizeof t);
            nnav_yw_cstr(w, t);
        } else {
            nnav_yw_null(w);
        }
    }
    nnav_yw_seq_end(w);
}
