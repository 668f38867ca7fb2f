#!/usr/bin/env bash
# `/` searches every graph as you type and Enter crosses into the nested
# If body that holds the hit; n walks hits; `:` jumps by graph path and index.
. "$(dirname "$0")/tmux.bash"

start 80 24 "$NNAV_SAMPLES/control_flow.onnx"
wait_ready
wait_for "loop.body"

keys /
typ "then_add"
wait_for "/then_add"
wait_for "hit 1/1"
keys Enter
wait_for "Nodes  body_if.then_branch"
wait_for "name then_add"
wait_for "body_if.then_branch"
expect_line "Nodes " "#1 of 2"
pass "search jumps into the If body inside the Loop body"

keys BSpace
wait_for "Nodes  main"
pass "back returns to where the search started"

keys /
typ "op:add"
wait_for "/op:add"
wait_for "hit 1/"
keys Enter
wait_for "Add  ai.onnx"
keys n
wait_for "hit 2/"
keys N
wait_for "hit 1/"
pass "op: search and n/N"

keys /
typ "zzz_no_such"
wait_for "/zzz_no_such"
wait_for "no hits"
keys Escape
wait_gone "/zzz"
pass "no hits; Escape closes the search line"

keys :
typ "/loop/body"
keys Enter
wait_for "Nodes  loop.body"
keys :
typ "3"
keys Enter
wait_for "name body_if"
wait_for "node #3 of 5"
pass ": jumps by graph path and by node index"

keys :
typ "@AddLeakyRelu"
keys Enter
wait_for "Nodes  @AddLeakyRelu"
pass ": jumps to a function body"

quit_clean
