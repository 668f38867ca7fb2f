#!/usr/bin/python3
"""Write the TorchScript archives and whole pickled modules that
tests/cli/pt_torchscript.sh reads, with torch (the real writer), and
torch's own answers beside them.

  pt_torchscript.py OUTDIR

Files: rn_script.pt (torch.jit.script of a torchvision resnet18),
rn_trace.pt (torch.jit.trace of it), small.pt (a scripted module with a
float16 buffer and a transposed parameter), const.pt (a traced module with
a tensor constant), whole.pt and whole_rn.pt (torch.save of the modules
themselves, not their state_dict: loading them imports and calls their
classes), tied.pt, tied_whole.pt, tied_script.pt (a module whose head's
weight is its embedding's: torch counts it once). oracle.txt, one fact a line:
  FILE count N              tensors in the state_dict torch.jit.load (or torch.load) gives
  FILE tensor NAME DTYPE D,I,M,S   each of them
  FILE params N             sum(p.numel() for p in module.parameters())
  FILE scope PATH N         that module's parameters (PATH: '/' for '.', '-' the whole)
  FILE class PATH NAME      that module's class
  FILE module PATH NAME     every module torch names (named_modules), and its class
  FILE values NAME V...     a tensor's first 8 values
  FILE code NAME BYTES      each code file in the zip but the .debug_pkl ones
  FILE const NAME V...      a constant's values (as given to the trace)
"""
import sys
import zipfile

import torch
import torchvision

out = sys.argv[1]
torch.manual_seed(0)
lines = []
DT = {torch.float32: "float32", torch.float16: "float16", torch.int64: "int64"}


class Small(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(4, 3)
        self.register_buffer("scale", torch.tensor([0.5, 1.5, -2.0], dtype=torch.float16))
        self.k = torch.nn.Parameter(torch.arange(6.).reshape(2, 3).t())

    def forward(self, x):
        return self.fc(x) * self.scale.float() + 2.5


class Const(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.w = torch.nn.Parameter(torch.randn(3))

    def forward(self, x):
        return x * self.w + torch.tensor([1.25, 2.5, -3.75])


class Tied(torch.nn.Module):
    """A decoder whose weight is the embedding's: one tensor, two names."""

    def __init__(self):
        super().__init__()
        self.emb = torch.nn.Embedding(10, 4)
        self.body = torch.nn.Linear(4, 4)
        self.head = torch.nn.Linear(4, 10, bias=False)
        self.head.weight = self.emb.weight

    def forward(self, x):
        return self.head(self.body(self.emb(x)))


def facts(fname, net, sd, scopes=(), code=True, classes=True):
    lines.append("%s count %d" % (fname, len(sd)))
    for k, v in sd.items():
        lines.append("%s tensor %s %s %s" % (fname, k, DT.get(v.dtype, str(v.dtype)),
                                             ",".join(str(d) for d in v.shape)))
    lines.append("%s params %d" % (fname, sum(p.numel() for p in net.parameters())))
    named = dict(net.named_modules())
    for s in scopes:
        path = "/".join(s.split(".")) or "-"
        lines.append("%s scope %s %d" % (fname, path, sum(p.numel() for p in named[s].parameters())))
        # Its class: a TorchScript module's original_name, a module's type
        # (a state_dict says none).
        mod = named[s]
        if classes:
            lines.append("%s class %s %s" % (fname, path, getattr(mod, "original_name", type(mod).__name__)))
    # Every module, tensors or none (a ReLU), with its class.
    for name, mod in net.named_modules() if classes else ():
        lines.append("%s module %s %s" % (fname, "/".join(name.split(".")) or "-",
                                          getattr(mod, "original_name", type(mod).__name__)))
    for k in list(sd)[:3] + [list(sd)[-1]]:
        v = sd[k].flatten()[:8]
        lines.append("%s values %s %s" % (fname, k, " ".join(repr(float(x)) for x in v)))
    if code:
        for zi in zipfile.ZipFile(out + "/" + fname).infolist():
            parts = zi.filename.split("/", 1)
            if len(parts) == 2 and parts[1].startswith("code/") and not parts[1].endswith(".debug_pkl"):
                lines.append("%s code %s %d" % (fname, parts[1], zi.file_size))


rn = torchvision.models.resnet18().eval()
scopes = ["", "conv1", "layer1.0", "layer2.0.downsample", "layer4", "fc"]
torch.jit.save(torch.jit.script(rn), out + "/rn_script.pt")
torch.jit.save(torch.jit.trace(rn, torch.randn(1, 3, 64, 64)), out + "/rn_trace.pt")
for f in ("rn_script.pt", "rn_trace.pt"):
    m = torch.jit.load(out + "/" + f)
    facts(f, m, m.state_dict(), scopes)
sm = Small()
torch.jit.save(torch.jit.script(sm), out + "/small.pt")
m = torch.jit.load(out + "/small.pt")
facts("small.pt", m, m.state_dict(), ["", "fc"])
torch.jit.save(torch.jit.trace(Const(), torch.randn(3)), out + "/const.pt")
m = torch.jit.load(out + "/const.pt")
facts("const.pt", m, m.state_dict())
lines.append("const.pt const CONSTANTS.c0 1.25 2.5 -3.75")
torch.save(sm, out + "/whole.pt")
facts("whole.pt", sm, sm.state_dict(), ["", "fc"], code=False)
torch.save(rn, out + "/whole_rn.pt")
facts("whole_rn.pt", rn, rn.state_dict(), scopes, code=False)
tied = Tied()
torch.save(tied.state_dict(), out + "/tied.pt")
facts("tied.pt", tied, tied.state_dict(), ["", "emb", "body", "head"], code=False, classes=False)
torch.save(tied, out + "/tied_whole.pt")
facts("tied_whole.pt", tied, tied.state_dict(), ["", "emb", "body", "head"], code=False)
torch.jit.save(torch.jit.script(tied), out + "/tied_script.pt")
m = torch.jit.load(out + "/tied_script.pt")
facts("tied_script.pt", m, m.state_dict(), ["", "emb", "body", "head"])
open(out + "/oracle.txt", "w").write("\n".join(lines) + "\n")
