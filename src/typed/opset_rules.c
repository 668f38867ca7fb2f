/* opset_rules.c - the operator table of a model's format (opset_rules.h). */
#include "opset_rules.h"

const nnav_opset_rules *nnav_opset_rules_of(const nnav_model *m)
{
    switch (nnav_model_facts_get(m)->format) {
    case NNAV_FMT_TF_SAVEDMODEL: case NNAV_FMT_TF_METAGRAPH: case NNAV_FMT_TF_GRAPHDEF:
        return &nnav_rules_tf;
    case NNAV_FMT_ONNX:
        break;
    }
    return &nnav_rules_onnx;
}
