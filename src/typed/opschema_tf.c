/* opschema_tf.c - TensorFlow nodes against their model's OpDefs (contract in
 * opschema_tf.h). */
#include "opschema_tf.h"

#include <string.h>

#include "nnav.h"

const nnav_op_schema *nnav_op_tf_find(const nnav_model *m, nnav_span name)
{
    uint32_t n;
    const nnav_op_schema *s = nnav_model_op_schemas(m, &n);
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        /* Schema names hold no NUL byte (the reader refuses such OpDefs), so
         * comparing the common prefix, then the lengths, orders as strcmp. */
        const char *key = s[mid].name;
        size_t kn = strlen(key);
        size_t common = kn < name.n ? kn : (size_t)name.n;
        int k = common ? memcmp(key, name.p, common) : 0;
        if (!k)
            k = (kn > name.n) - (kn < name.n);
        if (!k)
            return &s[mid];
        if (k < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

int nnav_op_resolve_tf(const nnav_model *m, uint32_t node, nnav_op_use *out)
{
    if (node >= nnav_node_count(m))
        return -1;
    const nnav_node *nd = nnav_node_get(m, node);
    uint32_t n;
    memset(out, 0, sizeof *out);
    out->domain = "tf";
    out->opset = -1;
    nnav_model_op_schemas(m, &n);
    if (nd->function != NNAV_NONE) {
        out->status = NNAV_OPS_FUNCTION;
    } else if (!n) {
        out->status = NNAV_OPS_NO_SCHEMAS;
    } else if ((out->s = nnav_op_tf_find(m, nd->op))) {
        out->status = NNAV_OPS_FOUND;
    } else {
        out->status = NNAV_OPS_UNKNOWN;
    }
    return 0;
}
