#!/usr/bin/python3
"""Write the PyTorch checkpoints tests/cli/pt_checkpoint.sh reads, with torch
itself (the real writer), and the oracle's answers beside them.

  pt_gen.py OUTDIR

OUTDIR gets resnet18.pt (a torchvision resnet18 state_dict, seeded weights),
train.pt ({"model": state_dict, "epoch", "optimizer": SGD state with
momentum buffers, "hparams"}), mixed.pt (fp16, bf16, int8, bool, int64 and
complex tensors, a non-contiguous view and two views of one storage) and
oracle.txt: lines the shell test compares nnav's output against, from
torch.load(weights_only=True)."""
import sys

import torch
import torchvision

out = sys.argv[1]
torch.manual_seed(0)
net = torchvision.models.resnet18()
sd = net.state_dict()
torch.save(sd, out + "/resnet18.pt")
# resnet18_b.pt: one bias element +1, one buffer dropped, one tensor added
sd_b = {k: v.clone() for k, v in sd.items()}
sd_b["fc.bias"][3] += 1.0
del sd_b["layer4.1.bn2.num_batches_tracked"]
sd_b["extra.w"] = torch.ones(3)
torch.save(sd_b, out + "/resnet18_b.pt")

opt = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
loss = net(torch.randn(2, 3, 32, 32)).sum()
loss.backward()
opt.step()
torch.save({"model": net.state_dict(), "epoch": 7, "optimizer": opt.state_dict(),
            "hparams": {"lr": 0.1, "arch": "resnet18"}}, out + "/train.pt")

base = torch.arange(24, dtype=torch.float32).reshape(4, 6)
mixed = {
    "half": torch.linspace(-2, 2, 10).half(),
    "bf16": torch.linspace(-3, 3, 7).bfloat16(),
    "i8": torch.tensor([-128, -1, 0, 1, 127], dtype=torch.int8),
    "flags": torch.tensor([True, False, True]),
    "big": torch.tensor([-(2 ** 62), 2 ** 62 + 1], dtype=torch.int64),
    "cplx": torch.tensor([1 + 2j, -3.5 + 0j], dtype=torch.complex64),
    "t": base.t(),            # non-contiguous: strides (1, 6)
    "row": base[2],           # a contiguous view at storage offset 12
    "base": base,
}
torch.save(mixed, out + "/mixed.pt")
torch.save(torch.arange(6.).reshape(2, 3), out + "/bare.pt")
torch.jit.save(torch.jit.script(torch.nn.Linear(3, 2)), out + "/jit.pt")
torch.save(torch.nn.Linear(3, 2), out + "/module.pt")  # a whole module: its class is called
# bytes (protocol 2 pickles them through _codecs.encode) and a tensor class:
# both in torch's weights_only allowlist (2.x), nothing else called.
torch.save({"b": b"abc\x01", "w": torch.ones(2), "cls": torch.FloatTensor}, out + "/bytes.pt")

with open(out + "/oracle.txt", "w") as f:
    for name in ("resnet18", "train", "mixed"):
        try:
            d = torch.load(out + "/" + name + ".pt", weights_only=True)
        except Exception:
            # torch 1.13's weights_only loader knows no BINFLOAT (the
            # optimizer's lr): these files are the test's own, written above.
            d = torch.load(out + "/" + name + ".pt")
        flat = {}

        def walk(p, v):
            if isinstance(v, torch.Tensor):
                flat[p] = v
            elif isinstance(v, dict):
                for k, x in v.items():
                    walk(p + "." + str(k) if p else str(k), x)
            elif isinstance(v, (list, tuple)):
                for i, x in enumerate(v):
                    walk(p + "." + str(i) if p else str(i), x)
        walk("", d)
        f.write("%s count %d\n" % (name, len(flat)))
        f.write("%s params %d\n" % (name, sum(t.numel() for t in flat.values())))
        for k, t in flat.items():
            f.write("%s shape %s %s\n" % (name, k, ",".join(str(x) for x in t.shape)))
        for k in ("conv1.weight", "model.layer1.0.conv1.weight", "t", "row", "half", "bf16",
                  "big", "i8", "optimizer.state.0.momentum_buffer"):
            if k in flat:
                v = flat[k].reshape(-1)[:8]
                if v.is_complex():
                    v = torch.view_as_real(v).reshape(-1)[:8]
                f.write("%s values %s %s\n" % (name, k, " ".join(
                    repr(int(x)) if not x.is_floating_point() else "%.9g" % float(x)
                    for x in v)))
