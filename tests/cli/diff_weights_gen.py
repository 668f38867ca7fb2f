#!/usr/bin/python3
"""diff_weights_gen.py OUTDIR - pairs of weights files in several formats for
`nnav diff` across formats (issue 31 item 8), and what torch (and ggml's
reference dequantisation, gguf_gen.py's numpy port) says of each pair:
OUTDIR/oracle.json.

  hf.pt             torch.save of a Llama-shaped state_dict, transformers'
                    names, float32
  hf.safetensors    the same tensors (safetensors_gen.py's layout), one of
                    them stored as BF16 (the value torch's .bfloat16() gives)
  edit.safetensors  the same, float32, one element +0.5, lm_head.weight left
                    out, extra.bias added
  cpp.safetensors   the same values under llama.cpp's names
  cpp.gguf          llama.cpp's names, norms f32, attn_q q8_0 (ggml's
                    reference quantiser), the other matrices f16
  lin.pt, lin.onnx  a module's state_dict and its torch.onnx.export (whose
                    Linear weights become onnx::MatMul_N, transposed)
  wide.pt, wide.safetensors  a tensor of 4,300,800 float32 elements, and
                    its BF16
  big_a/big_b .safetensors  (only with --big MB) two files of float32
                    tensors of 16 MiB, the second differing in one element of
                    its last tensor: the benchmark's pair

The rename table here is written from llama.cpp's convert_hf_to_gguf
mapping, independently of nnav's (src/typed/tnames.c).
"""
import json
import math
import os
import struct
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gguf_gen  # noqa: E402  (the GGUF writer and ggml's reference)

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
torch.manual_seed(31)
H, I, V, L = 32, 64, 32, 2
ALIGN = {"F64": 8, "I64": 8, "F32": 4, "F16": 2, "BF16": 2}
DT = {torch.float32: "F32", torch.bfloat16: "BF16", torch.float16: "F16"}


def st_write(path, tensors, meta=None):
    """name -> torch tensor, laid out as safetensors' tensor.rs does."""
    order = sorted(tensors, key=lambda n: (-ALIGN[DT[tensors[n].dtype]], n))
    hdr, blobs, off = {}, [], 0
    if meta is not None:
        hdr["__metadata__"] = meta
    for n in order:
        t = tensors[n].contiguous()
        b = (t.view(torch.int16) if t.dtype == torch.bfloat16 else t).numpy().tobytes()
        hdr[n] = {"dtype": DT[t.dtype], "shape": list(t.shape), "data_offsets": [off, off + len(b)]}
        off += len(b)
        blobs.append(b)
    h = json.dumps(hdr, separators=(",", ":")).encode()
    h += b" " * ((8 - len(h) % 8) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(h)) + h)
        for b in blobs:
            f.write(b)


def cpp_name(n):
    """transformers' name -> llama.cpp's."""
    top = {"model.embed_tokens.weight": "token_embd.weight", "model.norm.weight": "output_norm.weight",
           "lm_head.weight": "output.weight"}
    if n in top:
        return top[n]
    part = {"self_attn.q_proj": "attn_q", "self_attn.k_proj": "attn_k", "self_attn.v_proj": "attn_v",
            "self_attn.o_proj": "attn_output", "mlp.gate_proj": "ffn_gate", "mlp.up_proj": "ffn_up",
            "mlp.down_proj": "ffn_down", "input_layernorm": "attn_norm",
            "post_attention_layernorm": "ffn_norm"}
    _, _, blk, rest = n.split(".", 3)
    for k, v in part.items():
        if rest.startswith(k + "."):
            return "blk.%s.%s%s" % (blk, v, rest[len(k):])
    raise ValueError(n)


def diff(a, b):
    """What nnav diff must say of two tensors of one shape, by torch: how
    many elements differ and the largest |b - a| (float32 arithmetic)."""
    a, b = a.float(), b.float()
    ne = a != b
    return {"differing": int(ne.sum()), "max_abs": float((b - a).abs().max()) if ne.any() else 0.0}


sd = {}
sd["model.embed_tokens.weight"] = torch.randn(V, H)
for i in range(L):
    p = "model.layers.%d." % i
    for k in ("q_proj", "k_proj", "v_proj", "o_proj"):
        sd[p + "self_attn.%s.weight" % k] = torch.randn(H, H)
    sd[p + "mlp.gate_proj.weight"] = torch.randn(I, H)
    sd[p + "mlp.up_proj.weight"] = torch.randn(I, H)
    sd[p + "mlp.down_proj.weight"] = torch.randn(H, I)
    sd[p + "input_layernorm.weight"] = torch.randn(H)
    sd[p + "post_attention_layernorm.weight"] = torch.randn(H)
sd["model.norm.weight"] = torch.randn(H)
sd["lm_head.weight"] = torch.randn(V, H)
torch.save(sd, os.path.join(out, "hf.pt"))
oracle = {"names": list(sd), "cpp": {n: cpp_name(n) for n in sd}}

# hf.safetensors: one tensor as BF16.
bf = "model.norm.weight"
st = dict(sd)
st[bf] = sd[bf].bfloat16()
st_write(os.path.join(out, "hf.safetensors"), st, {"format": "pt"})
oracle["bf16"] = {"name": bf, **diff(sd[bf], st[bf])}

# edit.safetensors: +0.5 at one element, one tensor gone, one new.
ed = {n: t.clone() for n, t in sd.items()}
en, at = "model.layers.1.mlp.up_proj.weight", (5, 7)
ed[en][at] += 0.5
del ed["lm_head.weight"]
ed["extra.bias"] = torch.zeros(H)
st_write(os.path.join(out, "edit.safetensors"), ed)
oracle["edit"] = {"name": en, "at": list(at), "a": float(sd[en][at]), "b": float(ed[en][at]),
                  "elements": sd[en].numel(), **diff(sd[en], ed[en]), "removed": "lm_head.weight",
                  "added": "extra.bias"}

# cpp.safetensors: llama.cpp's names, the same values.
st_write(os.path.join(out, "cpp.safetensors"), {cpp_name(n): t for n, t in sd.items()})

# cpp.gguf: f32 norms, q8_0 attn_q, f16 the other matrices.
w = gguf_gen.W(3)
w.add("general.architecture", gguf_gen.V_STR, "llama")
w.add("general.name", gguf_gen.V_STR, "diff test")
oracle["gguf"] = {}
for n, t in sd.items():
    c = cpp_name(n)
    x = t.numpy().astype(np.float32)
    if t.dim() == 1:
        kind, raw, back = "f32", x.tobytes(), t
    elif ".attn_q." in c:
        kind = "q8_0"
        raw = gguf_gen.quant_q8_0(x.reshape(-1))
        back = torch.from_numpy(gguf_gen.dequant("q8_0", raw, x.size).reshape(x.shape).astype(np.float32))
    else:
        kind, raw, back = "f16", x.astype(np.float16).tobytes(), t.half()
    w.tensor(c, list(reversed(x.shape)), kind, raw)  # the file lists ne[0], the innermost, first
    oracle["gguf"][c] = {"from": n, "type": kind, **diff(t, back)}
with open(os.path.join(out, "cpp.gguf"), "wb") as f:
    f.write(w.bytes())


# lin.pt / lin.onnx: a torch.onnx.export of a module and its state_dict.
class Blk(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.q = torch.nn.Linear(16, 16)
        self.up = torch.nn.Linear(16, 24, bias=False)

    def forward(self, x):
        return self.up(torch.relu(self.q(x)))


class Lin(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = torch.nn.Embedding(10, 16)
        self.layers = torch.nn.ModuleList([Blk() for _ in range(2)])
        self.unused = torch.nn.Linear(4, 3)

    def forward(self, i):
        x = self.emb(i)
        for blk in self.layers:
            x = blk(x)[..., :16]
        return x


m = Lin().eval()
lsd = m.state_dict()
torch.save(lsd, os.path.join(out, "lin.pt"))
torch.onnx.export(m, (torch.zeros(1, 5, dtype=torch.long),), os.path.join(out, "lin.onnx"),
                  opset_version=14)
import onnx  # noqa: E402
from onnx import numpy_helper  # noqa: E402

inits = {t.name: torch.from_numpy(numpy_helper.to_array(t).copy())
         for t in onnx.load(os.path.join(out, "lin.onnx")).graph.initializer}
same, transposed, left = [], {}, set(lsd)
for name, t in inits.items():
    if name in lsd and torch.equal(lsd[name], t):
        same.append(name)
        left.discard(name)
        continue
    hit = [k for k in lsd if k in left and lsd[k].dim() == 2 and torch.equal(lsd[k].t(), t)]
    if hit:
        transposed[name] = hit[0]
        left.discard(hit[0])
oracle["onnx"] = {"same": same, "transposed": transposed, "removed": sorted(left),
                  "initializers": len(inits)}

# wide.pt / wide.safetensors: one float32 tensor of 4,300,800 elements (more
# than nnav decodes into memory to compare two storage types), stored as
# BF16 in the safetensors file: compared element by element over the map.
wide = torch.randn(2100, 2048)
torch.save({"w": wide}, os.path.join(out, "wide.pt"))
st_write(os.path.join(out, "wide.safetensors"), {"w": wide.bfloat16()})
oracle["wide"] = {"elements": wide.numel(), **diff(wide, wide.bfloat16())}

if len(sys.argv) > 3 and sys.argv[2] == "--big":
    mb = int(sys.argv[3])
    n = max(1, mb // 16)
    rng = np.random.default_rng(5)
    for side in ("a", "b"):
        rng = np.random.default_rng(5)
        ts = {}
        for k in range(n):
            x = rng.standard_normal(4 << 20).astype(np.float32)
            if side == "b" and k == n - 1:
                x[-1] += 1.0
            ts["layers.%d.weight" % k] = torch.from_numpy(x).view(1024, 4096)
        st_write(os.path.join(out, "big_%s.safetensors" % side), ts)

with open(os.path.join(out, "oracle.json"), "w") as f:
    json.dump(oracle, f, indent=1)
