#!/usr/bin/env bash
# A PyTorch checkpoint whose pickle would run a shell command (issue 19,
# item 4): the explorer's header says DANGER with the call named, in the
# error colour, from the open on; the status line says it first; i shows
# the pickle's globals as `nnav info` lists them; nothing runs (the file the
# command would touch stays absent). A clean checkpoint has no banner.
# The hostile file is made byte by byte (tests/cli/pt_hostile.py: no torch).
. "$(dirname "$0")/tmux.bash"

dir=$NNAV_TMP/tui_pt_banner.$$
rm -rf "$dir"
mkdir -p "$dir"
trap 'tui_cleanup; rm -rf "$dir"' EXIT
command -v python3 > /dev/null || skip "no python3 to write the hostile checkpoint"
# The command's file: a short path of its own, so the screen does not
# depend on where the checkout is.
mark=/tmp/nnav-pt-banner-$$
rm -f "$mark"
python3 "$(dirname "$0")/../cli/pt_hostile.py" "$dir" "$mark" || fail "pt_hostile.py failed"

start 140 30 "$dir/system.pt"
wait_for "Initializers"
wait_for "DANGER: torch.load would run 1 call: posix.system('touch $mark')"
head=$(screen | head -1)
case $head in
*"nnav  system.pt  PyTorch checkpoint  DANGER: torch.load would run 1 call"*) ;;
*) fail "the header is not the banner: $head" ;;
esac
# The error colour: tmux's capture with attributes shows the banner's cells
# bold (the monochrome mark of R_ERROR as of every error line).
tm capture-pane -p -e -t "$TUI_S" | head -1 | grep -q $'\e\\[1m\|\e\\[[0-9;]*;1m\|\e\\[1;' ||
    fail "the banner is not bold"
# The status line says it first (the message log keeps it).
screen | tail -3 | grep -qF "DANGER: torch.load would run 1 call" || fail "no DANGER in the status line"
# i: the model details, with the table nnav info prints.
keys i
wait_for "model details"
for _ in 1 2 3 4 5 6 7 8 9 10 11 12; do keys j; done
wait_for "posix.system                                 NO       WOULD RUN posix.system('touch"
wait_for "  posix.system('touch $mark')"
wait_for "nnav ran none of them."
keys Escape
quit_clean
[ -e "$mark" ] && fail "$mark exists: a pickle's command ran"
pass "hostile checkpoint: banner, status line, details"

# Code in a legacy checkpoint's magic-number pickle (protocol 0, issue 29):
# the explorer reads the five pickles `nnav scan` reads and says DANGER.
start 140 30 "$dir/legacy_p0_magic.pt"
wait_for "Initializers"
wait_for "DANGER: torch.load would run 1 call: posix.system('touch $mark')"
quit_clean
pass "legacy checkpoint with code in its magic pickle: banner"

# Escapes in a global's module and a key: shown escaped, never obeyed.
start 140 30 "$dir/escapes.pt"
wait_for "Initializers"
wait_for 'DANGER: torch.load would run 1 call: posix\x1B]0;PWNED\x07\x1B[31m.system'
title=$(tm display-message -p -t "$TUI_S" '#{pane_title}')
case "$title" in *PWNED*) fail "the file set the terminal title" ;; esac
tm capture-pane -p -t "$TUI_S" | LC_ALL=C grep -q $'\e' && fail "an ESC byte reached the pane"
quit_clean
[ -e "$mark" ] && fail "$mark exists: a pickle's command ran"
pass "escapes in a pickle's names: shown escaped"

start 140 30 "$dir/clean.pt"
wait_for "Initializers"
wait_for "PyTorch checkpoint"
no_text "DANGER"
no_text "WARNING"
quit_clean
pass "clean checkpoint: no banner"
