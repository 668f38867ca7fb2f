#!/usr/bin/env bash
# `:` takes whatever the rest of nnav prints for a place: a node name that
# lives only in a nested body (crossing into it, as `/` does), the tree's
# dotted body label, a graph path without its leading slash, `main`, #N and N
# counted from 0 like the node list and the status line; a name held by
# several graphs goes to the first and says how many have it; a mistyped
# name gets the closest node names (issue 32 item 1).
. "$(dirname "$0")/tmux.bash"

start 100 24 "$NNAV_SAMPLES/control_flow.onnx"
wait_ready
wait_for "loop.body"
wait_for "node #0 of 11"
row_is() { screen | grep -qE -- "$1" || fail "no node list row like '$1'"; }
row_is ' 0 +Constant +const_scale'
pass "the node list and the status line both count from 0"

keys :
typ "then_add"
keys Enter
wait_for "Nodes  body_if.then_branch"
wait_for "name then_add"
wait_for "main › loop.body › body_if.then_branch"
wait_for "node #1 of 2"
pass "a node only in an If body inside the Loop body, typed from the main graph"

keys BSpace
wait_for "Nodes  main"
pass "back returns to where : began"

keys :
typ "body_if.else_branch"
keys Enter
wait_for "Nodes  body_if.else_branch"
wait_for "else_neg"
pass "the tree's dotted body label"

keys :
typ "loop/body"
keys Enter
wait_for "Nodes  loop.body"
keys :
typ "#3"
keys Enter
wait_for "name body_if"
wait_for "node #3 of 5"
row_is '(^|[ │])3 +If +body_if'
keys :
typ "1"
keys Enter
wait_for "name body_sum"
wait_for "node #1 of 5"
pass "a graph path without its slash; #3 and 1 are the rows numbered 3 and 1"

keys :
typ "#5"
keys Enter
wait_for "no node #5: this graph's nodes are #0 to #4"
keys :
typ "main"
keys Enter
wait_for "Nodes  main"
keys :
typ "zzz_nowhere"
keys Enter
wait_for "no node, value or graph 'zzz_nowhere' in the model"
no_text "did you mean"
pass "main, and what names nothing is said"
keys :
typ "then_ad"
keys Enter
wait_for "no node, value or graph 'then_ad' in the model (did you mean 'then_add'?)"
pass "a mistyped node name: the closest node name in the model"
quit_clean

start 120 24 "$NNAV_SAMPLES/tf_saved_model"
wait_ready
wait_for "Nodes  main"
keys :
typ "Identity"
keys Enter
wait_for "name Identity"
wait_for "the first of 3 graphs with a node of that name"
no_text "Nodes  main"
pass "a name in several functions: the first, and how many have it"
quit_clean
