/* opschema.c - the operator table and a node held to the schema in force
 * (opschema.h). The table is generated (opschema_onnx.c); this file only
 * searches it: binary search by (domain, name), then the newest version not
 * past the opset in force, as onnx.checker resolves a node. */
#include <stdio.h>
#include <string.h>

#include "opschema.h"
#include "opschema_table.h"
#include "opset_rules.h"
#include "opschema_tf.h"
#include "sbuf.h"

const char *nnav_op_table_origin(void) { return nnav_opschema_origin; }
size_t nnav_op_table_count(void) { return nnav_opschema_onnx_count; }

const nnav_op_schema *nnav_op_table_at(size_t i)
{
    return i < nnav_opschema_onnx_count ? &nnav_opschema_onnx[i] : NULL;
}

size_t nnav_op_domain_count(void) { return nnav_opschema_domain_count; }

const char *nnav_op_domain_at(size_t i)
{
    return i < nnav_opschema_domain_count ? nnav_opschema_domains[i].name : NULL;
}

/* The table's own string for a canonical domain: callers compare domains
 * by pointer (opschema.h). "" is ai.onnx, which sorts first. */
const char *nnav_op_domain_canon(nnav_span domain)
{
    if (domain.n == 0)
        return nnav_opschema_domains[0].name;
    for (size_t i = 0; i < nnav_opschema_domain_count; i++)
        if (nnav_span_eqs(domain, nnav_opschema_domains[i].name))
            return nnav_opschema_domains[i].name;
    return NULL;
}

int32_t nnav_op_table_max(const char *domain)
{
    for (size_t i = 0; domain && i < nnav_opschema_domain_count; i++)
        if (strcmp(domain, nnav_opschema_domains[i].name) == 0)
            return nnav_opschema_domains[i].max;
    return 0;
}

/* Order of (domain, name) against a schema: domain by strcmp, name by bytes
 * then length (the table is sorted by Python's str order, which for ASCII
 * names is byte order). */
static int key_cmp(const char *domain, nnav_span name, const nnav_op_schema *s)
{
    int c = strcmp(domain, s->domain);
    if (c)
        return c;
    size_t sl = strlen(s->name), k = name.n < sl ? name.n : sl;
    c = k ? memcmp(name.p, s->name, k) : 0;
    if (c)
        return c;
    return name.n < sl ? -1 : name.n > sl;
}

/* The first schema of (domain, name) and how many versions follow it. */
static size_t find_first(const char *domain, nnav_span name, size_t *count)
{
    size_t lo = 0, hi = nnav_opschema_onnx_count;
    *count = 0;
    if (!domain || (name.n && !name.p))
        return 0;
    while (lo < hi) { /* lower bound */
        size_t mid = lo + (hi - lo) / 2;
        if (key_cmp(domain, name, &nnav_opschema_onnx[mid]) > 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    size_t end = lo;
    while (end < nnav_opschema_onnx_count && key_cmp(domain, name, &nnav_opschema_onnx[end]) == 0)
        end++;
    *count = end - lo;
    return lo;
}

const nnav_op_schema *nnav_op_lookup(const char *domain, nnav_span name, int64_t version)
{
    size_t n, first = find_first(domain, name, &n);
    const nnav_op_schema *best = NULL;
    for (size_t i = 0; i < n; i++)
        if (nnav_opschema_onnx[first + i].since <= version)
            best = &nnav_opschema_onnx[first + i];
    return best;
}

size_t nnav_op_history(const char *domain, nnav_span name, const nnav_op_schema **out, size_t max)
{
    size_t n, first = find_first(domain, name, &n);
    for (size_t i = 0; i < n && i < max; i++)
        out[i] = &nnav_opschema_onnx[first + i];
    return n;
}

/* The version of `domain` (canonical) imported by the function or model
 * whose scope holds graph g; -1 when it is not imported there. */
static int64_t opset_in_force(const nnav_model *m, uint32_t g, const char *domain)
{
    uint32_t first = 0, count = nnav_opset_count(m);
    uint32_t ng = nnav_graph_count(m);
    /* Up to the root graph: a body inherits its graph's imports. The depth
     * is bounded at open; the step count bounds it again here. */
    for (uint32_t steps = 0; g < ng && steps <= ng; steps++) {
        const nnav_graph *gr = nnav_graph_get(m, g);
        if (gr->kind == NNAV_GRAPH_FUNCTION && gr->function < nnav_function_count(m)) {
            const nnav_function *f = nnav_function_get(m, gr->function);
            first = f->opset_first, count = f->opset_count;
            break;
        }
        if (gr->parent == NNAV_NONE)
            break;
        g = gr->parent;
    }
    int64_t v = -1;
    for (uint32_t k = 0; k < count; k++) {
        const nnav_opset *o = nnav_opset_get(m, first + k);
        const char *c = nnav_op_domain_canon(o->domain);
        if (c == domain) /* the first import of a domain counts, as in onnx */
            return o->version;
    }
    return v;
}


int nnav_op_resolve(const nnav_model *m, uint32_t node, nnav_op_use *out)
{
    memset(out, 0, sizeof *out);
    out->opset = -1;
    out->status = NNAV_OPS_UNKNOWN;
    if (node >= nnav_node_count(m))
        return -1;
    if (nnav_opset_rules_of(m) == &nnav_rules_tf) /* the format's own op definitions */ /* the OpDefs the model carries */
        return nnav_op_resolve_tf(m, node, out);
    const nnav_node *nd = nnav_node_get(m, node);
    nnav_span dom = nnav_node_domain(m, node);
    if (nd->function != NNAV_NONE) {
        out->status = NNAV_OPS_FUNCTION;
        return 0;
    }
    out->domain = nnav_op_domain_canon(dom);
    if (!out->domain) {
        out->status = NNAV_OPS_NONSTANDARD;
        return 0;
    }
    out->table_max = nnav_op_table_max(out->domain);
    out->opset = opset_in_force(m, nd->graph, out->domain);
    if (out->opset < 0) {
        out->status = NNAV_OPS_NO_OPSET;
        return 0;
    }
    const nnav_op_schema *h[1];
    if (nnav_op_history(out->domain, nd->op, h, 1) == 0) {
        out->status = NNAV_OPS_UNKNOWN;
        return 0;
    }
    out->s = nnav_op_lookup(out->domain, nd->op, out->opset);
    out->past_table = out->opset > out->table_max;
    if (!out->s) {
        out->s = h[0];
        out->status = NNAV_OPS_NOT_YET;
        return 0;
    }
    out->status = NNAV_OPS_FOUND;
    return 0;
}

const nnav_op_formal *nnav_op_arg_formal(const nnav_op_schema *s, int output, uint32_t i)
{
    const nnav_op_formal *f = output ? s->out : s->in;
    uint32_t n = output ? s->n_out : s->n_in;
    if (!n)
        return NULL;
    if (i < n)
        return &f[i];
    return f[n - 1].option == NNAV_OPF_VARIADIC ? &f[n - 1] : NULL;
}

const char *nnav_op_arg_name(const nnav_op_schema *s, int output, uint32_t i, char *buf, size_t n)
{
    const nnav_op_formal *f = nnav_op_arg_formal(s, output, i);
    uint32_t nf = output ? s->n_out : s->n_in;
    if (n)
        buf[0] = 0;
    if (!f || !n)
        return buf;
    if (f->option == NNAV_OPF_VARIADIC && i + 1 >= nf) /* the last formal takes the rest */
        snprintf(buf, n, "%s[%u]", f->name, i - (nf - 1));
    else
        snprintf(buf, n, "%s", f->name);
    return buf;
}

const char *nnav_op_node_arg_name(const nnav_model *m, uint32_t node, const nnav_op_schema *s,
                                  int output, uint32_t i, char *buf, size_t n)
{
    if (nnav_op_schema_is_models(s))
        return nnav_op_tf_arg_name(m, node, s, output, i, buf, n);
    return nnav_op_arg_name(s, output, i, buf, n);
}

const nnav_op_attr *nnav_op_attr_find(const nnav_op_schema *s, nnav_span name)
{
    size_t lo = 0, hi = s->n_attrs;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const char *an = s->attrs[mid].name;
        size_t al = strlen(an), k = name.n < al ? name.n : al;
        int c = k ? memcmp(name.p, an, k) : 0;
        if (!c)
            c = name.n < al ? -1 : name.n > al;
        if (!c)
            return &s->attrs[mid];
        if (c < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return NULL;
}

uint32_t nnav_op_node_attr(const nnav_model *m, uint32_t node, const char *name)
{
    if (node >= nnav_node_count(m))
        return NNAV_NONE;
    const nnav_node *nd = nnav_node_get(m, node);
    for (uint32_t k = 0; k < nd->attr_count; k++)
        if (nnav_span_eqs(nnav_attr_get(m, nd->attr_first + k)->name, name))
            return nd->attr_first + k;
    return NNAV_NONE;
}

void nnav_op_default_format(const nnav_op_default *d, char *buf, size_t n)
{
    nnav_sbuf b = {buf, n, 0};
    char num[64];
    if (n)
        buf[0] = 0;
    switch (d->kind) {
    case NNAV_ATTR_INT: nnav_sb_printf(&b, "%lld", (long long)d->i); break;
    case NNAV_ATTR_FLOAT:
        nnav_fmt_double(num, sizeof num, d->f, 1);
        nnav_sb_put(&b, num);
        break;
    case NNAV_ATTR_STRING:
        nnav_sb_put(&b, "\"");
        nnav_sb_span(&b, (nnav_span){(const uint8_t *)d->s, d->s ? strlen(d->s) : 0});
        nnav_sb_put(&b, "\"");
        break;
    case NNAV_ATTR_INTS: case NNAV_ATTR_FLOATS: case NNAV_ATTR_STRINGS:
        nnav_sb_put(&b, "[");
        for (uint32_t i = 0; i < d->count; i++) {
            nnav_sb_put(&b, i ? ", " : "");
            if (d->kind == NNAV_ATTR_INTS) {
                nnav_sb_printf(&b, "%lld", (long long)d->ints[i]);
            } else if (d->kind == NNAV_ATTR_FLOATS) {
                nnav_fmt_double(num, sizeof num, d->floats[i], 1);
                nnav_sb_put(&b, num);
            } else {
                const char *s = d->strings[i];
                nnav_sb_put(&b, "\"");
                nnav_sb_span(&b, (nnav_span){(const uint8_t *)s, s ? strlen(s) : 0});
                nnav_sb_put(&b, "\"");
            }
        }
        nnav_sb_put(&b, "]");
        break;
    default:
        if (d->text)
            nnav_sb_span(&b, (nnav_span){(const uint8_t *)d->text, strlen(d->text)});
        break;
    }
}

const nnav_op_tc *nnav_op_tc_find(const nnav_op_schema *s, const char *param)
{
    for (uint32_t i = 0; param && i < s->n_tcs; i++)
        if (strcmp(s->tcs[i].param, param) == 0)
            return &s->tcs[i];
    return NULL;
}

const char *nnav_op_tensor_type_str(int32_t dtype)
{
    /* ONNX TensorProto.DataType numbering. */
    static const char *const names[] = {
        NULL, "tensor(float)", "tensor(uint8)", "tensor(int8)", "tensor(uint16)",
        "tensor(int16)", "tensor(int32)", "tensor(int64)", "tensor(string)", "tensor(bool)",
        "tensor(float16)", "tensor(double)", "tensor(uint32)", "tensor(uint64)",
        "tensor(complex64)", "tensor(complex128)", "tensor(bfloat16)",
        "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
        "tensor(float8e5m2fnuz)", "tensor(uint4)", "tensor(int4)", "tensor(float4e2m1)",
        "tensor(float8e8m0)", "tensor(uint2)", "tensor(int2)", /* onnx 1.20-1.22's types */
    };
    if (dtype <= 0 || (size_t)dtype >= sizeof names / sizeof names[0])
        return NULL;
    return names[dtype];
}
