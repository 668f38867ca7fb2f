/* types.c - ggml's tensor types as GGUF files number them: each one's name,
 * block size and bytes per block (ggml.c's type_traits, ggml-common.h's
 * block structs), and the reference dequantisation of those nnav decodes
 * (ggml-quants.c's dequantize_row_*), computed in float as ggml does.
 *
 * The i-quants whose codes index ggml's lattice tables (iq1_*, iq2_*,
 * iq3_*) are sized, not decoded.
 *
 * Numbers 4 and 5 (Q4_2, Q4_3), 31-33 (Q4_0_4_4 ...) and 36-38 (IQ4_NL_4_4
 * ...) were removed from ggml; they and numbers past the table are not
 * known: shown by number, their size unknown. */
#include <math.h>
#include <string.h>

#include "dtype.h"
#include "gguf.h"

enum { QK = 256 }; /* elements of a K-quant super-block (QK_K) */

#define Q(name, blk, bytes, dq) {name, blk, bytes, NNAV_DT_QBLOCKS, dq}
static const gg_type types[] = {
    [0] = {"f32", 1, 4, NNAV_DT_FLOAT, 0},
    [1] = {"f16", 1, 2, NNAV_DT_FLOAT16, 0},
    [2] = Q("q4_0", 32, 2 + 16, 1),
    [3] = Q("q4_1", 32, 2 + 2 + 16, 1),
    [6] = Q("q5_0", 32, 2 + 4 + 16, 1),
    [7] = Q("q5_1", 32, 2 + 2 + 4 + 16, 1),
    [8] = Q("q8_0", 32, 2 + 32, 1),
    [9] = Q("q8_1", 32, 2 + 2 + 32, 1),
    [10] = Q("q2_K", QK, 2 + 2 + QK / 16 + QK / 4, 1),
    [11] = Q("q3_K", QK, 2 + QK / 4 + QK / 8 + 12, 1),
    [12] = Q("q4_K", QK, 2 + 2 + 12 + QK / 2, 1),
    [13] = Q("q5_K", QK, 2 + 2 + 12 + QK / 8 + QK / 2, 1),
    [14] = Q("q6_K", QK, QK / 2 + QK / 4 + QK / 16 + 2, 1),
    [15] = Q("q8_K", QK, 4 + QK + QK / 16 * 2, 1),
    [16] = Q("iq2_xxs", QK, 2 + QK / 4, 0),
    [17] = Q("iq2_xs", QK, 2 + QK / 4 + QK / 32, 0),
    [18] = Q("iq3_xxs", QK, 2 + QK / 4 + QK / 8, 0),
    [19] = Q("iq1_s", QK, 2 + QK / 8 + QK / 16, 0),
    [20] = Q("iq4_nl", 32, 2 + 16, 1),
    [21] = Q("iq3_s", QK, 2 + QK / 4 + QK / 8 + QK / 32 + 4, 0),
    [22] = Q("iq2_s", QK, 2 + QK / 4 + QK / 16, 0),
    [23] = Q("iq4_xs", QK, 2 + 2 + QK / 64 + QK / 2, 1),
    [24] = {"i8", 1, 1, NNAV_DT_INT8, 0},
    [25] = {"i16", 1, 2, NNAV_DT_INT16, 0},
    [26] = {"i32", 1, 4, NNAV_DT_INT32, 0},
    [27] = {"i64", 1, 8, NNAV_DT_INT64, 0},
    [28] = {"f64", 1, 8, NNAV_DT_DOUBLE, 0},
    [29] = Q("iq1_m", QK, QK / 8 + QK / 16 + QK / 32, 0),
    [30] = {"bf16", 1, 2, NNAV_DT_BFLOAT16, 0},
    [34] = Q("tq1_0", QK, 2 + 4 * 13, 1),
    [35] = Q("tq2_0", QK, 2 + QK / 4, 1),
    [39] = Q("mxfp4", 32, 1 + 16, 1),
};

const gg_type *gg_type_get(uint32_t t)
{
    return t < sizeof types / sizeof *types && types[t].name ? &types[t] : NULL;
}

static const char *const file_types[] = {
    [0] = "ALL_F32", [1] = "MOSTLY_F16", [2] = "MOSTLY_Q4_0", [3] = "MOSTLY_Q4_1",
    [4] = "MOSTLY_Q4_1_SOME_F16", [7] = "MOSTLY_Q8_0", [8] = "MOSTLY_Q5_0",
    [9] = "MOSTLY_Q5_1", [10] = "MOSTLY_Q2_K", [11] = "MOSTLY_Q3_K_S",
    [12] = "MOSTLY_Q3_K_M", [13] = "MOSTLY_Q3_K_L", [14] = "MOSTLY_Q4_K_S",
    [15] = "MOSTLY_Q4_K_M", [16] = "MOSTLY_Q5_K_S", [17] = "MOSTLY_Q5_K_M",
    [18] = "MOSTLY_Q6_K", [19] = "MOSTLY_IQ2_XXS", [20] = "MOSTLY_IQ2_XS",
    [21] = "MOSTLY_Q2_K_S", [22] = "MOSTLY_IQ3_XS", [23] = "MOSTLY_IQ3_XXS",
    [24] = "MOSTLY_IQ1_S", [25] = "MOSTLY_IQ4_NL", [26] = "MOSTLY_IQ3_S",
    [27] = "MOSTLY_IQ3_M", [28] = "MOSTLY_IQ2_S", [29] = "MOSTLY_IQ2_M",
    [30] = "MOSTLY_IQ4_XS", [31] = "MOSTLY_IQ1_M", [32] = "MOSTLY_BF16",
    [36] = "MOSTLY_TQ1_0", [37] = "MOSTLY_TQ2_0", [38] = "MOSTLY_MXFP4_MOE",
};

const char *gg_file_type_name(uint32_t ft)
{
    return ft < sizeof file_types / sizeof *file_types ? file_types[ft] : NULL;
}

static float half(const uint8_t *p)
{
    return (float)nnav_half_to_double((uint16_t)(p[0] | p[1] << 8));
}

/* ggml's get_scale_min_k4: the j-th 6-bit scale and min of a Q4_K/Q5_K block. */
static void scale_min_k4(int j, const uint8_t *q, uint8_t *d, uint8_t *m)
{
    if (j < 4) {
        *d = q[j] & 63;
        *m = q[j + 4] & 63;
    } else {
        *d = (uint8_t)((q[j + 4] & 0xF) | ((q[j - 4] >> 6) << 4));
        *m = (uint8_t)((q[j + 4] >> 4) | ((q[j] >> 6) << 4));
    }
}

/* ggml's non-linear 4-bit levels (kvalues_iq4nl), and MXFP4's: E2M1's
 * values doubled (kvalues_mxfp4), its E8M0 scale halved to match. */
static const int8_t iq4nl[16] = {-127, -104, -83, -65, -49, -35, -22, -10,
                                 1, 13, 25, 38, 53, 69, 89, 113};
static const int8_t mxfp4[16] = {0, 1, 2, 3, 4, 6, 8, 12, 0, -1, -2, -3, -4, -6, -8, -12};

/* A ternary digit of TQ1_0: byte x holds five in base-3 fixed point; the
 * n-th is the top of x * 3^n (mod 256) times 3, over 256: -1, 0 or 1. */
static float trit(uint8_t x, int n)
{
    static const uint8_t pow3[5] = {1, 3, 9, 27, 81};
    uint8_t q = (uint8_t)(x * pow3[n]);
    return (float)((((uint16_t)q * 3) >> 8) - 1);
}

void gg_dequant(uint32_t t, const uint8_t *p, float *y)
{
    switch (t) {
    case 9: { /* q8_1: d, s (d x the codes' sum), 32 int8 codes */
        float d = half(p);
        for (int j = 0; j < 32; j++)
            y[j] = (float)(int8_t)p[4 + j] * d;
        return;
    }
    case 20: { /* iq4_nl: d, 16 bytes of two 4-bit indices into iq4nl */
        float d = half(p);
        for (int j = 0; j < 16; j++) {
            y[j] = d * (float)iq4nl[p[2 + j] & 0xF];
            y[j + 16] = d * (float)iq4nl[p[2 + j] >> 4];
        }
        return;
    }
    case 23: { /* iq4_xs: d, scales_h, scales_l[4], 128 bytes of indices; 8 groups of 32 */
        float d = half(p);
        unsigned sh = (unsigned)p[2] | (unsigned)p[3] << 8;
        const uint8_t *qs = p + 8;
        for (int ib = 0; ib < QK / 32; ib++, y += 32, qs += 16) {
            int ls = ((p[4 + ib / 2] >> 4 * (ib % 2)) & 0xF) | (int)(((sh >> 2 * ib) & 3) << 4);
            float dl = d * (float)(ls - 32);
            for (int j = 0; j < 16; j++) {
                y[j] = dl * (float)iq4nl[qs[j] & 0xF];
                y[j + 16] = dl * (float)iq4nl[qs[j] >> 4];
            }
        }
        return;
    }
    case 34: { /* tq1_0: qs[48] of five trits, qh[4] of four, d */
        float d = half(p + 52);
        for (int n = 0; n < 5; n++)
            for (int m = 0; m < 32; m++)
                *y++ = trit(p[m], n) * d;
        for (int n = 0; n < 5; n++)
            for (int m = 0; m < 16; m++)
                *y++ = trit(p[32 + m], n) * d;
        for (int n = 0; n < 4; n++)
            for (int j = 0; j < 4; j++)
                *y++ = trit(p[48 + j], n) * d;
        return;
    }
    case 35: { /* tq2_0: qs[64] of four 2-bit codes (0..2 for -1..1), d */
        float d = half(p + 64);
        for (int j = 0; j < 64; j += 32)
            for (int l = 0; l < 4; l++)
                for (int m = 0; m < 32; m++)
                    *y++ = (float)(((p[j + m] >> (2 * l)) & 3) - 1) * d;
        return;
    }
    case 39: { /* mxfp4: an E8M0 exponent e, 16 bytes of two E2M1 codes */
        float d = ldexpf(1.0f, (int)p[0] - 128);
        for (int j = 0; j < 16; j++) {
            y[j] = (float)mxfp4[p[1 + j] & 0xF] * d;
            y[j + 16] = (float)mxfp4[p[1 + j] >> 4] * d;
        }
        return;
    }
    case 2: { /* q4_0: d, 16 bytes of two 4-bit codes, offset 8 */
        float d = half(p);
        for (int j = 0; j < 16; j++) {
            y[j] = (float)((p[2 + j] & 0x0F) - 8) * d;
            y[j + 16] = (float)((p[2 + j] >> 4) - 8) * d;
        }
        return;
    }
    case 3: { /* q4_1: d, m, codes */
        float d = half(p), m = half(p + 2);
        for (int j = 0; j < 16; j++) {
            y[j] = (float)(p[4 + j] & 0x0F) * d + m;
            y[j + 16] = (float)(p[4 + j] >> 4) * d + m;
        }
        return;
    }
    case 6: case 7: { /* q5_0 (d, qh, qs; offset 16), q5_1 (d, m, qh, qs) */
        int one = t == 7;
        float d = half(p), m = one ? half(p + 2) : 0;
        const uint8_t *h = p + (one ? 4 : 2), *qs = h + 4;
        uint32_t qh = (uint32_t)h[0] | (uint32_t)h[1] << 8 | (uint32_t)h[2] << 16 |
                      (uint32_t)h[3] << 24;
        for (int j = 0; j < 16; j++) {
            int x0 = (qs[j] & 0x0F) | (int)(((qh >> j) << 4) & 0x10);
            int x1 = (qs[j] >> 4) | (int)((qh >> (j + 12)) & 0x10);
            if (one) {
                y[j] = (float)x0 * d + m;
                y[j + 16] = (float)x1 * d + m;
            } else {
                y[j] = (float)(x0 - 16) * d;
                y[j + 16] = (float)(x1 - 16) * d;
            }
        }
        return;
    }
    case 8: { /* q8_0: d, 32 int8 codes */
        float d = half(p);
        for (int j = 0; j < 32; j++)
            y[j] = (float)(int8_t)p[2 + j] * d;
        return;
    }
    case 10: { /* q2_K: 16 bytes of 4-bit scale and min pairs, 64 of 2-bit codes, d, dmin */
        const uint8_t *sc = p, *q = p + QK / 16;
        float d = half(p + QK / 16 + QK / 4), mn = half(p + QK / 16 + QK / 4 + 2);
        for (int n = 0, is = 0; n < QK; n += 128, q += 32)
            for (int shift = 0; shift < 8; shift += 2)
                for (int h = 0; h < 2; h++, is++) {
                    float dl = d * (float)(sc[is] & 0xF), ml = mn * (float)(sc[is] >> 4);
                    for (int l = 0; l < 16; l++)
                        *y++ = dl * (float)((q[l + 16 * h] >> shift) & 3) - ml;
                }
        return;
    }
    case 11: { /* q3_K: hmask[32], 64 bytes of 2-bit codes, 12 of 6-bit scales, d */
        const uint8_t *hm = p, *q = p + QK / 8, *ps = p + QK / 8 + QK / 4;
        float d = half(p + QK / 8 + QK / 4 + 12);
        int8_t scales[16];
        /* sixteen 6-bit scales: low 4 bits from bytes 0-7, high 2 from 8-11 */
        for (int j = 0; j < 16; j++) {
            int lo = j < 8 ? ps[j] & 0xF : ps[j - 8] >> 4;
            int hi = (ps[8 + j % 4] >> (2 * (j / 4))) & 3;
            scales[j] = (int8_t)(lo | hi << 4);
        }
        uint8_t m = 1;
        for (int n = 0, is = 0; n < QK; n += 128, q += 32)
            for (int shift = 0; shift < 8; shift += 2, m = (uint8_t)(m << 1))
                for (int h = 0; h < 2; h++, is++) {
                    float dl = d * (float)(scales[is] - 32);
                    for (int l = 0; l < 16; l++)
                        *y++ = dl * (float)(((q[l + 16 * h] >> shift) & 3) -
                                            ((hm[l + 16 * h] & m) ? 0 : 4));
                }
        return;
    }
    case 13: { /* q5_K: d, dmin, 12 bytes of scales and mins, qh[32], qs[128] */
        float d = half(p), mn = half(p + 2);
        const uint8_t *sc = p + 4, *qh = p + 16, *ql = p + 48;
        uint8_t u1 = 1, u2 = 2;
        for (int j = 0, is = 0; j < QK; j += 64, is += 2, ql += 32) {
            uint8_t s, m;
            scale_min_k4(is, sc, &s, &m);
            float d1 = d * s, m1 = mn * m;
            scale_min_k4(is + 1, sc, &s, &m);
            float d2 = d * s, m2 = mn * m;
            for (int l = 0; l < 32; l++)
                *y++ = d1 * (float)((ql[l] & 0xF) + (qh[l] & u1 ? 16 : 0)) - m1;
            for (int l = 0; l < 32; l++)
                *y++ = d2 * (float)((ql[l] >> 4) + (qh[l] & u2 ? 16 : 0)) - m2;
            u1 = (uint8_t)(u1 << 2), u2 = (uint8_t)(u2 << 2);
        }
        return;
    }
    case 12: { /* q4_K: d, dmin, 12 bytes of 6-bit scales and mins, 128 of codes */
        float d = half(p), mn = half(p + 2);
        const uint8_t *sc = p + 4, *q = p + 16;
        for (int j = 0, is = 0; j < QK; j += 64, is += 2, q += 32) {
            uint8_t s, m;
            scale_min_k4(is, sc, &s, &m);
            float d1 = d * s, m1 = mn * m;
            scale_min_k4(is + 1, sc, &s, &m);
            float d2 = d * s, m2 = mn * m;
            for (int l = 0; l < 32; l++)
                *y++ = d1 * (float)(q[l] & 0xF) - m1;
            for (int l = 0; l < 32; l++)
                *y++ = d2 * (float)(q[l] >> 4) - m2;
        }
        return;
    }
    case 14: { /* q6_K: ql[128], qh[64], int8 scales[16], d */
        const uint8_t *ql = p, *qh = p + QK / 2;
        const int8_t *sc = (const int8_t *)(p + QK / 2 + QK / 4);
        float d = half(p + QK / 2 + QK / 4 + QK / 16);
        for (int n = 0; n < QK; n += 128, y += 128, ql += 64, qh += 32, sc += 8)
            for (int l = 0; l < 32; l++) {
                int is = l / 16;
                int q1 = ((ql[l] & 0xF) | ((qh[l] >> 0 & 3) << 4)) - 32;
                int q2 = ((ql[l + 32] & 0xF) | ((qh[l] >> 2 & 3) << 4)) - 32;
                int q3 = ((ql[l] >> 4) | ((qh[l] >> 4 & 3) << 4)) - 32;
                int q4 = ((ql[l + 32] >> 4) | ((qh[l] >> 6 & 3) << 4)) - 32;
                y[l] = d * (float)sc[is] * (float)q1;
                y[l + 32] = d * (float)sc[is + 2] * (float)q2;
                y[l + 64] = d * (float)sc[is + 4] * (float)q3;
                y[l + 96] = d * (float)sc[is + 6] * (float)q4;
            }
        return;
    }
    case 15: { /* q8_K: float d, 256 int8 codes, 16 int16 sums */
        float d;
        uint32_t b = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
                     (uint32_t)p[3] << 24;
        memcpy(&d, &b, 4);
        for (int j = 0; j < QK; j++)
            y[j] = d * (float)(int8_t)p[4 + j];
        return;
    }
    }
}
