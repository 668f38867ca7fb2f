#!/usr/bin/python3
"""Write the legacy-format checkpoints tests/cli/pt_legacy.sh reads, with
torch itself (torch.save(..., _use_new_zipfile_serialization=False), the
format of torch < 1.6), and torch.load's answers beside them.

  pt_legacy.py OUTDIR

OUTDIR gets resnet18_legacy.pt (a torchvision resnet18 state_dict, seeded),
resnet18_zip.pt (the same state_dict in the zip format), train_legacy.pt
({"model": it, "epoch": 5}), mixed_legacy.pt (fp16, int8, a non-contiguous
view and two views of one storage), and oracle.txt: "FILE count N", "FILE
shape KEY D0,D1,..", "FILE values KEY v0 v1 .." (the first 4 elements, row
major) from torch.load of the legacy files."""
import sys

import torch
import torchvision

out = sys.argv[1]
torch.manual_seed(0)
sd = torchvision.models.resnet18().state_dict()
legacy = dict(_use_new_zipfile_serialization=False)
torch.save(sd, out + "/resnet18_legacy.pt", **legacy)
torch.save(sd, out + "/resnet18_zip.pt")
torch.save({"model": sd, "epoch": 5}, out + "/train_legacy.pt", **legacy)
# A first storage of 128 elements: its 8-byte count starts with 0x80, as a
# pickle's PROTO does; scan must not read the storages as a sixth pickle.
torch.save({"w": torch.zeros(128)}, out + "/count128_legacy.pt", **legacy)
base = torch.arange(24, dtype=torch.float32).reshape(4, 6)
torch.save({"half": torch.linspace(-2, 2, 10).half(), "i8": torch.tensor([-128, -1, 0, 127], dtype=torch.int8),
            "t": base.t(), "row": base[2], "base": base}, out + "/mixed_legacy.pt", **legacy)

lines = []


def flat(prefix, obj, acc):
    if isinstance(obj, torch.Tensor):
        acc[prefix] = obj
    elif isinstance(obj, dict):
        for k, v in obj.items():
            flat(prefix + "." + str(k) if prefix else str(k), v, acc)


for f in ("resnet18_legacy.pt", "train_legacy.pt", "mixed_legacy.pt"):
    acc = {}
    flat("", torch.load(out + "/" + f, weights_only=True), acc)
    lines.append("%s count %d" % (f, len(acc)))
    for k, t in acc.items():
        lines.append("%s shape %s %s" % (f, k, ",".join(str(d) for d in t.shape)))
        if t.numel() and t.dtype != torch.bool:
            vals = t.reshape(-1)[:4].tolist()
            lines.append("%s values %s %s" % (f, k, " ".join(repr(float(v)) for v in vals)))
open(out + "/oracle.txt", "w").write("\n".join(lines) + "\n")
