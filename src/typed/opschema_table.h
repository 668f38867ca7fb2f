/* opschema_table.h - the generated operator table (opschema_onnx.c, its
 * arrays in opschema_pool.h and opschema_pool_N.c, all written by
 * proto/gen_opschema.py), for opschema.c and its tests only. */
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
/* The domains the table holds, sorted by name, each with its newest
 * version (the highest since_version of any of its operators). */
typedef struct nnav_op_domain {
    const char *name;
    int32_t max;
} nnav_op_domain;
extern const nnav_op_domain nnav_opschema_domains[];
extern const size_t nnav_opschema_domain_count;

#endif
