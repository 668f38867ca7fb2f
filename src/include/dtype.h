/* dtype.h - ONNX element types: names, widths, and decoding one element.
 * The public names (nnav_dtype_name, nnav_dtype_bits...) are declared in nnav.h. */
#ifndef NNAV_DTYPE_H
#define NNAV_DTYPE_H

#include <stdint.h>
#include "nnav.h"

/* ONNX TensorProto.DataType values. */
enum {
    NNAV_DT_UNDEFINED = 0, NNAV_DT_FLOAT = 1, NNAV_DT_UINT8, NNAV_DT_INT8, NNAV_DT_UINT16,
    NNAV_DT_INT16, NNAV_DT_INT32, NNAV_DT_INT64, NNAV_DT_STRING, NNAV_DT_BOOL,
    NNAV_DT_FLOAT16, NNAV_DT_DOUBLE, NNAV_DT_UINT32, NNAV_DT_UINT64, NNAV_DT_COMPLEX64,
    NNAV_DT_COMPLEX128, NNAV_DT_BFLOAT16, NNAV_DT_FLOAT8E4M3FN, NNAV_DT_FLOAT8E4M3FNUZ,
    NNAV_DT_FLOAT8E5M2, NNAV_DT_FLOAT8E5M2FNUZ, NNAV_DT_UINT4, NNAV_DT_INT4,
    NNAV_DT_FLOAT4E2M1, NNAV_DT_FLOAT8E8M0, NNAV_DT_UINT2, NNAV_DT_INT2,
    NNAV_DT_MAX = NNAV_DT_INT2
};

/* Element types TensorFlow has and ONNX does not. They are negative so that no
 * ONNX file can name them (the ONNX reader maps every out-of-range value to
 * -1): -1000 - the TensorFlow DataType number. TensorFlow's 4-bit integers
 * keep one value per byte, unlike ONNX's packed INT4, so they are here too. */
enum {
    NNAV_DT_TF_QINT8 = -1011, NNAV_DT_TF_QUINT8 = -1012, NNAV_DT_TF_QINT32 = -1013,
    NNAV_DT_TF_QINT16 = -1015, NNAV_DT_TF_QUINT16 = -1016, NNAV_DT_TF_RESOURCE = -1020,
    NNAV_DT_TF_VARIANT = -1021, NNAV_DT_TF_FLOAT8E4M3B11FNUZ = -1027,
    NNAV_DT_TF_INT4 = -1029, NNAV_DT_TF_UINT4 = -1030, NNAV_DT_TF_INT2 = -1031,
    NNAV_DT_TF_UINT2 = -1032, NNAV_DT_TF_FLOAT4E2M1FN = -1033,
};

/* Weights quantised in blocks (a scale and packed codes for each block of
 * elements), whose type only the reader can name: the tensor's stype says
 * it ("q4_K"), its reader sets nbytes and decodes its values. No element
 * width: nnav_dtype_bits is 0 and it is not nnav_dtype_valid. */
enum { NNAV_DT_QBLOCKS = -2000 };

/* Bytes that n elements take in raw_data (sub-byte types packed, rounded up).
 * Returns 0 and sets *out, or -1 on overflow or a type with no fixed width. */
int nnav_dtype_raw_bytes(int32_t dtype, uint64_t nelems, uint64_t *out);

/* The TensorProto field an ONNX element type's values belong in when they are
 * not raw: 4 float_data, 5 int32_data, 6 string_data, 7 int64_data,
 * 10 double_data, 11 uint64_data; 0 for none (undefined, TensorFlow-only). */
int nnav_dtype_typed_field(int32_t dtype);

/* Scalar components per element: 2 for complex types, else 1. */
unsigned nnav_dtype_components(int32_t dtype);

/* Decode component `i` (element i / components, part i % components) of a raw
 * little-endian buffer of `len` bytes. Returns 0, or -1 when it lies past len. */
int nnav_dtype_decode_raw(int32_t dtype, const uint8_t *p, uint64_t len, uint64_t i, double *out);

/* Decode component `i` from the typed-field representation: `word` is the i-th
 * (or, for 4-/2-bit types, the containing) int32_data / uint64_data entry;
 * `sub` is the position inside the word for packed sub-byte types. */
double nnav_dtype_from_int32_word(int32_t dtype, uint64_t word, unsigned sub);
/* Elements per int32_data entry: 2 for 4-bit types, 4 for 2-bit, else 1. */
unsigned nnav_dtype_per_word(int32_t dtype);

/* Conversions, exact: */
double nnav_half_to_double(uint16_t h);
double nnav_bf16_to_double(uint16_t b);
double nnav_fp8_to_double(int32_t dtype, uint8_t v);
double nnav_fp4e2m1_to_double(uint8_t nibble);

#endif
