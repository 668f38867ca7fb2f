/* quant.h - quantisation as a fact: what a tensor stores, the logical weight
 * it stands for, and its bits per weight, for every format.
 *
 * Calling rules: each function looks at one tensor of an open model and
 * reads no payload; what it needs of the tensors beside it is a name lookup
 * (a tensor store) or the nodes that read its value (a graph). Nothing is
 * kept: ask again, it costs the same.
 *
 * What is recognised, first that applies:
 *  - A packed weight of a tensor store (a weights file, a state_dict):
 *    `P.qweight` of int32 with `P.scales` beside it (and `P.qzeros`,
 *    optionally `P.g_idx`). GPTQ packs along K: qweight [K*bits/32, N],
 *    scales [K/g, N] (qweight's columns are scales'); AWQ along N: qweight
 *    [K, N*bits/32], qzeros [K/g, N*bits/32], scales [K/g, N]. bits come
 *    from the packing ratio (GPTQ: qzeros' or g_idx's, AWQ: qweight's
 *    columns against N), the group from K over scales' rows; every ratio
 *    must divide exactly and bits be 2, 3, 4 or 8, else it is no packing
 *    (the tensors stay what their types say). K x N is its parameter count;
 *    scales, qzeros and g_idx are its quantisation data, no parameters.
 *  - A graph's MatMulNBits (com.microsoft) input B: K x N packed in
 *    blocks of `bits` (attributes K, N, bits, block_size); its scales, zero
 *    points and g_idx are its data.
 *  - A graph's DequantizeLinear (ai.onnx) input x held by an initializer:
 *    the logical weight of its own elements (a QDQ pair); the scale and
 *    zero point are its data.
 *  - Otherwise the tensor's own type: an element type (int4, float8e4m3fn,
 *    bfloat16: bits per weight its width) or a reader's block type (q4_K:
 *    nbytes x 8 / elements, as ggml's block table gives it).
 */
#ifndef NNAV_QUANT_H
#define NNAV_QUANT_H

#include "nnav.h"

enum {
    NNAV_Q_PLAIN = 0, /* a tensor of its own type */
    NNAV_Q_PACKED,    /* a packed weight: stands for `logical` weights */
    NNAV_Q_DATA,      /* quantisation data of the packed weight `weight` */
};

typedef struct nnav_tquant {
    uint8_t kind;        /* NNAV_Q_* */
    uint8_t bits;        /* PACKED, DATA: the packing's bits per weight */
    const char *scheme;  /* PACKED, DATA: "GPTQ", "AWQ", "MatMulNBits", "QDQ" */
    const char *part;    /* DATA: "scales", "zeros", "g_idx", "scale", "zero point" */
    uint64_t group;      /* elements sharing a scale (GPTQ/AWQ group, MatMulNBits block,
                            QDQ block_size); 0 per tensor or per channel */
    uint32_t weight;     /* DATA: the packed tensor it serves; else the tensor itself */
    uint64_t k, n;       /* GPTQ/AWQ/MatMulNBits: the logical weight's K x N */
    uint64_t logical;    /* the weights it stands for: K x N packed, else its elements
                            (UINT64_MAX unknown); 0 for DATA */
} nnav_tquant;

/* What tensor t is (see above). 0; -1 for no such tensor. */
int nnav_tensor_quant(const nnav_model *m, uint32_t t, nnav_tquant *q);

/* Its storage type as summary and the explorer show it: "int4 (GPTQ,
 * group 128)", "int4 (MatMulNBits, block 32)", "int8 (QDQ)", "float16
 * (GPTQ scales)", "q4_K", "bfloat16". */
void nnav_tensor_qtype(const nnav_model *m, uint32_t t, char *buf, size_t n);

/* Tensor t's bits per weight: its bytes x 8 over the weights it stands for
 * (a packed weight's alone, its data not counted), its element width for a
 * plain type; -1 when none (quantisation data; a tensor of a type weights
 * do not have: int32, int64, uint32, uint64, bool, string; unknown counts). */
double nnav_tensor_bpw(const nnav_model *m, uint32_t t);

/* Mean bits per weight of `bytes` over `weights`, as text: "4.85 bpw", or
 * "-" when there are no weights or the bytes are unknown (UINT64_MAX). */
void nnav_bpw_text(uint64_t bytes, uint64_t weights, char *buf, size_t n);
/* The same as a number; -1 for "-". */
double nnav_bpw(uint64_t bytes, uint64_t weights);

#endif
