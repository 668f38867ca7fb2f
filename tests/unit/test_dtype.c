/* test_dtype.c - element types: names, widths and exact decoding of real bit
 * patterns. Expected values are written out by hand from the format
 * definitions, never computed by the code under test. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "dtype.h"

/* Exact equality that also tells -0 from +0 and accepts NaN == NaN: decoding
 * is meant to be exact, so a tolerance would hide the bugs we look for. */
static int same(double a, double b)
{
    if (isnan(a) || isnan(b))
        return isnan(a) && isnan(b);
    return a == b && !signbit(a) == !signbit(b);
}

static void assert_same_at(double got, double want, const char *expr, const char *file, int line)
{
    if (!same(got, want)) {
        print_error("%s = %.17g, want %.17g\n", expr, got, want);
        _fail(file, line);
    }
}
#define assert_same(got, want) assert_same_at((got), (want), #got, __FILE__, __LINE__)

static double raw1(int32_t dt, const uint8_t *p, uint64_t len, uint64_t i)
{
    double v = 12345.0;
    assert_int_equal(nnav_dtype_decode_raw(dt, p, len, i, &v), 0);
    return v;
}

/* ---- names and widths ---- */

static void test_names(void **state)
{
    (void)state;
    assert_string_equal(nnav_dtype_name(NNAV_DT_FLOAT), "float32");
    assert_string_equal(nnav_dtype_name(NNAV_DT_DOUBLE), "float64");
    assert_string_equal(nnav_dtype_name(NNAV_DT_BFLOAT16), "bfloat16");
    assert_string_equal(nnav_dtype_name(NNAV_DT_FLOAT8E4M3FNUZ), "float8e4m3fnuz");
    assert_string_equal(nnav_dtype_name(NNAV_DT_FLOAT8E8M0), "float8e8m0");
    assert_string_equal(nnav_dtype_name(NNAV_DT_INT4), "int4");
    assert_string_equal(nnav_dtype_name(NNAV_DT_INT2), "int2");
    assert_string_equal(nnav_dtype_name(NNAV_DT_UNDEFINED), "undefined");
    assert_string_equal(nnav_dtype_name(27), "unknown");
    assert_string_equal(nnav_dtype_name(-1), "unknown");
    assert_string_equal(nnav_dtype_name(INT32_MAX), "unknown");

    assert_string_equal(nnav_dtype_onnx_name(NNAV_DT_FLOAT), "FLOAT");
    assert_string_equal(nnav_dtype_onnx_name(NNAV_DT_DOUBLE), "DOUBLE");
    assert_string_equal(nnav_dtype_onnx_name(NNAV_DT_FLOAT4E2M1), "FLOAT4E2M1");
    assert_string_equal(nnav_dtype_onnx_name(NNAV_DT_UINT2), "UINT2");
    assert_string_equal(nnav_dtype_onnx_name(NNAV_DT_UNDEFINED), "UNDEFINED");
    assert_string_equal(nnav_dtype_onnx_name(99), "UNKNOWN");

    /* Every valid type has distinct, non-placeholder names. */
    for (int32_t a = 1; a <= NNAV_DT_MAX; a++) {
        assert_string_not_equal(nnav_dtype_name(a), "unknown");
        assert_string_not_equal(nnav_dtype_onnx_name(a), "UNKNOWN");
        for (int32_t b = a + 1; b <= NNAV_DT_MAX; b++)
            assert_string_not_equal(nnav_dtype_name(a), nnav_dtype_name(b));
    }
}

static void test_valid_bits(void **state)
{
    (void)state;
    assert_false(nnav_dtype_valid(NNAV_DT_UNDEFINED));
    assert_true(nnav_dtype_valid(NNAV_DT_FLOAT));
    assert_true(nnav_dtype_valid(NNAV_DT_INT2));
    assert_false(nnav_dtype_valid(27));
    assert_false(nnav_dtype_valid(-5));

    assert_int_equal(nnav_dtype_bits(NNAV_DT_FLOAT), 32);
    assert_int_equal(nnav_dtype_bits(NNAV_DT_BOOL), 8);
    assert_int_equal(nnav_dtype_bits(NNAV_DT_FLOAT16), 16);
    assert_int_equal(nnav_dtype_bits(NNAV_DT_COMPLEX64), 64);
    assert_int_equal(nnav_dtype_bits(NNAV_DT_COMPLEX128), 128);
    assert_int_equal(nnav_dtype_bits(NNAV_DT_FLOAT8E8M0), 8);
    assert_int_equal(nnav_dtype_bits(NNAV_DT_INT4), 4);
    assert_int_equal(nnav_dtype_bits(NNAV_DT_FLOAT4E2M1), 4);
    assert_int_equal(nnav_dtype_bits(NNAV_DT_UINT2), 2);
    assert_int_equal(nnav_dtype_bits(NNAV_DT_STRING), 0);
    assert_int_equal(nnav_dtype_bits(NNAV_DT_UNDEFINED), 0);
    assert_int_equal(nnav_dtype_bits(1000), 0);

    assert_int_equal(nnav_dtype_components(NNAV_DT_COMPLEX64), 2);
    assert_int_equal(nnav_dtype_components(NNAV_DT_COMPLEX128), 2);
    assert_int_equal(nnav_dtype_components(NNAV_DT_FLOAT), 1);

    assert_int_equal(nnav_dtype_per_word(NNAV_DT_INT4), 2);
    assert_int_equal(nnav_dtype_per_word(NNAV_DT_FLOAT4E2M1), 2);
    assert_int_equal(nnav_dtype_per_word(NNAV_DT_INT2), 4);
    assert_int_equal(nnav_dtype_per_word(NNAV_DT_INT8), 1);
}

static void test_raw_bytes(void **state)
{
    uint64_t n = 7;
    (void)state;
    assert_int_equal(nnav_dtype_raw_bytes(NNAV_DT_FLOAT, 10, &n), 0);
    assert_int_equal(n, 40);
    assert_int_equal(nnav_dtype_raw_bytes(NNAV_DT_COMPLEX128, 3, &n), 0);
    assert_int_equal(n, 48);
    assert_int_equal(nnav_dtype_raw_bytes(NNAV_DT_BOOL, 5, &n), 0);
    assert_int_equal(n, 5);
    assert_int_equal(nnav_dtype_raw_bytes(NNAV_DT_FLOAT, 0, &n), 0);
    assert_int_equal(n, 0);

    /* Sub-byte types round a trailing partial byte up. */
    assert_int_equal(nnav_dtype_raw_bytes(NNAV_DT_INT4, 3, &n), 0);
    assert_int_equal(n, 2);
    assert_int_equal(nnav_dtype_raw_bytes(NNAV_DT_UINT4, 4, &n), 0);
    assert_int_equal(n, 2);
    assert_int_equal(nnav_dtype_raw_bytes(NNAV_DT_INT2, 5, &n), 0);
    assert_int_equal(n, 2);
    assert_int_equal(nnav_dtype_raw_bytes(NNAV_DT_UINT2, 8, &n), 0);
    assert_int_equal(n, 2);
    assert_int_equal(nnav_dtype_raw_bytes(NNAV_DT_UINT2, 1, &n), 0);
    assert_int_equal(n, 1);
    /* ...without wrapping at the top of the range. */
    assert_int_equal(nnav_dtype_raw_bytes(NNAV_DT_INT4, UINT64_MAX, &n), 0);
    assert_true(n == UINT64_MAX / 2 + 1);
    assert_int_equal(nnav_dtype_raw_bytes(NNAV_DT_INT2, UINT64_MAX, &n), 0);
    assert_true(n == UINT64_MAX / 4 + 1);

    /* Overflow is an error, not a wrapped small size; *out is left alone. */
    n = 7;
    assert_int_equal(nnav_dtype_raw_bytes(NNAV_DT_FLOAT, UINT64_MAX, &n), -1);
    assert_int_equal(n, 7);
    assert_int_equal(nnav_dtype_raw_bytes(NNAV_DT_UINT16, UINT64_MAX / 2 + 1, &n), -1);
    assert_int_equal(nnav_dtype_raw_bytes(NNAV_DT_UINT16, UINT64_MAX / 2, &n), 0);
    assert_true(n == UINT64_MAX - 1);

    /* No fixed width. */
    assert_int_equal(nnav_dtype_raw_bytes(NNAV_DT_STRING, 1, &n), -1);
    assert_int_equal(nnav_dtype_raw_bytes(NNAV_DT_UNDEFINED, 1, &n), -1);
    assert_int_equal(nnav_dtype_raw_bytes(77, 1, &n), -1);
}

/* ---- floating formats ---- */

static void test_half(void **state)
{
    (void)state;
    assert_same(nnav_half_to_double(0x3C00), 1.0);
    assert_same(nnav_half_to_double(0xC000), -2.0);
    assert_same(nnav_half_to_double(0x7BFF), 65504.0);
    assert_same(nnav_half_to_double(0x3555), 0x1.554p-2); /* 0.333251953125 */
    assert_same(nnav_half_to_double(0x0001), ldexp(1.0, -24));
    assert_same(nnav_half_to_double(0x03FF), 1023.0 * ldexp(1.0, -24)); /* largest subnormal */
    assert_same(nnav_half_to_double(0x0400), ldexp(1.0, -14));           /* smallest normal */
    assert_same(nnav_half_to_double(0x8001), -ldexp(1.0, -24));
    assert_same(nnav_half_to_double(0x0000), 0.0);
    assert_same(nnav_half_to_double(0x8000), -0.0);
    assert_same(nnav_half_to_double(0x7C00), INFINITY);
    assert_same(nnav_half_to_double(0xFC00), -INFINITY);
    assert_true(isnan(nnav_half_to_double(0x7E00)));
    assert_true(isnan(nnav_half_to_double(0x7C01)));
    assert_true(isnan(nnav_half_to_double(0xFE00)));
}

static void test_bf16(void **state)
{
    (void)state;
    assert_same(nnav_bf16_to_double(0x3F80), 1.0);
    assert_same(nnav_bf16_to_double(0x4049), 3.140625);
    assert_same(nnav_bf16_to_double(0xC000), -2.0);
    assert_same(nnav_bf16_to_double(0x7F7F), 0x1.FEp127);    /* max finite */
    assert_same(nnav_bf16_to_double(0x0001), ldexp(1.0, -133)); /* min subnormal */
    assert_same(nnav_bf16_to_double(0x8000), -0.0);
    assert_same(nnav_bf16_to_double(0x7F80), INFINITY);
    assert_same(nnav_bf16_to_double(0xFF80), -INFINITY);
    assert_true(isnan(nnav_bf16_to_double(0x7FC0)));
}

static void test_fp8_e4m3fn(void **state)
{
    const int32_t k = NNAV_DT_FLOAT8E4M3FN;
    (void)state;
    assert_same(nnav_fp8_to_double(k, 0x38), 1.0);            /* 0.0111.000, bias 7 */
    assert_same(nnav_fp8_to_double(k, 0x7E), 448.0);          /* max: 1.110 * 2^8 */
    assert_same(nnav_fp8_to_double(k, 0xFE), -448.0);
    assert_same(nnav_fp8_to_double(k, 0x78), 256.0);          /* exponent 15 is finite */
    assert_same(nnav_fp8_to_double(k, 0x01), ldexp(1.0, -9)); /* min subnormal */
    assert_same(nnav_fp8_to_double(k, 0x07), 7 * ldexp(1.0, -9));
    assert_same(nnav_fp8_to_double(k, 0x08), ldexp(1.0, -6)); /* min normal */
    assert_same(nnav_fp8_to_double(k, 0x00), 0.0);
    assert_same(nnav_fp8_to_double(k, 0x80), -0.0);           /* has -0 */
    assert_true(isnan(nnav_fp8_to_double(k, 0x7F)));
    assert_true(isnan(nnav_fp8_to_double(k, 0xFF)));
}

static void test_fp8_e4m3fnuz(void **state)
{
    const int32_t k = NNAV_DT_FLOAT8E4M3FNUZ;
    (void)state;
    assert_same(nnav_fp8_to_double(k, 0x40), 1.0);             /* 0.1000.000, bias 8 */
    assert_same(nnav_fp8_to_double(k, 0x7F), 240.0);           /* max: 1.111 * 2^7, not NaN */
    assert_same(nnav_fp8_to_double(k, 0xFF), -240.0);
    assert_same(nnav_fp8_to_double(k, 0x01), ldexp(1.0, -10)); /* min subnormal */
    assert_same(nnav_fp8_to_double(k, 0x81), -ldexp(1.0, -10));
    assert_same(nnav_fp8_to_double(k, 0x00), 0.0);
    assert_true(isnan(nnav_fp8_to_double(k, 0x80)));          /* no -0: that code is NaN */
}

static void test_fp8_e5m2(void **state)
{
    const int32_t k = NNAV_DT_FLOAT8E5M2;
    (void)state;
    assert_same(nnav_fp8_to_double(k, 0x3C), 1.0);             /* 0.01111.00, bias 15 */
    assert_same(nnav_fp8_to_double(k, 0x7B), 57344.0);         /* max: 1.11 * 2^15 */
    assert_same(nnav_fp8_to_double(k, 0xFB), -57344.0);
    assert_same(nnav_fp8_to_double(k, 0x01), ldexp(1.0, -16)); /* min subnormal */
    assert_same(nnav_fp8_to_double(k, 0x04), ldexp(1.0, -14)); /* min normal */
    assert_same(nnav_fp8_to_double(k, 0x80), -0.0);
    assert_same(nnav_fp8_to_double(k, 0x7C), INFINITY);
    assert_same(nnav_fp8_to_double(k, 0xFC), -INFINITY);
    assert_true(isnan(nnav_fp8_to_double(k, 0x7D)));
    assert_true(isnan(nnav_fp8_to_double(k, 0x7E)));
    assert_true(isnan(nnav_fp8_to_double(k, 0x7F)));
    assert_true(isnan(nnav_fp8_to_double(k, 0xFF)));
}

static void test_fp8_e5m2fnuz(void **state)
{
    const int32_t k = NNAV_DT_FLOAT8E5M2FNUZ;
    (void)state;
    assert_same(nnav_fp8_to_double(k, 0x40), 1.0);             /* 0.10000.00, bias 16 */
    assert_same(nnav_fp8_to_double(k, 0x7F), 57344.0);         /* max: 1.11 * 2^15, no inf */
    assert_same(nnav_fp8_to_double(k, 0x7C), 32768.0);
    assert_same(nnav_fp8_to_double(k, 0xFF), -57344.0);
    assert_same(nnav_fp8_to_double(k, 0x01), ldexp(1.0, -17)); /* min subnormal */
    assert_same(nnav_fp8_to_double(k, 0x00), 0.0);
    assert_true(isnan(nnav_fp8_to_double(k, 0x80)));
}

static void test_fp8_e8m0(void **state)
{
    const int32_t k = NNAV_DT_FLOAT8E8M0;
    (void)state;
    assert_same(nnav_fp8_to_double(k, 127), 1.0);
    assert_same(nnav_fp8_to_double(k, 128), 2.0);
    assert_same(nnav_fp8_to_double(k, 126), 0.5);
    assert_same(nnav_fp8_to_double(k, 0x00), ldexp(1.0, -127));
    assert_same(nnav_fp8_to_double(k, 0xFE), ldexp(1.0, 127));
    assert_true(isnan(nnav_fp8_to_double(k, 0xFF)));
    /* Not an fp8 type: NaN rather than a guess. */
    assert_true(isnan(nnav_fp8_to_double(NNAV_DT_FLOAT, 0x38)));
}

static void test_fp4(void **state)
{
    static const double want[16] = {
        0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0,
        -0.0, -0.5, -1.0, -1.5, -2.0, -3.0, -4.0, -6.0,
    };
    (void)state;
    for (unsigned c = 0; c < 16; c++)
        assert_same(nnav_fp4e2m1_to_double((uint8_t)c), want[c]);

    /* Packed two per byte, low nibble first: 0x7A = [-1.0, 6.0]. */
    const uint8_t b[] = {0x7A};
    assert_same(raw1(NNAV_DT_FLOAT4E2M1, b, 1, 0), -1.0);
    assert_same(raw1(NNAV_DT_FLOAT4E2M1, b, 1, 1), 6.0);
}

/* ---- raw_data decoding ---- */

static void test_raw_int4(void **state)
{
    const uint8_t b[] = {0x8F, 0x70};
    (void)state;
    assert_same(raw1(NNAV_DT_INT4, b, 2, 0), -1.0);
    assert_same(raw1(NNAV_DT_INT4, b, 2, 1), -8.0);
    assert_same(raw1(NNAV_DT_INT4, b, 2, 2), 0.0);
    assert_same(raw1(NNAV_DT_INT4, b, 2, 3), 7.0);
    assert_same(raw1(NNAV_DT_UINT4, b, 2, 0), 15.0);
    assert_same(raw1(NNAV_DT_UINT4, b, 2, 1), 8.0);
}

static void test_raw_int2(void **state)
{
    const uint8_t u[] = {0xE4}; /* 11 10 01 00 */
    (void)state;
    assert_same(raw1(NNAV_DT_UINT2, u, 1, 0), 0.0);
    assert_same(raw1(NNAV_DT_UINT2, u, 1, 1), 1.0);
    assert_same(raw1(NNAV_DT_UINT2, u, 1, 2), 2.0);
    assert_same(raw1(NNAV_DT_UINT2, u, 1, 3), 3.0);
    /* Same bits as int2: 2 and 3 are -2 and -1. */
    assert_same(raw1(NNAV_DT_INT2, u, 1, 0), 0.0);
    assert_same(raw1(NNAV_DT_INT2, u, 1, 1), 1.0);
    assert_same(raw1(NNAV_DT_INT2, u, 1, 2), -2.0);
    assert_same(raw1(NNAV_DT_INT2, u, 1, 3), -1.0);
}

static void test_raw_scalars(void **state)
{
    /* 1.0f, -2.0f little-endian. */
    const uint8_t f[] = {0x00, 0x00, 0x80, 0x3F, 0x00, 0x00, 0x00, 0xC0};
    /* -1.5 as a double. */
    const uint8_t d[] = {0, 0, 0, 0, 0, 0, 0xF8, 0xBF};
    const uint8_t i8[] = {0x80, 0x7F, 0xFF};
    const uint8_t i16[] = {0x00, 0x80, 0xFF, 0x7F};
    const uint8_t i32[] = {0xFE, 0xFF, 0xFF, 0xFF};
    const uint8_t i64[] = {0x00, 0, 0, 0, 0, 0, 0, 0x80};
    const uint8_t u64[] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
    const uint8_t h[] = {0x00, 0x3C, 0x00, 0xC0};
    const uint8_t bf[] = {0x49, 0x40};
    const uint8_t bl[] = {0x00, 0x01};
    const uint8_t f8[] = {0x7E};
    (void)state;

    assert_same(raw1(NNAV_DT_FLOAT, f, 8, 0), 1.0);
    assert_same(raw1(NNAV_DT_FLOAT, f, 8, 1), -2.0);
    assert_same(raw1(NNAV_DT_DOUBLE, d, 8, 0), -1.5);
    assert_same(raw1(NNAV_DT_INT8, i8, 3, 0), -128.0);
    assert_same(raw1(NNAV_DT_INT8, i8, 3, 1), 127.0);
    assert_same(raw1(NNAV_DT_INT8, i8, 3, 2), -1.0);
    assert_same(raw1(NNAV_DT_UINT8, i8, 3, 2), 255.0);
    assert_same(raw1(NNAV_DT_INT16, i16, 4, 0), -32768.0);
    assert_same(raw1(NNAV_DT_INT16, i16, 4, 1), 32767.0);
    assert_same(raw1(NNAV_DT_UINT16, i16, 4, 0), 32768.0);
    assert_same(raw1(NNAV_DT_INT32, i32, 4, 0), -2.0);
    assert_same(raw1(NNAV_DT_UINT32, i32, 4, 0), 4294967294.0);
    assert_same(raw1(NNAV_DT_INT64, i64, 8, 0), -0x1p63);
    assert_same(raw1(NNAV_DT_UINT64, u64, 8, 0), 0x1p64); /* nearest double */
    assert_same(raw1(NNAV_DT_FLOAT16, h, 4, 0), 1.0);
    assert_same(raw1(NNAV_DT_FLOAT16, h, 4, 1), -2.0);
    assert_same(raw1(NNAV_DT_BFLOAT16, bf, 2, 0), 3.140625);
    assert_same(raw1(NNAV_DT_BOOL, bl, 2, 0), 0.0);
    assert_same(raw1(NNAV_DT_BOOL, bl, 2, 1), 1.0);
    assert_same(raw1(NNAV_DT_FLOAT8E4M3FN, f8, 1, 0), 448.0);
    assert_same(raw1(NNAV_DT_FLOAT8E5M2, f8, 1, 0), NAN);
}

static void test_raw_complex(void **state)
{
    /* complex64 (1.0 + -2.0i), (0.5 + 4.0i) */
    const uint8_t c64[] = {
        0x00, 0x00, 0x80, 0x3F, 0x00, 0x00, 0x00, 0xC0,
        0x00, 0x00, 0x00, 0x3F, 0x00, 0x00, 0x80, 0x40,
    };
    /* complex128 (3.0 + -0.25i) */
    const uint8_t c128[] = {
        0, 0, 0, 0, 0, 0, 0x08, 0x40,
        0, 0, 0, 0, 0, 0, 0xD0, 0xBF,
    };
    double v;
    (void)state;
    assert_same(raw1(NNAV_DT_COMPLEX64, c64, 16, 0), 1.0);  /* element 0 real */
    assert_same(raw1(NNAV_DT_COMPLEX64, c64, 16, 1), -2.0); /* element 0 imag */
    assert_same(raw1(NNAV_DT_COMPLEX64, c64, 16, 2), 0.5);
    assert_same(raw1(NNAV_DT_COMPLEX64, c64, 16, 3), 4.0);
    assert_int_equal(nnav_dtype_decode_raw(NNAV_DT_COMPLEX64, c64, 16, 4, &v), -1);
    assert_same(raw1(NNAV_DT_COMPLEX128, c128, 16, 0), 3.0);
    assert_same(raw1(NNAV_DT_COMPLEX128, c128, 16, 1), -0.25);
    assert_int_equal(nnav_dtype_decode_raw(NNAV_DT_COMPLEX128, c128, 16, 2, &v), -1);
    /* A truncated imaginary part is out of range, not half-read. */
    assert_int_equal(nnav_dtype_decode_raw(NNAV_DT_COMPLEX64, c64, 7, 1, &v), -1);
}

static void test_raw_bounds(void **state)
{
    const uint8_t b[8] = {0x00, 0x00, 0x80, 0x3F, 0x00, 0x00, 0x80, 0x3F};
    double v = 1.0;
    (void)state;
    /* Last whole element fits, the next does not, nor does a partial one. */
    assert_int_equal(nnav_dtype_decode_raw(NNAV_DT_FLOAT, b, 8, 1, &v), 0);
    assert_int_equal(nnav_dtype_decode_raw(NNAV_DT_FLOAT, b, 8, 2, &v), -1);
    assert_true(isnan(v));
    assert_int_equal(nnav_dtype_decode_raw(NNAV_DT_FLOAT, b, 7, 1, &v), -1);
    assert_int_equal(nnav_dtype_decode_raw(NNAV_DT_DOUBLE, b, 7, 0, &v), -1);
    assert_int_equal(nnav_dtype_decode_raw(NNAV_DT_FLOAT, NULL, 0, 0, &v), -1);
    /* Huge indices must not wrap i * size back into the buffer. */
    assert_int_equal(nnav_dtype_decode_raw(NNAV_DT_FLOAT, b, 8, UINT64_MAX, &v), -1);
    assert_int_equal(nnav_dtype_decode_raw(NNAV_DT_FLOAT, b, 8, UINT64_MAX / 4 + 1, &v), -1);
    assert_int_equal(nnav_dtype_decode_raw(NNAV_DT_COMPLEX128, b, 8, UINT64_MAX / 8 + 1, &v), -1);
    assert_int_equal(nnav_dtype_decode_raw(NNAV_DT_INT4, b, 8, UINT64_MAX, &v), -1);
    /* Sub-byte: 1 byte holds elements 0-1 (4-bit) or 0-3 (2-bit). */
    assert_int_equal(nnav_dtype_decode_raw(NNAV_DT_INT4, b, 1, 1, &v), 0);
    assert_int_equal(nnav_dtype_decode_raw(NNAV_DT_INT4, b, 1, 2, &v), -1);
    assert_int_equal(nnav_dtype_decode_raw(NNAV_DT_UINT2, b, 1, 3, &v), 0);
    assert_int_equal(nnav_dtype_decode_raw(NNAV_DT_UINT2, b, 1, 4, &v), -1);
    /* Types with no raw form. */
    assert_int_equal(nnav_dtype_decode_raw(NNAV_DT_STRING, b, 8, 0, &v), -1);
    assert_int_equal(nnav_dtype_decode_raw(NNAV_DT_UNDEFINED, b, 8, 0, &v), -1);
    assert_int_equal(nnav_dtype_decode_raw(300, b, 8, 0, &v), -1);
}

/* ---- typed-field words ---- */

static void test_int32_words(void **state)
{
    /* How a negative int32_data entry arrives from the varint: sign-extended. */
    const uint64_t minus1 = UINT64_MAX;
    (void)state;
    assert_same(nnav_dtype_from_int32_word(NNAV_DT_INT32, minus1, 0), -1.0);
    assert_same(nnav_dtype_from_int32_word(NNAV_DT_INT32, 0xFFFFFFFFu, 0), -1.0);
    assert_same(nnav_dtype_from_int32_word(NNAV_DT_INT32, 0x7FFFFFFF, 0), 2147483647.0);
    assert_same(nnav_dtype_from_int32_word(NNAV_DT_INT16, (uint64_t)-300, 0), -300.0);
    assert_same(nnav_dtype_from_int32_word(NNAV_DT_INT8, (uint64_t)-128, 0), -128.0);
    assert_same(nnav_dtype_from_int32_word(NNAV_DT_UINT8, 200, 0), 200.0);
    assert_same(nnav_dtype_from_int32_word(NNAV_DT_UINT16, 65535, 0), 65535.0);
    assert_same(nnav_dtype_from_int32_word(NNAV_DT_BOOL, 1, 0), 1.0);
    assert_same(nnav_dtype_from_int32_word(NNAV_DT_BOOL, 0, 0), 0.0);

    /* Small floats: the entry is the bit pattern, not the value. */
    assert_same(nnav_dtype_from_int32_word(NNAV_DT_FLOAT16, 0x3C00, 0), 1.0);
    assert_same(nnav_dtype_from_int32_word(NNAV_DT_FLOAT16, 0xC000, 0), -2.0);
    assert_same(nnav_dtype_from_int32_word(NNAV_DT_BFLOAT16, 0x4049, 0), 3.140625);
    assert_same(nnav_dtype_from_int32_word(NNAV_DT_FLOAT8E4M3FN, 0x7E, 0), 448.0);
    assert_same(nnav_dtype_from_int32_word(NNAV_DT_FLOAT8E5M2, 0xFC, 0), -INFINITY);
    assert_same(nnav_dtype_from_int32_word(NNAV_DT_FLOAT8E5M2FNUZ, 0x80, 0), NAN);
    assert_same(nnav_dtype_from_int32_word(NNAV_DT_FLOAT8E8M0, 130, 0), 8.0);

    /* uint64_data entries. */
    assert_same(nnav_dtype_from_int32_word(NNAV_DT_UINT32, 0xFFFFFFFFu, 0), 4294967295.0);
    assert_same(nnav_dtype_from_int32_word(NNAV_DT_UINT64, 1ull << 40, 0), 0x1p40);

    /* 4-bit: two per entry, first in the low nibble. */
    assert_same(nnav_dtype_from_int32_word(NNAV_DT_INT4, 0x8F, 0), -1.0);
    assert_same(nnav_dtype_from_int32_word(NNAV_DT_INT4, 0x8F, 1), -8.0);
    assert_same(nnav_dtype_from_int32_word(NNAV_DT_UINT4, 0x8F, 1), 8.0);
    assert_same(nnav_dtype_from_int32_word(NNAV_DT_FLOAT4E2M1, 0x7A, 0), -1.0);
    assert_same(nnav_dtype_from_int32_word(NNAV_DT_FLOAT4E2M1, 0x7A, 1), 6.0);
    /* 2-bit: four per entry, first in bits 0-1. */
    assert_same(nnav_dtype_from_int32_word(NNAV_DT_UINT2, 0xE4, 0), 0.0);
    assert_same(nnav_dtype_from_int32_word(NNAV_DT_UINT2, 0xE4, 3), 3.0);
    assert_same(nnav_dtype_from_int32_word(NNAV_DT_INT2, 0xE4, 2), -2.0);
    assert_same(nnav_dtype_from_int32_word(NNAV_DT_INT2, 0xE4, 3), -1.0);
    assert_same(nnav_dtype_from_int32_word(NNAV_DT_INT2, 0xE4, 1), 1.0);

    /* Positions past the word, and types with no int32 form, give NaN. */
    assert_true(isnan(nnav_dtype_from_int32_word(NNAV_DT_INT4, 0x8F, 2)));
    assert_true(isnan(nnav_dtype_from_int32_word(NNAV_DT_INT2, 0xE4, 4)));
    assert_true(isnan(nnav_dtype_from_int32_word(NNAV_DT_STRING, 1, 0)));
    assert_true(isnan(nnav_dtype_from_int32_word(NNAV_DT_UNDEFINED, 1, 0)));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_valid_bits),
        cmocka_unit_test(test_raw_bytes),
        cmocka_unit_test(test_half),
        cmocka_unit_test(test_bf16),
        cmocka_unit_test(test_fp8_e4m3fn),
        cmocka_unit_test(test_fp8_e4m3fnuz),
        cmocka_unit_test(test_fp8_e5m2),
        cmocka_unit_test(test_fp8_e5m2fnuz),
        cmocka_unit_test(test_fp8_e8m0),
        cmocka_unit_test(test_fp4),
        cmocka_unit_test(test_raw_int4),
        cmocka_unit_test(test_raw_int2),
        cmocka_unit_test(test_raw_scalars),
        cmocka_unit_test(test_raw_complex),
        cmocka_unit_test(test_raw_bounds),
        cmocka_unit_test(test_int32_words),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
