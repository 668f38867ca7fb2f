#!/usr/bin/env bash
# Text columns on long names (issue 32 item 8). On gen_widths.py's model
# (scopes of 55 and more characters, initializers named like exporters name
# them, types with long symbolic dims):
#  - nnav shapes: the type column starts at one column on every row, as wide
#    as the longest name up to 48 columns; a longer name is cut in its
#    middle to exactly 48 columns, its first 23 and last 24 characters with
#    "…" between (the names are python's, from the file); --yaml has every
#    name whole and in the order python lists them.
#  - nnav nodes --shapes: the inputs start at one column on every row; a
#    node's name and each input and output name over 48 columns are cut the
#    same way (the same start and end as the real name); --yaml has them
#    whole.
set -u
. "$(dirname "$0")/lib.bash"
need_python onnx numpy yaml
model=$NNAV_TMP/widths.onnx
facts=$NNAV_TMP/widths.facts
"$py" "$(dirname "$0")/gen_widths.py" "$model" > "$facts" || { echo "FAIL: gen_widths.py"; exit 1; }

expect_status 0 "$NNAV_BIN" shapes "$model"
cp "$OUT" "$NNAV_TMP/widths.shapes"
expect_status 0 "$NNAV_BIN" shapes --yaml "$model"
cp "$OUT" "$NNAV_TMP/widths.shapes.yaml"
expect_status 0 "$NNAV_BIN" nodes --shapes "$model"
cp "$OUT" "$NNAV_TMP/widths.nodes"
expect_status 0 "$NNAV_BIN" nodes --shapes --yaml "$model"
cp "$OUT" "$NNAV_TMP/widths.nodes.yaml"
CHECKS=$((CHECKS + 1))
"$py" - "$facts" "$NNAV_TMP/widths" << 'PY' || fail "the columns (above)"
import sys
import yaml

facts, base = sys.argv[1], sys.argv[2]
names = [l.split(" ", 1)[1].rstrip("\n") for l in open(facts) if l.startswith("name ")]
bad = 0


def no(msg):
    global bad
    bad += 1
    print("FAIL:", msg)


def cut(n):  # what a name over 48 columns must read (ASCII names here)
    return n if len(n) <= 48 else n[:23] + "\u2026" + n[-24:]


longest = max(len(cut(n)) for n in names)
assert longest == 48 and any(len(n) > 48 for n in names), "the model has no long names"
rows = [l.rstrip("\n") for l in open(base + ".shapes", encoding="utf-8")][:len(names)]
for n, r in zip(names, rows):
    if not r.startswith(cut(n) + " "):
        no("shapes row does not start with %r: %r" % (cut(n), r))
    elif r[len(cut(n)):48 + 1].strip():
        no("shapes row's type does not start at column 50: %r" % r)
    elif r[49] == " ":
        no("shapes row's type does not start at column 50: %r" % r)
y = yaml.safe_load(open(base + ".shapes.yaml", encoding="utf-8"))
got = [v["name"] for v in y["graphs"][0]["values"]]
if got != names:
    no("shapes --yaml names are not the file's, whole: %r" % got[:3])

# nodes --shapes: "index  OP  NAME INPUTS -> OUTPUTS  : TYPES"
nodes = [l.rstrip("\n") for l in open(base + ".nodes", encoding="utf-8") if l.strip()]
yn = yaml.safe_load(open(base + ".nodes.yaml", encoding="utf-8"))
yn = yn["nodes"] if isinstance(yn, dict) else yn
cols = set()
for r, n in zip(nodes, yn):
    name = cut(n["name"])
    i = r.find(name)
    if i < 0:
        no("nodes row lacks the name %r: %r" % (name, r))
        continue
    rest = r[i + len(name):]
    cols.add(i + len(name) + len(rest) - len(rest.lstrip(" ")))  # where the inputs start
    for ref in n["input"] + n["output"]:
        if cut(ref) not in rest:
            no("nodes row lacks %r: %r" % (cut(ref), r))
        if len(ref) > 48 and ref in rest:
            no("a %d-character name is whole in text: %r" % (len(ref), r))
if len(cols) != 1:
    no("nodes rows' inputs start at different columns: %r" % sorted(cols))
if not any(len(n["name"]) > 48 for n in yn) or not any(len(x) > 48 for n in yn for x in n["input"]):
    no("the nodes YAML does not hold the long names whole")
sys.exit(1 if bad else 0)
PY
finish
