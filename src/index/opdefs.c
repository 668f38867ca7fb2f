/* opdefs.c - the operator schemas a model carries itself (a TensorFlow
 * SavedModel's stripped_op_list), as opschema.h describes them. The reader
 * converts them at open and sets m->op_schemas (sorted by name, names
 * unique) in memory it owns until close; the index only hands them out. */
#include "model.h"
#include "opschema.h"

const nnav_op_schema *nnav_model_op_schemas(const nnav_model *m, uint32_t *count)
{
    uint32_t n = m->op_schemas ? m->op_schema_count : 0;
    if (count)
        *count = n;
    return n ? m->op_schemas : NULL;
}
