/* opschema_tf.c - TensorFlow nodes against their model's OpDefs (contract in
 * opschema_tf.h). */
#include "opschema_tf.h"

#include <stdio.h>
#include <string.h>

#include "model.h"
#include "nnav.h"

const nnav_op_schema *nnav_op_tf_find(const nnav_model *m, nnav_span name)
{
    uint32_t n;
    const nnav_op_schema *s = nnav_model_op_schemas(m, &n);
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        /* Schema names hold no NUL byte (the reader refuses such OpDefs), so
         * comparing the common prefix, then the lengths, orders as strcmp. */
        const char *key = s[mid].name;
        size_t kn = strlen(key);
        size_t common = kn < name.n ? kn : (size_t)name.n;
        int k = common ? memcmp(key, name.p, common) : 0;
        if (!k)
            k = (kn > name.n) - (kn < name.n);
        if (!k)
            return &s[mid];
        if (k < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

int nnav_op_resolve_tf(const nnav_model *m, uint32_t node, nnav_op_use *out)
{
    if (node >= nnav_node_count(m))
        return -1;
    const nnav_node *nd = nnav_node_get(m, node);
    uint32_t n;
    memset(out, 0, sizeof *out);
    out->opset = -1;
    nnav_model_op_schemas(m, &n);
    if (nd->function != NNAV_NONE) {
        out->status = NNAV_OPS_FUNCTION;
    } else if (!n) {
        out->status = NNAV_OPS_NO_SCHEMAS;
    } else {
        out->domain = NNAV_OP_DOMAIN_MODEL;
        out->s = nnav_op_tf_find(m, nd->op);
        out->status = out->s ? NNAV_OPS_FOUND : NNAV_OPS_UNKNOWN;
    }
    return 0;
}

/* How many tensors formal j of schema si takes at node nd: 1 for a single
 * formal, else from the node's count attr or the OpDef's default; -1 when
 * that is not known. */
static int64_t formal_count(const nnav_model *m, const nnav_node *nd, const nnav_op_schema *s,
                            uint32_t si, int output, uint32_t j)
{
    const char *name = m->op_count_attrs[si][(output ? s->n_in : 0) + j];
    const nnav_op_formal *fm = output ? &s->out[j] : &s->in[j];
    nnav_error err;
    if (!name)
        return 1;
    for (uint32_t a = 0; a < nd->attr_count; a++) {
        const nnav_attr *at = nnav_attr_get(m, nd->attr_first + a);
        if (!nnav_span_eqs(at->name, name))
            continue;
        if (fm->homogeneous) {
            int64_t v;
            if (at->type != NNAV_ATTR_INT || nnav_attr_int(m, nd->attr_first + a, &v, &err) < 0)
                return -1;
            return v < 0 ? -1 : v;
        }
        size_t total;
        if (at->type == NNAV_ATTR_TF_LIST)
            return 0;
        if (at->type != NNAV_ATTR_TF_TYPES ||
            nnav_attr_ints(m, nd->attr_first + a, NULL, 0, &total, &err) < 0)
            return -1;
        return (int64_t)total;
    }
    for (uint32_t a = 0; a < s->n_attrs; a++) {
        const nnav_op_attr *sa = &s->attrs[a];
        if (strcmp(sa->name, name) != 0)
            continue;
        if (!sa->has_default)
            return -1;
        if (fm->homogeneous)
            return sa->def.kind == NNAV_ATTR_INT && sa->def.i >= 0 ? sa->def.i : -1;
        return sa->def.kind == NNAV_ATTR_TF_TYPES ? (int64_t)sa->def.count : -1;
    }
    return -1;
}

const nnav_op_formal *nnav_op_tf_arg_formal(const nnav_model *m, uint32_t node,
                                            const nnav_op_schema *s, int output, uint32_t i,
                                            uint32_t *k)
{
    uint32_t n;
    const nnav_op_schema *all = nnav_model_op_schemas(m, &n);
    if (!all || s < all || s >= all + n || node >= nnav_node_count(m) || !m->op_count_attrs)
        return NULL;
    uint32_t si = (uint32_t)(s - all);
    const nnav_node *nd = nnav_node_get(m, node);
    uint64_t pos = 0;
    uint32_t nf = output ? s->n_out : s->n_in;
    for (uint32_t j = 0; j < nf; j++) {
        int64_t c = formal_count(m, nd, s, si, output, j);
        if (c < 0)
            return NULL;
        if (c > (int64_t)UINT32_MAX + 1) /* past any position i: no overflow below */
            c = (int64_t)UINT32_MAX + 1;
        if (i < pos + (uint64_t)c) {
            if (k)
                *k = (uint32_t)(i - pos);
            return output ? &s->out[j] : &s->in[j];
        }
        pos += (uint64_t)c;
    }
    return NULL;
}

const char *nnav_op_tf_arg_name(const nnav_model *m, uint32_t node, const nnav_op_schema *s,
                                int output, uint32_t i, char *buf, size_t n)
{
    uint32_t k = 0;
    const nnav_op_formal *fm = nnav_op_tf_arg_formal(m, node, s, output, i, &k);
    if (!n)
        return buf;
    if (!fm)
        buf[0] = 0;
    else if (fm->option == NNAV_OPF_VARIADIC)
        snprintf(buf, n, "%s[%u]", fm->name, k);
    else
        snprintf(buf, n, "%s", fm->name);
    return buf;
}
