#!/usr/bin/env bash
# A terminal that cannot move its cursor (TERM=dumb) gets a message that
# says so and points at `nnav info`, and exit status 1, not a blank screen
# and 0. A hostile TERM value is shown escaped.
. "$(dirname "$0")/tmux.bash"

start 100 24 "$NNAV_SAMPLES/cnn.onnx" TERM=dumb
wait_for "nnav exited 1"
wait_for "the explorer needs a terminal that can move its cursor, and TERM=dumb cannot"
wait_for "try 'nnav info MODEL'"
pass "TERM=dumb: why, what to do, exit 1"

# The usual terminal still opens.
start 100 24 "$NNAV_SAMPLES/cnn.onnx"
wait_ready
quit_clean
