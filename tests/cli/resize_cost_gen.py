#!/usr/bin/env python3
"""Models where Convs read a Resize whose sizes or scales are computed, as
Paddle2ONNX writes PaddleOCR det's FPN (its `scale` op on a shape is Cast to
float, Mul, Add, Cast back; a Scale tensor is Concat([1,1], Cast(s))), with
each model's MACs counted here from the operators' definitions at a binding.

usage: resize_cost_gen.py OUTDIR
writes OUTDIR/resize_*.onnx and OUTDIR/resize_cost.json:
  {file: {"dims": {name: value}, "macs": total MACs, "shapes": {value: [dims]}}}
"macs" null: nnav cannot know them (a factor of 0.5 is not folded); it must
say its figure is partial, and give no dim that differs from "shapes", and
know those "must_know" marks (the sizes' folded part: N and the channels)."""
import json
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
expect = {}
rng = np.random.default_rng(15)


def const(name, arr):
    return numpy_helper.from_array(np.asarray(arr), name)


def conv(nodes, inits, x, y, cin, cout, k, pad):
    w = "%s_w" % y
    inits.append(const(w, rng.standard_normal((cout, cin, k, k)).astype(np.float32)))
    nodes.append(h.make_node("Conv", [x, w], [y], kernel_shape=[k, k], pads=[pad] * 4))


def conv_macs(n, cout, oh, ow, cin, k):
    return n * cout * oh * ow * cin * k * k


def model(fname, nodes, inits, inputs, outputs, dims, macs, shapes):
    g = h.make_graph(nodes, fname[:-5], inputs,
                     [h.make_tensor_value_info(o, T.FLOAT, [None] * 4) for o in outputs], inits)
    m = h.make_model(g, opset_imports=[h.make_opsetid("", 13)])
    m.ir_version = 7
    onnx.checker.check_model(m)
    onnx.save(m, os.path.join(out, fname))
    expect[fname] = {"dims": dims, "macs": macs, "shapes": shapes}


def sizes_scaled(nodes, inits, src, tag, factor, via_int32):
    """sizes = Concat(Shape(src)[0:2], Cast(Cast(Shape(src)[2:4], float) * factor + 0, int64)),
    Paddle's scale op on an integer tensor."""
    nodes += [
        h.make_node("Shape", [src], [tag + "_shape"]),
        h.make_node("Slice", [tag + "_shape", "s0", "s2"], [tag + "_nc"]),
        h.make_node("Slice", [tag + "_shape", "s2", "s4"], [tag + "_hw"]),
    ]
    hw = tag + "_hw"
    if via_int32:
        nodes.append(h.make_node("Cast", [hw], [hw + "_i32"], to=T.INT32))
        hw += "_i32"
    inits += [const(tag + "_k", np.array([factor], np.float32)),
              const(tag + "_b", np.array([0.0], np.float32))]
    nodes += [
        h.make_node("Cast", [hw], [tag + "_f"], to=T.FLOAT),
        h.make_node("Mul", [tag + "_f", tag + "_k"], [tag + "_fk"]),
        h.make_node("Add", [tag + "_fk", tag + "_b"], [tag + "_fkb"]),
        h.make_node("Cast", [tag + "_fkb"], [tag + "_hw2"], to=T.INT32 if via_int32 else T.INT64),
    ]
    hw2 = tag + "_hw2"
    if via_int32:
        nodes.append(h.make_node("Cast", [hw2], [hw2 + "_i64"], to=T.INT64))
        hw2 += "_i64"
    nodes.append(h.make_node("Concat", [tag + "_nc", hw2], [tag + "_sizes"], axis=0))
    return tag + "_sizes"


common = [const("s0", np.array([0], np.int64)), const("s2", np.array([2], np.int64)),
          const("s4", np.array([4], np.int64)), const("roi", np.array([], np.float32)),
          const("no_scales", np.array([], np.float32))]

# 1. det's FPN: x -> conv -> resize x2 by computed sizes -> conv, and x4 the same way.
for via_int32 in (False, True):
    nodes, inits = [], list(common)
    conv(nodes, inits, "x", "c1", 3, 8, 3, 1)             # [N,8,H,W]
    sz = sizes_scaled(nodes, inits, "c1", "up2", 2.0, via_int32)
    nodes.append(h.make_node("Resize", ["c1", "roi", "no_scales", sz], ["r1"], mode="nearest"))
    conv(nodes, inits, "r1", "c2", 8, 4, 3, 1)            # [N,4,2H,2W]
    sz = sizes_scaled(nodes, inits, "c2", "up4", 4.0, via_int32)
    nodes.append(h.make_node("Resize", ["c2", "roi", "no_scales", sz], ["r2"], mode="nearest"))
    conv(nodes, inits, "r2", "c3", 4, 2, 1, 0)            # [N,2,8H,8W]
    n, H, W = 2, 24, 32
    macs = (conv_macs(n, 8, H, W, 3, 3) + conv_macs(n, 4, 2 * H, 2 * W, 8, 3) +
            conv_macs(n, 2, 8 * H, 8 * W, 4, 1))
    name = "resize_sizes_int32.onnx" if via_int32 else "resize_sizes.onnx"
    model(name, nodes, inits, [h.make_tensor_value_info("x", T.FLOAT, ["N", 3, "H", "W"])],
          ["c3"], {"N": n, "H": H, "W": W}, macs,
          {"r1": [n, 8, 2 * H, 2 * W], "r2": [n, 4, 8 * H, 8 * W], "c3": [n, 2, 8 * H, 8 * W]})

# 2. computed scales: Concat([1,1] float, Cast(int64 [2,2] from a shape computation)).
nodes, inits = [], list(common)
inits += [const("ones", np.array([1.0, 1.0], np.float32)), const("two", np.array([2], np.int64))]
conv(nodes, inits, "x", "c1", 3, 8, 3, 1)
nodes += [
    h.make_node("Shape", ["x"], ["xs"]),
    h.make_node("Slice", ["xs", "s0", "s2"], ["x_nc"]),     # [N, 3]
    h.make_node("Div", ["x_nc", "x_nc"], ["x_ones"]),        # [1, 1]
    h.make_node("Mul", ["x_ones", "two"], ["twos"]),         # [2, 2]
    h.make_node("Cast", ["twos"], ["twos_f"], to=T.FLOAT),
    h.make_node("Concat", ["ones", "twos_f"], ["scales"], axis=0),
    h.make_node("Resize", ["c1", "roi", "scales"], ["r1"], mode="nearest"),
]
conv(nodes, inits, "r1", "c2", 8, 4, 3, 1)
n, H, W = 2, 24, 32
model("resize_scales.onnx", nodes, inits,
      [h.make_tensor_value_info("x", T.FLOAT, ["N", 3, "H", "W"])], ["c2"],
      {"N": n, "H": H, "W": W},
      conv_macs(n, 8, H, W, 3, 3) + conv_macs(n, 4, 2 * H, 2 * W, 8, 3),
      {"r1": [n, 8, 2 * H, 2 * W], "c2": [n, 4, 2 * H, 2 * W]})

# 3. a factor that is no whole number (0.5) and a Sign on a shape: not folded
# (the sizes stay unknown, the Conv after is partial), never folded wrong.
nodes, inits = [], list(common)
conv(nodes, inits, "x", "c1", 3, 8, 3, 1)
sz = sizes_scaled(nodes, inits, "c1", "down", 0.5, False)
nodes.append(h.make_node("Resize", ["c1", "roi", "no_scales", sz], ["r1"], mode="nearest"))
conv(nodes, inits, "r1", "c2", 8, 4, 3, 1)
n, H, W = 2, 24, 32
model("resize_half.onnx", nodes, inits,
      [h.make_tensor_value_info("x", T.FLOAT, ["N", 3, "H", "W"])], ["c2"],
      {"N": n, "H": H, "W": W}, None, {"r1": [n, 8, H // 2, W // 2]})
expect["resize_half.onnx"]["must_know"] = {"r1": [True, True, False, False]}

with open(os.path.join(out, "resize_cost.json"), "w") as f:
    json.dump(expect, f, indent=1, sort_keys=True)
