#!/usr/bin/python3
"""Write the checkpoints tests/cli/pt_summary.sh summarises, with torch (the
real writer), and torch's own per-module parameter counts beside them.

  pt_summary.py OUTDIR

OUTDIR gets resnet18.pt (a torchvision resnet18 state_dict), train.pt
({"model": that state_dict, "epoch": 3}), enc.pt (the state_dict of a
2-layer nn.TransformerEncoder under a Linear head: no buffers) and
oracle.txt, one line per module: FILE SCOPE_PATH PARAMS, where SCOPE_PATH is
the module's dotted name with '/' for '.' ("-" for the whole model) and
PARAMS is sum(p.numel() for p in module.parameters()); and a line
FILE buffers N: the elements of the float buffers (BatchNorm statistics)."""
import sys

import torch
import torchvision

out = sys.argv[1]
torch.manual_seed(0)
lines = []


def oracle(fname, net, prefix, modules):
    named = dict(net.named_modules())
    for name in modules:
        n = sum(p.numel() for p in named[name].parameters())
        path = "/".join(x for x in (prefix + "." + name).split(".") if x) or "-"
        lines.append("%s %s %d" % (fname, path, n))
    buf = sum(b.numel() for b in net.buffers() if b.is_floating_point())
    lines.append("%s buffers %d" % (fname, buf))


net = torchvision.models.resnet18()
torch.save(net.state_dict(), out + "/resnet18.pt")
mods = ["", "conv1", "bn1", "layer1", "layer1.0", "layer1.1.bn2", "layer2", "layer2.0.downsample",
        "layer3.1", "layer4", "layer4.0.conv2", "fc"]
oracle("resnet18.pt", net, "", mods)
torch.save({"model": net.state_dict(), "epoch": 3}, out + "/train.pt")
oracle("train.pt", net, "model", mods)


class Enc(torch.nn.Module):
    def __init__(self):
        super().__init__()
        layer = torch.nn.TransformerEncoderLayer(d_model=32, nhead=4, dim_feedforward=64)
        self.encoder = torch.nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)
        self.head = torch.nn.Linear(32, 5)


enc = Enc()
torch.save(enc.state_dict(), out + "/enc.pt")
oracle("enc.pt", enc, "", ["", "encoder", "encoder.layers.0", "encoder.layers.1.self_attn",
                           "encoder.layers.0.norm2", "head"])
open(out + "/oracle.txt", "w").write("\n".join(lines) + "\n")
