#!/usr/bin/env bash
# info names each weight figure for what it counts (issue 15, item 9):
# initializers, sparse initializers, initializer bytes and parameters, each
# for the main graph and for all graphs (bodies, functions, training graphs),
# in the text and in --yaml. Checked exactly on a generated model whose
# weights sit in the main graph, an If branch and training_info
# (info_weights_gen.py), and against the ONNX package's own count on the
# samples and ../shared/corpus.
set -u
. "$(dirname "$0")/lib.bash"
need_python onnx yaml numpy
corpus_part
D=$(cd "$(dirname "$0")" && pwd)
files=()
if [ "${NNAV_PART:-all}" != corpus ]; then
    M=$NNAV_TMP/info_weights.onnx
    "$py" "$D/info_weights_gen.py" "$M" || { echo "FAIL: info_weights_gen.py"; exit 1; }
    expect_status 0 "$NNAV_BIN" info "$M"
    for want in 'initializers   1 in the main graph (+1 sparse), 3 in all graphs (+1 sparse)' \
                'weights        32 bytes (32 B) in the main graph, 56 bytes (56 B) in all graphs' \
                'parameters     8 in the main graph, 14 in all graphs' \
                'elements       8 initializer elements in the main graph, 14 in all graphs'; do
        grep -qxF "$want" "$OUT" || fail "info lacks the line '$want': $(grep -E '^(initializers|weights|parameters|elements) ' "$OUT")"
    done
    expect_status 0 "$NNAV_BIN" info "$M" --yaml
    "$py" - "$OUT" <<'PY' || fail "info --yaml: wrong weight keys"
import sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
c = d["counts"]
got = (c["initializers_main_graph"], c["initializers_all_graphs"],
       c["sparse_initializers_main_graph"], c["sparse_initializers_all_graphs"],
       d["initializer_bytes_main_graph"], d["initializer_bytes_all_graphs"],
       d["parameters_main_graph"], d["parameters_all_graphs"],
       d["initializer_elements_main_graph"], d["initializer_elements_all_graphs"],
       d["parameters_in_constants"])
for old in ("initializers", "sparse_initializers"):
    assert old not in c, f"old key counts.{old} still written"
for old in ("initializer_bytes", "parameters"):
    assert old not in d, f"old key {old} still written"
assert got == (1, 3, 1, 1, 32, 56, 8, 14, 8, 14, 0), got
PY
    files=("$NNAV_SAMPLES"/*.onnx)
fi
if [ -d "$NNAV_CORPUS/onnx" ]; then
    files+=("$NNAV_CORPUS"/onnx/*.onnx)
else
    echo "SKIP (partly): corpus absent at $NNAV_CORPUS; the generated model and the samples only"
fi
# Against the ONNX package: every graph's initializers, sparse initializers
# and their elements (strings' aside); bytes where every tensor keeps its
# data in raw_data (the stored bytes are then its length); and parameters by
# the rule summary and cost use, worked out here from the protobuf: tensors
# of a weight type (not int32/int64/uint32/uint64/bool/string) held by an
# initializer, a sparse initializer or a Constant node (more than one
# element), each Identity of one a parameter of its own, and one that only
# such Identity nodes read (not a graph output) not counted itself; buffers
# (BatchNorm statistics) and constants (initial states...) apart, by the
# inputs that read them (tests/cli/param_rule.py).
for f in "${files[@]}"; do
    expect_status 0 "$NNAV_BIN" info "$f" --yaml
    "$py" - "$f" "$OUT" <<'PY' || fail "$f: info's weight figures differ from the ONNX package's"
import os, sys, yaml
import numpy as np
import onnx
m = onnx.load(sys.argv[1], load_external_data=False)
d = yaml.safe_load(open(sys.argv[2]))
c = d["counts"]

def graphs(g):
    todo = [g]
    while todo:
        g = todo.pop()
        yield g
        for n in g.node:
            for a in n.attribute:
                if a.type == onnx.AttributeProto.GRAPH:
                    todo.append(a.g)
                todo.extend(a.graphs)

roots = [m.graph] + [x for t in m.training_info for x in (t.initialization, t.algorithm)
                     if x.ByteSize() or x.node]
every = [g for r in roots for g in graphs(r)]
for f in m.functions:
    every += [g for n in f.node for a in n.attribute
              for g0 in ([a.g] if a.type == onnx.AttributeProto.GRAPH else list(a.graphs))
              for g in graphs(g0)]

def weights(gs):
    ts = [t for g in gs for t in g.initializer] + [s.values for g in gs for s in g.sparse_initializer]
    params = sum(int(np.prod(t.dims)) for t in ts if t.data_type != onnx.TensorProto.STRING)
    raw = all(t.HasField("raw_data") and t.data_location != onnx.TensorProto.EXTERNAL for t in ts)
    return ts, params, sum(len(t.raw_data) for t in ts) if raw else None

T = onnx.TensorProto
NOT_WEIGHT = {T.UNDEFINED, T.INT32, T.INT64, T.UINT32, T.UINT64, T.BOOL, T.STRING}

# The parameter rule, written again from the protobuf (tests/cli/param_rule.py).
sys.path.insert(0, os.path.join(os.environ["NNAV_SRC"], "tests", "cli"))
import param_rule
fbodies = [g0 for f in m.functions for n in f.node for a in n.attribute
           for g0 in ([a.g] if a.type == onnx.AttributeProto.GRAPH else list(a.graphs))]
W = param_rule.weights(roots + fbodies)

def rule_params(name):
    return sum(k for gi, _, k, counted, role in W
               if counted and role == "parameter" and (name == "all_graphs" or gi == 0))

main = [m.graph]
problems = []
for name, gs in (("main_graph", main), ("all_graphs", every)):
    ts, params, nbytes = weights(gs)
    n_init = sum(len(g.initializer) for g in gs)
    n_sparse = sum(len(g.sparse_initializer) for g in gs)
    want = {f"counts.initializers_{name}": n_init, f"counts.sparse_initializers_{name}": n_sparse,
            f"initializer_elements_{name}": params, f"parameters_{name}": rule_params(name)}
    if nbytes is not None:
        want[f"initializer_bytes_{name}"] = nbytes
    for k, v in want.items():
        got = c[k.split(".")[1]] if k.startswith("counts.") else d[k]
        if got != v:
            problems.append(f"{k}: nnav {got}, onnx {v}")
if problems:
    print("FAIL:", sys.argv[1], "; ".join(problems))
    sys.exit(1)
PY
done
finish
