/* The named wire field numbers (src/index/onnx_fields.h,
 * src/formats/tf/tf_fields.h, written by proto/gen_fields.py) against the
 * descriptors protoc-c generates from proto/ at build time: every name has
 * its schema's number, and every field of every message has a name, so the
 * headers cannot drift from the schemas the rest of nnav is built from. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "onnx.pb-c.h"
#include "tensorflow/attr_value.pb-c.h"
#include "tensorflow/full_type.pb-c.h"
#include "tensorflow/function.pb-c.h"
#include "tensorflow/graph.pb-c.h"
#include "tensorflow/meta_graph.pb-c.h"
#include "tensorflow/node_def.pb-c.h"
#include "tensorflow/op_def.pb-c.h"
#include "tensorflow/resource_handle.pb-c.h"
#include "tensorflow/saved_model.pb-c.h"
#include "tensorflow/tensor.pb-c.h"
#include "tensorflow/tensor_bundle.pb-c.h"
#include "tensorflow/tensor_shape.pb-c.h"
#include "tensorflow/versions.pb-c.h"

#define NNAV_FIELDS_CHECK
#include "onnx_fields.h"
#include "tf_fields.h"

typedef struct row {
    const ProtobufCMessageDescriptor *d;
    const char *field;
    unsigned num;
} row;

#define X(desc, name, n) {&desc, name, n},
static const row onnx_rows[] = {NNAV_ONNX_FIELDS_TABLE};
static const row tf_rows[] = {NNAV_TF_FIELDS_TABLE};
#undef X

/* Each row's number is the descriptor's; each descriptor named has all its
 * fields in the table. Returns the number of descriptors seen. */
static size_t check(const row *r, size_t n)
{
    const ProtobufCMessageDescriptor *seen[256];
    size_t nseen = 0;
    for (size_t i = 0; i < n; i++) {
        const ProtobufCFieldDescriptor *f =
            protobuf_c_message_descriptor_get_field_by_name(r[i].d, r[i].field);
        if (!f)
            fail_msg("%s has no field %s", r[i].d->name, r[i].field);
        if (f->id != r[i].num)
            fail_msg("%s.%s is %u in the header, %u in proto/", r[i].d->name, r[i].field,
                     r[i].num, f->id);
        size_t k = 0;
        while (k < nseen && seen[k] != r[i].d)
            k++;
        if (k == nseen) {
            assert_true(nseen < sizeof seen / sizeof *seen);
            seen[nseen++] = r[i].d;
        }
    }
    for (size_t k = 0; k < nseen; k++) {
        unsigned named = 0;
        for (size_t i = 0; i < n; i++)
            named += r[i].d == seen[k];
        if (named != seen[k]->n_fields)
            fail_msg("%s has %u fields in proto/ and %u in the header: rerun proto/gen_fields.py",
                     seen[k]->name, seen[k]->n_fields, named);
    }
    return nseen;
}

static void test_onnx_fields(void **state)
{
    (void)state;
    size_t n = check(onnx_rows, sizeof onnx_rows / sizeof *onnx_rows);
    /* Every ONNX message of the schema (enums have no fields) is named. */
    assert_int_equal(n, 28);
    assert_int_equal(NNAV_ONNX_TYPEPROTO_TENSOR_ELEM_TYPE, 1);
    assert_int_equal(NNAV_ONNX_ATTRIBUTEPROTO_SPARSE_TENSORS, 23);
    assert_int_equal(NNAV_ONNX_MODELPROTO_TRAINING_INFO, 20);
}

static void test_tf_fields(void **state)
{
    (void)state;
    size_t n = check(tf_rows, sizeof tf_rows / sizeof *tf_rows);
    assert_true(n >= 30);
    assert_int_equal(NNAV_TF_NODEDEF_ATTR, 5);
    assert_int_equal(NNAV_TF_TENSORPROTO_TENSOR_CONTENT, 4);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_onnx_fields),
        cmocka_unit_test(test_tf_fields),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
