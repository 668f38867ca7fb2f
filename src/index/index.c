/* index.c - the format-neutral model: closing, name resolution by scope,
 * consumer lists, graph paths, accessors and search. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "hashtab.h"
#include "model.h"

const char *nnav_attr_type_name(int t)
{
    static const char *n[] = {"UNDEFINED", "FLOAT", "INT", "STRING", "TENSOR", "GRAPH",
                              "FLOATS", "INTS", "STRINGS", "TENSORS", "GRAPHS",
                              "SPARSE_TENSOR", "SPARSE_TENSORS", "TYPE_PROTO", "TYPE_PROTOS",
                              "BOOL", "TYPE", "SHAPE", "FUNC", "PLACEHOLDER", "BOOLS", "TYPES",
                              "SHAPES", "FUNCS", "LIST"};
    return t >= 0 && t < (int)(sizeof n / sizeof *n) ? n[t] : "UNDEFINED";
}

/* ---- hash tables keyed by (graph, name) ----
 * The value and node tables are hashtab.h tables of ids; a key is a name
 * in a graph, and the records (values, nodes) hold the names. */

static uint64_t key_hash(uint32_t graph, const uint8_t *p, uint64_t n)
{
    return nnav_hash_bytes(p, n, graph + 1);
}

/* A name looked up in a graph (graph 0 for the scope table, which ignores
 * graphs), or, for growth, only the model. */
typedef struct name_key {
    const nnav_model *m;
    uint32_t graph;
    const uint8_t *p;
    uint64_t n;
} name_key;

static int span_is(nnav_span s, const name_key *k)
{
    return s.n == k->n && (k->n == 0 || memcmp(s.p, k->p, k->n) == 0);
}

static int value_same(const void *ctx, uint32_t id)
{
    const name_key *k = ctx;
    const nnav_value *v = &k->m->values.v[id];
    return v->graph == k->graph && span_is(v->name, k);
}

static uint64_t value_rehash(const void *ctx, uint32_t id)
{
    const nnav_value *v = &((const name_key *)ctx)->m->values.v[id];
    return key_hash(v->graph, v->name.p, v->name.n);
}

static int node_same(const void *ctx, uint32_t id)
{
    const name_key *k = ctx;
    const nnav_node *nd = &k->m->nodes.v[id];
    return nd->graph == k->graph && span_is(nd->name, k);
}

static uint64_t node_rehash(const void *ctx, uint32_t id)
{
    const nnav_node *nd = &((const name_key *)ctx)->m->nodes.v[id];
    return key_hash(nd->graph, nd->name.p, nd->name.n);
}

/* Table probes are cache misses on big graphs; asking for the slot a few
 * names ahead lets several misses overlap instead of queueing. */
#define PREFETCH_AHEAD 8
static void name_prefetch(const nnav_hashtab *t, uint32_t graph, nnav_span name)
{
    nnav_hashtab_prefetch(t, key_hash(graph, name.p, name.n));
}

/* ---- linking ---- */

static int define(nnav_model *m, uint32_t graph, nnav_span name, uint8_t kind, uint32_t producer,
                  uint32_t *out)
{
    name_key k = {m, graph, name.p, name.n};
    uint64_t h = key_hash(graph, name.p, name.n), at = 0;
    uint32_t id = nnav_hashtab_find(&m->value_tab, h, value_same, &k, &at);
    if (id != NNAV_NONE) {
        nnav_value *v = &m->values.v[id];
        /* IR < 4 lists initializers as inputs too: the initializer is the
         * more telling producer, and the input flag remembers the listing. */
        if (kind == NNAV_VAL_INPUT)
            v->is_input = 1;
        else if (v->kind == NNAV_VAL_INPUT && kind != NNAV_VAL_NODE) {
            v->kind = kind;
            v->producer = producer;
        } else if (v->kind == NNAV_VAL_UNDEFINED) {
            v->kind = kind;
            v->producer = producer;
        }
        *out = id;
        return 0;
    }
    nnav_value *v = nnav_vec_push(m->values);
    if (!v)
        return -1;
    v->name = name;
    v->graph = graph;
    v->kind = kind;
    v->is_input = kind == NNAV_VAL_INPUT;
    v->producer = producer;
    v->vinfo = NNAV_NONE;
    *out = m->values.n - 1;
    return nnav_hashtab_put(&m->value_tab, at, h, *out, value_rehash, &k);
}

uint32_t nnav_value_lookup(const nnav_model *m, uint32_t graph, const char *name, size_t len)
{
    name_key k = {m, 0, (const uint8_t *)name, len};
    for (uint32_t g = graph; g != NNAV_NONE; g = m->graphs.v[g].parent) {
        k.graph = g;
        uint32_t id = nnav_hashtab_find(&m->value_tab, key_hash(g, k.p, len), value_same, &k, NULL);
        if (id != NNAV_NONE && m->values.v[id].kind != NNAV_VAL_UNDEFINED)
            return id;
    }
    return NNAV_NONE;
}

/* The node-name table is built on first use: opening does not pay for it. */
static int node_tab_build(nnav_model *m)
{
    if (nnav_hashtab_init(&m->node_tab, (uint64_t)m->nodes.n + 16))
        return -1;
    for (uint32_t n = 0; n < m->nodes.n; n++) {
        const nnav_node *nd = &m->nodes.v[n];
        if (!nd->name.n)
            continue;
        name_key k = {m, nd->graph, nd->name.p, nd->name.n};
        uint64_t h = key_hash(nd->graph, nd->name.p, nd->name.n), at = 0;
        if (nnav_hashtab_find(&m->node_tab, h, node_same, &k, &at) == NNAV_NONE &&
            nnav_hashtab_put(&m->node_tab, at, h, n, node_rehash, &k))
            return -1;
    }
    return 0;
}

uint32_t nnav_node_by_name(const nnav_model *m, uint32_t graph, const char *name, size_t len)
{
    if (!m->node_tab.slot && node_tab_build((nnav_model *)m))
        return NNAV_NONE;
    name_key k = {m, graph, (const uint8_t *)name, len};
    return nnav_hashtab_find(&m->node_tab, key_hash(graph, k.p, len), node_same, &k, NULL);
}

/* ---- scoped resolution for deep nesting ----
 * nnav_value_lookup walks out through the enclosing graphs one by one: cheap
 * for the few levels real models have, but in a chain of bodies thousands
 * deep whose every level reads a main-graph name, linking would cost the
 * depth for each use. Such a model is linked by walking the graphs depth
 * first instead, keeping for each name the stack of its definitions in the
 * graphs entered so far: a use is then one probe. Results are the same as
 * nnav_value_lookup's, where the walk reached (RES_UNSET elsewhere). */
#define SCOPE_WALK_MAX 8
#define RES_UNSET (NNAV_NONE - 1)

static int scope_same(const void *ctx, uint32_t id)
{
    const name_key *k = ctx;
    return span_is(k->m->values.v[id].name, k);
}

static uint64_t scope_rehash(const void *ctx, uint32_t id)
{
    const nnav_span s = ((const name_key *)ctx)->m->values.v[id].name;
    return key_hash(0, s.p, s.n);
}

typedef struct scope {
    nnav_hashtab tab; /* name -> its representative: the first value of that name */
    uint32_t *head;  /* by representative: the innermost definition entered */
    uint32_t *below; /* by value: the definition it shadows */
    uint32_t *rep;   /* by value: its name's representative */
} scope;

static uint32_t scope_lookup(const nnav_model *m, const scope *sc, nnav_span name)
{
    name_key k = {m, 0, name.p, name.n};
    uint32_t r = nnav_hashtab_find(&sc->tab, key_hash(0, name.p, name.n), scope_same, &k, NULL);
    return r == NNAV_NONE ? NNAV_NONE : sc->head[r];
}

/* Values [first, end) are the definitions of one graph (define() keys by
 * graph, so a graph's own are new when its turn comes). */
static int resolve_scoped(nnav_model *m, const uint32_t *def_first, const uint32_t *def_end,
                          uint32_t *res_ref, uint32_t *res_vi)
{
    uint32_t ng = m->graphs.n, nv = m->values.n;
    scope sc = {{0}, malloc(((size_t)nv + 1) * sizeof(uint32_t)),
                malloc(((size_t)nv + 1) * sizeof(uint32_t)), malloc(((size_t)nv + 1) * sizeof(uint32_t))};
    uint32_t *kfirst = calloc((size_t)ng + 2, sizeof *kfirst);
    uint32_t *kids = malloc(((size_t)ng + 1) * sizeof *kids);
    typedef struct { uint32_t g, next; } frame;
    frame *st = malloc(((size_t)ng + 1) * sizeof *st);
    int rc = -1;
    if (!sc.head || !sc.below || !sc.rep || !kfirst || !kids || !st ||
        nnav_hashtab_init(&sc.tab, (uint64_t)nv + 16))
        goto out;
    for (uint32_t i = 0; i < m->refs.n; i++)
        res_ref[i] = RES_UNSET;
    for (uint32_t i = 0; i < m->vinfos.n; i++)
        res_vi[i] = RES_UNSET;
    /* Children by parent (counting sort), from the parent links alone. */
    for (uint32_t g = 0; g < ng; g++) {
        uint32_t p = m->graphs.v[g].parent;
        if (p < ng)
            kfirst[p + 2]++;
    }
    for (uint32_t g = 0; g < ng; g++)
        kfirst[g + 2] += kfirst[g + 1];
    for (uint32_t g = 0; g < ng; g++) {
        uint32_t p = m->graphs.v[g].parent;
        if (p < ng)
            kids[kfirst[p + 1]++] = g;
    }
    for (uint32_t root = 0; root < ng; root++) {
        if (m->graphs.v[root].parent != NNAV_NONE)
            continue;
        size_t sp = 0;
        st[sp++] = (frame){root, NNAV_NONE};
        while (sp) {
            frame *f = &st[sp - 1];
            uint32_t g = f->g;
            const nnav_graph *gr = &m->graphs.v[g];
            if (f->next == NNAV_NONE) {
                /* Entering: this graph's definitions shadow the outer ones. */
                for (uint32_t v = def_first[g]; v < def_end[g]; v++) {
                    nnav_span nm = m->values.v[v].name;
                    name_key k = {m, 0, nm.p, nm.n};
                    uint64_t h = key_hash(0, nm.p, nm.n), at = 0;
                    uint32_t r = nnav_hashtab_find(&sc.tab, h, scope_same, &k, &at);
                    if (r == NNAV_NONE) {
                        if (nnav_hashtab_put(&sc.tab, at, h, v, scope_rehash, &k))
                            goto out;
                        r = v;
                        sc.head[r] = NNAV_NONE;
                    }
                    sc.rep[v] = r;
                    sc.below[v] = sc.head[r];
                    sc.head[r] = v;
                }
                for (uint32_t n = gr->node_first; n < gr->node_first + gr->node_count; n++) {
                    const nnav_node *nd = &m->nodes.v[n];
                    if (nd->graph != g)
                        continue;
                    for (uint32_t i = nd->in_first; i < nd->in_first + nd->in_count; i++)
                        if (m->refs.v[i].n)
                            res_ref[i] = scope_lookup(m, &sc, nnav_ref_name(m, i));
                }
                for (uint32_t i = 0; i < gr->output_count + gr->vi_count; i++) {
                    uint32_t vi = i < gr->output_count ? gr->output_first + i
                                                       : gr->vi_first + (i - gr->output_count);
                    res_vi[vi] = scope_lookup(m, &sc, m->vinfos.v[vi].name);
                }
                f->next = kfirst[g];
            }
            if (f->next < kfirst[g + 1]) {
                uint32_t c = kids[f->next++];
                st[sp++] = (frame){c, NNAV_NONE};
                continue;
            }
            /* Leaving: the outer definitions are seen again. */
            for (uint32_t v = def_end[g]; v-- > def_first[g];)
                sc.head[sc.rep[v]] = sc.below[v];
            sp--;
        }
    }
    rc = 0;
out:
    nnav_hashtab_free(&sc.tab);
    free(sc.head);
    free(sc.below);
    free(sc.rep);
    free(kfirst);
    free(kids);
    free(st);
    return rc;
}

/* Tables of functions (the one hash table): a function's key is its name
 * (FN_NAME), its name and domain (FN_DOMAIN), or name, domain and overload
 * (FN_IDENTITY); each table hashes and compares at one of these levels. */
enum { FN_NAME, FN_DOMAIN, FN_IDENTITY };

typedef struct fn_probe {
    const nnav_model *m;
    int level;
    nnav_span name, domain, overload;
} fn_probe;

static uint64_t fn_hash(int level, nnav_span name, nnav_span domain, nnav_span overload)
{
    if (level == FN_IDENTITY)
        return nnav_hash_bytes(name.p, name.n,
                               nnav_hash_bytes(domain.p, domain.n, 13) ^
                                   nnav_hash_bytes(overload.p, overload.n, 17));
    return nnav_hash_bytes(name.p, name.n, level == FN_NAME ? 11 : 7);
}

static int fn_same(const void *ctx, uint32_t id)
{
    const fn_probe *p = ctx;
    const nnav_function *f = &p->m->functions.v[id];
    return nnav_span_same(f->name, p->name) &&
           (p->level < FN_DOMAIN || nnav_span_same(f->domain, p->domain)) &&
           (p->level < FN_IDENTITY || nnav_span_same(f->overload, p->overload));
}

static uint64_t fn_rehash(const void *ctx, uint32_t id)
{
    const fn_probe *p = ctx;
    const nnav_function *f = &p->m->functions.v[id];
    return fn_hash(p->level, f->name, f->domain, f->overload);
}

/* The first function before `i` with function i's key at t's level, or
 * NNAV_NONE after storing i; -1 (as *first NNAV_NONE, i unstored) when out
 * of memory. */
static int fn_add(const nnav_model *m, nnav_hashtab *t, int level, uint32_t i, uint32_t *first)
{
    const nnav_function *f = &m->functions.v[i];
    fn_probe p = {m, level, f->name, f->domain, f->overload};
    uint64_t h = fn_hash(level, f->name, f->domain, f->overload), at = 0;
    *first = nnav_hashtab_find(t, h, fn_same, &p, &at);
    if (*first != NNAV_NONE)
        return 0;
    return nnav_hashtab_put(t, at, h, i, fn_rehash, &p) ? -1 : 0;
}

static int link_functions(nnav_model *m)
{
    if (m->functions.n == 0)
        return 0;
    /* Functions are few; nodes may be millions: hash the functions by name
     * and domain; of two with the same, calls go to the first. */
    nnav_hashtab tab;
    if (nnav_hashtab_init(&tab, m->functions.n))
        return -1;
    for (uint32_t i = 0; i < m->functions.n; i++) {
        uint32_t first;
        if (fn_add(m, &tab, FN_DOMAIN, i, &first)) {
            nnav_hashtab_free(&tab);
            return -1;
        }
    }
    for (uint32_t i = 0; i < m->nodes.n; i++) {
        nnav_node *nd = &m->nodes.v[i];
        fn_probe p = {m, FN_DOMAIN, nd->op, nnav_node_domain(m, i), {0}};
        uint32_t f = nnav_hashtab_find(&tab, fn_hash(FN_DOMAIN, nd->op, p.domain, p.overload),
                                       fn_same, &p, NULL);
        if (f != NNAV_NONE)
            nd->function = f;
    }
    nnav_hashtab_free(&tab);
    return 0;
}

int nnav_index_link(nnav_model *m, nnav_error *err)
{
    /* Values are defined by inputs, initializers and node outputs; undefined
     * uses add a few more, so size for all definitions plus slack. */
    uint64_t outs = 0;
    for (uint32_t n = 0; n < m->nodes.n; n++)
        outs += m->nodes.v[n].out_count;
    uint64_t guess = (uint64_t)m->vinfos.n + m->tensors.n + outs + outs / 8 + 16;
    uint32_t *def_first = NULL, *def_end = NULL, *res_ref = NULL, *res_vi = NULL;
    uint32_t max_depth = 0;
    for (uint32_t g = 0; g < m->graphs.n; g++)
        if (m->graphs.v[g].depth > max_depth)
            max_depth = m->graphs.v[g].depth;
    if (max_depth > SCOPE_WALK_MAX) {
        def_first = malloc(((size_t)m->graphs.n + 1) * sizeof *def_first);
        def_end = malloc(((size_t)m->graphs.n + 1) * sizeof *def_end);
        if (!def_first || !def_end)
            goto oom;
    }
    if (nnav_hashtab_init(&m->value_tab, guess < UINT32_MAX ? guess : UINT32_MAX))
        goto oom;
    /* Definitions, graph by graph: inputs, initializers, sparse, node outputs. */
    for (uint32_t g = 0; g < m->graphs.n; g++) {
        const nnav_graph *gr = &m->graphs.v[g];
        uint32_t id;
        if (def_first)
            def_first[g] = m->values.n;
        for (uint32_t i = 0; i < gr->input_count; i++) {
            nnav_vinfo *vi = &m->vinfos.v[gr->input_first + i];
            if (define(m, g, vi->name, NNAV_VAL_INPUT, gr->input_first + i, &id))
                goto oom;
            vi->value = id;
            if (m->values.v[id].vinfo == NNAV_NONE && vi->type.p)
                m->values.v[id].vinfo = gr->input_first + i;
        }
        for (uint32_t t = gr->init_first; t < gr->init_first + gr->init_count; t++)
            if (define(m, g, m->tensors.v[t].name, NNAV_VAL_INITIALIZER, t, &id))
                goto oom;
        for (uint32_t i = 0; i < gr->sparse_count; i++) {
            const nnav_sparse *sp = &m->sparse.v[gr->sparse_first + i];
            if (sp->values == NNAV_NONE)
                continue;
            if (define(m, g, m->tensors.v[sp->values].name, NNAV_VAL_SPARSE,
                       gr->sparse_first + i, &id))
                goto oom;
        }
        for (uint32_t n = gr->node_first; n < gr->node_first + gr->node_count; n++) {
            nnav_node *nd = &m->nodes.v[n];
            for (uint32_t o = 0; o < nd->out_count; o++) {
                nnav_cref *r = &m->refs.v[nd->out_first + o];
                if (r->n == 0)
                    continue;
                if (define(m, g, nnav_ref_name(m, nd->out_first + o), NNAV_VAL_NODE, n, &id))
                    goto oom;
                r->value = id;
            }
            if (n + PREFETCH_AHEAD < gr->node_first + gr->node_count) {
                const nnav_node *ahead = &m->nodes.v[n + PREFETCH_AHEAD];
                if (ahead->out_count)
                    name_prefetch(&m->value_tab, g, nnav_ref_name(m, ahead->out_first));
            }
        }
        if (def_end)
            def_end[g] = m->values.n;
    }
    if (def_first) {
        res_ref = malloc(((size_t)m->refs.n + 1) * sizeof *res_ref);
        res_vi = malloc(((size_t)m->vinfos.n + 1) * sizeof *res_vi);
        if (!res_ref || !res_vi || resolve_scoped(m, def_first, def_end, res_ref, res_vi) < 0)
            goto oom;
    }
    /* Uses, resolved through enclosing scopes; undefined names get a value of
     * their own so they are flagged, not dropped. */
    for (uint32_t n = 0; n < m->nodes.n; n++) {
        nnav_node *nd = &m->nodes.v[n];
        if (n + PREFETCH_AHEAD < m->nodes.n) {
            const nnav_node *ahead = &m->nodes.v[n + PREFETCH_AHEAD];
            if (ahead->in_count)
                name_prefetch(&m->value_tab, ahead->graph, nnav_ref_name(m, ahead->in_first));
        }
        for (uint32_t i = 0; i < nd->in_count; i++) {
            nnav_cref *r = &m->refs.v[nd->in_first + i];
            if (r->n == 0)
                continue;
            nnav_span name = nnav_ref_name(m, nd->in_first + i);
            uint32_t id = res_ref && res_ref[nd->in_first + i] != RES_UNSET
                              ? res_ref[nd->in_first + i]
                              : nnav_value_lookup(m, nd->graph, (const char *)name.p, name.n);
            if (id == NNAV_NONE && define(m, nd->graph, name, NNAV_VAL_UNDEFINED, NNAV_NONE, &id))
                goto oom;
            r->value = id;
            m->values.v[id].cons_count++;
        }
    }
    /* Outputs and value_info attach types and flags. */
    for (uint32_t g = 0; g < m->graphs.n; g++) {
        const nnav_graph *gr = &m->graphs.v[g];
        for (uint32_t i = 0; i < gr->output_count + gr->vi_count; i++) {
            uint32_t vi_id = i < gr->output_count ? gr->output_first + i
                                                  : gr->vi_first + (i - gr->output_count);
            nnav_vinfo *vi = &m->vinfos.v[vi_id];
            uint32_t id = res_vi && res_vi[vi_id] != RES_UNSET
                              ? res_vi[vi_id]
                              : nnav_value_lookup(m, g, (const char *)vi->name.p, vi->name.n);
            if (id == NNAV_NONE) {
                if (i >= gr->output_count)
                    continue; /* value_info for a name nobody uses: keep it unlinked */
                if (define(m, g, vi->name, NNAV_VAL_UNDEFINED, NNAV_NONE, &id))
                    goto oom;
            }
            vi->value = id;
            if (i < gr->output_count && m->values.v[id].graph == g)
                m->values.v[id].is_output = 1;
            if (m->values.v[id].vinfo == NNAV_NONE && vi->type.p)
                m->values.v[id].vinfo = vi_id;
        }
    }
    /* Consumers: counting sort into one array. A node that reads a value
     * twice is listed once. */
    uint64_t total = 0;
    for (uint32_t v = 0; v < m->values.n; v++) {
        m->values.v[v].cons_first = (uint32_t)total;
        total += m->values.v[v].cons_count;
        m->values.v[v].cons_count = 0;
    }
    if (total >= UINT32_MAX || nnav_vec_reserve(m->consumers, (uint32_t)total + 1))
        goto oom;
    m->consumers.n = (uint32_t)total;
    for (uint32_t n = 0; n < m->nodes.n; n++) {
        const nnav_node *nd = &m->nodes.v[n];
        for (uint32_t i = 0; i < nd->in_count; i++) {
            uint32_t id = m->refs.v[nd->in_first + i].value;
            if (id == NNAV_NONE)
                continue;
            nnav_value *v = &m->values.v[id];
            if (v->cons_count && m->consumers.v[v->cons_first + v->cons_count - 1] == n)
                continue;
            m->consumers.v[v->cons_first + v->cons_count++] = n;
        }
    }
    if (link_functions(m))
        goto oom;
    free(def_first), free(def_end), free(res_ref), free(res_vi);
    return 0;
oom:
    free(def_first), free(def_end), free(res_ref), free(res_vi);
    nnav_err_set(err, 0, 0, "out of memory while linking names");
    return -1;
}

/* ---- open / close ---- */

void nnav_model_close(nnav_model *m)
{
    if (!m)
        return;
    nnav_map_close(&m->map);
    if (m->reader)
        m->reader->free(m);
    if (m->paths) {
        for (uint32_t i = 0; i < m->graphs.n; i++)
            free(m->paths[i]);
        free(m->paths);
    }
    nnav_vec_free(m->graphs);
    nnav_vec_free(m->gspan);
    nnav_vec_free(m->main_parts);
    nnav_vec_free(m->nodes);
    nnav_vec_free(m->refs);
    nnav_vec_free(m->long_refs);
    nnav_vec_free(m->ref_ctl);
    nnav_vec_free(m->node_dom);
    nnav_vec_free(m->values);
    nnav_vec_free(m->consumers);
    nnav_vec_free(m->vinfos);
    nnav_vec_free(m->attrs);
    nnav_vec_free(m->tensors);
    nnav_vec_free(m->dims);
    nnav_vec_free(m->sparse);
    nnav_vec_free(m->functions);
    nnav_vec_free(m->opsets);
    nnav_vec_free(m->metadata);
    nnav_vec_free(m->unknown);
    nnav_vec_free(m->children);
    nnav_hashtab_free(&m->value_tab);
    nnav_hashtab_free(&m->node_tab);
    free(m->path_len);
    free(m->path_top);
    free(m->path_cd);
    free(m->fn_ambig);
    free(m->total_nodes);
    free(m->path);
    free(m->dir);
    free(m);
}

int nnav_model_truncated(const nnav_model *m) { return nnav_map_truncated(&m->map); }

int nnav_model_changed(const nnav_model *m, char *why, size_t n)
{
    struct stat st;
    const nnav_map *mp = &m->map;
    const char *w = NULL;
    if (stat(m->path, &st) != 0)
        w = "it was removed or renamed";
    else if (st.st_dev != mp->dev || st.st_ino != mp->ino)
        w = "another file took its name";
    else if ((uint64_t)st.st_size != mp->size)
        w = "its size changed";
    else if (st.st_mtim.tv_sec != mp->mtime.tv_sec || st.st_mtim.tv_nsec != mp->mtime.tv_nsec)
        w = "it was written to";
    else if (st.st_ctim.tv_sec != mp->ctime.tv_sec || st.st_ctim.tv_nsec != mp->ctime.tv_nsec)
        w = "its inode changed";
    if (!w)
        return 0;
    if (why && n)
        snprintf(why, n, "%s", w);
    return 1;
}

const nnav_model_facts *nnav_model_facts_get(const nnav_model *m) { return &m->facts; }

/* ---- accessors ---- */

uint32_t nnav_opset_count(const nnav_model *m) { return m->model_opset_count; }
const nnav_opset *nnav_opset_get(const nnav_model *m, uint32_t i) { return &m->opsets.v[i]; }
uint32_t nnav_metadata_count(const nnav_model *m) { return m->metadata.n; }
const nnav_kv *nnav_metadata_get(const nnav_model *m, uint32_t i) { return &m->metadata.v[i]; }
uint32_t nnav_graph_count(const nnav_model *m) { return m->graphs.n; }
const nnav_graph *nnav_graph_get(const nnav_model *m, uint32_t id) { return &m->graphs.v[id]; }
uint32_t nnav_node_count(const nnav_model *m) { return m->nodes.n; }
const nnav_node *nnav_node_get(const nnav_model *m, uint32_t id) { return &m->nodes.v[id]; }
uint32_t nnav_node_index(const nnav_model *m, uint32_t node)
{
    return node - m->graphs.v[m->nodes.v[node].graph].node_first;
}

nnav_span nnav_node_domain(const nnav_model *m, uint32_t node)
{
    if ((node >> 3) >= m->node_dom.n || !(m->node_dom.v[node >> 3] >> (node & 7) & 1) ||
        !m->reader->node_domain)
        return (nnav_span){0};
    return m->reader->node_domain(m, node);
}

nnav_ref nnav_ref_get(const nnav_model *m, uint32_t id)
{
    nnav_ref r = {nnav_ref_name(m, id), m->refs.v[id].value, (uint8_t)nnav_ref_control(m, id)};
    return r;
}

/* Where id's entry is, or would go, in long_refs. */
static uint32_t long_ref_at(const nnav_model *m, uint32_t id)
{
    uint32_t lo = 0, hi = m->long_refs.n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (m->long_refs.v[mid].id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

nnav_span nnav_ref_long_name(const nnav_model *m, uint32_t id)
{
    uint32_t i = long_ref_at(m, id);
    nnav_span s = {m->refs.v[id].p, 0};
    if (i < m->long_refs.n && m->long_refs.v[i].id == id)
        s.n = m->long_refs.v[i].n;
    return s;
}

int nnav_ref_set_name(nnav_model *m, uint32_t id, nnav_span name)
{
    nnav_cref *r = &m->refs.v[id];
    r->p = name.p;
    if (name.n < UINT32_MAX) {
        r->n = (uint32_t)name.n;
        return 0;
    }
    r->n = UINT32_MAX;
    uint32_t i = long_ref_at(m, id);
    if (i < m->long_refs.n && m->long_refs.v[i].id == id) {
        m->long_refs.v[i].n = name.n;
        return 0;
    }
    if (!nnav_vec_push(m->long_refs))
        return -1;
    memmove(&m->long_refs.v[i + 1], &m->long_refs.v[i],
            (m->long_refs.n - 1 - i) * sizeof *m->long_refs.v);
    m->long_refs.v[i] = (nnav_long_ref){id, name.n};
    return 0;
}

int nnav_ref_push(nnav_model *m, nnav_span name, int control)
{
    uint32_t id = m->refs.n;
    nnav_cref *r = nnav_vec_push(m->refs);
    if (!r)
        return -1;
    r->value = NNAV_NONE;
    if (nnav_ref_set_name(m, id, name) < 0) {
        m->refs.n--;
        return -1;
    }
    if (control) {
        uint32_t need = (id >> 3) + 1;
        if (m->ref_ctl.n < need) {
            if (nnav_vec_reserve(m->ref_ctl, need))
                return -1;
            memset(m->ref_ctl.v + m->ref_ctl.n, 0, need - m->ref_ctl.n);
            m->ref_ctl.n = need;
        }
        m->ref_ctl.v[id >> 3] |= (uint8_t)(1u << (id & 7));
    }
    return 0;
}
uint32_t nnav_value_count(const nnav_model *m) { return m->values.n; }
const nnav_value *nnav_value_get(const nnav_model *m, uint32_t id) { return &m->values.v[id]; }
uint32_t nnav_vinfo_count(const nnav_model *m) { return m->vinfos.n; }
const nnav_vinfo *nnav_vinfo_get(const nnav_model *m, uint32_t id) { return &m->vinfos.v[id]; }
uint32_t nnav_attr_count(const nnav_model *m) { return m->attrs.n; }
const nnav_attr *nnav_attr_get(const nnav_model *m, uint32_t id) { return &m->attrs.v[id]; }
uint32_t nnav_tensor_count(const nnav_model *m) { return m->tensors.n; }
const nnav_tensor *nnav_tensor_get(const nnav_model *m, uint32_t id) { return &m->tensors.v[id]; }
const int64_t *nnav_dims(const nnav_model *m, uint32_t first)
{
    static const int64_t none[1];
    return m->dims.v ? m->dims.v + first : none; /* a model with no dims at all: no array */
}
uint32_t nnav_sparse_count(const nnav_model *m) { return m->sparse.n; }
const nnav_sparse *nnav_sparse_get(const nnav_model *m, uint32_t id) { return &m->sparse.v[id]; }
uint32_t nnav_function_count(const nnav_model *m) { return m->functions.n; }
const nnav_function *nnav_function_get(const nnav_model *m, uint32_t id)
{
    return &m->functions.v[id];
}
uint32_t nnav_training_count(const nnav_model *m) { return m->training_count; }
uint32_t nnav_unknown_count(const nnav_model *m) { return m->unknown.n; }
const nnav_unknown *nnav_unknown_get(const nnav_model *m, uint32_t id)
{
    return &m->unknown.v[id];
}

const uint32_t *nnav_value_consumers(const nnav_model *m, uint32_t id, uint32_t *count)
{
    *count = m->values.v[id].cons_count;
    return m->consumers.v ? m->consumers.v + m->values.v[id].cons_first : NULL;
}

const uint32_t *nnav_graph_children(const nnav_model *m, uint32_t id, uint32_t *count)
{
    *count = m->graphs.v[id].child_count;
    return m->children.v ? m->children.v + m->graphs.v[id].child_first : NULL;
}

/* Totals for every graph in one backwards sweep: children have larger ids
 * than their parent (graphs are walked breadth first). -1 when a reader broke
 * that order, or out of memory. */
static int totals_build(nnav_model *m)
{
    uint64_t *t = malloc(((size_t)m->graphs.n + 1) * sizeof *t);
    if (!t)
        return -1;
    for (uint32_t g = m->graphs.n; g-- > 0;) {
        const nnav_graph *gr = &m->graphs.v[g];
        t[g] = gr->node_count;
        for (uint32_t i = 0; i < gr->child_count; i++) {
            uint32_t c = m->children.v[gr->child_first + i];
            if (c <= g || c >= m->graphs.n) {
                free(t);
                return -1;
            }
            t[g] += t[c];
        }
    }
    m->total_nodes = t;
    return 0;
}

uint64_t nnav_graph_total_nodes(const nnav_model *m, uint32_t id)
{
    /* Asked for every graph (nnav tree, the explorer's tree), one walk per
     * graph would cost the nesting depth squared: all are summed once. */
    nnav_model *mm = (nnav_model *)m;
    if (!mm->total_nodes && !mm->totals_failed && totals_build(mm) < 0)
        mm->totals_failed = 1;
    if (mm->total_nodes)
        return mm->total_nodes[id];
    /* Otherwise an explicit stack keeps it iterative however deep the nesting. */
    uint64_t total = 0;
    uint32_t *stack = malloc(((size_t)m->graphs.n + 1) * sizeof *stack);
    if (!stack)
        return m->graphs.v[id].node_count;
    size_t sp = 0;
    stack[sp++] = id;
    while (sp) {
        uint32_t g = stack[--sp];
        total += m->graphs.v[g].node_count;
        for (uint32_t i = 0; i < m->graphs.v[g].child_count; i++)
            stack[sp++] = m->children.v[m->graphs.v[g].child_first + i];
    }
    free(stack);
    return total;
}

/* ---- graph paths ----
 * "/" main graph; "/NODE/ATTR" a body (NODE is the node's name, or #INDEX when
 * unnamed; ATTR[i] for a GRAPHS list); nested bodies continue the path;
 * "@NAME" a function (domain-qualified "@DOMAIN:NAME" when the name alone is
 * ambiguous, ":OVERLOAD" appended when set); "~training[i]/initialization" and
 * "~training[i]/algorithm". Names are escaped as everywhere else. */

/* Escaped copy of a span, malloc'd: at most 4 output bytes per input byte. */
static char *esc_dup(nnav_span sp)
{
    size_t n = (size_t)sp.n * 4 + 1;
    char *b = malloc(n);
    if (b)
        nnav_text_escape(sp.p, (size_t)sp.n, b, n);
    return b;
}

/* Which functions share their name with another (their paths then name the
 * domain too): found once, with a hash of the names, for all functions;
 * asking for each path would cost the number of functions every time. NULL
 * when out of memory (the caller then compares names itself). */
static const uint8_t *fn_ambiguous(const nnav_model *m)
{
    nnav_model *mm = (nnav_model *)m;
    if (mm->fn_ambig || m->functions.n == 0)
        return mm->fn_ambig;
    nnav_hashtab byname = {0}, byid = {0};
    uint8_t *amb = calloc(m->functions.n, 1);
    int bad = !amb || nnav_hashtab_init(&byname, m->functions.n) ||
              nnav_hashtab_init(&byid, m->functions.n);
    /* Bit 1: the name of another function. Bit 2: the same identity
     * (domain, name, overload) as an earlier function: an invalid model, but
     * each still needs a path of its own. */
    for (uint32_t i = 0; i < m->functions.n && !bad; i++) {
        uint32_t first;
        bad = fn_add(m, &byname, FN_NAME, i, &first) != 0;
        if (first != NNAV_NONE)
            amb[i] = amb[first] = 1;
        bad = bad || fn_add(m, &byid, FN_IDENTITY, i, &first) != 0;
        if (first != NNAV_NONE)
            amb[i] |= 2;
    }
    nnav_hashtab_free(&byname);
    nnav_hashtab_free(&byid);
    if (bad) {
        free(amb);
        return NULL;
    }
    mm->fn_ambig = amb;
    return amb;
}

/* The path of a root graph (main, function, training). */
static char *root_path(const nnav_model *m, uint32_t id)
{
    const nnav_graph *g = &m->graphs.v[id];
    char head[64];
    if (g->kind == NNAV_GRAPH_TRAINING_INIT || g->kind == NNAV_GRAPH_TRAINING_ALGO) {
        snprintf(head, sizeof head, "~training[%u]/%s", g->training,
                 g->kind == NNAV_GRAPH_TRAINING_INIT ? "initialization" : "algorithm");
        return strdup(head);
    }
    if (g->kind != NNAV_GRAPH_FUNCTION) {
        /* Several roots: a SavedModel's MetaGraphs after the first. */
        snprintf(head, sizeof head, id ? "~meta[%u]" : "/", id);
        return strdup(head);
    }
    const nnav_function *f = &m->functions.v[g->function];
    const uint8_t *amb = fn_ambiguous(m);
    int ambiguous = 0, twin = 0;
    if (amb)
        ambiguous = amb[g->function] & 1, twin = amb[g->function] & 2;
    else
        for (uint32_t i = 0; i < m->functions.n && !ambiguous; i++)
            ambiguous = i != g->function && nnav_span_same(m->functions.v[i].name, f->name);
    char *name = esc_dup(f->name), *dom = esc_dup(ambiguous ? f->domain : (nnav_span){0});
    char *ovl = esc_dup(f->overload);
    char *out = NULL;
    if (name && dom && ovl) {
        size_t n = strlen(name) + strlen(dom) + strlen(ovl) + 24;
        out = malloc(n);
        if (out) {
            int k = snprintf(out, n, "@%s%s%s%s%s", dom, ambiguous ? ":" : "", name,
                             ovl[0] ? ":" : "", ovl);
            /* A second function of the same identity: "#INDEX", its place
             * among the model's functions. */
            if (twin && k > 0)
                snprintf(out + k, n - (size_t)k, "#%u", g->function);
        }
    }
    free(name), free(dom), free(ovl);
    return out;
}

/* A body's own segment: "NODE/ATTR", "#INDEX/ATTR", "NODE/ATTR[i]"; a
 * function's graph-valued attribute default has no node: "ATTR". */
static char *body_segment(const nnav_model *m, uint32_t id)
{
    const nnav_graph *g = &m->graphs.v[id];
    const nnav_attr *a = &m->attrs.v[g->owner_attr];
    char *node = NULL, *attr = NULL, *out = NULL;
    if (a->name.n) {
        attr = esc_dup(a->name);
    } else if ((attr = malloc(16)) != NULL) {
        /* An unnamed attribute is #INDEX, its place in the node, as an
         * unnamed node is #INDEX in its graph. */
        uint32_t first = g->owner_node != NNAV_NONE ? m->nodes.v[g->owner_node].attr_first
                                                     : m->functions.v[m->graphs.v[g->parent].function].attr_first;
        snprintf(attr, 16, "#%u", g->owner_attr - first);
    }
    if (g->owner_node != NNAV_NONE) {
        const nnav_node *nd = &m->nodes.v[g->owner_node];
        if (nd->name.n)
            node = esc_dup(nd->name);
        else if ((node = malloc(16)) != NULL)
            snprintf(node, 16, "#%u", nnav_node_index(m, g->owner_node));
    } else {
        node = strdup("");
    }
    if (node && attr) {
        size_t n = strlen(node) + strlen(attr) + 24;
        out = malloc(n);
        if (out) {
            int k = snprintf(out, n, "%s%s%s", node, node[0] ? "/" : "", attr);
            if (g->list_index != NNAV_NONE)
                snprintf(out + k, n - (size_t)k, "[%u]", g->list_index);
        }
    }
    free(node);
    free(attr);
    return out;
}

/* ---- path text without walking the whole chain ----
 * Every graph's path length is known exactly (one pass over the graphs, each
 * from its parent's), and the text is written only as far as the caller's
 * buffer: the root, then body segments from the top down. A chain thousands
 * deep would otherwise cost its depth for each path asked, and its depth
 * squared for a listing of all of them (nnav tree, the explorer's tree).
 * Each segment is at least 3 bytes ("#0/x" less the x, plus its '/'), so the
 * first PATH_TOP segments fill any buffer of 4096 bytes: path_top[g] is g's
 * ancestor at that depth, and a deeper graph's text starts from there. */
#define PATH_TOP 1366
/* Short paths are kept (the explorer asks again and again); long ones are
 * written again when asked, so many bodies under a long name do not hold
 * their paths' bytes times their count. */
#define PATH_CACHE_LEN 256

/* Does root r's path read "/"? (root_path's rule, without building it.) */
static int root_is_slash(const nnav_model *m, uint32_t r)
{
    if (r == NNAV_NONE)
        return 1;
    uint8_t k = m->graphs.v[r].kind;
    return r == 0 && k != NNAV_GRAPH_FUNCTION && k != NNAV_GRAPH_TRAINING_INIT &&
           k != NNAV_GRAPH_TRAINING_ALGO;
}

/* Text written up to a buffer's end, never past it: a prefix of the whole. */
typedef struct pw {
    char *buf;
    size_t n, o; /* room for n - 1 bytes; o written */
    char *tmp;   /* n + 16 bytes: an escape that straddles the end is cut whole */
} pw;

static void pw_lit(pw *w, const char *s, size_t k)
{
    size_t room = w->n - 1 - w->o;
    if (k > room)
        k = room;
    memcpy(w->buf + w->o, s, k);
    w->o += k;
}

static void pw_esc(pw *w, nnav_span s)
{
    size_t room = w->n - 1 - w->o;
    if (room == 0)
        return;
    /* Escaping stops once the buffer is full: cost follows the room, not
     * the name (a megabyte-long name in a path costs what is shown). */
    size_t k = nnav_text_escape(s.p, (size_t)s.n, w->tmp, room + 16);
    pw_lit(w, w->tmp, k);
}

/* The pieces of a body's segment: "NODE/ATTR[i]" (see body_segment). */
static void seg_labels(const nnav_model *m, uint32_t id, char *node_idx, char *attr_idx)
{
    const nnav_graph *g = &m->graphs.v[id];
    const nnav_attr *a = &m->attrs.v[g->owner_attr];
    node_idx[0] = attr_idx[0] = 0;
    if (!a->name.n) {
        uint32_t first = g->owner_node != NNAV_NONE ? m->nodes.v[g->owner_node].attr_first
                                                     : m->functions.v[m->graphs.v[g->parent].function].attr_first;
        snprintf(attr_idx, 16, "#%u", g->owner_attr - first);
    }
    if (g->owner_node != NNAV_NONE && !m->nodes.v[g->owner_node].name.n)
        snprintf(node_idx, 16, "#%u", nnav_node_index(m, g->owner_node));
}

static void seg_write(const nnav_model *m, uint32_t id, pw *w)
{
    const nnav_graph *g = &m->graphs.v[id];
    char ni[16], ai[16], li[16];
    seg_labels(m, id, ni, ai);
    if (g->owner_node != NNAV_NONE) {
        if (ni[0])
            pw_lit(w, ni, strlen(ni));
        else
            pw_esc(w, m->nodes.v[g->owner_node].name);
        pw_lit(w, "/", 1);
    }
    if (ai[0])
        pw_lit(w, ai, strlen(ai));
    else
        pw_esc(w, m->attrs.v[g->owner_attr].name);
    if (g->list_index != NNAV_NONE) {
        int k = snprintf(li, sizeof li, "[%u]", g->list_index);
        pw_lit(w, li, (size_t)k);
    }
}

static uint64_t esc_len(nnav_span s, int *oom)
{
    char *e = esc_dup(s);
    if (!e) {
        *oom = 1;
        return 0;
    }
    uint64_t k = strlen(e);
    free(e);
    return k;
}

/* A segment's length. The bodies of one node come one after another, so the
 * lengths of the last node's and attribute's names are remembered: a node
 * with many bodies escapes its name once. */
typedef struct seg_memo {
    uint32_t node, attr;
    uint64_t node_len, attr_len;
} seg_memo;

static uint64_t seg_len(const nnav_model *m, uint32_t id, seg_memo *mo, int *oom)
{
    const nnav_graph *g = &m->graphs.v[id];
    char ni[16], ai[16], li[16];
    uint64_t len = 0;
    seg_labels(m, id, ni, ai);
    if (g->owner_node != NNAV_NONE) {
        if (ni[0]) {
            len += strlen(ni);
        } else {
            if (mo->node != g->owner_node) {
                mo->node_len = esc_len(m->nodes.v[g->owner_node].name, oom);
                mo->node = g->owner_node;
            }
            len += mo->node_len;
        }
        len++;
    }
    if (ai[0]) {
        len += strlen(ai);
    } else {
        if (mo->attr != g->owner_attr) {
            mo->attr_len = esc_len(m->attrs.v[g->owner_attr].name, oom);
            mo->attr = g->owner_attr;
        }
        len += mo->attr_len;
    }
    if (g->list_index != NNAV_NONE)
        len += (uint64_t)snprintf(li, sizeof li, "[%u]", g->list_index);
    return len;
}

/* Lengths, body depths and top ancestors of every graph, each from its
 * parent's. A body's parent chain ends at a root (or at none: then "/"). */
static int path_index(nnav_model *m)
{
    uint32_t ng = m->graphs.n;
    uint64_t *len = malloc(((size_t)ng + 1) * sizeof *len);
    uint32_t *top = malloc(((size_t)ng + 1) * sizeof *top);
    uint32_t *cd = malloc(((size_t)ng + 1) * sizeof *cd);
    uint32_t *chain = malloc(((size_t)ng + 1) * sizeof *chain);
    uint8_t *done = calloc((size_t)ng + 1, 1);
    seg_memo mo = {NNAV_NONE, NNAV_NONE, 0, 0};
    int oom = !len || !top || !cd || !chain || !done;
    for (uint32_t g = 0; g < ng && !oom; g++) {
        uint32_t k = 0, x = g;
        while (x != NNAV_NONE && !done[x] && m->graphs.v[x].kind == NNAV_GRAPH_BODY && k < ng) {
            chain[k++] = x;
            x = m->graphs.v[x].parent;
        }
        if (x != NNAV_NONE && !done[x]) {
            if (m->graphs.v[x].kind == NNAV_GRAPH_BODY) {
                x = NNAV_NONE; /* parents in a cycle: no reader makes one */
            } else {
                char *r = root_path(m, x);
                if (!r) {
                    oom = 1;
                    break;
                }
                len[x] = strlen(r);
                free(r);
                top[x] = x;
                cd[x] = 0;
                done[x] = 1;
            }
        }
        while (k-- > 0) {
            uint32_t b = chain[k];
            uint64_t plen = x == NNAV_NONE ? 1 : len[x];
            int slash = x == NNAV_NONE || (m->graphs.v[x].kind != NNAV_GRAPH_BODY && root_is_slash(m, x));
            len[b] = plen + (slash ? 0 : 1) + seg_len(m, b, &mo, &oom);
            cd[b] = x == NNAV_NONE || m->graphs.v[x].kind != NNAV_GRAPH_BODY ? 1 : cd[x] + 1;
            top[b] = cd[b] <= PATH_TOP ? b : top[x];
            done[b] = 1;
            x = b;
        }
    }
    free(chain);
    free(done);
    if (oom) {
        free(len), free(top), free(cd);
        return -1;
    }
    m->path_len = len;
    m->path_top = top;
    m->path_cd = cd;
    return 0;
}

/* Write the first n - 1 bytes of graph id's path (and a NUL). */
static int path_write(const nnav_model *m, uint32_t id, char *buf, size_t n)
{
    uint64_t want = m->path_len[id] < n - 1 ? m->path_len[id] : n - 1;
    uint32_t start = id;
    if (m->graphs.v[id].kind == NNAV_GRAPH_BODY && m->path_cd[id] > PATH_TOP)
        start = m->path_top[id];
    pw w = {buf, n, 0, malloc(n + 16)};
    uint32_t *chain = NULL;
    int rc = -1;
    for (int pass = 0; pass < 2 && w.tmp; pass++) {
        /* Pass 0 from the top ancestor; pass 1, when the buffer outgrew what
         * its segments write, from the graph itself. */
        uint32_t from = pass ? id : start, k = 0, x = from;
        uint32_t max = (x != NNAV_NONE && m->graphs.v[x].kind == NNAV_GRAPH_BODY ? m->path_cd[x] : 0) + 1;
        free(chain);
        if (!(chain = malloc((size_t)max * sizeof *chain)))
            break;
        while (x != NNAV_NONE && m->graphs.v[x].kind == NNAV_GRAPH_BODY && k < max) {
            chain[k++] = x;
            x = m->graphs.v[x].parent;
        }
        if (x != NNAV_NONE && m->graphs.v[x].kind == NNAV_GRAPH_BODY)
            x = NNAV_NONE;
        char *root = x == NNAV_NONE ? strdup("/") : root_path(m, x);
        if (!root)
            break;
        w.o = 0;
        pw_lit(&w, root, strlen(root));
        int slash = x == NNAV_NONE || root_is_slash(m, x);
        free(root);
        while (k-- > 0 && w.o < want) {
            if (!slash)
                pw_lit(&w, "/", 1);
            slash = 0;
            seg_write(m, chain[k], &w);
        }
        if (w.o >= want || from == id) {
            rc = 0;
            break;
        }
    }
    buf[w.o] = 0;
    free(chain);
    free(w.tmp);
    return rc;
}

size_t nnav_graph_path(const nnav_model *m, uint32_t id, char *buf, size_t n)
{
    nnav_model *mm = (nnav_model *)m;
    if (!mm->path_len && path_index(mm) < 0)
        return 0;
    uint64_t len = m->path_len[id];
    if (!buf || !n)
        return (size_t)len;
    if (mm->paths && mm->paths[id]) {
        size_t k = len < n - 1 ? (size_t)len : n - 1;
        memcpy(buf, mm->paths[id], k);
        buf[k] = 0;
        return (size_t)len;
    }
    if (path_write(m, id, buf, n) < 0) {
        buf[0] = 0;
        return 0;
    }
    if (len < PATH_CACHE_LEN && len < n) {
        if (!mm->paths)
            mm->paths = calloc(m->graphs.n ? m->graphs.n : 1, sizeof *mm->paths);
        if (mm->paths)
            mm->paths[id] = strdup(buf);
    }
    return (size_t)len;
}

/* Match a path against the tree, segment by segment from a root. Node names
 * may hold '/', so every child whose segment matches is tried (a stack of
 * (graph, offset) states); the cost is linear in the graphs visited. */
static uint32_t by_path(const nnav_model *m, const char *path, size_t pl);

uint32_t nnav_graph_by_path(const nnav_model *m, const char *path)
{
    size_t pl = strlen(path);
    uint32_t g = by_path(m, path, pl);
    /* Accept a trailing slash as users type it ("/Loop_0/body/"), when the
     * path as given names nothing. */
    while (g == NNAV_NONE && pl > 1 && path[pl - 1] == '/')
        g = by_path(m, path, --pl);
    return g;
}

static uint32_t by_path(const nnav_model *m, const char *path, size_t pl)
{
    typedef struct { uint32_t g; size_t off; } state;
    NNAV_VEC(state) st = {0};
    uint32_t found = NNAV_NONE;
    for (uint32_t r = 0; r < m->graphs.n && found == NNAV_NONE; r++) {
        if (m->graphs.v[r].parent != NNAV_NONE)
            continue;
        char *rp = root_path(m, r);
        if (!rp)
            break;
        size_t rl = strlen(rp);
        /* Functions may also be named with their domain. */
        char *alt = NULL;
        if (m->graphs.v[r].kind == NNAV_GRAPH_FUNCTION) {
            const nnav_function *f = &m->functions.v[m->graphs.v[r].function];
            char *d = esc_dup(f->domain), *nm = esc_dup(f->name);
            if (d && nm && (alt = malloc(strlen(d) + strlen(nm) + 3)) != NULL)
                sprintf(alt, "@%s:%s", d, nm);
            free(d), free(nm);
        }
        for (int pass = 0; pass < 2 && found == NNAV_NONE; pass++) {
            const char *cand = pass ? alt : rp;
            if (!cand)
                continue;
            size_t cl = strlen(cand);
            if (cl > pl || memcmp(cand, path, cl) != 0)
                continue;
            if (cl == pl) {
                found = r;
            } else {
                state *s0 = nnav_vec_push(st);
                if (s0)
                    s0->g = r, s0->off = cl;
            }
        }
        (void)rl;
        free(rp);
        free(alt);
    }
    while (found == NNAV_NONE && st.n) {
        state cur = st.v[--st.n];
        /* After the main graph's "/" a segment follows directly. */
        size_t start = cur.off;
        if (!(cur.off == 1 && path[0] == '/' && m->graphs.v[cur.g].kind == NNAV_GRAPH_MAIN)) {
            if (path[start] != '/')
                continue;
            start++;
        }
        const nnav_graph *g = &m->graphs.v[cur.g];
        for (uint32_t c = 0; c < g->child_count && found == NNAV_NONE; c++) {
            uint32_t child = m->children.v[g->child_first + c];
            char *seg = body_segment(m, child);
            if (!seg)
                continue;
            size_t sl = strlen(seg);
            if (start + sl <= pl && memcmp(path + start, seg, sl) == 0) {
                if (start + sl == pl) {
                    found = child;
                } else if (path[start + sl] == '/') {
                    state *s1 = nnav_vec_push(st);
                    if (s1)
                        s1->g = child, s1->off = start + sl;
                }
            }
            free(seg);
        }
    }
    nnav_vec_free(st);
    return found;
}

/* ---- search ---- */

struct nnav_search {
    const nnav_model *m;
    char *pat;
    size_t plen;
    size_t *next; /* KMP: longest proper border of pat[0..i] */
    int op_only;
    uint64_t pos, total; /* over nodes, then values, then tensors */
    NNAV_VEC(nnav_hit) hits;
};

/* Knuth-Morris-Pratt over the lowered name: a long pattern against a long
 * name costs their sum, where trying every start cost their product (a
 * megabyte of 'a' searched for a thousand 'a' and a 'b': 0.45 s each). */
static int ci_contains(const nnav_search *q, nnav_span s)
{
    const char *pat = q->pat;
    size_t plen = q->plen, j = 0;
    if (plen == 0)
        return 1;
    if (s.n < plen)
        return 0;
    for (uint64_t i = 0; i < s.n; i++) {
        unsigned char c = (unsigned char)tolower(s.p[i]);
        while (j > 0 && c != (unsigned char)pat[j])
            j = q->next[j - 1];
        if (c == (unsigned char)pat[j] && ++j == plen)
            return 1;
    }
    return 0;
}

static int ci_equals(nnav_span s, const char *pat, size_t plen)
{
    if (s.n != plen)
        return 0;
    for (size_t j = 0; j < plen; j++)
        if (tolower(s.p[j]) != (unsigned char)pat[j])
            return 0;
    return 1;
}

nnav_search *nnav_search_new(const nnav_model *m, const char *pattern)
{
    nnav_search *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->m = m;
    if (!strncmp(pattern, "op:", 3)) {
        s->op_only = 1;
        pattern += 3;
    }
    s->pat = strdup(pattern);
    if (!s->pat) {
        free(s);
        return NULL;
    }
    s->plen = strlen(s->pat);
    for (size_t i = 0; i < s->plen; i++)
        s->pat[i] = (char)tolower((unsigned char)s->pat[i]);
    s->next = malloc((s->plen + 1) * sizeof *s->next);
    if (!s->next) {
        free(s->pat);
        free(s);
        return NULL;
    }
    s->next[0] = 0;
    for (size_t i = 1, k = 0; i < s->plen; i++) {
        while (k > 0 && s->pat[i] != s->pat[k])
            k = s->next[k - 1];
        if (s->pat[i] == s->pat[k])
            k++;
        s->next[i] = k;
    }
    s->total = s->op_only ? m->nodes.n : (uint64_t)m->nodes.n + m->values.n + m->tensors.n;
    return s;
}

static int add_hit(nnav_search *s, uint8_t kind, uint32_t id, uint32_t graph)
{
    nnav_hit *h = nnav_vec_push(s->hits);
    if (!h)
        return -1;
    h->kind = kind;
    h->id = id;
    h->graph = graph;
    return 0;
}

int nnav_search_step(nnav_search *s, uint64_t budget)
{
    const nnav_model *m = s->m;
    uint64_t end = budget < s->total - s->pos ? s->pos + budget : s->total;
    for (; s->pos < end; s->pos++) {
        uint64_t i = s->pos;
        if (i < m->nodes.n) {
            const nnav_node *nd = &m->nodes.v[i];
            if (s->op_only) {
                if (ci_equals(nd->op, s->pat, s->plen) && add_hit(s, NNAV_HIT_OP, (uint32_t)i, nd->graph))
                    return -1;
                continue;
            }
            if (ci_contains(s, nd->name)) {
                if (add_hit(s, NNAV_HIT_NODE_NAME, (uint32_t)i, nd->graph))
                    return -1;
            } else if (ci_contains(s, nd->op)) {
                if (add_hit(s, NNAV_HIT_OP, (uint32_t)i, nd->graph))
                    return -1;
            }
            continue;
        }
        i -= m->nodes.n;
        if (i < m->values.n) {
            const nnav_value *v = &m->values.v[i];
            /* Initializers are reported as such below. */
            if (v->kind != NNAV_VAL_INITIALIZER && ci_contains(s, v->name) &&
                add_hit(s, NNAV_HIT_VALUE, (uint32_t)i, v->graph))
                return -1;
            continue;
        }
        i -= m->values.n;
        const nnav_tensor *t = &m->tensors.v[i];
        if (t->owner == NNAV_TOWN_INITIALIZER && ci_contains(s, t->name) &&
            add_hit(s, NNAV_HIT_INITIALIZER, (uint32_t)i, t->graph))
            return -1;
    }
    return s->pos >= s->total;
}

uint64_t nnav_search_progress(const nnav_search *s, uint64_t *total)
{
    if (total)
        *total = s->total;
    return s->pos;
}

const nnav_hit *nnav_search_hits(const nnav_search *s, size_t *count)
{
    *count = s->hits.n;
    return s->hits.v;
}

void nnav_search_free(nnav_search *s)
{
    if (!s)
        return;
    nnav_vec_free(s->hits);
    free(s->pat);
    free(s->next);
    free(s);
}
