/* export_yaml.c - a selection written as YAML with libyaml's emitter.
 *
 * Layout (keys follow the ONNX field names in snake_case; documented in
 * nnav(1)): model facts, then `graph` with input, output, initializer,
 * sparse_initializer, node (each attribute typed; GRAPH attributes hold nested
 * graphs), then the local `functions` the nodes call. Nested graphs are
 * emitted with an explicit stack, so nesting depth costs no C stack. */
#include <stdlib.h>
#include <string.h>

#include "declutter.h"
#include "dtype.h"
#include "export.h"
#include "model.h"
#include "shape.h"
#include "yamlout.h"

/* The inferred types, computed on first need: only a value the file leaves
 * untyped asks for them, and most exports have none. */
typedef struct typed_view {
    const nnav_shapes *s; /* the caller's (nnav_export_opts.shapes), or own */
    nnav_shapes *own;     /* inferred here, freed at the end */
    int tried;
} typed_view;

static const nnav_fact *inferred_fact(const nnav_model *m, typed_view *tv, uint32_t value)
{
    if (!tv->tried) {
        tv->tried = 1;
        tv->s = tv->own = nnav_shapes_infer(m, NULL);
    }
    if (!tv->s)
        return NULL;
    const nnav_fact *f = nnav_shapes_fact(tv->s, value);
    if (!f || f->src != NNAV_SRC_INFERRED || f->not_tensor || (!f->dtype && f->rank < 0))
        return NULL;
    return f;
}

static void yw_kv_span(nnav_yw *w, const char *k, nnav_span s)
{
    nnav_yw_key(w, k);
    nnav_yw_span(w, s);
}

/* A value the file gives no type, typed by inference: the same keys as a
 * typed one, and inferred: true to say the file did not write them. */
static void emit_inferred(nnav_yw *w, const nnav_shapes *s, const nnav_fact *f)
{
    char buf[1024];
    nnav_fact_format(s, f, buf, sizeof buf);
    nnav_yw_key(w, "type"), nnav_yw_cstr(w, buf);
    if (f->dtype)
        nnav_yw_key(w, "elem_type"), nnav_yw_cstr(w, nnav_dtype_onnx_name(f->dtype));
    if (f->rank >= 0) {
        const nnav_dim *d = nnav_shapes_dims(s, f->dims);
        nnav_yw_key(w, "shape");
        nnav_yw_seq_flow(w);
        for (int32_t i = 0; i < f->rank; i++) {
            if (nnav_dim_is_num(d[i])) {
                nnav_yw_int(w, nnav_dim_val(d[i]));
            } else if (nnav_dim_is_sym(d[i])) {
                nnav_dim_format(s, d[i], buf, sizeof buf);
                nnav_yw_cstr(w, buf);
            } else {
                nnav_yw_null(w);
            }
        }
        nnav_yw_seq_end(w);
    }
    nnav_yw_key(w, "inferred"), nnav_yw_bool(w, 1);
}

/* name, type string, elem_type and shape of a value (or value info). */
static void emit_value(nnav_yw *w, const nnav_model *m, nnav_span name, nnav_span type,
                       uint32_t value, typed_view *tv)
{
    char buf[1024];
    nnav_yw_map(w);
    yw_kv_span(w, "name", name);
    if (!type.p && value != NNAV_NONE && m->values.v[value].kind != NNAV_VAL_INITIALIZER &&
        m->values.v[value].kind != NNAV_VAL_SPARSE) {
        const nnav_fact *f = inferred_fact(m, tv, value);
        if (f) {
            emit_inferred(w, tv->s, f);
            nnav_yw_map_end(w);
            return;
        }
    }
    buf[0] = 0;
    /* dims[i] < 0 with no symbol is unknown: the decoded type's convention. */
    nnav_type tt;
    int is_tensor = nnav_type_decode(m, type, &tt);
    if (type.p)
        nnav_type_format(m, type, buf, sizeof buf);
    else if (value != NNAV_NONE)
        nnav_value_type_format(m, value, buf, sizeof buf);
    int32_t et = tt.elem;
    int has_shape = tt.rank >= 0;
    uint64_t rank = tt.rank >= 0 ? (uint64_t)tt.rank : 0;
    int64_t *dims = tt.dims;
    nnav_span *params = tt.syms;
    if (!type.p && value != NNAV_NONE) {
        const nnav_value *v = &m->values.v[value];
        if (v->kind == NNAV_VAL_INITIALIZER) {
            const nnav_tensor *t = &m->tensors.v[v->producer];
            is_tensor = 1;
            et = t->dtype;
            has_shape = 1;
            rank = t->ndims;
            for (size_t i = 0; i < rank && i < NNAV_TYPE_DIMS_MAX; i++) {
                dims[i] = m->dims.v[t->dims_first + i];
                params[i] = (nnav_span){0};
            }
        }
    }
    if (buf[0])
        nnav_yw_key(w, "type"), nnav_yw_cstr(w, buf);
    if (is_tensor == 1) {
        nnav_yw_key(w, "elem_type"), nnav_yw_cstr(w, nnav_dtype_onnx_name(et));
        if (has_shape) {
            nnav_yw_key(w, "shape");
            nnav_yw_seq_flow(w);
            for (size_t i = 0; i < rank && i < NNAV_TYPE_DIMS_MAX; i++) {
                if (dims[i] >= 0)
                    nnav_yw_int(w, dims[i]);
                else if (params[i].p)
                    nnav_yw_span(w, params[i]);
                else
                    nnav_yw_null(w);
            }
            nnav_yw_seq_end(w);
        }
    }
    nnav_yw_map_end(w);
}

static void emit_tensor(nnav_yw *w, const nnav_model *m, uint32_t t, const nnav_export_opts *o)
{
    const nnav_tensor *tt = &m->tensors.v[t];
    char buf[2048];
    nnav_yw_map(w);
    yw_kv_span(w, "name", tt->name);
    nnav_yw_key(w, "data_type"), nnav_yw_cstr(w, nnav_dtype_onnx_name(tt->dtype));
    nnav_yw_key(w, "dims");
    nnav_yw_seq_flow(w);
    for (uint32_t i = 0; i < tt->ndims; i++)
        nnav_yw_int(w, m->dims.v[tt->dims_first + i]);
    nnav_yw_seq_end(w);
    nnav_tensor_storage_format(m, t, buf, sizeof buf);
    nnav_yw_key(w, "data_location"),
        nnav_yw_cstr(w, tt->storage == NNAV_STORE_EXTERNAL ? "EXTERNAL" : "DEFAULT");
    nnav_yw_key(w, "storage"), nnav_yw_cstr(w, buf);
    if (tt->storage == NNAV_STORE_EXTERNAL) {
        nnav_yw_key(w, "external_data");
        nnav_yw_map_flow(w);
        yw_kv_span(w, "location", tt->ext_location);
        nnav_yw_key(w, "offset"), nnav_yw_int(w, tt->ext_offset >= 0 ? tt->ext_offset : 0);
        if (tt->ext_length >= 0)
            nnav_yw_key(w, "length"), nnav_yw_int(w, tt->ext_length);
        nnav_yw_map_end(w);
    }
    nnav_yw_key(w, "byte_size");
    tt->nbytes == UINT64_MAX ? nnav_yw_null(w) : nnav_yw_uint(w, tt->nbytes);
    if (tt->warn) {
        nnav_yw_key(w, "warnings");
        nnav_yw_seq_flow(w);
        if (tt->warn & NNAV_TW_SIZE_MISMATCH)
            nnav_yw_cstr(w, "stored size differs from dims x dtype");
        if (tt->warn & NNAV_TW_BAD_DIMS)
            nnav_yw_cstr(w, "bad dims");
        if (tt->warn & NNAV_TW_BAD_DTYPE)
            nnav_yw_cstr(w, "unknown data_type");
        if (tt->warn & NNAV_TW_BAD_EXTERNAL)
            nnav_yw_cstr(w, "unsafe or malformed external data");
        if (tt->warn & NNAV_TW_MANY_FIELDS)
            nnav_yw_cstr(w, "data in several fields");
        nnav_yw_seq_end(w);
    }
    /* Values when small: what a reader of a cut-out piece wants to see. */
    if (tt->nelems != UINT64_MAX && tt->nelems <= o->max_values && tt->nelems > 0 &&
        !(tt->warn & (NNAV_TW_BAD_DTYPE | NNAV_TW_BAD_DIMS))) {
        size_t want = (size_t)tt->nelems * nnav_dtype_components(tt->dtype);
        double *v = calloc(want + 1, sizeof *v);
        int64_t *iv = calloc(want + 1, sizeof *iv);
        nnav_span *sv = calloc(want + 1, sizeof *sv);
        nnav_values vals = {.v = v, .s = sv, .i = iv};
        nnav_error err;
        if (v && sv && iv && nnav_tensor_values(m, t, want, 0, &vals, &err) == 0) {
            nnav_yw_key(w, "values");
            nnav_yw_seq_flow(w);
            /* Integer types exactly, never through a double. */
            for (size_t i = 0; i < vals.count; i++) {
                if (tt->dtype == NNAV_DT_STRING)
                    nnav_yw_span(w, sv[i]);
                else if (!vals.is_int)
                    nnav_yw_double(w, v[i]);
                else if (vals.is_unsigned)
                    nnav_yw_uint(w, (uint64_t)iv[i]);
                else
                    nnav_yw_int(w, iv[i]);
            }
            nnav_yw_seq_end(w);
        } else if (v && sv && iv) {
            nnav_yw_key(w, "values_error"), nnav_yw_cstr(w, err.msg);
        }
        free(v);
        free(iv);
        free(sv);
        if (o->binary && (tt->storage == NNAV_STORE_RAW || tt->storage == NNAV_STORE_EXTERNAL)) {
            nnav_span bytes;
            void *cookie;
            if (nnav_tensor_bytes(m, t, &bytes, &cookie, &err) == 0) {
                nnav_yw_key(w, "raw_data");
                nnav_yw_binary(w, bytes.p, bytes.n);
                nnav_tensor_bytes_release(cookie);
            }
        }
    }
    nnav_yw_map_end(w);
}

/* An element type written as its name. */
static void yw_dtype(nnav_yw *w, int64_t dt)
{
    nnav_yw_cstr(w, nnav_dtype_name((int32_t)dt));
}

int nnav_yw_attr_value(nnav_yw *w, const nnav_model *m, uint32_t a,
                       const nnav_attr_yaml_opts *o, nnav_error *err)
{
    const nnav_attr *at = &m->attrs.v[a];
    size_t tn = o->text_size ? o->text_size : 512;
    char *text = malloc(tn);
    int rc = 0;
    memset(err, 0, sizeof *err);
    if (!text) {
        nnav_yw_null(w);
        nnav_err_set(err, 0, 0, "out of memory");
        return -1;
    }
    text[0] = 0;
    switch (at->type) {
    case NNAV_ATTR_FLOAT: {
        double v = 0;
        rc = nnav_attr_float(m, a, &v, err);
        nnav_yw_double(w, v);
        break;
    }
    case NNAV_ATTR_INT: case NNAV_ATTR_TF_BOOL: case NNAV_ATTR_TF_TYPE: {
        int64_t v = 0;
        if (at->type != NNAV_ATTR_INT && !o->tf_typed)
            goto as_text;
        rc = nnav_attr_int(m, a, &v, err);
        if (at->type == NNAV_ATTR_TF_BOOL)
            nnav_yw_bool(w, v != 0);
        else if (at->type == NNAV_ATTR_TF_TYPE)
            yw_dtype(w, v);
        else
            nnav_yw_int(w, v);
        break;
    }
    case NNAV_ATTR_STRING: {
        nnav_span s = {0};
        rc = nnav_attr_string(m, a, &s, err);
        nnav_yw_span(w, s);
        break;
    }
    case NNAV_ATTR_INTS: case NNAV_ATTR_FLOATS: case NNAV_ATTR_STRINGS:
    case NNAV_ATTR_TF_BOOLS: case NNAV_ATTR_TF_TYPES: {
        /* Count first, then fetch all: lists are small next to payloads. */
        size_t total = 0;
        int kind = at->type;
        if ((kind == NNAV_ATTR_TF_BOOLS || kind == NNAV_ATTR_TF_TYPES) && !o->tf_typed)
            goto as_text;
        int ints = kind != NNAV_ATTR_FLOATS && kind != NNAV_ATTR_STRINGS;
        if (ints)
            rc = nnav_attr_ints(m, a, NULL, 0, &total, err);
        else if (kind == NNAV_ATTR_FLOATS)
            rc = nnav_attr_floats(m, a, NULL, 0, &total, err);
        else
            rc = nnav_attr_strings(m, a, NULL, 0, &total, err);
        int64_t *iv = calloc(total + 1, sizeof *iv);
        double *dv = calloc(total + 1, sizeof *dv);
        nnav_span *sv = calloc(total + 1, sizeof *sv);
        nnav_yw_seq_flow(w);
        if (iv && dv && sv) {
            /* The second walk may count differently from the first (a
             * malformed list stops early, or counts more): never read past
             * what was allocated. */
            size_t cap = total, got = 0;
            if (ints && nnav_attr_ints(m, a, iv, cap, &got, err) == 0)
                for (size_t i = 0; i < got && i < cap; i++)
                    kind == NNAV_ATTR_TF_BOOLS   ? nnav_yw_bool(w, iv[i] != 0)
                    : kind == NNAV_ATTR_TF_TYPES ? yw_dtype(w, iv[i])
                                                 : nnav_yw_int(w, iv[i]);
            if (kind == NNAV_ATTR_FLOATS && nnav_attr_floats(m, a, dv, cap, &got, err) == 0)
                for (size_t i = 0; i < got && i < cap; i++)
                    nnav_yw_double(w, dv[i]);
            if (kind == NNAV_ATTR_STRINGS && nnav_attr_strings(m, a, sv, cap, &got, err) == 0)
                for (size_t i = 0; i < got && i < cap; i++)
                    nnav_yw_span(w, sv[i]);
        }
        nnav_yw_seq_end(w);
        free(iv);
        free(dv);
        free(sv);
        break;
    }
    case NNAV_ATTR_TYPE_PROTO: case NNAV_ATTR_TYPE_PROTOS: {
        /* One type, or null when there is none to read; or a list. */
        size_t total = 0, got = 0;
        rc = nnav_attr_types(m, a, NULL, 0, &total, err);
        nnav_span *ts = calloc(total + 1, sizeof *ts);
        size_t cap = total;
        if (!ts || nnav_attr_types(m, a, ts, cap, &got, err) < 0)
            got = 0;
        got = got < cap ? got : cap;
        if (at->type == NNAV_ATTR_TYPE_PROTOS)
            nnav_yw_seq_flow(w);
        for (size_t i = 0; i < got; i++) {
            nnav_type_format(m, ts[i], text, tn);
            nnav_yw_cstr(w, text);
            if (at->type == NNAV_ATTR_TYPE_PROTO)
                break;
        }
        if (at->type == NNAV_ATTR_TYPE_PROTOS)
            nnav_yw_seq_end(w);
        else if (!got)
            nnav_yw_null(w);
        free(ts);
        break;
    }
    case NNAV_ATTR_GRAPH: case NNAV_ATTR_GRAPHS:
        if (!o->graph_paths)
            goto as_text;
        nnav_yw_seq_flow(w);
        for (uint32_t i = 0; i < at->graph_count; i++) {
            nnav_graph_path(m, at->graph_first + i, text, tn);
            nnav_yw_cstr(w, text);
        }
        nnav_yw_seq_end(w);
        break;
    case NNAV_ATTR_TENSOR: case NNAV_ATTR_TENSORS: {
        int seq = at->type == NNAV_ATTR_TENSORS || (!o->full && !at->tensor_count);
        if (seq)
            nnav_yw_seq(w);
        else if (!at->tensor_count)
            nnav_yw_null(w);
        for (uint32_t i = 0; i < at->tensor_count; i++) {
            if (o->full)
                emit_tensor(w, m, at->tensor_first + i, o->full);
            else
                nnav_yw_tensor_brief(w, m, at->tensor_first + i, o->max_values);
            if (o->full && !seq)
                break; /* the export writes a tensor attribute's one tensor */
        }
        if (seq)
            nnav_yw_seq_end(w);
        break;
    }
    case NNAV_ATTR_SPARSE_TENSOR: case NNAV_ATTR_SPARSE_TENSORS: {
        /* As a sparse initializer: dims, values and indices (these are not
         * indexed: read now, at most max_values values each). */
        size_t total = 0, nd;
        int64_t d[1];
        nnav_span vs, is;
        rc = nnav_attr_sparse(m, a, 0, d, 0, &nd, &vs, &is, &total, err);
        int list = at->type == NNAV_ATTR_SPARSE_TENSORS || total != 1;
        if (list)
            nnav_yw_seq(w);
        for (size_t i = 0; i < total; i++)
            nnav_yw_attr_sparse(w, m, a, i, o->max_values);
        if (list)
            nnav_yw_seq_end(w);
        break;
    }
    default:
    as_text:
        nnav_attr_format(m, a, 16, text, tn);
        nnav_yw_cstr(w, text);
    }
    free(text);
    return rc;
}

/* The export's attribute value: tensors whole, the rest as the export has
 * always written them. */
static int emit_attr_scalar(nnav_yw *w, const nnav_model *m, uint32_t a,
                            const nnav_export_opts *o, nnav_error *err)
{
    nnav_attr_yaml_opts ao = {.full = o, .max_values = (size_t)o->max_values, .text_size = 512};
    return nnav_yw_attr_value(w, m, a, &ao, err);
}

/* ---- the graph machine ---- */

enum { ST_BEGIN, ST_NODE, ST_ATTR, ST_SUB };

/* Bodies written inside the exported graph, at most this many levels down. */
#define YAML_MAX_NEST 64

typedef struct frame {
    uint32_t g;
    const uint32_t *nodes; /* the selection's nodes, or NULL for the whole graph */
    size_t n_nodes;
    size_t node_i;
    uint32_t attr_i, sub_k;
    uint8_t state;
    const nnav_selection *sel; /* top frame only */
} frame;

static void emit_graph_head(nnav_yw *w, const nnav_model *m, const frame *f,
                            const nnav_export_opts *o, typed_view *tv)
{
    const nnav_graph *g = &m->graphs.v[f->g];
    char path[4096];
    nnav_yw_map(w);
    nnav_graph_path(m, f->g, path, sizeof path);
    nnav_yw_key(w, "path"), nnav_yw_cstr(w, path);
    yw_kv_span(w, "name", g->name);
    if (g->kind == NNAV_GRAPH_FUNCTION) {
        const nnav_function *fn = &m->functions.v[g->function];
        yw_kv_span(w, "domain", fn->domain);
        if (fn->overload.n)
            yw_kv_span(w, "overload", fn->overload);
        /* What only functions have: the attributes a call may set (names
         * without a default, then attribute_proto with theirs) and the
         * function's own opset imports. */
        nnav_yw_key(w, "attribute");
        nnav_yw_seq_flow(w);
        for (uint32_t i = 0; i < fn->attr_name_count; i++)
            nnav_yw_span(w, nnav_ref_name(m, fn->attr_name_first + i));
        nnav_yw_seq_end(w);
        if (fn->attr_count) {
            nnav_yw_key(w, "attribute_proto");
            nnav_yw_seq(w);
            for (uint32_t i = 0; i < fn->attr_count; i++) {
                uint32_t a = fn->attr_first + i;
                nnav_error aerr;
                nnav_yw_map(w);
                yw_kv_span(w, "name", m->attrs.v[a].name);
                nnav_yw_key(w, "type"), nnav_yw_cstr(w, nnav_attr_type_name(m->attrs.v[a].type));
                nnav_yw_key(w, "value");
                if (m->attrs.v[a].graph_count) /* a graph default: named, not written out */
                    nnav_yw_cstr(w, "(graph)");
                else if (emit_attr_scalar(w, m, a, o, &aerr) < 0 && aerr.msg[0])
                    nnav_yw_key(w, "value_error"), nnav_yw_cstr(w, aerr.msg);
                nnav_yw_map_end(w);
            }
            nnav_yw_seq_end(w);
        }
        nnav_yw_key(w, "opset_import");
        nnav_yw_seq(w);
        for (uint32_t i = 0; i < fn->opset_count; i++) {
            nnav_yw_map_flow(w);
            yw_kv_span(w, "domain", m->opsets.v[fn->opset_first + i].domain);
            nnav_yw_key(w, "version"), nnav_yw_int(w, m->opsets.v[fn->opset_first + i].version);
            nnav_yw_map_end(w);
        }
        nnav_yw_seq_end(w);
    }
    nnav_yw_key(w, "input");
    nnav_yw_seq(w);
    if (f->sel) {
        for (size_t i = 0; i < f->sel->n_inputs; i++) {
            const nnav_value *v = &m->values.v[f->sel->inputs[i]];
            nnav_span type = v->vinfo != NNAV_NONE ? m->vinfos.v[v->vinfo].type : (nnav_span){0};
            emit_value(w, m, v->name, type, f->sel->inputs[i], tv);
        }
    } else {
        for (uint32_t i = 0; i < g->input_count; i++) {
            const nnav_vinfo *vi = &m->vinfos.v[g->input_first + i];
            emit_value(w, m, vi->name, vi->type, vi->type.p ? NNAV_NONE : vi->value, tv);
        }
    }
    nnav_yw_seq_end(w);
    nnav_yw_key(w, "output");
    nnav_yw_seq(w);
    if (f->sel) {
        for (size_t i = 0; i < f->sel->n_outputs; i++) {
            const nnav_value *v = &m->values.v[f->sel->outputs[i]];
            nnav_span type = v->vinfo != NNAV_NONE ? m->vinfos.v[v->vinfo].type : (nnav_span){0};
            emit_value(w, m, v->name, type, f->sel->outputs[i], tv);
        }
    } else {
        for (uint32_t i = 0; i < g->output_count; i++) {
            const nnav_vinfo *vi = &m->vinfos.v[g->output_first + i];
            emit_value(w, m, vi->name, vi->type, vi->type.p ? NNAV_NONE : vi->value, tv);
        }
    }
    nnav_yw_seq_end(w);
    nnav_yw_key(w, "initializer");
    nnav_yw_seq(w);
    if (f->sel) {
        for (size_t i = 0; i < f->sel->n_inits; i++)
            emit_tensor(w, m, f->sel->inits[i], o);
    } else {
        for (uint32_t i = 0; i < g->init_count; i++)
            emit_tensor(w, m, g->init_first + i, o);
    }
    nnav_yw_seq_end(w);
    size_t ns = f->sel ? f->sel->n_sparse : g->sparse_count;
    if (ns) {
        nnav_yw_key(w, "sparse_initializer");
        nnav_yw_seq(w);
        for (size_t i = 0; i < ns; i++) {
            const nnav_sparse *sp = &m->sparse.v[f->sel ? f->sel->sparse[i] : g->sparse_first + (uint32_t)i];
            nnav_yw_map(w);
            nnav_yw_key(w, "dims");
            nnav_yw_seq_flow(w);
            for (uint32_t d = 0; d < sp->ndims; d++)
                nnav_yw_int(w, m->dims.v[sp->dims_first + d]);
            nnav_yw_seq_end(w);
            if (sp->values != NNAV_NONE)
                nnav_yw_key(w, "values"), emit_tensor(w, m, sp->values, o);
            if (sp->indices != NNAV_NONE)
                nnav_yw_key(w, "indices"), emit_tensor(w, m, sp->indices, o);
            nnav_yw_map_end(w);
        }
        nnav_yw_seq_end(w);
    }
    if (!f->sel || f->sel->whole) {
        if (g->vi_count) {
            nnav_yw_key(w, "value_info");
            nnav_yw_seq(w);
            for (uint32_t i = 0; i < g->vi_count; i++) {
                const nnav_vinfo *vi = &m->vinfos.v[g->vi_first + i];
                emit_value(w, m, vi->name, vi->type, NNAV_NONE, tv);
            }
            nnav_yw_seq_end(w);
        }
    }
    nnav_yw_key(w, "node");
    nnav_yw_seq(w);
}

static uint32_t frame_node(const nnav_model *m, const frame *f, size_t i)
{
    return f->nodes ? f->nodes[i] : m->graphs.v[f->g].node_first + (uint32_t)i;
}


static int emit_graphs(nnav_yw *w, const nnav_model *m, uint32_t root, const nnav_selection *sel,
                       const nnav_export_opts *o, typed_view *tv, const nnav_declutter *dc,
                       nnav_error *err)
{
    NNAV_VEC(frame) st = {0};
    frame *f = nnav_vec_push(st);
    if (!f)
        goto oom;
    f->g = root;
    f->sel = sel;
    f->nodes = sel ? sel->nodes : NULL;
    f->n_nodes = sel ? sel->n_nodes : m->graphs.v[root].node_count;
    while (st.n && !w->failed) {
        f = &st.v[st.n - 1];
        if (f->state == ST_BEGIN) {
            emit_graph_head(w, m, f, o, tv);
            f->state = ST_NODE;
            continue;
        }
        if (f->state == ST_NODE) {
            if (f->node_i == f->n_nodes) {
                nnav_yw_seq_end(w);
                nnav_yw_map_end(w);
                st.n--;
                continue;
            }
            uint32_t nid = frame_node(m, f, f->node_i);
            const nnav_node *nd = &m->nodes.v[nid];
            if (dc && nnav_declutter_hidden(dc, nid)) { /* --declutter: left out */
                f->node_i++;
                continue;
            }
            nnav_yw_map(w);
            yw_kv_span(w, "name", nd->name);
            yw_kv_span(w, "op_type", nd->op);
            yw_kv_span(w, "domain", nnav_node_domain(m, nid));
            nnav_yw_key(w, "input");
            nnav_yw_seq_flow(w);
            for (uint32_t i = 0; i < nd->in_count; i++)
                nnav_yw_span(w, nnav_ref_name(m, nd->in_first + i));
            nnav_yw_seq_end(w);
            if (dc && nd->graph == nnav_declutter_graph(dc))
                nnav_declutter_yaml_folded(w, m, dc, tv->s, nd);
            nnav_yw_key(w, "output");
            nnav_yw_seq_flow(w);
            for (uint32_t i = 0; i < nd->out_count; i++)
                nnav_yw_span(w, nnav_ref_name(m, nd->out_first + i));
            nnav_yw_seq_end(w);
            nnav_yw_key(w, "attribute");
            nnav_yw_seq(w);
            f->attr_i = 0;
            f->state = ST_ATTR;
            continue;
        }
        const nnav_node *nd = &m->nodes.v[frame_node(m, f, f->node_i)];
        if (f->state == ST_ATTR) {
            if (f->attr_i == nd->attr_count) {
                nnav_yw_seq_end(w);
                nnav_yw_map_end(w);
                f->node_i++;
                f->state = ST_NODE;
                continue;
            }
            uint32_t a = nd->attr_first + f->attr_i;
            const nnav_attr *at = &m->attrs.v[a];
            nnav_yw_map(w);
            yw_kv_span(w, "name", at->name);
            nnav_yw_key(w, "type"), nnav_yw_cstr(w, nnav_attr_type_name(at->type));
            if (at->ref_attr_name.n) {
                yw_kv_span(w, "ref_attr_name", at->ref_attr_name);
            } else if (at->type == NNAV_ATTR_GRAPH || at->type == NNAV_ATTR_GRAPHS) {
                nnav_yw_key(w, "value");
                if (at->type == NNAV_ATTR_GRAPHS)
                    nnav_yw_seq(w);
                f->sub_k = 0;
                f->state = ST_SUB;
                continue;
            } else {
                nnav_error aerr;
                nnav_yw_key(w, "value");
                if (emit_attr_scalar(w, m, a, o, &aerr) < 0 && aerr.msg[0])
                    nnav_yw_key(w, "value_error"), nnav_yw_cstr(w, aerr.msg);
            }
            nnav_yw_map_end(w);
            f->attr_i++;
            continue;
        }
        /* ST_SUB: the bodies of a graph attribute, one frame each. */
        const nnav_attr *at = &m->attrs.v[nd->attr_first + f->attr_i];
        if (f->sub_k == at->graph_count) {
            if (at->type == NNAV_ATTR_GRAPHS)
                nnav_yw_seq_end(w);
            else if (at->graph_count == 0)
                nnav_yw_null(w);
            nnav_yw_map_end(w);
            f->attr_i++;
            f->state = ST_ATTR;
            continue;
        }
        uint32_t child = at->graph_first + f->sub_k++;
        if (st.n >= YAML_MAX_NEST) {
            /* Block YAML indents every level: bodies thousands deep would
             * make the output grow with the depth squared (gigabytes from a
             * file of half a megabyte). Deeper bodies are named, with their
             * size; exporting one with --graph PATH continues from there. */
            char path[4096];
            const nnav_graph *cg = &m->graphs.v[child];
            nnav_graph_path(m, child, path, sizeof path);
            nnav_yw_map(w);
            nnav_yw_key(w, "path"), nnav_yw_cstr(w, path);
            yw_kv_span(w, "name", cg->name);
            nnav_yw_key(w, "omitted"), nnav_yw_cstr(w, "nested-too-deep");
            nnav_yw_key(w, "nodes_below"), nnav_yw_uint(w, nnav_graph_total_nodes(m, child));
            nnav_yw_map_end(w);
            continue;
        }
        frame *c = nnav_vec_push(st);
        if (!c)
            goto oom;
        c->g = child;
        c->n_nodes = m->graphs.v[child].node_count;
    }
    nnav_vec_free(st);
    return w->failed ? -1 : 0;
oom:
    nnav_vec_free(st);
    nnav_err_set(err, 0, 0, "out of memory while writing YAML");
    return -1;
}

int nnav_export_yaml(const nnav_model *m, const nnav_selection *sel, const nnav_export_opts *o,
                     FILE *out, nnav_error *err)
{
    const nnav_model_facts *fa = &m->facts;
    nnav_yw w;
    typed_view tv = {o->shapes, NULL, o->shapes != NULL};
    uint32_t *fns = NULL;
    size_t nf = 0;
    if (nnav_export_functions(m, sel, &fns, &nf) < 0) {
        nnav_err_set(err, 0, 0, "out of memory");
        return -1;
    }
    if (nnav_yw_open(&w, out) < 0) {
        free(fns);
        nnav_err_set(err, 0, 0, "cannot start the YAML emitter");
        return -1;
    }
    nnav_yw_map(&w);
    nnav_yw_key(&w, "source"), nnav_yw_cstr(&w, fa->path);
    nnav_yw_key(&w, "format"), nnav_yw_cstr(&w, fa->format_name);
    nnav_yw_key(&w, "ir_version");
    fa->ir_version >= 0 ? nnav_yw_int(&w, fa->ir_version) : nnav_yw_null(&w);
    yw_kv_span(&w, "producer_name", fa->producer_name);
    yw_kv_span(&w, "producer_version", fa->producer_version);
    yw_kv_span(&w, "domain", fa->domain);
    nnav_yw_key(&w, "model_version");
    fa->model_version >= 0 ? nnav_yw_int(&w, fa->model_version) : nnav_yw_null(&w);
    nnav_yw_key(&w, "opset_import");
    nnav_yw_seq(&w);
    for (uint32_t i = 0; i < m->model_opset_count; i++) {
        nnav_yw_map_flow(&w);
        yw_kv_span(&w, "domain", m->opsets.v[i].domain);
        nnav_yw_key(&w, "version"), nnav_yw_int(&w, m->opsets.v[i].version);
        nnav_yw_map_end(&w);
    }
    nnav_yw_seq_end(&w);
    nnav_yw_key(&w, "selection");
    nnav_yw_map_flow(&w);
    nnav_yw_key(&w, "kind"), nnav_yw_cstr(&w, sel->whole ? "graph" : "region");
    nnav_yw_key(&w, "nodes"), nnav_yw_uint(&w, sel->n_nodes);
    nnav_declutter *dc = NULL;
    if (o->declutter) {
        inferred_fact(m, &tv, NNAV_NONE); /* the folded values come from the typed view */
        dc = nnav_declutter_build(m, sel->graph, tv.s);
        uint32_t hidden = 0;
        for (size_t i = 0; dc && i < sel->n_nodes; i++)
            hidden += nnav_declutter_hidden(dc, sel->nodes ? sel->nodes[i]
                                                : m->graphs.v[sel->graph].node_first +
                                                      (uint32_t)i) != 0;
        nnav_yw_key(&w, "decluttered"), nnav_yw_uint(&w, hidden);
    }
    nnav_yw_map_end(&w);
    nnav_yw_key(&w, "graph");
    int rc = o->declutter && !dc ? -1 : emit_graphs(&w, m, sel->graph, sel, o, &tv, dc, err);
    if (rc == 0 && nf) {
        nnav_yw_key(&w, "functions");
        nnav_yw_seq(&w);
        for (size_t i = 0; i < nf && rc == 0; i++) {
            /* A function is its graph, plus what only functions have. */
            rc = emit_graphs(&w, m, m->functions.v[fns[i]].graph, NULL, o, &tv, NULL, err);
        }
        nnav_yw_seq_end(&w);
    }
    nnav_yw_map_end(&w);
    free(fns);
    nnav_declutter_free(dc);
    nnav_shapes_free(tv.own);
    if (nnav_yw_close(&w) < 0 || rc < 0) {
        if (!err->msg[0])
            nnav_err_set(err, 0, 0, "the YAML emitter failed (out of memory or a write error)");
        return -1;
    }
    return 0;
}
