/* tf.c - TensorFlow SavedModel, MetaGraphDef and GraphDef -> index.
 *
 * Structure only, as for ONNX: the file is walked with the bounds-checked wire
 * reader, names stay spans into the map, tensor payloads are located and never
 * read. How TensorFlow's graphs, names and types map onto the index is told in
 * tf.h. Graphs never nest here (a function is a root and calls are links by
 * id), so nothing recurses on the file's structure: the only nested walks are
 * over fixed schema levels (SavedModel > MetaGraphDef > GraphDef > NodeDef >
 * AttrValue > ListValue > TensorProto > TensorShapeProto).
 *
 * Errors name the byte offset and the field path (meta_graphs[0].graph_def.
 * node[3].attr["value"].tensor.dtype), built as the error returns. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>

#include "dtype.h"
#include "tf_walk.h"
#include "typeproto.h"
#include "tensorflow/saved_model.pb-c.h"


/* ---- the arena ---- */

struct tf_chunk {
    tf_chunk *next;
    size_t used, cap;
    _Alignas(16) uint8_t data[];
};

void *nnav_tf_alloc(nnav_tf *tf, size_t n)
{
    n = (n + 15) & ~(size_t)15;
    tf_chunk *c = tf->arena;
    if (!c || c->cap - c->used < n) {
        size_t cap = n > 65536 - sizeof *c ? n : 65536 - sizeof *c;
        c = malloc(sizeof *c + cap);
        if (!c)
            return NULL;
        c->cap = cap;
        c->used = 0;
        c->next = tf->arena;
        tf->arena = c;
    }
    void *p = c->data + c->used;
    c->used += n;
    return p;
}

nnav_span nnav_tf_printf(nnav_tf *tf, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (k < 0)
        return (nnav_span){0};
    char *p = nnav_tf_alloc(tf, (size_t)k + 1);
    if (!p)
        return (nnav_span){0};
    va_start(ap, fmt);
    vsnprintf(p, (size_t)k + 1, fmt, ap);
    va_end(ap);
    return (nnav_span){(const uint8_t *)p, (uint64_t)k};
}

int nnav_tf_warn(nnav_model *m, const char *fmt, ...)
{
    char buf[600];
    va_list ap;
    /* A hostile file could ask for millions: the first thousand say enough. */
    if (nnav_tf_state(m)->warnings.n > 1000)
        return 0;
    if (nnav_tf_state(m)->warnings.n == 1000)
        snprintf(buf, sizeof buf, "... more warnings not shown");
    else {
        va_start(ap, fmt);
        vsnprintf(buf, sizeof buf, fmt, ap);
        va_end(ap);
    }
    char **slot = nnav_vec_push(nnav_tf_state(m)->warnings);
    if (!slot || !(*slot = strdup(buf))) {
        if (slot)
            nnav_tf_state(m)->warnings.n--;
        return -1;
    }
    return 0;
}

void nnav_tf_free(nnav_tf *tf)
{
    if (!tf)
        return;
    nnav_tf_values_free(tf);
    for (tf_chunk *c = tf->arena, *n; c; c = n) {
        n = c->next;
        free(c);
    }
    for (uint32_t i = 0; i < tf->warnings.n; i++)
        free(tf->warnings.v[i]);
    nnav_vec_free(tf->warnings);
    nnav_vec_free(tf->metas);
    nnav_vec_free(tf->tags);
    nnav_vec_free(tf->sigs);
    nnav_vec_free(tf->sig_tensors);
    free(tf);
}

/* ---- element types ---- */

int32_t nnav_tf_dtype(uint64_t v)
{
    /* TensorFlow DataType -> nnav element type; *_REF is its base type. */
    static const int32_t map[34] = {
        [1] = NNAV_DT_FLOAT, [2] = NNAV_DT_DOUBLE, [3] = NNAV_DT_INT32, [4] = NNAV_DT_UINT8,
        [5] = NNAV_DT_INT16, [6] = NNAV_DT_INT8, [7] = NNAV_DT_STRING, [8] = NNAV_DT_COMPLEX64,
        [9] = NNAV_DT_INT64, [10] = NNAV_DT_BOOL, [11] = NNAV_DT_TF_QINT8,
        [12] = NNAV_DT_TF_QUINT8, [13] = NNAV_DT_TF_QINT32, [14] = NNAV_DT_BFLOAT16,
        [15] = NNAV_DT_TF_QINT16, [16] = NNAV_DT_TF_QUINT16, [17] = NNAV_DT_UINT16,
        [18] = NNAV_DT_COMPLEX128, [19] = NNAV_DT_FLOAT16, [20] = NNAV_DT_TF_RESOURCE,
        [21] = NNAV_DT_TF_VARIANT, [22] = NNAV_DT_UINT32, [23] = NNAV_DT_UINT64,
        [24] = NNAV_DT_FLOAT8E5M2, [25] = NNAV_DT_FLOAT8E4M3FN,
        [26] = NNAV_DT_FLOAT8E4M3FNUZ, [27] = NNAV_DT_TF_FLOAT8E4M3B11FNUZ,
        [28] = NNAV_DT_FLOAT8E5M2FNUZ, [29] = NNAV_DT_TF_INT4, [30] = NNAV_DT_TF_UINT4,
        [31] = NNAV_DT_TF_INT2, [32] = NNAV_DT_TF_UINT2, [33] = NNAV_DT_TF_FLOAT4E2M1FN,
    };
    if (v > 100 && v < 134)
        v -= 100;
    if (v == 0)
        return NNAV_DT_UNDEFINED;
    return v < 34 ? map[v] : -1;
}

/* ---- the whole file ---- */

static int add_kv(tfw *w, nnav_span key, nnav_span value)
{
    if (!value.n)
        return 0;
    nnav_kv *kv = nnav_vec_push(w->m->metadata);
    if (!kv)
        return oom(w);
    kv->key = key;
    kv->value = value;
    return key.p && value.p ? 0 : oom(w);
}

#define SPAN(lit) ((nnav_span){(const uint8_t *)(lit), sizeof(lit) - 1})

static nnav_span meta_key(tfw *w, uint32_t meta, uint32_t nmeta, const char *key)
{
    if (nmeta <= 1)
        return (nnav_span){(const uint8_t *)key, strlen(key)};
    return nnav_tf_printf(w->tf, "meta[%u].%s", meta, key);
}

static int meta_facts(tfw *w, uint32_t i, uint32_t nmeta, int64_t producer, int64_t min_consumer)
{
    nnav_tf *tf = w->tf;
    nnav_model *m = w->m;
    if (i < tf->metas.n) {
        const tf_metagraph *mg = &tf->metas.v[i];
        if (add_kv(w, meta_key(w, i, nmeta, "tags"), m->graphs.v[mg->g.graph].name) ||
            add_kv(w, meta_key(w, i, nmeta, "tensorflow_version"), mg->tf_version) ||
            add_kv(w, meta_key(w, i, nmeta, "tensorflow_git_version"), mg->tf_git_version) ||
            add_kv(w, meta_key(w, i, nmeta, "meta_graph_version"), mg->meta_graph_version))
            return -1;
    }
    if (producer >= 0 &&
        add_kv(w, meta_key(w, i, nmeta, "graph_def_version"),
               nnav_tf_printf(tf, "%lld", (long long)producer)))
        return -1;
    if (min_consumer > 0 &&
        add_kv(w, meta_key(w, i, nmeta, "graph_def_min_consumer"),
               nnav_tf_printf(tf, "%lld", (long long)min_consumer)))
        return -1;
    return 0;
}

/* The tags of a meta graph joined by ",": its graph's name. */
static nnav_span joined_tags(tfw *w, const tf_metagraph *mg)
{
    uint64_t n = 0;
    for (uint32_t t = 0; t < mg->g.tag_count; t++)
        n += w->tf->tags.v[mg->g.tag_first + t].n + 1;
    if (!n)
        return (nnav_span){0};
    uint8_t *p = nnav_tf_alloc(w->tf, n);
    if (!p)
        return (nnav_span){0};
    uint64_t o = 0;
    for (uint32_t t = 0; t < mg->g.tag_count; t++) {
        nnav_span s = w->tf->tags.v[mg->g.tag_first + t];
        if (t)
            p[o++] = ',';
        if (s.n)
            memcpy(p + o, s.p, s.n);
        o += s.n;
    }
    return (nnav_span){p, o};
}

int nnav_tf_index(nnav_model *m, const nnav_open_opts *o, nnav_error *err)
{
    nnav_tf *tf = calloc(1, sizeof *tf);
    if (!tf) {
        nnav_err_set(err, 0, 0, "out of memory");
        return -1;
    }
    m->rd = tf;
    tfw w;
    memset(&w, 0, sizeof w);
    w.m = m;
    w.tf = tf;
    w.base = m->map.base;
    w.err = err;
    w.opts = o;
    NNAV_VEC(tf_meta) metas = {0};
    nnav_span file = {m->map.base, m->map.size};
    int rc = -1;
    int64_t schema = -1;
    nnav_wire r;
    nnav_field f;
    int k;
    m->facts.producer_name = SPAN("TensorFlow");
    if (m->facts.format == NNAV_FMT_TF_SAVEDMODEL) {
        winit(&w, &r, file);
        while ((k = nnav_wire_next(&r, &f, err)) == 1) {
            if (f.num == SM_VERSION) {
                if (expect_wt(&w, &f, NNAV_WT_VARINT, "saved_model_schema_version")) {
                    err_prepend(err, "saved_model_schema_version");
                    goto out;
                }
                schema = (int64_t)f.v;
            } else if (f.num == SM_META) {
                if (expect_wt(&w, &f, NNAV_WT_LEN, "meta_graphs")) {
                    err_prepend(err, "meta_graphs[%u]", metas.n);
                    goto out;
                }
                tf_meta *mt = nnav_vec_push(metas);
                if (!mt) {
                    oom(&w);
                    goto out;
                }
                snprintf(mt->origin, sizeof mt->origin, "meta_graphs[%u]", metas.n - 1);
                mt->graph = f.s; /* the MetaGraphDef, until its top is read */
            } else if (keep_unknown(&w, &f, "SavedModel", NNAV_NONE)) {
                goto out;
            }
        }
        if (k < 0) {
            wire_fail(&w, &r, &tensorflow__saved_model__descriptor);
            goto out;
        }
        if (metas.n == 0) {
            nnav_err_set(err, 0, 1, "a SavedModel with no MetaGraphDef: nothing to show");
            goto out;
        }
    } else {
        tf_meta *mt = nnav_vec_push(metas);
        if (!mt) {
            oom(&w);
            goto out;
        }
        mt->graph = file;
    }
    int is_graphdef = m->facts.format == NNAV_FMT_TF_GRAPHDEF;
    /* Meta graphs' own fields, then one root graph each (ids 0..n-1). */
    for (uint32_t i = 0; i < metas.n && !is_graphdef; i++) {
        tf_meta *mt = &metas.v[i];
        nnav_span whole = mt->graph;
        tf_metagraph *mg = nnav_vec_push(tf->metas);
        if (!mg) {
            oom(&w);
            goto out;
        }
        mt->graph = (nnav_span){0};
        if (tf_walk_meta_top(&w, whole, mt, mg) < 0) {
            if (mt->origin[0])
                err_prepend(err, "%s", mt->origin);
            goto out;
        }
        mg->g.graph = i;
    }
    for (uint32_t i = 0; i < metas.n; i++) {
        uint32_t gid;
        if (tf_new_graph(&w, NNAV_GRAPH_MAIN, metas.v[i].graph, &gid) < 0)
            goto out;
    }
    for (uint32_t i = 0; i < metas.n; i++) {
        tf_meta *mt = &metas.v[i];
        const char *dot = mt->origin[0] ? "." : "";
        tf_metagraph *mg = is_graphdef ? NULL : &tf->metas.v[i];
        int64_t producer = -1, min_consumer = -1;
        w.ops.n = 0;
        w.cur_meta = i;
        nnav_hashtab_free(&w.optab);
        if (mg) {
            if (mt->info.p && tf_walk_metainfo(&w, mt->info, mg) < 0) {
                err_prepend(err, "%s%smeta_info_def", mt->origin, dot);
                goto out;
            }
            m->graphs.v[i].name = joined_tags(&w, mg);
            if (w.ops.n && (tf_op_table(&w) < 0 || tf_opdefs_add(&w) < 0))
                goto out;
            mg->g.sig_first = tf->sigs.n;
            for (uint32_t s = 0; s < mt->sigs.n; s++)
                if (tf_walk_signature(&w, i, mt->sigs.v[s]) < 0) {
                    err_prepend(err, "%s%ssignature_def[%u]", mt->origin, dot, s);
                    goto out;
                }
            mg->g.sig_count = tf->sigs.n - mg->g.sig_first;
        }
        const char *gname = is_graphdef ? "" : "graph_def";
        const char *gdot = is_graphdef ? "" : ".";
        if (mt->graph.p && tf_walk_graphdef_top(&w, i, mt->graph, mt, &producer, &min_consumer) < 0) {
            err_prepend(err, "%s%s%s", mt->origin, dot, gname);
            goto out;
        }
        w.producer = producer < 0 ? 0 : producer; /* an absent versions reads as 0 */
        if (tf_add_functions(&w, mt, mg ? i : NNAV_NONE) < 0) {
            err_prepend(err, "%s%s%s", mt->origin, dot, gname);
            goto out;
        }
        if (mg) {
            mg->function_first = mt->fn_first;
            mg->function_count = m->functions.n - mt->fn_first;
        }
        uint32_t tfirst = m->tensors.n, afirst = m->attrs.n;
        m->graphs.v[i].node_first = m->nodes.n;
        m->graphs.v[i].init_first = tfirst;
        if (mt->graph.p && tf_walk_nodes(&w, i, mt->graph, GD_NODE) < 0) {
            err_prepend(err, "%s%s%s", mt->origin, dot, gname);
            goto out;
        }
        if (i == 0 && m->facts.format == NNAV_FMT_TF_SAVEDMODEL &&
            nnav_tf_bundle_read(m, i, err) < 0)
            goto out;
        if (tf_order_tensors(&w, i, tfirst, afirst) < 0 ||
            tf_link_graph(&w, i, NULL, mg ? i : NNAV_NONE) < 0) {
            err_prepend(err, "%s%s%s", mt->origin, dot, gname);
            goto out;
        }
        for (uint32_t fid = mt->fn_first; fid < m->functions.n; fid++)
            if (tf_walk_function(&w, fid) < 0) {
                err_prepend(err, "%s%s%s%slibrary.function[%u]", mt->origin, dot, gname, gdot,
                            fid - mt->fn_first);
                goto out;
            }
        if (meta_facts(&w, i, metas.n, producer, min_consumer) < 0)
            goto out;
    }
    if (tf_check_recursion(&w) < 0 || tf_opdefs_finish(&w) < 0)
        goto out;
    if (schema >= 0 &&
        add_kv(&w, SPAN("saved_model_schema_version"), nnav_tf_printf(tf, "%lld", (long long)schema)))
        goto out;
    if (tf->metas.n)
        m->facts.producer_version = tf->metas.v[0].tf_version;
    m->facts.graph_name = m->graphs.v[0].name;
    rc = 0;
out:
    for (uint32_t i = 0; i < metas.n; i++) {
        nnav_vec_free(metas.v[i].sigs);
        nnav_vec_free(metas.v[i].fns);
    }
    nnav_vec_free(metas);
    nnav_vec_free(w.ops);
    nnav_vec_free(w.opdefs);
    nnav_vec_free(w.fsig);
    nnav_vec_free(w.args);
    nnav_vec_free(w.pending);
    nnav_vec_free(w.info);
    nnav_vec_free(w.refd);
    nnav_vec_free(w.vis);
    nnav_vec_free(w.tdims);
    nnav_hashtab_free(&w.optab);
    nnav_hashtab_free(&w.fntab);
    nnav_hashtab_free(&w.nodetab);
    return rc;
}

/* ---- accessors ---- */

static uint32_t tf_warning_count(const nnav_model *m) { return nnav_tf_state(m)->warnings.n; }
static const char *tf_warning_get(const nnav_model *m, uint32_t i)
{
    return nnav_tf_state(m)->warnings.v[i];
}
static uint32_t tf_group_count(const nnav_model *m) { return nnav_tf_state(m)->metas.n; }
static const nnav_sig_group *tf_group_get(const nnav_model *m, uint32_t i)
{
    return &nnav_tf_state(m)->metas.v[i].g;
}
static nnav_span tf_tag_get(const nnav_model *m, uint32_t i) { return nnav_tf_state(m)->tags.v[i]; }
static uint32_t tf_signature_count(const nnav_model *m) { return nnav_tf_state(m)->sigs.n; }
static const nnav_signature *tf_signature_get(const nnav_model *m, uint32_t i)
{
    return &nnav_tf_state(m)->sigs.v[i];
}

/* A meta graph's facts beyond its graph, tags and signatures, as info has
 * always listed them (the text shows the function and signature counts). */
static int tf_group_fact(const nnav_model *m, uint32_t g, uint32_t k, nnav_sig_fact *out)
{
    const tf_metagraph *mg = &nnav_tf_state(m)->metas.v[g];
    switch (k) {
    case 0:
        *out = (nnav_sig_fact){.key = "tensorflow_version", .kind = NNAV_DV_TEXT,
                               .s = mg->tf_version};
        return 1;
    case 1:
        *out = (nnav_sig_fact){.key = "functions", .kind = NNAV_DV_UINT, .u = mg->function_count};
        snprintf(out->text, sizeof out->text, "%u function%s", mg->function_count,
                 mg->function_count == 1 ? "" : "s");
        return 1;
    case 2:
        *out = (nnav_sig_fact){.key = "signature_count", .kind = NNAV_DV_UINT, .u = mg->g.sig_count};
        snprintf(out->text, sizeof out->text, "%u signature%s", mg->g.sig_count,
                 mg->g.sig_count == 1 ? "" : "s");
        return 1;
    case 3:
        *out = (nnav_sig_fact){.key = "collections", .kind = NNAV_DV_UINT, .u = mg->collection_count};
        return 1;
    case 4:
        *out = (nnav_sig_fact){.key = "assets", .kind = NNAV_DV_UINT, .u = mg->asset_count};
        return 1;
    case 5:
        *out = (nnav_sig_fact){.key = "stripped_ops", .kind = NNAV_DV_UINT, .u = mg->op_count};
        return 1;
    case 6:
        *out = (nnav_sig_fact){.key = "saver", .kind = NNAV_DV_BOOL, .i = mg->has_saver != 0};
        return 1;
    case 7:
        *out = (nnav_sig_fact){.key = "object_graph_bytes", .kind = NNAV_DV_UINT,
                               .u = mg->object_graph_bytes};
        return 1;
    }
    return 0;
}

/* Where tensor k of signature s is: "signature_def[\"KEY\"].inputs[\"x\"]"
 * and the TensorInfo field asked, under its meta graph's place in a
 * SavedModel ("meta_graphs[0]."). */
static void tf_sig_tensor_field(const nnav_model *m, uint32_t s, uint32_t k, int part, char *buf,
                                size_t n)
{
    const nnav_tf *tf = nnav_tf_state(m);
    const nnav_signature *sg = &tf->sigs.v[s];
    const nnav_sig_tensor *st = &tf->sig_tensors.v[k];
    static const char *const parts[] = {"", ".name", ".dtype", ".tensor_shape"};
    char kb[300], tb[300], mg[32] = "";
    nnav_text_escape(sg->key.p, (size_t)sg->key.n, kb, sizeof kb);
    nnav_text_escape(st->key.p, (size_t)st->key.n, tb, sizeof tb);
    if (m->facts.format == NNAV_FMT_TF_SAVEDMODEL)
        snprintf(mg, sizeof mg, "meta_graphs[%u].", sg->group);
    snprintf(buf, n, "%ssignature_def[\"%s\"].%s[\"%s\"]%s", mg, kb,
             k >= sg->out_first && k - sg->out_first < sg->out_count ? "outputs" : "inputs", tb,
             part >= 0 && part < 4 ? parts[part] : "");
}

static const nnav_sig_tensor *tf_sig_tensor_get(const nnav_model *m, uint32_t i)
{
    nnav_tf *tf = nnav_tf_state(m);
    /* Values exist once the model is linked: resolve on first use. */
    if (!tf->sigs_linked) {
        for (uint32_t s = 0; s < tf->sigs.n; s++) {
            const nnav_signature *sg = &tf->sigs.v[s];
            uint32_t g = tf->metas.v[sg->group].g.graph;
            for (int side = 0; side < 2; side++) {
                uint32_t f = side ? sg->out_first : sg->in_first;
                uint32_t n = side ? sg->out_count : sg->in_count;
                for (uint32_t t = f; t < f + n; t++) {
                    nnav_sig_tensor *st = &tf->sig_tensors.v[t];
                    st->value = nnav_value_lookup(m, g, (const char *)st->name.p, st->name.n);
                    if (st->value == NNAV_NONE && st->name.n &&
                        !memchr(st->name.p, ':', st->name.n)) {
                        /* "x" means "x:0" */
                        char buf[4096];
                        if (st->name.n + 3 <= sizeof buf) {
                            memcpy(buf, st->name.p, st->name.n);
                            memcpy(buf + st->name.n, ":0", 2);
                            st->value = nnav_value_lookup(m, g, buf, st->name.n + 2);
                        }
                    }
                }
            }
        }
        tf->sigs_linked = 1;
    }
    return &tf->sig_tensors.v[i];
}

/* ---- the reader ---- */

/* A SavedModel's variables index, which the reading opens beside it (a
 * GraphDef's folder may hold one too: never to be replaced either). */
static int tf_side_files(const nnav_model *m, int (*fn)(void *cx, const char *rel), void *cx)
{
    (void)m;
    return fn(cx, "variables/variables.index") ? 1 : 0;
}

static void tf_free(nnav_model *m)
{
    nnav_tf_free(m->rd);
    m->rd = NULL;
}

/* A SavedModel folder: its saved_model.pb (the variables are found beside
 * it); one that is no regular file is still the model, which opening
 * refuses, saying what it is. */
static int tf_folder(int dirfd, char *name, size_t n)
{
    struct stat st;
    if (fstatat(dirfd, "saved_model.pb", &st, AT_SYMLINK_NOFOLLOW) != 0 || S_ISDIR(st.st_mode))
        return 0;
    snprintf(name, n, "saved_model.pb");
    return 1;
}

const nnav_reader nnav_reader_tf = {
    .name = "TensorFlow",
    .folder = tf_folder,
    .exts = "pb pbtxt",
    .formats = 1u << NNAV_FMT_TF_SAVEDMODEL | 1u << NNAV_FMT_TF_METAGRAPH |
               1u << NNAV_FMT_TF_GRAPHDEF,
    .reads = "SavedModel folders, .pb",
    .suffix = ".pb",
    .format_names = {[NNAV_FMT_TF_SAVEDMODEL] = "TensorFlow SavedModel",
                     [NNAV_FMT_TF_METAGRAPH] = "TensorFlow MetaGraphDef",
                     [NNAV_FMT_TF_GRAPHDEF] = "TensorFlow GraphDef"},
    .traits = NNAV_TRAIT_DEVICES | NNAV_TRAIT_OWN_OP_DEFS,
    .op_family = NNAV_OPS_TENSORFLOW,
    .side_files = tf_side_files,
    .index = nnav_tf_index,
    .free = tf_free,
    .attr_scalar = nnav_tf_op_attr_scalar,
    .attr_list = nnav_tf_op_attr_list,
    .shape_format = nnav_tf_shape_format,
    .func_ref = nnav_tf_func_ref,
    .attr_value_required = 1,
    .attr_tensors_listed = 1,
    .type = nnav_typeproto_decode, /* the TypeProto bytes tf_graph.c writes */
    .tensor_values = nnav_tf_op_tensor_values,
    .storage_format = nnav_tf_tensor_storage_format,
    .typed_repeats = 1,
    .node_device = nnav_tf_node_device,
    .sig_group_word = "meta_graph",
    .sig_group_count = tf_group_count,
    .sig_group_get = tf_group_get,
    .sig_group_fact = tf_group_fact,
    .sig_tag_get = tf_tag_get,
    .signature_count = tf_signature_count,
    .signature_get = tf_signature_get,
    .sig_tensor_get = tf_sig_tensor_get,
    .sig_tensor_field = tf_sig_tensor_field,
    .warning_count = tf_warning_count,
    .warning_get = tf_warning_get,
};

