#!/usr/bin/env bash
# Every corpus ONNX model opens in the explorer and quits cleanly; the two If
# bodies of hey_jarvis sit under their owner in the tree and can be entered.
. "$(dirname "$0")/tmux.bash"

dir=${NNAV_CORPUS:-}/onnx
[ -d "$dir" ] || skip "corpus directory $dir is absent"
n=0
for model in "$dir"/*.onnx; do
    start 80 24 "$model"
    wait_ready
    expect_line "nnav " "$(basename "$model" | cut -c1-20)"
    quit_clean >/dev/null
    n=$((n + 1))
done
pass "$n corpus models open and quit cleanly"

model=$dir/hey_jarvis_v0.1.onnx
[ -f "$model" ] || skip "corpus model $model is absent"
start 120 30 "$model"
wait_ready
wait_for "If_32.then_branch"
wait_for "If_32.else_branch"
keys BTab
wait_for "graph 1/3"
keys j
wait_for "graph 2/3"
wait_for "Nodes  If_32.then_branch"
wait_for "graph If_32.then_branch"
keys j
wait_for "Nodes  If_32.else_branch"
keys h
wait_for "graph 1/3"
keys h
wait_for "graph 1/1"
no_text "If_32.then_branch 29"
keys l
wait_for "If_32.then_branch 29"
pass "hey_jarvis: both If bodies under their owner; collapse and expand"
quit_clean
