/* dtype.c - ONNX element types: names, widths, and decoding one element.
 *
 * Everything here is a pure function of its arguments: no state, no
 * allocation, so the TUI and the CLI can call it from anywhere. Every
 * conversion is exact: each source value is representable in a double, so
 * the decoders build the value from its fields with ldexp() instead of going
 * through intermediate float types whose rounding we would have to trust.
 * The bytes come from an untrusted file, so nothing reads before checking len.
 */
#include "dtype.h"

#include <math.h>
#include <string.h>

/* One row per TensorProto.DataType value, indexed by the value itself, so a
 * new type is one line here and cannot fall out of step between functions. */
typedef struct dtype_info {
    const char *name;      /* short lowercase name shown to people */
    const char *onnx_name; /* the enum name, for matching ONNX documentation */
    unsigned bits;         /* storage bits per element in raw_data; 0 = no fixed width */
} dtype_info;

static const dtype_info dtype_table[NNAV_DT_MAX + 1] = {
    [NNAV_DT_UNDEFINED] = {"undefined", "UNDEFINED", 0},
    [NNAV_DT_FLOAT] = {"float32", "FLOAT", 32},
    [NNAV_DT_UINT8] = {"uint8", "UINT8", 8},
    [NNAV_DT_INT8] = {"int8", "INT8", 8},
    [NNAV_DT_UINT16] = {"uint16", "UINT16", 16},
    [NNAV_DT_INT16] = {"int16", "INT16", 16},
    [NNAV_DT_INT32] = {"int32", "INT32", 32},
    [NNAV_DT_INT64] = {"int64", "INT64", 64},
    [NNAV_DT_STRING] = {"string", "STRING", 0},
    [NNAV_DT_BOOL] = {"bool", "BOOL", 8},
    [NNAV_DT_FLOAT16] = {"float16", "FLOAT16", 16},
    [NNAV_DT_DOUBLE] = {"float64", "DOUBLE", 64},
    [NNAV_DT_UINT32] = {"uint32", "UINT32", 32},
    [NNAV_DT_UINT64] = {"uint64", "UINT64", 64},
    [NNAV_DT_COMPLEX64] = {"complex64", "COMPLEX64", 64},
    [NNAV_DT_COMPLEX128] = {"complex128", "COMPLEX128", 128},
    [NNAV_DT_BFLOAT16] = {"bfloat16", "BFLOAT16", 16},
    [NNAV_DT_FLOAT8E4M3FN] = {"float8e4m3fn", "FLOAT8E4M3FN", 8},
    [NNAV_DT_FLOAT8E4M3FNUZ] = {"float8e4m3fnuz", "FLOAT8E4M3FNUZ", 8},
    [NNAV_DT_FLOAT8E5M2] = {"float8e5m2", "FLOAT8E5M2", 8},
    [NNAV_DT_FLOAT8E5M2FNUZ] = {"float8e5m2fnuz", "FLOAT8E5M2FNUZ", 8},
    [NNAV_DT_UINT4] = {"uint4", "UINT4", 4},
    [NNAV_DT_INT4] = {"int4", "INT4", 4},
    [NNAV_DT_FLOAT4E2M1] = {"float4e2m1", "FLOAT4E2M1", 4},
    [NNAV_DT_FLOAT8E8M0] = {"float8e8m0", "FLOAT8E8M0", 8},
    [NNAV_DT_UINT2] = {"uint2", "UINT2", 2},
    [NNAV_DT_INT2] = {"int2", "INT2", 2},
};

/* TensorFlow-only types (see dtype.h), indexed by -1000 - code. Sizes are
 * TensorFlow's in-memory sizes, which its tensor_content and checkpoint data
 * use; where TensorFlow's storage was not verified (2-bit, fp4) the width is
 * left unknown so no value is ever decoded from a guess. */
#define TF_ONLY_FIRST 11
#define TF_ONLY_LAST 33
static const dtype_info tf_only_table[TF_ONLY_LAST - TF_ONLY_FIRST + 1] = {
    [11 - TF_ONLY_FIRST] = {"qint8", "DT_QINT8", 8},
    [12 - TF_ONLY_FIRST] = {"quint8", "DT_QUINT8", 8},
    [13 - TF_ONLY_FIRST] = {"qint32", "DT_QINT32", 32},
    [15 - TF_ONLY_FIRST] = {"qint16", "DT_QINT16", 16},
    [16 - TF_ONLY_FIRST] = {"quint16", "DT_QUINT16", 16},
    [20 - TF_ONLY_FIRST] = {"resource", "DT_RESOURCE", 0},
    [21 - TF_ONLY_FIRST] = {"variant", "DT_VARIANT", 0},
    [27 - TF_ONLY_FIRST] = {"float8e4m3b11fnuz", "DT_FLOAT8_E4M3B11FNUZ", 8},
    [29 - TF_ONLY_FIRST] = {"int4", "DT_INT4", 8},
    [30 - TF_ONLY_FIRST] = {"uint4", "DT_UINT4", 8},
    [31 - TF_ONLY_FIRST] = {"int2", "DT_INT2", 0},
    [32 - TF_ONLY_FIRST] = {"uint2", "DT_UINT2", 0},
    [33 - TF_ONLY_FIRST] = {"float4e2m1fn", "DT_FLOAT4_E2M1FN", 0},
};

static const dtype_info *tf_only(int32_t dtype)
{
    if (dtype > -1000 - TF_ONLY_FIRST || dtype < -1000 - TF_ONLY_LAST)
        return NULL;
    const dtype_info *d = &tf_only_table[-1000 - dtype - TF_ONLY_FIRST];
    return d->name ? d : NULL;
}

/* The bytes of float and double are reinterpreted below; a platform where
 * they are not IEEE binary32/binary64 would decode garbage silently. */
_Static_assert(sizeof(float) == 4, "float must be IEEE binary32");
_Static_assert(sizeof(double) == 8, "double must be IEEE binary64");

int nnav_dtype_valid(int32_t dtype)
{
    return (dtype >= NNAV_DT_FLOAT && dtype <= NNAV_DT_MAX) || tf_only(dtype) != NULL;
}

/* Unknown values get a fixed string rather than a formatted "dtype(N)" so the
 * result never points into a shared buffer: callers on any thread may keep it. */
const char *nnav_dtype_name(int32_t dtype)
{
    if (dtype == NNAV_DT_UNDEFINED)
        return dtype_table[NNAV_DT_UNDEFINED].name;
    if (tf_only(dtype))
        return tf_only(dtype)->name;
    if (dtype == NNAV_DT_QBLOCKS)
        return "quantized";
    return nnav_dtype_valid(dtype) ? dtype_table[dtype].name : "unknown";
}

const char *nnav_dtype_onnx_name(int32_t dtype)
{
    if (dtype == NNAV_DT_UNDEFINED)
        return dtype_table[NNAV_DT_UNDEFINED].onnx_name;
    if (tf_only(dtype))
        return tf_only(dtype)->onnx_name;
    return nnav_dtype_valid(dtype) ? dtype_table[dtype].onnx_name : "UNKNOWN";
}

unsigned nnav_dtype_bits(int32_t dtype)
{
    if (tf_only(dtype))
        return tf_only(dtype)->bits;
    return nnav_dtype_valid(dtype) ? dtype_table[dtype].bits : 0;
}

unsigned nnav_dtype_components(int32_t dtype)
{
    return (dtype == NNAV_DT_COMPLEX64 || dtype == NNAV_DT_COMPLEX128) ? 2 : 1;
}

unsigned nnav_dtype_per_word(int32_t dtype)
{
    unsigned bits = nnav_dtype_bits(dtype);
    if (bits == 4)
        return 2;
    if (bits == 2)
        return 4;
    return 1;
}

int nnav_dtype_typed_field(int32_t dtype)
{
    switch (dtype) {
    case NNAV_DT_FLOAT: case NNAV_DT_COMPLEX64: return 4;    /* float_data */
    case NNAV_DT_DOUBLE: case NNAV_DT_COMPLEX128: return 10; /* double_data */
    case NNAV_DT_INT64: return 7;                            /* int64_data */
    case NNAV_DT_UINT32: case NNAV_DT_UINT64: return 11;     /* uint64_data */
    case NNAV_DT_STRING: return 6;                           /* string_data */
    default:
        /* int32_data holds the rest: int32 and everything narrower, bool,
         * the 16-, 8-, 4- and 2-bit floats and integers. */
        return dtype > NNAV_DT_UNDEFINED && dtype <= NNAV_DT_MAX ? 5 : 0;
    }
}

int nnav_dtype_raw_bytes(int32_t dtype, uint64_t nelems, uint64_t *out)
{
    unsigned bits = nnav_dtype_bits(dtype);
    uint64_t n;

    if (bits == 0)
        return -1;
    /* Sub-byte types: a trailing partial byte is still stored, hence the
     * round up; written as quotient + remainder so n near UINT64_MAX cannot wrap. */
    if (bits == 4) {
        n = nelems / 2 + (nelems % 2 != 0);
    } else if (bits == 2) {
        n = nelems / 4 + (nelems % 4 != 0);
    } else if (__builtin_mul_overflow(nelems, (uint64_t)(bits / 8), &n)) {
        return -1;
    }
    *out = n;
    return 0;
}

/* ---- exact conversions ---- */

double nnav_half_to_double(uint16_t h)
{
    int neg = (h >> 15) & 1;
    unsigned e = (h >> 10) & 0x1F;
    unsigned m = h & 0x3FF;
    double v;

    if (e == 0x1F)
        return m ? NAN : (neg ? -INFINITY : INFINITY);
    if (e == 0)
        v = ldexp((double)m, -24);          /* subnormal: m * 2^(1-15-10) */
    else
        v = ldexp((double)(m | 0x400), (int)e - 25); /* 1.m * 2^(e-15) */
    return neg ? -v : v;
}

double nnav_bf16_to_double(uint16_t b)
{
    /* bfloat16 is the top half of a binary32 by definition, so widening the
     * bit pattern is the exact conversion, subnormals and specials included. */
    uint32_t bits = (uint32_t)b << 16;
    float f;
    memcpy(&f, &bits, sizeof f);
    return (double)f;
}

/* A small float with no special encodings of its own: the callers peel off
 * NaN/inf first. `bias` and `mbits` define the format; subnormals at e == 0. */
static double minifloat(unsigned v, unsigned ebits, unsigned mbits, int bias)
{
    int neg = (v >> (ebits + mbits)) & 1;
    unsigned e = (v >> mbits) & ((1u << ebits) - 1);
    unsigned m = v & ((1u << mbits) - 1);
    double r;

    if (e == 0)
        r = ldexp((double)m, 1 - bias - (int)mbits);
    else
        r = ldexp((double)(m | (1u << mbits)), (int)e - bias - (int)mbits);
    return neg ? -r : r;
}

double nnav_fp8_to_double(int32_t dtype, uint8_t v)
{
    switch (dtype) {
    case NNAV_DT_FLOAT8E4M3FN:
        /* No infinity: the all-ones exponent holds ordinary values up to 448,
         * and only S.1111.111 is NaN. */
        if ((v & 0x7F) == 0x7F)
            return NAN;
        return minifloat(v, 4, 3, 7);
    case NNAV_DT_FLOAT8E4M3FNUZ:
        /* "UZ" = unsigned zero: the would-be -0 pattern is the only NaN. */
        if (v == 0x80)
            return NAN;
        return minifloat(v, 4, 3, 8);
    case NNAV_DT_FLOAT8E5M2:
        if ((v & 0x7C) == 0x7C)
            return (v & 0x03) ? NAN : ((v & 0x80) ? -INFINITY : INFINITY);
        return minifloat(v, 5, 2, 15);
    case NNAV_DT_FLOAT8E5M2FNUZ:
        if (v == 0x80)
            return NAN;
        return minifloat(v, 5, 2, 16);
    case NNAV_DT_FLOAT8E8M0:
        /* A pure power-of-two scale: no sign, no mantissa, no zero. */
        if (v == 0xFF)
            return NAN;
        return ldexp(1.0, (int)v - 127);
    default:
        return NAN;
    }
}

double nnav_fp4e2m1_to_double(uint8_t nibble)
{
    /* E2M1 has no NaN or infinity: all 16 codes are numbers, -0 included. */
    return minifloat(nibble & 0xFu, 2, 1, 1);
}

/* ---- decoding elements ---- */

static uint64_t load_le(const uint8_t *p, unsigned nbytes)
{
    uint64_t v = 0;
    for (unsigned k = nbytes; k-- > 0;)
        v = (v << 8) | p[k];
    return v;
}

static double float_bits(uint32_t bits)
{
    float f;
    memcpy(&f, &bits, sizeof f);
    return (double)f;
}

static double double_bits(uint64_t bits)
{
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}

/* One element of 8 bits or more, given its little-endian bit pattern (already
 * cut to the element's width by the caller, except where noted). Shared by the
 * raw and typed-field paths so both read every type the same way. */
static double from_bits(int32_t dtype, uint64_t w)
{
    switch (dtype) {
    case NNAV_DT_FLOAT:
    case NNAV_DT_COMPLEX64:
        return float_bits((uint32_t)w);
    case NNAV_DT_DOUBLE:
    case NNAV_DT_COMPLEX128:
        return double_bits(w);
    case NNAV_DT_UINT8:
        return (double)(uint8_t)w;
    case NNAV_DT_INT8:
        return (double)(int8_t)(uint8_t)w;
    case NNAV_DT_UINT16:
        return (double)(uint16_t)w;
    case NNAV_DT_INT16:
        return (double)(int16_t)(uint16_t)w;
    case NNAV_DT_INT32:
        return (double)(int32_t)(uint32_t)w;
    case NNAV_DT_UINT32:
        return (double)(uint32_t)w;
    case NNAV_DT_INT64:
        return (double)(int64_t)w;
    case NNAV_DT_UINT64:
        return (double)w;
    case NNAV_DT_BOOL:
        /* Any nonzero byte is true, as numpy reads it; a viewer that showed
         * 2 for a bool would suggest a value the model never computes with. */
        return (uint8_t)w != 0;
    case NNAV_DT_FLOAT16:
        return nnav_half_to_double((uint16_t)w);
    case NNAV_DT_BFLOAT16:
        return nnav_bf16_to_double((uint16_t)w);
    case NNAV_DT_FLOAT8E4M3FN:
    case NNAV_DT_FLOAT8E4M3FNUZ:
    case NNAV_DT_FLOAT8E5M2:
    case NNAV_DT_FLOAT8E5M2FNUZ:
    case NNAV_DT_FLOAT8E8M0:
        return nnav_fp8_to_double(dtype, (uint8_t)w);
    /* TensorFlow's quantized types are plain integers in storage; its 4-bit
     * integers sit one to a byte, as int8/uint8. */
    case NNAV_DT_TF_QINT8:
    case NNAV_DT_TF_INT4:
        return (double)(int8_t)(uint8_t)w;
    case NNAV_DT_TF_QUINT8:
    case NNAV_DT_TF_UINT4:
        return (double)(uint8_t)w;
    case NNAV_DT_TF_QINT16:
        return (double)(int16_t)(uint16_t)w;
    case NNAV_DT_TF_QUINT16:
        return (double)(uint16_t)w;
    case NNAV_DT_TF_QINT32:
        return (double)(int32_t)(uint32_t)w;
    case NNAV_DT_TF_FLOAT8E4M3B11FNUZ:
        /* Like E4M3FNUZ with bias 11: the -0 pattern is the only NaN. */
        if ((uint8_t)w == 0x80)
            return NAN;
        return minifloat((uint8_t)w, 4, 3, 11);
    default:
        return NAN;
    }
}

/* One packed sub-byte element (4- or 2-bit code, already shifted down). */
static double from_code(int32_t dtype, unsigned c)
{
    switch (dtype) {
    case NNAV_DT_UINT4:
        return (double)(c & 0xF);
    case NNAV_DT_INT4:
        return (double)((int)(c & 0xF) - ((c & 0x8) ? 16 : 0));
    case NNAV_DT_FLOAT4E2M1:
        return nnav_fp4e2m1_to_double((uint8_t)c);
    case NNAV_DT_UINT2:
        return (double)(c & 0x3);
    case NNAV_DT_INT2:
        return (double)((int)(c & 0x3) - ((c & 0x2) ? 4 : 0));
    default:
        return NAN;
    }
}

int nnav_dtype_decode_raw(int32_t dtype, const uint8_t *p, uint64_t len, uint64_t i, double *out)
{
    unsigned bits = nnav_dtype_bits(dtype);

    *out = NAN; /* a caller that ignores the status still never sees stale data */
    if (bits == 0)
        return -1; /* STRING, UNDEFINED, unknown: no raw form to decode */

    if (bits < 8) {
        unsigned per = 8 / bits;
        uint64_t byte = i / per;
        if (byte >= len)
            return -1;
        unsigned shift = (unsigned)(i % per) * bits;
        *out = from_code(dtype, (unsigned)(p[byte] >> shift) & ((1u << bits) - 1));
        return 0;
    }

    /* Complex components sit side by side like plain floats, so component i
     * is just the i-th scalar of half the element's width. */
    unsigned size = bits / 8 / nnav_dtype_components(dtype);
    /* i < len / size  <=>  (i + 1) * size <= len, without multiplying. */
    if (i >= len / size)
        return -1;
    *out = from_bits(dtype, load_le(p + i * size, size));
    return 0;
}

double nnav_dtype_from_int32_word(int32_t dtype, uint64_t word, unsigned sub)
{
    unsigned bits = nnav_dtype_bits(dtype);

    if (bits == 0)
        return NAN;
    if (bits < 8) {
        /* No error channel here: a position outside the word is a caller bug,
         * and NaN shows it rather than a plausible-looking number. */
        if (sub >= nnav_dtype_per_word(dtype))
            return NAN;
        return from_code(dtype, (unsigned)(word >> (sub * bits)) & ((1u << bits) - 1));
    }
    /* int32_data entries reach us as the varint's value: a negative int32 is
     * sign-extended to 64 bits on the wire, a float pattern is not. Cutting to
     * the element's width reads both the same way, and wraps out-of-range
     * entries as the reference loader (numpy astype) does. */
    return from_bits(dtype, word);
}
