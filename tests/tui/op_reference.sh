#!/usr/bin/env bash
# Operator knowledge in the explorer (issue 17, items 3 and 5). On a model
# written with onnx.helper at opset 13:
#  - the detail pane of a Conv names its inputs X, W, B and its output Y from
#    the schema, says the schema in force (Conv v11 at opset 13), lists the
#    attributes the file sets and then the schema's others as nnav node
#    does: auto_pad with its default NOTSET marked (default) and drawn dim,
#    (not set: dilations, strides);
#  - a Concat names its variadic inputs inputs[0], inputs[1], inputs[2];
#  - a Relu carrying an attribute Relu has not is flagged (unknown to Relu v13);
#  - an Upsample (deprecated since v10) is flagged deprecated, a Concat
#    without its axis says (missing, required: axis);
#  - o opens the operator reference, the text `nnav op Conv --model` prints
#    (the same function, nnav_opref_write): the inputs with their type, the
#    attributes with types and defaults, the type constraints and the version
#    history with the version the model uses marked; it scrolls and q closes;
#  - a node of a domain the table does not hold says "no schema" in the
#    detail, and o says why in the status line instead of opening anything;
#    an unknown operator of ai.onnx (Reluu) gets the close names (Relu);
#  - at 80 columns and at 46 the detail pane keeps to its room: every row of
#    it ends at the same separator column (nothing wraps into the next pane).
. "$(dirname "$0")/tmux.bash"

dir=$NNAV_TMP/tui_op_reference.$$
rm -rf "$dir"
mkdir -p "$dir"
trap 'tui_cleanup; rm -rf "$dir"' EXIT
py=""
for c in /usr/bin/python3 python3; do "$c" -c 'import onnx, numpy' 2> /dev/null && { py=$c; break; }; done
[ -n "$py" ] || skip "no python3 with onnx to write the model (apt-get install python3-onnx)"

model=$dir/ops.onnx
"$py" - "$model" << 'PY' || fail "could not write the test model"
import sys
import numpy as np
from onnx import helper as h, TensorProto as T, numpy_helper as nh, save
inits = [nh.from_array(np.ones((4, 3, 3, 3), np.float32), "conv.weight"),
         nh.from_array(np.zeros((4,), np.float32), "conv.bias"),
         nh.from_array(np.array([1, 1, 2, 2], np.float32), "scales")]
nodes = [
    h.make_node("Conv", ["x", "conv.weight", "conv.bias"], ["c"], name="conv",
                kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
    h.make_node("Concat", ["c", "c", "c"], ["cat"], name="cat", axis=1),
    h.make_node("Relu", ["cat"], ["r"], name="relu", knob=3),
    h.make_node("Upsample", ["r", "scales"], ["up"], name="up"),
    h.make_node("FusedGelu", ["up"], ["y"], name="gelu", domain="com.example"),
    h.make_node("Concat", ["c", "c"], ["c2"], name="noaxis"),
    h.make_node("Reluu", ["c"], ["c3"], name="typo"),
]
g = h.make_graph(nodes, "g", [h.make_tensor_value_info("x", T.FLOAT, [1, 3, 8, 8])],
                 [h.make_tensor_value_info("y", T.FLOAT, None)], inits)
m = h.make_model(g, opset_imports=[h.make_opsetid("", 13), h.make_opsetid("com.example", 1)])
save(m, sys.argv[1])
PY

# sep_rows: the column of the separator right of the detail pane, once per
# row from the Detail title down to the status line (one value when every
# row keeps to the pane).
sep_rows() {
    screen | sed -n '/ Detail /,$p' | sed '1d;$d' | while IFS= read -r l; do
        printf '%s' "${l%%│*}" | LC_ALL=C.UTF-8 wc -m
    done | sort -u
}
# attr_line TEXT: the detail pane's part of the screen line holding TEXT,
# with its attribute changes (the separator and the pane right of it cut).
attr_line() {
    tm capture-pane -e -p -t "$TUI_S" | grep -F -m1 -- "$1" | sed -E $'s/(\e\\[[0-9;]*m)*│.*//'
}
# is_dim TEXT: that part is drawn dim (SGR 2) somewhere. TEXT holds no
# blanks: attribute changes sit between words.
is_dim() { attr_line "$1" | grep -qE $'\e\\[([0-9]+;)*2(;[0-9]+)*m'; }

start 80 44 "$model"
wait_ready
wait_for "name conv"
wait_for "schema Conv v11 (ai.onnx, opset 13"
wait_for "  0 X: x ← graph input"
wait_for "  1 W: conv.weight ← initializer"
wait_for "  2 B: conv.bias ← initializer"
wait_for "  0 Y: c → Concat cat"
pass "Conv names its inputs X, W, B and its output Y; schema Conv v11 at opset 13"
wait_for "Attributes (2 set, 2 by default)"
expect_line "  kernel_shape = " "[3, 3]"
expect_line "  auto_pad = " "NOTSET"
expect_line "  auto_pad = " "(default)"
expect_line "  group = " "1  (default)"
wait_for "  (not set: dilations, strides)"
is_dim auto_pad || fail "the default auto_pad is not drawn dim"
is_dim kernel_shape && fail "the file's kernel_shape is drawn dim like a default"
pass "auto_pad shows its default NOTSET, marked (default) and dim; (not set: dilations, strides)"
[ "$(sep_rows | wc -l)" = 1 ] || fail "at 80 columns a detail row runs past the pane: $(sep_rows | tr '\n' ' ')"
pass "at 80 columns every detail row ends at the separator"

# o: the reference of the Conv the node uses, as nnav op prints it.
keys o
wait_for "operator Conv (as nnav op prints it)"
wait_for "version    11 (in force at opset 13)"
screen | grep -qE '^ +X +T *$' || fail "the reference lacks input X of type T"
screen | grep -qE '^ +B +T +optional' || fail "the reference lacks optional input B"
expect_line "auto_pad  " "STRING   default \"NOTSET\""
expect_line "group  " "INT      default 1"
expect_line "kernel_shape  " "INTS"
wait_for "tensor(double), tensor(float), tensor(float16)"
screen | grep -qE '^ +v1 *$' || fail "the history lacks v1"
expect_line "v11  " "the model's (opset 13)"
pass "o shows the signature, attributes with types and defaults, constraints, history marked"
# The same lines as nnav op prints for the model's Conv.
"$NNAV_BIN" op Conv --model "$model" > "$dir/op.txt" || fail "nnav op Conv --model failed"
[ "$(wc -l < "$dir/op.txt")" -ge 15 ] || fail "nnav op printed $(wc -l < "$dir/op.txt") lines"
while IFS= read -r l; do
    [ -n "$l" ] || continue
    [ "${#l}" -le 70 ] || continue # a longer line wraps in the overlay
    screen | grep -qF -- "$l" || fail "the reference lacks nnav op's line '$l'"
done < "$dir/op.txt"
pass "every line of 'nnav op Conv --model' is on the screen"
keys G
wait_for "rows "
keys q
wait_gone "operator Conv"
wait_for "Attributes (2 set, 2 by default)"
pass "the reference scrolls and q closes it"

# Concat: the variadic list; Relu: an attribute it has not; Upsample: deprecated.
keys j
wait_for "name cat"
wait_for "  0 inputs[0]: c ← Conv conv"
wait_for "  2 inputs[2]: c ← Conv conv"
keys j
wait_for "name relu"
expect_line "  knob = 3" "(unknown to Relu v13)"
keys j
wait_for "name up"
wait_for "schema deprecated Upsample v10 (ai.onnx,"
pass "variadic inputs[N], an unknown attribute and a deprecated operator are shown"

# A domain the table does not hold: no schema, and o says so.
keys j
wait_for "name gelu"
wait_for "no schema (not in the table: domain com.ex"
keys o
wait_for "operator reference: no schema for FusedGelu"
no_text "(as nnav op prints it)"
keys j
wait_for "name noaxis"
wait_for "  (missing, required: axis)"
keys j
wait_for "name typo"
wait_for "no schema (no operator Reluu in ai.onnx"
keys o
wait_for "operator reference: no schema for Reluu"
screen | tr '\n' ' ' | tr -s ' ' | grep -qF "close: Relu" || fail "o on Reluu does not offer Relu"
pass "com.example: the detail says no schema, o says why and nnav goes on; a required attribute missing is said; an unknown op gets close names"
quit_clean

# Narrow: the detail pane is 30-odd columns; rows are cut, not wrapped.
start 46 40 "$model"
wait_ready
wait_for "name conv"
wait_for "schema Conv v11"
wait_for "  auto_pad = "
[ "$(sep_rows | wc -l)" = 1 ] || fail "at 46 columns a detail row runs past the pane: $(sep_rows | tr '\n' ' ')"
keys o
wait_for "operator Conv"
wait_for "tensor(float16)"
keys Escape
wait_gone "operator Conv"
pass "at 46 columns the detail rows are cut at the separator and o still opens"
quit_clean
