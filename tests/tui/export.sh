#!/usr/bin/env bash
# e writes the graph shown, or the nodes marked with Space, to the file named
# in the prompt (MODEL-GRAPH.yaml suggested in the current folder, the plain
# name even when it exists; .onnx writes ONNX, Tab switches); E writes the
# region between value names. An
# existing file is replaced only after 'y'; a symlink is refused with the
# reason in the status line; every file written reads back.
. "$(dirname "$0")/tmux.bash"

dir=$NNAV_TMP/tui_export.$$
rm -rf "$dir"
mkdir -p "$dir"
trap 'tui_cleanup; rm -rf "$dir"' EXIT
# The explorer writes relative names into its working folder: this one.
cd "$dir" || fail "cannot enter $dir"

if [ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import yaml' 2>/dev/null; then
    # The names of graph.node, one line, in file order; fails on bad YAML.
    yaml_nodes() {
        /usr/bin/python3 -c 'import sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
print(" ".join(str(n["name"]) for n in d["graph"]["node"]))' "$1"
    }
else
    yaml_nodes() {
        grep -q '^graph:' "$1" || return 1
        awk '/^  node:/ { f = 1; next } /^  [a-z_]+:/ { f = 0 }
             f && /^  - name: / { printf "%s%s", s, $3; s = " " } END { print "" }' "$1"
    }
fi
size_of() { wc -c < "$1" | tr -d ' '; }
cnn_nodes="conv1 relu1 pool1 conv2 cast_var bn2 relu2 gap flatten fc softmax"

start 120 30 "$NNAV_SAMPLES/cnn.onnx"
wait_ready
wait_for "node #0 of 11"

# ---- the whole graph, to the suggested name ----
keys e
wait_for "export graph main (11 nodes) to: cnn-main.yaml"
wait_for "as YAML"
keys Enter
wait_for "wrote cnn-main.yaml ("
[ -f cnn-main.yaml ] || fail "cnn-main.yaml was not written in the working folder"
size=$(size_of cnn-main.yaml)
expect_line "wrote cnn-main.yaml" "($size bytes"
expect_line "wrote cnn-main.yaml" "11 nodes, YAML)"
got=$(yaml_nodes cnn-main.yaml) || fail "cnn-main.yaml does not parse"
[ "$got" = "$cnn_nodes" ] || fail "cnn-main.yaml holds nodes '$got'"
pass "e writes the graph shown as YAML ($size bytes, as the status line says)"

# ---- the suggestion stays the plain name; Enter on it asks ----
before=$(cksum < cnn-main.yaml)
keys e
wait_for "export graph main (11 nodes) to: cnn-main.yaml"
keys Enter
wait_for "cnn-main.yaml exists: overwrite? y/n"
keys Escape
wait_for "export cancelled"
[ "$(cksum < cnn-main.yaml)" = "$before" ] || fail "Esc changed cnn-main.yaml"
[ ! -e cnn-main-2.yaml ] || fail "Esc wrote a file"
pass "the suggestion is the plain name though it exists; Enter asks, Esc writes nothing"

# ---- two marked nodes ----
keys j
wait_for "node #1 of 11"
keys Space
wait_for "marked relu1: 1 marked"
wait_for "Nodes  main  #2 of 11"          # Space steps down ...
keys Space
wait_for "marked pool1: 2 marked"
expect_line "conv1_out → relu1_out" "1✓Relu"   # ... and the rows show the mark
expect_line "relu1_out → pool1_out" "2✓MaxPool"
expect_line "Nodes" "✓2 marked"
keys j
wait_for "2 marked  node #4 of 11"        # the count stays in the status line
keys e
wait_for "export 2 marked nodes of main to: cnn-main-marked.yaml"
keys Enter
wait_for "wrote cnn-main-marked.yaml ("
expect_line "wrote cnn-main-marked.yaml" "($(size_of cnn-main-marked.yaml) bytes, 2 nodes, YAML)"
got=$(yaml_nodes cnn-main-marked.yaml) || fail "cnn-main-marked.yaml does not parse"
[ "$got" = "relu1 pool1" ] || fail "the marked export holds nodes '$got', not 'relu1 pool1'"
pass "Space marks two nodes (flag, count); e writes exactly those"

# ---- the same marks as ONNX: Tab switches the extension ----
keys e
wait_for "to: cnn-main-marked.yaml"
keys Tab
wait_for "to: cnn-main-marked.onnx"
wait_for "as ONNX"
keys Tab
wait_for "to: cnn-main-marked.yaml"
keys C-u
typ "marked.onnx"
wait_for "as ONNX"
keys Enter
wait_for "wrote marked.onnx ("
expect_line "wrote marked.onnx" "($(size_of marked.onnx) bytes, 2 nodes, ONNX)"
info=$("$NNAV_BIN" info marked.onnx 2>&1) || fail "nnav info cannot read marked.onnx: $info"
printf '%s\n' "$info" | grep -q '^format *ONNX' || fail "marked.onnx is not read as ONNX: $info"
nodes=$("$NNAV_BIN" nodes marked.onnx 2>&1) || fail "nnav nodes marked.onnx: $nodes"
[ "$(printf '%s\n' "$nodes" | wc -l)" -eq 2 ] || fail "marked.onnx holds: $nodes"
printf '%s\n' "$nodes" | grep -q 'Relu  *relu1' || fail "relu1 missing from marked.onnx: $nodes"
printf '%s\n' "$nodes" | grep -q 'MaxPool  *pool1' || fail "pool1 missing from marked.onnx: $nodes"
pass "a .onnx name writes ONNX that nnav info opens, with the two nodes"

# ---- an existing file: the question, and 'n' keeps it ----
before=$(cksum < cnn-main.yaml)
keys e C-u
typ "cnn-main.yaml"
keys Enter
wait_for "cnn-main.yaml exists: overwrite? y/n"
keys Enter                             # not an answer: the question stays
wait_for "cnn-main.yaml exists: overwrite? y/n"
keys n
wait_for "export 2 marked nodes of main to: cnn-main.yaml"   # back to the name
keys Escape
wait_for "export cancelled"
[ "$(cksum < cnn-main.yaml)" = "$before" ] || fail "'n' changed cnn-main.yaml"
pass "an existing file: overwrite? y/n; n goes back to the name and leaves it unchanged"

keys e C-u
typ "cnn-main.yaml"
keys Enter
wait_for "overwrite? y/n"
keys y
wait_for "wrote cnn-main.yaml ("
got=$(yaml_nodes cnn-main.yaml) || fail "the replaced cnn-main.yaml does not parse"
[ "$got" = "relu1 pool1" ] || fail "y did not replace cnn-main.yaml: '$got'"
pass "y replaces it"

# ---- refusals, in the status line ----
printf 'precious\n' > target.txt
ln -s target.txt link.yaml
keys e C-u
typ "link.yaml"
keys Enter
wait_for "export failed: refused to write: it is a symbolic link (nnav never writes through one): link.yaml"
no_text "overwrite?"
[ -L link.yaml ] || fail "link.yaml is no longer a symlink"
[ "$(cat target.txt)" = precious ] || fail "the symlink's target changed"
pass "a symlink is refused with the reason shown; its target is unchanged"

keys e C-u
typ "no-such-folder/x.yaml"
keys Enter
wait_for "export failed: refused to write: its folder does not exist: no-such-folder/x.yaml"
keys e C-u
typ "$NNAV_SAMPLES/cnn.onnx"
keys Enter
wait_for "it is the model being read"
no_text "overwrite?"
pass "a missing folder and the model itself are refused, the explorer carries on"

# ---- U unmarks; E takes a region ----
keys U
wait_for "unmarked 2 nodes"
no_text "✓"
keys g
wait_for "node #0 of 11"
keys E
wait_for "region of main, inputs: input"
keys C-u
typ "relu1_out"
keys Enter
wait_for "region of main, outputs: conv1_out"    # the selected node's outputs
keys C-u
typ "bn2_out"
keys Enter
wait_for "export region of main (4 nodes) to: cnn-main-region.yaml"
keys Enter
wait_for "wrote cnn-main-region.yaml ("
got=$(yaml_nodes cnn-main-region.yaml) || fail "cnn-main-region.yaml does not parse"
[ "$got" = "pool1 conv2 cast_var bn2" ] || fail "the region holds '$got'"
keys E Enter C-u
typ "bogus"
keys Enter
wait_for "region: no value named 'bogus'"
pass "E: inputs, outputs, file; an unknown name is reported"

# ---- marks from the graph view ----
keys v
wait_for "Graph view"
keys Space
wait_for "marked conv1: 1 marked"
expect_line "┌Conv" "✓┐"                 # in the box's top right corner
keys e
wait_for "export 1 marked node of main to: "
keys Escape
wait_for "export cancelled"
keys U
wait_for "unmarked 1 node"
no_text "✓"
pass "Space in the graph view marks the box's node"

quit_clean
