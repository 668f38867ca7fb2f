/* tf.h - the TensorFlow reader's private pieces, shared by tf.c (SavedModel,
 * MetaGraphDef and GraphDef -> index, with tf_graph.c and tf_meta.c through
 * tf_walk.h), tf_bundle.c (the variables.index table) and tf_values.c (attrs
 * and tensor values on demand). Nothing outside src/formats/tf/ includes it:
 * the rest of the core knows the reader as nnav_reader_tf (readers.h).
 *
 * How TensorFlow maps onto the format-neutral index:
 *  - each MetaGraph's GraphDef is a root graph (kind MAIN; the first is "/",
 *    the others "~meta[i]"); each library function is a root graph of kind
 *    FUNCTION ("@NAME"). Calls are links by id, never copies, so a function
 *    that (indirectly) calls itself costs nothing and recurses nowhere.
 *  - output i of node N is the value "N:i" at top level and "N:ARG:k" in a
 *    function body; inputs are rewritten to those names ("N" -> "N:0"), so
 *    the shared linker resolves them. A control input "^N" stays as written,
 *    flagged, and names N's control output "^N" (a flagged output ref).
 *  - types: the reader's type encoding is a small ONNX TypeProto message
 *    (dtype + shape) it writes into its arena, decoded by the TypeProto
 *    decoder it shares with the ONNX reader (../typeproto.h); an export to
 *    ONNX copies it as it is.
 *  - Const nodes' `value` tensors and the checkpoint's variables are the
 *    graph's initializers; other tensor attrs are attribute tensors.
 * Names made here (output names, variable keys out of compressed blocks) live
 * in the reader's arena until the model is closed. */
#ifndef NNAV_TF_H
#define NNAV_TF_H

#include "model.h"
#include "readers.h"
#include "tf_fields.h"
#include "wire.h"

/* AttrValue field numbers (tf_fields.h); ListValue numbers s to tensor alike,
 * and the readers of a list use these names for both. */
enum {
    TF_AV_LIST = NNAV_TF_ATTRVALUE_LIST,
    TF_AV_S = NNAV_TF_ATTRVALUE_S,
    TF_AV_I = NNAV_TF_ATTRVALUE_I,
    TF_AV_F = NNAV_TF_ATTRVALUE_F,
    TF_AV_B = NNAV_TF_ATTRVALUE_B,
    TF_AV_TYPE = NNAV_TF_ATTRVALUE_TYPE,
    TF_AV_SHAPE = NNAV_TF_ATTRVALUE_SHAPE,
    TF_AV_TENSOR = NNAV_TF_ATTRVALUE_TENSOR,
    TF_AV_PLACEHOLDER = NNAV_TF_ATTRVALUE_PLACEHOLDER,
    TF_AV_FUNC = NNAV_TF_ATTRVALUE_FUNC,
};
_Static_assert((int)NNAV_TF_ATTRVALUE_LISTVALUE_S == (int)TF_AV_S &&
                   (int)NNAV_TF_ATTRVALUE_LISTVALUE_I == (int)TF_AV_I &&
                   (int)NNAV_TF_ATTRVALUE_LISTVALUE_F == (int)TF_AV_F &&
                   (int)NNAV_TF_ATTRVALUE_LISTVALUE_B == (int)TF_AV_B &&
                   (int)NNAV_TF_ATTRVALUE_LISTVALUE_TYPE == (int)TF_AV_TYPE &&
                   (int)NNAV_TF_ATTRVALUE_LISTVALUE_SHAPE == (int)TF_AV_SHAPE &&
                   (int)NNAV_TF_ATTRVALUE_LISTVALUE_TENSOR == (int)TF_AV_TENSOR,
               "ListValue numbers its fields as AttrValue does");
/* TensorProto field numbers. */
enum {
    TF_T_DTYPE = NNAV_TF_TENSORPROTO_DTYPE,
    TF_T_SHAPE = NNAV_TF_TENSORPROTO_TENSOR_SHAPE,
    TF_T_VERSION = NNAV_TF_TENSORPROTO_VERSION_NUMBER,
    TF_T_CONTENT = NNAV_TF_TENSORPROTO_TENSOR_CONTENT,
    TF_T_FLOAT = NNAV_TF_TENSORPROTO_FLOAT_VAL,
    TF_T_DOUBLE = NNAV_TF_TENSORPROTO_DOUBLE_VAL,
    TF_T_INT = NNAV_TF_TENSORPROTO_INT_VAL,
    TF_T_STRING = NNAV_TF_TENSORPROTO_STRING_VAL,
    TF_T_SCOMPLEX = NNAV_TF_TENSORPROTO_SCOMPLEX_VAL,
    TF_T_INT64 = NNAV_TF_TENSORPROTO_INT64_VAL,
    TF_T_BOOL = NNAV_TF_TENSORPROTO_BOOL_VAL,
    TF_T_DCOMPLEX = NNAV_TF_TENSORPROTO_DCOMPLEX_VAL,
    TF_T_HALF = NNAV_TF_TENSORPROTO_HALF_VAL,
    TF_T_RESOURCE = NNAV_TF_TENSORPROTO_RESOURCE_HANDLE_VAL,
    TF_T_VARIANT = NNAV_TF_TENSORPROTO_VARIANT_VAL,
    TF_T_UINT32 = NNAV_TF_TENSORPROTO_UINT32_VAL,
    TF_T_UINT64 = NNAV_TF_TENSORPROTO_UINT64_VAL,
    TF_T_FLOAT8 = NNAV_TF_TENSORPROTO_FLOAT8_VAL,
};

typedef struct tf_chunk tf_chunk;

/* A checkpoint string variable's bytes, mapped when its values are read and
 * kept for the spans handed out: the last TF_STRMAPS stay mapped (the oldest
 * is released when another is mapped), all are released at close. */
#define TF_STRMAPS 8
typedef struct tf_strmap {
    void *cookie; /* nnav_tensor_bytes's, NULL when the slot is free */
} tf_strmap;

/* A meta graph: the signature group every face sees (nnav.h), and
 * TensorFlow's own facts of it (nnav_sig_group_fact gives them). */
typedef struct tf_metagraph {
    nnav_sig_group g;
    nnav_span tf_version, tf_git_version, meta_graph_version;
    uint32_t function_first, function_count;
    uint32_t collection_count, asset_count, op_count; /* op_count: stripped_op_list */
    int has_saver;
    uint64_t object_graph_bytes;     /* TF2 object graph, not walked */
} tf_metagraph;

typedef struct nnav_tf {
    tf_chunk *arena;
    NNAV_VEC(tf_metagraph) metas;
    NNAV_VEC(nnav_span) tags;
    NNAV_VEC(nnav_signature) sigs;
    NNAV_VEC(nnav_sig_tensor) sig_tensors;
    NNAV_VEC(char *) warnings;
    nnav_span bundle_path;   /* "variables/variables.index" when read */
    uint32_t variables;      /* tensors read from it */
    uint32_t bundle_shards;
    int sigs_linked;         /* sig_tensors' values resolved */
    tf_strmap strmaps[TF_STRMAPS];
    uint32_t strmap_next;    /* the slot the next mapping takes */
} nnav_tf;

/* The TensorFlow reader's state of m (m->rd); NULL when another reader read m. */
static inline nnav_tf *nnav_tf_state(const nnav_model *m)
{
    return m->reader == &nnav_reader_tf ? (nnav_tf *)m->rd : NULL;
}

/* Bytes that live until the model is closed; NULL when out of memory. */
void *nnav_tf_alloc(nnav_tf *tf, size_t n);
/* A printf-made string in the arena, as a span (p == NULL when out of memory). */
nnav_span nnav_tf_printf(nnav_tf *tf, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A warning shown by `info` (sanitised by the caller of nnav_warning_get). */
int nnav_tf_warn(nnav_model *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* TensorFlow DataType number -> nnav element type (ONNX numbering, or a
 * TensorFlow-only code from dtype.h); -1 when the number is not a DataType. */
int32_t nnav_tf_dtype(uint64_t tf_dtype);

/* The variables of a SavedModel: read DIR/variables/variables.index (absent is
 * no error) and append one tensor per entry to graph `graph`'s initializers. */
int nnav_tf_bundle_read(nnav_model *m, uint32_t graph, nnav_error *err);
/* Snappy decompression into a buffer of exactly `out_n` bytes (the length the
 * stream declares, read with nnav_tf_snappy_length). 0 ok, -1 malformed. */
int nnav_tf_snappy_length(const uint8_t *p, uint64_t n, uint64_t *out_n, uint64_t *hdr);
int nnav_tf_snappy(const uint8_t *p, uint64_t n, uint8_t *out, uint64_t out_n);
/* CRC-32C (Castagnoli), and LevelDB's masked form of it. */
uint32_t nnav_tf_crc32c(uint32_t crc, const uint8_t *p, uint64_t n);
uint32_t nnav_tf_crc_mask(uint32_t crc);

int nnav_tf_index(nnav_model *m, const nnav_open_opts *o, nnav_error *err);
void nnav_tf_free(nnav_tf *tf);

/* On-demand decoding for TensorFlow attrs and tensors (tf_values.c): the
 * reader operations (reader.h gives their contracts), and the AttrValue
 * readers they are built on. */
int nnav_tf_op_attr_scalar(const nnav_model *m, uint32_t a, int kind, nnav_field *out,
                           nnav_error *err);
int nnav_tf_op_attr_list(const nnav_model *m, uint32_t a, int kind, int64_t *ints, double *dbls,
                         nnav_span *spans, size_t max, size_t *total, nnav_error *err);
int nnav_tf_op_tensor_values(const nnav_model *m, uint32_t t, size_t want, int stats,
                             nnav_values *out, nnav_error *err);
nnav_span nnav_tf_node_device(const nnav_model *m, uint32_t node);
int nnav_tf_attr_scalar(const nnav_model *m, uint32_t a, int want, nnav_field *out,
                        nnav_error *err);
int nnav_tf_attr_list(const nnav_model *m, uint32_t a, int field, int64_t *ints, double *dbls,
                      nnav_span *spans, size_t max, size_t *total, nnav_error *err);
void nnav_tf_func_ref(const nnav_model *m, nnav_span msg, nnav_span *name, uint32_t *nattrs);
/* A checkpoint variable of dtype string (a DT_STRING tensor in a data shard)
 * gives its strings as spans into the shard, mapped for the purpose; they
 * stay valid until TF_STRMAPS more string variables are read or the model is
 * closed (every caller uses them at once). */
int nnav_tf_tensor_values(const nnav_model *m, uint32_t t, size_t want, int stats,
                          nnav_values *out, nnav_error *err);
/* Releases what nnav_tf_tensor_values keeps mapped (nnav_tf_free calls it). */
void nnav_tf_values_free(nnav_tf *tf);
void nnav_tf_tensor_storage_format(const nnav_model *m, uint32_t t, char *buf, size_t n);
/* A TensorShapeProto as "[?,3]", "[]" (scalar) or "[...]" (unknown rank). */
void nnav_tf_shape_format(const uint8_t *base, nnav_span shape, char *buf, size_t n);

#endif
