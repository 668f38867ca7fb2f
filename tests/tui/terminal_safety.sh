#!/usr/bin/env bash
# Names from the file cannot drive the terminal: a node named with an OSC
# title sequence and a colour escape shows escaped. ASCII locale and NO_COLOR
# fall back to plain glyphs. A file that cannot be opened exits 2 with the
# message on stderr, the terminal untouched. y copies through OSC 52.
. "$(dirname "$0")/tmux.bash"

dir=$NNAV_TMP/tui_safety.$$
mkdir -p "$dir"
trap 'tui_cleanup; rm -rf "$dir"' EXIT

# ModelProto{ir_version 8, opset 17, graph{node{x -> y, Relu, name
# "evil ESC]0;PWNED BEL ESC[31m red"}, input x, output y}}
printf '\010\010\102\002\020\021\072\063\012\044\012\001x\022\001y\032\026evil\033]0;PWNED\007\033[31mred\042\004Relu\022\001g\132\003\012\001x\142\003\012\001y' \
    > "$dir/evil.onnx"

start 80 24 "$dir/evil.onnx"
wait_ready
wait_for 'name evil\x1B]0;PWNED\x07\x1B[31mred'
title=$(tm display-message -p -t "$TUI_S" '#{pane_title}')
case "$title" in *PWNED*) fail "the file set the terminal title";; esac
pass "control sequences in names are shown escaped, not obeyed"

tm set-option -s set-clipboard on
keys y
wait_for "copied evil"
buf=$(tm show-buffer 2>/dev/null)
[ "$buf" = "$(printf 'evil\033]0;PWNED\007\033[31mred')" ] || fail "clipboard holds '$buf'"
pass "y copies the raw name through OSC 52 (tmux set-clipboard on)"
quit_clean

start 80 24 "$NNAV_SAMPLES/control_flow.onnx" LANG=C LC_ALL=C NO_COLOR=1
wait_ready
wait_for "- main 11"
wait_for "| 0 Constant"
keys :
typ "loop"
keys Enter v
wait_for "+Loop----"
wait_for "v"
s=$(screen)
if printf '%s' "$s" | LC_ALL=C grep -q "$(printf '[\200-\377]')"; then
    fail "non-ASCII bytes on an ASCII terminal"
fi
pass "C locale: ASCII boxes and separators only"
sgr=$(tm capture-pane -e -p -t "$TUI_S" | grep -oE $'\e\\[[0-9;]*m' | sort -u | tr '\n' ' ')
colour_re='(\[|;)(3[0-7]|4[0-7]|9[0-7]|10[0-7]|38|48)(;|m)'
printf '%s' "$sgr" | grep -qE "$colour_re" && fail "colours despite NO_COLOR: $sgr"
case "$sgr" in *"[7m"*) ;; *) fail "no reverse video in monochrome: $sgr";; esac
pass "NO_COLOR: attributes only, no colours"
quit_clean

start 80 24 "$NNAV_SAMPLES/control_flow.onnx"
wait_ready
sgr=$(tm capture-pane -e -p -t "$TUI_S" | grep -oE $'\e\\[[0-9;]*m' | sort -u | tr '\n' ' ')
printf '%s' "$sgr" | grep -qE "$colour_re" || fail "no colours without NO_COLOR: $sgr"
pass "colours when the terminal has them"
quit_clean

start 80 24 "$dir/no-such-model.onnx"
wait_for "nnav exited 2"
# The path may wrap on an 80-column screen: wait for the message itself.
wait_for "cannot open: No such file"
alt=$(tm display-message -p -t "$TUI_S" '#{alternate_on}')
[ "$alt" = 0 ] || fail "an unopenable model left the alternate screen on"
pass "an unopenable model: message and exit status 2"

printf 'not a model' > "$dir/junk.onnx"
start 80 24 "$dir/junk.onnx"
wait_for "nnav exited 2"
wait_for "this is a text file, not a model"
pass "a text file: named for what it is, exit status 2"

# ir_version 8, then a tag of wire type 7
printf '\010\010\017' > "$dir/junk.onnx"
start 80 24 "$dir/junk.onnx"
wait_for "nnav exited 2"
wait_for "invalid wire type"
pass "a malformed model: message and exit status 2"
