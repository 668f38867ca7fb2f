#!/usr/bin/env bash
# The explorer shows the parameters as the CLI counts them (issue 30, items
# 1 and 2), from the same functions: the graph's detail gives buffers beside
# the params (cnn.onnx's BatchNormalization mean and var: 64), and on a torch
# export whose BatchNorm was folded into the Conv (torch.onnx's eval-mode
# default; python3-torch writes it) says so, as summary and info do.
. "$(dirname "$0")/tmux.bash"
trap 'tui_cleanup' EXIT
start 160 40 "$NNAV_SAMPLES/cnn.onnx"
wait_for "Initializers"
keys BTab
wait_for "graph main  main graph"
expect_line "cost " "5.45 k params  64 buffers"
quit_clean
pass "the graph's detail: params and buffers"

/usr/bin/python3 -c 'import torch' 2> /dev/null || skip "no /usr/bin/python3 with torch (python3-torch) to export a folded BatchNorm"
dir=$NNAV_TMP/tui_params_detail.$$
rm -rf "$dir"; mkdir -p "$dir"
trap 'tui_cleanup; rm -rf "$dir"' EXIT
/usr/bin/python3 - "$dir/folded.onnx" <<'PY' 2> "$dir/err" || fail "torch export: $(tail -2 "$dir/err")"
import sys, torch
torch.manual_seed(0)
net = torch.nn.Sequential(torch.nn.Conv2d(3, 8, 3, bias=False), torch.nn.BatchNorm2d(8), torch.nn.ReLU(),
                          torch.nn.Conv2d(8, 4, 3), torch.nn.BatchNorm2d(4), torch.nn.Flatten(), torch.nn.Linear(4 * 4 * 4, 2)).eval()
torch.onnx.export(net, torch.randn(1, 3, 8, 8), sys.argv[1], opset_version=13)
PY
start 200 40 "$dir/folded.onnx"
wait_for "Initializers"
keys BTab
wait_for "graph main  main graph"
wait_for "BatchNorm folded into the preceding Conv by the exporter (2 Conv layers): counts are the file's"
quit_clean
pass "a folded BatchNorm is said in the graph's detail"
