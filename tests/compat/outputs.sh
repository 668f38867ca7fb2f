#!/usr/bin/env bash
# outputs.sh - every command's output (text and YAML, stdout, stderr and exit
# status) on every sample, corpus and adversarial model (diff on pairs of
# them, op on every operator of the table), one file per run, so that two
# builds can be compared byte for byte. A refactor that must not
# change behaviour is proved by:
#
#   tests/compat/outputs.sh OLD_BUILD/nnav /tmp/before
#   tests/compat/outputs.sh NEW_BUILD/nnav /tmp/after
#   diff -r /tmp/before /tmp/after && echo identical
#
# Models: the build's samples (next to NNAV, in samples/), ../shared/corpus
# (beside the checkout, skipped with a word when absent) and
# tests/adversarial/cases. The runs happen in a scratch folder holding links
# named after the models, so no path of this machine reaches the outputs.
set -u
nnav=$(readlink -f "${1:?usage: outputs.sh NNAV OUTDIR}")
out=$(readlink -m "${2:?usage: outputs.sh NNAV OUTDIR}")
here=$(cd "$(dirname "$0")/../.." && pwd)
bdir=$(dirname "$nnav")
corpus="$here/../shared/corpus"
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

models=()
link() { # link NAME TARGET
    ln -s "$2" "$work/$1" && models+=("$1")
}
for f in "$bdir"/samples/*; do
    case $f in *.data) ln -s "$f" "$work/$(basename "$f")"; continue ;; esac
    [ -d "$f" ] && [ ! -f "$f/saved_model.pb" ] && continue # not a model folder
    link "sample_$(basename "$f")" "$f"
done
# external.onnx names its data file: it must sit beside it under its own name.
[ -e "$bdir/samples/external.onnx" ] && { rm -f "$work/sample_external.onnx"; ln -s "$bdir/samples/external.onnx" "$work/external.onnx"; models=("${models[@]/sample_external.onnx/external.onnx}"); }
if [ -d "$corpus" ]; then
    for f in "$corpus"/onnx/*.onnx "$corpus"/tensorflow/*; do link "corpus_$(basename "$f")" "$f"; done
else
    echo "outputs.sh: ../shared/corpus not found beside the checkout; corpus models skipped" >&2
fi
for f in "$here"/tests/adversarial/cases/*; do link "adv_$(basename "$f")" "$f"; done

runf() { # runf FILE ARGS...
    local f=$1; shift
    (cd "$work" && { "$nnav" "$@" 2>&1; echo "exit $?"; } >"$out/$f")
}
n=0
for m in "${models[@]}"; do
    adv=0; case $m in adv_*) adv=1 ;; esac
    for c in "info" "info --yaml" "tree" "tree --yaml" "nodes" "nodes --yaml" "nodes --shapes" \
             "nodes --declutter" "tensors --all" "tensors --all --constants" "tensors --all --yaml" \
             "tensors --all --constants --values 6" "tensors --all --constants --values 6 --yaml" \
             "shapes --all" "shapes --all --yaml" "cost" "cost --all --nodes" "cost --yaml" \
             "summary" "summary --yaml" "summary --declutter" "check --all" "check --all --yaml" \
             "export" "export --max-values 4 --declutter" "find a" "find op:Conv --yaml"; do
        # shellcheck disable=SC2086
        set -- $c
        cmd=$1; shift
        runf "$m.$(echo "$c" | tr ' ' '_')" "$cmd" "$m" "$@"
        n=$((n + 1))
    done
    (cd "$work" && rm -f x.onnx && { "$nnav" export "$m" -o x.onnx 2>&1; echo "exit $?"; [ -f x.onnx ] && sha256sum x.onnx; } >"$out/$m.export_onnx")
    # Every graph's nodes, and node detail for the first and last few nodes
    # of each graph (all of them on small models).
    IFS=$'\n'
    graphs=$(cd "$work" && "$nnav" tree "$m" --yaml 2>/dev/null | sed -n 's/^- path: //p' | head -40)
    k=0
    for g in $graphs; do
        gt=$k; k=$((k + 1)) # paths can be longer than a file name
        runf "$m.nodes_g$gt" nodes "$m" --graph "$g" --yaml
        cnt=$(cd "$work" && "$nnav" nodes "$m" --graph "$g" --yaml 2>/dev/null | grep -c '^- index:\|^  - index:')
        [ "$adv" = 1 ] && [ "$cnt" -gt 3 ] && cnt=3
        for ((i = 0; i < cnt; i++)); do
            if [ "$i" -ge 12 ] && [ "$i" -lt $((cnt - 4)) ]; then continue; fi
            runf "$m.node_g${gt}_$i" node "$m" "#$i" --graph "$g"
            runf "$m.node_g${gt}_${i}_yaml" node "$m" "#$i" --graph "$g" --yaml
            n=$((n + 2))
        done
    done
    unset IFS
    # What loading it would run (a checkpoint or a pickle; the others say
    # why not), and each operator it uses as the model's opset has it.
    runf "$m.scan" scan "$m"
    runf "$m.scan_yaml" scan "$m" --yaml
    [ "$adv" = 1 ] && continue
    for op in $(cd "$work" && "$nnav" info "$m" --yaml 2>/dev/null | sed -n 's/^- {op_type: \([A-Za-z0-9_]*\), .*/\1/p' | sort -u | head -60); do
        runf "$m.op_$op" op "$op" --model "$m"
        runf "$m.op_${op}_yaml" op "$op" --model "$m" --yaml
        n=$((n + 2))
    done
done
# diff: each model against the next one of the list and against itself,
# both forms (a pair of two formats is refused in words).
prev=""
for m in "${models[@]}"; do
    if [ -n "$prev" ]; then
        runf "diff.$prev.$m" diff "$prev" "$m"
        runf "diff.$prev.$m.yaml" diff "$prev" "$m" --yaml
        runf "diff.$prev.$m.nv" diff "$prev" "$m" --no-values --declutter
        n=$((n + 3))
    fi
    runf "diff.$m.self" diff "$m" "$m" --yaml
    prev=$m
done
# The operator reference, no model: every operator of the table, newest and
# at opsets before, within and past it; the list; a name it lacks.
runf "op.list" op --list
runf "op.list_yaml" op --list --yaml
runf "op.list_ml" op --list --domain ai.onnx.ml
runf "op.nosuch" op conv2
for q in $(cd "$work" && "$nnav" op --list 2>/dev/null | awk '{print $1 ":" $2}' | sort -u); do
    f=${q//[^A-Za-z0-9_.]/_}
    runf "op.$f" op "$q"
    runf "op.${f}_yaml" op "$q" --yaml
    runf "op.${f}_o5" op "$q" --opset 5
    runf "op.${f}_o99_yaml" op "$q" --opset 99 --yaml
    n=$((n + 4))
done
echo "outputs.sh: ${#models[@]} models, $n runs into $out"
