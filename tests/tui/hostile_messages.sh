#!/usr/bin/env bash
# Messages that quote something hostile reach the terminal escaped: a model
# path given on the command line with a title-setting OSC, a colour and a C1
# CSI (missing, and present but malformed); an error whose field path quotes
# a hostile attribute key; and, inside the explorer, the status line refusing
# external data whose location holds the same. Each time the pane title is
# untouched, no colour reaches the screen from the name, and the terminal is
# left in a normal state. (terminal_safety.sh covers escape sequences in
# names in the panes; here also every other kind of hostile name.)
. "$(dirname "$0")/tmux.bash"
: "${NNAV_SRC:?NNAV_SRC is not set}"

dir=$NNAV_TMP/tui_hostile.$$
mkdir -p "$dir"
trap 'tui_cleanup; rm -rf "$dir"' EXIT
cases=$NNAV_SRC/tests/adversarial/cases
E=$'\e]0;PWNED\a\e[31mred\xc2\x9b'
SHOWN='\x1B]0;PWNED\x07\x1B[31mred\u{009B}'

# start_arg W H FILE: nnav on the path held in FILE, so that no shell quoting
# stands between the hostile bytes and argv.
start_arg() {
    local w=$1 h=$2 argfile=$3
    TUI_RUN=$((TUI_RUN + 1))
    TUI_S=nnav$TUI_RUN
    cat > "$dir/run$TUI_RUN" << EOF
#!/bin/sh
exec env LANG=C.UTF-8 LC_ALL=C.UTF-8 "$NNAV_BIN" "\$(cat "$argfile")"
EOF
    chmod +x "$dir/run$TUI_RUN"
    tm new-session -d -s "$TUI_S" -x "$w" -y "$h" \
        "$dir/run$TUI_RUN; echo \"nnav exited \$?\"; sleep 3600" || fail "tmux new-session failed"
    tm set-option -t "$TUI_S" remain-on-exit on > /dev/null
}

# not_obeyed [plain]: the title was not set; on a plain message (no
# explorer, which colours its own errors red) no colour reached the screen.
not_obeyed() {
    local title sgr
    title=$(tm display-message -p -t "$TUI_S" '#{pane_title}')
    case "$title" in *PWNED*) fail "the message set the terminal title";; esac
    [ "${1:-}" = plain ] || return 0
    sgr=$(tm capture-pane -e -p -t "$TUI_S" | grep -oE $'\e\\[[0-9;]*m' | sort -u | tr '\n' ' ')
    case "$sgr" in *"[31m"*) fail "the name's colour reached the screen: $sgr";; esac
    return 0
}

printf '%s' "$dir/missing$E.onnx" > "$dir/arg.missing"
start_arg 100 24 "$dir/arg.missing"
wait_for "nnav exited 2"
wait_for "missing$SHOWN.onnx: cannot open"
not_obeyed plain
terminal_clean
pass "a missing model with a hostile name: the path is escaped on stderr"

cp "$cases/wiretype6.onnx" "$dir/bad$E.onnx"
printf '%s' "$dir/bad$E.onnx" > "$dir/arg.bad"
start_arg 100 24 "$dir/arg.bad"
wait_for "nnav exited 2"
wait_for "bad$SHOWN.onnx: field 9 has invalid wire type 6 at offset 2"
not_obeyed plain
pass "a malformed model with a hostile name: path escaped, offset named"

printf '%s' "$cases/tf_hostile_attr_error.pb" > "$dir/arg.attr"
start_arg 200 24 "$dir/arg.attr"
wait_for "nnav exited 2"
wait_for 'node[1].attr["osc\x1B]0;PWNED\x07titlebidi\u{202E}evil\u{2066}x\u{2069}"].i: field 3 (i)'
not_obeyed plain
pass "an error whose field path quotes a hostile key: escaped once"

# Every kind of hostile name in the panes (terminal_safety.sh has escape
# sequences; here also NUL, bytes that are not UTF-8, C1 controls, bidi
# overrides): all escaped, and what the name would do is not done. Wide
# enough for the last row's output after the type column; the detail's
# type line quotes the hostile op and node names in its reason.
printf '%s' "$cases/names_hostile.onnx" > "$dir/arg.names"
start_arg 240 40 "$dir/arg.names"
wait_ready
wait_for 'nul\x00byte_node'
wait_for 'bad\xFF\xFEutf8_node'
wait_for 'c1csi\u{009B}31m_node'
wait_for 'bidi\u{202E}evil\u{2066}x\u{2069}_out'
wait_for 'del\x7Fcr\rlf\ntab\tbs\x08_out'
wait_for 'unknown: osc\x1B]0;PWNED\x07title (node "osc\x1B]0;PWNED\x07title_node")'
s=$(tm capture-pane -p -t "$TUI_S")
if printf '%s' "$s" | LC_ALL=C grep -q $'\302[\200-\237]\|\342\200[\252-\256]\|\342\201[\246-\251]'; then
    fail "a raw C1 or bidi control on the screen"
fi
not_obeyed
pass "NUL, non-UTF-8, C1 and bidi names in the panes: escaped"
quit_clean

cp "$cases/ext_hostile_location.onnx" "$dir/ext.onnx"
printf '%s' "$dir/ext.onnx" > "$dir/arg.ext"
start_arg 200 30 "$dir/arg.ext"
wait_ready
keys Tab Tab
wait_for "tensor 1/1"
wait_for 'external osc\x1B]0;PWNED\x07titlec1csi\u{009B}31m.bin'
keys m
wait_for 'min/max/mean: external data "osc\x1B]0;PWNED\x07titlec1csi\u{009B}31m.bin" refused'
not_obeyed
pass "the status line refusing hostile external data: escaped"
quit_clean
