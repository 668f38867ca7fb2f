#!/usr/bin/env bash
# A store of tensors in the explorer (issue 31 item 9, issue 32 item 6): a
# GGUF file of gguf_gen.py (blk.3 in Q6_K where the other blocks are Q4_K)
# and a GPTQ safetensors file of quant_gen.py open with no node list (the
# model has no nodes), the tree of scopes on the left from top to bottom
# with each scope's params and mean bits per weight, blk.3 marked as the
# same shapes as blk.0 in other types (≈0), the others identical (=0).
# Choosing a scope narrows the initializer pane to its tensors (their
# names past the scope's key path); each row says its bits per weight and
# a packed weight its logical type; the tensor's detail says its quantised
# type, bpw and K x N; i shows the model's details with the mean bpw; Tab
# never stops on the node list that has no room.
. "$(dirname "$0")/tmux.bash"

dir=$NNAV_TMP/tui_store_quant.$$
rm -rf "$dir"
mkdir -p "$dir"
trap 'tui_cleanup; rm -rf "$dir"' EXIT
/usr/bin/python3 -c 'import numpy' 2> /dev/null || skip "no /usr/bin/python3 with numpy"
/usr/bin/python3 "$(dirname "$0")/../cli/gguf_gen.py" "$dir" > /dev/null || fail "gguf_gen.py failed"

start 140 35 "$dir/llama_mixed.gguf"
wait_for "Initializers  57  total"
screen | grep -q "Nodes  " && fail "the node list is shown for a file of no nodes"
wait_for "▸ 0 ×5 590kp 5.10bpw"
wait_for "▸ 1 =0 590kp 5.10bpw"
wait_for "▸ 3 ≈0 590kp 6.58bpw"
wait_for "6.56 blk.0.ffn_down.weight  q6_K[256,512]"
wait_for "4.50 blk.0.ffn_gate.weight  q4_K[512,256]"
# The tree has the focus: down to blk.3, whose nine tensors alone are listed.
keys Down Down Down Down Down Down
wait_for "Initializers  9 in blk/3  total 474 KiB"
wait_for "6.56 ffn_down.weight  q6_K[256,512]"
wait_for "32.00 attn_norm.weight  float32[256]"
no_text "blk.0.attn_q.weight"
keys Up Up Up Up
wait_for "Initializers  54 in blk  total"
keys Up Up
wait_for "Initializers  57  total"
# Tab: the detail, then the initializers (not the hidden node list).
keys Tab
wait_for "Detail  graph"
keys Tab
wait_for "tensor blk.0.ffn_down.weight"
wait_for "  quant    q6_K  6.56 bpw"
keys i
wait_for "model details"
wait_for "bits/weight    5.35 bpw (2,378,560 bytes for 3,558,656 weights)"
wait_for "file type"
keys Escape
wait_gone "model details"
quit_clean
pass "GGUF: no node list, scopes with bpw, ≈ for other types, a scope narrows the tensors"

if /usr/bin/python3 -c 'import torch' 2> /dev/null; then
    /usr/bin/python3 "$(dirname "$0")/../cli/quant_gen.py" packed "$dir" > /dev/null || fail "quant_gen.py failed"
    start 140 35 "$dir/gptq.safetensors"
    wait_for "▸ layers 394kp 4.23bpw"
    # layers, open it, its layer 0, open it, to self_attn/q_proj.
    keys Down Down Down Down Right Down Right Down Down Down
    wait_for "Initializers  5 in model/layers/0/self_attn/q_proj"
    wait_for "4.00 qweight  int32[32,256]  int4 (GPTQ, group 128)"
    wait_for "- scales  float16[2,256]  float16 (GPTQ scales)"
    keys Tab Tab
    wait_for "tensor model.layers.0.self_attn.q_proj.qweight"
    wait_for "  quant    int4 (GPTQ, group 128)  4.00 bpw  256 x 256 = 65,536 weights"
    quit_clean
    pass "GPTQ: a scope's packed weight, its type, bpw and K x N"
else
    echo "ok - GPTQ part skipped: no torch for /usr/bin/python3"
fi
