/* diff.c - two models compared (contract in diff.h).
 *
 * The work in passes, each linear in the graphs' nodes, refs and tensors:
 *   1. graphs: roots and functions by their path, bodies as their owners
 *      match (a queue: a body pair is compared after its owners);
 *   2. per graph pair: graph inputs and outputs by name then position
 *      (anchors), nodes by name (same operator), then spreading from every
 *      matched pair to its producers and consumers slot by slot, then the
 *      leftovers of one operator along the file's order, then spreading
 *      again, then a leftover name on both sides as an op change;
 *   3. values follow their producers; initializers by name, by the matched
 *      consumer's slot, then by identical bytes;
 *   4. findings: every matched pair is compared (attributes, inputs,
 *      outputs; tensors' dtype, dims and values over the map), entries are
 *      written graph by graph in a unified order, and the per-operator
 *      summary is sorted.
 */
#include <math.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "declutter.h"
#include "diff.h"
#include "dtype.h"
#include "hashtab.h"
#include "shape.h"
#include "tnames.h"
#include "util.h"

#define CHUNK (1u << 20)        /* bytes compared by one memcmp */
#define AHEAD (8u << 20)        /* bytes asked ahead of the comparison (a multiple of CHUNK) */
#define TYPED_MAX (1u << 24)    /* typed-field tensors decoded for comparison, elements */
#define DECODE_MAX (1u << 22)   /* elements decoded to compare two storage types (2 doubles each) */
#define FAN_MAX 64              /* consumers of one value paired by structure */
#define SLOT_SCAN 64            /* a node's slots searched for a value it reads or makes */
#define LOOKAHEAD 8             /* leftovers: how far along B a match is sought */

typedef struct dside {
    const nnav_model *m;
    uint32_t nnodes, nvalues, ntensors, ngraphs;
    uint32_t *node_peer, *node_entry, *value_peer, *tensor_peer, *tensor_entry, *graph_entry;
    uint16_t *node_what;
    uint8_t *transposed;          /* per tensor: paired as its peer's transpose (NULL: none) */
    uint8_t *hidden;              /* declutter: nodes not compared (NULL: none) */
    nnav_shapes *shapes;
    nnav_declutter **decl;        /* per graph, built when asked */
} dside;

struct nnav_diff {
    dside s[2];
    nnav_diff_opts o;
    NNAV_VEC(nnav_diff_fact) facts;
    NNAV_VEC(nnav_diff_graph) graphs;
    NNAV_VEC(nnav_diff_node) nodes;
    NNAV_VEC(nnav_diff_attr) attrs;
    NNAV_VEC(nnav_diff_io) ios;
    NNAV_VEC(nnav_diff_tensor) tensors;
    NNAV_VEC(nnav_diff_opsum) opsums;
    NNAV_VEC(char *) strings;     /* owned texts of facts and notes */
    NNAV_VEC(uint32_t) work;      /* matched node pairs to spread from (A id, B id) */
    nnav_hashtab opsum_tab;
    nnav_diff_totals tot;
    int weights;                  /* a tensor store on either side: tensors alone compared */
    int oom;
};

static const char *const words[] = {"added", "removed", "renamed", "op", "attributes", "inputs",
                                    "outputs", "dtype", "shape", "values", "unread", "type",
                                    "transposed"};
#define NWORDS (sizeof words / sizeof *words)

const char *nnav_diff_word(unsigned bit)
{
    return bit < sizeof words / sizeof *words ? words[bit] : NULL;
}

char nnav_diff_mark(unsigned what)
{
    if (what & NNAV_DIFF_ADDED)
        return '+';
    if (what & NNAV_DIFF_REMOVED)
        return '-';
    return what ? '~' : ' ';
}

/* ---- small things ---- */

/* p, or (NULL: a push or an allocation failed) d->oom set. */
static void *mark_oom(nnav_diff *d, void *p)
{
    if (!p)
        d->oom = 1;
    return p;
}

static void *xcalloc(nnav_diff *d, size_t n, size_t sz)
{
    return mark_oom(d, calloc(n ? n : 1, sz));
}

static uint32_t *none_array(nnav_diff *d, uint32_t n)
{
    uint32_t *p = malloc((n ? n : 1) * sizeof *p);
    if (!p) {
        d->oom = 1;
        return NULL;
    }
    memset(p, 0xff, (n ? n : 1) * sizeof *p);
    return p;
}

static const char *keep(nnav_diff *d, const char *s)
{
    if (!s)
        return NULL;
    char *c = strdup(s);
    char **slot = c ? nnav_vec_push(d->strings) : NULL;
    if (!slot) {
        free(c);
        d->oom = 1;
        return "";
    }
    *slot = c;
    return c;
}

static int span_eq(nnav_span a, nnav_span b) { return nnav_span_same(a, b); }

static int same_op(const dside *A, uint32_t a, const dside *B, uint32_t b)
{
    const nnav_node *na = nnav_node_get(A->m, a), *nb = nnav_node_get(B->m, b);
    if (!span_eq(na->op, nb->op))
        return 0;
    return span_eq(nnav_node_domain(A->m, a), nnav_node_domain(B->m, b));
}

static int is_hidden(const dside *s, uint32_t node) { return s->hidden && s->hidden[node]; }

/* ---- facts ---- */

static void fact(nnav_diff *d, const char *key, const char *a, const char *b)
{
    if ((!a && !b) || (a && b && !strcmp(a, b)))
        return;
    nnav_diff_fact *f = mark_oom(d, nnav_vec_push(d->facts));
    if (!f)
        return;
    f->key = keep(d, key);
    f->a = keep(d, a);
    f->b = keep(d, b);
}

static void fact_int(nnav_diff *d, const char *key, int64_t a, int64_t b)
{
    char x[32], y[32];
    snprintf(x, sizeof x, "%lld", (long long)a);
    snprintf(y, sizeof y, "%lld", (long long)b);
    fact(d, key, a < 0 ? NULL : x, b < 0 ? NULL : y);
}

static void fact_span(nnav_diff *d, const char *key, nnav_span a, nnav_span b)
{
    if (span_eq(a, b))
        return;
    char x[1024], y[1024];
    nnav_text_escape(a.p, (size_t)a.n, x, sizeof x);
    nnav_text_escape(b.p, (size_t)b.n, y, sizeof y);
    fact(d, key, a.n ? x : NULL, b.n ? y : NULL);
}

/* A keyed list of a model's facts (opsets by domain, metadata by key):
 * one fact per key of either side. Lists are short; a hostile one is
 * compared up to `most` items (the search is quadratic). */
typedef struct keyed {
    const char *prefix, *empty; /* "opset", and the text of the key "" */
    uint32_t most;
    uint32_t (*count)(const nnav_model *m);
    nnav_span (*key)(const nnav_model *m, uint32_t i);
    void (*value)(const nnav_model *m, uint32_t i, char *buf, size_t n);
} keyed;

static nnav_span opset_key(const nnav_model *m, uint32_t i) { return nnav_opset_get(m, i)->domain; }
static void opset_value(const nnav_model *m, uint32_t i, char *buf, size_t n)
{
    snprintf(buf, n, "%lld", (long long)nnav_opset_get(m, i)->version);
}
static nnav_span meta_key(const nnav_model *m, uint32_t i) { return nnav_metadata_get(m, i)->key; }
static void meta_value(const nnav_model *m, uint32_t i, char *buf, size_t n)
{
    nnav_span v = nnav_metadata_get(m, i)->value;
    nnav_text_escape(v.p, (size_t)v.n, buf, n);
}
static const keyed opsets = {"opset", "ai.onnx", 256, nnav_opset_count, opset_key, opset_value};
static const keyed metadata = {"metadata", "\"\"", 1024, nnav_metadata_count, meta_key,
                               meta_value};

static void compare_keyed(nnav_diff *d, const keyed *k)
{
    for (int pass = 0; pass < 2; pass++) {
        const nnav_model *m = d->s[pass].m, *o = d->s[!pass].m;
        uint32_t n = k->count(m), no = k->count(o);
        n = n > k->most ? k->most : n;
        no = no > k->most ? k->most : no;
        for (uint32_t i = 0; i < n; i++) {
            nnav_span key = k->key(m, i);
            uint32_t other = NNAV_NONE;
            for (uint32_t j = 0; j < no && other == NNAV_NONE; j++)
                if (span_eq(k->key(o, j), key))
                    other = j;
            if (pass && other != NNAV_NONE)
                continue; /* seen from A's side */
            char name[300], ktext[256], mine[1024], theirs[1024];
            nnav_text_escape(key.p, (size_t)key.n, ktext, sizeof ktext);
            snprintf(name, sizeof name, "%s %s", k->prefix, key.n ? ktext : k->empty);
            k->value(m, i, mine, sizeof mine);
            if (other != NNAV_NONE)
                k->value(o, other, theirs, sizeof theirs);
            const char *t = other != NNAV_NONE ? theirs : NULL;
            fact(d, name, pass ? t : mine, pass ? mine : t);
        }
    }
}

static void compare_facts(nnav_diff *d)
{
    const nnav_model *ma = d->s[0].m, *mb = d->s[1].m;
    const nnav_model_facts *fa = nnav_model_facts_get(ma), *fb = nnav_model_facts_get(mb);
    if (fa->format != fb->format)
        fact(d, "format", fa->format_name, fb->format_name);
    fact_int(d, "ir_version", fa->ir_version, fb->ir_version);
    fact_span(d, "producer_name", fa->producer_name, fb->producer_name);
    fact_span(d, "producer_version", fa->producer_version, fb->producer_version);
    fact_span(d, "domain", fa->domain, fb->domain);
    fact_int(d, "model_version", fa->model_version, fb->model_version);
    fact_span(d, "doc_string", fa->doc_string, fb->doc_string);
    fact_span(d, "graph_name", fa->graph_name, fb->graph_name);

    compare_keyed(d, &opsets);
    compare_keyed(d, &metadata);
    /* Signature groups by position: their tags, signature keys and the
     * text facts of the format's own (the version that wrote them). */
    uint32_t ta = nnav_sig_group_count(ma), tb = nnav_sig_group_count(mb);
    const char *word = nnav_sig_group_word(ta ? ma : mb);
    char key[96];
    if (!word)
        word = "group";
    if (ta != tb) {
        snprintf(key, sizeof key, "%ss", word);
        fact_int(d, key, ta, tb);
    }
    for (uint32_t i = 0; i < ta && i < tb && i < 64; i++) {
        for (int what = 0; what < 2; what++) {
            char x[1024], y[1024];
            for (int s = 0; s < 2; s++) {
                const nnav_model *m = s ? mb : ma;
                const nnav_sig_group *g = nnav_sig_group_get(m, i);
                char *buf = s ? y : x;
                size_t len = 0;
                buf[0] = 0;
                uint32_t first = what ? g->sig_first : g->tag_first;
                uint32_t count = what ? g->sig_count : g->tag_count;
                for (uint32_t k = 0; k < count && len + 4 < 1024; k++) {
                    nnav_span sp = what ? nnav_signature_get(m, first + k)->key
                                        : nnav_sig_tag_get(m, first + k);
                    char e[256];
                    nnav_text_escape(sp.p, (size_t)sp.n, e, sizeof e);
                    len += (size_t)snprintf(buf + len, 1024 - len, "%s%s", k ? ", " : "", e);
                    if (len >= 1024)
                        len = 1023;
                }
            }
            snprintf(key, sizeof key, "%s %u %s", word, i, what ? "signatures" : "tags");
            fact(d, key, x, y);
        }
        nnav_sig_fact xa, xb;
        for (uint32_t k = 0; nnav_sig_group_fact(ma, i, k, &xa) == 1 &&
                             nnav_sig_group_fact(mb, i, k, &xb) == 1; k++)
            if (xa.kind == NNAV_DV_TEXT && xb.kind == NNAV_DV_TEXT && !strcmp(xa.key, xb.key)) {
                snprintf(key, sizeof key, "%s %u %s", word, i, xa.key);
                fact_span(d, key, xa.s, xb.s);
            }
    }
}

/* ---- graphs ---- */

static void pair_graphs(nnav_diff *d, uint32_t a, uint32_t b)
{
    dside *A = &d->s[0], *B = &d->s[1];
    if (A->graph_entry[a] != NNAV_NONE || B->graph_entry[b] != NNAV_NONE)
        return;
    nnav_diff_graph *g = mark_oom(d, nnav_vec_push(d->graphs));
    if (!g)
        return;
    g->a = a;
    g->b = b;
    A->graph_entry[a] = B->graph_entry[b] = d->graphs.n - 1;
}

/* Roots and functions by their path; bodies wait for their owners. */
static void pair_top_graphs(nnav_diff *d)
{
    dside *A = &d->s[0], *B = &d->s[1];
    for (uint32_t g = 0; g < A->ngraphs; g++) {
        const nnav_graph *ga = nnav_graph_get(A->m, g);
        if (ga->kind == NNAV_GRAPH_BODY)
            continue;
        char path[1024];
        size_t n = nnav_graph_path(A->m, g, path, sizeof path);
        if (n >= sizeof path)
            continue;
        uint32_t b = nnav_graph_by_path(B->m, path);
        if (b == NNAV_NONE || nnav_graph_get(B->m, b)->kind != ga->kind)
            continue;
        pair_graphs(d, g, b);
    }
}

/* ---- matching nodes ---- */

static void match_nodes(nnav_diff *d, uint32_t a, uint32_t b)
{
    dside *A = &d->s[0], *B = &d->s[1];
    if (A->node_peer[a] != NNAV_NONE || B->node_peer[b] != NNAV_NONE)
        return;
    A->node_peer[a] = b;
    B->node_peer[b] = a;
    uint32_t *w = nnav_vec_push(d->work);
    uint32_t *w2 = w ? nnav_vec_push(d->work) : NULL;
    if (!w2) {
        d->oom = 1;
        return;
    }
    d->work.v[d->work.n - 2] = a;
    d->work.v[d->work.n - 1] = b;
}

static void match_values(nnav_diff *d, uint32_t va, uint32_t vb)
{
    dside *A = &d->s[0], *B = &d->s[1];
    if (va == NNAV_NONE || vb == NNAV_NONE || va >= A->nvalues || vb >= B->nvalues)
        return;
    if (A->value_peer[va] != NNAV_NONE || B->value_peer[vb] != NNAV_NONE)
        return;
    A->value_peer[va] = vb;
    B->value_peer[vb] = va;
}

static void match_tensors(nnav_diff *d, uint32_t ta, uint32_t tb)
{
    dside *A = &d->s[0], *B = &d->s[1];
    if (ta >= A->ntensors || tb >= B->ntensors)
        return;
    if (A->tensor_peer[ta] != NNAV_NONE || B->tensor_peer[tb] != NNAV_NONE)
        return;
    A->tensor_peer[ta] = tb;
    B->tensor_peer[tb] = ta;
}

/* The output slot of node n that makes value v among its first SLOT_SCAN,
 * else NNAV_NONE (a node with a million outputs is scanned no further: two
 * such slots compare as equal, which only lets a pair match). */
static uint32_t out_slot(const nnav_model *m, uint32_t n, uint32_t v)
{
    const nnav_node *nd = nnav_node_get(m, n);
    for (uint32_t k = 0; k < nd->out_count && k < SLOT_SCAN; k++)
        if (nnav_ref_get(m, nd->out_first + k).value == v)
            return k;
    return NNAV_NONE;
}

/* The node making value v (a node output), or NNAV_NONE. */
static uint32_t producer_node(const dside *s, uint32_t v)
{
    if (v == NNAV_NONE || v >= s->nvalues)
        return NNAV_NONE;
    const nnav_value *val = nnav_value_get(s->m, v);
    if (val->kind != NNAV_VAL_NODE || val->producer >= s->nnodes)
        return NNAV_NONE;
    return val->producer;
}

/* The tensor an initializer value holds, or NNAV_NONE. */
static uint32_t init_tensor(const dside *s, uint32_t v)
{
    if (v == NNAV_NONE || v >= s->nvalues)
        return NNAV_NONE;
    const nnav_value *val = nnav_value_get(s->m, v);
    if (val->kind != NNAV_VAL_INITIALIZER || val->producer >= s->ntensors)
        return NNAV_NONE;
    return val->producer;
}

/* Two values read at the same slot by a matched pair, or named by matched
 * graph outputs: their producers match when both are unmatched nodes of one
 * operator making them at the same output slot. */
static void spread_value(nnav_diff *d, uint32_t va, uint32_t vb, uint32_t ga, uint32_t gb)
{
    dside *A = &d->s[0], *B = &d->s[1];
    uint32_t pa = producer_node(A, va), pb = producer_node(B, vb);
    if (pa != NNAV_NONE && pb != NNAV_NONE) {
        if (nnav_node_get(A->m, pa)->graph != ga || nnav_node_get(B->m, pb)->graph != gb)
            return;
        if (A->node_peer[pa] == NNAV_NONE && B->node_peer[pb] == NNAV_NONE &&
            same_op(A, pa, B, pb) &&
            out_slot(A->m, pa, va) == out_slot(B->m, pb, vb))
            match_nodes(d, pa, pb);
        return;
    }
    uint32_t ta = init_tensor(A, va), tb = init_tensor(B, vb);
    if (ta != NNAV_NONE && tb != NNAV_NONE && nnav_value_get(A->m, va)->graph == ga &&
        nnav_value_get(B->m, vb)->graph == gb && A->tensor_peer[ta] == NNAV_NONE &&
        B->tensor_peer[tb] == NNAV_NONE) {
        match_tensors(d, ta, tb);
        match_values(d, va, vb);
    }
}

/* Which input slot of node n reads value v first, or NNAV_NONE. */
static uint32_t in_slot(const nnav_model *m, uint32_t n, uint32_t v)
{
    const nnav_node *nd = nnav_node_get(m, n);
    for (uint32_t k = 0; k < nd->in_count && k < SLOT_SCAN; k++)
        if (nnav_ref_get(m, nd->in_first + k).value == v)
            return k;
    return NNAV_NONE;
}

/* Spread from the queue of matched pairs until it is empty. */
static void spread(nnav_diff *d, uint32_t ga, uint32_t gb)
{
    dside *A = &d->s[0], *B = &d->s[1];
    while (d->work.n >= 2 && !d->oom) {
        uint32_t b = d->work.v[--d->work.n];
        uint32_t a = d->work.v[--d->work.n];
        const nnav_node *na = nnav_node_get(A->m, a), *nb = nnav_node_get(B->m, b);
        if (na->graph != ga || nb->graph != gb)
            continue;
        uint32_t nin = na->in_count < nb->in_count ? na->in_count : nb->in_count;
        for (uint32_t i = 0; i < nin; i++)
            spread_value(d, nnav_ref_get(A->m, na->in_first + i).value,
                         nnav_ref_get(B->m, nb->in_first + i).value, ga, gb);
        uint32_t nout = na->out_count < nb->out_count ? na->out_count : nb->out_count;
        for (uint32_t k = 0; k < nout; k++) {
            uint32_t va = nnav_ref_get(A->m, na->out_first + k).value;
            uint32_t vb = nnav_ref_get(B->m, nb->out_first + k).value;
            if (va == NNAV_NONE || vb == NNAV_NONE || va >= A->nvalues || vb >= B->nvalues)
                continue;
            match_values(d, va, vb);
            uint32_t nca = 0, ncb = 0;
            const uint32_t *ca = nnav_value_consumers(A->m, va, &nca);
            const uint32_t *cb = nnav_value_consumers(B->m, vb, &ncb);
            if (nca > FAN_MAX)
                nca = FAN_MAX;
            if (ncb > FAN_MAX)
                ncb = FAN_MAX;
            for (uint32_t i = 0; i < nca; i++) {
                uint32_t x = ca[i];
                if (x >= A->nnodes || A->node_peer[x] != NNAV_NONE ||
                    nnav_node_get(A->m, x)->graph != ga)
                    continue;
                uint32_t sx = in_slot(A->m, x, va);
                for (uint32_t j = 0; j < ncb; j++) {
                    uint32_t y = cb[j];
                    if (y >= B->nnodes || B->node_peer[y] != NNAV_NONE ||
                        nnav_node_get(B->m, y)->graph != gb || !same_op(A, x, B, y) ||
                        in_slot(B->m, y, vb) != sx)
                        continue;
                    match_nodes(d, x, y);
                    break;
                }
            }
        }
    }
}

/* ---- leftovers: one operator's unmatched nodes along the file's order ---- */

typedef struct opkey {
    uint32_t rep_side, rep;        /* a node showing the key */
    uint32_t head[2], tail[2], count[2];
} opkey;

typedef struct keyctx {
    const nnav_diff *d;
    const opkey *keys;
    int side;
    uint32_t node;
} keyctx;

static uint64_t op_hash(const nnav_model *m, uint32_t n)
{
    const nnav_node *nd = nnav_node_get(m, n);
    nnav_span dom = nnav_node_domain(m, n);
    uint64_t h = nnav_hash_bytes(nd->op.p, nd->op.n, 0x9e3779b97f4a7c15ULL);
    return nnav_hash_bytes(dom.p, dom.n, h);
}

static int key_eq(const void *ctx, uint32_t id)
{
    const keyctx *k = ctx;
    const opkey *e = &k->keys[id];
    return same_op(&k->d->s[e->rep_side], e->rep, &k->d->s[k->side], k->node) ||
           /* same_op takes (A, a, B, b) but only compares: either order */
           0;
}

static uint64_t key_rehash(const void *ctx, uint32_t id)
{
    const keyctx *k = ctx;
    const opkey *e = &k->keys[id];
    return op_hash(k->d->s[e->rep_side].m, e->rep);
}

/* A node's signature for the leftovers: its attributes' bytes and counts. */
static uint64_t node_sig(const nnav_model *m, uint32_t n)
{
    const nnav_node *nd = nnav_node_get(m, n);
    uint64_t h = nnav_hashtab_mix64(((uint64_t)nd->in_count << 32) ^ nd->out_count);
    for (uint32_t i = 0; i < nd->attr_count && i < 256; i++) {
        const nnav_attr *at = nnav_attr_get(m, nd->attr_first + i);
        if (at->type == NNAV_ATTR_GRAPH || at->type == NNAV_ATTR_GRAPHS)
            h = nnav_hash_bytes(at->name.p, at->name.n, h);
        else
            h = nnav_hash_bytes(at->msg.p, at->msg.n, h);
    }
    return h;
}

static void match_leftovers(nnav_diff *d, uint32_t ga, uint32_t gb)
{
    dside *S[2] = {&d->s[0], &d->s[1]};
    const nnav_graph *G[2] = {nnav_graph_get(S[0]->m, ga), nnav_graph_get(S[1]->m, gb)};
    NNAV_VEC(opkey) keys = {0};
    nnav_hashtab tab = {0};
    uint32_t *next[2] = {NULL, NULL};
    for (int s = 0; s < 2; s++)
        next[s] = none_array(d, G[s]->node_count);
    if (!next[0] || !next[1])
        goto out;
    for (int s = 0; s < 2; s++) {
        for (uint32_t i = 0; i < G[s]->node_count; i++) {
            uint32_t n = G[s]->node_first + i;
            if (S[s]->node_peer[n] != NNAV_NONE)
                continue;
            keyctx kc = {d, keys.v, s, n};
            uint64_t h = op_hash(S[s]->m, n), at = 0;
            uint32_t id = nnav_hashtab_find(&tab, h, key_eq, &kc, &at);
            if (id == NNAV_NONE) {
                opkey *k = nnav_vec_push(keys);
                if (!k) {
                    d->oom = 1;
                    goto out;
                }
                k->rep_side = (uint32_t)s;
                k->rep = n;
                k->head[0] = k->head[1] = k->tail[0] = k->tail[1] = NNAV_NONE;
                id = keys.n - 1;
                kc.keys = keys.v;
                if (nnav_hashtab_put(&tab, at, h, id, key_rehash, &kc)) {
                    d->oom = 1;
                    goto out;
                }
            }
            opkey *k = &keys.v[id];
            if (k->tail[s] == NNAV_NONE)
                k->head[s] = i;
            else
                next[s][k->tail[s]] = i;
            k->tail[s] = i;
            k->count[s]++;
        }
    }
    for (uint32_t kid = 0; kid < keys.n; kid++) {
        opkey *k = &keys.v[kid];
        if (!k->count[0] || !k->count[1])
            continue;
        if (k->count[0] == k->count[1]) {
            for (uint32_t x = k->head[0], y = k->head[1]; x != NNAV_NONE && y != NNAV_NONE;
                 x = next[0][x], y = next[1][y])
                match_nodes(d, G[0]->node_first + x, G[1]->node_first + y);
            continue;
        }
        /* Unequal counts: pair the ones whose attributes agree, in order,
         * looking a few nodes ahead along B. */
        uint32_t y = k->head[1];
        for (uint32_t x = k->head[0]; x != NNAV_NONE && y != NNAV_NONE; x = next[0][x]) {
            uint64_t sx = node_sig(S[0]->m, G[0]->node_first + x);
            uint32_t c = y;
            for (int look = 0; c != NNAV_NONE && look < LOOKAHEAD; look++, c = next[1][c]) {
                if (node_sig(S[1]->m, G[1]->node_first + c) == sx) {
                    match_nodes(d, G[0]->node_first + x, G[1]->node_first + c);
                    y = next[1][c];
                    break;
                }
            }
        }
    }
out:
    free(next[0]);
    free(next[1]);
    nnav_hashtab_free(&tab);
    nnav_vec_free(keys);
}

/* A name left over on both sides: the same node, its op changed. */
static void match_same_names(nnav_diff *d, uint32_t ga, uint32_t gb)
{
    dside *A = &d->s[0], *B = &d->s[1];
    const nnav_graph *g = nnav_graph_get(A->m, ga);
    for (uint32_t i = 0; i < g->node_count; i++) {
        uint32_t a = g->node_first + i;
        const nnav_node *na = nnav_node_get(A->m, a);
        if (A->node_peer[a] != NNAV_NONE || !na->name.n)
            continue;
        uint32_t b = nnav_node_by_name(B->m, gb, (const char *)na->name.p, (size_t)na->name.n);
        if (b != NNAV_NONE && b < B->nnodes && B->node_peer[b] == NNAV_NONE)
            match_nodes(d, a, b);
    }
}

/* Graph inputs (by name, then position) and outputs (by name, then
 * position): value anchors; an output's producers are matched by it. */
static void match_io(nnav_diff *d, uint32_t ga, uint32_t gb)
{
    dside *A = &d->s[0], *B = &d->s[1];
    const nnav_graph *GA = nnav_graph_get(A->m, ga), *GB = nnav_graph_get(B->m, gb);
    for (int out = 0; out < 2; out++) {
        uint32_t fa = out ? GA->output_first : GA->input_first;
        uint32_t ca = out ? GA->output_count : GA->input_count;
        uint32_t fb = out ? GB->output_first : GB->input_first;
        uint32_t cb = out ? GB->output_count : GB->input_count;
        for (uint32_t i = 0; i < ca; i++) {
            const nnav_vinfo *vi = nnav_vinfo_get(A->m, fa + i);
            if (vi->value == NNAV_NONE || A->value_peer[vi->value] != NNAV_NONE)
                continue;
            uint32_t vb = nnav_value_lookup(B->m, gb, (const char *)vi->name.p, (size_t)vi->name.n);
            if (vb == NNAV_NONE || vb >= B->nvalues)
                continue;
            const nnav_value *v = nnav_value_get(B->m, vb);
            if (v->graph != gb || !(out ? v->is_output : v->is_input))
                continue;
            match_values(d, vi->value, vb);
        }
        /* The rest by position, when both sides have one there. */
        for (uint32_t i = 0; i < ca && i < cb; i++) {
            uint32_t va = nnav_vinfo_get(A->m, fa + i)->value;
            uint32_t vb = nnav_vinfo_get(B->m, fb + i)->value;
            if (va == NNAV_NONE || vb == NNAV_NONE || va >= A->nvalues || vb >= B->nvalues)
                continue;
            if (A->value_peer[va] == NNAV_NONE && B->value_peer[vb] == NNAV_NONE)
                match_values(d, va, vb);
        }
        if (!out)
            continue;
        for (uint32_t i = 0; i < ca; i++) {
            uint32_t va = nnav_vinfo_get(A->m, fa + i)->value;
            if (va == NNAV_NONE || va >= A->nvalues || A->value_peer[va] == NNAV_NONE)
                continue;
            spread_value(d, va, A->value_peer[va], ga, gb);
        }
    }
}

/* B's nodes by name, every one of them: built when a name turns out to be
 * borne by more than one node. Each name's nodes chain in graph order from
 * a cursor past those already matched. */
typedef struct dups_t {
    int built;
    uint32_t gb, first;          /* B's graph and its first node id */
    uint32_t *next;              /* per node of the graph: the next of its name */
    NNAV_VEC(uint32_t) head;     /* per name: its first not-yet-matched node */
    nnav_hashtab tab;            /* name -> index into head */
    const nnav_model *m;
    nnav_span key;               /* the name looked up */
} dups_t;

static int dup_eq(const void *ctx, uint32_t id)
{
    const dups_t *t = ctx;
    return span_eq(nnav_node_get(t->m, t->head.v[id])->name, t->key);
}

static uint64_t dup_rehash(const void *ctx, uint32_t id)
{
    const dups_t *t = ctx;
    nnav_span s = nnav_node_get(t->m, t->head.v[id])->name;
    return nnav_hash_bytes(s.p, s.n, 11);
}

static int dup_table(nnav_diff *d, dups_t *t, uint32_t gb)
{
    const nnav_graph *G = nnav_graph_get(d->s[1].m, gb);
    t->built = 1;
    t->gb = gb;
    t->first = G->node_first;
    t->m = d->s[1].m;
    t->next = none_array(d, G->node_count);
    if (!t->next)
        return -1;
    uint32_t *last = none_array(d, G->node_count); /* per head: its chain's last node */
    if (!last)
        return -1;
    for (uint32_t i = 0; i < G->node_count && !d->oom; i++) {
        uint32_t n = G->node_first + i;
        t->key = nnav_node_get(t->m, n)->name;
        if (!t->key.n)
            continue;
        uint64_t h = nnav_hash_bytes(t->key.p, t->key.n, 11), at = 0;
        uint32_t id = nnav_hashtab_find(&t->tab, h, dup_eq, t, &at);
        if (id == NNAV_NONE) {
            uint32_t *hd = nnav_vec_push(t->head);
            if (!hd) {
                d->oom = 1;
                break;
            }
            *hd = n;
            last[t->head.n - 1] = i;
            if (nnav_hashtab_put(&t->tab, at, h, t->head.n - 1, dup_rehash, t))
                d->oom = 1;
            continue;
        }
        t->next[last[id]] = i;
        last[id] = i;
    }
    free(last);
    return d->oom ? -1 : 0;
}

/* B's first unmatched node named as A's node a, of its operator, or
 * NNAV_NONE; a look at most 64 nodes past the name's cursor. */
static uint32_t dup_next(nnav_diff *d, dups_t *t, uint32_t a)
{
    const dside *A = &d->s[0], *B = &d->s[1];
    t->key = nnav_node_get(A->m, a)->name;
    uint32_t id = nnav_hashtab_find(&t->tab, nnav_hash_bytes(t->key.p, t->key.n, 11), dup_eq, t,
                                    NULL);
    if (id == NNAV_NONE)
        return NNAV_NONE;
    uint32_t *cur = &t->head.v[id];
    while (*cur != NNAV_NONE && B->node_peer[*cur] != NNAV_NONE) {
        uint32_t nx = t->next[*cur - t->first];
        if (nx == NNAV_NONE)
            break;
        *cur = t->first + nx;
    }
    uint32_t n = *cur;
    for (int look = 0; n != NNAV_NONE && look < 64; look++) {
        if (B->node_peer[n] == NNAV_NONE && same_op(A, a, B, n))
            return n;
        uint32_t nx = t->next[n - t->first];
        n = nx == NNAV_NONE ? NNAV_NONE : t->first + nx;
    }
    return NNAV_NONE;
}

static void dup_free(dups_t *t)
{
    free(t->next);
    nnav_vec_free(t->head);
    nnav_hashtab_free(&t->tab);
}

static void match_graph(nnav_diff *d, uint32_t ga, uint32_t gb)
{
    dside *A = &d->s[0], *B = &d->s[1];
    const nnav_graph *GA = nnav_graph_get(A->m, ga);
    d->work.n = 0;
    dups_t dups = {0};
    /* By name, the operator agreeing; a name several nodes bear (the index
     * finds its first) through the table of B's names, in order. */
    for (uint32_t i = 0; i < GA->node_count; i++) {
        uint32_t a = GA->node_first + i;
        const nnav_node *na = nnav_node_get(A->m, a);
        if (!na->name.n)
            continue;
        uint32_t b = nnav_node_by_name(B->m, gb, (const char *)na->name.p, (size_t)na->name.n);
        if (b == NNAV_NONE || b >= B->nnodes)
            continue;
        if (B->node_peer[b] != NNAV_NONE || !same_op(A, a, B, b)) {
            if (!dups.built && dup_table(d, &dups, gb))
                break;
            b = dup_next(d, &dups, a);
        }
        if (b != NNAV_NONE)
            match_nodes(d, a, b);
    }
    dup_free(&dups);
    /* Graph inputs and initializers by name before spreading, so that what
     * spreads meets them as matched. */
    match_io(d, ga, gb);
    for (uint32_t i = 0; i < GA->init_count; i++) {
        uint32_t ta = GA->init_first + i;
        const nnav_tensor *t = nnav_tensor_get(A->m, ta);
        uint32_t va = nnav_value_lookup(A->m, ga, (const char *)t->name.p, (size_t)t->name.n);
        uint32_t vb = nnav_value_lookup(B->m, gb, (const char *)t->name.p, (size_t)t->name.n);
        uint32_t tb = init_tensor(B, vb);
        if (tb == NNAV_NONE || nnav_value_get(B->m, vb)->graph != gb || init_tensor(A, va) != ta)
            continue;
        match_tensors(d, ta, tb);
        match_values(d, va, vb);
    }
    spread(d, ga, gb);
    match_leftovers(d, ga, gb);
    spread(d, ga, gb);
    match_same_names(d, ga, gb);
    spread(d, ga, gb);
}

/* Bodies of a matched pair's attributes: same attribute name, same index. */
static int attr_table(nnav_diff *d, nnav_hashtab *t, const nnav_model *m, const nnav_node *n);
static uint32_t find_attr(nnav_hashtab *t, const nnav_model *m, const nnav_node *n, nnav_span name);

static void pair_bodies(nnav_diff *d, uint32_t ga, uint32_t gb)
{
    dside *A = &d->s[0], *B = &d->s[1];
    const nnav_graph *GA = nnav_graph_get(A->m, ga);
    (void)gb;
    for (uint32_t i = 0; i < GA->node_count && !d->oom; i++) {
        uint32_t a = GA->node_first + i, b = A->node_peer[a];
        if (b == NNAV_NONE)
            continue;
        const nnav_node *na = nnav_node_get(A->m, a), *nb = nnav_node_get(B->m, b);
        nnav_hashtab tb = {0}; /* B's attributes by name when it has many */
        if (attr_table(d, &tb, B->m, nb))
            break;
        for (uint32_t x = 0; x < na->attr_count; x++) {
            const nnav_attr *aa = nnav_attr_get(A->m, na->attr_first + x);
            if (!aa->graph_count)
                continue;
            uint32_t y = find_attr(&tb, B->m, nb, aa->name);
            if (y == NNAV_NONE)
                continue;
            const nnav_attr *ab = nnav_attr_get(B->m, y);
            for (uint32_t k = 0; k < aa->graph_count && k < ab->graph_count; k++)
                pair_graphs(d, aa->graph_first + k, ab->graph_first + k);
        }
        nnav_hashtab_free(&tb);
    }
}

/* Initializers left over: by the matched consumers' slots, then by bytes. */
typedef struct bytectx {
    nnav_diff *d;
    uint32_t ta;
    int side, tries;
} bytectx;

static uint64_t bytes_hash(const nnav_tensor *t)
{
    uint64_t h = nnav_hashtab_mix64((uint64_t)(uint32_t)t->dtype ^ (t->nelems << 8) ^ t->ndims);
    return nnav_hash_bytes(t->data.p, t->data.n < 4096 ? t->data.n : 4096, h);
}

static int never_eq(const void *ctx, uint32_t id)
{
    (void)ctx;
    (void)id;
    return 0;
}

static uint64_t bytes_rehash(const void *ctx, uint32_t id)
{
    const bytectx *b = ctx;
    return bytes_hash(nnav_tensor_get(b->d->s[1].m, id));
}

static int same_dims(const nnav_model *ma, const nnav_tensor *a, const nnav_model *mb,
                     const nnav_tensor *b)
{
    if (a->ndims != b->ndims)
        return 0;
    const int64_t *da = nnav_dims(ma, a->dims_first), *db = nnav_dims(mb, b->dims_first);
    for (uint32_t i = 0; i < a->ndims; i++)
        if (da[i] != db[i])
            return 0;
    return 1;
}

/* One storage type: the element type, and for blocks of quantised weights
 * the reader's name of the blocks (q4_K is not q6_K). */
static int same_type(const nnav_tensor *a, const nnav_tensor *b)
{
    if (a->dtype != b->dtype)
        return 0;
    if (a->dtype != NNAV_DT_QBLOCKS)
        return 1;
    return a->stype && b->stype && !strcmp(a->stype, b->stype);
}

static int bytes_eq(const void *ctx, uint32_t tb)
{
    bytectx *b = (bytectx *)ctx;
    const dside *A = &b->d->s[0], *B = &b->d->s[1];
    if (B->tensor_peer[tb] != NNAV_NONE || b->tries >= 8)
        return 0;
    const nnav_tensor *x = nnav_tensor_get(A->m, b->ta), *y = nnav_tensor_get(B->m, tb);
    if (!same_type(x, y) || x->storage != y->storage || x->typed_field != y->typed_field ||
        !same_dims(A->m, x, B->m, y) || x->data.n != y->data.n || x->warn || y->warn)
        return 0;
    b->tries++;
    return x->data.n == 0 || memcmp(x->data.p, y->data.p, (size_t)x->data.n) == 0;
}

static void match_init_leftovers(nnav_diff *d, uint32_t ga, uint32_t gb)
{
    dside *A = &d->s[0], *B = &d->s[1];
    const nnav_graph *GA = nnav_graph_get(A->m, ga), *GB = nnav_graph_get(B->m, gb);
    for (uint32_t i = 0; i < GA->node_count; i++) {
        uint32_t a = GA->node_first + i, b = A->node_peer[a];
        if (b == NNAV_NONE)
            continue;
        const nnav_node *na = nnav_node_get(A->m, a), *nb = nnav_node_get(B->m, b);
        for (uint32_t k = 0; k < na->in_count && k < nb->in_count; k++) {
            uint32_t va = nnav_ref_get(A->m, na->in_first + k).value;
            uint32_t vb = nnav_ref_get(B->m, nb->in_first + k).value;
            uint32_t ta = init_tensor(A, va), tb = init_tensor(B, vb);
            if (ta == NNAV_NONE || tb == NNAV_NONE || A->tensor_peer[ta] != NNAV_NONE ||
                B->tensor_peer[tb] != NNAV_NONE)
                continue;
            if (nnav_value_get(A->m, va)->graph != ga || nnav_value_get(B->m, vb)->graph != gb)
                continue;
            match_tensors(d, ta, tb);
            match_values(d, va, vb);
        }
    }
    if (d->o.no_values)
        return;
    /* By identical bytes: B's left-over tensors in a table by a hash of
     * dtype, count and the payload's first 4 KiB; each of A's looks there,
     * comparing whole payloads with at most 8 candidates. Payloads in the
     * map only (raw or typed fields): external data is not read for this. */
    nnav_hashtab tab = {0};
    bytectx bc = {d, 0, 0, 0};
    for (uint32_t i = 0; i < GB->init_count && !d->oom; i++) {
        uint32_t tb = GB->init_first + i;
        if (B->tensor_peer[tb] != NNAV_NONE)
            continue;
        const nnav_tensor *t = nnav_tensor_get(B->m, tb);
        if (t->storage != NNAV_STORE_RAW && t->storage != NNAV_STORE_TYPED)
            continue;
        uint64_t at = 0;
        bc.side = 1;
        nnav_hashtab_find(&tab, bytes_hash(t), never_eq, &bc, &at);
        if (nnav_hashtab_put(&tab, at, bytes_hash(t), tb, bytes_rehash, &bc))
            d->oom = 1;
    }
    for (uint32_t i = 0; i < GA->init_count && tab.used && !d->oom; i++) {
        uint32_t ta = GA->init_first + i;
        if (A->tensor_peer[ta] != NNAV_NONE)
            continue;
        const nnav_tensor *t = nnav_tensor_get(A->m, ta);
        if (t->storage != NNAV_STORE_RAW && t->storage != NNAV_STORE_TYPED)
            continue;
        bc.ta = ta;
        bc.tries = 0;
        uint32_t tb = nnav_hashtab_find(&tab, bytes_hash(t), bytes_eq, &bc, NULL);
        if (tb == NNAV_NONE)
            continue;
        match_tensors(d, ta, tb);
        const nnav_tensor *x = nnav_tensor_get(B->m, tb);
        match_values(d, nnav_value_lookup(A->m, ga, (const char *)t->name.p, (size_t)t->name.n),
                     nnav_value_lookup(B->m, gb, (const char *)x->name.p, (size_t)x->name.n));
    }
    nnav_hashtab_free(&tab);
}

/* ---- tensors alone: a store of named tensors on either side ---- */

/* B's initializers of one graph by a name: the file's own, or its
 * canonical spelling (tnames.h) kept in keys. */
typedef struct namectx {
    const nnav_model *m;
    const uint32_t *ids;      /* table id -> tensor id */
    char **keys;              /* canonical names, or NULL: the tensors' own */
    const uint8_t *p;         /* the name looked up */
    size_t n;
} namectx;

static nnav_span name_key(const namectx *c, uint32_t id)
{
    if (c->keys)
        return (nnav_span){(const uint8_t *)c->keys[id], strlen(c->keys[id])};
    return nnav_tensor_get(c->m, c->ids[id])->name;
}

static int name_eq(const void *ctx, uint32_t id)
{
    const namectx *c = ctx;
    nnav_span k = name_key(c, id);
    return k.n == c->n && (!k.n || !memcmp(k.p, c->p, c->n));
}

static uint64_t name_rehash(const void *ctx, uint32_t id)
{
    nnav_span k = name_key(ctx, id);
    return nnav_hash_bytes(k.p, k.n, 29);
}

/* Pairs A's and B's initializers of graphs ga and gb whose names agree
 * (canon: their canonical names), each B tensor once, the first of a
 * repeated name in the file's order. */
static void match_by_name(nnav_diff *d, uint32_t ga, uint32_t gb, int canon)
{
    dside *A = &d->s[0], *B = &d->s[1];
    const nnav_graph *GA = nnav_graph_get(A->m, ga), *GB = nnav_graph_get(B->m, gb);
    uint32_t *ids = calloc(GB->init_count ? GB->init_count : 1, sizeof *ids);
    char **keys = canon ? calloc(GB->init_count ? GB->init_count : 1, sizeof *keys) : NULL;
    nnav_hashtab tab = {0};
    namectx c = {B->m, ids, keys, NULL, 0};
    uint32_t n = 0;
    char buf[1024];
    if (!ids || (canon && !keys)) {
        d->oom = 1;
        goto out;
    }
    for (uint32_t i = 0; i < GB->init_count && !d->oom; i++) {
        uint32_t tb = GB->init_first + i;
        if (B->tensor_peer[tb] != NNAV_NONE)
            continue;
        nnav_span nm = nnav_tensor_get(B->m, tb)->name;
        c.p = nm.p;
        c.n = (size_t)nm.n;
        if (canon) {
            size_t k = nnav_tname_canon(nm.p, (size_t)nm.n, buf, sizeof buf);
            if (!k)
                continue;
            keys[n] = strdup(buf);
            if (!keys[n]) {
                d->oom = 1;
                break;
            }
            c.p = (const uint8_t *)keys[n];
            c.n = k;
        }
        uint64_t h = nnav_hash_bytes(c.p, c.n, 29), at = 0;
        if (nnav_hashtab_find(&tab, h, name_eq, &c, &at) != NNAV_NONE) {
            if (canon)
                free(keys[n]);
            continue; /* a repeated name: the first is paired */
        }
        ids[n] = tb;
        if (nnav_hashtab_put(&tab, at, h, n++, name_rehash, &c))
            d->oom = 1;
    }
    for (uint32_t i = 0; i < GA->init_count && !d->oom && n; i++) {
        uint32_t ta = GA->init_first + i;
        if (A->tensor_peer[ta] != NNAV_NONE)
            continue;
        nnav_span nm = nnav_tensor_get(A->m, ta)->name;
        c.p = nm.p;
        c.n = (size_t)nm.n;
        if (canon) {
            c.n = nnav_tname_canon(nm.p, (size_t)nm.n, buf, sizeof buf);
            c.p = (const uint8_t *)buf;
            if (!c.n)
                continue;
        }
        uint32_t id = nnav_hashtab_find(&tab, nnav_hash_bytes(c.p, c.n, 29), name_eq, &c, NULL);
        if (id == NNAV_NONE || B->tensor_peer[ids[id]] != NNAV_NONE)
            continue;
        match_tensors(d, ta, ids[id]);
    }
out:
    if (keys)
        for (uint32_t i = 0; i < n; i++)
            free(keys[i]);
    free(keys);
    free(ids);
    nnav_hashtab_free(&tab);
}

/* A matrix and its transpose: B's left-over matrices by (type, dims
 * reversed), each of A's left over looking there for one that holds it
 * transposed, element for element (torch.onnx.export stores a Linear's
 * weight so, as MatMul's right operand "onnx::MatMul_57"). At most 8
 * candidates are compared; a candidate's first row decides most. */
typedef struct tposctx {
    nnav_diff *d;
    uint32_t ta;
    int tries;
} tposctx;

static int matrix(const nnav_model *m, const nnav_tensor *t, int64_t *r, int64_t *c)
{
    if (t->ndims != 2 || (t->storage != NNAV_STORE_RAW && t->storage != NNAV_STORE_EXTERNAL) ||
        t->warn || t->nelems == UINT64_MAX || nnav_dtype_bits(t->dtype) % 8 ||
        !nnav_dtype_bits(t->dtype) || t->dtype == NNAV_DT_STRING)
        return 0;
    const int64_t *dm = nnav_dims(m, t->dims_first);
    *r = dm[0];
    *c = dm[1];
    return *r > 1 && *c > 1; /* a row or a column is its own transpose's bytes */
}

static uint64_t tpos_hash(int32_t dt, int64_t r, int64_t c)
{
    return nnav_hashtab_mix64((uint64_t)(uint32_t)dt ^ ((uint64_t)r << 20) ^ ((uint64_t)c << 42) ^
                              (uint64_t)c);
}

static uint64_t tpos_rehash(const void *ctx, uint32_t id)
{
    const tposctx *c = ctx;
    const nnav_model *m = c->d->s[1].m;
    const nnav_tensor *t = nnav_tensor_get(m, id);
    const int64_t *dm = nnav_dims(m, t->dims_first);
    return tpos_hash(t->dtype, dm[1], dm[0]);
}

/* Does B's tensor tb hold A's c->ta transposed? */
static int tpos_eq(const void *ctx, uint32_t tb)
{
    tposctx *c = (tposctx *)ctx;
    const dside *A = &c->d->s[0], *B = &c->d->s[1];
    const nnav_tensor *x = nnav_tensor_get(A->m, c->ta), *y = nnav_tensor_get(B->m, tb);
    int64_t r, k, yr, yk;
    if (B->tensor_peer[tb] != NNAV_NONE || c->tries >= 8 || !same_type(x, y) ||
        !matrix(A->m, x, &r, &k) || !matrix(B->m, y, &yr, &yk) || yr != k || yk != r)
        return 0;
    c->tries++;
    nnav_span sa, sb;
    void *ca = NULL, *cb = NULL;
    nnav_error err;
    memset(&err, 0, sizeof err);
    int same = 0;
    if (nnav_tensor_bytes(A->m, c->ta, &sa, &ca, &err) == 0 &&
        nnav_tensor_bytes(B->m, tb, &sb, &cb, &err) == 0) {
        size_t w = nnav_dtype_bits(x->dtype) / 8;
        uint64_t need = (uint64_t)r * (uint64_t)k * w;
        same = sa.n == need && sb.n == need;
        /* B row by row (A column by column): B[j][i] is A[i][j]. */
        for (uint64_t j = 0; same && j < (uint64_t)k; j++)
            for (uint64_t i = 0; same && i < (uint64_t)r; i++)
                same = !memcmp(sb.p + (j * (uint64_t)r + i) * w, sa.p + (i * (uint64_t)k + j) * w, w);
        if (same && (nnav_tensor_bytes_shrank(ca, &err) || nnav_tensor_bytes_shrank(cb, &err)))
            same = 0;
    }
    nnav_tensor_bytes_release(ca);
    nnav_tensor_bytes_release(cb);
    return same;
}

static void match_transposed(nnav_diff *d, uint32_t ga, uint32_t gb)
{
    dside *A = &d->s[0], *B = &d->s[1];
    const nnav_graph *GA = nnav_graph_get(A->m, ga), *GB = nnav_graph_get(B->m, gb);
    nnav_hashtab tab = {0};
    tposctx c = {d, 0, 0};
    int64_t r, k;
    for (uint32_t i = 0; i < GB->init_count && !d->oom; i++) {
        uint32_t tb = GB->init_first + i;
        const nnav_tensor *t = nnav_tensor_get(B->m, tb);
        if (B->tensor_peer[tb] != NNAV_NONE || !matrix(B->m, t, &r, &k))
            continue;
        uint64_t h = tpos_hash(t->dtype, k, r), at = 0;
        nnav_hashtab_find(&tab, h, never_eq, &c, &at);
        if (nnav_hashtab_put(&tab, at, h, tb, tpos_rehash, &c))
            d->oom = 1;
    }
    for (uint32_t i = 0; i < GA->init_count && tab.used && !d->oom; i++) {
        uint32_t ta = GA->init_first + i;
        const nnav_tensor *t = nnav_tensor_get(A->m, ta);
        if (A->tensor_peer[ta] != NNAV_NONE || !matrix(A->m, t, &r, &k))
            continue;
        c.ta = ta;
        c.tries = 0;
        uint32_t tb = nnav_hashtab_find(&tab, tpos_hash(t->dtype, r, k), tpos_eq, &c, NULL);
        if (tb == NNAV_NONE)
            continue;
        if (!A->transposed && !(A->transposed = xcalloc(d, A->ntensors, 1)))
            break;
        A->transposed[ta] = 1;
        match_tensors(d, ta, tb);
    }
    nnav_hashtab_free(&tab);
}

/* Tensors by their own names, then by the common renames, then (values
 * asked for) by identical bytes, and a matrix by its transpose; nodes are
 * not compared. */
static void match_weights(nnav_diff *d, uint32_t ga, uint32_t gb)
{
    match_by_name(d, ga, gb, 0);
    match_by_name(d, ga, gb, 1);
    match_init_leftovers(d, ga, gb);
    if (!d->o.no_values)
        match_transposed(d, ga, gb);
}

/* ---- comparing a matched pair ---- */

/* Decoded comparison of attributes whose bytes differ: numbers and strings
 * by value (one writer packs a list another does not). 1 when equal. */
static int attr_values_equal(const nnav_model *ma, uint32_t a, const nnav_model *mb, uint32_t b)
{
    const nnav_attr *x = nnav_attr_get(ma, a);
    nnav_error e;
    switch (x->type) {
    case NNAV_ATTR_INT: {
        int64_t p, q;
        return !nnav_attr_int(ma, a, &p, &e) && !nnav_attr_int(mb, b, &q, &e) && p == q;
    }
    case NNAV_ATTR_FLOAT: {
        double p, q;
        return !nnav_attr_float(ma, a, &p, &e) && !nnav_attr_float(mb, b, &q, &e) &&
               (p == q || (isnan(p) && isnan(q)));
    }
    case NNAV_ATTR_STRING: {
        nnav_span p, q;
        return !nnav_attr_string(ma, a, &p, &e) && !nnav_attr_string(mb, b, &q, &e) &&
               span_eq(p, q);
    }
    case NNAV_ATTR_INTS: {
        int64_t p[64], q[64];
        size_t np = 0, nq = 0;
        if (nnav_attr_ints(ma, a, p, 64, &np, &e) || nnav_attr_ints(mb, b, q, 64, &nq, &e))
            return 0;
        return np == nq && np <= 64 && !memcmp(p, q, np * sizeof *p);
    }
    case NNAV_ATTR_FLOATS: {
        double p[64], q[64];
        size_t np = 0, nq = 0;
        if (nnav_attr_floats(ma, a, p, 64, &np, &e) || nnav_attr_floats(mb, b, q, 64, &nq, &e))
            return 0;
        if (np != nq || np > 64)
            return 0;
        for (size_t i = 0; i < np; i++)
            if (!(p[i] == q[i] || (isnan(p[i]) && isnan(q[i]))))
                return 0;
        return 1;
    }
    default:
        return 0;
    }
}

static int attr_same(const nnav_model *ma, uint32_t a, const nnav_model *mb, uint32_t b)
{
    const nnav_attr *x = nnav_attr_get(ma, a), *y = nnav_attr_get(mb, b);
    if (x->type != y->type || !span_eq(x->ref_attr_name, y->ref_attr_name))
        return 0;
    if (x->type == NNAV_ATTR_GRAPH || x->type == NNAV_ATTR_GRAPHS)
        return x->graph_count == y->graph_count; /* the bodies are compared as graphs */
    if (span_eq(x->msg, y->msg))
        return 1;
    return attr_values_equal(ma, a, mb, b);
}

static void push_attr(nnav_diff *d, uint32_t a, uint32_t b)
{
    nnav_diff_attr *e = mark_oom(d, nnav_vec_push(d->attrs));
    if (!e)
        return;
    e->a = a;
    e->b = b;
}

/* The attributes of a matched pair that differ, pushed to d->attrs. Small
 * lists pair by a double loop; long ones (hostile) by name through a table. */
typedef struct attrctx {
    const nnav_model *m;
    const nnav_node *n;
    nnav_span name;
} attrctx;

static int attr_name_eq(const void *ctx, uint32_t i)
{
    const attrctx *c = ctx;
    return span_eq(nnav_attr_get(c->m, c->n->attr_first + i)->name, c->name);
}

static uint64_t attr_name_rehash(const void *ctx, uint32_t i)
{
    const attrctx *c = ctx;
    nnav_span s = nnav_attr_get(c->m, c->n->attr_first + i)->name;
    return nnav_hash_bytes(s.p, s.n, 7);
}

static uint32_t find_attr(nnav_hashtab *t, const nnav_model *m, const nnav_node *n, nnav_span name)
{
    if (!t->slot) {
        for (uint32_t i = 0; i < n->attr_count; i++)
            if (span_eq(nnav_attr_get(m, n->attr_first + i)->name, name))
                return n->attr_first + i;
        return NNAV_NONE;
    }
    attrctx c = {m, n, name};
    uint32_t i = nnav_hashtab_find(t, nnav_hash_bytes(name.p, name.n, 7), attr_name_eq, &c, NULL);
    return i == NNAV_NONE ? NNAV_NONE : n->attr_first + i;
}

static int attr_table(nnav_diff *d, nnav_hashtab *t, const nnav_model *m, const nnav_node *n)
{
    if (n->attr_count <= 32)
        return 0;
    if (nnav_hashtab_init(t, n->attr_count))
        return d->oom = 1, -1;
    for (uint32_t i = 0; i < n->attr_count; i++) {
        nnav_span s = nnav_attr_get(m, n->attr_first + i)->name;
        attrctx c = {m, n, s};
        uint64_t h = nnav_hash_bytes(s.p, s.n, 7), at = 0;
        if (nnav_hashtab_find(t, h, attr_name_eq, &c, &at) != NNAV_NONE)
            continue; /* a repeated name: the first is compared */
        if (nnav_hashtab_put(t, at, h, i, attr_name_rehash, &c))
            return d->oom = 1, -1;
    }
    return 0;
}

static unsigned compare_attrs(nnav_diff *d, uint32_t a, uint32_t b, uint32_t *first,
                              uint32_t *count)
{
    const nnav_model *ma = d->s[0].m, *mb = d->s[1].m;
    const nnav_node *na = nnav_node_get(ma, a), *nb = nnav_node_get(mb, b);
    nnav_hashtab ta = {0}, tb = {0};
    *first = d->attrs.n;
    if (attr_table(d, &ta, ma, na) || attr_table(d, &tb, mb, nb))
        goto out;
    for (uint32_t i = 0; i < na->attr_count; i++) {
        uint32_t x = na->attr_first + i;
        const nnav_attr *ax = nnav_attr_get(ma, x);
        if (find_attr(&ta, ma, na, ax->name) != x)
            continue; /* a repeated name */
        uint32_t y = find_attr(&tb, mb, nb, ax->name);
        if (y == NNAV_NONE)
            push_attr(d, x, NNAV_NONE);
        else if (!attr_same(ma, x, mb, y))
            push_attr(d, x, y);
    }
    for (uint32_t i = 0; i < nb->attr_count; i++) {
        uint32_t y = nb->attr_first + i;
        const nnav_attr *ay = nnav_attr_get(mb, y);
        if (find_attr(&tb, mb, nb, ay->name) != y)
            continue;
        if (find_attr(&ta, ma, na, ay->name) == NNAV_NONE)
            push_attr(d, NNAV_NONE, y);
    }
out:
    nnav_hashtab_free(&ta);
    nnav_hashtab_free(&tb);
    *count = d->attrs.n - *first;
    return *count ? NNAV_DIFF_ATTRS : 0;
}

/* Do value va (read on A) and vb (on B) correspond? */
static int value_same(const nnav_diff *d, uint32_t va, uint32_t vb, nnav_span na, nnav_span nb)
{
    if (va == NNAV_NONE || vb == NNAV_NONE) {
        if (va != vb)
            return 0;
        return span_eq(na, nb) || (!na.n && !nb.n); /* both "" or both unresolved alike */
    }
    if (va >= d->s[0].nvalues || vb >= d->s[1].nvalues)
        return 0;
    if (d->s[0].value_peer[va] == vb)
        return 1;
    /* Undefined on both sides (or outer-scope values of unmatched graphs):
     * the same name. */
    const nnav_value *x = nnav_value_get(d->s[0].m, va), *y = nnav_value_get(d->s[1].m, vb);
    if (d->s[0].value_peer[va] == NNAV_NONE && d->s[1].value_peer[vb] == NNAV_NONE &&
        x->kind == y->kind &&
        (x->kind == NNAV_VAL_UNDEFINED || x->kind == NNAV_VAL_INPUT || x->kind == NNAV_VAL_SPARSE))
        return span_eq(x->name, y->name);
    return 0;
}

/* The value an input reads, through hidden Identity nodes when decluttered. */
static uint32_t read_value(const nnav_diff *d, int s, uint32_t v)
{
    const dside *S = &d->s[s];
    if (!S->decl || v == NNAV_NONE || v >= S->nvalues)
        return v;
    uint32_t g = nnav_value_get(S->m, v)->graph;
    if (g >= S->ngraphs || !S->decl[g])
        return v;
    uint32_t src = nnav_declutter_source(S->decl[g], v);
    return src == NNAV_NONE ? v : src;
}

int nnav_diff_input_same(const nnav_diff *d, const nnav_diff_node *n, uint32_t i)
{
    if (n->a == NNAV_NONE || n->b == NNAV_NONE)
        return 0;
    const nnav_node *na = nnav_node_get(d->s[0].m, n->a), *nb = nnav_node_get(d->s[1].m, n->b);
    if (i >= na->in_count || i >= nb->in_count)
        return 0;
    nnav_ref ra = nnav_ref_get(d->s[0].m, na->in_first + i);
    nnav_ref rb = nnav_ref_get(d->s[1].m, nb->in_first + i);
    if (ra.control != rb.control)
        return 0;
    return value_same(d, read_value(d, 0, ra.value), read_value(d, 1, rb.value), ra.name, rb.name);
}

static unsigned compare_pair(nnav_diff *d, uint32_t a, uint32_t b, uint32_t *af, uint32_t *ac)
{
    const nnav_model *ma = d->s[0].m, *mb = d->s[1].m;
    const nnav_node *na = nnav_node_get(ma, a), *nb = nnav_node_get(mb, b);
    unsigned what = 0;
    if (!span_eq(na->name, nb->name))
        what |= NNAV_DIFF_RENAMED;
    if (!same_op(&d->s[0], a, &d->s[1], b))
        what |= NNAV_DIFF_OP;
    what |= compare_attrs(d, a, b, af, ac);
    if (na->in_count != nb->in_count) {
        what |= NNAV_DIFF_INPUTS;
    } else {
        nnav_diff_node tmp = {a, b, 0, 0, 0, 0};
        for (uint32_t i = 0; i < na->in_count; i++)
            if (!nnav_diff_input_same(d, &tmp, i)) {
                what |= NNAV_DIFF_INPUTS;
                break;
            }
    }
    if (na->out_count != nb->out_count)
        what |= NNAV_DIFF_OUTPUTS;
    return what;
}

/* ---- tensors ---- */

typedef struct cmpacc {
    int narrow;     /* a float type of 32 bits or fewer: differences in float */
    double tol;
    uint64_t ndiff;
    double max_abs, max_rel;
    uint64_t at_abs, at_rel;
    double a_at, b_at;
    int any_rel;
} cmpacc;

/* Elements x (A) and y (B) at flat index idx, known to differ, |y - x| =
 * diff (NaN when one is NaN: counted as infinitely far). */
static void acc_elem(cmpacc *c, uint64_t idx, double x, double y, double diff)
{
    if (isnan(diff))
        diff = INFINITY;
    if (diff <= c->tol)
        return;
    c->ndiff++;
    if (c->ndiff == 1 || diff > c->max_abs) {
        c->max_abs = diff;
        c->at_abs = idx;
        c->a_at = x;
        c->b_at = y;
    }
    if (x != 0 && !isnan(x) && !isinf(diff)) {
        double rel = diff / fabs(x);
        if (c->narrow)
            rel = (float)rel;
        if (!c->any_rel || rel > c->max_rel) {
            c->max_rel = rel;
            c->at_rel = idx;
            c->any_rel = 1;
        }
    }
}

/* |y - x| as the element type computes it: a float32 weight moved by 0.5
 * differs by 0.5, not by 0.50000002 (the double of two float32 values). */
static double elem_diff(const cmpacc *c, double x, double y)
{
    if (c->narrow)
        return fabsf((float)y - (float)x);
    return fabs(y - x);
}

/* Float types whose values a float holds exactly. */
static int narrow_float(int32_t dt)
{
    switch (dt) {
    case NNAV_DT_FLOAT: case NNAV_DT_FLOAT16: case NNAV_DT_BFLOAT16:
    case NNAV_DT_FLOAT8E4M3FN: case NNAV_DT_FLOAT8E4M3FNUZ: case NNAV_DT_FLOAT8E5M2:
    case NNAV_DT_FLOAT8E5M2FNUZ: case NNAV_DT_FLOAT4E2M1: case NNAV_DT_FLOAT8E8M0:
    case NNAV_DT_COMPLEX64:
        return 1;
    default:
        return 0;
    }
}

static int is_wide_int(int32_t dt) { return dt == NNAV_DT_INT64 || dt == NNAV_DT_UINT64; }

/* Elements [e0, e1) of two raw payloads of one dtype. */
static void compare_raw_elems(cmpacc *c, int32_t dt, const uint8_t *pa, const uint8_t *pb,
                              uint64_t len, uint64_t e0, uint64_t e1)
{
    unsigned comps = nnav_dtype_components(dt);
    for (uint64_t e = e0; e < e1; e++) {
        if (is_wide_int(dt)) {
            if (e * 8 + 8 > len)
                break;
            uint64_t x, y;
            memcpy(&x, pa + e * 8, 8);
            memcpy(&y, pb + e * 8, 8);
            if (x == y)
                continue;
            double dx, dy, diff;
            if (dt == NNAV_DT_INT64) {
                dx = (double)(int64_t)x;
                dy = (double)(int64_t)y;
                __int128 q = (__int128)(int64_t)y - (__int128)(int64_t)x;
                diff = (double)(q < 0 ? -q : q);
            } else {
                dx = (double)x;
                dy = (double)y;
                diff = (double)(x > y ? x - y : y - x);
            }
            acc_elem(c, e, dx, dy, diff);
            continue;
        }
        double worst = 0, wx = 0, wy = 0;
        int differs = 0, any_nan = 0;
        for (unsigned k = 0; k < comps; k++) {
            double x, y;
            if (nnav_dtype_decode_raw(dt, pa, len, e * comps + k, &x) ||
                nnav_dtype_decode_raw(dt, pb, len, e * comps + k, &y))
                return;
            if (x == y || (isnan(x) && isnan(y)))
                continue;
            double diff = elem_diff(c, x, y);
            if (isnan(diff))
                any_nan = 1;
            if (!differs || diff > worst || isnan(diff)) {
                worst = diff;
                wx = x;
                wy = y;
            }
            differs = 1;
        }
        if (differs)
            acc_elem(c, e, wx, wy, any_nan ? NAN : worst);
    }
}

/* Pages of a payload already compared leave this process's memory (they
 * stay in the page cache, and a later read maps them again): comparing two
 * 1.2 GB files keeps a few megabytes resident, not 2.4 GB. Only whole pages
 * inside the span; the map is read-only, so nothing is lost. */
static void drop_pages(const uint8_t *p, uint64_t len)
{
    long pg = sysconf(_SC_PAGESIZE);
    if (pg <= 0 || len < (uint64_t)pg * 2)
        return;
    uintptr_t lo = ((uintptr_t)p + (uintptr_t)pg - 1) & ~((uintptr_t)pg - 1);
    uintptr_t hi = ((uintptr_t)p + (uintptr_t)len) & ~((uintptr_t)pg - 1);
    if (hi > lo)
        (void)madvise((void *)lo, hi - lo, MADV_DONTNEED);
}

/* Maps a chunk's pages in one call before it is read (Linux 5.14's
 * MADV_POPULATE_READ; elsewhere, or refused, the reads fault them in one by
 * one as before). */
static void will_need(const uint8_t *p, uint64_t len)
{
    long pg = sysconf(_SC_PAGESIZE);
    if (pg <= 0)
        return;
    uintptr_t lo = (uintptr_t)p & ~((uintptr_t)pg - 1);
    uintptr_t hi = (uintptr_t)p + (uintptr_t)len;
    if (hi > lo)
        (void)madvise((void *)lo, hi - lo, MADV_WILLNEED);
}

static void populate(const uint8_t *p, uint64_t len)
{
#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22
#endif
    long pg = sysconf(_SC_PAGESIZE);
    if (pg <= 0)
        return;
    uintptr_t lo = (uintptr_t)p & ~((uintptr_t)pg - 1);
    uintptr_t hi = ((uintptr_t)p + (uintptr_t)len) & ~((uintptr_t)pg - 1);
    if (hi > lo)
        (void)madvise((void *)lo, hi - lo, MADV_POPULATE_READ);
}

static void tensor_unread(nnav_diff *d, nnav_diff_tensor *e, const char *why, const char *file)
{
    char buf[700];
    if (file)
        snprintf(buf, sizeof buf, "%s: %s", file, why);
    else
        snprintf(buf, sizeof buf, "%s", why);
    e->what |= NNAV_DIFF_UNREAD;
    e->note = keep(d, buf);
}

/* Both tensors decoded as numbers (exact integers), up to `most` elements:
 * typed fields, strings, one side raw and one typed, two storage types
 * (bf16 against float32, a dequantised block type against either). Only
 * the arrays the types need are allocated: two doubles an element for
 * floats. */
static void compare_decoded(nnav_diff *d, nnav_diff_tensor *e, cmpacc *c, uint64_t most)
{
    const nnav_model *ma = d->s[0].m, *mb = d->s[1].m;
    const nnav_tensor *x = nnav_tensor_get(ma, e->a), *y = nnav_tensor_get(mb, e->b);
    if (x->nelems > most || y->nelems != x->nelems) {
        char why[160];
        snprintf(why, sizeof why, "%s of more than %llu elements are not decoded to compare",
                 x->dtype == NNAV_DT_QBLOCKS && same_type(x, y)
                     ? "their bytes differ; quantised blocks"
                     : same_type(x, y) ? "typed fields" : "two storage types",
                 (unsigned long long)most);
        tensor_unread(d, e, x->nelems > most ? why : "the two hold different numbers of values",
                      NULL);
        return;
    }
    int str = x->dtype == NNAV_DT_STRING || y->dtype == NNAV_DT_STRING;
    int ints = !(narrow_float(x->dtype) || x->dtype == NNAV_DT_DOUBLE ||
                 x->dtype == NNAV_DT_QBLOCKS) ||
               !(narrow_float(y->dtype) || y->dtype == NNAV_DT_DOUBLE ||
                 y->dtype == NNAV_DT_QBLOCKS);
    size_t n = (size_t)x->nelems, m1 = n ? n : 1;
    double *va = calloc(m1, sizeof *va), *vb = calloc(m1, sizeof *vb);
    int64_t *ia = ints ? calloc(m1, sizeof *ia) : NULL, *ib = ints ? calloc(m1, sizeof *ib) : NULL;
    nnav_span *sa = str ? calloc(m1, sizeof *sa) : NULL, *sb = str ? calloc(m1, sizeof *sb) : NULL;
    nnav_values a = {.v = va, .i = ia, .s = sa}, b = {.v = vb, .i = ib, .s = sb};
    nnav_error err;
    memset(&err, 0, sizeof err);
    if (!va || !vb || (ints && (!ia || !ib)) || (str && (!sa || !sb))) {
        d->oom = 1;
    } else if (x->dtype == NNAV_DT_STRING && y->dtype != NNAV_DT_STRING) {
        tensor_unread(d, e, "strings and numbers", NULL);
    } else if (nnav_tensor_values(ma, e->a, n, 0, &a, &err)) {
        tensor_unread(d, e, err.msg, "A");
    } else if (nnav_tensor_values(mb, e->b, n, 0, &b, &err)) {
        tensor_unread(d, e, err.msg, "B");
    } else if (a.count != b.count) {
        tensor_unread(d, e, "the payloads hold different numbers of values", NULL);
    } else {
        for (size_t i = 0; i < a.count; i++) {
            if (x->dtype == NNAV_DT_STRING) {
                if (!span_eq(sa[i], sb[i]) && c->ndiff++ == 0)
                    c->at_abs = i; /* strings: no distance, the first that differs */
                continue;
            }
            if (a.is_int && b.is_int) {
                if (ia[i] == ib[i])
                    continue;
                __int128 q = a.is_unsigned ? (__int128)(uint64_t)ib[i] - (uint64_t)ia[i]
                                           : (__int128)ib[i] - ia[i];
                double diff = (double)(q < 0 ? -q : q);
                acc_elem(c, i, va[i], vb[i], diff);
            } else if (!(va[i] == vb[i] || (isnan(va[i]) && isnan(vb[i])))) {
                acc_elem(c, i, va[i], vb[i], elem_diff(c, va[i], vb[i]));
            }
        }
        d->tot.bytes_compared += x->data.n;
    }
    free(va);
    free(vb);
    free(ia);
    free(ib);
    free(sa);
    free(sb);
}

/* Whether a payload's bytes are its values as element decoding reads them
 * (little-endian, packed as the dtype says): the first 64 agree with what
 * the reader gives. A reader may keep them otherwise (a big-endian file),
 * and then only its own values compare. */
static int plain_bytes(const nnav_model *m, uint32_t t, nnav_span s)
{
    const nnav_tensor *x = nnav_tensor_get(m, t);
    double v[64];
    nnav_values vals = {.v = v};
    nnav_error err;
    memset(&err, 0, sizeof err);
    size_t first = x->nelems < 64 ? (size_t)x->nelems : 64;
    unsigned comps = nnav_dtype_components(x->dtype);
    if (comps != 1 || is_wide_int(x->dtype))
        return 1; /* decoded as they always were */
    if (nnav_tensor_values(m, t, first, 0, &vals, &err) || vals.count != first)
        return 0;
    for (size_t i = 0; i < first; i++) {
        double p;
        if (nnav_dtype_decode_raw(x->dtype, s.p, s.n, i, &p) ||
            !(p == v[i] || (isnan(p) && isnan(v[i]))))
            return 0;
    }
    return 1;
}

/* Two storage types of a fixed width each (float32 and bf16, f16 and
 * float32), both payloads raw: decoded element by element over the map, a
 * chunk at a time, whatever their size. Only where decoding the bytes so
 * agrees with the reader's own values on the first elements (a reader may
 * keep its bytes otherwise: a big-endian file): 0 when compared, -1 to
 * decode through the reader instead. */
static int compare_streamed(nnav_diff *d, nnav_diff_tensor *e, cmpacc *c)
{
    const nnav_model *ma = d->s[0].m, *mb = d->s[1].m;
    const nnav_tensor *x = nnav_tensor_get(ma, e->a), *y = nnav_tensor_get(mb, e->b);
    unsigned bx = nnav_dtype_bits(x->dtype), by = nnav_dtype_bits(y->dtype);
    int raw_x = x->storage == NNAV_STORE_RAW || x->storage == NNAV_STORE_EXTERNAL;
    int raw_y = y->storage == NNAV_STORE_RAW || y->storage == NNAV_STORE_EXTERNAL;
    uint64_t nx, ny, n = x->nelems;
    if (!raw_x || !raw_y || !bx || !by || x->dtype == NNAV_DT_STRING ||
        y->dtype == NNAV_DT_STRING || is_wide_int(x->dtype) || is_wide_int(y->dtype) ||
        nnav_dtype_components(x->dtype) != 1 || nnav_dtype_components(y->dtype) != 1 ||
        y->nelems != n || nnav_dtype_raw_bytes(x->dtype, n, &nx) ||
        nnav_dtype_raw_bytes(y->dtype, n, &ny))
        return -1;
    nnav_error err;
    memset(&err, 0, sizeof err);
    nnav_span sa, sb;
    void *ca = NULL, *cb = NULL;
    if (nnav_tensor_bytes(ma, e->a, &sa, &ca, &err)) {
        return -1;
    }
    if (nnav_tensor_bytes(mb, e->b, &sb, &cb, &err)) {
        nnav_tensor_bytes_release(ca);
        return -1;
    }
    int ok = sa.n == nx && sb.n == ny && plain_bytes(ma, e->a, sa) && plain_bytes(mb, e->b, sb);
    if (!ok) {
        nnav_tensor_bytes_release(ca);
        nnav_tensor_bytes_release(cb);
        return -1;
    }
    uint64_t step = (uint64_t)CHUNK * 8 / (bx > by ? bx : by); /* elements a chunk */
    for (uint64_t e0 = 0; e0 < n; e0 += step) {
        uint64_t e1 = n - e0 < step ? n : e0 + step;
        const uint8_t *pa = sa.p + e0 * bx / 8, *pb = sb.p + e0 * by / 8;
        uint64_t la = (e1 - e0) * bx / 8, lb = (e1 - e0) * by / 8;
        int big = sa.n >= 2 * (uint64_t)CHUNK || sb.n >= 2 * (uint64_t)CHUNK;
        if (big) {
            populate(pa, la);
            populate(pb, lb);
        }
        for (uint64_t i = e0; i < e1; i++) {
            double p, q;
            if (nnav_dtype_decode_raw(x->dtype, sa.p, sa.n, i, &p) ||
                nnav_dtype_decode_raw(y->dtype, sb.p, sb.n, i, &q))
                break;
            if (p == q || (isnan(p) && isnan(q)))
                continue;
            acc_elem(c, i, p, q, elem_diff(c, p, q));
        }
        if (big) {
            drop_pages(pa, la);
            drop_pages(pb, lb);
        }
    }
    d->tot.bytes_compared += sa.n;
    if (nnav_tensor_bytes_shrank(ca, &err) || nnav_tensor_bytes_shrank(cb, &err))
        tensor_unread(d, e, err.msg, NULL);
    nnav_tensor_bytes_release(ca);
    nnav_tensor_bytes_release(cb);
    return 0;
}

static void compare_values(nnav_diff *d, nnav_diff_tensor *e)
{
    const nnav_model *ma = d->s[0].m, *mb = d->s[1].m;
    const nnav_tensor *x = nnav_tensor_get(ma, e->a), *y = nnav_tensor_get(mb, e->b);
    /* Two storage types: differences as the wider one holds them. */
    cmpacc c = {.tol = d->o.tolerance, .narrow = narrow_float(x->dtype) && narrow_float(y->dtype)};
    if (x->dtype == NNAV_DT_QBLOCKS || y->dtype == NNAV_DT_QBLOCKS)
        c.narrow = (x->dtype == NNAV_DT_QBLOCKS || narrow_float(x->dtype)) &&
                   (y->dtype == NNAV_DT_QBLOCKS || narrow_float(y->dtype));
    unsigned bad = NNAV_TW_SIZE_MISMATCH | NNAV_TW_BAD_DIMS | NNAV_TW_BAD_DTYPE |
                   NNAV_TW_BAD_EXTERNAL | NNAV_TW_MANY_FIELDS | NNAV_TW_WRONG_FIELD;
    if (x->nelems == UINT64_MAX || ((x->warn | y->warn) & bad)) {
        if (x->storage == y->storage && x->storage != NNAV_STORE_EXTERNAL &&
            span_eq(x->data, y->data) && x->warn == y->warn)
            return; /* the same bytes, however wrong */
        tensor_unread(d, e, (x->warn & bad) ? "A's payload does not match its dims and dtype"
                                            : "B's payload does not match its dims and dtype",
                      NULL);
        return;
    }
    int raw_a = x->storage == NNAV_STORE_RAW || x->storage == NNAV_STORE_EXTERNAL;
    int raw_b = y->storage == NNAV_STORE_RAW || y->storage == NNAV_STORE_EXTERNAL;
    int blocks_differ = 0;
    if (!same_type(x, y)) {
        if (compare_streamed(d, e, &c) < 0)
            compare_decoded(d, e, &c, DECODE_MAX);
    } else if (raw_a && raw_b && x->dtype != NNAV_DT_STRING) {
        nnav_span sa, sb;
        void *ca = NULL, *cb = NULL;
        nnav_error err;
        memset(&err, 0, sizeof err);
        if (nnav_tensor_bytes(ma, e->a, &sa, &ca, &err)) {
            tensor_unread(d, e, err.msg, "A");
            return;
        }
        if (nnav_tensor_bytes(mb, e->b, &sb, &cb, &err)) {
            nnav_tensor_bytes_release(ca);
            tensor_unread(d, e, err.msg, "B");
            return;
        }
        unsigned bits = nnav_dtype_bits(x->dtype);
        int pa = !bits || plain_bytes(ma, e->a, sa), pb = !bits || plain_bytes(mb, e->b, sb);
        if (sa.n != sb.n) {
            tensor_unread(d, e, "the payloads differ in length", NULL);
        } else if (pa != pb) {
            blocks_differ = 1; /* one side's bytes are no plain values: the reader's compare */
        } else {
            /* One element's bits, components included; 0 for blocks of
             * quantised weights, whose bytes are compared and, where they
             * differ, their dequantised values (so too bytes kept in an
             * order of the reader's own, on both sides). */
            if (!pa)
                bits = 0;
            uint64_t ebits = bits;
            for (uint64_t off = 0; off < sa.n && !blocks_differ; off += CHUNK) {
                uint64_t len = sa.n - off < CHUNK ? sa.n - off : CHUNK;
                if (sa.n >= 2 * (uint64_t)CHUNK) {
                    /* The index maps files MADV_RANDOM (no read-ahead): ask
                     * for the next chunks while this one is compared, or a
                     * file not in the page cache is read 4 KiB at a time. */
                    uint64_t ahead = off + len, alen = sa.n - ahead < AHEAD ? sa.n - ahead : AHEAD;
                    if (off == 0) {
                        will_need(sa.p, len);
                        will_need(sb.p, len);
                    }
                    if (ahead < sa.n && (off / CHUNK) % (AHEAD / CHUNK) == 0) {
                        will_need(sa.p + ahead, alen);
                        will_need(sb.p + ahead, alen);
                    }
                    populate(sa.p + off, len);
                    populate(sb.p + off, len);
                }
                if (memcmp(sa.p + off, sb.p + off, (size_t)len)) {
                    if (!bits) {
                        blocks_differ = 1;
                    } else {
                        uint64_t e0 = off * 8 / ebits, e1 = (off + len) * 8 / ebits;
                        if (off + len == sa.n || e1 > x->nelems)
                            e1 = x->nelems;
                        compare_raw_elems(&c, x->dtype, sa.p, sb.p, sa.n, e0, e1);
                    }
                }
                if (sa.n >= 2 * (uint64_t)CHUNK) {
                    drop_pages(sa.p + off, len);
                    drop_pages(sb.p + off, len);
                }
            }
            if (!blocks_differ)
                d->tot.bytes_compared += sa.n;
            int shrank = nnav_tensor_bytes_shrank(ca, &err) || nnav_tensor_bytes_shrank(cb, &err);
            if (shrank)
                tensor_unread(d, e, err.msg, NULL);
        }
        nnav_tensor_bytes_release(ca);
        nnav_tensor_bytes_release(cb);
        if (blocks_differ)
            compare_decoded(d, e, &c, DECODE_MAX);
    } else {
        compare_decoded(d, e, &c, TYPED_MAX);
    }
    e->narrow = c.narrow;
    if (c.ndiff) {
        e->what |= NNAV_DIFF_VALUES;
        e->ndiff = c.ndiff;
        e->max_abs = c.max_abs;
        e->at_abs = c.at_abs;
        e->a_at_abs = c.a_at;
        e->b_at_abs = c.b_at;
        e->max_rel = c.any_rel ? c.max_rel : -1;
        e->at_rel = c.at_rel;
    }
}

/* What a matched pair's records say (name, storage type, dims): known
 * before any payload is read. */
static void compare_tensor_meta(nnav_diff *d, nnav_diff_tensor *e)
{
    const nnav_model *ma = d->s[0].m, *mb = d->s[1].m;
    const nnav_tensor *x = nnav_tensor_get(ma, e->a), *y = nnav_tensor_get(mb, e->b);
    if (!span_eq(x->name, y->name))
        e->what |= NNAV_DIFF_RENAMED;
    if (!same_type(x, y))
        e->what |= NNAV_DIFF_DTYPE;
    if (d->s[0].transposed && d->s[0].transposed[e->a])
        e->what |= NNAV_DIFF_TRANSPOSED; /* equal element for element: nothing more to compare */
    else if (!same_dims(ma, x, mb, y))
        e->what |= NNAV_DIFF_SHAPE;
    e->max_rel = -1;
}

/* Whether a pair's values are compared: same dims, and the same storage
 * type or two that both decode to numbers. */
static int wants_values(const nnav_diff *d, const nnav_diff_tensor *e)
{
    if (d->o.no_values ||
        (e->what & (NNAV_DIFF_ADDED | NNAV_DIFF_REMOVED | NNAV_DIFF_SHAPE | NNAV_DIFF_TRANSPOSED)))
        return 0;
    if (!(e->what & NNAV_DIFF_DTYPE))
        return 1;
    const nnav_tensor *x = nnav_tensor_get(d->s[0].m, e->a), *y = nnav_tensor_get(d->s[1].m, e->b);
    return x->dtype != NNAV_DT_STRING && y->dtype != NNAV_DT_STRING &&
           (nnav_dtype_valid(x->dtype) || x->dtype == NNAV_DT_QBLOCKS) &&
           (nnav_dtype_valid(y->dtype) || y->dtype == NNAV_DT_QBLOCKS);
}

/* ---- findings ---- */

typedef struct opctx {
    const nnav_diff *d;
    nnav_span dom, op;
} opctx;

static int opsum_eq(const void *ctx, uint32_t id)
{
    const opctx *c = ctx;
    const nnav_diff_opsum *o = &c->d->opsums.v[id];
    return span_eq(o->op, c->op) && span_eq(o->domain, c->dom);
}

static uint64_t opsum_hash(nnav_span dom, nnav_span op)
{
    return nnav_hash_bytes(op.p, op.n, nnav_hash_bytes(dom.p, dom.n, 3));
}

static uint64_t opsum_rehash(const void *ctx, uint32_t id)
{
    const opctx *c = ctx;
    return opsum_hash(c->d->opsums.v[id].domain, c->d->opsums.v[id].op);
}

static void count_op(nnav_diff *d, int s, uint32_t node, unsigned what)
{
    nnav_span op = nnav_node_get(d->s[s].m, node)->op, dom = nnav_node_domain(d->s[s].m, node);
    opctx c = {d, dom, op};
    uint64_t h = opsum_hash(dom, op), at = 0;
    uint32_t id = nnav_hashtab_find(&d->opsum_tab, h, opsum_eq, &c, &at);
    if (id == NNAV_NONE) {
        nnav_diff_opsum *o = mark_oom(d, nnav_vec_push(d->opsums));
        if (!o)
            return;
        o->domain = dom; /* before the put: growing rehashes every row */
        o->op = op;
        id = d->opsums.n - 1;
        if (nnav_hashtab_put(&d->opsum_tab, at, h, id, opsum_rehash, &c)) {
            d->oom = 1;
            return;
        }
    }
    nnav_diff_opsum *o = &d->opsums.v[id];
    if (what & NNAV_DIFF_ADDED)
        o->added++;
    else if (what & NNAV_DIFF_REMOVED)
        o->removed++;
    else if (what == NNAV_DIFF_RENAMED)
        o->renamed++;
    else {
        o->changed++;
        o->changed_what |= what;
    }
}

static void node_entry(nnav_diff *d, uint32_t gentry, uint32_t a, uint32_t b)
{
    dside *A = &d->s[0], *B = &d->s[1];
    unsigned what;
    uint32_t af = d->attrs.n, ac = 0;
    if (a == NNAV_NONE)
        what = NNAV_DIFF_ADDED;
    else if (b == NNAV_NONE)
        what = NNAV_DIFF_REMOVED;
    else
        what = compare_pair(d, a, b, &af, &ac);
    nnav_diff_graph *g = &d->graphs.v[gentry];
    if (!what) {
        g->same++;
        return;
    }
    nnav_diff_node *e = mark_oom(d, nnav_vec_push(d->nodes));
    if (!e)
        return;
    e->a = a;
    e->b = b;
    e->graph = gentry;
    e->what = what;
    e->attr_first = af;
    e->attr_count = ac;
    uint32_t id = d->nodes.n - 1;
    if (a != NNAV_NONE) {
        A->node_what[a] = (uint16_t)what;
        A->node_entry[a] = id;
    }
    if (b != NNAV_NONE) {
        B->node_what[b] = (uint16_t)what;
        B->node_entry[b] = id;
    }
    if (what & NNAV_DIFF_ADDED)
        g->added++;
    else if (what & NNAV_DIFF_REMOVED)
        g->removed++;
    else if (what == NNAV_DIFF_RENAMED)
        g->renamed++;
    else
        g->changed++;
    count_op(d, b != NNAV_NONE ? 1 : 0, b != NNAV_NONE ? b : a, what);
}

/* Nodes in the unified order: B's, each removed node of A before the first
 * node that follows it on A. Hidden (decluttered) nodes are left out. */
static void node_entries(nnav_diff *d, uint32_t gentry)
{
    dside *A = &d->s[0], *B = &d->s[1];
    nnav_diff_graph *g = &d->graphs.v[gentry];
    g->node_first = d->nodes.n;
    const nnav_graph *GA = g->a != NNAV_NONE ? nnav_graph_get(A->m, g->a) : NULL;
    const nnav_graph *GB = g->b != NNAV_NONE ? nnav_graph_get(B->m, g->b) : NULL;
    uint32_t ia = 0, na = GA ? GA->node_count : 0, nb = GB ? GB->node_count : 0;
    for (uint32_t ib = 0; ib < nb && !d->oom; ib++) {
        uint32_t b = GB->node_first + ib;
        if (is_hidden(B, b))
            continue;
        uint32_t a = B->node_peer[b];
        if (a != NNAV_NONE) {
            uint32_t pos = a - GA->node_first;
            for (; ia < pos && ia < na; ia++) {
                uint32_t x = GA->node_first + ia;
                if (A->node_peer[x] == NNAV_NONE && !is_hidden(A, x))
                    node_entry(d, (uint32_t)(g - d->graphs.v), x, NNAV_NONE);
                g = &d->graphs.v[gentry];
            }
            if (ia == pos)
                ia++;
        }
        node_entry(d, gentry, a, b);
        g = &d->graphs.v[gentry];
    }
    for (; ia < na && !d->oom; ia++) {
        uint32_t x = GA->node_first + ia;
        if (A->node_peer[x] == NNAV_NONE && !is_hidden(A, x))
            node_entry(d, gentry, x, NNAV_NONE);
    }
    g = &d->graphs.v[gentry];
    g->node_count = d->nodes.n - g->node_first;
}

/* A graph input/output's type: element type and dims, or its text. */
static unsigned io_type_what(const nnav_diff *d, uint32_t va, uint32_t vb)
{
    char x[512], y[512];
    nnav_value_type_format(d->s[0].m, va, x, sizeof x);
    nnav_value_type_format(d->s[1].m, vb, y, sizeof y);
    if (!strcmp(x, y))
        return 0;
    const nnav_value *a = nnav_value_get(d->s[0].m, va), *b = nnav_value_get(d->s[1].m, vb);
    if (a->vinfo != NNAV_NONE && b->vinfo != NNAV_NONE) {
        nnav_span ta = nnav_vinfo_get(d->s[0].m, a->vinfo)->type;
        nnav_span tb = nnav_vinfo_get(d->s[1].m, b->vinfo)->type;
        nnav_type A, B;
        if (nnav_type_decode(d->s[0].m, ta, &A) == 1 && nnav_type_decode(d->s[1].m, tb, &B) == 1) {
            unsigned w = 0;
            if (A.elem != B.elem)
                w |= NNAV_DIFF_DTYPE;
            int same_shape = A.rank == B.rank;
            for (int64_t i = 0; same_shape && i < A.rank && i < NNAV_TYPE_DIMS_MAX; i++)
                same_shape = A.dims[i] == B.dims[i] && span_eq(A.syms[i], B.syms[i]);
            if (!same_shape)
                w |= NNAV_DIFF_SHAPE;
            return w ? w : NNAV_DIFF_TYPE;
        }
    }
    return NNAV_DIFF_TYPE;
}

static void push_io(nnav_diff *d, uint32_t gentry, uint32_t a, uint32_t b, int out, unsigned w)
{
    nnav_diff_io *e = mark_oom(d, nnav_vec_push(d->ios));
    if (!e)
        return;
    e->a = a;
    e->b = b;
    e->graph = gentry;
    e->output = (uint8_t)out;
    e->what = w;
}

/* Is value v one of graph g's inputs (outputs when out)? By the value's own
 * flags: no search through the lists. */
static int listed_io(const dside *S, uint32_t v, uint32_t g, int out)
{
    if (v == NNAV_NONE || v >= S->nvalues)
        return 0;
    const nnav_value *x = nnav_value_get(S->m, v);
    return x->graph == g && (out ? x->is_output : x->is_input);
}

static void io_entries(nnav_diff *d, uint32_t gentry)
{
    dside *A = &d->s[0], *B = &d->s[1];
    nnav_diff_graph *g = &d->graphs.v[gentry];
    g->io_first = d->ios.n;
    const nnav_graph *GA = g->a != NNAV_NONE ? nnav_graph_get(A->m, g->a) : NULL;
    const nnav_graph *GB = g->b != NNAV_NONE ? nnav_graph_get(B->m, g->b) : NULL;
    if (GA && GB) {
        for (int out = 0; out < 2; out++) {
            uint32_t fb = out ? GB->output_first : GB->input_first;
            uint32_t cb = out ? GB->output_count : GB->input_count;
            uint32_t fa = out ? GA->output_first : GA->input_first;
            uint32_t ca = out ? GA->output_count : GA->input_count;
            for (uint32_t i = 0; i < cb; i++) {
                uint32_t vb = nnav_vinfo_get(B->m, fb + i)->value;
                if (vb == NNAV_NONE || vb >= B->nvalues)
                    continue;
                uint32_t va = B->value_peer[vb];
                int listed = listed_io(A, va, g->a, out); /* A's input/output of that kind? */
                if (!listed) {
                    push_io(d, gentry, NNAV_NONE, vb, out, NNAV_DIFF_ADDED);
                    continue;
                }
                unsigned w = io_type_what(d, va, vb);
                if (!span_eq(nnav_value_get(A->m, va)->name, nnav_value_get(B->m, vb)->name))
                    w |= NNAV_DIFF_RENAMED;
                if (w)
                    push_io(d, gentry, va, vb, out, w);
            }
            for (uint32_t i = 0; i < ca; i++) {
                uint32_t va = nnav_vinfo_get(A->m, fa + i)->value;
                if (va == NNAV_NONE || va >= A->nvalues)
                    continue;
                uint32_t vb = A->value_peer[va];
                int listed = listed_io(B, vb, g->b, out);
                if (!listed)
                    push_io(d, gentry, va, NNAV_NONE, out, NNAV_DIFF_REMOVED);
            }
            if (d->oom)
                break;
        }
    }
    g = &d->graphs.v[gentry];
    g->io_count = d->ios.n - g->io_first;
}

static void push_tensor(nnav_diff *d, const nnav_diff_tensor *e)
{
    dside *A = &d->s[0], *B = &d->s[1];
    if (!e->what)
        return;
    nnav_diff_tensor *p = mark_oom(d, nnav_vec_push(d->tensors));
    if (!p)
        return;
    *p = *e;
    if (e->a != NNAV_NONE)
        A->tensor_entry[e->a] = d->tensors.n - 1;
    if (e->b != NNAV_NONE)
        B->tensor_entry[e->b] = d->tensors.n - 1;
    if (e->what & NNAV_DIFF_ADDED)
        d->tot.tensors_added++;
    else if (e->what & NNAV_DIFF_REMOVED)
        d->tot.tensors_removed++;
    else if (e->what == NNAV_DIFF_RENAMED)
        d->tot.tensors_renamed++;
    else
        d->tot.tensors_changed++;
}

/* A pair's first AHEAD bytes asked of both files (payloads in the map;
 * external data is mapped only when compared). */
static void ask_ahead(const nnav_diff *d, const nnav_diff_tensor *e)
{
    for (int s = 0; s < 2; s++) {
        const nnav_tensor *t = nnav_tensor_get(d->s[s].m, s ? e->b : e->a);
        if (t->storage == NNAV_STORE_RAW && t->data.p && t->data.n >= 2 * (uint64_t)CHUNK)
            will_need(t->data.p, t->data.n < AHEAD ? t->data.n : AHEAD);
    }
}

typedef struct readkey {
    uint64_t at;  /* where A's payload lies: its place in the map, external data after */
    uint32_t i;   /* the pair */
} readkey;

static int readkey_cmp(const void *x, const void *y)
{
    const readkey *a = x, *b = y;
    return a->at < b->at ? -1 : a->at > b->at;
}

/* The graph's initializers in B's order, then A's removed ones. Two
 * passes, so that two large files are read once, in order: first every
 * pair's name, storage type and dims (the records alone), then the values
 * of the pairs that can be compared, in the order A's payloads lie in its
 * file. */
static void tensor_entries(nnav_diff *d, uint32_t gentry)
{
    dside *A = &d->s[0], *B = &d->s[1];
    nnav_diff_graph *g = &d->graphs.v[gentry];
    g->tensor_first = d->tensors.n;
    const nnav_graph *GA = g->a != NNAV_NONE ? nnav_graph_get(A->m, g->a) : NULL;
    const nnav_graph *GB = g->b != NNAV_NONE ? nnav_graph_get(B->m, g->b) : NULL;
    uint64_t most = (uint64_t)(GB ? GB->init_count : 0) + (GA ? GA->init_count : 0);
    nnav_diff_tensor *all = calloc(most ? most : 1, sizeof *all);
    readkey *order = calloc(most ? most : 1, sizeof *order);
    uint32_t n = 0, nv = 0;
    if (!all || !order) {
        d->oom = 1;
        goto out;
    }
    for (uint32_t i = 0; GB && i < GB->init_count; i++) {
        uint32_t tb = GB->init_first + i;
        all[n++] = (nnav_diff_tensor){B->tensor_peer[tb], tb, gentry, 0, 0, 0, -1, 0, 0, 0, 0,
                                      NULL, 0};
    }
    for (uint32_t i = 0; GA && i < GA->init_count; i++) {
        uint32_t ta = GA->init_first + i;
        if (A->tensor_peer[ta] == NNAV_NONE)
            all[n++] = (nnav_diff_tensor){ta, NNAV_NONE, gentry, 0, 0, 0, -1, 0, 0, 0, 0, NULL, 0};
    }
    for (uint32_t i = 0; i < n; i++) {
        nnav_diff_tensor *e = &all[i];
        if (e->a == NNAV_NONE)
            e->what = NNAV_DIFF_ADDED;
        else if (e->b == NNAV_NONE)
            e->what = NNAV_DIFF_REMOVED;
        else
            compare_tensor_meta(d, e);
        if (!wants_values(d, e))
            continue;
        const nnav_tensor *x = nnav_tensor_get(A->m, e->a);
        order[nv].at = x->storage == NNAV_STORE_EXTERNAL
                           ? (1ull << 63) + (uint64_t)(x->ext_offset > 0 ? x->ext_offset : 0)
                           : (uint64_t)(uintptr_t)x->data.p;
        order[nv++].i = i;
    }
    qsort(order, nv, sizeof *order, readkey_cmp);
    for (uint32_t k = 0; k < nv && !d->oom; k++) {
        if (k + 1 < nv) /* the next pair's first pages on their way while this one is compared */
            ask_ahead(d, &all[order[k + 1].i]);
        compare_values(d, &all[order[k].i]);
    }
    for (uint32_t i = 0; i < n && !d->oom; i++)
        push_tensor(d, &all[i]);
out:
    free(all);
    free(order);
    g = &d->graphs.v[gentry];
    g->tensor_count = d->tensors.n - g->tensor_first;
}

static int opsum_cmp(const void *x, const void *y)
{
    const nnav_diff_opsum *a = x, *b = y;
    uint64_t n = a->op.n < b->op.n ? a->op.n : b->op.n;
    int c = n ? memcmp(a->op.p, b->op.p, (size_t)n) : 0;
    if (c)
        return c;
    if (a->op.n != b->op.n)
        return a->op.n < b->op.n ? -1 : 1;
    n = a->domain.n < b->domain.n ? a->domain.n : b->domain.n;
    c = n ? memcmp(a->domain.p, b->domain.p, (size_t)n) : 0;
    if (c)
        return c;
    return a->domain.n < b->domain.n ? -1 : a->domain.n > b->domain.n;
}

/* ---- the run ---- */

static int side_init(nnav_diff *d, int s, const nnav_model *m)
{
    dside *S = &d->s[s];
    S->m = m;
    S->nnodes = nnav_node_count(m);
    S->nvalues = nnav_value_count(m);
    S->ntensors = nnav_tensor_count(m);
    S->ngraphs = nnav_graph_count(m);
    S->node_peer = none_array(d, S->nnodes);
    S->node_entry = none_array(d, S->nnodes);
    S->value_peer = none_array(d, S->nvalues);
    S->tensor_peer = none_array(d, S->ntensors);
    S->tensor_entry = none_array(d, S->ntensors);
    S->graph_entry = none_array(d, S->ngraphs);
    S->node_what = xcalloc(d, S->nnodes, sizeof *S->node_what);
    if (d->oom || !d->o.declutter)
        return d->oom ? -1 : 0;
    S->shapes = nnav_shapes_infer(m, NULL);
    S->decl = xcalloc(d, S->ngraphs, sizeof *S->decl);
    S->hidden = xcalloc(d, S->nnodes, 1);
    if (!S->shapes || d->oom)
        return -1;
    for (uint32_t g = 0; g < S->ngraphs; g++) {
        S->decl[g] = nnav_declutter_build(m, g, S->shapes);
        if (!S->decl[g])
            return d->oom = 1, -1;
        const nnav_graph *G = nnav_graph_get(m, g);
        for (uint32_t i = 0; i < G->node_count; i++)
            S->hidden[G->node_first + i] = (uint8_t)nnav_declutter_hidden(S->decl[g], G->node_first + i);
    }
    return 0;
}

static void side_free(dside *S)
{
    free(S->node_peer);
    free(S->node_entry);
    free(S->value_peer);
    free(S->tensor_peer);
    free(S->tensor_entry);
    free(S->graph_entry);
    free(S->node_what);
    free(S->transposed);
    free(S->hidden);
    if (S->decl)
        for (uint32_t g = 0; g < S->ngraphs; g++)
            nnav_declutter_free(S->decl[g]);
    free(S->decl);
    if (S->shapes)
        nnav_shapes_free(S->shapes);
}

void nnav_diff_free(nnav_diff *d)
{
    if (!d)
        return;
    side_free(&d->s[0]);
    side_free(&d->s[1]);
    for (uint32_t i = 0; i < d->strings.n; i++)
        free(d->strings.v[i]);
    nnav_vec_free(d->strings);
    nnav_vec_free(d->facts);
    nnav_vec_free(d->graphs);
    nnav_vec_free(d->nodes);
    nnav_vec_free(d->attrs);
    nnav_vec_free(d->ios);
    nnav_vec_free(d->tensors);
    nnav_vec_free(d->opsums);
    nnav_vec_free(d->work);
    nnav_hashtab_free(&d->opsum_tab);
    free(d);
}

/* Models that compare with each other: those one reader read (the three
 * files of one framework: a SavedModel against a frozen GraphDef of it is a
 * fair question). */
static int one_family(const nnav_model *a, const nnav_model *b)
{
    const char *x = nnav_model_facts_get(a)->reader_name, *y = nnav_model_facts_get(b)->reader_name;
    return x && y && !strcmp(x, y);
}

static void lone_graph(nnav_diff *d, int s, uint32_t g)
{
    nnav_diff_graph *e = mark_oom(d, nnav_vec_push(d->graphs));
    if (!e)
        return;
    e->a = s ? NNAV_NONE : g;
    e->b = s ? g : NNAV_NONE;
    e->what = s ? NNAV_DIFF_ADDED : NNAV_DIFF_REMOVED;
    d->s[s].graph_entry[g] = d->graphs.n - 1;
    if (s)
        d->tot.graphs_added++;
    else
        d->tot.graphs_removed++;
}

int nnav_diff_run(const nnav_model *a, const nnav_model *b, const nnav_diff_opts *o,
                  nnav_diff **out, nnav_error *err)
{
    *out = NULL;
    memset(err, 0, sizeof *err);
    const nnav_model_facts *xa = nnav_model_facts_get(a), *xb = nnav_model_facts_get(b);
    nnav_format fa = xa->format, fb = xb->format;
    /* A store of named tensors (a checkpoint, a weights file) compares with
     * any model by its tensors: another store, or a graph's initializers. */
    int weights = xa->tensor_store || xb->tensor_store;
    if (!weights && !one_family(a, b)) {
        snprintf(err->msg, sizeof err->msg,
                 "cannot compare %s with %s: the two models must be of one format",
                 nnav_model_facts_get(a)->format_name, nnav_model_facts_get(b)->format_name);
        err->kind = NNAV_ERR_USAGE;
        return -1;
    }
    nnav_diff *d = calloc(1, sizeof *d);
    if (!d)
        goto oom;
    if (o)
        d->o = *o;
    if (!(d->o.tolerance >= 0)) /* NaN or negative: exact */
        d->o.tolerance = 0;
    d->weights = d->tot.weights_only = weights;
    if (side_init(d, 0, a) || side_init(d, 1, b))
        goto oom;
    if (weights) {
        /* The main graphs' tensors alone: a graph's nodes, inputs, opsets
         * and other graphs have nothing to meet in a store of tensors, and
         * two formats are no difference of the weights (the faces name
         * each side's format). */
        if (fa == fb && !strcmp(xa->format_name, xb->format_name))
            compare_facts(d); /* two of one format: their facts compare as ever */
        uint32_t ga = nnav_graph_by_path(a, "/"), gb = nnav_graph_by_path(b, "/");
        if (ga != NNAV_NONE && gb != NNAV_NONE) {
            pair_graphs(d, ga, gb);
            match_weights(d, ga, gb);
            tensor_entries(d, 0);
        }
    } else {
        compare_facts(d);
        pair_top_graphs(d);
        for (uint32_t i = 0; i < d->graphs.n && !d->oom; i++) {
            uint32_t ga = d->graphs.v[i].a, gb = d->graphs.v[i].b;
            match_graph(d, ga, gb);
            match_init_leftovers(d, ga, gb);
            pair_bodies(d, ga, gb);
        }
        for (int s = 0; s < 2; s++)
            for (uint32_t g = 0; g < d->s[s].ngraphs; g++)
                if (d->s[s].graph_entry[g] == NNAV_NONE)
                    lone_graph(d, s, g);
        for (uint32_t i = 0; i < d->graphs.n && !d->oom; i++) {
            node_entries(d, i);
            io_entries(d, i);
            tensor_entries(d, i);
        }
    }
    if (d->oom)
        goto oom;
    nnav_hashtab_free(&d->opsum_tab); /* its ids do not survive the sort */
    if (d->opsums.n)
        qsort(d->opsums.v, d->opsums.n, sizeof *d->opsums.v, opsum_cmp);
    nnav_diff_totals *t = &d->tot;
    t->nodes_a = d->s[0].nnodes;
    t->nodes_b = d->s[1].nnodes;
    for (uint32_t i = 0; i < d->graphs.n; i++) {
        const nnav_diff_graph *g = &d->graphs.v[i];
        t->same += g->same;
        t->added += g->added;
        t->removed += g->removed;
        t->renamed += g->renamed;
        t->changed += g->changed;
    }
    t->io_changed = d->ios.n;
    t->facts = d->facts.n;
    *out = d;
    return 0;
oom:
    nnav_diff_free(d);
    snprintf(err->msg, sizeof err->msg, "out of memory comparing the two models");
    err->kind = NNAV_ERR_INPUT;
    return -1;
}

/* ---- accessors ---- */

const nnav_model *nnav_diff_model(const nnav_diff *d, int side) { return d->s[side ? 1 : 0].m; }

int nnav_diff_any(const nnav_diff *d)
{
    return d->facts.n || d->nodes.n || d->ios.n || d->tensors.n || d->tot.graphs_added ||
           d->tot.graphs_removed;
}

/* The lists: a count and an item by index (NULL past the end). */
#define LIST(name, type, vec)                                                                  \
    size_t nnav_diff_##name##_count(const nnav_diff *d) { return d->vec.n; }                   \
    const type *nnav_diff_##name##_get(const nnav_diff *d, size_t i)                           \
    {                                                                                          \
        return i < d->vec.n ? &d->vec.v[i] : NULL;                                             \
    }
LIST(fact, nnav_diff_fact, facts)
LIST(graph, nnav_diff_graph, graphs)
LIST(node, nnav_diff_node, nodes)
LIST(attr, nnav_diff_attr, attrs)
LIST(io, nnav_diff_io, ios)
LIST(tensor, nnav_diff_tensor, tensors)
LIST(opsum, nnav_diff_opsum, opsums)
#undef LIST

/* Per id of one side: an array entry, or `none` for an id past its count. */
#define PER_ID(type, fn, arr, count, none)                                                     \
    type fn(const nnav_diff *d, int side, uint32_t id)                                         \
    {                                                                                          \
        const dside *S = &d->s[side ? 1 : 0];                                                  \
        return id < S->count ? S->arr[id] : none;                                              \
    }
PER_ID(uint32_t, nnav_diff_graph_of, graph_entry, ngraphs, NNAV_NONE)
PER_ID(uint32_t, nnav_diff_node_peer, node_peer, nnodes, NNAV_NONE)
PER_ID(unsigned, nnav_diff_node_what, node_what, nnodes, 0)
PER_ID(uint32_t, nnav_diff_node_entry, node_entry, nnodes, NNAV_NONE)
PER_ID(uint32_t, nnav_diff_value_peer, value_peer, nvalues, NNAV_NONE)
PER_ID(uint32_t, nnav_diff_tensor_peer, tensor_peer, ntensors, NNAV_NONE)
PER_ID(uint32_t, nnav_diff_tensor_entry, tensor_entry, ntensors, NNAV_NONE)
#undef PER_ID
const nnav_diff_totals *nnav_diff_totals_get(const nnav_diff *d) { return &d->tot; }

/* ---- the summary line ---- */

typedef struct sumbuf {
    char *buf;
    size_t n, len;
    int items, cut;
} sumbuf;

/* Appends one item, whole or not at all (then ", ..." once, room kept for it). */
static void sum_item(sumbuf *s, const char *item)
{
    if (s->cut)
        return;
    size_t need = strlen(item) + (s->items ? 2 : 0);
    if (s->len + need + 6 > s->n) {
        const char *more = s->items ? ", ..." : "...";
        if (s->len + strlen(more) < s->n) {
            memcpy(s->buf + s->len, more, strlen(more) + 1);
            s->len += strlen(more);
        }
        s->cut = 1;
        return;
    }
    s->len += (size_t)snprintf(s->buf + s->len, s->n - s->len, "%s%s", s->items ? ", " : "", item);
    s->items++;
}

static void what_words(unsigned what, unsigned skip, char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = 0;
    for (unsigned bit = 0; bit < NWORDS; bit++) {
        if (!(what & (1u << bit)) || (skip & (1u << bit)))
            continue;
        int w = snprintf(buf + len, n - len, "%s%s", len ? ", " : "", words[bit]);
        if (w < 0 || (size_t)w >= n - len)
            break;
        len += (size_t)w;
    }
}

static const char *plural(uint64_t n) { return n == 1 ? "" : "s"; }

size_t nnav_diff_summary(const nnav_diff *d, char *buf, size_t n)
{
    if (!n)
        return 0;
    sumbuf s = {buf, n, 0, 0, 0};
    buf[0] = 0;
    char item[600], name[300], dom[200], ws[200];
    for (uint32_t i = 0; i < d->opsums.n; i++) {
        const nnav_diff_opsum *o = &d->opsums.v[i];
        nnav_text_escape(o->op.p, (size_t)o->op.n, name, sizeof name);
        if (o->domain.n) {
            nnav_text_escape(o->domain.p, (size_t)o->domain.n, dom, sizeof dom);
            char full[520];
            snprintf(full, sizeof full, "%s.%s", dom, name);
            snprintf(name, sizeof name, "%s", full);
        }
        if (o->added) {
            snprintf(item, sizeof item, "+%u %s", o->added, name);
            sum_item(&s, item);
        }
        if (o->removed) {
            snprintf(item, sizeof item, "-%u %s", o->removed, name);
            sum_item(&s, item);
        }
        if (o->renamed) {
            snprintf(item, sizeof item, "%u %s renamed", o->renamed, name);
            sum_item(&s, item);
        }
        if (o->changed) {
            what_words(o->changed_what, 0, ws, sizeof ws);
            snprintf(item, sizeof item, "%u %s changed (%s)", o->changed, name, ws);
            sum_item(&s, item);
        }
    }
    const nnav_diff_totals *t = &d->tot;
    unsigned tw = 0;
    for (uint32_t i = 0; i < d->tensors.n; i++)
        if (!(d->tensors.v[i].what & (NNAV_DIFF_ADDED | NNAV_DIFF_REMOVED)) &&
            d->tensors.v[i].what != NNAV_DIFF_RENAMED)
            tw |= d->tensors.v[i].what;
    struct { uint64_t n; const char *what; } rows[] = {
        {t->tensors_changed, "changed"}, {t->tensors_added, "added"},
        {t->tensors_removed, "removed"}, {t->tensors_renamed, "renamed"},
    };
    for (size_t i = 0; i < 4; i++) {
        if (!rows[i].n)
            continue;
        if (i == 0) {
            what_words(tw, NNAV_DIFF_RENAMED, ws, sizeof ws);
            snprintf(item, sizeof item, "%llu initializer%s changed (%s)",
                     (unsigned long long)rows[i].n, plural(rows[i].n), ws);
        } else {
            snprintf(item, sizeof item, "%llu initializer%s %s", (unsigned long long)rows[i].n,
                     plural(rows[i].n), rows[i].what);
        }
        sum_item(&s, item);
    }
    if (t->io_changed) {
        snprintf(item, sizeof item, "%llu graph input%s/output%s changed",
                 (unsigned long long)t->io_changed, plural(t->io_changed),
                 plural(t->io_changed));
        sum_item(&s, item);
    }
    if (t->graphs_added) {
        snprintf(item, sizeof item, "%llu graph%s added", (unsigned long long)t->graphs_added,
                 plural(t->graphs_added));
        sum_item(&s, item);
    }
    if (t->graphs_removed) {
        snprintf(item, sizeof item, "%llu graph%s removed", (unsigned long long)t->graphs_removed,
                 plural(t->graphs_removed));
        sum_item(&s, item);
    }
    if (t->facts) {
        snprintf(item, sizeof item, "%u model fact%s changed", t->facts, plural(t->facts));
        sum_item(&s, item);
    }
    if (!s.items && !s.cut)
        snprintf(buf, n, "no differences");
    return strlen(buf);
}
