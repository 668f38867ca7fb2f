"""cases_shape.py - hostile models for the shape and type inference engine
(src/shape.c, src/shape_ops.c): attribute values at the edges of int64 (the
old in-band symbol range among them), omitted and missing inputs for every
rule, a sparse initializer without values, NaN where an integer is folded,
and a function body called many times. What each must do: expect_shape.txt.

Every case is well formed: it opens, and whatever inference cannot say is
unknown with a reason, never a crash, undefined behaviour or a hang.
"""
import struct

from make_cases import *  # noqa: F401,F403 (the helpers: model, graph, node, tensor, fv, fb...)

INT, STRING, TENSOR, INTS = 2, 3, 4, 7
UINT8, INT8 = 2, 3
I64MIN, I64MAX = -2**63, 2**63 - 1
# INT64_MIN, INT64_MAX, +-2^62 (the edge of the numeric dim range), the old
# in-band symbol range (INT64_MIN+1 is symbol 0, INT64_MIN+5 symbol 4),
# 2^32 (past a 32-bit index), 0 and -1.
EDGES = [I64MIN, I64MAX, 2**62, -2**62, I64MIN + 1, I64MIN + 5, 2**32, 0, -1]


def a_i(name, v):
    return cat(fb(1, name), fv(20, INT), fv(3, v))


def a_ints(name, vs):
    return cat(fb(1, name), fv(20, INTS)) + b"".join(fv(8, v) for v in vs)


def a_s(name, s):
    return cat(fb(1, name), fv(20, STRING), fb(4, s))


def a_t(name, t):
    return cat(fb(1, name), fv(20, TENSOR), fb(5, t))


def tvi(name, dims=None, elem=FLOAT):
    """A ValueInfoProto with a shape: int dims are dim_value, str dim_param;
    dims None: no shape."""
    tt = fv(1, elem)
    if dims is not None:
        tt += fb(2, b"".join(fb(1, fv(1, d) if isinstance(d, int) else fb(2, d)) for d in dims))
    return cat(fb(1, name), fb(2, fb(1, tt)))


def sgraph(nodes, inputs, outputs=(), inits=(), extra=b""):
    """A graph whose inputs are (name, dims, elem) with shapes."""
    out = b"".join(fb(1, n) for n in nodes) + fb(2, "g")
    out += b"".join(fb(5, t) for t in inits)
    out += b"".join(fb(11, tvi(*i)) for i in inputs)
    out += b"".join(fb(12, vinfo(o)) for o in outputs)
    return out + extra


def i64(name, vals, dims=None):
    """An INT64 tensor in int64_data (varints)."""
    dims = [len(vals)] if dims is None else dims
    return cat(b"".join(fv(1, d) for d in dims), fv(2, INT64), fb(8, name),
               fb(7, b"".join(varint(v) for v in vals)))


def doubles_i64(name, vals):
    """An INT64 tensor whose values sit in double_data (field 10)."""
    return cat(fv(1, len(vals)), fv(2, INT64), fb(8, name),
               fb(10, b"".join(struct.pack("<d", x) for x in vals)))


# Shapes: numbers, named dims, and sizes at the int64 edges in the file.
X4 = [1, 2, 8, 8]
XS = ["N", "C", "H", "W"]
XBIG = [1, 2, 2**62, I64MAX]


def conv_family(op, inputs, extra_ins=(), spatial_attrs=("pads", "strides", "dilations",
                                                         "kernel_shape")):
    """One node per (input, attribute, edge value): `inputs` are (x, w) pairs
    of graph input names; extra_ins follow w (QLinearConv's scales)."""
    nodes = []
    k = 0
    for x, w in inputs:
        for v in EDGES:
            variants = [[a_ints("pads", [v, 0, 0, 0])], [a_ints("pads", [v] * 4)],
                        [a_ints("strides", [v, v])], [a_ints("dilations", [v, 1])],
                        [a_ints("kernel_shape", [v, v])], [a_i("group", v)],
                        [a_ints("kernel_shape", [3, 3]), a_ints("pads", [0, 0, v, v]),
                         a_ints("strides", [2, v])],
                        [a_s("auto_pad", "SAME_UPPER"), a_ints("strides", [v, 2])],
                        [a_s("auto_pad", "VALID"), a_ints("kernel_shape", [v, 1])],
                        [a_ints("kernel_shape", [3, 3]), a_i("ceil_mode", 1),
                         a_ints("strides", [v, 1]), a_ints("pads", [v, 0, 0, 0])]]
            if op == "ConvTranspose":
                variants += [[a_ints("output_shape", [v, v])],
                             [a_ints("output_padding", [v, 0])],
                             [a_ints("output_padding", [v, v]), a_ints("strides", [v, 1]),
                              a_i("group", v)],
                             [a_s("auto_pad", "SAME_LOWER"), a_ints("strides", [v, v])]]
            for attrs in variants:
                if not w:
                    # a pool: its kernel_shape is required
                    if not any(a.startswith(fb(1, "kernel_shape")) for a in attrs):
                        attrs = attrs + [a_ints("kernel_shape", [3, 3])]
                    ins = [x]
                elif extra_ins:
                    # QLinearConv: x, x_scale, x_zero_point, w, w_scale, ...
                    ins = [x] + list(extra_ins[:2]) + [w] + list(extra_ins[2:])
                else:
                    ins = [x, w]
                outs = ["y%d" % k] + (["i%d" % k] if op == "MaxPool" else [])
                nodes.append(node(op, ins, outs, "n%d" % k, attrs=attrs))
                k += 1
    return nodes


def conv_case(op, elem, wshape_known, wshape_sym, extra=()):
    ins = [("x", X4, elem), ("xs", XS, elem), ("xbig", XBIG, elem),
           ("w", wshape_known, elem), ("ws", wshape_sym, elem),
           ("wbig", [4, 2, 2**62, I64MAX], elem)]
    ins += [(e, [], FLOAT if "scale" in e else elem) for e in extra]
    pairs = [("x", "w"), ("xs", "ws"), ("xs", "w"), ("xbig", "w"), ("x", "wbig")]
    return model(sgraph(conv_family(op, pairs, extra), ins))


def pool_case(op):
    nodes = conv_family(op, [("x", None), ("xs", None), ("xbig", None)])
    return model(sgraph(nodes, [("x", X4), ("xs", XS), ("xbig", XBIG)]))


def max_unpool_case():
    nodes = []
    k = 0
    for x in ("x", "xs", "xbig"):
        for v in EDGES:
            for attrs in ([a_ints("kernel_shape", [v, v])],
                          [a_ints("kernel_shape", [2, 2]), a_ints("strides", [v, v])],
                          [a_ints("kernel_shape", [2, 2]), a_ints("pads", [v, 0, 0, v])],
                          [a_ints("kernel_shape", [2, 2]), a_ints("strides", [v, 2]),
                           a_ints("pads", [v, v, v, v])]):
                nodes.append(node("MaxUnpool", [x, "idx"], ["y%d" % k], "n%d" % k, attrs=attrs))
                k += 1
            # output_shape as a folded operand (a Constant) holding v
            nodes.append(node("Constant", [], ["os%d" % k], "c%d" % k,
                              attrs=[a_t("value", i64("os%d" % k, [1, 2, v, v]))]))
            nodes.append(node("MaxUnpool", [x, "idx", "os%d" % k], ["y%d" % k], "n%d" % k,
                              attrs=[a_ints("kernel_shape", [2, 2])]))
            k += 1
    return model(sgraph(nodes, [("x", X4), ("xs", XS), ("xbig", XBIG), ("idx", X4, INT64)]))


def misc_edges_case():
    """Other rules that turn attribute or folded values into sizes."""
    nodes = []
    k = [0]

    def add(op, ins, attrs=(), nout=1):
        outs = ["o%d_%d" % (k[0], j) for j in range(nout)]
        nodes.append(node(op, ins, outs, "m%d" % k[0], attrs=list(attrs)))
        k[0] += 1
        return outs[0]

    for v in EDGES:
        # A folded value holding v (a Constant's value_int, a 1-vector, an
        # initializer folded at seeding), through the ops that read shapes.
        c = add("Constant", [], [a_i("value_int", v)])
        cv = add("Constant", [], [a_ints("value_ints", [v, v])])
        ct = add("Constant", [], [a_t("value", i64("t", [v]))])
        for s in (c, cv, ct, "init%d" % EDGES.index(v)):
            sh = add("Concat", [s, "one"], [a_i("axis", 0)])
            add("Reshape", ["x", sh])
            add("Expand", ["x", sh])
            add("ConstantOfShape", [sh])
            add("Tile", ["x", add("Concat", [s, s, s, s], [a_i("axis", 0)])])
            add("Unsqueeze", ["x", s])
            add("Squeeze", ["x", s])
            add("Slice", ["x", s, s, "zero1", s])
            add("Slice", ["xs", "zero1", s, "zero1", "one"])
            add("Range", [s, s, s])
            add("Range", ["zero0", s, "one0"])
            add("OneHot", ["idx", s, "two"])
            add("TopK", ["x", s], nout=2)
            add("Gather", [add("Shape", ["xs"]), s])
            add("Add", [add("Shape", ["xs"]), s])
            add("Mul", [add("Shape", ["xs"]), s])
            add("Sub", [s, add("Shape", ["xs"])])
            add("Div", [add("Shape", ["xs"]), s])
            add("Div", [s, add("Shape", ["xs"])])
            add("Equal", [add("Shape", ["xs"]), s])
            add("Max", [s, add("Shape", ["xs"])])
            add("Neg", [s])
            add("Pad", ["x", add("Concat", [s, s, s, s, s, s, s, s], [a_i("axis", 0)])])
            add("Split", ["x", add("Concat", [s, s], [a_i("axis", 0)])], [a_i("axis", 2)],
                nout=2)
            add("SplitToSequence", ["xs", s], [a_i("axis", 2)])
            add("Resize", ["x", "", "", add("Concat", ["one", "one", s, s], [a_i("axis", 0)])])
            add("MaxUnpool", ["x", "idx", add("Concat", ["one", "one", s, s], [a_i("axis", 0)])],
                [a_ints("kernel_shape", [2, 2])])
            add("CenterCropPad", ["x", add("Concat", [s, s, s, s], [a_i("axis", 0)])])
            add("DFT", ["xd", s], [a_i("onesided", 1)])
            add("STFT", ["sig", s, "", s])
            add("MelWeightMatrix", [s, s, "one0", "one0", "one0"])
            add("HannWindow", [s])
            add("Where", ["cond1", s, s])
            add("ReduceSum", [add("Concat", [s, s], [a_i("axis", 0)])], [a_i("keepdims", 0)])
            add("ReduceProd", [add("Concat", [s, s], [a_i("axis", 0)])], [a_i("keepdims", 0)])
        # attributes holding v
        add("Shape", ["xs"], [a_i("start", v), a_i("end", v)])
        add("Flatten", ["xs"], [a_i("axis", v)])
        add("Concat", ["xs", "xs"], [a_i("axis", v)])
        add("Gather", ["xs", "idx"], [a_i("axis", v)])
        add("Softmax", ["xs"], [a_i("axis", v)])
        add("TopK", ["x"], [a_i("k", v), a_i("axis", v)], nout=2)
        add("Transpose", ["xs"], [a_ints("perm", [v, 0, 1, 2])])
        add("ReduceMean", ["xs"], [a_ints("axes", [v])])
        add("ArgMax", ["xs"], [a_i("axis", v)])
        add("DepthToSpace", ["xs"], [a_i("blocksize", v)])
        add("SpaceToDepth", ["x"], [a_i("blocksize", v)])
        add("Split", ["xs"], [a_i("axis", 3), a_ints("split", [v, v])], nout=2)
        add("Split", ["xs"], [a_i("axis", 3), a_i("num_outputs", v)], nout=2)
        add("RandomNormal", [], [a_ints("shape", [v, 2])])
        add("Multinomial", ["x2"], [a_i("sample_size", v)])
        add("RNN", ["seq", "rw", "rr"], [a_i("hidden_size", v), a_i("layout", v)], nout=2)
        add("LSTM", ["seq", "lw", "lr"], [a_i("hidden_size", v)], nout=3)
        add("RoiAlign", ["x", "rois", "ridx"], [a_i("output_height", v), a_i("output_width", v)])
        add("MaxRoiPool", ["x", "rois"], [a_ints("pooled_shape", [v, v])])
        add("TfIdfVectorizer", ["x2"], [a_ints("ngram_indexes", [v, 1])])
        add("GatherND", ["xs", "idx"], [a_i("batch_dims", v)])
        add("LayerNormalization", ["xs", "sc"], [a_i("axis", v)], nout=3)
        add("ConcatFromSequence", [add("SequenceConstruct", ["xs", "xs"])],
            [a_i("axis", v), a_i("new_axis", 1)])
        add("Scan", ["xs"], [a_i("num_scan_inputs", v), a_ints("scan_input_axes", [v])])
        add("Compress", ["xs", "cond1"], [a_i("axis", v)])
        add("Unique", ["xs"], [a_i("axis", v)], nout=4)
        add("EyeLike", ["x2"], [a_i("dtype", v)])
        add("Cast", ["xs"], [a_i("to", v)])
        add("Einsum", ["xs", "xs"], [a_s("equation", "......,...->...")])
        add("Einsum", ["xs"], [a_s("equation", "......->")])
    inits = [i64("init%d" % i, [v]) for i, v in enumerate(EDGES)]
    inits += [i64("one", [1]), i64("zero1", [0]), i64("zero0", [0], dims=[]),
              i64("one0", [1], dims=[]), i64("two", [0, 1])]
    ins = [("x", X4), ("xs", XS), ("x2", [3, 4]), ("idx", X4, INT64),
           ("xd", [1, 16, 1]), ("sig", [1, 64, 1]), ("cond1", [2], 9),
           ("seq", [5, 1, 3]), ("rw", [1, 4, 3]), ("rr", [1, 4, 4]), ("lw", [1, 16, 3]),
           ("lr", [1, 16, 4]), ("rois", [2, 4]), ("ridx", [2], INT64), ("sc", ["W"])]
    return model(sgraph(nodes, ins, inits=inits))


# Every rule of the table (shape_ops.c), and the TensorFlow-only ones.
RULE_OPS = """Relu LeakyRelu Elu Selu Celu Sigmoid Tanh HardSigmoid HardSwish Softplus Softsign
Exp Log Sqrt Abs Reciprocal Floor Ceil Round Sign Erf Gelu Mish Sin Cos Tan Asin Acos Atan Sinh
Cosh Asinh Acosh Atanh Clip Softmax LogSoftmax Hardmax LRN InstanceNormalization
GroupNormalization MeanVarianceNormalization LpNormalization Shrink ThresholdedRelu CumSum Trilu
ReverseSequence ScatterElements ScatterND Scatter BitwiseNot Identity Neg Not IsNaN IsInf Cast
CastLike Dropout BatchNormalization Add Sub Mul Div Max Min Pow Sum Mean Mod BitShift PRelu
BitwiseAnd BitwiseOr BitwiseXor And Or Xor Equal Greater Less GreaterOrEqual LessOrEqual Where
Shape Size Constant ConstantOfShape Reshape Flatten Unsqueeze Squeeze Transpose Concat Gather
Expand MatMul MatMulInteger Gemm Conv ConvInteger QLinearConv ConvTranspose MaxPool AveragePool
LpPool GlobalAveragePool GlobalMaxPool GlobalLpPool ReduceSum ReduceMean ReduceMax ReduceMin
ReduceProd ReduceL1 ReduceL2 ReduceLogSum ReduceLogSumExp ReduceSumSquare ArgMax ArgMin If Loop
Scan Slice Split Tile Pad Resize Upsample DepthToSpace SpaceToDepth CenterCropPad TopK NonZero
GatherElements GatherND Compress NonMaxSuppression Unique Range OneHot EyeLike RandomNormal
RandomUniform RandomNormalLike RandomUniformLike Bernoulli Multinomial HannWindow HammingWindow
BlackmanWindow MelWeightMatrix DFT QuantizeLinear DequantizeLinear DynamicQuantizeLinear
QLinearMatMul LayerNormalization SoftmaxCrossEntropyLoss NegativeLogLikelihoodLoss
StringNormalizer Einsum Det RNN GRU LSTM RoiAlign GridSample MaxUnpool SequenceEmpty
SequenceConstruct SequenceInsert SequenceErase SequenceAt SequenceLength SplitToSequence
ConcatFromSequence OptionalHasElement TfIdfVectorizer MaxRoiPool STFT SequenceMap""".split()


# Rules that read the opset (older forms of an op).
OPSET_OPS = """Reshape Tile Add Sub Mul Div Scan Upsample Dropout TopK Slice Pad Resize Split
Squeeze Unsqueeze ReduceSum DequantizeLinear DFT Loop If""".split()


def omitted_inputs_case(opset_version):
    """Every rule with: no input at all; eight omitted ("") inputs; one known
    input then omitted ones; an omitted input then known ones; an input
    defined nowhere; no outputs. A rule must never read an input it has not
    checked."""
    nodes = []
    k = 0
    shapes = [[], ["", "", "", "", "", "", "", ""], ["x"] + [""] * 7, ["", "x", "x", "x"],
              ["", "", "x"], ["x", ""], ["nowhere", "x", "nowhere"], ["xs", "", "", "", "xs"],
              ["seq", ""], ["", "seq"]]
    for op in RULE_OPS if opset_version == 17 else OPSET_OPS:
        for ins in shapes:
            for nout in (0, 3):
                nodes.append(node(op, ins, ["o%d_%d" % (k, j) for j in range(nout)], "n%d" % k))
                k += 1
    nodes.insert(0, node("SequenceConstruct", ["x", "x"], ["seq"], "mkseq"))
    g = sgraph(nodes, [("x", X4), ("xs", XS)])
    return model(g, extra=b"") if opset_version == 17 else \
        cat(fv(1, 8), fb(8, opset("", opset_version)), fb(7, g))


def function_calls(inputs, calls):
    """One model-local function whose body is a Concat of `inputs` copies of
    its input, called `calls` times: inferred once per distinct input facts,
    not at each call."""
    body = node("Concat", ["x"] * inputs, ["y"], "cat", attrs=[a_i("axis", 0)])
    fn = function("f", [body])
    nodes = [node("f", ["a"], ["y%d" % i], "c%d" % i, domain="local") for i in range(calls)]
    return model(sgraph(nodes, [("a", [2, "n"])]), functions=[fn],
                 extra=fb(8, opset("local", 1)))


def function_distinct_calls(inputs, calls):
    """The same function called with `calls` inputs of different shapes: the
    memo cannot help, and the work budget ends inference with a reason."""
    body = node("Concat", ["x"] * inputs, ["y"], "cat", attrs=[a_i("axis", 0)])
    fn = function("f", [body])
    nodes = [node("f", ["a%d" % i], ["y%d" % i], "c%d" % i, domain="local") for i in range(calls)]
    return model(sgraph(nodes, [("a%d" % i, [i + 1, "n"]) for i in range(calls)]), functions=[fn],
                 extra=fb(8, opset("local", 1)))


def small_cases():
    c = {}
    q_extra = ("x_scale", "x_zp", "w_scale", "w_zp", "y_scale", "y_zp")
    c["shape_conv_edges.onnx"] = conv_case("Conv", FLOAT, [4, 2, 3, 3], ["O", "C", "kh", "kw"])
    c["shape_conv_integer_edges.onnx"] = conv_case("ConvInteger", UINT8, [4, 2, 3, 3],
                                                   ["O", "C", "kh", "kw"])
    c["shape_qlinear_conv_edges.onnx"] = conv_case("QLinearConv", UINT8, [4, 2, 3, 3],
                                                   ["O", "C", "kh", "kw"], q_extra)
    c["shape_conv_transpose_edges.onnx"] = conv_case("ConvTranspose", FLOAT, [2, 4, 3, 3],
                                                     ["C", "O", "kh", "kw"])
    c["shape_maxpool_edges.onnx"] = pool_case("MaxPool")
    c["shape_avgpool_edges.onnx"] = pool_case("AveragePool")
    c["shape_max_unpool_edges.onnx"] = max_unpool_case()
    c["shape_misc_edges.onnx"] = misc_edges_case()
    c["shape_omitted_inputs.onnx"] = omitted_inputs_case(17)
    c["shape_omitted_inputs_opset4.onnx"] = omitted_inputs_case(4)

    # The same without a named dim anywhere: the old symbol table was empty,
    # so a size computed into the symbol range read NULL + 24 * 2^31.
    far = I64MIN + 2**31 + 3
    c["shape_conv_forged_symbol.onnx"] = model(sgraph(
        [node("Conv", ["x", "w"], ["y"], "conv", attrs=[a_ints("pads", [far, 0, 0, 0])]),
         node("Constant", [], ["s"], "c", attrs=[a_ints("value_ints", [far, I64MIN + 1])]),
         node("Reshape", ["x", "s"], ["r"], "r", attrs=[a_i("allowzero", 1)])],
        [("x", X4), ("w", [4, 2, 3, 3])]))
    # A sparse initializer without values (and one without indices).
    sp = cat(fb(2, i64("sp_idx", [0])), fv(3, 4))
    sp2 = cat(fb(1, tensor("sp2", FLOAT, [1], raw=floats(3))), fv(3, 4))
    c["shape_sparse_no_values.onnx"] = model(graph(
        nodes=[node("Identity", ["sp2"], ["y"], "id")], outputs=["y"],
        extra=fb(15, sp) + fb(15, sp2)))
    # SequenceConstruct whose first input is omitted.
    c["shape_seq_construct_omitted.onnx"] = model(sgraph(
        [node("SequenceConstruct", ["", "x"], ["s"], "sc"),
         node("SequenceConstruct", ["x", ""], ["s2"], "sc2"),
         node("SequenceAt", ["s", "zero"], ["e"], "at")],
        [("x", X4)], outputs=["e"], inits=[i64("zero", [0], dims=[])]))
    # An INT64 shape operand whose values sit in double_data: NaN, infinities
    # and numbers no int64 holds are not foldable (an initializer, and the
    # same tensor in a Constant).
    bad = [float("nan"), float("inf"), -float("inf"), 1e300, -1e19, 9.3e18]
    nodes, inits = [], []
    for i, x in enumerate(bad):
        inits.append(doubles_i64("s%d" % i, [1.0, x]))
        nodes.append(node("Reshape", ["x", "s%d" % i], ["r%d" % i], "r%d" % i))
        nodes.append(node("Constant", [], ["cs%d" % i], "c%d" % i,
                          attrs=[a_t("value", doubles_i64("cs%d" % i, [1.0, x]))]))
        nodes.append(node("Reshape", ["x", "cs%d" % i], ["rc%d" % i], "rc%d" % i))
        nodes.append(node("Slice", ["x", "cs%d" % i, "cs%d" % i], ["sl%d" % i], "sl%d" % i))
        nodes.append(node("Range", ["cs%d" % i, "cs%d" % i, "cs%d" % i], ["rg%d" % i],
                          "rg%d" % i))
        nodes.append(node("Resize", ["x", "", "fs%d" % i], ["rs%d" % i], "rs%d" % i))
        fx = [float("nan"), float("inf"), -float("inf"), 3.0e38, -1.0, 1e-40][i]
        inits.append(tensor("fs%d" % i, FLOAT, [4], float_data=[1, 1, fx, fx]))
        nodes.append(node("ConstantOfShape", ["one"], ["co%d" % i], "co%d" % i,
                          attrs=[a_t("value", doubles_i64("fill", [x]))]))
    inits.append(i64("one", [1]))
    c["shape_int64_nan_fold.onnx"] = model(sgraph(nodes, [("x", [2, 4, 1, 1])], inits=inits))
    # A function with a 5,000-input Concat called 2,000 times.
    c["shape_function_called_2000.onnx"] = function_calls(5000, 2000)
    # The same function with 400 inputs of different shapes: 6 million units
    # of work, past the budget (64 times the model's size and a floor).
    c["shape_function_budget.onnx"] = function_distinct_calls(5000, 400)
    return c
