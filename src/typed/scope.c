/* scope.c - the module hierarchy of a graph (see scope.h for the rules). */
#include "scope.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dtype.h"
#include "hashtab.h"
#include "model.h"
#include "onnx_fields.h"
#include "opset_rules.h"
#include "quant.h"
#include "wire.h"

struct nnav_scopes {
    const nnav_model *m;
    const nnav_shapes *s;
    uint32_t graph;
    nnav_scope *sc;
    uint32_t n;
    uint32_t *nodes;      /* node ids in scope order */
    uint32_t *node_scope; /* by node index in the graph */
    uint32_t *memb;       /* by node index: position in nodes[] */
    uint32_t *vals;       /* boundary values */
    uint32_t *ptensor;    /* by value id: the tensor a parameter holds, NNAV_NONE */
    uint32_t *slot;       /* by value id: its output slot on its producer */
    /* A checkpoint (no nodes): its tensors by their key paths' scopes. */
    uint32_t *cv;         /* initializer value ids in scope order */
    uint32_t *cv_first, *cv_total; /* by scope: its range of cv (own first, then the subtree) */
    uint32_t *cv_scope;   /* by position in cv: the scope holding it */
    uint64_t buffers;     /* elements of tensors named as buffers (see scope.h) */
};

/* ---- small helpers ---- */

static uint64_t mix(uint64_t h, uint64_t k)
{
    h ^= k + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
    h *= 0xff51afd7ed558ccdull;
    return h ^ (h >> 29);
}

/* Element types weights have: not shapes, indices, flags, text or TensorFlow's
 * resource and variant handles. */
static int weight_dtype(int32_t dt)
{
    switch (dt) {
    case NNAV_DT_UNDEFINED: case NNAV_DT_INT32: case NNAV_DT_INT64: case NNAV_DT_UINT32:
    case NNAV_DT_UINT64: case NNAV_DT_BOOL: case NNAV_DT_STRING:
        return 0;
    }
    return dt > 0 || dt == NNAV_DT_QBLOCKS || dt == NNAV_DT_TF_QINT8 || dt == NNAV_DT_TF_QUINT8 ||
           dt == NNAV_DT_TF_QINT16 || dt == NNAV_DT_TF_QUINT16;
}

/* The weight tensor a constant node (ONNX Constant, TensorFlow Const)
 * holds, or NNAV_NONE. */
static uint32_t constant_tensor(const nnav_model *m, const nnav_opset_rules *R, uint32_t n)
{
    const nnav_node *nd = &m->nodes.v[n];
    if (!nnav_opset_is(R, m, n, nd->op, R->constant_op))
        return NNAV_NONE;
    for (uint32_t k = 0; k < nd->attr_count; k++) {
        const nnav_attr *a = &m->attrs.v[nd->attr_first + k];
        if (a->type == NNAV_ATTR_TENSOR && a->tensor_count == 1 && nnav_span_eqs(a->name, "value")) {
            const nnav_tensor *t = &m->tensors.v[a->tensor_first];
            if (weight_dtype(t->dtype) && t->nelems > 1 && t->nelems != UINT64_MAX)
                return a->tensor_first;
        }
    }
    return NNAV_NONE;
}

static uint32_t init_tensor(const nnav_model *m, const nnav_opset_rules *R, const nnav_value *v)
{
    uint32_t t = NNAV_NONE;
    if (v->kind == NNAV_VAL_INITIALIZER)
        t = v->producer;
    else if (v->kind == NNAV_VAL_SPARSE && v->producer < m->sparse.n)
        t = m->sparse.v[v->producer].values;
    if (t == NNAV_NONE || t >= m->tensors.n || !weight_dtype(m->tensors.v[t].dtype) ||
        m->tensors.v[t].nelems == UINT64_MAX)
        return NNAV_NONE;
    /* A format that indexes a constant's value as an initializer too
     * (TensorFlow): its node's output counts, the tensor once. */
    uint32_t a = m->tensors.v[t].owner_id;
    if (R->const_as_initializer && a < m->attrs.n && m->attrs.v[a].node < m->nodes.n &&
        constant_tensor(m, R, m->attrs.v[a].node) == t)
        return NNAV_NONE;
    return t;
}

/* An Identity whose input is a parameter forwards it under a new name. */
static int identity_node(const nnav_model *m, const nnav_opset_rules *R, uint32_t n)
{
    return m->nodes.v[n].in_count >= 1 && m->nodes.v[n].out_count >= 1 &&
           nnav_opset_is(R, m, n, m->nodes.v[n].op, R->identity_op);
}

/* ptensor[v] for every value of graph g (every graph when g is NNAV_NONE):
 * the weight tensor it holds. One pass; an Identity chain met before its
 * source is resolved on a stack, each value once (a cycle, only in a broken
 * file, holds nothing); an Identity forwards only a value of its own graph. */
static uint32_t *param_tensors(const nnav_model *m, uint32_t g)
{
    const nnav_opset_rules *R = nnav_opset_rules_of(m);
    uint32_t nv = m->values.n;
    uint32_t *pt = malloc(((size_t)nv + 1) * sizeof *pt);
    uint8_t *state = calloc((size_t)nv + 1, 1); /* 0 unknown, 1 on stack, 2 done */
    uint32_t *stack = NULL;
    size_t sn = 0, scap = 0;
    if (!pt || !state)
        goto oom;
    uint32_t nfirst = g == NNAV_NONE ? 0 : m->graphs.v[g].node_first;
    uint32_t ncount = g == NNAV_NONE ? m->nodes.n : m->graphs.v[g].node_count;
    for (uint32_t v = 0; v < nv; v++) {
        const nnav_value *val = &m->values.v[v];
        pt[v] = NNAV_NONE;
        if (val->kind == NNAV_VAL_INITIALIZER || val->kind == NNAV_VAL_SPARSE) {
            pt[v] = g == NNAV_NONE || val->graph == g ? init_tensor(m, R, val) : NNAV_NONE;
            state[v] = 2;
        } else if (val->kind != NNAV_VAL_NODE || (g != NNAV_NONE && val->graph != g)) {
            state[v] = 2;
        }
    }
    for (uint32_t i = 0; i < ncount; i++) {
        uint32_t n = nfirst + i;
        const nnav_node *nd = &m->nodes.v[n];
        if (!nd->out_count)
            continue;
        uint32_t v0 = m->refs.v[nd->out_first].value;
        if (v0 == NNAV_NONE || state[v0] == 2)
            continue;
        /* Follow Identity producers back until a resolved value. */
        uint32_t v = v0;
        sn = 0;
        uint32_t res = NNAV_NONE;
        for (;;) {
            if (state[v] == 2) {
                res = pt[v];
                break;
            }
            if (state[v] == 1) { /* a cycle */
                res = NNAV_NONE;
                break;
            }
            const nnav_value *val = &m->values.v[v];
            uint32_t p = val->producer;
            if (sn == scap) {
                size_t nc = scap ? 2 * scap : 64;
                uint32_t *ns = realloc(stack, nc * sizeof *ns);
                if (!ns)
                    goto oom;
                stack = ns, scap = nc;
            }
            stack[sn++] = v;
            state[v] = 1;
            if (p >= m->nodes.n || m->refs.v[m->nodes.v[p].out_first].value != v) {
                res = NNAV_NONE; /* not the first output: no Identity or Constant makes it */
                break;
            }
            if (identity_node(m, R, p)) {
                uint32_t in = m->refs.v[m->nodes.v[p].in_first].value;
                if (in == NNAV_NONE || nnav_ref_control(m, m->nodes.v[p].in_first) ||
                    m->values.v[in].graph != val->graph) {
                    res = NNAV_NONE;
                    break;
                }
                v = in;
                continue;
            }
            res = constant_tensor(m, R, p);
            break;
        }
        for (size_t k = 0; k < sn; k++)
            pt[stack[k]] = res, state[stack[k]] = 2;
    }
    /* Other outputs of nodes (not first outputs) hold nothing. */
    free(state);
    free(stack);
    return pt;
oom:
    free(pt), free(state), free(stack);
    return NULL;
}

/* ---- what a weight is to the nodes that read it ---- */

#define NNAV_TROLE_NONE_ 0 /* nnav_tensor_roles: no weight */

/* Forwarders followed from a reader back to the weight it reads. */
#define FORWARD_MAX 8u

/* Node n passes its first input on as its first output (NNAV_WROLE_PASS:
 * an Identity, a Cast of a weight stored in one type and used in another,
 * a Reshape or Expand of it...). */
static int forwarder(const nnav_model *m, const nnav_opset_rules *R, uint32_t n)
{
    const nnav_node *nd = &m->nodes.v[n];
    return nd->in_count >= 1 && nd->out_count >= 1 && !nnav_ref_control(m, nd->in_first) &&
           R->input_role(m, n, 0) == NNAV_WROLE_PASS;
}

/* The input a forwarder's first output u comes from, in u's graph, or
 * NNAV_NONE when u is no forwarder's first output. */
static uint32_t forwarded_from(const nnav_model *m, const nnav_opset_rules *R, uint32_t u)
{
    const nnav_value *val = &m->values.v[u];
    uint32_t p = val->producer;
    if (val->kind != NNAV_VAL_NODE || p >= m->nodes.n || !forwarder(m, R, p) ||
        m->refs.v[m->nodes.v[p].out_first].value != u)
        return NNAV_NONE;
    uint32_t in = m->refs.v[m->nodes.v[p].in_first].value;
    return in < m->values.n && m->values.v[in].graph == val->graph ? in : NNAV_NONE;
}

/* The counted weight value a node's input u reads (pt[] holds a tensor for
 * it): u itself, else back through at most FORWARD_MAX forwarders whose
 * outputs hold none (a Cast's; an Identity of a parameter is a name of its
 * own). NNAV_NONE when it reads no weight. */
static uint32_t read_weight_value(const nnav_model *m, const nnav_opset_rules *R,
                                  const uint32_t *pt, uint32_t u)
{
    for (uint32_t k = 0; u < m->values.n && k <= FORWARD_MAX; k++) {
        if (pt[u] != NNAV_NONE)
            return u;
        u = forwarded_from(m, R, u);
    }
    return NNAV_NONE;
}

/* The parameters weight value v stands for: its tensor's elements, or the
 * logical count a reader gives (logical[v], a packed quantised weight). */
static uint64_t welems(const nnav_model *m, const uint32_t *pt, const uint64_t *logical, uint32_t v)
{
    return logical && logical[v] ? logical[v] : m->tensors.v[pt[v]].nelems;
}

/* roles[v]: the NNAV_WROLE_* of the weight value v holds, from the inputs
 * that read it (through forwarders, opset_rules.h's input_role): a
 * parameter when any node reads it as one or no node reads it, else a
 * buffer when one reads it as one, else a constant. One pass over every
 * node's inputs, each followed back at most FORWARD_MAX steps. *logical
 * (when asked) gets the readers' logical counts (opset_rules.h's
 * logical_elems) by value, or NULL when no reader gives one. NULL when out
 * of memory. */
static uint8_t *param_roles(const nnav_model *m, const uint32_t *pt, uint64_t **logical)
{
    const nnav_opset_rules *R = nnav_opset_rules_of(m);
    uint8_t *roles = calloc((size_t)m->values.n + 1, 1);
    if (logical)
        *logical = NULL;
    if (!roles)
        return NULL;
    for (uint32_t n = 0; n < m->nodes.n; n++) {
        const nnav_node *nd = &m->nodes.v[n];
        if (forwarder(m, R, n))
            continue; /* its output's readers say */
        for (uint32_t k = 0; k < nd->in_count; k++) {
            uint32_t r = nd->in_first + k, u = m->refs.v[r].value;
            if (u == NNAV_NONE || nnav_ref_control(m, r))
                continue;
            uint32_t w = read_weight_value(m, R, pt, u);
            if (w == NNAV_NONE)
                continue;
            roles[w] |= (uint8_t)(1u << R->input_role(m, n, k));
            uint64_t le = logical && R->logical_elems ? R->logical_elems(m, n, k) : 0;
            if (le && !*logical && !(*logical = calloc((size_t)m->values.n + 1, sizeof **logical))) {
                free(roles);
                return NULL;
            }
            if (le && !(*logical)[w])
                (*logical)[w] = le;
        }
    }
    for (uint32_t v = 0; v < m->values.n; v++) {
        uint8_t b = roles[v];
        roles[v] = !b || b & (1u << NNAV_WROLE_PARAM) ? NNAV_WROLE_PARAM
                   : b & (1u << NNAV_WROLE_BUFFER)    ? NNAV_WROLE_BUFFER
                                                      : NNAV_WROLE_CONST;
    }
    return roles;
}

uint32_t nnav_read_weight(const nnav_model *m, uint32_t n, uint32_t slot, uint32_t v, int *role,
                          uint64_t *elems)
{
    const nnav_opset_rules *R = nnav_opset_rules_of(m);
    *role = NNAV_WROLE_PARAM;
    *elems = 0;
    if (n >= m->nodes.n || forwarder(m, R, n))
        return NNAV_NONE;
    for (uint32_t k = 0; v < m->values.n && k <= FORWARD_MAX; k++) {
        uint32_t t = nnav_value_weight(m, v);
        if (t != NNAV_NONE) {
            *role = R->input_role(m, n, slot);
            *elems = R->logical_elems ? R->logical_elems(m, n, slot) : 0;
            if (!*elems)
                *elems = m->tensors.v[t].nelems;
            return t;
        }
        /* An Identity of a parameter, a Cast or Reshape of one... */
        v = forwarded_from(m, R, v);
    }
    return NNAV_NONE;
}

/* The node of graph g a consumer belongs to: itself, or the node whose body
 * (at any depth) holds it; NNAV_NONE when outside g. Memoised per graph. */
typedef struct anc_memo {
    uint32_t *node; /* by graph id; NNAV_NONE - 1 = not yet known */
} anc_memo;
#define ANC_UNKNOWN (NNAV_NONE - 1)

static uint32_t graph_owner_in(const nnav_model *m, uint32_t g, uint32_t cg, anc_memo *am, int *oom);

static uint32_t consumer_in(const nnav_model *m, uint32_t g, uint32_t c, anc_memo *am, int *oom)
{
    uint32_t cg = m->nodes.v[c].graph;
    return cg == g ? c : graph_owner_in(m, g, cg, am, oom);
}

/* The node of graph g whose body (at any depth) is graph cg, NNAV_NONE when
 * cg is not below g. Memoised per graph like consumer_in. */
static uint32_t graph_owner_in(const nnav_model *m, uint32_t g, uint32_t cg, anc_memo *am, int *oom)
{
    if (!am->node) {
        am->node = malloc((size_t)m->graphs.n * sizeof *am->node);
        if (!am->node) {
            *oom = 1;
            return NNAV_NONE;
        }
        for (uint32_t i = 0; i < m->graphs.n; i++)
            am->node[i] = ANC_UNKNOWN;
    }
    /* Walk up until a known graph or g's child; then fill the way back. */
    uint32_t x = cg, res = NNAV_NONE;
    for (;;) {
        if (am->node[x] != ANC_UNKNOWN) {
            res = am->node[x];
            break;
        }
        uint32_t p = m->graphs.v[x].parent;
        if (p == g) {
            res = m->graphs.v[x].owner_node;
            break;
        }
        if (p == NNAV_NONE || p >= m->graphs.n) {
            res = NNAV_NONE;
            break;
        }
        x = p;
    }
    for (uint32_t y = cg; am->node[y] == ANC_UNKNOWN;) {
        am->node[y] = res;
        uint32_t p = m->graphs.v[y].parent;
        if (p == g || p == NNAV_NONE || p >= m->graphs.n)
            break;
        y = p;
    }
    return res;
}

/* Whether parameter value v counts (1) and where: the deepest scope holding
 * its consumers other than the Identity nodes that forward it under another
 * name; the root when it has none or is a graph output. 0 when only such
 * Identity nodes read it (their names count instead), -1 out of memory.
 * t may be NULL when the place is not wanted. */
static int param_counts(const nnav_model *m, uint32_t g, const uint32_t *pt, uint32_t v,
                        const nnav_scopes *t, uint32_t *place, anc_memo *am);

/* ---- deriving components ---- */

typedef struct comps {
    nnav_span name[NNAV_SCOPE_DEPTH_MAX];
    nnav_span cls[NNAV_SCOPE_DEPTH_MAX];
    nnav_span root_cls;
    uint32_t n;
} comps;

/* A Python list repr of strings: ['', 'a', "b"]. Up to max items into out;
 * returns the item count, or -1 when it is not one. */
static int parse_pylist(nnav_span s, nnav_span *out, int max)
{
    const uint8_t *p = s.p, *e = s.p + s.n;
    int k = 0;
    while (p < e && (*p == ' ' || *p == '\t'))
        p++;
    if (p == e || *p++ != '[')
        return -1;
    for (;;) {
        while (p < e && (*p == ' ' || *p == ','))
            p++;
        if (p == e)
            return -1;
        if (*p == ']')
            return k;
        if (*p != '\'' && *p != '"')
            return -1;
        uint8_t q = *p++;
        const uint8_t *b = p;
        while (p < e && *p != q)
            p += *p == '\\' && p + 1 < e ? 2 : 1;
        if (p >= e)
            return -1;
        if (k < max)
            out[k] = (nnav_span){b, (uint64_t)(p - b)};
        k++;
        p++;
    }
}

/* The node's name_scopes / class_hierarchy metadata (ONNX NodeProto metadata_props). */
static int node_meta(const nnav_model *m, uint32_t n, nnav_span *scopes, nnav_span *classes)
{
    nnav_wire w;
    nnav_field f;
    nnav_error err;
    int found = 0;
    nnav_wire_init(&w, m->map.base, m->nodes.v[n].msg);
    while (nnav_wire_next(&w, &f, &err) == 1) {
        if (f.num != NNAV_ONNX_NODEPROTO_METADATA_PROPS || f.wt != NNAV_WT_LEN)
            continue;
        nnav_wire e;
        nnav_field g;
        nnav_span key = {0}, val = {0};
        nnav_wire_init(&e, m->map.base, f.s);
        while (nnav_wire_next(&e, &g, &err) == 1) {
            if (g.wt != NNAV_WT_LEN)
                continue;
            if (g.num == NNAV_ONNX_STRINGSTRINGENTRYPROTO_KEY)
                key = g.s;
            else if (g.num == NNAV_ONNX_STRINGSTRINGENTRYPROTO_VALUE)
                val = g.s;
        }
        if (nnav_span_eqs(key, "pkg.torch.onnx.name_scopes"))
            *scopes = val, found = 1;
        else if (nnav_span_eqs(key, "pkg.torch.onnx.class_hierarchy"))
            *classes = val;
    }
    return found;
}

static void node_comps(const nnav_model *m, uint32_t n, int meta, comps *c)
{
    c->n = 0;
    c->root_cls = (nnav_span){0};
    if (meta) {
        nnav_span sc = {0}, cl = {0};
        nnav_span items[NNAV_SCOPE_DEPTH_MAX + 2], citems[NNAV_SCOPE_DEPTH_MAX + 2];
        if (node_meta(m, n, &sc, &cl)) {
            int k = parse_pylist(sc, items, NNAV_SCOPE_DEPTH_MAX + 2);
            int kc = cl.p ? parse_pylist(cl, citems, NNAV_SCOPE_DEPTH_MAX + 2) : -1;
            if (k >= 2) {
                int last = k - 1 < (int)NNAV_SCOPE_DEPTH_MAX + 1 ? k - 1 : (int)NNAV_SCOPE_DEPTH_MAX + 1;
                if (kc >= 1)
                    c->root_cls = citems[0];
                for (int i = 1; i < last; i++) {
                    nnav_span it = items[i], prev = items[i - 1];
                    /* "encoder.layers" under "encoder" is "layers". */
                    if (prev.n && it.n > prev.n + 1 && !memcmp(it.p, prev.p, prev.n) &&
                        it.p[prev.n] == '.')
                        it = (nnav_span){it.p + prev.n + 1, it.n - prev.n - 1};
                    c->name[c->n] = it;
                    c->cls[c->n] = i < kc && i < (int)NNAV_SCOPE_DEPTH_MAX + 2 ? citems[i] : (nnav_span){0};
                    c->n++;
                }
                return;
            }
        }
    }
    nnav_span nm = m->nodes.v[n].name;
    uint64_t end = nm.n;
    while (end > 0 && nm.p[end - 1] != '/')
        end--;
    uint64_t i = 0;
    while (i < end && c->n < NNAV_SCOPE_DEPTH_MAX) {
        uint64_t b = i;
        while (i < end && nm.p[i] != '/')
            i++;
        if (i > b)
            c->name[c->n] = (nnav_span){nm.p + b, i - b}, c->cls[c->n] = (nnav_span){0}, c->n++;
        i++;
    }
}

/* ---- checkpoints ---- */

/* The scope components of a checkpoint key path: every dotted component but
 * the last (the tensor's own name), empty ones skipped, at most
 * NNAV_SCOPE_DEPTH_MAX; *last gets the last component. */
static void comps_upto(const nnav_model *m, nnav_span nm, uint64_t end, comps *c);

/* A key path's last component: the tensor's own name. */
static nnav_span last_comp(nnav_span nm)
{
    uint64_t end = nm.n;
    while (end > 0 && nm.p[end - 1] != '.')
        end--;
    return (nnav_span){nm.p + end, nm.n - end};
}

static void key_comps(const nnav_model *m, nnav_span nm, comps *c, nnav_span *last)
{
    *last = last_comp(nm);
    comps_upto(m, nm, nm.n - last->n, c);
}

/* The scope components of a module's key path: all of them. */
static void path_comps(const nnav_model *m, nnav_span path, comps *c)
{
    comps_upto(m, path, path.n, c);
}

/* The components of nm's first end bytes, with their classes. */
static void comps_upto(const nnav_model *m, nnav_span nm, uint64_t end, comps *c)
{
    c->n = 0;
    c->root_cls = nnav_module_class(m, (nnav_span){nm.p, 0});
    uint64_t i = 0;
    while (i < end && c->n < NNAV_SCOPE_DEPTH_MAX) {
        uint64_t b = i;
        while (i < end && nm.p[i] != '.')
            i++;
        /* Its class where the file says (a module saved whole, TorchScript). */
        if (i > b)
            c->name[c->n] = (nnav_span){nm.p + b, i - b},
            c->cls[c->n] = nnav_module_class(m, (nnav_span){nm.p, i}), c->n++;
        i++;
    }
}

/* A tensor torch keeps as a module buffer, not a parameter: as the file
 * says (a module pickled whole), else by its own name. */
static int is_buffer(const nnav_tensor *t, nnav_span last)
{
    if (t->role != NNAV_TROLE_UNSAID)
        return t->role == NNAV_TROLE_BUFFER;
    return nnav_span_eqs(last, "running_mean") || nnav_span_eqs(last, "running_var") ||
           nnav_span_eqs(last, "num_batches_tracked");
}

/* A checkpoint's tensor that is no parameter, as in the summary's table
 * (scope.h): a module's buffer, a TorchScript constant. */
static int checkpoint_nonparam(const nnav_model *m, const nnav_tensor *t)
{
    if (!nnav_model_facts_get(m)->tensor_store)
        return 0;
    return t->role == NNAV_TROLE_CONSTANT || is_buffer(t, last_comp(t->name)) ||
           nnav_tensor_alias(m, (uint32_t)(t - m->tensors.v)) != NNAV_NONE;
}

/* ---- the build ---- */

/* A scope as first met: a quarter of nnav_scope, so the peak while both
 * exist stays near one full table. */
typedef struct cscope {
    nnav_span name, cls;
    uint32_t parent, depth;
} cscope;

static uint64_t key_hash(uint32_t parent, nnav_span name)
{
    return nnav_hash_bytes(name.p, name.n, (uint64_t)parent + 1);
}

/* A scope looked up by its parent and name among the scopes made so far
 * (ids into sc, the creation order). */
typedef struct scope_key {
    const cscope *sc;
    uint32_t parent;
    nnav_span name;
} scope_key;

static int scope_same(const void *ctx, uint32_t id)
{
    const scope_key *k = ctx;
    return k->sc[id].parent == k->parent && nnav_span_same(k->sc[id].name, k->name);
}

static uint64_t scope_rehash(const void *ctx, uint32_t id)
{
    const cscope *sc = ctx;
    return key_hash(sc[id].parent, sc[id].name);
}

typedef struct tok {
    uint32_t tag;
    uint64_t k;
    const uint8_t *p;
    uint64_t n;
} tok;

typedef struct tokbuf {
    tok *v;
    size_t n, cap;
    int oom;
} tokbuf;

typedef struct gen {
    nnav_scopes *t;
    uint32_t *vstamp, *vidx; /* by value: which stream met it, its outside index */
    uint32_t stamp;
    uint64_t h;
    tokbuf *out;
    int untyped; /* leave the tensors' element and storage types out */
} gen;

static void emit(gen *G, uint32_t tag, uint64_t k, const uint8_t *p, uint64_t n)
{
    G->h = mix(mix(G->h, tag), k);
    if (p)
        G->h = mix(G->h, nnav_hash_bytes(p, n, k));
    if (!G->out)
        return;
    tokbuf *b = G->out;
    if (b->n == b->cap) {
        size_t nc = b->cap ? 2 * b->cap : 256;
        tok *nv = realloc(b->v, nc * sizeof *nv);
        if (!nv) {
            b->oom = 1;
            return;
        }
        b->v = nv, b->cap = nc;
    }
    b->v[b->n++] = (tok){tag, k, p, n};
}
#define EMIT(G, tag, val) emit((G), (tag), (uint64_t)(val), NULL, 0)
#define EMITS(G, tag, sp) emit((G), (tag), 0, (sp).p, (sp).n)

static void gen_dims(gen *G, const nnav_fact *f)
{
    const nnav_shapes *s = G->t->s;
    if (!G->untyped)
        EMIT(G, 17, (uint32_t)f->dtype);
    EMIT(G, 18, (uint32_t)f->rank);
    EMIT(G, 24, f->not_tensor);
    if (f->rank < 0)
        return;
    const nnav_dim *d = nnav_shapes_dims(s, f->dims);
    for (int32_t i = 0; i < f->rank; i++) {
        if (nnav_dim_is_num(d[i])) {
            EMIT(G, 19, (uint64_t)nnav_dim_val(d[i]));
        } else if (nnav_dim_is_sym(d[i])) {
            char buf[128];
            size_t len = nnav_dim_format(s, d[i], buf, sizeof buf);
            if (len > sizeof buf - 1)
                len = sizeof buf - 1;
            EMIT(G, 20, nnav_hash_bytes((const uint8_t *)buf, len, 20));
        } else {
            EMIT(G, 21, 0);
        }
    }
}

/* The canonical stream of scope S's subtree (see scope.h). */
static void gen_scope(gen *G, uint32_t S)
{
    nnav_scopes *t = G->t;
    const nnav_model *m = t->m;
    const nnav_graph *gr = &m->graphs.v[t->graph];
    uint32_t start = t->sc[S].node_first, end = start + t->sc[S].nodes_total;
    uint32_t next_ext = 0;
    G->stamp++;
    G->h = 0x6a09e667f3bcc908ull;
    /* A checkpoint's modules: each scope of S's subtree and its class, so a
     * ReLU and a MaxPool, both without tensors, are not alike. */
    for (uint32_t k = 0; t->cv_total && k < t->sc[S].subtree; k++) {
        EMIT(G, 28, k);
        EMITS(G, 29, t->sc[S + k].cls);
    }
    /* A checkpoint's tensors: where below S, own name, type and dims. */
    for (uint32_t k = 0; t->cv_total && k < t->cv_total[S]; k++) {
        uint32_t at = t->cv_first[S] + k, v = t->cv[at], tn = m->values.v[v].producer;
        nnav_span last = last_comp(m->values.v[v].name);
        EMIT(G, 26, t->cv_scope[at] - S);
        EMITS(G, 27, last);
        if (tn >= m->tensors.n)
            continue;
        const nnav_tensor *tt = &m->tensors.v[tn];
        if (!G->untyped)
            EMIT(G, 10, (uint32_t)tt->dtype);
        if (tt->stype && !G->untyped)
            EMITS(G, 30, ((nnav_span){(const uint8_t *)tt->stype, strlen(tt->stype)}));
        EMIT(G, 11, tt->ndims);
        for (uint32_t j = 0; j < tt->ndims; j++)
            EMIT(G, 12, (uint64_t)m->dims.v[tt->dims_first + j]);
    }
    for (uint32_t idx = start; idx < end; idx++) {
        uint32_t n = t->nodes[idx];
        const nnav_node *nd = &m->nodes.v[n];
        EMITS(G, 1, nd->op);
        EMITS(G, 2, nnav_node_domain(m, n));
        EMIT(G, 3, t->node_scope[n - gr->node_first] - S);
        EMIT(G, 22, ((uint64_t)nd->in_count << 24) ^ nd->out_count);
        EMIT(G, 23, nd->attr_count);
        for (uint32_t k = 0; k < nd->attr_count; k++) {
            const nnav_attr *a = &m->attrs.v[nd->attr_first + k];
            EMITS(G, 4, a->name);
            EMIT(G, 25, a->type);
            if (a->graph_count) {
                EMIT(G, 5, a->graph_count);
                for (uint32_t j = 0; j < a->graph_count && a->graph_first + j < m->graphs.n; j++)
                    EMIT(G, 5, m->graphs.v[a->graph_first + j].node_count);
            } else if (a->tensor_count == 1 && a->tensor_first < m->tensors.n &&
                       m->tensors.v[a->tensor_first].nelems > NNAV_FOLD_MAX) {
                const nnav_tensor *tt = &m->tensors.v[a->tensor_first];
                EMIT(G, 6, (uint32_t)tt->dtype);
                for (uint32_t j = 0; j < tt->ndims; j++)
                    EMIT(G, 12, (uint64_t)m->dims.v[tt->dims_first + j]);
            } else {
                EMITS(G, 7, a->msg);
            }
        }
        for (uint32_t k = 0; k < nd->in_count; k++) {
            uint32_t r = nd->in_first + k;
            uint32_t v = m->refs.v[r].value;
            EMIT(G, 9, nnav_ref_control(m, r));
            if (v == NNAV_NONE) {
                EMIT(G, 8, 0);
                continue;
            }
            const nnav_value *val = &m->values.v[v];
            uint32_t pt = t->ptensor[v];
            if (pt != NNAV_NONE) {
                const nnav_tensor *tt = &m->tensors.v[pt];
                if (!G->untyped)
                    EMIT(G, 10, (uint32_t)tt->dtype);
                EMIT(G, 11, tt->ndims);
                for (uint32_t j = 0; j < tt->ndims; j++)
                    EMIT(G, 12, (uint64_t)m->dims.v[tt->dims_first + j]);
            } else if (val->kind == NNAV_VAL_NODE && val->graph == t->graph &&
                       val->producer >= gr->node_first &&
                       val->producer - gr->node_first < gr->node_count &&
                       t->memb[val->producer - gr->node_first] >= start &&
                       t->memb[val->producer - gr->node_first] < end) {
                EMIT(G, 13, t->memb[val->producer - gr->node_first] - start);
                EMIT(G, 14, t->slot[v]);
            } else {
                if (G->vstamp[v] != G->stamp)
                    G->vstamp[v] = G->stamp, G->vidx[v] = next_ext++;
                EMIT(G, 15, G->vidx[v]);
            }
        }
        for (uint32_t k = 0; k < nd->out_count; k++) {
            uint32_t v = m->refs.v[nd->out_first + k].value;
            EMIT(G, 16, v == NNAV_NONE);
            if (v != NNAV_NONE && t->s) {
                const nnav_fact *f = nnav_shapes_fact(t->s, v);
                if (f)
                    gen_dims(G, f);
            }
        }
    }
}

static int tok_same(const tokbuf *a, const tokbuf *b)
{
    if (a->n != b->n)
        return 0;
    for (size_t i = 0; i < a->n; i++) {
        const tok *x = &a->v[i], *y = &b->v[i];
        if (x->tag != y->tag || x->k != y->k || x->n != y->n || (x->n && memcmp(x->p, y->p, x->n)))
            return 0;
    }
    return 1;
}

typedef struct hid {
    uint64_t h;
    uint32_t id;
} hid;

static int hid_cmp(const void *a, const void *b)
{
    const hid *x = a, *y = b;
    if (x->h != y->h)
        return x->h < y->h ? -1 : 1;
    return (x->id > y->id) - (x->id < y->id);
}

/* Whether some of P's children are not one group of identical scopes. */
static int kids_differ(const nnav_scopes *t, uint32_t P)
{
    uint32_t c = P + 1;
    return c < P + t->sc[P].subtree && t->sc[c].repeats != t->sc[P].child_count;
}

/* Group identical siblings: hash every scope that has a sibling, then
 * compare equal hashes exactly. Untyped: the same with the tensors' types
 * left out, among siblings not all identical, into shape_as. */
static int group_identical(nnav_scopes *t, int untyped)
{
    const nnav_model *m = t->m;
    gen G = {0};
    G.t = t;
    G.untyped = untyped;
    G.vstamp = calloc((size_t)m->values.n + 1, sizeof *G.vstamp);
    G.vidx = malloc(((size_t)m->values.n + 1) * sizeof *G.vidx);
    hid *kids = malloc(((size_t)t->n + 1) * sizeof *kids);
    uint64_t *uh = untyped ? calloc((size_t)t->n + 1, sizeof *uh) : NULL;
    tokbuf A = {0}, B = {0};
    int rc = -1;
    if (!G.vstamp || !G.vidx || !kids || (untyped && !uh))
        goto out;
    for (uint32_t i = 0; i < t->n; i++) {
        const nnav_scope *p = i ? &t->sc[t->sc[i].parent] : NULL;
        if (!p || p->child_count < 2 || (untyped && !kids_differ(t, t->sc[i].parent)))
            continue;
        G.out = NULL;
        gen_scope(&G, i);
        if (untyped)
            uh[i] = G.h ? G.h : 1;
        else
            t->sc[i].hash = G.h ? G.h : 1;
    }
    for (uint32_t P = 0; P < t->n; P++) {
        if (t->sc[P].child_count < 2 || (untyped && !kids_differ(t, P)))
            continue;
        size_t nk = 0;
        for (uint32_t c = P + 1; c < P + t->sc[P].subtree; c += t->sc[c].subtree)
            kids[nk++] = (hid){untyped ? uh[c] : t->sc[c].hash, c};
        qsort(kids, nk, sizeof *kids, hid_cmp);
        for (size_t a = 0; a < nk;) {
            size_t b = a + 1;
            while (b < nk && kids[b].h == kids[a].h)
                b++;
            /* Up to 8 distinct shapes per hash run; later ones stay alone. */
            uint32_t reps[8], nrep = 0, a_of = NNAV_NONE;
            for (size_t k = a; k < b; k++) {
                uint32_t c = kids[k].id, hit = NNAV_NONE;
                if (b - a > 1) {
                    B.n = 0, G.out = &B;
                    gen_scope(&G, c);
                    for (uint32_t r = 0; r < nrep && hit == NNAV_NONE; r++) {
                        if (a_of != reps[r]) {
                            A.n = 0, G.out = &A;
                            gen_scope(&G, reps[r]);
                            a_of = reps[r];
                        }
                        if (A.oom || B.oom)
                            goto out;
                        if (tok_same(&A, &B))
                            hit = reps[r];
                    }
                }
                if (hit != NNAV_NONE && untyped) {
                    if (t->sc[c].same_as == NNAV_NONE)
                        t->sc[c].shape_as = hit;
                } else if (hit != NNAV_NONE) {
                    t->sc[c].same_as = hit;
                    t->sc[hit].repeats++;
                } else if (nrep < 8) {
                    reps[nrep++] = c;
                }
            }
            a = b;
        }
    }
    rc = 0;
out:
    free(G.vstamp), free(G.vidx), free(kids), free(A.v), free(B.v), free(uh);
    return rc;
}

/* The deepest scope holding both (NNAV_NONE stands for outside the root). */
static uint32_t lca(const nnav_scope *sc, uint32_t a, uint32_t b)
{
    if (a == NNAV_NONE || b == NNAV_NONE)
        return NNAV_NONE;
    while (sc[a].depth > sc[b].depth)
        a = sc[a].parent;
    while (sc[b].depth > sc[a].depth)
        b = sc[b].parent;
    while (a != b)
        a = sc[a].parent, b = sc[b].parent;
    return a;
}

typedef struct pair {
    uint32_t scope, value;
} pair;
typedef NNAV_VEC(pair) pairvec;

static int push_pair(pairvec *pv, uint32_t s, uint32_t v)
{
    pair *p = nnav_vec_push(*pv);
    if (!p)
        return -1;
    p->scope = s, p->value = v;
    return 0;
}

/* The readers of value x in graph g, for param_counts: each real reader's
 * scope joins *place (real counts them); a forwarder of x whose output holds
 * no counted name (a Cast, a Reshape, an Identity of a Cast) is looked through to its
 * output's readers, at most FORWARD_MAX deep, so the weight is booked where
 * it is used. An Identity naming a parameter anew counts in *fwd. -1 out of
 * memory. */
static int place_readers(const nnav_model *m, uint32_t g, const uint32_t *pt, uint32_t v,
                         uint32_t x, const nnav_scopes *t, uint32_t *place, uint32_t *real,
                         uint32_t *fwd, anc_memo *am, uint32_t depth)
{
    const nnav_opset_rules *R = nnav_opset_rules_of(m);
    uint32_t nc, first = m->graphs.v[g].node_first;
    int oom = 0;
    const uint32_t *cons = nnav_value_consumers(m, x, &nc);
    for (uint32_t k = 0; k < nc; k++) {
        uint32_t cn = consumer_in(m, g, cons[k], am, &oom);
        if (oom)
            return -1;
        if (cn == NNAV_NONE)
            continue;
        const nnav_node *nd = &m->nodes.v[cn];
        if (cn == cons[k] && forwarder(m, R, cn) && m->refs.v[nd->in_first].value == x) {
            uint32_t out = m->refs.v[nd->out_first].value;
            if (out != NNAV_NONE && out < m->values.n && pt[out] == pt[v] && x == v &&
                identity_node(m, R, cn)) {
                (*fwd)++;
                continue;
            }
            uint32_t oc = 0;
            if (out != NNAV_NONE && out < m->values.n && pt[out] == NNAV_NONE &&
                depth < FORWARD_MAX && !m->values.v[out].is_output) {
                (void)nnav_value_consumers(m, out, &oc);
                if (oc) {
                    if (place_readers(m, g, pt, v, out, t, place, real, fwd, am, depth + 1) < 0)
                        return -1;
                    continue;
                }
            }
        }
        if (t) {
            uint32_t cs = t->node_scope[cn - first];
            *place = *real ? lca(t->sc, *place, cs) : cs;
        }
        (*real)++;
    }
    return 0;
}

static int param_counts(const nnav_model *m, uint32_t g, const uint32_t *pt, uint32_t v,
                        const nnav_scopes *t, uint32_t *place, anc_memo *am)
{
    const nnav_value *val = &m->values.v[v];
    uint32_t real = 0, fwd = 0;
    *place = 0;
    if (place_readers(m, g, pt, v, v, t, place, &real, &fwd, am, 0) < 0)
        return -1;
    if (!real && fwd && !val->is_output)
        return 0;
    if (!real || val->is_output)
        *place = 0;
    return 1;
}

static int counts_alone(const nnav_model *m, const uint32_t *pt, uint32_t v);

static uint64_t sat_add(uint64_t a, uint64_t b)
{
    return b > UINT64_MAX - a ? UINT64_MAX : a + b;
}

/* The bytes a weight tensor stores: dims x type, else what the file holds. */
static uint64_t tbytes(const nnav_tensor *tt)
{
    return tt->nbytes != UINT64_MAX ? tt->nbytes : tt->stored;
}

/* The bytes value v adds where it is booked: its tensor's when v holds
 * the tensor itself (an initializer, a Constant's output), none for
 * another name of it (an Identity's output: the bytes are the tensor's
 * once). */
static uint64_t vbytes(const nnav_model *m, const uint32_t *pt, uint32_t v)
{
    return nnav_value_weight(m, v) == pt[v] ? tbytes(&m->tensors.v[pt[v]]) : 0;
}

/* A counted weight of `role` and n elements, into the scope that holds it:
 * a parameter or a buffer; a constant is neither. */
static void book(nnav_scope *x, uint8_t role, uint64_t n, uint64_t bytes)
{
    x->bytes = sat_add(x->bytes, bytes);
    if (bytes && role != NNAV_WROLE_CONST)
        x->stored = sat_add(x->stored, n);
    if (role == NNAV_WROLE_PARAM)
        x->params = sat_add(x->params, n), x->param_names++;
    else if (role == NNAV_WROLE_BUFFER)
        x->buffers = sat_add(x->buffers, n);
}

/* Weights defined below the tree's graph g: in its bodies at any depth
 * (they count in the scope of the node holding the body), and in the local
 * functions called from g's tree (in the deepest scope holding every such
 * call; at the main graph's root for a function only other functions
 * call). Each counts once, by the whole model's rule, so the main graph's
 * root says what nnav_model_params says. Linear in the model; nothing to
 * do for a model of one graph. -1 out of memory. */
static int body_params(const nnav_model *m, nnav_scopes *t, anc_memo *am)
{
    uint32_t g = t->graph, ng = m->graphs.n, nf = nnav_function_count(m);
    if (ng < 2)
        return 0;
    uint32_t first = m->graphs.v[g].node_first;
    uint32_t *gplace = malloc((size_t)ng * sizeof *gplace);
    uint32_t *fplace = malloc(((size_t)nf + 1) * sizeof *fplace);
    uint32_t *pt = NULL;
    uint8_t *roles = NULL;
    uint64_t *logical = NULL;
    int oom = 0, rc = -1;
    if (!gplace || !fplace)
        goto out;
    for (uint32_t f = 0; f < nf; f++)
        fplace[f] = NNAV_NONE;
    for (uint32_t n = 0; n < m->nodes.n; n++) {
        uint32_t f = m->nodes.v[n].function;
        if (f >= nf)
            continue;
        uint32_t c = consumer_in(m, g, n, am, &oom);
        if (oom)
            goto out;
        if (c == NNAV_NONE)
            continue;
        uint32_t cs = t->node_scope[c - first];
        fplace[f] = fplace[f] == NNAV_NONE ? cs : lca(t->sc, fplace[f], cs);
    }
    for (uint32_t x = 0; x < ng; x++) {
        gplace[x] = NNAV_NONE;
        if (x == g)
            continue;
        uint32_t o = graph_owner_in(m, g, x, am, &oom);
        if (oom)
            goto out;
        if (o != NNAV_NONE) {
            gplace[x] = t->node_scope[o - first];
            continue;
        }
        uint32_t r = x, steps = 0;
        while (m->graphs.v[r].parent < ng && steps++ < ng)
            r = m->graphs.v[r].parent;
        uint32_t f = m->graphs.v[r].function;
        if (m->graphs.v[r].kind == NNAV_GRAPH_FUNCTION && f < nf)
            gplace[x] = fplace[f] != NNAV_NONE ? fplace[f] : g == 0 ? 0 : NNAV_NONE;
    }
    if (!(pt = param_tensors(m, NNAV_NONE)) || !(roles = param_roles(m, pt, &logical)))
        goto out;
    for (uint32_t v = 0; v < m->values.n; v++) {
        const nnav_value *val = &m->values.v[v];
        if (pt[v] == NNAV_NONE || val->graph >= ng || val->graph == g)
            continue;
        uint32_t place = gplace[val->graph];
        if (place == NNAV_NONE || !counts_alone(m, pt, v))
            continue;
        book(&t->sc[place], roles[v], welems(m, pt, logical, v), vbytes(m, pt, v));
    }
    rc = 0;
out:
    free(logical), free(roles), free(pt), free(fplace), free(gplace);
    return rc;
}

/* A checkpoint's value v of the graph that is a module's tensor: an
 * initializer, but a TorchScript constant (no module holds it). */
static int module_tensor(const nnav_model *m, uint32_t graph, uint32_t v)
{
    const nnav_value *val = &m->values.v[v];
    return val->graph == graph && val->kind == NNAV_VAL_INITIALIZER &&
           !(val->producer < m->tensors.n && m->tensors.v[val->producer].role == NNAV_TROLE_CONSTANT);
}

nnav_scopes *nnav_scopes_build(const nnav_model *m, uint32_t graph, const nnav_shapes *s)
{
    if (graph >= m->graphs.n)
        return NULL;
    const nnav_graph *gr = &m->graphs.v[graph];
    uint32_t nn = gr->node_count, first = gr->node_first;
    nnav_scopes *t = calloc(1, sizeof *t);
    NNAV_VEC(cscope) cr = {0}; /* scopes in creation order */
    nnav_hashtab h = {0}; /* ids into cr, but the root's */
    uint32_t *cnode = NULL, *ckv = NULL, *order = NULL, *newid = NULL, *cstart = NULL, *stack = NULL;
    uint32_t *stamp_in = NULL, *stamp_out = NULL;
    uint8_t *outer = NULL;
    uint64_t *dup = NULL; /* a checkpoint's tied weights: per scope, what it counts twice */
    uint8_t *roles = NULL; /* by value: what its weight is (param_roles) */
    uint64_t *logical = NULL; /* by value: a reader's logical count, or NULL */
    pairvec ins = {0}, outs = {0};
    anc_memo am = {0};
    int oom = 0;
    if (!t)
        return NULL;
    t->m = m, t->s = s, t->graph = graph;
    t->nodes = malloc(((size_t)nn + 1) * sizeof *t->nodes);
    t->node_scope = malloc(((size_t)nn + 1) * sizeof *t->node_scope);
    t->memb = malloc(((size_t)nn + 1) * sizeof *t->memb);
    t->slot = malloc(((size_t)m->values.n + 1) * sizeof *t->slot);
    cnode = malloc(((size_t)nn + 1) * sizeof *cnode);
    if (!t->nodes || !t->node_scope || !t->memb || !t->slot || !cnode || !nnav_vec_push(cr))
        goto oom;
    cr.v[0].parent = NNAV_NONE;

    /* A checkpoint (a graph of initializers and no nodes): its tensors'
     * key paths make the scopes, after the (absent) nodes. */
    uint32_t nck = 0;
    if (nn == 0 && nnav_model_facts_get(m)->tensor_store) {
        for (uint32_t v = 0; v < m->values.n; v++)
            nck += module_tensor(m, graph, v);
        t->cv = malloc(((size_t)nck + 1) * sizeof *t->cv);
        t->cv_scope = malloc(((size_t)nck + 1) * sizeof *t->cv_scope);
        ckv = malloc(((size_t)nck + 1) * sizeof *ckv);
        if (!t->cv || !t->cv_scope || !ckv)
            goto oom;
        nck = 0;
        for (uint32_t v = 0; v < m->values.n; v++)
            if (module_tensor(m, graph, v))
                ckv[nck++] = v;
    }

    /* A checkpoint's modules where the file names them (a module saved
     * whole, TorchScript): every one a scope in the file's order, tensors or
     * none (a ReLU), before the tensors' key paths. */
    uint32_t nmod = 0;
    nnav_span mcls;
    while (nck && nmod < (1u << 22) && nnav_module_at(m, nmod, &mcls).p)
        nmod++;

    /* 1. Scopes in the order their first node (module, tensor) appears. */
    int meta = nnav_opset_rules_of(m)->node_scope_meta;
    comps c;
    for (uint32_t i = 0; i < nn + nmod + nck; i++) {
        nnav_span last;
        if (i < nn)
            node_comps(m, first + i, meta, &c);
        else if (i < nn + nmod)
            path_comps(m, nnav_module_at(m, i - nn, &mcls), &c);
        else
            key_comps(m, m->values.v[ckv[i - nn - nmod]].name, &c, &last);
        uint32_t cur = 0;
        if (c.root_cls.n && !cr.v[0].cls.n)
            cr.v[0].cls = c.root_cls;
        for (uint32_t k = 0; k < c.n; k++) {
            scope_key key = {cr.v, cur, c.name[k]};
            uint64_t hk = key_hash(cur, c.name[k]), at = 0;
            uint32_t found = nnav_hashtab_find(&h, hk, scope_same, &key, &at);
            if (found == NNAV_HASHTAB_NONE) {
                cscope *ns = nnav_vec_push(cr);
                if (!ns)
                    goto oom;
                ns->name = c.name[k];
                ns->cls = c.cls[k];
                ns->parent = cur;
                ns->depth = k + 1;
                found = cr.n - 1;
                if (nnav_hashtab_put(&h, at, hk, found, scope_rehash, cr.v) != 0)
                    goto oom;
            } else if (!cr.v[found].cls.n && c.cls[k].n) {
                cr.v[found].cls = c.cls[k];
            }
            cur = found;
        }
        if (i < nn)
            cnode[i] = cur;
        else if (i >= nn + nmod)
            t->cv_scope[i - nn - nmod] = cur; /* a creation id until step 3 */
    }
    nnav_hashtab_free(&h);

    /* 2. Preorder ids: children of each scope in creation order. */
    uint32_t ns = cr.n;
    cstart = calloc((size_t)ns + 2, sizeof *cstart);
    order = malloc(((size_t)ns + 1) * sizeof *order);
    newid = malloc(((size_t)ns + 1) * sizeof *newid);
    stack = malloc(((size_t)ns + 1) * sizeof *stack);
    t->sc = calloc((size_t)ns + 1, sizeof *t->sc);
    if (!cstart || !order || !newid || !stack || !t->sc)
        goto oom;
    for (uint32_t i = 1; i < ns; i++)
        cstart[cr.v[i].parent + 2]++;
    for (uint32_t i = 0; i < ns; i++)
        cstart[i + 2] += cstart[i + 1];
    for (uint32_t i = 1; i < ns; i++)
        order[cstart[cr.v[i].parent + 1]++] = i;
    /* now children of p are order[cstart[p] .. cstart[p+1]) */
    uint32_t sp = 0, next = 0;
    stack[sp++] = 0;
    while (sp) {
        uint32_t x = stack[--sp];
        newid[x] = next++;
        for (uint32_t j = cstart[x + 1]; j > cstart[x]; j--)
            stack[sp++] = order[j - 1];
    }
    t->n = ns;
    for (uint32_t i = 0; i < ns; i++) {
        nnav_scope *d = &t->sc[newid[i]];
        d->name = cr.v[i].name;
        d->cls = cr.v[i].cls;
        d->depth = cr.v[i].depth;
        d->parent = i ? newid[cr.v[i].parent] : NNAV_NONE;
        d->subtree = 1;
        d->same_as = NNAV_NONE;
        d->shape_as = NNAV_NONE;
        d->repeats = 1;
        d->child_count = cstart[i + 1] - cstart[i];
    }
    nnav_vec_free(cr);
    for (uint32_t i = ns; i-- > 1;)
        t->sc[t->sc[i].parent].subtree += t->sc[i].subtree;

    /* 3. Nodes by scope, cost. */
    for (uint32_t i = 0; i < nn; i++)
        t->node_scope[i] = newid[cnode[i]], t->sc[t->node_scope[i]].node_count++;
    uint32_t acc = 0;
    for (uint32_t i = 0; i < ns; i++)
        t->sc[i].node_first = acc, acc += t->sc[i].node_count, t->sc[i].nodes_total = 0;
    /* A checkpoint's tensors by scope, like nodes: own first, then each child's. */
    if (nck) {
        if (!(t->cv_first = calloc((size_t)ns + 1, sizeof *t->cv_first)) ||
            !(t->cv_total = calloc((size_t)ns + 1, sizeof *t->cv_total)))
            goto oom;
        for (uint32_t k = 0; k < nck; k++)
            t->cv_scope[k] = newid[t->cv_scope[k]], t->cv_first[t->cv_scope[k]]++;
        uint32_t at = 0;
        for (uint32_t i = 0; i < ns; i++) {
            uint32_t own = t->cv_first[i];
            t->cv_first[i] = at, at += own;
        }
        for (uint32_t k = 0; k < nck; k++) {
            uint32_t x = t->cv_scope[k];
            t->cv[t->cv_first[x] + t->cv_total[x]++] = ckv[k];
        }
        for (uint32_t k = 0; k < nck; k++)
            t->cv_scope[k] = NNAV_NONE;
        for (uint32_t i = 0; i < ns; i++)
            for (uint32_t k = t->cv_first[i]; k < t->cv_first[i] + t->cv_total[i]; k++)
                t->cv_scope[k] = i;
        for (uint32_t i = ns; i-- > 1;)
            t->cv_total[t->sc[i].parent] += t->cv_total[i];
    }
    /* A node's cost with what its bodies run (shape.h's whole cost). */
    nnav_wcost *wc = s ? nnav_wcost_new(s) : NULL;
    for (uint32_t i = 0; i < nn; i++) {
        nnav_scope *x = &t->sc[t->node_scope[i]];
        t->memb[i] = x->node_first + x->nodes_total++;
        t->nodes[t->memb[i]] = first + i;
        if (s) {
            const nnav_cost *co = nnav_shapes_node_cost(s, first + i);
            nnav_whole b;
            x->macs += co->macs;
            x->flops += co->flops;
            if (wc && nnav_wcost_node(wc, first + i, &b, NULL, 0) && !b.overflow)
                x->macs += b.macs, x->flops += b.flops;
        }
    }
    nnav_wcost_free(wc);

    /* 4. Parameters. */
    for (uint32_t v = 0; v < m->values.n; v++)
        t->slot[v] = 0;
    for (uint32_t i = 0; i < nn; i++) {
        const nnav_node *nd = &m->nodes.v[first + i];
        for (uint32_t k = 0; k < nd->out_count; k++)
            if (m->refs.v[nd->out_first + k].value != NNAV_NONE)
                t->slot[m->refs.v[nd->out_first + k].value] = k;
    }
    if (!(t->ptensor = param_tensors(m, graph)) || !(roles = param_roles(m, t->ptensor, &logical)))
        goto oom;
    /* A checkpoint's tensor counts in the scope its key path names, but a
     * buffer (scope.h). A tied weight (one tensor under two key paths)
     * counts in each scope that holds either name, once: dup[] at the
     * lowest scope holding both takes it back out after the sums. */
    uint32_t *tscope = NULL;
    for (uint32_t k = 0; k < nck && !tscope; k++) {
        uint32_t pt = t->ptensor[t->cv[k]];
        if (pt != NNAV_NONE && nnav_tensor_alias(m, pt) != NNAV_NONE &&
            (!(tscope = malloc(((size_t)m->tensors.n + 1) * sizeof *tscope)) ||
             !(dup = calloc((size_t)ns + 1, sizeof *dup)))) {
            free(tscope);
            goto oom;
        }
    }
    for (uint32_t k = 0; tscope && k < nck; k++)
        if (t->ptensor[t->cv[k]] != NNAV_NONE)
            tscope[t->ptensor[t->cv[k]]] = t->cv_scope[k];
    for (uint32_t k = 0; k < nck; k++) {
        uint32_t v = t->cv[k], pt = t->ptensor[v], tn = m->values.v[v].producer;
        nnav_tquant q;
        /* Its bytes where it counts: a parameter, a buffer, a packed
         * weight or its data (not a tied name's, nor a shape's or index's). */
        int own = tn < m->tensors.n && nnav_tensor_alias(m, tn) == NNAV_NONE &&
                  m->tensors.v[tn].role != NNAV_TROLE_CONSTANT;
        int packed = own && nnav_tensor_quant(m, tn, &q) == 0 && q.kind != NNAV_Q_PLAIN;
        nnav_scope *xs = &t->sc[t->cv_scope[k]];
        if (own && (packed || pt != NNAV_NONE)) {
            xs->bytes = sat_add(xs->bytes, tbytes(&m->tensors.v[tn]));
            if (!packed || q.kind == NNAV_Q_PACKED)
                xs->stored = sat_add(xs->stored, packed ? q.logical : m->tensors.v[tn].nelems);
        }
        if (packed) {
            /* A packed weight counts what it packs; its scales, zeros and
             * g_idx are its data, no parameters (quant.h). */
            if (q.kind == NNAV_Q_PACKED) {
                t->sc[t->cv_scope[k]].params = sat_add(t->sc[t->cv_scope[k]].params, q.logical);
                t->sc[t->cv_scope[k]].param_names++;
            }
            continue;
        }
        if (pt == NNAV_NONE)
            continue;
        nnav_span last = last_comp(m->values.v[v].name);
        if (m->tensors.v[pt].role == NNAV_TROLE_CONSTANT)
            continue; /* a TorchScript constant: no module's */
        if (is_buffer(&m->tensors.v[pt], last)) {
            if (nnav_tensor_alias(m, pt) == NNAV_NONE) {
                t->buffers = sat_add(t->buffers, m->tensors.v[pt].nelems);
                t->sc[t->cv_scope[k]].buffers =
                    sat_add(t->sc[t->cv_scope[k]].buffers, m->tensors.v[pt].nelems);
            }
            continue;
        }
        uint32_t sc = t->cv_scope[k], orig = nnav_tensor_alias(m, pt);
        nnav_scope *x = &t->sc[sc];
        x->params = sat_add(x->params, m->tensors.v[pt].nelems);
        x->param_names++;
        if (orig != NNAV_NONE && tscope && orig < m->tensors.n) {
            /* Up from this name's scope to the first that holds the other. */
            uint32_t a = tscope[orig], up = sc;
            while (up != 0 && !(a >= up && a < up + t->sc[up].subtree))
                up = t->sc[up].parent;
            dup[up] = sat_add(dup[up], m->tensors.v[pt].nelems);
        }
    }
    free(tscope);
    for (uint32_t v = 0; v < m->values.n; v++) {
        uint32_t pt = t->ptensor[v];
        const nnav_value *val = &m->values.v[v];
        if (pt == NNAV_NONE || val->graph != graph || nck)
            continue;
        uint32_t place;
        int k = param_counts(m, graph, t->ptensor, v, t, &place, &am);
        if (k < 0)
            goto oom;
        if (!k) { /* only its other names count: its bytes at the root */
            uint64_t vb = vbytes(m, t->ptensor, v);
            t->sc[0].bytes = sat_add(t->sc[0].bytes, vb);
            if (vb && roles[v] != NNAV_WROLE_CONST)
                t->sc[0].stored = sat_add(t->sc[0].stored, welems(m, t->ptensor, logical, v));
            continue;
        }
        book(&t->sc[place], roles[v], welems(m, t->ptensor, logical, v), vbytes(m, t->ptensor, v));
    }
    if (body_params(m, t, &am) < 0)
        goto oom;
    for (uint32_t i = ns; i-- > 1;) {
        nnav_scope *x = &t->sc[i], *p = &t->sc[x->parent];
        p->nodes_total += x->nodes_total;
        p->macs += x->macs;
        p->flops += x->flops;
        p->params = sat_add(p->params, x->params);
        p->param_names += x->param_names;
        p->buffers = sat_add(p->buffers, x->buffers);
        p->bytes = sat_add(p->bytes, x->bytes);
        p->stored = sat_add(p->stored, x->stored);
        if (dup)
            dup[x->parent] = sat_add(dup[x->parent], dup[i]);
    }
    for (uint32_t i = 0; dup && i < ns; i++)
        t->sc[i].params = t->sc[i].params >= dup[i] ? t->sc[i].params - dup[i] : 0;
    free(dup);
    dup = NULL;

    /* 5. Values crossing each scope's edge. */
    stamp_in = malloc(((size_t)ns + 1) * sizeof *stamp_in);
    stamp_out = malloc(((size_t)ns + 1) * sizeof *stamp_out);
    if (!stamp_in || !stamp_out)
        goto oom;
    memset(stamp_in, 0xff, ((size_t)ns + 1) * sizeof *stamp_in);
    memset(stamp_out, 0xff, ((size_t)ns + 1) * sizeof *stamp_out);
    /* Values of the graph, or of one enclosing it (a body reads them by name). */
    if (!(outer = calloc((size_t)m->graphs.n + 1, 1)))
        goto oom;
    for (uint32_t x = graph, k = 0; x != NNAV_NONE && x < m->graphs.n && k <= m->graphs.n;
         x = m->graphs.v[x].parent, k++)
        outer[x] = 1;
    char mark = nnav_opset_rules_of(m)->control_mark; /* a control output's name starts so */
    for (uint32_t v = 0; v < m->values.n; v++) {
        const nnav_value *val = &m->values.v[v];
        if (t->ptensor[v] != NNAV_NONE || val->kind == NNAV_VAL_UNDEFINED ||
            val->graph >= m->graphs.n || !outer[val->graph])
            continue;
        if (mark && val->name.n && val->name.p[0] == mark)
            continue; /* a control output: order, not data */
        uint32_t ps = NNAV_NONE;
        if (val->kind == NNAV_VAL_NODE && val->graph == graph && val->producer >= first &&
            val->producer - first < nn)
            ps = t->node_scope[val->producer - first];
        else if (val->graph == graph && val->kind == NNAV_VAL_NODE)
            continue;
        uint32_t nc;
        const uint32_t *cons = nnav_value_consumers(m, v, &nc);
        for (uint32_t k = 0; k < nc; k++) {
            uint32_t cn = consumer_in(m, graph, cons[k], &am, &oom);
            if (oom)
                goto oom;
            if (cn == NNAV_NONE)
                continue;
            uint32_t cs = t->node_scope[cn - first], l = lca(t->sc, cs, ps);
            for (uint32_t x = cs; x != l && x != NNAV_NONE; x = t->sc[x].parent)
                if (stamp_in[x] != v) {
                    stamp_in[x] = v;
                    if (push_pair(&ins, x, v))
                        goto oom;
                }
            for (uint32_t x = ps; x != l && x != NNAV_NONE; x = t->sc[x].parent)
                if (stamp_out[x] != v) {
                    stamp_out[x] = v;
                    if (push_pair(&outs, x, v))
                        goto oom;
                }
        }
        if (val->is_output && val->graph == graph)
            for (uint32_t x = ps; x != NNAV_NONE; x = t->sc[x].parent)
                if (stamp_out[x] != v) {
                    stamp_out[x] = v;
                    if (push_pair(&outs, x, v))
                        goto oom;
                }
    }
    uint64_t nvals = (uint64_t)ins.n + outs.n;
    if (nvals >= UINT32_MAX || !(t->vals = malloc((size_t)(nvals + 1) * sizeof *t->vals)))
        goto oom;
    for (uint32_t i = 0; i < ins.n; i++)
        t->sc[ins.v[i].scope].in_count++;
    for (uint32_t i = 0; i < outs.n; i++)
        t->sc[outs.v[i].scope].out_count++;
    acc = 0;
    for (uint32_t i = 0; i < ns; i++) {
        t->sc[i].in_first = acc, acc += t->sc[i].in_count;
        t->sc[i].out_first = acc, acc += t->sc[i].out_count;
        t->sc[i].in_count = t->sc[i].out_count = 0;
    }
    for (uint32_t i = 0; i < ins.n; i++) {
        nnav_scope *x = &t->sc[ins.v[i].scope];
        t->vals[x->in_first + x->in_count++] = ins.v[i].value;
    }
    for (uint32_t i = 0; i < outs.n; i++) {
        nnav_scope *x = &t->sc[outs.v[i].scope];
        t->vals[x->out_first + x->out_count++] = outs.v[i].value;
    }

    /* 6. Identical siblings. */
    if (group_identical(t, 0) || group_identical(t, 1))
        goto oom;

    free(cnode), free(ckv), free(order), free(newid), free(cstart), free(stack);
    free(stamp_in), free(stamp_out), free(am.node), free(outer), free(dup), free(roles), free(logical);
    nnav_vec_free(ins), nnav_vec_free(outs);
    return t;
oom:
    nnav_hashtab_free(&h);
    nnav_vec_free(cr);
    free(cnode), free(ckv), free(order), free(newid), free(cstart), free(stack);
    free(stamp_in), free(stamp_out), free(am.node), free(outer), free(dup), free(roles), free(logical);
    nnav_vec_free(ins), nnav_vec_free(outs);
    nnav_scopes_free(t);
    return NULL;
}

void nnav_scopes_free(nnav_scopes *t)
{
    if (!t)
        return;
    free(t->sc), free(t->nodes), free(t->node_scope), free(t->memb), free(t->vals);
    free(t->ptensor), free(t->slot);
    free(t->cv), free(t->cv_first), free(t->cv_total), free(t->cv_scope);
    free(t);
}

uint32_t nnav_scopes_count(const nnav_scopes *t) { return t->n; }

uint64_t nnav_scopes_buffers(const nnav_scopes *t) { return t->n ? t->sc[0].buffers : t->buffers; }

const nnav_scope *nnav_scope_get(const nnav_scopes *t, uint32_t id)
{
    return id < t->n ? &t->sc[id] : NULL;
}

const uint32_t *nnav_scope_nodes(const nnav_scopes *t) { return t->nodes; }

uint32_t nnav_scope_of_node(const nnav_scopes *t, uint32_t node)
{
    const nnav_graph *gr = &t->m->graphs.v[t->graph];
    if (node < gr->node_first || node - gr->node_first >= gr->node_count)
        return NNAV_NONE;
    return t->node_scope[node - gr->node_first];
}

const uint32_t *nnav_scope_values(const nnav_scopes *t) { return t->vals; }

const uint32_t *nnav_scope_tensors(const nnav_scopes *t, uint32_t id, uint32_t *n)
{
    *n = 0;
    if (!t->cv_total || id >= t->n)
        return NULL;
    *n = t->cv_total[id];
    return t->cv + t->cv_first[id];
}

size_t nnav_scope_path(const nnav_scopes *t, uint32_t id, uint8_t *buf, size_t n)
{
    uint32_t chain[NNAV_SCOPE_DEPTH_MAX + 1], k = 0;
    for (uint32_t x = id; x != NNAV_NONE && x != 0 && x < t->n && k <= NNAV_SCOPE_DEPTH_MAX;
         x = t->sc[x].parent)
        chain[k++] = x;
    size_t o = 0;
    while (k--) {
        nnav_span nm = t->sc[chain[k]].name;
        if (o) {
            if (o < n)
                buf[o] = '/';
            o++;
        }
        for (uint64_t i = 0; i < nm.n; i++, o++)
            if (o < n)
                buf[o] = nm.p[i];
    }
    return o;
}

void nnav_scopes_merged(const nnav_model *m, uint32_t graph, uint64_t *names, uint64_t *bytes)
{
    *names = 0, *bytes = 0;
    if (graph >= m->graphs.n)
        return;
    /* Names held by a tensor beyond the first are what merging saved. */
    uint32_t *pts = param_tensors(m, graph);
    uint32_t *per = calloc((size_t)m->tensors.n + 1, sizeof *per);
    if (pts && per) {
        anc_memo am = {0};
        for (uint32_t v = 0; v < m->values.n; v++) {
            uint32_t pt = pts[v], place;
            if (pt == NNAV_NONE || m->values.v[v].graph != graph ||
                param_counts(m, graph, pts, v, NULL, &place, &am) != 1)
                continue;
            if (per[pt]++) {
                (*names)++;
                uint64_t b = m->tensors.v[pt].nbytes;
                if (b != UINT64_MAX)
                    *bytes += b;
            }
        }
        free(am.node);
    }
    free(per);
    free(pts);
}

uint32_t nnav_value_weight(const nnav_model *m, uint32_t v)
{
    const nnav_opset_rules *R = nnav_opset_rules_of(m);
    if (v >= m->values.n)
        return NNAV_NONE;
    const nnav_value *val = &m->values.v[v];
    if (val->kind == NNAV_VAL_INITIALIZER || val->kind == NNAV_VAL_SPARSE)
        return init_tensor(m, R, val);
    if (val->kind == NNAV_VAL_NODE && val->producer < m->nodes.n &&
        m->nodes.v[val->producer].out_count >= 1 &&
        m->refs.v[m->nodes.v[val->producer].out_first].value == v)
        return constant_tensor(m, R, val->producer);
    return NNAV_NONE;
}

int nnav_tensor_is_weight(const nnav_model *m, uint32_t t)
{
    const nnav_opset_rules *R = nnav_opset_rules_of(m);
    if (t >= m->tensors.n)
        return 0;
    const nnav_tensor *tt = &m->tensors.v[t];
    nnav_tquant q;
    if (nnav_model_facts_get(m)->tensor_store && !checkpoint_nonparam(m, tt) &&
        nnav_tensor_quant(m, t, &q) == 0 && q.kind != NNAV_Q_PLAIN)
        return q.kind == NNAV_Q_PACKED; /* a GPTQ/AWQ qweight, not its scales */
    if (!weight_dtype(tt->dtype) || tt->nelems == UINT64_MAX || checkpoint_nonparam(m, tt))
        return 0;
    if (tt->owner == NNAV_TOWN_INITIALIZER || tt->owner == NNAV_TOWN_SPARSE_VALUES)
        return 1;
    if (tt->owner == NNAV_TOWN_ATTRIBUTE && tt->owner_id < m->attrs.n &&
        m->attrs.v[tt->owner_id].node < m->nodes.n)
        return constant_tensor(m, R, m->attrs.v[tt->owner_id].node) == t;
    return 0;
}

uint32_t nnav_constant_weight(const nnav_model *m, uint32_t node)
{
    const nnav_opset_rules *R = nnav_opset_rules_of(m);
    return node < m->nodes.n ? constant_tensor(m, R, node) : NNAV_NONE;
}

/* Whether parameter value v (pt from param_tensors(m, NNAV_NONE)) counts in
 * the whole model: not when only Identity nodes of its graph read it, each
 * naming it anew (their outputs count). */
static int counts_alone(const nnav_model *m, const uint32_t *pt, uint32_t v)
{
    const nnav_opset_rules *R = nnav_opset_rules_of(m);
    const nnav_value *val = &m->values.v[v];
    if (pt[v] != NNAV_NONE && checkpoint_nonparam(m, &m->tensors.v[pt[v]]))
        return 0;
    uint32_t nc, real = 0, fwd = 0;
    const uint32_t *cons = nnav_value_consumers(m, v, &nc);
    for (uint32_t j = 0; j < nc; j++) {
        uint32_t cn = cons[j];
        const nnav_node *nd = &m->nodes.v[cn];
        if (nd->graph == val->graph && identity_node(m, R, cn) &&
            m->refs.v[nd->in_first].value == v &&
            m->refs.v[nd->out_first].value != NNAV_NONE &&
            pt[m->refs.v[nd->out_first].value] == pt[v])
            fwd++;
        else
            real++;
    }
    return real || !fwd || val->is_output;
}

/* Whether each graph is part of the model proper: its outermost graph is the
 * main graph (graph 0) or a local function. in[g]: 0 not known yet, 1 in, 2
 * out. Each graph's way up is walked once, then filled in. */
static void graphs_in_model(const nnav_model *m, uint8_t *in)
{
    for (uint32_t g = 0; g < m->graphs.n; g++) {
        uint32_t x = g, steps = 0;
        uint8_t res = 2;
        for (;;) {
            if (in[x]) {
                res = in[x];
                break;
            }
            uint32_t p = m->graphs.v[x].parent;
            if (p == NNAV_NONE || p >= m->graphs.n || ++steps > m->graphs.n) {
                res = x == 0 || m->graphs.v[x].kind == NNAV_GRAPH_FUNCTION ? 1 : 2;
                break;
            }
            x = p;
        }
        for (uint32_t y = g, k = 0; !in[y] && k <= steps; k++) {
            in[y] = res;
            uint32_t p = m->graphs.v[y].parent;
            if (p == NNAV_NONE || p >= m->graphs.n)
                break;
            y = p;
        }
    }
}

void nnav_params_by_graph(const nnav_model *m, uint64_t *main, uint64_t *all, uint64_t *held)
{
    const nnav_opset_rules *R = nnav_opset_rules_of(m);
    uint64_t a = 0, b = 0, c = 0;
    uint32_t *pt = param_tensors(m, NNAV_NONE);
    uint64_t *logical = NULL;
    uint8_t *roles = pt ? param_roles(m, pt, &logical) : NULL;
    int store = nnav_model_facts_get(m)->tensor_store;
    for (uint32_t v = 0; roles && v < m->values.n; v++) {
        const nnav_value *val = &m->values.v[v];
        uint64_t ne;
        nnav_tquant q;
        if (store && val->kind == NNAV_VAL_INITIALIZER && val->producer < m->tensors.n &&
            m->tensors.v[val->producer].role != NNAV_TROLE_CONSTANT &&
            nnav_tensor_alias(m, val->producer) == NNAV_NONE &&
            nnav_tensor_quant(m, val->producer, &q) == 0 && q.kind != NNAV_Q_PLAIN) {
            ne = q.kind == NNAV_Q_PACKED ? q.logical : 0; /* its data: no parameters */
            b = sat_add(b, ne);
            if (val->graph == 0)
                a = sat_add(a, ne);
            continue;
        }
        if (pt[v] == NNAV_NONE || roles[v] != NNAV_WROLE_PARAM || !counts_alone(m, pt, v))
            continue;
        ne = welems(m, pt, logical, v);
        b = sat_add(b, ne);
        if (val->graph == 0)
            a = sat_add(a, ne);
        if (val->kind == NNAV_VAL_NODE && val->producer < m->nodes.n &&
            constant_tensor(m, R, val->producer) == pt[v])
            c = sat_add(c, ne);
    }
    free(logical);
    free(roles);
    free(pt);
    *main = a, *all = b, *held = c;
}

void nnav_model_weights(const nnav_model *m, nnav_weights *w)
{
    memset(w, 0, sizeof *w);
    uint8_t *in = calloc((size_t)m->graphs.n + 1, 1);
    uint32_t *pt = in ? param_tensors(m, NNAV_NONE) : NULL;
    uint64_t *logical = NULL;
    uint8_t *roles = pt ? param_roles(m, pt, &logical) : NULL;
    int store = nnav_model_facts_get(m)->tensor_store;
    if (roles) {
        graphs_in_model(m, in);
        for (uint32_t v = 0; v < m->values.n; v++) {
            const nnav_value *val = &m->values.v[v];
            nnav_tquant q;
            if (store && val->kind == NNAV_VAL_INITIALIZER && val->graph < m->graphs.n &&
                in[val->graph] == 1 && val->producer < m->tensors.n &&
                m->tensors.v[val->producer].role != NNAV_TROLE_CONSTANT &&
                nnav_tensor_alias(m, val->producer) == NNAV_NONE &&
                nnav_tensor_quant(m, val->producer, &q) == 0 && q.kind != NNAV_Q_PLAIN) {
                /* A packed weight (GPTQ, AWQ) and its data (quant.h). */
                w->bytes = sat_add(w->bytes, tbytes(&m->tensors.v[val->producer]));
                if (q.kind == NNAV_Q_PACKED)
                    w->params = sat_add(w->params, q.logical), w->param_names++,
                    w->stored = sat_add(w->stored, q.logical);
                continue;
            }
            if (pt[v] == NNAV_NONE || val->graph >= m->graphs.n || in[val->graph] != 1)
                continue;
            const nnav_tensor *tt = &m->tensors.v[pt[v]];
            uint64_t ne = tt->nelems;
            if (checkpoint_nonparam(m, tt)) {
                /* A checkpoint's buffer by its name; a tied name is the
                 * other's, a TorchScript constant no module's. */
                if (tt->role != NNAV_TROLE_CONSTANT && is_buffer(tt, last_comp(tt->name)) &&
                    nnav_tensor_alias(m, pt[v]) == NNAV_NONE) {
                    w->buffers = sat_add(w->buffers, ne), w->buffer_names++;
                    w->bytes = sat_add(w->bytes, tbytes(tt));
                    w->stored = sat_add(w->stored, ne);
                }
                continue;
            }
            uint64_t vb = vbytes(m, pt, v);
            w->bytes = sat_add(w->bytes, vb);
            if (vb && roles[v] != NNAV_WROLE_CONST)
                w->stored = sat_add(w->stored, welems(m, pt, logical, v));
            if (!counts_alone(m, pt, v))
                continue;
            ne = welems(m, pt, logical, v);
            if (roles[v] == NNAV_WROLE_PARAM)
                w->params = sat_add(w->params, ne), w->param_names++;
            else if (roles[v] == NNAV_WROLE_BUFFER)
                w->buffers = sat_add(w->buffers, ne), w->buffer_names++;
            else
                w->consts = sat_add(w->consts, ne), w->const_names++;
        }
    }
    free(logical);
    free(roles);
    free(pt);
    free(in);
}

void nnav_model_params(const nnav_model *m, uint64_t *elems, uint64_t *names)
{
    nnav_weights w;
    nnav_model_weights(m, &w);
    *elems = w.params;
    if (names)
        *names = w.param_names;
}

uint32_t nnav_folded_norms(const nnav_model *m, uint32_t graph)
{
    const nnav_opset_rules *R = nnav_opset_rules_of(m);
    if (!R->folded_norm || graph >= m->graphs.n)
        return 0;
    const nnav_graph *g = &m->graphs.v[graph];
    int kept = R->names_kept(m, graph);
    uint32_t k = 0;
    for (uint32_t i = 0; kept && i < g->node_count; i++)
        k += R->folded_norm(m, g->node_first + i, kept) != 0;
    return k;
}

const char *nnav_folded_norms_text(uint32_t n, char *buf, size_t size)
{
    snprintf(buf, size,
             "BatchNorm folded into the preceding Conv by the exporter (%u Conv layer%s): "
             "counts are the file's, not the framework's",
             n, n == 1 ? "" : "s");
    return buf;
}

uint8_t *nnav_tensor_roles(const nnav_model *m)
{
    uint8_t *tr = malloc((size_t)m->tensors.n + 1);
    uint32_t *pt = tr ? param_tensors(m, NNAV_NONE) : NULL;
    uint8_t *roles = pt ? param_roles(m, pt, NULL) : NULL;
    if (!roles) {
        free(pt), free(tr);
        return NULL;
    }
    /* Each tensor by the strongest part any of its names plays: a
     * parameter, else a buffer, else a constant. */
    static const uint8_t rank[] = {[NNAV_TROLE_NONE_] = 0, [NNAV_WROLE_PARAM + 1] = 3,
                                   [NNAV_WROLE_BUFFER + 1] = 2, [NNAV_WROLE_CONST + 1] = 1};
    for (uint32_t t = 0; t < m->tensors.n; t++)
        tr[t] = NNAV_TROLE_NONE_;
    for (uint32_t v = 0; v < m->values.n; v++) {
        uint32_t t = pt[v];
        if (t == NNAV_NONE || t >= m->tensors.n)
            continue;
        uint8_t r = (uint8_t)(roles[v] + 1);
        nnav_tquant q;
        if (nnav_model_facts_get(m)->tensor_store && nnav_tensor_quant(m, t, &q) == 0 &&
            q.kind == NNAV_Q_DATA)
            r = NNAV_WROLE_CONST + 1; /* a packed weight's scales: quantisation data */
        else if (checkpoint_nonparam(m, &m->tensors.v[t]))
            r = is_buffer(&m->tensors.v[t], last_comp(m->tensors.v[t].name)) ? NNAV_WROLE_BUFFER + 1
                                                                              : NNAV_WROLE_CONST + 1;
        if (rank[r] > rank[tr[t]])
            tr[t] = r;
    }
    /* A weight no counted name holds (a Constant's tensor read by nothing
     * but forwarders...): a parameter, as nnav_tensor_is_weight says. */
    for (uint32_t t = 0; t < m->tensors.n; t++)
        if (tr[t] == NNAV_TROLE_NONE_ && nnav_tensor_is_weight(m, t))
            tr[t] = NNAV_WROLE_PARAM + 1;
    free(roles), free(pt);
    return tr;
}
