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
 * domain is "tf" for FOUND and UNKNOWN (NULL otherwise, as for an ONNX
 * function call); opset -1, table_max 0, past_table 0 always: OpDefs have
 * no versions. */
#ifndef NNAV_OPSCHEMA_TF_H
#define NNAV_OPSCHEMA_TF_H

#include <stdint.h>

#include "opschema.h"

/* Returns 0, or -1 for a node id out of range (out untouched). */
int nnav_op_resolve_tf(const nnav_model *m, uint32_t node, nnav_op_use *out);

/* The model's OpDef of op `name`, or NULL. */
const nnav_op_schema *nnav_op_tf_find(const nnav_model *m, nnav_span name);

/* The formal that a TensorFlow node's data input (output) at position i
 * binds to, *k its position within a list arg (0 for a single one).
 * TensorFlow has list args anywhere in a signature (ConcatV2: values, then
 * axis; ParseExample: three lists in a row), so positions bind through the
 * node's own attrs, as TensorFlow does: an arg with a number_attr holds as
 * many tensors as the node's int attr of that name says, one with a
 * type_list_attr as many types as its list(type) attr holds; an attr the
 * node lacks counts as the OpDef's default. s must be one of m's schemas
 * (nnav_model_op_schemas). NULL past the args, and when the count of a
 * list before i is unknown (an attr of another kind, a placeholder). */
const nnav_op_formal *nnav_op_tf_arg_formal(const nnav_model *m, uint32_t node,
                                            const nnav_op_schema *s, int output, uint32_t i,
                                            uint32_t *k);
/* Its name: "x", or "values[2]" for an item of a list arg; "" when
 * nnav_op_tf_arg_formal gives NULL. Returns buf. */
const char *nnav_op_tf_arg_name(const nnav_model *m, uint32_t node, const nnav_op_schema *s,
                                int output, uint32_t i, char *buf, size_t n);

#endif
