# tmux.bash - sourced by the tests/tui/*.sh scripts: drive the real binary in
# a detached tmux (no tty needed) on a private socket, and assert on the text
# of the screen. Waits poll the screen until the text shows or a timeout
# passes; nothing sleeps a fixed time hoping the program is done.
set -u

: "${NNAV_BIN:?NNAV_BIN is not set (run through ctest)}"
: "${NNAV_SAMPLES:?NNAV_SAMPLES is not set}"
NNAV_TMP=${NNAV_TMP:-${TMPDIR:-/tmp}}
TUI_SOCK=nnavtest$$
TUI_TIMEOUT=${TUI_TIMEOUT:-20}
TUI_NAME=$(basename "$0" .sh)
TUI_RUN=0
TUI_S=nnav0

command -v tmux >/dev/null || { echo "SKIP: tmux is not installed"; exit 77; }

tm() { tmux -L "$TUI_SOCK" -f /dev/null "$@"; }
tui_cleanup() { tm kill-server >/dev/null 2>&1 || true; }
trap tui_cleanup EXIT

skip() { echo "SKIP: $*"; exit 77; }
# need_onnx_python [TAIL]: $py becomes a python3 that imports onnx (Debian's
# /usr/bin/python3 first), else the script is skipped saying so (and TAIL).
need_onnx_python() {
    py=""
    local c
    for c in /usr/bin/python3 python3; do
        if "$c" -c 'import onnx' 2> /dev/null; then py=$c; return 0; fi
    done
    skip "no python3 with the onnx package${1:-}"
}
# corpus_model PATH: what follows reads PATH from the corpus; the samples
# entry ends here (passed), the corpus entry skips if PATH is absent.
corpus_model() {
    [ -e "$1" ] && return 0
    if [ "${NNAV_PART:-all}" = samples ]; then
        echo "ok - the rest reads ../shared/corpus: the _corpus entry runs it"
        exit 0
    fi
    skip "corpus model $1 is absent"
}
# -J joins lines the terminal wrapped (a long path in a message after exit).
screen() { tm capture-pane -p -J -t "$TUI_S" 2>/dev/null; }
fail() {
    echo "FAIL [$TUI_NAME]: $*"
    echo "--- screen ---"
    screen
    echo "--------------"
    exit 1
}
pass() { echo "ok - $*"; }

# session W H ENVS CMD: CMD (shell words) under env LANG=C.UTF-8 ENVS in a
# fresh session; the shell reports its exit status on the screen when it ends.
session() {
    local w=$1 h=$2 envs="LANG=C.UTF-8 LC_ALL=C.UTF-8 $3" cmd=$4
    TUI_RUN=$((TUI_RUN + 1))
    TUI_S=nnav$TUI_RUN
    tm new-session -d -s "$TUI_S" -x "$w" -y "$h" \
        "env $envs $cmd; echo \"nnav exited \$?\"; sleep 3600" \
        || fail "tmux new-session failed"
    tm set-option -t "$TUI_S" remain-on-exit on >/dev/null
}

# start W H MODEL [VAR=value...]: nnav MODEL in a fresh session.
start() {
    local w=$1 h=$2 model=$3
    shift 3
    session "$w" "$h" "$*" "$(printf %q "$NNAV_BIN") $(printf %q "$model")"
}

# start_args W H ARGS...: nnav ARGS... (two models, a command) in a fresh session.
start_args() {
    local w=$1 h=$2 args="" a
    shift 2
    for a in "$@"; do args="$args $(printf %q "$a")"; done
    session "$w" "$h" "" "$(printf %q "$NNAV_BIN")$args"
}

keys() { tm send-keys -t "$TUI_S" "$@"; }
# type TEXT: literal characters
typ() { tm send-keys -t "$TUI_S" -l -- "$1"; }

# wait_for TEXT [SECONDS]: until the screen holds TEXT (fixed string).
wait_for() {
    local text=$1 t=${2:-$TUI_TIMEOUT} i=0
    while [ "$i" -lt $((t * 20)) ]; do
        screen | grep -qF -- "$text" && return 0
        sleep 0.05
        i=$((i + 1))
    done
    fail "timed out waiting for '$text'"
}

# wait_gone TEXT: until the screen no longer holds TEXT.
wait_gone() {
    local text=$1 t=${2:-$TUI_TIMEOUT} i=0
    while [ "$i" -lt $((t * 20)) ]; do
        screen | grep -qF -- "$text" || return 0
        sleep 0.05
        i=$((i + 1))
    done
    fail "timed out waiting for '$text' to go"
}

# line_with TEXT: the first screen line holding TEXT.
line_with() { screen | grep -F -m1 -- "$1"; }

# expect_line TEXT WANT: the line holding TEXT also holds WANT.
expect_line() {
    line_with "$1" | grep -qF -- "$2" || fail "the line with '$1' lacks '$2'"
}

# no_text TEXT: the screen must not hold TEXT now.
no_text() { screen | grep -qF -- "$1" && fail "unexpected '$1' on screen"; return 0; }

# The explorer is up: all four panes and the status line.
wait_ready() {
    wait_for "Graphs"
    wait_for "Nodes"
    wait_for "Detail"
    wait_for "Initializers"
    wait_for "?:help"
}

# terminal_clean: after nnav ended, the terminal is back to normal.
terminal_clean() {
    local alt cur mouse
    alt=$(tm display-message -p -t "$TUI_S" '#{alternate_on}')
    cur=$(tm display-message -p -t "$TUI_S" '#{cursor_flag}')
    mouse=$(tm display-message -p -t "$TUI_S" '#{mouse_any_flag}')
    [ "$alt" = 0 ] || fail "still on the alternate screen after quitting"
    [ "$cur" = 1 ] || fail "the cursor is still hidden after quitting"
    [ "$mouse" = 0 ] || fail "mouse reporting still on after quitting"
    no_text "Initializers"
}

# quit_clean: q ends nnav with status 0 and hands back a normal terminal.
quit_clean() {
    keys q
    wait_for "nnav exited 0"
    terminal_clean
    pass "quit with a clean terminal"
}
