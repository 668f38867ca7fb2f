/* reader.h - what the format-neutral index asks of a format reader.
 *
 * A reader turns a file's bytes into the index (model.h) at open and decodes
 * its payloads on demand afterwards. The index calls a reader only through
 * these pointers (m->reader); it never names one. The table of readers, the
 * sniffing that picks one and the open path live in src/formats/readers.c.
 *
 * Calling rules:
 *  - index() fills the model from m->map (m->facts.format is already chosen)
 *    and may set m->rd, its private state; free() releases m->rd, and is
 *    called once at close even when index() failed part way (m->rd may then
 *    be NULL or partly built).
 *  - Every other operation is called only on a model index() succeeded on,
 *    with ids in range. Errors are data: -1 with err set (offset, message).
 *  - An operation left NULL means the format has nothing of that kind; the
 *    index then answers as the comment says (none, empty, the neutral text).
 */
#ifndef NNAV_READER_H
#define NNAV_READER_H

#include "nnav.h"
#include "wire.h"

/* Which attribute list or scalar is asked for: the public accessors'
 * nnav_attr_ints / _floats / _strings, nnav_attr_int / _float / _string;
 * NNAV_AK_MSG, asked only by the text renderer (values.c) and only of a
 * TF_SHAPE(S) or TF_FUNC(S) attribute: the value's message bytes, for
 * shape_format or func_ref below. */
enum { NNAV_AK_INT = 'i', NNAV_AK_FLOAT = 'f', NNAV_AK_STRING = 's', NNAV_AK_MSG = 'm' };

typedef struct nnav_reader {
    const char *name;  /* "ONNX", "TensorFlow" */
    uint32_t formats;  /* bit 1u << f for each nnav_format it reads */
    /* What it reads, for the one list of readable formats every refusal
     * gives (nnav_readable_formats): ".onnx", "SavedModel folders, .pb";
     * NULL: its name says it. */
    const char *reads;
    /* How its files are named (".EXT"). A file so named that no reader's
     * sniff claims is given to this reader when it has a sniff, so that a
     * damaged one is told in its format's words; and a file read as
     * protobuf for want of a magic number whose first bytes are no
     * protobuf field is refused as no model (the one list of readable
     * formats), unless its name is a reader's. NULL: none. */
    const char *suffix;
    /* The name of each nnav_format it reads, by format ("TensorFlow
     * GraphDef"); a reader of NNAV_FMT_OTHER is named by `name`. */
    const char *format_names[NNAV_FMT_OTHER];
    unsigned traits;   /* NNAV_TRAIT_*: the model's facts.traits */
    int op_family;     /* nnav_op_family: the model's facts.op_family */
    /* A reader of NNAV_FMT_OTHER: whether the mapped bytes (p, n; the file
     * at path) are its format's, 1 with why in reason ("read as ...");
     * asked before every other reading, so it must be sure (a magic number,
     * a header that parses), and must read nothing past a small prefix.
     * The model's facts.format_name is then the reader's name. */
    int (*sniff)(const uint8_t *p, uint64_t n, const char *path, char *reason, size_t rn);
    /* A folder given as the model (dirfd open on it): 1 with the name of
     * the file in it this reader opens as the whole model in name (n bytes),
     * 0 when the folder holds none. Only looks (fstatat, readdir), never
     * reads a file. NULL: a folder is never its. */
    int (*folder)(int dirfd, char *name, size_t n);
    /* The endings its files' names usually have, space-separated ("pt pth"):
     * a folder of several models lists each file as this reader's by them. */
    const char *exts;

    int (*index)(nnav_model *m, const nnav_open_opts *o, nnav_error *err);
    void (*free)(nnav_model *m);

    /* Attribute `a`'s scalar of `kind`: *out gets the field as written (wire
     * type and value; an element type already as an nnav element type), or
     * all zeros when the attribute holds none. */
    int (*attr_scalar)(const nnav_model *m, uint32_t a, int kind, nnav_field *out,
                       nnav_error *err);
    /* Attribute `a`'s list of `kind`: the first `max` into ints, dbls or
     * spans (whichever kind asks for; the buffer may be NULL), the count into
     * *total. */
    int (*attr_list)(const nnav_model *m, uint32_t a, int kind, int64_t *ints, double *dbls,
                     nnav_span *spans, size_t max, size_t *total, nnav_error *err);
    /* Attribute `a`'s types, each in the reader's type encoding (what
     * `type` below decodes). NULL: none (*total 0). */
    int (*attr_types)(const nnav_model *m, uint32_t a, nnav_span *buf, size_t max,
                      size_t *total, nnav_error *err);
    /* The k-th sparse tensor of attribute `a` (nnav_attr_sparse()'s contract).
     * NULL: the format has none (*total 0). */
    int (*attr_sparse)(const nnav_model *m, uint32_t a, size_t k, int64_t *dims, size_t max,
                       size_t *ndims, nnav_span *values, nnav_span *indices, size_t *total,
                       nnav_error *err);
    /* What the one text renderer (nnav_attr_format, values.c) cannot decode
     * from the accessors above. A shape message (a TF_SHAPE attribute's, a
     * TF_SHAPES item) as text; NULL: none occur. */
    void (*shape_format)(const uint8_t *base, nnav_span shape, char *buf, size_t n);
    /* A function reference (a TF_FUNC attribute's, a TF_FUNCS item): the
     * function's name and how many attrs it binds. NULL: none occur. */
    void (*func_ref)(const nnav_model *m, nnav_span msg, nnav_span *name, uint32_t *nattrs);
    /* The text's conventions, each as the format's text has always been:
     * attr_value_required - the value field is what gave a scalar attribute
     * its type, so one absent or unreadable reads "(malformed)" (else an
     * absent value is the zero value and an unreadable one is left out);
     * attr_tensors_listed - a list of tensors in brackets, a tensor's first
     * values as doubles, a string tensor's left out. */
    uint8_t attr_value_required, attr_tensors_listed;

    /* Decode a type this reader put in the index (an nnav_vinfo's type, an
     * attr_types item; type.p not NULL) into *out, keeping the axes from
     * `first` on: nnav_type_axes()'s contract. The index keeps each type in
     * the reader's own encoding and reads it only through this. NULL: the
     * format has no types (absent). */
    int (*type)(const nnav_model *m, nnav_span type, uint64_t first, nnav_type *out);

    /* Tensor t's values (nnav_tensor_values()'s contract). */
    int (*tensor_values)(const nnav_model *m, uint32_t t, size_t want, int stats,
                         nnav_values *out, nnav_error *err);
    /* A tensor message the index does not hold (a sparse attribute's part),
     * nnav_tensorproto_values()'s contract. NULL: such parts do not occur. */
    int (*part_values)(const nnav_model *m, nnav_span msg, int32_t *dtype, int64_t *dims,
                       size_t max, size_t *ndims, size_t want, nnav_values *out,
                       nnav_error *err);
    /* Tensor t's elements, for an int32 or int64 tensor whose storage is
     * NNAV_STORE_TYPED, exactly and in order: fn(ctx, the element's bits)
     * until it returns non-zero. NULL: typed storage is never read so. */
    int (*typed_ints)(const nnav_model *m, uint32_t t, int (*fn)(void *ctx, uint64_t v),
                      void *ctx, nnav_error *err);
    /* How tensor t is stored, for a tensor not stored externally. NULL: the
     * neutral words (raw, typed, sparse, none). */
    void (*storage_format)(const nnav_model *m, uint32_t t, char *buf, size_t n);
    /* Typed storage's present bytes are always what dims x dtype say (a
     * shorter list repeats its last value); else only when no size mismatch
     * is flagged. */
    int typed_repeats;

    /* The domain a node names; NULL or an empty span: none. Asked only for
     * nodes flagged in m->node_dom. */
    nnav_span (*node_domain)(const nnav_model *m, uint32_t node);
    /* The device a node is placed on; NULL: the format has none. */
    nnav_span (*node_device)(const nnav_model *m, uint32_t node);
    /* The class of the module at a dotted key path (nnav_module_class()'s
     * contract). NULL: the format names no module classes. */
    nnav_span (*module_class)(const nnav_model *m, nnav_span path);
    /* The i-th module object (nnav_module_at()'s contract); NULL: none. */
    nnav_span (*module_at)(const nnav_model *m, uint32_t i, nnav_span *cls);
    /* The tensor t is another name of (nnav_tensor_alias()'s contract);
     * NULL: the format has no such thing. */
    uint32_t (*tensor_alias)(const nnav_model *m, uint32_t t);
    /* The format's own facts (nnav_detail_get()'s contract): how many, the
     * i-th, and item k of an ARRAY one. NULL: none. */
    uint32_t (*detail_count)(const nnav_model *m);
    int (*detail_get)(const nnav_model *m, uint32_t i, nnav_detail *out);
    int (*detail_item)(const nnav_model *m, uint32_t i, uint64_t k, nnav_detail *out,
                       nnav_error *err);
    /* What loading the model with its framework's loader would run
     * (loadscan.h); NULL: the loader runs nothing. */
    const struct nnav_load_scan *(*load_scan)(const nnav_model *m);
    /* The same for a file not opened as a model (nnav scan): 0 with *out
     * (its release set), -1 with err. NULL: nothing to scan. */
    int (*scan_open)(const char *path, struct nnav_load_scan **out, nnav_error *err);

    /* The model's signatures, its entry points (nnav.h): each op the
     * contract of the nnav.h accessor of its name; sig_group_word what the
     * format calls a group. NULL: the format names none (no groups). */
    const char *sig_group_word;
    uint32_t (*sig_group_count)(const nnav_model *m);
    const nnav_sig_group *(*sig_group_get)(const nnav_model *m, uint32_t i);
    int (*sig_group_fact)(const nnav_model *m, uint32_t g, uint32_t k, nnav_sig_fact *out);
    nnav_span (*sig_tag_get)(const nnav_model *m, uint32_t i);
    uint32_t (*signature_count)(const nnav_model *m);
    const nnav_signature *(*signature_get)(const nnav_model *m, uint32_t i);
    const nnav_sig_tensor *(*sig_tensor_get)(const nnav_model *m, uint32_t i);
    void (*sig_tensor_field)(const nnav_model *m, uint32_t s, uint32_t k, int part, char *buf,
                             size_t n);
    /* The problems found at open that did not stop reading (nnav.h's
     * nnav_warning_get); NULL: none are kept. */
    uint32_t (*warning_count)(const nnav_model *m);
    const char *(*warning_get)(const nnav_model *m, uint32_t i);
    /* The files beside the model that reading it opens (paths under m->dir,
     * as "variables/variables.index"), each to fn until it returns non-zero
     * (then 1, else 0); an export must not replace them. NULL: none. */
    int (*side_files)(const nnav_model *m, int (*fn)(void *cx, const char *rel), void *cx);
} nnav_reader;

#endif
