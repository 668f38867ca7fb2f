/* wcost.c - the whole model's cost: each graph's nodes plus what their
 * bodies run, by the rules in shape.h. Each graph is summed once (memo by
 * graph id); recursion is bounded by NNAV_WCOST_DEPTH, so a hostile nesting
 * or a function that calls itself costs at most one pass over its graphs. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "sbuf.h"
#include "scope.h"
#include "shape.h"

#define TOO_BIG 9.2e18 /* about 2^63: past it a figure is unknown */

struct nnav_wcost {
    const nnav_shapes *s;
    const nnav_model *m;
    nnav_whole *memo;   /* by graph id */
    uint8_t *state;     /* by graph id: 0 not yet, 1 being summed, 2 done */
    int64_t opset;      /* of the default domain, 0 unknown */
};

nnav_wcost *nnav_wcost_new(const nnav_shapes *s)
{
    nnav_wcost *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->s = s;
    w->m = nnav_shapes_model(s);
    w->memo = calloc((size_t)w->m->graphs.n + 1, sizeof *w->memo);
    w->state = calloc((size_t)w->m->graphs.n + 1, 1);
    if (!w->memo || !w->state) {
        nnav_wcost_free(w);
        return NULL;
    }
    for (uint32_t i = 0; i < nnav_opset_count(w->m); i++) {
        const nnav_opset *o = nnav_opset_get(w->m, i);
        if (!o->domain.n || nnav_span_eqs(o->domain, "ai.onnx")) {
            w->opset = o->version;
            break;
        }
    }
    return w;
}

void nnav_wcost_free(nnav_wcost *w)
{
    if (!w)
        return;
    free(w->memo);
    free(w->state);
    free(w);
}

static void add(nnav_whole *a, const nnav_whole *b)
{
    a->macs += b->macs;
    a->flops += b->flops;
    a->out_bytes += b->out_bytes;
    a->known &= b->known;
    a->symbolic |= b->symbolic;
    a->per_iter |= b->per_iter;
    a->overflow |= b->overflow;
    a->cut |= b->cut;
    if (a->macs > TOO_BIG || a->flops > TOO_BIG || a->out_bytes > TOO_BIG)
        a->overflow = 1;
}

/* a times k (k >= 0): overflow past 2^63, never inf or a wrapped number. */
static void scale(nnav_whole *a, double k)
{
    if (a->macs * k > TOO_BIG || a->flops * k > TOO_BIG || a->out_bytes * k > TOO_BIG) {
        a->overflow = 1;
        return;
    }
    a->macs *= k, a->flops *= k, a->out_bytes *= k;
}

static const nnav_whole *graph_cost(nnav_wcost *w, uint32_t g, int depth);

/* The dearer of two: by MACs, then FLOPs. */
static int dearer(const nnav_whole *a, const nnav_whole *b)
{
    return a->overflow != b->overflow ? a->overflow : a->macs != b->macs ? a->macs > b->macs
                                                                         : a->flops >= b->flops;
}

static uint32_t attr_of(const nnav_model *m, const nnav_node *nd, const char *name)
{
    for (uint32_t k = 0; k < nd->attr_count; k++)
        if (nnav_span_eqs(m->attrs.v[nd->attr_first + k].name, name))
            return nd->attr_first + k;
    return NNAV_NONE;
}

/* The one body graph an attribute holds, or NNAV_NONE. */
static uint32_t body_of(const nnav_model *m, const nnav_node *nd, const char *name)
{
    uint32_t a = attr_of(m, nd, name);
    return a != NNAV_NONE && m->attrs.v[a].graph_count == 1 ? m->attrs.v[a].graph_first
                                                            : NNAV_NONE;
}

/* A value's number when it is a known scalar (or one-element) integer:
 * folded by inference (an initializer, a Constant, shape arithmetic). */
static int value_int(const nnav_shapes *s, uint32_t v, int64_t *out)
{
    const nnav_dim *vals;
    if (v == NNAV_NONE || nnav_shapes_folded(s, v, &vals) != 1 || !nnav_dim_is_num(vals[0]))
        return 0;
    *out = nnav_dim_val(vals[0]);
    return 1;
}

static uint32_t in_value(const nnav_model *m, const nnav_node *nd, uint32_t i)
{
    return i < nd->in_count && !nnav_ref_control(m, nd->in_first + i) ? m->refs.v[nd->in_first + i].value
                                                                       : NNAV_NONE;
}

/* A dim of a value's inferred (or the file's) shape; -1 unknown. */
static double value_dim(const nnav_shapes *s, uint32_t v, int64_t axis, int *sym)
{
    const nnav_fact *f = v == NNAV_NONE ? NULL : nnav_shapes_fact(s, v);
    if (!f || f->rank < 0)
        return -1;
    if (axis < 0)
        axis += f->rank;
    if (axis < 0 || axis >= f->rank)
        return -1;
    nnav_dim d = nnav_shapes_dims(s, f->dims)[axis];
    if (nnav_dim_is_sym(d))
        *sym = 1;
    int64_t x = nnav_dim_eval(s, d);
    return x < 0 ? -1 : (double)x;
}


static void part_text(nnav_sbuf *b, const char *label, const nnav_whole *h)
{
    char a[32];
    if (h->overflow) {
        nnav_sb_printf(b, "%s too large to count", label);
        return;
    }
    nnav_text_si(h->macs, a, sizeof a);
    nnav_sb_printf(b, "%s %s MACs%s", label, a, h->known ? "" : " (partial)");
}

/* What node n's bodies add; 0 when it has none. depth: of n's graph. */
static int node_bodies(nnav_wcost *w, uint32_t n, int depth, nnav_whole *out, nnav_sbuf *how)
{
    const nnav_model *m = w->m;
    const nnav_node *nd = &m->nodes.v[n];
    memset(out, 0, sizeof *out);
    out->known = 1;
    int any = 0;
    if (nd->function != NNAV_NONE && nd->function < m->functions.n) {
        uint32_t fg = m->functions.v[nd->function].graph;
        if (fg < m->graphs.n) {
            const nnav_whole *b = graph_cost(w, fg, depth + 1);
            add(out, b);
            if (how)
                part_text(how, "function body", b);
            any = 1;
        }
    }
    int has_body = 0;
    for (uint32_t k = 0; k < nd->attr_count; k++)
        has_body |= m->attrs.v[nd->attr_first + k].graph_count > 0;
    if (!has_body)
        return any;
    int onnx = !(m->facts.format != NNAV_FMT_ONNX);
    nnav_span op = nd->op;
    if ((onnx && nnav_span_eqs(op, "If")) ||
        ((m->facts.format != NNAV_FMT_ONNX) && (nnav_span_eqs(op, "If") || nnav_span_eqs(op, "StatelessIf")))) {
        uint32_t tg = body_of(m, nd, onnx ? "then_branch" : "then_branch");
        uint32_t eg = body_of(m, nd, "else_branch");
        nnav_whole t = {0}, e = {0};
        t.known = e.known = 1;
        if (tg != NNAV_NONE)
            t = *graph_cost(w, tg, depth + 1);
        if (eg != NNAV_NONE)
            e = *graph_cost(w, eg, depth + 1);
        const nnav_whole *d = dearer(&t, &e) ? &t : &e;
        add(out, d);
        out->known &= t.known & e.known;
        if (how) {
            part_text(how, "then", &t);
            part_text(how, ", else", &e);
            nnav_sb_printf(how, ": the dearer (%s) counted", d == &t ? "then" : "else");
        }
        return 1;
    }
    if (onnx && nnav_span_eqs(op, "Loop")) {
        uint32_t bg = body_of(m, nd, "body");
        if (bg == NNAV_NONE)
            return any;
        nnav_whole b = *graph_cost(w, bg, depth + 1);
        int64_t trip;
        if (value_int(w->s, in_value(m, nd, 0), &trip) && trip >= 0 && trip < INT64_MAX) {
            if (how) {
                part_text(how, "body", &b);
                nnav_sb_printf(how, " x %lld trip%s", (long long)trip, trip == 1 ? "" : "s");
            }
            scale(&b, (double)trip);
        } else {
            b.per_iter = 1;
            if (how) {
                part_text(how, "body", &b);
                nnav_sb_printf(how, " per iteration (trip count unknown: counted once)");
            }
        }
        add(out, &b);
        return 1;
    }
    if (onnx && nnav_span_eqs(op, "Scan")) {
        uint32_t bg = body_of(m, nd, "body");
        if (bg == NNAV_NONE)
            return any;
        nnav_whole b = *graph_cost(w, bg, depth + 1);
        /* Opset 9 on: N states then num_scan_inputs scan inputs, scanned
         * along scan_input_axes[0] (default 0). Opset 8: sequence_lens
         * first, and every input is [batch, seq, ...]: batch x seq steps. */
        uint32_t a = attr_of(m, nd, "num_scan_inputs");
        int64_t ns = 0, axis = 0;
        nnav_error err;
        if (a == NNAV_NONE || nnav_attr_int(m, a, &ns, &err) < 0 || ns < 1 || ns > nd->in_count)
            ns = 0;
        int sym = 0;
        double len = -1;
        if (ns && w->opset == 8) {
            uint32_t first = nd->in_count - (uint32_t)ns;
            double bt = value_dim(w->s, in_value(m, nd, first), 0, &sym);
            double sq = value_dim(w->s, in_value(m, nd, first), 1, &sym);
            len = bt < 0 || sq < 0 ? -1 : bt * sq;
        } else if (ns) {
            uint32_t first = nd->in_count - (uint32_t)ns;
            uint32_t ax = attr_of(m, nd, "scan_input_axes");
            size_t tot = 0;
            int64_t axes[1] = {0};
            if (ax != NNAV_NONE && nnav_attr_ints(m, ax, axes, 1, &tot, &err) == 0 && tot >= 1)
                axis = axes[0];
            len = value_dim(w->s, in_value(m, nd, first), axis, &sym);
        }
        b.symbolic |= (uint8_t)sym;
        if (len >= 0) {
            if (how) {
                part_text(how, "body", &b);
                nnav_sb_printf(how, " x %.0f scanned", len);
            }
            scale(&b, len);
        } else {
            b.per_iter = 1;
            if (how) {
                part_text(how, "body", &b);
                nnav_sb_printf(how, " per step (scanned length unknown: counted once)");
            }
        }
        add(out, &b);
        return 1;
    }
    /* Anything else with bodies (a TensorFlow call or While, SequenceMap,
     * an op of another domain): each body once; a loop's per iteration. */
    int loop = ((m->facts.format != NNAV_FMT_ONNX) && (nnav_span_eqs(op, "While") || nnav_span_eqs(op, "StatelessWhile"))) ||
               (onnx && nnav_span_eqs(op, "SequenceMap"));
    nnav_whole sum = {0};
    sum.known = 1;
    for (uint32_t k = 0; k < nd->attr_count; k++) {
        const nnav_attr *at = &m->attrs.v[nd->attr_first + k];
        for (uint32_t j = 0; j < at->graph_count; j++)
            if (at->graph_first + j < m->graphs.n)
                add(&sum, graph_cost(w, at->graph_first + j, depth + 1));
    }
    sum.per_iter |= (uint8_t)loop;
    if (how) {
        if (any)
            nnav_sb_put(how, "; ");
        part_text(how, "bodies", &sum);
        nnav_sb_put(how, loop ? " per iteration (trip count unknown: counted once)" : "");
    }
    add(out, &sum);
    return 1;
}

static const nnav_whole *graph_cost(nnav_wcost *w, uint32_t g, int depth)
{
    static const nnav_whole partial = {0, 0, 0, 0, 0, 0, 0, 0};
    static const nnav_whole deep = {0, 0, 0, 0, 0, 0, 0, NNAV_WCOST_DEEP};
    static const nnav_whole recursive = {0, 0, 0, 0, 0, 0, 0, NNAV_WCOST_RECURSIVE};
    if (g >= w->m->graphs.n)
        return &partial;
    if (w->state[g] == 2)
        return &w->memo[g];
    if (w->state[g] == 1)
        return &recursive;
    if (depth > NNAV_WCOST_DEPTH)
        return &deep;
    w->state[g] = 1;
    nnav_whole h = {0};
    h.known = 1;
    const nnav_graph *gr = &w->m->graphs.v[g];
    for (uint32_t i = 0; i < gr->node_count; i++) {
        uint32_t n = gr->node_first + i;
        const nnav_cost *c = nnav_shapes_node_cost(w->s, n);
        nnav_whole own = {c->macs, c->flops, c->out_bytes, c->known, c->symbolic, 0, 0, 0};
        add(&h, &own);
        nnav_whole b;
        if (node_bodies(w, n, depth, &b, NULL))
            add(&h, &b);
    }
    w->memo[g] = h;
    w->state[g] = 2;
    return &w->memo[g];
}

const nnav_whole *nnav_wcost_graph(nnav_wcost *w, uint32_t graph)
{
    return graph_cost(w, graph, 0);
}

int nnav_wcost_node(nnav_wcost *w, uint32_t node, nnav_whole *out, char *how, size_t n)
{
    nnav_sbuf b = {how, n, 0};
    if (n)
        how[0] = 0;
    memset(out, 0, sizeof *out);
    out->known = 1;
    if (node >= w->m->nodes.n)
        return 0;
    return node_bodies(w, node, 0, out, how ? &b : NULL);
}

#define WCOST_STR2(x) #x
#define WCOST_STR(x) WCOST_STR2(x)

const char *nnav_whole_why(const nnav_whole *h)
{
    if (h->known)
        return "";
    if (h->cut & NNAV_WCOST_DEEP)
        return "bodies nested over " WCOST_STR(NNAV_WCOST_DEPTH) " levels deep are not counted";
    if (h->cut & NNAV_WCOST_RECURSIVE)
        return "a function that calls itself is counted once";
    return "shapes missing";
}

void nnav_whole_to_cost(const nnav_whole *h, nnav_cost *c)
{
    memset(c, 0, sizeof *c);
    if (!h->overflow) {
        c->macs = h->macs;
        c->flops = h->flops;
        c->out_bytes = h->out_bytes;
    }
    c->known = h->known && !h->overflow;
    c->symbolic = h->symbolic;
}

void nnav_shapes_whole_cost(const nnav_shapes *s, uint32_t graph, nnav_cost *out, nnav_whole *h)
{
    nnav_whole none = {0};
    nnav_wcost *w = nnav_wcost_new(s);
    nnav_shapes_graph_cost(s, graph, out); /* its own nodes: the fallback, and params */
    uint64_t own_params = out->params;
    if (w) {
        none = *nnav_wcost_graph(w, graph);
        nnav_whole_to_cost(&none, out);
        nnav_wcost_free(w);
    } else {
        none.macs = out->macs, none.flops = out->flops, none.out_bytes = out->out_bytes;
        none.known = 0;
        out->known = 0;
    }
    out->params = own_params;
    if (graph == 0)
        nnav_model_params(nnav_shapes_model(s), &out->params, NULL);
    if (h)
        *h = none;
}
