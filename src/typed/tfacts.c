/* tfacts.c - the facts of one initializer, shared by the CLI and the
 * explorer (see tfacts.h). */
#include "tfacts.h"

#include <string.h>

#include "model.h"
#include "opset_rules.h"
#include "sbuf.h"
#include "scope.h"

/* dims x dtype when known, else the bytes stored. */
static uint64_t tensor_bytes(const nnav_tensor *t)
{
    return t->nbytes != UINT64_MAX ? t->nbytes : t->stored;
}

static uint64_t dims_product(const int64_t *d, uint32_t n)
{
    uint64_t p = 1;
    for (uint32_t i = 0; i < n; i++)
        if (d[i] < 0 || __builtin_mul_overflow(p, (uint64_t)d[i], &p))
            return UINT64_MAX;
    return p;
}

void nnav_tfacts_get(const nnav_model *m, uint32_t t, nnav_tfacts *f)
{
    const nnav_tensor *ts = nnav_tensor_get(m, t);
    *f = (nnav_tfacts){
        .tensor = t, .sparse = NNAV_NONE, .value = NNAV_NONE, .dtype = ts->dtype, .stype = ts->stype,
        .ndims = ts->ndims, .dims = nnav_dims(m, ts->dims_first), .nelems = ts->nelems,
        .stored = ts->nelems, .bytes = tensor_bytes(ts), .holder = NNAV_NONE,
    };
    /* Held by a Constant node: an attribute's tensor (TensorFlow's Const
     * value is owned as an initializer, named by its attribute). */
    const nnav_opset_rules *R = nnav_opset_rules_of(m);
    if ((ts->owner == NNAV_TOWN_ATTRIBUTE ||
         (R->const_as_initializer && ts->owner == NNAV_TOWN_INITIALIZER)) &&
        ts->owner_id < nnav_attr_count(m)) {
        uint32_t node = nnav_attr_get(m, ts->owner_id)->node;
        if (node < nnav_node_count(m)) {
            nnav_span op = nnav_node_get(m, node)->op;
            if (nnav_span_eqs(op, R->constant_op))
                f->holder = node;
        }
    }
    if (ts->owner == NNAV_TOWN_SPARSE_VALUES && ts->owner_id < nnav_sparse_count(m)) {
        const nnav_sparse *sp = nnav_sparse_get(m, ts->owner_id);
        f->sparse = ts->owner_id;
        f->ndims = sp->ndims;
        f->dims = nnav_dims(m, sp->dims_first);
        f->nelems = dims_product(f->dims, f->ndims);
        if (sp->indices != NNAV_NONE) {
            uint64_t ib = tensor_bytes(nnav_tensor_get(m, sp->indices));
            if (f->bytes == UINT64_MAX || ib == UINT64_MAX ||
                __builtin_add_overflow(f->bytes, ib, &f->bytes))
                f->bytes = UINT64_MAX;
        }
    }
    /* The value the graph sees under the tensor's name: a dense initializer's,
     * or a sparse one's (named by its values). Constants and indices have none. */
    if ((ts->owner == NNAV_TOWN_INITIALIZER || f->sparse != NNAV_NONE) && ts->name.n)
        f->value = nnav_value_lookup(m, ts->graph, (const char *)ts->name.p, (size_t)ts->name.n);
}

uint32_t nnav_tfacts_consumer(const nnav_model *m, const nnav_tfacts *f)
{
    uint32_t n = 0;
    if (f->value == NNAV_NONE || f->value >= nnav_value_count(m))
        return NNAV_NONE;
    const uint32_t *c = nnav_value_consumers(m, f->value, &n);
    return n && c && c[0] < nnav_node_count(m) ? c[0] : NNAV_NONE;
}

static int has_scope(nnav_span s)
{
    for (uint64_t i = 0; i < s.n; i++)
        if (s.p[i] == '/' || s.p[i] == '.')
            return 1;
    return 0;
}

int nnav_tfacts_unscoped(const nnav_model *m, const nnav_tfacts *f, uint32_t consumer)
{
    if (consumer == NNAV_NONE || consumer >= nnav_node_count(m))
        return 0;
    return !has_scope(nnav_tensor_get(m, f->tensor)->name) &&
           has_scope(nnav_node_get(m, consumer)->name);
}

void nnav_tfacts_shape(const nnav_tfacts *f, char *buf, size_t n)
{
    nnav_sbuf b = {buf, n, 0};
    if (n)
        buf[0] = 0;
    nnav_sb_put(&b, f->stype ? f->stype : nnav_dtype_name(f->dtype));
    nnav_sb_put(&b, "[");
    for (uint32_t i = 0; i < f->ndims; i++)
        nnav_sb_printf(&b, i ? ",%lld" : "%lld", (long long)f->dims[i]);
    nnav_sb_put(&b, "]");
}

void nnav_tfacts_storage(const nnav_model *m, const nnav_tfacts *f, char *buf, size_t n)
{
    if (f->sparse == NNAV_NONE) {
        /* "Constant, " (or the format's constant op) when a node holds it */
        const char *op = f->holder == NNAV_NONE ? "" : nnav_opset_rules_of(m)->constant_op;
        size_t k = *op && strlen(op) + 2 < n ? strlen(op) + 2 : 0;
        if (k) {
            memcpy(buf, op, k - 2);
            memcpy(buf + k - 2, ", ", 2);
        }
        nnav_tensor_storage_format(m, f->tensor, buf + k, n - k);
        return;
    }
    nnav_sbuf b = {buf, n, 0};
    if (n)
        buf[0] = 0;
    nnav_sb_printf(&b, "sparse (%llu values)",
                   (unsigned long long)(f->stored == UINT64_MAX ? 0 : f->stored));
}

uint32_t nnav_tfacts_constant_weights(const nnav_model *m, uint32_t graph, uint32_t *out,
                                      uint64_t *elems)
{
    uint32_t k = 0;
    uint64_t e = 0;
    if (graph < nnav_graph_count(m)) {
        const nnav_graph *g = nnav_graph_get(m, graph);
        for (uint32_t i = 0; i < g->node_count; i++) {
            uint32_t t = nnav_constant_weight(m, g->node_first + i);
            if (t == NNAV_NONE || (t >= g->init_first && t - g->init_first < g->init_count))
                continue;
            uint64_t ne = nnav_tensor_get(m, t)->nelems;
            e = ne > UINT64_MAX - e ? UINT64_MAX : e + ne;
            if (out)
                out[k] = t;
            k++;
        }
    }
    if (elems)
        *elems = e;
    return k;
}
