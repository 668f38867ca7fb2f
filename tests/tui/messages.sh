#!/usr/bin/env bash
# Status-line messages are kept (issue 13, item 7): a message longer than the
# status line wraps onto the row above it until the next key, and M shows the
# last messages in full, wrapped to the overlay's width.
. "$(dirname "$0")/tmux.bash"

start 80 24 "$NNAV_SAMPLES/external.onnx"
wait_ready
# A filter for an op type of 40 words: "0 nodes of op type w01 w02 ... w40 END",
# 178 characters, more than two 80-column rows.
words=""
for i in $(seq -w 1 40); do words="$words w$i"; done
words="${words# } END"
keys f
wait_for "filter op:"
typ "$words"
keys Enter
wait_for "0 nodes of op type w01 w02"
# Two rows at the bottom: the message's start on the row above the status
# line, its continuation on the status line, cut, with the key to read it all.
row23=$(screen | sed -n 23p)
row24=$(screen | sed -n 24p)
case $row23 in *"0 nodes of op type w01 w02"*) ;; *) fail "row 23 lacks the message's start: $row23" ;; esac
case $row24 in *"M: all"*) ;; *) fail "row 24 lacks the hint to read it all: $row24" ;; esac
pass "a long message wraps onto a second row, with M named"
keys j
wait_gone "0 nodes of op type w01"
pass "and goes at the next key"

keys M
wait_for "messages: the last"
# The whole message, wrapped: every word and the end are on screen.
for i in $(seq -w 1 40); do
    screen | grep -qE "(^|[^0-9])w$i( |$)" || fail "the log lacks w$i"
done
wait_for "w40 END"
pass "M shows the long message in full"
keys Escape
wait_gone "messages: the last"

# The log keeps earlier messages too, oldest first.
keys f C-u
typ "MatMul"
keys Enter
wait_for "2 nodes of op type MatMul"
keys M
wait_for "messages: the last 2"
first=$(screen | grep -n "0 nodes of op type w01" | head -1 | cut -d: -f1)
second=$(screen | grep -n "2 nodes of op type MatMul" | head -1 | cut -d: -f1)
[ -n "$first" ] && [ -n "$second" ] && [ "$first" -lt "$second" ] \
    || fail "the log does not hold both messages, oldest first"
pass "the log holds the messages in order"
keys q
wait_gone "messages: the last"
quit_clean
