#!/usr/bin/env bash
# nnav(1) renders as prose: no words run together. An alternating-font macro
# (.BR, .RB, .BI, .IB, .IR, .RI) joins its arguments with no space, so
# '.BR "inferred: true" . Before IR 4, ...' rendered "true.BeforeIR4,
# initializersare..." (issue 13, item 17). Checked on the source (a word
# joined to a word, or a sentence's full stop joined to the next word) and on
# the page as groff (or man) renders it, with no warnings from groff.
set -u
. "$(dirname "$0")/lib.bash"
MAN=$NNAV_SRC/man/nnav.1
T=$NNAV_TMP/man_render; rm -rf "$T"; mkdir -p "$T"

# ---- the source ----
# Arguments split as roff does (double quotes group; \" is no quote here).
awk '
/^\.(BR|RB|BI|IB|IR|RI)[ \t]/ {
    rest = $0; sub(/^\.[A-Z]+[ \t]+/, "", rest); n = 0
    while (length(rest)) {
        if (substr(rest, 1, 1) == "\"") { e = index(substr(rest, 2), "\""); if (!e) e = length(rest); a[++n] = substr(rest, 2, e - 1); rest = substr(rest, e + 2) }
        else { e = index(rest " ", " "); a[++n] = substr(rest, 1, e - 1); rest = substr(rest, e) }
        sub(/^[ \t]+/, "", rest)
    }
    for (i = 2; i <= n; i++) {
        p = a[i - 1]; c = a[i]
        if ((p ~ /[A-Za-z0-9]$/ && c ~ /^[A-Za-z0-9]/) || (p ~ /[.!?]$/ && c ~ /^[A-Z][a-z]/)) {
            printf "line %d: \"%s\" runs into \"%s\": %s\n", NR, p, c, $0
            break
        }
    }
}' "$MAN" > "$T/lint"
CHECKS=$((CHECKS + 1))
[ -s "$T/lint" ] && fail "words run together in man/nnav.1: $(head -3 "$T/lint")"

# ---- the rendered page ----
if command -v groff > /dev/null; then
    # One long line per paragraph, no hyphenation: words are whole.
    CHECKS=$((CHECKS + 1))
    groff -man -Tutf8 -ww -rLL=400n -rHY=0 -dAD=l -P-c -P-b -P-u "$MAN" > "$T/page" 2> "$T/warn"
    [ -s "$T/warn" ] && fail "groff warns on man/nnav.1: $(head -3 "$T/warn")"
elif command -v man > /dev/null; then
    CHECKS=$((CHECKS + 1))
    MANWIDTH=400 man -l "$MAN" 2> "$T/warn" | col -b > "$T/page"
else
    echo "SKIP (partly): neither groff nor man to render the page"
    finish
    exit
fi
[ -s "$T/page" ] || fail "the page rendered empty"
# A full stop followed at once by a capital, a known run-together, or the
# macro name of a line roff did not take as a macro.
grep -nE '[a-z]\.[A-Z][a-z]|true\.Before|initializersare' "$T/page" > "$T/joined" &&
    fail "words run together on the page: $(head -3 "$T/joined")"
grep -qE 'inferred: true\. +Before IR 4, initializers are also listed as inputs\.' "$T/page" ||
    fail "the sentence on IR 4 is not rendered as written: $(grep -o '.\{30\}inferred: true.\{40\}' "$T/page" | head -2)"
grep -nE '^\s*\.(B|I|BR|RB|BI|IB|IR|RI|TP|PP|SH)\b' "$T/page" > "$T/raw" &&
    fail "roff requests shown as text: $(head -3 "$T/raw")"
# The mouse is listed with the keys.
for w in click double-click wheel; do
    grep -qE "^ +$w( |$)" "$T/page" || fail "the page lists no mouse '$w'"
done
finish
