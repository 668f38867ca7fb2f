/* yamlout.h - a thin writer over libyaml's emitter, shared by every --yaml
 * output and the YAML export. Strings from the file are emitted so that any
 * bytes survive: valid UTF-8 as a (quoted when needed) string, anything else
 * as a !!binary scalar holding the exact bytes in base64. */
#ifndef NNAV_YAMLOUT_H
#define NNAV_YAMLOUT_H

#include <stdint.h>
#include <stdio.h>
#include <yaml.h>

#include "nnav.h"

typedef struct nnav_yw {
    yaml_emitter_t em;
    int failed;
} nnav_yw;

int nnav_yw_open(nnav_yw *w, FILE *out);
int nnav_yw_close(nnav_yw *w); /* ends the document; 0 ok, -1 if anything failed */
void nnav_yw_map(nnav_yw *w);
void nnav_yw_map_flow(nnav_yw *w);
void nnav_yw_map_end(nnav_yw *w);
void nnav_yw_seq(nnav_yw *w);
void nnav_yw_seq_flow(nnav_yw *w);
void nnav_yw_seq_end(nnav_yw *w);
void nnav_yw_key(nnav_yw *w, const char *k);
void nnav_yw_cstr(nnav_yw *w, const char *s);
void nnav_yw_span(nnav_yw *w, nnav_span s);
void nnav_yw_int(nnav_yw *w, int64_t v);
void nnav_yw_uint(nnav_yw *w, uint64_t v);
void nnav_yw_double(nnav_yw *w, double v);
void nnav_yw_bool(nnav_yw *w, int v);
void nnav_yw_null(nnav_yw *w);
void nnav_yw_binary(nnav_yw *w, const uint8_t *p, uint64_t n);

/* The values of v (v->count of them) as a flow list, exactly: strings (is_string,
 * from v->s) as strings, integer types as integers (a uint64 unsigned), any
 * other as floats that YAML 1.1 loaders read back as the same double. */
void nnav_yw_values(nnav_yw *w, const nnav_values *v, int is_string);
/* A tensor in brief, as a map: name, data_type, dims, elements and values
 * (the first max_values of them; values_error when they cannot be read). */
void nnav_yw_tensor_brief(nnav_yw *w, const nnav_model *m, uint32_t t, size_t max_values);
/* The k-th sparse tensor of a SPARSE_TENSOR(S) attribute, as a sparse
 * initializer is written: dims, values and indices (each as
 * nnav_yw_tensor_brief writes a tensor); error says why when unreadable. */
void nnav_yw_attr_sparse(nnav_yw *w, const nnav_model *m, uint32_t a, size_t k,
                         size_t max_values);

#endif
