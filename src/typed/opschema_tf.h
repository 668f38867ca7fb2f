/* opschema_tf.h - a TensorFlow node held to the OpDefs its model carries
 * (nnav_model_op_schemas, opschema.h). nnav_op_resolve calls it for a model
 * read by the TensorFlow reader; nothing else needs to.
 *
 * A node's op is looked up by name (a binary search over the schemas, which
 * are sorted by name). The answer, in order:
 *  - the node calls a function of the library (nnav_node.function set):
 *    NNAV_OPS_FUNCTION (TensorFlow looks the library up before its ops);
 *  - the model carries no OpDefs (a GraphDef, a MetaGraphDef without
 *    stripped_op_list): NNAV_OPS_NO_SCHEMAS;
 *  - an OpDef of that name: NNAV_OPS_FOUND, s set;
 *  - none: NNAV_OPS_UNKNOWN.
 * domain is "tf", opset -1, table_max 0, past_table 0
 * always: OpDefs have no versions. */
#ifndef NNAV_OPSCHEMA_TF_H
#define NNAV_OPSCHEMA_TF_H

#include <stdint.h>

#include "opschema.h"

/* Returns 0, or -1 for a node id out of range (out untouched). */
int nnav_op_resolve_tf(const nnav_model *m, uint32_t node, nnav_op_use *out);

/* The model's OpDef of op `name`, or NULL. */
const nnav_op_schema *nnav_op_tf_find(const nnav_model *m, nnav_span name);

#endif
