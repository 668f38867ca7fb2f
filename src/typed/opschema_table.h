/* opschema_table.h - the generated ONNX operator table (opschema_onnx.c,
 * written by proto/gen_opschema.py), for opschema.c and its tests only. */
#ifndef NNAV_OPSCHEMA_TABLE_H
#define NNAV_OPSCHEMA_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "opschema.h"

/* Sorted by domain, name, since_version; attributes sorted by name. */
extern const nnav_op_schema nnav_opschema_onnx[];
extern const size_t nnav_opschema_onnx_count;
extern const char nnav_opschema_origin[];
extern const int nnav_opschema_generator_version;
/* ai.onnx, ai.onnx.ml, ai.onnx.preview.training: the newest version of each. */
extern const int32_t nnav_opschema_domain_max[3];

#endif
