#!/usr/bin/env bash
# The adversarial regression suite: one hostile model file per case
# (tests/adversarial/cases/, written by tests/adversarial/make_cases.py; the
# big ones are made here, at test time), what each must do in
# tests/adversarial/expect.txt. Every case is run through every command
# (info, tree, nodes, node, find, tensors --values, info --yaml, export to
# YAML on stdout and in a file, and to ONNX, shapes, cost, check, summary,
# scan) with a small stack, and each
# run must:
#   - exit 0, 1 or 2 within its time limit (no crash, no hang);
#   - print nothing raw: no byte below 0x20 but \n, no DEL, no C1 control
#     (U+0080-U+009F), in stdout or stderr; no bidi control in a table or on
#     stderr; only valid UTF-8;
#   - leave no sanitizer report on stderr (CI runs this under ASan+UBSan).
# Then each line of expect.txt pins a case's status and message.
set -u
. "$(dirname "$0")/lib.bash"
A=$NNAV_SRC/tests/adversarial
T=$NNAV_TMP/adversarial
rm -rf "$T"
mkdir -p "$T"
OUT=$T/last.out # our own: the other CLI scripts share lib.bash's
ERR=$T/last.err
W=$T/models     # the cases, copied, with external data laid out beside them
R=$T/runs       # stdout, stderr and status of every (case, command)
X=$T/export     # export targets
mkdir -p "$W" "$R" "$X"
XFAILS=0

# ---- the committed cases are what the generator writes ----
if command -v python3 > /dev/null; then
    python3 "$A/make_cases.py" "$T/regen" > /dev/null
    CHECKS=$((CHECKS + 1))
    diff -r "$A/cases" "$T/regen" > "$T/regen.diff" ||
        fail "tests/adversarial/cases differ from make_cases.py's output: $(head -c 300 "$T/regen.diff")"
    python3 "$A/make_cases.py" --big "$W" > /dev/null
else
    echo "note: no python3: the big cases are skipped and the committed ones not regenerated"
fi
cp "$A"/cases/* "$W"/

# ---- external data: what the ext_* cases name, beside them ----
# data.bin holds float32 1, 2, 3, 4 and zeros; secret.bin sits outside the
# model's folder; link.bin and linkdir are symbolic links; hard.bin is a hard
# link to a file elsewhere; fifo.bin a named pipe; sub a folder.
mkdir -p "$W/sub"
{ printf '\000\000\200\077\000\000\000\100\000\000\100\100\000\000\200\100'; head -c 48 /dev/zero; } > "$W/data.bin"
cp "$W/data.bin" "$W/sub/data.bin"
echo secret > "$T/secret.bin"
ln -s data.bin "$W/link.bin"
ln -s sub "$W/linkdir"
cp "$W/data.bin" "$T/elsewhere.bin"
ln "$T/elsewhere.bin" "$W/hard.bin"
mkfifo "$W/fifo.bin"

# ---- limits for every run ----
# A small stack: nesting must cost heap, not stack. A bound on address space
# where the build allows one (ASan reserves terabytes of shadow, so not
# under the sanitizers): a terabyte described by a splat is never allocated.
# The pickles (pt_*, issue 29) are held tighter: 30 s, and 1 GB of address
# space, as a user's own run of a hostile checkpoint would be.
LIMITS="ulimit -s 256"
PT_LIMITS=$LIMITS
if { (ulimit -v 4000000 && exec "$NNAV_BIN" --version) > /dev/null 2>&1; } 2> /dev/null; then
    LIMITS="$LIMITS; ulimit -v 4000000"
    PT_LIMITS="$PT_LIMITS; ulimit -v 1000000"
else
    echo "note: no address-space limit (a sanitizer build): the splat case is held to its time limit only"
fi

# run NAME ACTION: one command on one case; keeps RC, OUT and ERR under $R.
run() {
    local name=$1 action=$2 f=$W/$1 args
    case $action in
        info) args=(info "$f") ;;
        infoyaml) args=(info "$f" --yaml) ;;
        infoverbose) args=(info "$f" --verbose) ;;
        tree) args=(tree "$f") ;;
        nodes) args=(nodes "$f") ;;
        node0) args=(node "$f" '#0') ;;
        find) args=(find "$f" e) ;;
        values) args=(tensors "$f" --all --constants --values 4) ;;
        export) args=(export "$f" -o "$X/$name.yaml") ;;
        yaml) args=(export "$f") ;;
        exportonnx) args=(export "$f" --format onnx -o "$X/$name.onnx") ;;
        shapes) args=(shapes "$f" --all) ;;
        cost) args=(cost "$f" --all --nodes) ;;
        check) args=(check "$f" --all --yaml) ;;
        summary) args=(summary "$f") ;;
        summaryyaml) args=(summary "$f" --yaml --declutter) ;;
        scan) args=(scan "$f") ;;
        *) echo "unknown action $action"; return 1 ;;
    esac
    local lim=$LIMITS secs=120
    case $name in pt_*) lim=$PT_LIMITS secs=30 ;; esac
    (eval "$lim"; exec timeout $secs "$NNAV_BIN" "${args[@]}") > "$R/$name.$action.out" 2> "$R/$name.$action.err"
    echo $? > "$R/$name.$action.rc"
}

# clean FILE WHAT [tables]: FILE holds nothing a terminal would act on.
clean() {
    local f=$1 what=$2
    if [ "$(tr -d '\000' < "$f" | wc -c)" != "$(wc -c < "$f")" ]; then
        fail "$what: a NUL byte"
    elif LC_ALL=C grep -q $'[\001-\011\013-\037\177]' "$f"; then
        fail "$what: a raw control byte: $(LC_ALL=C grep -m1 -n $'[\001-\011\013-\037\177]' "$f" | cat -vT | head -c 200)"
    elif LC_ALL=C grep -q $'\302[\200-\237]' "$f"; then
        fail "$what: a raw C1 control"
    elif [ "${3:-}" = tables ] && LC_ALL=C grep -q $'\342\200[\252-\256]\|\342\201[\246-\251]' "$f"; then
        fail "$what: a raw bidi control"
    elif command -v iconv > /dev/null && ! iconv -f UTF-8 -t UTF-8 < "$f" > /dev/null 2>&1; then
        fail "$what: not valid UTF-8"
    fi
}

SAN_RE='runtime error|==[0-9]+==ERROR|AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer'
ACTIONS="info infoyaml tree nodes node0 find values export exportonnx yaml shapes cost check summary summaryyaml scan"
for f in "$W"/*.onnx "$W"/*.pb "$W"/*.pt "$W"/*.pkl "$W"/*.safetensors "$W"/*.gguf; do
    name=$(basename "$f")
    for action in $ACTIONS; do
        # A million nodes listed or exported is a benchmark, not a case.
        case $name.$action in empty_nodes_*.nodes | empty_nodes_*.export* | empty_nodes_*.yaml | empty_nodes_*.shapes | empty_nodes_*.cost | empty_nodes_*.summary*) continue ;; esac
        run "$name" "$action"
        CHECKS=$((CHECKS + 1))
        rc=$(cat "$R/$name.$action.rc")
        case $rc in
            0 | 1 | 2) ;;
            124) fail "$name $action: timed out" ;;
            *) fail "$name $action: exit $rc"; sed 's/^/  stderr: /' "$R/$name.$action.err" | head -5 ;;
        esac
        if grep -qE "$SAN_RE" "$R/$name.$action.err"; then
            fail "$name $action: sanitizer report"
            grep -m3 -E "$SAN_RE" "$R/$name.$action.err" | sed 's/^/  /'
        fi
        case $action in infoyaml | export* | yaml | check | summaryyaml) tables= ;; *) tables=tables ;; esac
        clean "$R/$name.$action.out" "$name $action stdout" $tables
        clean "$R/$name.$action.err" "$name $action stderr" tables
    done
done
# What export wrote is clean too, and a refused export leaves nothing.
for f in "$X"/*; do
    [ -e "$f" ] || continue
    case $f in *.yaml) clean "$f" "exported $(basename "$f")" ;; esac
done
ls -A "$X" | grep -q '^\.nnav-' && fail "an export left a temporary file"

# ---- expectations ----
# NAME ACTION STATUS REGEX: STATUS as a number, or xfail:N for a known bug
# (reported, not failed; XPASS says the bug is gone). REGEX is an extended
# regular expression that stdout+stderr must match ("-": none).
while read -r name action status re; do
    case $name in '' | '#'*) continue ;; esac
    CHECKS=$((CHECKS + 1))
    # An action not in ACTIONS (infoverbose) runs for the cases that ask it.
    if [ ! -e "$R/$name.$action.rc" ] && [ -e "$W/$name" ]; then
        run "$name" "$action"
    fi
    if [ ! -e "$R/$name.$action.rc" ]; then
        if [ -e "$W/$name" ] || [ -e "$A/cases/$name" ]; then
            fail "expect.txt: no run of $name $action"
        else
            echo "SKIP: $name (not generated here)"
        fi
        continue
    fi
    rc=$(cat "$R/$name.$action.rc")
    xfail=0
    case $status in xfail:*) xfail=1; status=${status#xfail:} ;; esac
    ok=1
    [ "$rc" = "$status" ] || ok=0
    if [ "$re" != "-" ] && ! cat "$R/$name.$action.out" "$R/$name.$action.err" | grep -qE -- "$re"; then
        ok=0
    fi
    if [ $xfail = 1 ]; then
        if [ $ok = 1 ]; then
            echo "XPASS: $name $action now does what expect.txt wants: drop its xfail:"
        else
            XFAILS=$((XFAILS + 1))
        fi
    elif [ $ok = 0 ]; then
        fail "$name $action: exit $rc (wanted $status), output does not match /$re/"
        head -3 "$R/$name.$action.err" | sed 's/^/  stderr: /'
        head -3 "$R/$name.$action.out" | sed 's/^/  stdout: /'
    fi
done < <(cat "$A"/expect*.txt)
# Every committed case is pinned by at least one line (expect.txt, or the
# expect_TOPIC.txt beside a cases_TOPIC.py).
for f in "$A"/cases/*; do
    name=$(basename "$f")
    cat "$A"/expect*.txt | grep -q "^$name " || fail "expect*.txt say nothing of $name"
done

# ---- messages that quote what the user typed ----
# A hostile model path, node name, value name or graph path given on the
# command line is escaped on stderr like any name from a file.
E=$'\e]0;PWNED\a\e[31m\xc2\x9b'
cp "$W/names_hostile.onnx" "$T/hostile$E.onnx"
for cmdline in "info:$T/missing$E.onnx" "info:$T/hostile$E.onnx" "node:$W/names_hostile.onnx:$E" \
               "nodes:$W/names_hostile.onnx:--graph:/$E" "export:$W/names_hostile.onnx:--outputs:$E" \
               "tensors:$W/names_hostile.onnx:--name:$E"; do
    IFS=: read -r -a argv <<< "$cmdline"
    (eval "$LIMITS"; exec "$NNAV_BIN" "${argv[@]}") > "$OUT" 2> "$ERR"
    rc=$?
    CHECKS=$((CHECKS + 1))
    case $rc in 0 | 1 | 2) ;; *) fail "${argv[0]} with a hostile argument: exit $rc" ;; esac
    clean "$OUT" "${argv[0]} with a hostile argument: stdout" tables
    clean "$ERR" "${argv[0]} with a hostile argument: stderr" tables
    cat "$OUT" "$ERR" | grep -qF '\x1B]0;PWNED\x07\x1B[31m\u{009B}' ||
        fail "${argv[0]} with a hostile argument: the argument is not shown escaped: $(head -c 300 "$ERR")"
done
rm -f "$T/hostile$E.onnx"

[ "$XFAILS" -gt 0 ] && echo "$XFAILS expectations are known bugs (xfail in expect.txt)"
finish
