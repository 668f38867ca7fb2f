/* tf_meta.c - a MetaGraphDef's own parts: its meta info, signatures and
 * function library, and the checks that span a whole meta graph (the op
 * table, recursion among functions). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dtype.h"
#include "tf_walk.h"
#include "tensorflow/function.pb-c.h"
#include "tensorflow/meta_graph.pb-c.h"
#include "tensorflow/op_def.pb-c.h"


static int walk_tensorinfo(tfw *w, nnav_span key, nnav_span s, nnav_sig_tensor *st)
{
    nnav_wire r;
    nnav_field f;
    int k;
    nnav_span shape = {0};
    memset(st, 0, sizeof *st);
    st->key = key;
    st->value = NNAV_NONE;
    st->rank = -1;
    st->dims_first = w->m->dims.n;
    st->off = off_of(w, s);
    winit(w, &r, s);
    while ((k = nnav_wire_next(&r, &f, w->err)) == 1) {
        switch (f.num) {
        case TI_NAME: case TI_SHAPE: case TI_COO: case TI_COMPOSITE: {
            const ProtobufCFieldDescriptor *fd =
                protobuf_c_message_descriptor_get_field(&tensorflow__tensor_info__descriptor, f.num);
            if (expect_wt(w, &f, NNAV_WT_LEN, fd->name))
                return err_prepend(w->err, "%s", fd->name);
            if (f.num == TI_SHAPE)
                shape = f.s, st->shape_off = f.off;
            else
                st->encoding = f.num == TI_COO         ? NNAV_SIG_SPARSE
                               : f.num == TI_COMPOSITE ? NNAV_SIG_COMPOSITE
                                                       : NNAV_SIG_DENSE;
            if (f.num == TI_NAME)
                st->name = f.s, st->name_off = f.off;
            if (f.num == TI_COO) {
                nnav_span vals = {0}, other;
                if (tf_walk_entry(w, f.s, &vals, &other, NULL, &tensorflow__tensor_info__coo_sparse__descriptor) < 0)
                    return err_prepend(w->err, "coo_sparse");
                st->name = vals;
            }
            break;
        }
        case TI_DTYPE:
            if (expect_wt(w, &f, NNAV_WT_VARINT, "dtype"))
                return err_prepend(w->err, "dtype");
            st->dtype = nnav_tf_dtype(f.v);
            st->dtype_off = f.off;
            if (st->dtype < 0 && !nnav_dtype_valid(st->dtype))
                st->dtype = -1;
            break;
        default:
            if (keep_unknown(w, &f, "TensorInfo", NNAV_NONE))
                return -1;
        }
    }
    if (k < 0)
        return wire_fail(w, &r, &tensorflow__tensor_info__descriptor);
    if (shape.p) {
        int32_t rank;
        uint32_t bad;
        if (tf_walk_shape(w, shape, &rank, &bad) < 0)
            return err_prepend(w->err, "tensor_shape");
        st->rank = rank;
        st->dims_first = w->m->dims.n;
        for (int32_t i = 0; i < rank; i++) {
            int64_t *d = nnav_vec_push(w->m->dims);
            if (!d)
                return oom(w);
            *d = w->tdims.v[i] < -1 ? -1 : w->tdims.v[i];
        }
        if (bad) {
            char kb[80];
            if (nnav_tf_warn(w->m, "signature tensor \"%s\": %u dims below -1 (shown as ?)",
                             q(key, kb, 64), bad))
                return oom(w);
        }
    } else if (st->encoding != NNAV_SIG_COMPOSITE) {
        /* No tensor_shape reads as an empty TensorShapeProto, as TensorFlow
         * reads it (TensorShape(proto), saved_model_cli's "()"): no dims and
         * unknown_rank false, a scalar. A composite tensor's shape is in its
         * type spec instead. */
        st->rank = 0;
        if (st->encoding == NNAV_SIG_DENSE)
            st->shape_note = "no tensor_shape: a scalar to TensorFlow";
    }
    if (st->dtype < 0) {
        char kb[80];
        if (nnav_tf_warn(w->m, "signature tensor \"%s\": unknown dtype", q(key, kb, 64)))
            return oom(w);
        st->dtype = 0;
    }
    return 0;
}

int tf_walk_signature(tfw *w, uint32_t meta, nnav_span entry)
{
    nnav_tf *tf = w->tf;
    nnav_span key, def;
    if (tf_walk_entry(w, entry, &key, &def, NULL, &tensorflow__signature_def__descriptor) < 0)
        return -1;
    nnav_signature sg;
    memset(&sg, 0, sizeof sg);
    sg.key = key;
    sg.group = meta;
    char kb[80];
    for (int side = 0; side < 2; side++) {
        uint32_t want = side ? SIG_OUTPUTS : SIG_INPUTS, first = tf->sig_tensors.n, idx = 0;
        nnav_wire r;
        nnav_field f;
        int k;
        winit(w, &r, def);
        while ((k = nnav_wire_next(&r, &f, w->err)) == 1) {
            if (f.num == want) {
                nnav_span tkey, info;
                nnav_sig_tensor st;
                if (expect_wt(w, &f, NNAV_WT_LEN, side ? "outputs" : "inputs") ||
                    tf_walk_entry(w, f.s, &tkey, &info, NULL, &tensorflow__tensor_info__descriptor) < 0 ||
                    walk_tensorinfo(w, tkey, info, &st) < 0)
                    return err_prepend(w->err, "signature_def[\"%s\"].%s[%u]", q(key, kb, 64),
                                       side ? "outputs" : "inputs", idx);
                nnav_sig_tensor *slot = nnav_vec_push(tf->sig_tensors);
                if (!slot)
                    return oom(w);
                *slot = st;
                idx++;
                continue;
            }
            if (side)
                continue;
            if (f.num == SIG_METHOD || f.num == SIG_DEFAULTS) {
                if (expect_wt(w, &f, NNAV_WT_LEN, f.num == SIG_METHOD ? "method_name" : "defaults"))
                    return err_prepend(w->err, "signature_def[\"%s\"]", q(key, kb, 64));
                if (f.num == SIG_METHOD)
                    sg.method = f.s;
            } else if (f.num != SIG_INPUTS && f.num != SIG_OUTPUTS &&
                       keep_unknown(w, &f, "SignatureDef", NNAV_NONE)) {
                return -1;
            }
        }
        if (k < 0) {
            wire_fail(w, &r, &tensorflow__signature_def__descriptor);
            return err_prepend(w->err, "signature_def[\"%s\"]", q(key, kb, 64));
        }
        if (side) {
            sg.out_first = first;
            sg.out_count = tf->sig_tensors.n - first;
        } else {
            sg.in_first = first;
            sg.in_count = tf->sig_tensors.n - first;
        }
    }
    nnav_signature *slot = nnav_vec_push(tf->sigs);
    if (!slot)
        return oom(w);
    *slot = sg;
    return 0;
}

int tf_walk_metainfo(tfw *w, nnav_span s, tf_metagraph *mg)
{
    nnav_wire r;
    nnav_field f;
    int k;
    mg->g.tag_first = w->tf->tags.n;
    winit(w, &r, s);
    while ((k = nnav_wire_next(&r, &f, w->err)) == 1) {
        switch (f.num) {
        case MI_VERSION: case MI_OPS: case MI_ANY: case MI_TAGS: case MI_TF_VERSION:
        case MI_TF_GIT: case MI_ALIASES: {
            const ProtobufCFieldDescriptor *fd = protobuf_c_message_descriptor_get_field(
                &tensorflow__meta_graph_def__meta_info_def__descriptor, f.num);
            if (expect_wt(w, &f, NNAV_WT_LEN, fd->name))
                return err_prepend(w->err, "%s", fd->name);
            if (f.num == MI_VERSION)
                mg->meta_graph_version = f.s;
            else if (f.num == MI_TF_VERSION)
                mg->tf_version = f.s;
            else if (f.num == MI_TF_GIT)
                mg->tf_git_version = f.s;
            else if (f.num == MI_TAGS) {
                nnav_span *t = nnav_vec_push(w->tf->tags);
                if (!t)
                    return oom(w);
                *t = f.s;
                mg->g.tag_count++;
            } else if (f.num == MI_OPS) {
                nnav_wire o;
                nnav_field g;
                int kk;
                uint32_t pos = 0; /* OpDefs as written, the skipped counted */
                winit(w, &o, f.s);
                while ((kk = nnav_wire_next(&o, &g, w->err)) == 1) {
                    if (g.num != 1) {
                        if (keep_unknown(w, &g, "OpList", NNAV_NONE))
                            return -1;
                        continue;
                    }
                    tf_op *op = nnav_vec_push(w->ops);
                    if (!op)
                        return oom(w);
                    if (expect_wt(w, &g, NNAV_WT_LEN, "op"))
                        return err_prepend(w->err, "stripped_op_list.op[%u]", pos);
                    if (tf_walk_opdef(w, g.s, op, NULL) < 0) {
                        /* A malformed OpDef costs its definition, not the file:
                         * its nodes read as those of an op not listed. */
                        char where[96], nb[80], named[96] = "";
                        if (!w->err->has_offset)
                            return -1; /* out of memory */
                        tf_opdefs_where(w, w->cur_meta, where, sizeof where);
                        if (op->name.n) /* when written before the trouble */
                            snprintf(named, sizeof named, " (\"%s\")", q(op->name, nb, 64));
                        if (nnav_tf_warn(w->m, "%s.op[%u]%s at byte %llu: %s%s%s; the op's "
                                               "definition is not used",
                                         where, pos, named, (unsigned long long)w->err->offset,
                                         w->err->path, w->err->path[0] ? ": " : "", w->err->msg))
                            return oom(w);
                        memset(w->err, 0, sizeof *w->err);
                        w->ops.n--;
                        pos++;
                        continue;
                    }
                    op->pos = pos++;
                    mg->op_count++;
                }
                if (kk < 0) {
                    wire_fail(w, &o, &tensorflow__op_list__descriptor);
                    return err_prepend(w->err, "stripped_op_list");
                }
            }
            break;
        }
        case MI_STRIPPED:
            if (expect_wt(w, &f, NNAV_WT_VARINT, "stripped_default_attrs"))
                return err_prepend(w->err, "stripped_default_attrs");
            break;
        default:
            if (keep_unknown(w, &f, "MetaGraphDef.MetaInfoDef", NNAV_NONE))
                return -1;
        }
    }
    return k < 0 ? wire_fail(w, &r, &tensorflow__meta_graph_def__meta_info_def__descriptor) : 0;
}

/* A MetaGraphDef's top-level fields; the graph itself is walked later. */
int tf_walk_meta_top(tfw *w, nnav_span s, tf_meta *mt, tf_metagraph *mg)
{
    nnav_wire r;
    nnav_field f;
    int k;
    winit(w, &r, s);
    while ((k = nnav_wire_next(&r, &f, w->err)) == 1) {
        if (f.num >= MG_INFO && f.num <= MG_OBJECTS) {
            const ProtobufCFieldDescriptor *fd =
                protobuf_c_message_descriptor_get_field(&tensorflow__meta_graph_def__descriptor, f.num);
            if (expect_wt(w, &f, NNAV_WT_LEN, fd->name))
                return err_prepend(w->err, "%s", fd->name);
        }
        switch (f.num) {
        case MG_INFO: mt->info = f.s; break;
        case MG_GRAPH: mt->graph = f.s; break;
        case MG_SAVER: mt->saver = f.s; mg->has_saver = 1; break;
        case MG_OBJECTS: mt->objects = f.s; mg->object_graph_bytes = f.s.n; break;
        case MG_COLLECTION: mg->collection_count++; break;
        case MG_ASSET: mg->asset_count++; break;
        case MG_SIGNATURE: {
            nnav_span *sp = nnav_vec_push(mt->sigs);
            if (!sp)
                return oom(w);
            *sp = f.s;
            break;
        }
        default:
            if (keep_unknown(w, &f, "MetaGraphDef", NNAV_NONE))
                return -1;
        }
    }
    return k < 0 ? wire_fail(w, &r, &tensorflow__meta_graph_def__descriptor) : 0;
}

/* The signature of each library function (its name is needed before any body
 * is walked: calls are resolved by name), and a graph for each. */
int tf_add_functions(tfw *w, tf_meta *mt, uint32_t meta)
{
    nnav_model *m = w->m;
    mt->fn_first = m->functions.n;
    for (uint32_t i = 0; i < mt->fns.n; i++) {
        nnav_span sig = {0};
        nnav_wire r;
        nnav_field f;
        int k;
        winit(w, &r, mt->fns.v[i]);
        while ((k = nnav_wire_next(&r, &f, w->err)) == 1)
            if (f.num == FD_SIGNATURE) {
                if (expect_wt(w, &f, NNAV_WT_LEN, "signature"))
                    return err_prepend(w->err, "library.function[%u].signature", i);
                sig = f.s;
            }
        if (k < 0) {
            wire_fail(w, &r, &tensorflow__function_def__descriptor);
            return err_prepend(w->err, "library.function[%u]", i);
        }
        nnav_function *fn = nnav_vec_push(m->functions);
        tf_op *op = nnav_vec_push(w->fsig);
        if (!fn || !op)
            return oom(w);
        fn->msg = mt->fns.v[i];
        fn->attr_name_first = fn->attr_first = fn->opset_first = NNAV_NONE;
        /* The domain keeps functions of different MetaGraphs apart in paths. */
        fn->domain = meta == 0 || meta == NNAV_NONE
                         ? (nnav_span){(const uint8_t *)"tensorflow", 10}
                         : nnav_tf_printf(w->tf, "tensorflow~meta[%u]", meta);
        memset(op, 0, sizeof *op);
        if (sig.p && tf_walk_opdef(w, sig, op, fn) < 0)
            return err_prepend(w->err, "library.function[%u].signature", i);
        fn->name = op->name;
        uint32_t gid;
        if (tf_new_graph(w, NNAV_GRAPH_FUNCTION, mt->fns.v[i], &gid) < 0)
            return -1;
        fn->graph = gid;
        m->graphs.v[gid].function = m->functions.n - 1;
        m->graphs.v[gid].name = op->name;
        if (!op->name.n && nnav_tf_warn(m, "library function [%u] has no name: nothing can call it", i))
            return oom(w);
    }
    /* Calls resolve by name within this library. */
    if (tf_tab_init(&w->fntab, mt->fns.n + 1))
        return oom(w);
    for (uint32_t i = mt->fn_first; i < m->functions.n; i++) {
        uint32_t other;
        char nb[80];
        int had = tf_tab_add(w, &w->fntab, fn_key, m->functions.v[i].name, i, &other);
        if (had < 0)
            return oom(w);
        if (had) {
            if (nnav_tf_warn(m, "library function \"%s\" is defined twice; calls go to the first",
                             q(m->functions.v[i].name, nb, 64)))
                return oom(w);
            continue;
        }
    }
    return 0;
}

int tf_op_table(tfw *w)
{
    if (tf_tab_init(&w->optab, w->ops.n + 1))
        return oom(w);
    for (uint32_t i = 0; i < w->ops.n; i++) {
        uint32_t other; /* a second op of the same name: the first one stays */
        if (tf_tab_add(w, &w->optab, op_key, w->ops.v[i].name, i, &other) < 0)
            return oom(w);
    }
    return 0;
}

/* Functions that reach themselves through calls: not an error for an index
 * (links are ids), but worth a warning. Iterative depth-first search over
 * the call links, colours per function. */
int tf_check_recursion(tfw *w)
{
    nnav_model *m = w->m;
    uint32_t nf = m->functions.n;
    if (!nf)
        return 0;
    uint8_t *colour = calloc(nf, 1);
    uint32_t *stack = malloc((size_t)nf * 2 * sizeof *stack);
    if (!colour || !stack) {
        free(colour);
        free(stack);
        return oom(w);
    }
    int rc = 0;
    for (uint32_t root = 0; root < nf && rc == 0; root++) {
        if (colour[root])
            continue;
        uint32_t sp = 0;
        stack[sp++] = root;
        stack[sp++] = 0; /* next node of its body to look at */
        colour[root] = 1;
        while (sp && rc == 0) {
            uint32_t fid = stack[sp - 2], pos = stack[sp - 1];
            const nnav_graph *g = &m->graphs.v[m->functions.v[fid].graph];
            uint32_t next = NNAV_NONE;
            while (pos < g->node_count && next == NNAV_NONE) {
                const nnav_node *nd = &m->nodes.v[g->node_first + pos++];
                if (nd->function != NNAV_NONE)
                    next = nd->function;
                for (uint32_t a = 0; a < nd->attr_count && next == NNAV_NONE; a++) {
                    const nnav_attr *at = &m->attrs.v[nd->attr_first + a];
                    for (uint32_t k = 0; k < at->graph_count; k++) {
                        uint32_t callee = m->graphs.v[at->graph_first + k].function;
                        if (callee != NNAV_NONE && colour[callee] != 2) {
                            next = callee;
                            break;
                        }
                    }
                }
                if (next != NNAV_NONE && colour[next] == 2)
                    next = NNAV_NONE;
            }
            stack[sp - 1] = pos;
            if (next == NNAV_NONE) {
                colour[fid] = 2;
                sp -= 2;
            } else if (colour[next] == 1) {
                char a[80], b[80];
                if (nnav_tf_warn(m, "function \"%s\" calls itself%s%s%s (recursion: shown as links, "
                                    "never expanded)",
                                 q(m->functions.v[next].name, a, 64), next == fid ? "" : " through \"",
                                 next == fid ? "" : q(m->functions.v[fid].name, b, 64),
                                 next == fid ? "" : "\""))
                    rc = oom(w);
                /* Stop following this edge; the cycle is reported once. */
            } else {
                colour[next] = 1;
                stack[sp++] = next;
                stack[sp++] = 0;
            }
        }
    }
    free(colour);
    free(stack);
    return rc;
}

