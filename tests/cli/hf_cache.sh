#!/usr/bin/env bash
# A model downloaded by huggingface_hub: in a fake cache laid out as it lays
# one out (hub/models--ORG--NAME/{blobs/SHA256, refs/main,
# snapshots/REV/FILE -> ../../blobs/SHA256}), the bundled external.onnx and
# its external.onnx.data are both symbolic links into the repository's blobs/.
# Their values and min/max/mean print, the storage column says
# `external (HF blob)`, an absolute link and a model in a subfolder work alike,
# and ONNX export inlines (or keeps) the same values. A data file linked into
# ANOTHER repository's blobs/, or out of the cache, or a blob that is itself a
# link, is refused (exit 2) naming --follow-links; with --follow-links (after
# the command or before it) they are read and marked `external (link)`.
set -u
. "$(dirname "$0")/lib.bash"
S=$NNAV_SAMPLES
T=$NNAV_TMP/hf_cache
rm -rf "$T"
HUB=$T/hub
R=$HUB/models--org--mlp
REV=0123456789abcdef0123456789abcdef01234567
mkdir -p "$R/blobs" "$R/refs" "$R/snapshots/$REV/onnx"
echo -n $REV > "$R/refs/main"
msha=$(sha256sum < "$S/external.onnx" | cut -c1-64)
dsha=$(sha256sum < "$S/external.onnx.data" | cut -c1-64)
cp "$S/external.onnx" "$R/blobs/$msha"
cp "$S/external.onnx.data" "$R/blobs/$dsha"
ln -s "../../blobs/$msha" "$R/snapshots/$REV/external.onnx"
ln -s "../../blobs/$dsha" "$R/snapshots/$REV/external.onnx.data"
# A model in a subfolder of the repository (onnx/model.onnx, as many are).
ln -s "../../../blobs/$msha" "$R/snapshots/$REV/onnx/external.onnx"
ln -s "../../../blobs/$dsha" "$R/snapshots/$REV/onnx/external.onnx.data"
M=$R/snapshots/$REV/external.onnx

# What the plain files give, to compare with.
expect_status 0 "$NNAV_BIN" tensors "$S/external.onnx" --values 3
want=$(grep -E '^    (values|min)' "$OUT")
[ -n "$want" ] || fail "no values from the plain sample"

values_as_plain() { # WHAT: the last run printed the sample's values and stats
    CHECKS=$((CHECKS + 1))
    [ "$(grep -E '^    (values|min)' "$OUT")" = "$want" ] ||
        fail "$1: values differ from the plain files': $(head -c 400 "$OUT") $(head -c 300 "$ERR")"
}

# ---- the layout as huggingface_hub makes it ----
expect_status 0 "$NNAV_BIN" tensors "$M" --values 3
values_as_plain "HF layout"
grep -q 'min -0.124986038  max 0.124994755' "$OUT" || fail "fc1.weight's stats: $(cat "$OUT")"
grep -q '32,768  external (HF blob) external.onnx.data @0 +32768$' "$OUT" ||
    fail "storage column says HF blob: $(cat "$OUT")"
grep -q '40  raw$' "$OUT" || fail "a raw tensor's storage unchanged: $(cat "$OUT")"
[ -s "$ERR" ] && fail "HF layout: stderr not empty: $(cat "$ERR")"
expect_status 0 "$NNAV_BIN" tensors "$M"
grep -q 'external (HF blob) external.onnx.data @36864 +5120$' "$OUT" ||
    fail "tensors without --values says HF blob: $(cat "$OUT")"
expect_status 0 "$NNAV_BIN" info "$M"
grep -qi 'mismatch\|refused' "$OUT" "$ERR" && fail "info warns on the HF layout: $(cat "$OUT" "$ERR")"
expect_status 0 "$NNAV_BIN" export "$M"
grep -q 'storage: external (HF blob) external.onnx.data' "$OUT" ||
    fail "YAML export's storage says HF blob: $(grep storage "$OUT" | head -3)"

# From inside the snapshot (a relative path), and the subfolder model.
(cd "$R/snapshots/$REV" && "$NNAV_BIN" tensors external.onnx --values 3) > "$OUT" 2> "$ERR"
values_as_plain "relative path from the snapshot"
expect_status 0 "$NNAV_BIN" tensors "$R/snapshots/$REV/onnx/external.onnx" --values 3
values_as_plain "model in a subfolder"
# Through a cache folder that is itself a link (~/.cache -> /data/cache).
ln -s hub "$T/hub-link"
expect_status 0 "$NNAV_BIN" tensors "$T/hub-link/models--org--mlp/snapshots/$REV/external.onnx" --values 3
values_as_plain "cache reached through a linked folder"
grep -q 'external (HF blob)' "$OUT" || fail "linked cache folder: HF blob: $(cat "$OUT")"

# An absolute link into the same blobs/ (as some tools write them).
A=$R/snapshots/abs
mkdir -p "$A"
ln -s "$R/blobs/$msha" "$A/external.onnx"
ln -s "$R/blobs/$dsha" "$A/external.onnx.data"
expect_status 0 "$NNAV_BIN" tensors "$A/external.onnx" --values 3
values_as_plain "absolute link"
grep -q 'external (HF blob)' "$OUT" || fail "absolute link: storage says HF blob: $(cat "$OUT")"

# ---- ONNX export from the layout: the values come along ----
mkdir -p "$T/out"
for mode in inline keep; do
    o=$T/out/hf-$mode.onnx
    expect_status 0 "$NNAV_BIN" export "$M" --format onnx --external $mode -o "$o"
    expect_status 0 "$NNAV_BIN" tensors "$o" --values 3
    values_as_plain "exported ($mode)"
done
[ -s "$T/out/hf-keep.onnx.data" ] || fail "--external keep wrote no data file"
# -o onto the snapshot's data link (the blob behind it is the model's data).
expect_status 2 "$NNAV_BIN" export "$M" --format onnx -o "$R/snapshots/$REV/external.onnx.data"
cmp -s "$R/blobs/$dsha" "$S/external.onnx.data" || fail "the blob changed under -o"

# ---- links that leave the repository: refused, unless --follow-links ----
O=$HUB/models--org--other
mkdir -p "$O/blobs" "$O/snapshots/$REV"
cp "$S/external.onnx.data" "$O/blobs/$dsha"
X=$R/snapshots/cross
mkdir -p "$X"
cp "$S/external.onnx" "$X/external.onnx"
ln -s "../../../models--org--other/blobs/$dsha" "$X/external.onnx.data"
cp "$S/external.onnx.data" "$T/outside.data"
Y=$R/snapshots/outside
mkdir -p "$Y"
ln -s "../../blobs/$msha" "$Y/external.onnx"
ln -s "$T/outside.data" "$Y/external.onnx.data"
# A link into blobs/ whose blob is itself a link (out of the cache).
Z=$R/snapshots/chain
mkdir -p "$Z"
ln -s "$T/outside.data" "$R/blobs/chained"
ln -s "../../blobs/$msha" "$Z/external.onnx"
ln -s ../../blobs/chained "$Z/external.onnx.data"
for d in "$X" "$Y" "$Z"; do
    what=${d##*/}
    expect_status 2 "$NNAV_BIN" tensors "$d/external.onnx" --values 3
    grep -q 'values: (external data "external.onnx.data" refused: .*symbolic link.*--follow-links' "$OUT" ||
        fail "$what: refusal names --follow-links: $(cat "$OUT")"
    grep -q 'values: 0.0499' "$OUT" && fail "$what: values read through a foreign link"
    grep -q -- '--follow-links' "$ERR" || fail "$what: stderr names --follow-links: $(cat "$ERR")"
    grep -q 'external (HF blob)' "$OUT" && fail "$what: called an HF blob: $(cat "$OUT")"
    expect_status 2 "$NNAV_BIN" export "$d/external.onnx" --format onnx -o "$T/out/$what.onnx"
    grep -q 'refused: .*--follow-links' "$ERR" || fail "$what: export's refusal names --follow-links: $(cat "$ERR")"
    [ -e "$T/out/$what.onnx" ] && fail "$what: a refused export wrote its file"

    expect_status 0 "$NNAV_BIN" tensors "$d/external.onnx" --values 3 --follow-links
    values_as_plain "$what with --follow-links"
    grep -q 'external (link) external.onnx.data @0 +32768$' "$OUT" ||
        fail "$what --follow-links: storage says link: $(cat "$OUT")"
    expect_status 0 "$NNAV_BIN" --follow-links tensors "$d/external.onnx" --values 3
    values_as_plain "$what with a leading --follow-links"
    expect_status 0 "$NNAV_BIN" --follow-links export "$d/external.onnx" --format onnx -o "$T/out/$what.onnx"
    expect_status 0 "$NNAV_BIN" tensors "$T/out/$what.onnx" --values 3
    values_as_plain "$what exported with --follow-links"
done

# Outside any cache: a link beside the model is refused as before, the
# closing line names the override, which follows it.
P=$T/plain
mkdir -p "$P"
cp "$S/external.onnx" "$P/"
cp "$S/external.onnx.data" "$P/real.data"
ln -s real.data "$P/external.onnx.data"
expect_status 2 "$NNAV_BIN" tensors "$P/external.onnx" --values 3
grep -q 'refused: it is, or passes through, a symbolic link (--follow-links follows it)' "$ERR" || fail "plain link refused, naming the override: $(cat "$ERR")"
grep -q "nnav --follow-links tensors" "$ERR" || fail "plain link: the override is named: $(cat "$ERR")"
expect_status 0 "$NNAV_BIN" tensors "$P/external.onnx" --values 3 --follow-links
values_as_plain "plain link with --follow-links"
# A loop of links: refused, also with --follow-links (no hang).
ln -s loop2 "$P/loop1"; ln -s loop1 "$P/loop2"
rm "$P/external.onnx.data"; ln -s loop1 "$P/external.onnx.data"
expect_status 2 "$NNAV_BIN" tensors "$P/external.onnx" --values 3 --follow-links
grep -q 'cannot open it: Too many levels of symbolic links' "$ERR" || fail "loop: $(cat "$ERR")"
# The option is documented: every command's --help and the usage name it.
expect_status 0 "$NNAV_BIN" tensors --help
grep -q -- '--follow-links' "$OUT" || fail "tensors --help lacks --follow-links"
expect_status 0 "$NNAV_BIN" --help
grep -q -- '--follow-links' "$OUT" || fail "--help lacks --follow-links"
finish
