/* opcheck.c - every node held to its operator's schema (see opcheck.h for
 * the rules and how onnx.checker draws the same lines). */
#include "opcheck.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hashtab.h"
#include "onnx_fields.h"
#include "shape.h"
#include "util.h"
#include "wire.h"

static const char *const RULE_WORDS[NNAV_OPC_RULES] = {
    [NNAV_OPC_UNKNOWN_OPERATOR] = "unknown_operator",
    [NNAV_OPC_NOT_YET] = "not_yet",
    [NNAV_OPC_NO_OPSET] = "no_opset",
    [NNAV_OPC_DEPRECATED] = "deprecated",
    [NNAV_OPC_UNKNOWN_ATTRIBUTE] = "unknown_attribute",
    [NNAV_OPC_DUPLICATE_ATTRIBUTE] = "duplicate_attribute",
    [NNAV_OPC_ATTRIBUTE_TYPE] = "attribute_type",
    [NNAV_OPC_MISSING_ATTRIBUTE] = "missing_attribute",
    [NNAV_OPC_INPUT_COUNT] = "input_count",
    [NNAV_OPC_OUTPUT_COUNT] = "output_count",
    [NNAV_OPC_MISSING_INPUT] = "missing_input",
    [NNAV_OPC_MISSING_OUTPUT] = "missing_output",
    [NNAV_OPC_INPUT_TYPE] = "input_type",
    [NNAV_OPC_OPSET_RANGE] = "opset_range",
    [NNAV_OPC_FUNCTION_OPSET] = "function_opset",
    [NNAV_OPC_SSA] = "ssa",
    [NNAV_OPC_ORDER] = "topological_order",
    [NNAV_OPC_UNDEFINED] = "undefined_input",
    [NNAV_OPC_DUPLICATE_INIT] = "duplicate_initializer",
    [NNAV_OPC_INIT_NOT_INPUT] = "initializer_not_input",
    [NNAV_OPC_INPUT_SHAPE] = "input_shape",
};

const char *nnav_opc_rule_word(int rule)
{
    return rule >= 0 && rule < NNAV_OPC_RULES ? RULE_WORDS[rule] : "?";
}

/* The opset_import of one scope (the model's, or a function's), sorted by
 * domain bytes once it is first asked about, for a binary search. */
typedef struct import {
    nnav_span domain;
    int64_t version;
    uint32_t pos; /* in the file: the first import of a domain is in force */
} import;

typedef struct scope_imports {
    uint32_t first, count;
    struct import *sorted; /* NULL until built */
} scope_imports;

#define ALLOW_CACHE 64u
#define RESOLVE_CACHE 256u

/* A name's definition in scope, for the graph rules: what wrote it, where. */
enum { DEF_INPUT, DEF_INIT, DEF_SPARSE, DEF_NODE };
typedef struct def {
    uint32_t name;  /* its name's slot in the run's names */
    uint32_t below; /* the definition of the same name it hides, or NNAV_NONE */
    uint32_t graph;
    uint32_t who;   /* DEF_NODE: the node; else the position among the graph's
                       inputs, initializers or sparse initializers */
    uint32_t pos;   /* DEF_NODE: the output's position */
    uint8_t kind;
} def;

/* The run: the public result first, then what the walk keeps. */
typedef struct run {
    nnav_opcheck pub;
    const nnav_model *m;
    const nnav_shapes *sh;
    int onnx;                 /* an ONNX file (imports and types are checked) */
    int64_t ir_version;
    nnav_opc_finding *f;
    size_t cap;
    nnav_opc_skip skip[NNAV_OPC_DOMAINS];
    scope_imports *scopes;    /* [0, nfunc) the functions, [nfunc] the model */
    uint32_t *graph_scope;    /* by graph id: its scope index */
    uint32_t nfunc;
    struct named *attr_order; /* scratch for the duplicate check */
    size_t attr_cap;
    struct {                  /* resolve_cached()'s answers */
        nnav_span op, domain;
        uint32_t scope;
        uint8_t used;
        nnav_op_use u;
    } res[RESOLVE_CACHE];
    struct {
        const nnav_op_tc *tc;
        const char *t;
        uint8_t ok;
    } allow[ALLOW_CACHE];
    /* The graph rules' scope: every distinct name once (the table holds
     * slots into names), each slot's innermost definition in view (head),
     * and the definitions in view as a stack, undone as a graph is left. */
    nnav_hashtab name_tab;
    NNAV_VEC(nnav_span) names;
    NNAV_VEC(uint32_t) head;
    NNAV_VEC(def) defs;
    uint32_t first, end; /* the graphs whose findings are said */
    int oom;
} run;

/* ---- findings ---- */

static nnav_opc_finding *add_at(run *r, uint32_t node, uint32_t graph, int rule,
                                const nnav_op_use *u, uint32_t index)
{
    r->pub.total++;
    r->pub.by_rule[rule]++;
    if (r->pub.n >= NNAV_OPC_KEEP)
        return NULL;
    if (r->pub.n == r->cap) {
        size_t cap = r->cap ? r->cap * 2 : 64;
        if (cap > NNAV_OPC_KEEP)
            cap = NNAV_OPC_KEEP;
        nnav_opc_finding *f = realloc(r->f, cap * sizeof *f);
        if (!f) {
            r->oom = 1;
            return NULL;
        }
        r->f = f, r->cap = cap;
    }
    nnav_opc_finding *f = &r->f[r->pub.n++];
    memset(f, 0, sizeof *f);
    f->node = node;
    f->graph = graph;
    f->rule = (uint8_t)rule;
    f->s = u ? u->s : NULL;
    f->domain = u ? u->domain : NULL;
    f->opset = u ? u->opset : -1;
    f->index = index;
    return f;
}

static nnav_opc_finding *add(run *r, uint32_t node, int rule, const nnav_op_use *u, uint32_t index)
{
    return add_at(r, node, node != NNAV_NONE ? nnav_node_get(r->m, node)->graph : NNAV_NONE, rule, u,
                  index);
}

/* Add a finding with its detail (printf-style; names already escaped). */
static void say(run *r, uint32_t node, int rule, const nnav_op_use *u, uint32_t index,
                const char *fmt, ...) __attribute__((format(printf, 6, 7)));
static void say(run *r, uint32_t node, int rule, const nnav_op_use *u, uint32_t index,
                const char *fmt, ...)
{
    nnav_opc_finding *f = add(r, node, rule, u, index);
    if (!f)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->detail, sizeof f->detail, fmt, ap);
    va_end(ap);
}

/* A name from the file, escaped, cut to fit a detail line. */
static const char *esc(nnav_span s, char *buf, size_t n)
{
    nnav_text_escape(s.p, s.n > 200 ? 200 : (size_t)s.n, buf, n);
    return buf;
}

/* ONNX attribute type names, as onnx spells them ("INT", "STRINGS"). */
static const char *attr_type_word(uint64_t t, char *buf, size_t n)
{
    static const char *const w[] = {"UNDEFINED", "FLOAT", "INT", "STRING", "TENSOR", "GRAPH",
                                    "FLOATS", "INTS", "STRINGS", "TENSORS", "GRAPHS",
                                    "SPARSE_TENSOR", "SPARSE_TENSORS", "TYPE_PROTO",
                                    "TYPE_PROTOS"};
    if (t < sizeof w / sizeof *w)
        return w[t];
    if (t <= NNAV_ATTR_TF_LIST) { /* a TensorFlow kind: nnav's own name */
        snprintf(buf, n, "%s", nnav_attr_type_name((int)t));
        return buf;
    }
    snprintf(buf, n, "type %llu", (unsigned long long)t);
    return buf;
}

/* ---- where a node's domain is imported ---- */

static int span_cmp(nnav_span a, nnav_span b)
{
    size_t k = a.n < b.n ? (size_t)a.n : (size_t)b.n;
    int c = k ? memcmp(a.p, b.p, k) : 0;
    return c ? c : (a.n > b.n) - (a.n < b.n);
}

/* By domain, then by position in the file (the first import of a domain
 * is the one in force). */
static int import_qcmp(const void *a, const void *b)
{
    const import *x = a, *y = b;
    int c = span_cmp(x->domain, y->domain);
    return c ? c : (x->pos > y->pos) - (x->pos < y->pos);
}

/* Each graph's scope: the function whose body holds it, else the model.
 * A graph's parent comes before it in id order (a body is met inside its
 * graph); one that does not is looked up by a bounded walk. */
static int build_scopes(run *r)
{
    const nnav_model *m = r->m;
    uint32_t ng = nnav_graph_count(m);
    r->nfunc = nnav_function_count(m);
    r->scopes = calloc((size_t)r->nfunc + 1, sizeof *r->scopes);
    r->graph_scope = malloc(((size_t)ng + 1) * sizeof *r->graph_scope);
    if (!r->scopes || !r->graph_scope)
        return -1;
    for (uint32_t i = 0; i < r->nfunc; i++) {
        const nnav_function *fn = nnav_function_get(m, i);
        r->scopes[i].first = fn->opset_first;
        r->scopes[i].count = fn->opset_count;
    }
    r->scopes[r->nfunc].first = 0;
    r->scopes[r->nfunc].count = nnav_opset_count(m);
    for (uint32_t g = 0; g < ng; g++) {
        uint32_t at = g, sc = r->nfunc;
        for (uint32_t steps = 0; at < ng && steps <= ng; steps++) {
            const nnav_graph *gr = nnav_graph_get(m, at);
            if (gr->kind == NNAV_GRAPH_FUNCTION) {
                sc = gr->function < r->nfunc ? gr->function : r->nfunc;
                break;
            }
            if (gr->parent == NNAV_NONE || gr->parent >= ng)
                break;
            if (gr->parent < g) { /* known already */
                sc = r->graph_scope[gr->parent];
                break;
            }
            at = gr->parent;
        }
        r->graph_scope[g] = sc;
    }
    return 0;
}

/* The version scope sc imports domain d at (the first import of it), or
 * -1 when it does not import d. */
static int64_t scope_version(run *r, scope_imports *sc, nnav_span d)
{
    if (!sc->sorted && sc->count) {
        sc->sorted = malloc((size_t)sc->count * sizeof *sc->sorted);
        if (!sc->sorted) {
            r->oom = 1;
            return -1;
        }
        for (uint32_t k = 0; k < sc->count; k++) {
            const nnav_opset *o = nnav_opset_get(r->m, sc->first + k);
            sc->sorted[k] = (import){o->domain, o->version, k};
        }
        qsort(sc->sorted, sc->count, sizeof *sc->sorted, import_qcmp);
    }
    size_t lo = 0, hi = sc->count;
    while (lo < hi) { /* the first entry not below d */
        size_t mid = lo + (hi - lo) / 2;
        if (span_cmp(sc->sorted[mid].domain, d) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < sc->count && nnav_span_same(sc->sorted[lo].domain, d) ? sc->sorted[lo].version : -1;
}

/* Whether the scope of graph g imports domain d exactly (onnx.checker: a
 * node of "" is also served by an import of "ai.onnx"). */
static int imported(run *r, uint32_t g, nnav_span d)
{
    if (g >= nnav_graph_count(r->m))
        return 1;
    scope_imports *sc = &r->scopes[r->graph_scope[g]];
    if (scope_version(r, sc, d) >= 0 || r->oom)
        return 1;
    return d.n == 0 && scope_version(r, sc, (nnav_span){(const uint8_t *)"ai.onnx", 7}) >= 0;
}

/* onnx.checker's check_opset_compatibility, for a node of a function's own
 * body: where the function and the model import the node's domain at two
 * versions, the operator must resolve to the same schema at both. */
static void check_function_opset(run *r, uint32_t node, const nnav_node *nd, nnav_span dom,
                                 const nnav_op_use *u)
{
    const nnav_graph *gr = nnav_graph_get(r->m, nd->graph);
    if (gr->kind != NNAV_GRAPH_FUNCTION || r->graph_scope[nd->graph] == r->nfunc)
        return;
    const char *canon = nnav_op_domain_canon(dom);
    int64_t fv = scope_version(r, &r->scopes[r->graph_scope[nd->graph]], dom);
    int64_t mv = scope_version(r, &r->scopes[r->nfunc], dom);
    if (!canon || fv < 0 || mv < 0 || fv == mv)
        return;
    const nnav_op_schema *sf = nnav_op_lookup(canon, nd->op, fv);
    const nnav_op_schema *sm = nnav_op_lookup(canon, nd->op, mv);
    if ((!sf && !sm) || (sf && sm && sf->since == sm->since))
        return;
    char ob[420], a[32] = "none", b[32] = "none";
    if (sf)
        snprintf(a, sizeof a, "version %d", sf->since);
    if (sm)
        snprintf(b, sizeof b, "version %d", sm->since);
    say(r, node, NNAV_OPC_FUNCTION_OPSET, u, NNAV_NONE,
        "the function imports %s %lld, the model %lld: '%s' is %s at the function's and %s at "
        "the model's", canon, (long long)fv, (long long)mv, esc(nd->op, ob, sizeof ob), a, b);
}

/* ---- attributes ---- */

/* The AttributeProto's own type field: 1 with its value, 0 when absent. */
static int attr_type_field(nnav_span msg, uint64_t *v)
{
    nnav_wire w;
    nnav_field f;
    nnav_error e;
    int k, found = 0;
    if (!msg.p)
        return 0;
    nnav_wire_init(&w, msg.p, msg);
    while ((k = nnav_wire_next(&w, &f, &e)) == 1)
        if (f.num == NNAV_ONNX_ATTRIBUTEPROTO_TYPE && f.wt == NNAV_WT_VARINT) {
            *v = f.v; /* the last one counts, as protobuf reads it */
            found = 1;
        }
    return found;
}

static int is_list_kind(int t)
{
    switch (t) {
    case NNAV_ATTR_FLOATS: case NNAV_ATTR_INTS: case NNAV_ATTR_STRINGS: case NNAV_ATTR_TENSORS:
    case NNAV_ATTR_GRAPHS: case NNAV_ATTR_SPARSE_TENSORS: case NNAV_ATTR_TYPE_PROTOS:
    case NNAV_ATTR_TF_BOOLS: case NNAV_ATTR_TF_TYPES: case NNAV_ATTR_TF_SHAPES:
    case NNAV_ATTR_TF_FUNCS: case NNAV_ATTR_TF_LIST:
        return 1;
    }
    return 0;
}

/* A TensorFlow AttrValue against its OpDef's kind: the same kind; an empty
 * list (its item type is not on the wire) for any list; a placeholder (a
 * function's attr, filled at the call) for anything. */
static int tf_attr_fits(int file, int want)
{
    return file == want || want == NNAV_ATTR_UNDEFINED || file == NNAV_ATTR_TF_PLACEHOLDER ||
           (file == NNAV_ATTR_TF_LIST && is_list_kind(want));
}

/* An attribute's name and id, sorted by name (then id) to find those
 * named twice. */
typedef struct named {
    nnav_span name;
    uint32_t id;
} named;

static int named_qcmp(const void *a, const void *b)
{
    const named *x = a, *y = b;
    int c = span_cmp(x->name, y->name);
    return c ? c : (x->id > y->id) - (x->id < y->id);
}

/* Attributes named twice in one node: one finding per name, at its second
 * appearance, saying how many times it appears. */
static void check_duplicates(run *r, uint32_t node, const nnav_node *nd, const nnav_op_use *u)
{
    const nnav_model *m = r->m;
    uint32_t n = nd->attr_count;
    char nb[420];
    if (n < 2)
        return;
    if (r->attr_cap < n) {
        named *p = realloc(r->attr_order, (size_t)n * sizeof *p);
        if (!p) {
            r->oom = 1;
            return;
        }
        r->attr_order = p, r->attr_cap = n;
    }
    named *v = r->attr_order;
    for (uint32_t i = 0; i < n; i++)
        v[i] = (named){nnav_attr_get(m, nd->attr_first + i)->name, nd->attr_first + i};
    qsort(v, n, sizeof *v, named_qcmp);
    for (uint32_t i = 0; i + 1 < n;) {
        uint32_t j = i + 1;
        while (j < n && nnav_span_same(v[i].name, v[j].name))
            j++;
        if (j - i > 1)
            say(r, node, NNAV_OPC_DUPLICATE_ATTRIBUTE, u, v[i + 1].id,
                "attribute '%s' appears %u times", esc(v[i].name, nb, sizeof nb), j - i);
        i = j;
    }
}

static void check_attributes(run *r, uint32_t node, const nnav_node *nd, const nnav_op_use *u,
                             int tf)
{
    const nnav_model *m = r->m;
    const nnav_op_schema *s = u->s;
    char nb[420], t1[48], t2[48];
    for (uint32_t k = 0; k < nd->attr_count; k++) {
        uint32_t aid = nd->attr_first + k;
        const nnav_attr *a = nnav_attr_get(m, aid);
        if (!a->name.n)
            continue;
        if (a->name.p[0] == '_' && (tf || (a->name.n >= 2 && a->name.p[1] == '_')))
            continue; /* internal: "__x" to onnx, "_x" to TensorFlow */
        const nnav_op_attr *sa = nnav_op_attr_find(s, a->name);
        if (!sa) {
            say(r, node, NNAV_OPC_UNKNOWN_ATTRIBUTE, u, aid, "attribute '%s' is not in the %s",
                esc(a->name, nb, sizeof nb), tf ? "OpDef" : "schema");
            continue;
        }
        if (tf) {
            if (!tf_attr_fits(a->type, sa->type))
                say(r, node, NNAV_OPC_ATTRIBUTE_TYPE, u, aid, "attribute '%s' is %s, the OpDef says %s",
                    esc(a->name, nb, sizeof nb), nnav_attr_type_name(a->type),
                    nnav_attr_type_name(sa->type));
            continue;
        }
        uint64_t ft;
        if (attr_type_field(a->msg, &ft)) {
            if (ft != sa->type)
                say(r, node, NNAV_OPC_ATTRIBUTE_TYPE, u, aid, "attribute '%s' is %s, the schema says %s",
                    esc(a->name, nb, sizeof nb), attr_type_word(ft, t1, sizeof t1),
                    attr_type_word(sa->type, t2, sizeof t2));
        } else if (r->ir_version >= 2) {
            say(r, node, NNAV_OPC_ATTRIBUTE_TYPE, u, aid,
                "attribute '%s' has no type field (IR version %lld requires it; the schema says %s)",
                esc(a->name, nb, sizeof nb), (long long)r->ir_version,
                attr_type_word(sa->type, t2, sizeof t2));
        } else if (a->type && a->type != sa->type) { /* as its fields say */
            say(r, node, NNAV_OPC_ATTRIBUTE_TYPE, u, aid, "attribute '%s' holds %s, the schema says %s",
                esc(a->name, nb, sizeof nb), attr_type_word(a->type, t1, sizeof t1),
                attr_type_word(sa->type, t2, sizeof t2));
        }
    }
    check_duplicates(r, node, nd, u);
    for (uint32_t i = 0; i < s->n_attrs; i++)
        if (s->attrs[i].required && nnav_op_node_attr(m, node, s->attrs[i].name) == NNAV_NONE)
            say(r, node, NNAV_OPC_MISSING_ATTRIBUTE, u, NNAV_NONE,
                "required attribute '%s' is missing", s->attrs[i].name);
}

/* ---- arguments ---- */

static void range_text(int32_t lo, int32_t hi, char *buf, size_t n)
{
    if (lo == hi)
        snprintf(buf, n, "%d", lo);
    else if (hi == NNAV_OP_UNBOUNDED)
        snprintf(buf, n, "at least %d", lo);
    else
        snprintf(buf, n, "%d to %d", lo, hi);
}

/* The type of value v as onnx spells it ("tensor(float)",
 * "seq(tensor(int64))"), or NULL when it is not known for sure. */
static const char *value_type_str(const run *r, uint32_t v, char *buf, size_t n)
{
    if (!r->sh || v == NNAV_NONE)
        return NULL;
    const nnav_fact *f = nnav_shapes_fact(r->sh, v);
    if (!f || f->control || !f->dtype || f->src == NNAV_SRC_NONE || f->src == NNAV_SRC_DISAGREE)
        return NULL;
    const char *t = nnav_op_tensor_type_str(f->dtype);
    if (!t)
        return NULL;
    if (f->not_tensor == 0)
        return t;
    if (f->not_tensor != NNAV_NT_SEQ)
        return NULL;
    snprintf(buf, n, "seq(%s)", t);
    return buf;
}

/* The allowed types as a list for a detail line, cut to fit. */
static void allowed_text(const nnav_op_tc *tc, char *buf, size_t n)
{
    size_t o = 0;
    buf[0] = 0;
    for (uint32_t i = 0; i < tc->n_allowed && o + 1 < n; i++) {
        int w = snprintf(buf + o, n - o, "%s%s", i ? ", " : "", tc->allowed[i]);
        if (w < 0 || (size_t)w >= n - o) {
            if (n > 4)
                memcpy(buf + n - 4, "...", 4);
            return;
        }
        o += (size_t)w;
    }
}

#define MAX_BIND 16

/* Whether constraint tc allows type t. A model uses few (constraint, type)
 * pairs, asked about again at every node: a small cache keyed by the two
 * pointers (t from nnav_op_tensor_type_str, unless it is a built string
 * `scratch`) spares the string compares. */
static int allowed(run *r, const nnav_op_tc *tc, const char *t, int scratch)
{
    size_t h = (((uintptr_t)tc >> 4) ^ ((uintptr_t)t >> 3) * 31u) % ALLOW_CACHE;
    if (!scratch && r->allow[h].tc == tc && r->allow[h].t == t)
        return r->allow[h].ok;
    int ok = 0;
    for (uint32_t k = 0; k < tc->n_allowed && !ok; k++)
        ok = tc->allowed[k] && strcmp(tc->allowed[k], t) == 0;
    if (!scratch) {
        r->allow[h].tc = tc;
        r->allow[h].t = t;
        r->allow[h].ok = (uint8_t)ok;
    }
    return ok;
}

/* Each input whose type is known against its formal's constraint, and the
 * type parameters a node binds (a heterogeneous variadic list binds none). */
static void check_input_types(run *r, uint32_t node, const nnav_node *nd, const nnav_op_use *u)
{
    const nnav_model *m = r->m;
    const nnav_op_schema *s = u->s;
    struct {
        const char *param;
        char type[40];
        uint32_t pos;
    } bind[MAX_BIND];
    size_t nbind = 0;
    char tb[64], al[160], an[96], an2[96];
    for (uint32_t i = 0; i < nd->in_count; i++) {
        nnav_ref ref = nnav_ref_get(m, nd->in_first + i);
        if (ref.control || !ref.name.n)
            continue;
        const nnav_op_formal *fm = nnav_op_arg_formal(s, 0, i);
        if (!fm || !fm->type)
            continue;
        const char *t = value_type_str(r, ref.value, tb, sizeof tb);
        if (!t)
            continue;
        const nnav_op_tc *tc = nnav_op_tc_find(s, fm->type);
        if (!tc) {
            if (strchr(fm->type, '(') && strcmp(fm->type, t) != 0)
                say(r, node, NNAV_OPC_INPUT_TYPE, u, i, "input %u (%s) is %s, the schema says %s", i,
                    nnav_op_arg_name(s, 0, i, an, sizeof an), t, fm->type);
            continue;
        }
        if (!allowed(r, tc, t, t == tb)) {
            allowed_text(tc, al, sizeof al);
            say(r, node, NNAV_OPC_INPUT_TYPE, u, i, "input %u (%s) is %s, %s allows %s", i,
                nnav_op_arg_name(s, 0, i, an, sizeof an), t, tc->param, al);
            continue;
        }
        if (fm->option == NNAV_OPF_VARIADIC && !fm->homogeneous)
            continue;
        size_t b = 0;
        while (b < nbind && strcmp(bind[b].param, tc->param) != 0)
            b++;
        if (b == nbind) {
            size_t tl = strlen(t);
            if (nbind < MAX_BIND && tl < sizeof bind[0].type) {
                bind[nbind].param = tc->param;
                memcpy(bind[nbind].type, t, tl + 1);
                bind[nbind].pos = i;
                nbind++;
            }
        } else if (strcmp(bind[b].type, t) != 0) {
            nnav_op_arg_name(s, 0, bind[b].pos, an2, sizeof an2);
            say(r, node, NNAV_OPC_INPUT_TYPE, u, i,
                "input %u (%s) is %s, but %s is %s from input %u (%s)", i,
                nnav_op_arg_name(s, 0, i, an, sizeof an), t, tc->param, bind[b].type, bind[b].pos,
                an2);
        }
    }
}

static void check_arguments(run *r, uint32_t node, const nnav_node *nd, const nnav_op_use *u,
                            int tf)
{
    const nnav_model *m = r->m;
    const nnav_op_schema *s = u->s;
    char rt[64], an[96];
    /* A NodeDef names no outputs: TensorFlow's are those its consumers
     * name, not a count to hold to the OpDef. */
    for (int out = 0; out < 2 - tf; out++) {
        uint32_t first = out ? nd->out_first : nd->in_first;
        uint32_t count = out ? nd->out_count : nd->in_count, n = 0;
        for (uint32_t i = 0; i < count; i++)
            n += !nnav_ref_get(m, first + i).control;
        int32_t lo = out ? s->min_out : s->min_in, hi = out ? s->max_out : s->max_in;
        if ((int64_t)n < lo || (int64_t)n > hi) {
            range_text(lo, hi, rt, sizeof rt);
            say(r, node, out ? NNAV_OPC_OUTPUT_COUNT : NNAV_OPC_INPUT_COUNT, u, n,
                "%u %s%s, the %s takes %s", n, out ? "output" : "input", n == 1 ? "" : "s",
                tf ? "OpDef" : "schema", rt);
        }
        if (tf)
            continue;
        /* "" (an omitted optional) where the formal is single. */
        uint32_t nf = out ? s->n_out : s->n_in;
        for (uint32_t i = 0; i < count && i < nf; i++) {
            nnav_ref ref = nnav_ref_get(m, first + i);
            const nnav_op_formal *fm = out ? &s->out[i] : &s->in[i];
            if (ref.name.n || fm->option != NNAV_OPF_SINGLE)
                continue;
            say(r, node, out ? NNAV_OPC_MISSING_OUTPUT : NNAV_OPC_MISSING_INPUT, u, i,
                "%s %u (%s) is \"\", but it is not optional", out ? "output" : "input", i,
                nnav_op_arg_name(s, out, i, an, sizeof an));
        }
    }
    if (!tf)
        check_input_types(r, node, nd, u);
}

/* ---- the walk ---- */

static void count_skip(run *r, nnav_span dom)
{
    r->pub.skipped++;
    for (size_t i = 0; i < r->pub.n_skip; i++)
        if (nnav_span_same(r->skip[i].domain, dom)) {
            r->skip[i].count++;
            return;
        }
    if (r->pub.n_skip < NNAV_OPC_DOMAINS) {
        r->skip[r->pub.n_skip].domain = dom;
        r->skip[r->pub.n_skip].count = 1;
        r->pub.n_skip++;
        return;
    }
    r->pub.skip_other++;
}

/* nnav_op_resolve, remembered: by opschema.h's contract its answer for a
 * node that calls no function depends on the node's op, its domain and the
 * scope (model or function) whose opset_import is in force, so a node like
 * one met before takes that answer (a million-node chain of a few ops pays
 * a few searches of the table, not a million). */
static int resolve_cached(run *r, uint32_t node, const nnav_node *nd, nnav_span dom, nnav_op_use *u)
{
    if (nd->function != NNAV_NONE || nd->graph >= nnav_graph_count(r->m))
        return nnav_op_resolve(r->m, node, u);
    uint32_t scope = r->graph_scope[nd->graph];
    uint64_t h = 1469598103934665603ull ^ scope;
    for (uint64_t i = 0; i < nd->op.n; i++)
        h = (h ^ nd->op.p[i]) * 1099511628211ull;
    for (uint64_t i = 0; i < dom.n; i++)
        h = (h ^ dom.p[i]) * 1099511628211ull;
    size_t k = (size_t)(h % RESOLVE_CACHE);
    if (r->res[k].used && r->res[k].scope == scope && nnav_span_same(r->res[k].op, nd->op) &&
        nnav_span_same(r->res[k].domain, dom)) {
        *u = r->res[k].u;
        return 0;
    }
    if (nnav_op_resolve(r->m, node, u) < 0)
        return -1;
    r->res[k].op = nd->op;
    r->res[k].domain = dom;
    r->res[k].scope = scope;
    r->res[k].u = *u;
    r->res[k].used = 1;
    return 0;
}

/* The node's operator resolved (0), or -1. */
static int node_use(run *r, uint32_t node, nnav_op_use *u)
{
    const nnav_node *nd = nnav_node_get(r->m, node);
    return resolve_cached(r, node, nd, nnav_node_domain(r->m, node), u);
}

/* Node against its operator's schema, u its resolution. */
static void check_node(run *r, uint32_t node, const nnav_op_use *up)
{
    const nnav_model *m = r->m;
    const nnav_node *nd = nnav_node_get(m, node);
    nnav_op_use u = *up;
    char ob[420], db[420];
    nnav_span dom = nnav_node_domain(m, node);
    /* Every node is held to the table's rules, but calls, nodes of domains
     * the table does not hold and TensorFlow nodes without OpDefs (each
     * counted apart) once their domain is found imported. */
    int held = u.status != NNAV_OPS_NONSTANDARD && u.status != NNAV_OPS_FUNCTION &&
               u.status != NNAV_OPS_NO_SCHEMAS;
    /* onnx.checker's first question, for every domain: is it imported? */
    if (r->onnx && u.status != NNAV_OPS_NO_OPSET && !imported(r, nd->graph, dom)) {
        r->pub.checked++;
        say(r, node, NNAV_OPC_NO_OPSET, &u, NNAV_NONE, "domain '%s' is not imported (opset_import)%s",
            esc(dom, db, sizeof db),
            u.status == NNAV_OPS_FUNCTION ? " for this call of a model function" : "");
        return;
    }
    r->pub.checked += (uint64_t)held;
    if (r->onnx)
        check_function_opset(r, node, nd, dom, &u);
    switch (u.status) {
    case NNAV_OPS_NONSTANDARD:
        count_skip(r, dom);
        return;
    case NNAV_OPS_FUNCTION:
        r->pub.calls++;
        return;
    case NNAV_OPS_NO_SCHEMAS:
        r->pub.no_schemas++;
        return;
    case NNAV_OPS_NO_OPSET:
        say(r, node, NNAV_OPC_NO_OPSET, &u, NNAV_NONE, "domain '%s' is not imported (opset_import)",
            r->onnx ? esc(dom, db, sizeof db) : u.domain ? u.domain : "");
        return;
    case NNAV_OPS_UNKNOWN:
        if (u.domain && r->onnx)
            say(r, node, NNAV_OPC_UNKNOWN_OPERATOR, &u, NNAV_NONE,
                "no operator '%s' in %s (opset %lld; the table is %s)", esc(nd->op, ob, sizeof ob),
                u.domain, (long long)u.opset, nnav_op_table_origin());
        else
            say(r, node, NNAV_OPC_UNKNOWN_OPERATOR, &u, NNAV_NONE,
                "no op definition '%s' among those the model carries", esc(nd->op, ob, sizeof ob));
        return;
    case NNAV_OPS_NOT_YET:
        say(r, node, NNAV_OPC_NOT_YET, &u, NNAV_NONE,
            "'%s' exists in %s from opset %d; opset %lld is in force", esc(nd->op, ob, sizeof ob),
            u.domain ? u.domain : "?", u.s ? u.s->since : 0, (long long)u.opset);
        return;
    case NNAV_OPS_FOUND:
        break;
    default:
        return;
    }
    if (!u.s)
        return;
    int tf = nnav_op_schema_is_models(u.s);
    /* A TensorFlow OpDef's deprecation holds from a GraphDef version on
     * (the graph's producer decides): not a finding here. */
    if (u.s->deprecated && !tf) {
        say(r, node, NNAV_OPC_DEPRECATED, &u, NNAV_NONE,
            "'%s' is deprecated in %s opset %lld (since version %d)", esc(nd->op, ob, sizeof ob),
            u.domain ? u.domain : u.s->domain, (long long)u.opset, u.s->since);
        return;
    }
    check_attributes(r, node, nd, &u, tf);
    check_arguments(r, node, nd, &u, tf);
    /* onnx 1.12's full_check fails on its inference's errors in the main
     * graph only (those in bodies and functions do not reach it). */
    const char *why = r->onnx && r->sh && nnav_graph_get(m, nd->graph)->kind == NNAV_GRAPH_MAIN
                          ? nnav_shapes_conflict(r->sh, node) : NULL;
    if (why)
        say(r, node, NNAV_OPC_INPUT_SHAPE, &u, NNAV_NONE,
            "its inputs' shapes contradict the operator: %s", why);
}


/* ---- the graph's rules (ONNX): names in scope, as onnx.checker sees them ---- */

static int name_same(const void *ctx, uint32_t id)
{
    const run *r = ((const void *const *)ctx)[0];
    return nnav_span_same(r->names.v[id], *(const nnav_span *)((const void *const *)ctx)[1]);
}

static uint64_t name_rehash(const void *ctx, uint32_t id)
{
    const run *r = ((const void *const *)ctx)[0];
    return nnav_hash_bytes(r->names.v[id].p, r->names.v[id].n, 29);
}

/* The slot of a name (made when `make`), or NNAV_NONE. */
static uint32_t name_slot(run *r, nnav_span name, int make)
{
    const void *ctx[2] = {r, &name};
    uint64_t h = nnav_hash_bytes(name.p, name.n, 29), at = 0;
    uint32_t id = nnav_hashtab_find(&r->name_tab, h, name_same, ctx, &at);
    if (id != NNAV_NONE || !make)
        return id;
    nnav_span *sp = nnav_vec_push(r->names);
    uint32_t *hd = sp ? nnav_vec_push(r->head) : NULL;
    if (!hd) {
        r->oom = 1;
        return NNAV_NONE;
    }
    *sp = name;
    *hd = NNAV_NONE;
    id = r->names.n - 1;
    if (nnav_hashtab_put(&r->name_tab, at, h, id, name_rehash, ctx)) {
        r->oom = 1;
        return NNAV_NONE;
    }
    return id;
}

/* The innermost definition of name in view, or NNAV_NONE. */
static uint32_t in_view(run *r, nnav_span name)
{
    uint32_t id = name_slot(r, name, 0);
    return id == NNAV_NONE ? NNAV_NONE : r->head.v[id];
}

static void define(run *r, nnav_span name, uint8_t kind, uint32_t graph, uint32_t who, uint32_t pos)
{
    uint32_t id = name_slot(r, name, 1);
    def *d = id != NNAV_NONE ? nnav_vec_push(r->defs) : NULL;
    if (!d) {
        r->oom = 1;
        return;
    }
    *d = (def){id, r->head.v[id], graph, who, pos, kind};
    r->head.v[id] = r->defs.n - 1;
}

/* Back to the definitions in view before a graph was entered. */
static void undefine(run *r, uint32_t mark)
{
    while (r->defs.n > mark) {
        const def *d = &r->defs.v[--r->defs.n];
        r->head.v[d->name] = d->below;
    }
}

/* Whether graph g's findings are said (counted and kept). */
static int said(const run *r, uint32_t g)
{
    return g >= r->first && g < r->end;
}

/* A node as a detail names it: "node 'a' (#3)", "node #3". */
static const char *node_words(const run *r, uint32_t node, char *buf, size_t n)
{
    char nb[420];
    const nnav_node *nd = nnav_node_get(r->m, node);
    if (nd->name.n)
        snprintf(buf, n, "node '%s' (#%u)", esc(nd->name, nb, sizeof nb),
                 nnav_node_index(r->m, node));
    else
        snprintf(buf, n, "node #%u", nnav_node_index(r->m, node));
    return buf;
}

/* What wrote definition d, seen from graph g: "graph input #0",
 * "initializer #2", "output 0 of node 'a' (#1)", and " of graph PATH"
 * when d is an enclosing graph's. */
static const char *def_words(const run *r, const def *d, uint32_t g, char *buf, size_t n)
{
    char nw[480], path[600] = "";
    int fn = nnav_graph_get(r->m, d->graph)->kind == NNAV_GRAPH_FUNCTION;
    if (d->graph != g) {
        char p[512];
        nnav_graph_path(r->m, d->graph, p, sizeof p);
        snprintf(path, sizeof path, " of graph %s", p);
    }
    switch (d->kind) {
    case DEF_INPUT:
        snprintf(buf, n, "%s input #%u%s", fn ? "function" : "graph", d->who, path);
        break;
    case DEF_INIT:
    case DEF_SPARSE:
        snprintf(buf, n, "%sinitializer #%u%s", d->kind == DEF_SPARSE ? "sparse " : "", d->who, path);
        break;
    default:
        snprintf(buf, n, "output %u of %s%s", d->pos, node_words(r, d->who, nw, sizeof nw), path);
    }
    return buf;
}

/* A graph rule's finding about `value`, when graph g's findings are said
 * (NULL otherwise, or past those kept: the caller writes the detail). */
static nnav_opc_finding *graph_finding(run *r, uint32_t node, uint32_t g, int rule,
                                       const nnav_op_use *u, uint32_t index, nnav_span value)
{
    if (!said(r, g))
        return NULL;
    nnav_opc_finding *f = add_at(r, node, g, rule, u, index);
    if (f)
        f->value = value;
    return f;
}

/* A function's outputs, each listed once (onnx.checker's check_function):
 * sorted by name, a finding at each repeat. */
static void function_outputs(run *r, uint32_t g)
{
    const nnav_graph *gr = nnav_graph_get(r->m, g);
    uint32_t n = gr->output_count;
    char nb[420];
    if (n < 2 || !said(r, g))
        return;
    named *v = malloc((size_t)n * sizeof *v);
    if (!v) {
        r->oom = 1;
        return;
    }
    for (uint32_t k = 0; k < n; k++)
        v[k] = (named){nnav_vinfo_get(r->m, gr->output_first + k)->name, k};
    qsort(v, n, sizeof *v, named_qcmp);
    for (uint32_t k = 1; k < n; k++) {
        if (!nnav_span_same(v[k].name, v[k - 1].name))
            continue;
        nnav_opc_finding *f = graph_finding(r, NNAV_NONE, g, NNAV_OPC_SSA, NULL, v[k].id, v[k].name);
        if (f)
            snprintf(f->detail, sizeof f->detail, "function output #%u '%s' is listed again (#%u)",
                     v[k].id, esc(v[k].name, nb, sizeof nb), v[k - 1].id);
    }
    free(v);
}

/* Graph g's own names as it is entered: its inputs, initializers and
 * sparse initializers, as onnx.checker's check_graph adds them. */
static void enter_graph(run *r, uint32_t g)
{
    const nnav_model *m = r->m;
    const nnav_graph *gr = nnav_graph_get(m, g);
    char nb[420], dw[1400];
    for (uint32_t k = 0; k < gr->input_count && !r->oom; k++) {
        nnav_span name = nnav_vinfo_get(m, gr->input_first + k)->name;
        uint32_t d = in_view(r, name);
        if (d == NNAV_NONE || r->defs.v[d].graph != g) { /* an outer name may be hidden */
            define(r, name, DEF_INPUT, g, k, 0);
            continue;
        }
        nnav_opc_finding *f = graph_finding(r, NNAV_NONE, g, NNAV_OPC_SSA, NULL, k, name);
        if (f)
            snprintf(f->detail, sizeof f->detail, "%s input #%u '%s' is already defined: %s",
                     gr->kind == NNAV_GRAPH_FUNCTION ? "function" : "graph", k,
                     esc(name, nb, sizeof nb), def_words(r, &r->defs.v[d], g, dw, sizeof dw));
    }
    if (gr->kind == NNAV_GRAPH_FUNCTION)
        function_outputs(r, g);
    /* IR version 3 and below: every initializer is a graph input too. */
    int subset = r->ir_version >= 1 && r->ir_version <= 3;
    for (uint32_t pass = 0; pass < 2 && !r->oom; pass++) {
        uint32_t count = pass ? gr->sparse_count : gr->init_count;
        for (uint32_t k = 0; k < count && !r->oom; k++) {
            uint32_t t = pass ? nnav_sparse_get(m, gr->sparse_first + k)->values : gr->init_first + k;
            if (t == NNAV_NONE)
                continue;
            nnav_span name = nnav_tensor_get(m, t)->name;
            if (!name.n) {
                nnav_opc_finding *f =
                    graph_finding(r, NNAV_NONE, g, NNAV_OPC_DUPLICATE_INIT, NULL, k, name);
                if (f)
                    snprintf(f->detail, sizeof f->detail, "%sinitializer #%u has no name",
                             pass ? "sparse " : "", k);
                continue;
            }
            uint32_t d = in_view(r, name);
            const def *dd = d != NNAV_NONE ? &r->defs.v[d] : NULL;
            if (dd && dd->graph == g && dd->kind != DEF_INPUT) {
                nnav_opc_finding *f =
                    graph_finding(r, NNAV_NONE, g, NNAV_OPC_DUPLICATE_INIT, NULL, k, name);
                if (f)
                    snprintf(f->detail, sizeof f->detail, "%sinitializer #%u '%s' has the name of %s",
                             pass ? "sparse " : "", k, esc(name, nb, sizeof nb),
                             def_words(r, dd, g, dw, sizeof dw));
                continue;
            }
            if (subset && !pass && !(dd && dd->graph == g && dd->kind == DEF_INPUT)) {
                nnav_opc_finding *f =
                    graph_finding(r, NNAV_NONE, g, NNAV_OPC_INIT_NOT_INPUT, NULL, k, name);
                if (f)
                    snprintf(f->detail, sizeof f->detail,
                             "initializer #%u '%s' is not a graph input (IR version %lld: "
                             "initializers are graph inputs too)", k, esc(name, nb, sizeof nb),
                             (long long)r->ir_version);
            }
            define(r, name, pass ? DEF_SPARSE : DEF_INIT, g, k, 0);
        }
    }
}

/* Each input of node (in graph g) in view: defined before it here or in
 * an enclosing graph before the node holding this body. */
static void node_inputs(run *r, uint32_t node, uint32_t g, const nnav_op_use *u)
{
    const nnav_model *m = r->m;
    const nnav_node *nd = nnav_node_get(m, node);
    char nb[420], dw[1400];
    for (uint32_t i = 0; i < nd->in_count && !r->oom; i++) {
        nnav_ref ref = nnav_ref_get(m, nd->in_first + i);
        if (ref.control || !ref.name.n || in_view(r, ref.name) != NNAV_NONE)
            continue;
        /* The index resolves a name by scope, whatever the order: a value
         * it finds was written too late; one it does not, nowhere. */
        const nnav_value *v = ref.value != NNAV_NONE ? nnav_value_get(m, ref.value) : NULL;
        int later = v && v->kind == NNAV_VAL_NODE && v->producer != NNAV_NONE;
        nnav_opc_finding *f = graph_finding(r, node, g, later ? NNAV_OPC_ORDER : NNAV_OPC_UNDEFINED,
                                            u, i, ref.name);
        if (!f)
            continue;
        esc(ref.name, nb, sizeof nb);
        if (later && v->producer == node) {
            snprintf(f->detail, sizeof f->detail, "input %u '%s' is this node's own output", i, nb);
        } else if (later) {
            def d = {0, NNAV_NONE, v->graph, v->producer, 0, DEF_NODE};
            const nnav_node *p = nnav_node_get(m, v->producer);
            for (uint32_t o = 0; o < p->out_count; o++)
                if (nnav_span_same(nnav_ref_get(m, p->out_first + o).name, ref.name)) {
                    d.pos = o;
                    break;
                }
            snprintf(f->detail, sizeof f->detail, "input %u '%s' is written only after it: %s", i,
                     nb, def_words(r, &d, g, dw, sizeof dw));
        } else {
            const nnav_graph *gr = nnav_graph_get(m, g);
            snprintf(f->detail, sizeof f->detail,
                     "input %u '%s' is defined nowhere in view (no %s input, initializer or earlier "
                     "node's output%s)", i, nb, gr->kind == NNAV_GRAPH_FUNCTION ? "function" : "graph",
                     gr->parent != NNAV_NONE ? ", here or in an enclosing graph" : "");
        }
    }
}

/* Each output of node written once: no name in view. */
static void node_outputs(run *r, uint32_t node, uint32_t g, const nnav_op_use *u)
{
    const nnav_model *m = r->m;
    const nnav_node *nd = nnav_node_get(m, node);
    char nb[420], dw[1400];
    for (uint32_t o = 0; o < nd->out_count && !r->oom; o++) {
        nnav_ref ref = nnav_ref_get(m, nd->out_first + o);
        if (ref.control || !ref.name.n)
            continue;
        uint32_t d = in_view(r, ref.name);
        if (d == NNAV_NONE) {
            define(r, ref.name, DEF_NODE, g, node, o);
            continue;
        }
        nnav_opc_finding *f = graph_finding(r, node, g, NNAV_OPC_SSA, u, o, ref.name);
        if (f)
            snprintf(f->detail, sizeof f->detail, "output %u '%s' is already defined: %s", o,
                     esc(ref.name, nb, sizeof nb), def_words(r, &r->defs.v[d], g, dw, sizeof dw));
    }
}

/* One graph being walked: the node whose bodies are walked (`open`), the
 * next of its bodies, and the definitions in view when it was entered. */
typedef struct frame {
    uint32_t g, i, child, mark;
    uint8_t rules, entered, open, resolved;
    nnav_op_use u; /* node i's, while open */
} frame;

/* A graph to walk on top of the stack; 0 when out of memory. */
static int push_frame(run *r, frame **v, uint32_t *n, uint32_t *cap, uint32_t g, int rules)
{
    if (*n == *cap && nnav_vec_grow_((void **)v, cap, sizeof **v, *n + 1)) {
        r->oom = 1;
        return 0;
    }
    (*v)[(*n)++] = (frame){.g = g, .rules = (uint8_t)rules};
    return 1;
}

/* ONNX: the graphs depth first from each root, as onnx.checker walks them
 * (a body at its node, after the node's inputs and before its outputs),
 * each node held to its schema and, where onnx.checker holds it, to the
 * graph's rules; findings only for graphs [first, end). */
static void walk_onnx(run *r, uint8_t *seen)
{
    const nnav_model *m = r->m;
    uint32_t ng = nnav_graph_count(m);
    NNAV_VEC(frame) st = {0}; /* as deep as the bodies nest; f is taken again after a push */
    if (nnav_hashtab_init(&r->name_tab, (uint64_t)nnav_value_count(m) + 16)) {
        r->oom = 1;
        return;
    }
    for (uint32_t root = 0; root < ng && !r->oom; root++) {
        const nnav_graph *rg = nnav_graph_get(m, root);
        if (rg->parent != NNAV_NONE || seen[root])
            continue;
        if (!push_frame(r, &st.v, &st.n, &st.cap, root,
                        rg->kind == NNAV_GRAPH_MAIN ||
                            (rg->kind == NNAV_GRAPH_FUNCTION && r->ir_version >= 8)))
            break;
        while (st.n && !r->oom) {
            frame *f = &st.v[st.n - 1];
            const nnav_graph *gr = nnav_graph_get(m, f->g);
            uint32_t nch;
            const uint32_t *kids = nnav_graph_children(m, f->g, &nch);
            int out = f->g < r->first || f->g >= r->end;
            if (!f->entered) {
                f->entered = 1;
                f->mark = r->defs.n;
                seen[f->g] = 1;
                if (f->rules)
                    enter_graph(r, f->g);
            }
            if (f->open) {
                uint32_t n = gr->node_first + f->i;
                if (f->child < nch && nnav_graph_get(m, kids[f->child])->owner_node == n) {
                    uint32_t c = kids[f->child++];
                    if (!seen[c])
                        push_frame(r, &st.v, &st.n, &st.cap, c, f->rules);
                    continue;
                }
                if (f->rules)
                    node_outputs(r, n, f->g, f->resolved ? &f->u : NULL);
                f->open = 0;
                f->i++;
                continue;
            }
            if (f->i < gr->node_count) {
                uint32_t n = gr->node_first + f->i;
                f->resolved = 0;
                if (!out) {
                    r->pub.nodes++;
                    f->resolved = node_use(r, n, &f->u) == 0;
                    if (f->rules)
                        node_inputs(r, n, f->g, f->resolved ? &f->u : NULL);
                    if (f->resolved)
                        check_node(r, n, &f->u);
                }
                f->open = 1;
                continue;
            }
            if (f->child < nch) { /* bodies of no node here (a function's attribute defaults) */
                uint32_t c = kids[f->child++];
                if (!seen[c])
                    push_frame(r, &st.v, &st.n, &st.cap, c, 0);
                continue;
            }
            undefine(r, f->mark);
            st.n--;
        }
    }
    nnav_vec_free(st);
}

/* The model's opset_import of standard domains against the table. */
static void check_opsets(run *r)
{
    const nnav_model *m = r->m;
    char db[420];
    for (uint32_t i = 0; i < nnav_opset_count(m); i++) {
        const nnav_opset *o = nnav_opset_get(m, i);
        const char *d = nnav_op_domain_canon(o->domain);
        if (!d)
            continue;
        int32_t max = nnav_op_table_max(d);
        if (o->version < 1) {
            nnav_op_use u = {.domain = d, .opset = o->version, .table_max = max};
            say(r, NNAV_NONE, NNAV_OPC_OPSET_RANGE, &u, i,
                "opset_import %s%s%s%s version %lld: versions start at 1 (the table knows 1 to %d)",
                d, o->domain.n && nnav_span_eqs(o->domain, d) ? "" : " (\"",
                o->domain.n && nnav_span_eqs(o->domain, d) ? "" : esc(o->domain, db, sizeof db),
                o->domain.n && nnav_span_eqs(o->domain, d) ? "" : "\")", (long long)o->version, max);
        } else if (o->version > max) {
            size_t k = 0;
            while (k < r->pub.n_past && r->pub.past[k].domain != d)
                k++;
            if (k == r->pub.n_past && k < sizeof r->pub.past / sizeof *r->pub.past) {
                r->pub.past[k] = (nnav_opc_notice){d, o->version, max};
                r->pub.n_past++;
            }
        }
    }
}

nnav_opcheck *nnav_opcheck_run(const nnav_model *m, const struct nnav_shapes *s, uint32_t first,
                               uint32_t end)
{
    run *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->m = m;
    r->sh = s;
    const nnav_model_facts *mf = nnav_model_facts_get(m);
    r->onnx = (mf->traits & NNAV_TRAIT_OPSETS) != 0; /* nodes come by opset imports */
    r->ir_version = mf->ir_version;
    r->pub.table = nnav_op_table_origin();
    if (build_scopes(r) < 0) {
        r->oom = 1;
    } else {
        if (r->onnx)
            check_opsets(r);
        uint32_t ng = nnav_graph_count(m);
        if (end > ng)
            end = ng;
        r->first = first, r->end = end;
        uint8_t *seen = calloc((size_t)ng + 1, 1);
        if (!seen)
            r->oom = 1;
        else if (r->onnx)
            walk_onnx(r, seen);
        /* TensorFlow (and any graph the walk did not reach): in id order. */
        for (uint32_t g = first; g < end && !r->oom; g++) {
            const nnav_graph *gr = nnav_graph_get(m, g);
            for (uint32_t i = 0; i < gr->node_count && !r->oom && !seen[g]; i++) {
                nnav_op_use u;
                r->pub.nodes++;
                if (node_use(r, gr->node_first + i, &u) == 0)
                    check_node(r, gr->node_first + i, &u);
            }
        }
        free(seen);
    }
    r->pub.f = r->f;
    r->pub.skip = r->skip;
    if (r->oom) {
        nnav_opcheck_free(&r->pub);
        return NULL;
    }
    return &r->pub;
}

void nnav_opcheck_free(nnav_opcheck *c)
{
    if (!c)
        return;
    run *r = (run *)c; /* pub is the run's first member */
    for (uint32_t i = 0; r->scopes && i <= r->nfunc; i++)
        free(r->scopes[i].sorted);
    free(r->scopes);
    free(r->graph_scope);
    free(r->attr_order);
    free(r->f);
    nnav_hashtab_free(&r->name_tab);
    nnav_vec_free(r->names);
    nnav_vec_free(r->head);
    nnav_vec_free(r->defs);
    free(r);
}
