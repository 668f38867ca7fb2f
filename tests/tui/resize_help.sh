#!/usr/bin/env bash
# SIGWINCH relayouts at once: 80x24 -> 60x20 -> 80x24, and a too-small
# terminal says so; ? shows the help from the key table; q closes it.
. "$(dirname "$0")/tmux.bash"

start_args 80 24 --no-declutter "$NNAV_SAMPLES/control_flow.onnx"
wait_ready
[ "$(screen | wc -l)" -eq 24 ] || fail "not 24 rows"

tm resize-window -t "$TUI_S" -x 60 -y 20
wait_for "Initializers"
sleep 0.2
s=$(screen)
[ "$(printf '%s\n' "$s" | wc -l)" -eq 20 ] || fail "not 20 rows after resize"
for want in Graphs Nodes Detail Initializers "?:help"; do
    printf '%s\n' "$s" | grep -qF "$want" || fail "missing '$want' at 60x20"
done
while IFS= read -r line; do
    [ "$(LC_ALL=C.UTF-8 bash -c 'printf %s "${#1}"' _ "$line")" -le 60 ] ||
        fail "a line is wider than 60 columns: $line"
done <<<"$s"
[ "$(printf '%s\n' "$s" | tail -1 | grep -c '?:help')" -eq 1 ] || fail "status line is not the last row"
pass "60x20: all panes and the status line"

tm resize-window -t "$TUI_S" -x 30 -y 10
wait_for "too small"
tm resize-window -t "$TUI_S" -x 80 -y 24
wait_gone "too small"
wait_ready
[ "$(screen | wc -l)" -eq 24 ] || fail "not 24 rows after growing back"
expect_line "nnav " "control_flow.onnx"
pass "too small, then back to 80x24"

keys j j
wait_for "node #2 of 11"
keys '?'
wait_for "nnav help: keys"
wait_for "Move"
wait_for "Up, k"
wait_for "Down, j"
keys G
wait_for "quit"
wait_for "Quit"
pass "? shows help generated from the key table"
keys q
wait_gone "nnav help: keys"
wait_for "node #2 of 11"
pass "q closes the help, not the program"
quit_clean
