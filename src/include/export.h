/* export.h - the pieces behind nnav_export_stream / nnav_export_file. */
#ifndef NNAV_EXPORT_H
#define NNAV_EXPORT_H

#include <stdio.h>

#include "nnav.h"
#include "yamlout.h"

/* Local functions the selection calls, directly, from nested bodies, or from
 * other functions' bodies; ids in a malloc'd array. */
int nnav_export_functions(const nnav_model *m, const nnav_selection *sel, uint32_t **out,
                          size_t *n);
int nnav_export_yaml(const nnav_model *m, const nnav_selection *sel, const nnav_export_opts *o,
                     FILE *out, nnav_error *err);
/* How nnav_yw_attr_value writes an attribute's value. All zeros but
 * text_size is the export's way less its tensors; each field says what it
 * changes. */
typedef struct nnav_attr_yaml_opts {
    /* Tensor attributes written whole, as the export writes an initializer,
     * with these options (max_values, binary). NULL: briefly, type and first
     * values (nnav_yw_tensor_brief), and a tensor attribute always as a
     * sequence when it holds none. */
    const nnav_export_opts *full;
    /* Values written for a brief tensor and for a sparse tensor's parts. */
    size_t max_values;
    /* TensorFlow bools as YAML booleans and types as element type names, one
     * or a list; 0: as their text (nnav_attr_format), a string. */
    int tf_typed;
    /* Graphs as a flow sequence of their paths; 0: as their text. */
    int graph_paths;
    /* Each text written (a type, a graph's path, a value as text, which
     * nnav_attr_format renders with 16 items) is cut to text_size - 1 bytes.
     * 0: 512. */
    size_t text_size;
} nnav_attr_yaml_opts;

/* Attribute a's value as one YAML node, the one YAML rendering of attribute
 * values (export_yaml.c): the accessors' values (scalars, lists, types,
 * sparse tensors' parts, tensors) as YAML, and the kinds YAML has no node for
 * (TensorFlow shapes, functions, ...) as their text. -1, with err set, when
 * what the file holds cannot be read (a list cut in a varint, an int given
 * as bytes): what was written then is a placeholder (a zero, a shorter list,
 * null), and the caller says why next to it. */
int nnav_yw_attr_value(nnav_yw *w, const nnav_model *m, uint32_t a,
                       const nnav_attr_yaml_opts *o, nnav_error *err);

/* Every external data location a tensor of the model names (the index's
 * tensors, and those in sparse_tensor attributes, which it does not keep),
 * each at least once; stops when fn returns nonzero, and returns that. */
typedef int (*nnav_location_fn)(void *ctx, nnav_span location);
int nnav_export_locations(const nnav_model *m, nnav_location_fn fn, void *ctx);
/* What nnav_export_file checks before it writes `path` (the ONNX data file
 * beside it aside): 0 when it may write there; -1 with err (status 2) when
 * it would refuse: a symbolic link, not a regular file, no such folder, or a
 * file the model reads (named in the message). The explorer asks this before
 * its overwrite question. */
int nnav_export_check(const nnav_model *m, const char *path, nnav_error *err);
/* data_path: where external data goes with keep_external (NULL otherwise);
 * data_name: the location written into the model for it. */
int nnav_export_onnx(const nnav_model *m, const nnav_selection *sel, const nnav_export_opts *o,
                     FILE *out, FILE *data, const char *data_name, nnav_error *err);

#endif
