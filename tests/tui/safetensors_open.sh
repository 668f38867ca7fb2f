#!/usr/bin/env bash
# A safetensors file in the explorer (issue 31): the Llama-shaped model of
# tests/cli/safetensors_gen.py opens with its format, tensor count and
# params in the header, the scope tree from its tensor names, every tensor
# in the initializer pane; i shows the header's facts, the tensors of each
# dtype and __metadata__ as `nnav info` prints them; a tensor's detail
# shows its storage, first values and (m) its stats; q leaves a clean
# terminal.
. "$(dirname "$0")/tmux.bash"

dir=$NNAV_TMP/tui_safetensors.$$
rm -rf "$dir"
mkdir -p "$dir"
trap 'tui_cleanup; rm -rf "$dir"' EXIT
/usr/bin/python3 -c 'import numpy, torch' 2> /dev/null || skip "no /usr/bin/python3 with numpy and torch"
/usr/bin/python3 "$(dirname "$0")/../cli/safetensors_gen.py" "$dir" > /dev/null || fail "safetensors_gen.py failed"

start 140 35 "$dir/llama.safetensors"
wait_for "Initializers  291"
head=$(screen | head -1)
case $head in
*"nnav  llama.safetensors  safetensors  1 graph  0 nodes  291 tensors"*"21.5 k params"*) ;;
*) fail "the header: $head" ;;
esac
wait_for "▾ model 21.3kp 16.00bpw"
wait_for "▸ layers 21kp 16.00bpw"
wait_for "lm_head.weight  bfloat16[32,8]"
keys i
wait_for "model details"
wait_for "format         safetensors"
wait_for "  dtypes                         BF16 291"
wait_for "metadata (2 keys)"
wait_for "  model                          tiny-llama é"
keys Escape
wait_gone "model details"
# The initializer pane: a tensor's storage and its first values, read on
# the way (the values of every dtype are the CLI test's: safetensors.sh).
keys Tab Tab
wait_for "tensor lm_head.weight"
wait_for "storage  BF16, data bytes"
wait_for "values   {"
keys m
wait_for "stats    min "
quit_clean
pass "a safetensors file: header, scopes, tensors, details"
