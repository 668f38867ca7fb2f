#!/usr/bin/env bash
# Ctrl-C (SIGINT) and SIGTERM end the explorer at once with the terminal
# restored: no alternate screen, cursor shown, mouse reporting off.
. "$(dirname "$0")/tmux.bash"

start 80 24 "$NNAV_SAMPLES/cnn.onnx"
wait_ready
keys j
wait_for "node #1 of 11"
keys C-c
wait_for "nnav exited 130"
terminal_clean
pass "Ctrl-C: exit 130, terminal restored"

start 80 24 "$NNAV_SAMPLES/cnn.onnx"
wait_ready
shell=$(tm display-message -p -t "$TUI_S" '#{pane_pid}')
pid=""
for _ in $(seq 100); do
    pid=$(pgrep -P "$shell" | head -1)
    [ -n "$pid" ] && break
    sleep 0.05
done
[ -n "$pid" ] || fail "cannot find the nnav process under the pane's shell $shell"
kill -TERM "$pid"
wait_for "nnav exited 143"
terminal_clean
pass "SIGTERM: exit 143, terminal restored"

start 80 24 "$NNAV_SAMPLES/cnn.onnx"
wait_ready
keys e
wait_for "export graph main (11 nodes) to: "
keys Escape
wait_for "export cancelled"
keys v
wait_for "Graph view"
keys y
wait_for "copied conv1"
pass "Esc leaves the export prompt; y works in the graph view"
quit_clean
