#!/usr/bin/python3
"""Export torch models to ONNX with torch's own exporter, and write torch's
own per-module counts beside them, for tests/cli/torch_params.sh.

  torch_params_gen.py OUTDIR

For each model OUTDIR gets NAME.onnx and a line per module in oracle.json:
{NAME: {"modules": {dotted_name: [params, buffers]}, "batchnorms": N,
"folded": bool}}, where params is sum(p.numel() for p in
module.parameters()) and buffers the elements of its floating-point buffers
(BatchNorm's running mean and var; num_batches_tracked is an integer and
torch.onnx never exports it). batchnorms counts the BatchNorm modules, and
folded says whether the export was the eval-mode one that folds each
BatchNorm into the Conv before it.
"""
import json
import sys
import warnings

import torch
import torchvision

warnings.filterwarnings("ignore")
out = sys.argv[1]
torch.manual_seed(0)
oracle = {}


def counts(net):
    res = {}
    for name, mod in net.named_modules():
        p = sum(x.numel() for x in mod.parameters())
        b = sum(x.numel() for x in mod.buffers() if x.is_floating_point())
        res[name] = [p, b]
    return res


def export(name, net, args, folded, **kw):
    torch.onnx.export(net, args, f"{out}/{name}.onnx", opset_version=13, **kw)
    bns = sum(isinstance(m, torch.nn.modules.batchnorm._BatchNorm) for m in net.modules())
    oracle[name] = {"modules": counts(net), "batchnorms": bns, "folded": folded}


# MobileNetV3-small: BatchNorm after most Convs, squeeze-excitation blocks.
mnv3 = torchvision.models.mobilenet_v3_small().eval()
x = torch.randn(1, 3, 224, 224)
# Kept: an export that does not fold (training-mode graphs keep BatchNorm).
export("mnv3_kept", mnv3, x, False, training=torch.onnx.TrainingMode.PRESERVE,
       do_constant_folding=False)
# Folded: torch.onnx's default eval-mode export.
export("mnv3_folded", mnv3, x, True)


# Recurrent layers whose zero initial states torch exports as constants,
# and BatchNorm1d between two Linears.
class Rnn(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = torch.nn.Linear(8, 16)
        self.norm = torch.nn.BatchNorm1d(7)
        self.gru = torch.nn.GRU(16, 32, batch_first=True)
        self.lstm = torch.nn.LSTM(32, 24, num_layers=2, batch_first=True, bidirectional=True)
        self.head = torch.nn.Linear(48, 5)

    def forward(self, x):
        y, _ = self.gru(self.norm(self.emb(x)))
        y, _ = self.lstm(y)
        return self.head(y)


export("rnn", Rnn().eval(), torch.randn(2, 7, 8), False, training=torch.onnx.TrainingMode.PRESERVE,
       do_constant_folding=False)
export("rnn_default", Rnn().eval(), torch.randn(2, 7, 8), False)


# A transformer encoder under a Linear head (LayerNorm, attention, MLP).
class Enc(torch.nn.Module):
    def __init__(self):
        super().__init__()
        layer = torch.nn.TransformerEncoderLayer(d_model=32, nhead=4, dim_feedforward=64)
        self.encoder = torch.nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)
        self.head = torch.nn.Linear(32, 5)

    def forward(self, x):
        return self.head(self.encoder(x))


export("enc", Enc().eval(), torch.randn(6, 2, 32), False)

with open(f"{out}/oracle.json", "w") as f:
    json.dump(oracle, f, indent=1, sort_keys=True)
