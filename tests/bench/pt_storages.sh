#!/usr/bin/env bash
# Opening a PyTorch checkpoint of many storages (issue 29), run on demand:
#   bash tests/bench/pt_storages.sh BUILD_DIR [WORK_DIR [COUNT]]
# Writes torch.save of COUNT one-to-three-element tensors (30,000 by
# default; Debian's python3-torch) and prints the best wall time of 5 runs
# of `nnav info` on it, and of `cat FILE > /dev/null` beside it.
set -euo pipefail
build=${1:?usage: pt_storages.sh BUILD_DIR [WORK_DIR [COUNT]]}
work=${2:-/tmp/nnav-bench}
count=${3:-30000}
mkdir -p "$work"
f=$work/storages_$count.pt
[ -e "$f" ] || /usr/bin/python3 -c "
import sys, torch
torch.save({'t%d' % i: torch.full((i % 3 + 1,), float(i)) for i in range(int(sys.argv[2]))}, sys.argv[1])
" "$f" "$count"
. "$(dirname "$0")/lib.bash"
echo "checkpoint of $count storages, $(stat -c %s "$f") bytes"
echo "nnav info: $(best "$build/nnav" info "$f") ms (best of 5)"
echo "cat:       $(best cat "$f") ms (best of 5)"
