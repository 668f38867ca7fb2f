#!/usr/bin/env python3
"""safetensors_gen.py OUTDIR - safetensors files written from the format's
spec (huggingface/safetensors, safetensors/src/tensor.rs: the 8-byte length,
the JSON header padded with spaces to 8 bytes, tensors sorted by alignment
then name, their data end to end), and what a reader must find in them:
OUTDIR/oracle.json. Debian 12 has no python3-safetensors (and npm's
"safetensors" 0.0.1 is no reference), so the bytes are written here; the
values are what torch.frombuffer (and numpy for U16/U32/U64, which torch
1.13 lacks) reads from the same bytes, the 8- and 4-bit floats what their
OCP definitions give (no library here has them).

  dtypes.safetensors  every dtype of the format: F64 F32 F16 BF16 I64 I32
                      I16 I8 U64 U32 U16 U8 BOOL F8_E4M3 F8_E5M2 F8_E8M0
                      F4 C64, random bytes (NaNs and infinities included)
  llama.safetensors   a Llama-shaped tiny model with transformers' names:
                      32 identical decoder layers, bf16, __metadata__
"""
import json
import math
import os
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from st_write import write  # noqa: E402

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(31)


def minifloat(v, e, m, bias, fn):
    """OCP 8-bit floats: E4M3FN (no infinities, S.1111.111 NaN), E5M2 (IEEE)."""
    s = -1.0 if v >> (e + m) else 1.0
    ex, mant = (v >> m) & ((1 << e) - 1), v & ((1 << m) - 1)
    if fn and ex == (1 << e) - 1 and mant == (1 << m) - 1:
        return float("nan")
    if not fn and ex == (1 << e) - 1:
        return s * float("inf") if mant == 0 else float("nan")
    if ex == 0:
        return s * mant / (1 << m) * 2.0 ** (1 - bias)
    return s * (1 + mant / (1 << m)) * 2.0 ** (ex - bias)


def e2m1(nib):
    mag = [0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0][nib & 7]
    return -mag if nib & 8 else mag


shape = (3, 5)
n = 15
tens, oracle = {}, {"dtypes": {}}
TORCH = {"F64": torch.float64, "F32": torch.float32, "F16": torch.float16, "BF16": torch.bfloat16,
         "I64": torch.int64, "I32": torch.int32, "I16": torch.int16, "I8": torch.int8,
         "U8": torch.uint8, "BOOL": torch.bool, "C64": torch.complex64}
NUMPY = {"U16": np.uint16, "U32": np.uint32, "U64": np.uint64}
for dt, width in [("F64", 8), ("F32", 4), ("F16", 2), ("BF16", 2), ("I64", 8), ("I32", 4),
                  ("I16", 2), ("I8", 1), ("U64", 8), ("U32", 4), ("U16", 2), ("U8", 1),
                  ("BOOL", 1), ("F8_E4M3", 1), ("F8_E5M2", 1), ("F8_E8M0", 1), ("F4", 0.5),
                  ("C64", 8)]:
    nb = int(n * width) if dt != "F4" else 8  # F4: 16 elements, two a byte
    shp = shape if dt != "F4" else (4, 4)
    b = rng.integers(0, 256, nb, dtype=np.uint8).tobytes()
    if dt == "BOOL":
        b = bytes(x & 1 for x in b)
    if dt in TORCH:
        t = torch.frombuffer(bytearray(b), dtype=TORCH[dt])
        if dt == "C64":
            vals = []
            for z in t.tolist():
                vals += [z.real, z.imag]
        else:
            vals = [float(x) if dt in ("F64", "F32", "F16", "BF16") else int(x) for x in t.tolist()]
    elif dt in NUMPY:
        vals = [int(x) for x in np.frombuffer(b, dtype=NUMPY[dt])]
    elif dt == "F8_E4M3":
        vals = [minifloat(x, 4, 3, 7, True) for x in b]
    elif dt == "F8_E5M2":
        vals = [minifloat(x, 5, 2, 15, False) for x in b]
    elif dt == "F8_E8M0":
        vals = [float("nan") if x == 255 else 2.0 ** (x - 127) for x in b]
    else:  # F4: the low nibble first
        vals = []
        for x in b:
            vals += [e2m1(x & 15), e2m1(x >> 4)]
    tens["t_" + dt.lower()] = (dt, shp, b)
    oracle["dtypes"]["t_" + dt.lower()] = [None if isinstance(v, float) and math.isnan(v) else
                                           ("inf" if v == math.inf else "-inf" if v == -math.inf
                                            else v) for v in vals]
write(os.path.join(out, "dtypes.safetensors"), tens, {"format": "pt"})

# A Llama-shaped model: transformers' LlamaForCausalLM names, 32 layers.
H, I, V, L = 8, 16, 32, 32
llama, numel = {}, 0


def add(name, shp):
    global numel
    t = torch.randn(*shp).to(torch.bfloat16)
    llama[name] = ("BF16", shp, t.view(torch.int16).numpy().tobytes())
    numel += t.numel()


add("model.embed_tokens.weight", (V, H))
for i in range(L):
    p = "model.layers.%d." % i
    for k in ("q_proj", "k_proj", "v_proj", "o_proj"):
        add(p + "self_attn.%s.weight" % k, (H, H))
    add(p + "mlp.gate_proj.weight", (I, H))
    add(p + "mlp.up_proj.weight", (I, H))
    add(p + "mlp.down_proj.weight", (H, I))
    add(p + "input_layernorm.weight", (H,))
    add(p + "post_attention_layernorm.weight", (H,))
add("model.norm.weight", (H,))
add("lm_head.weight", (V, H))
meta = {"format": "pt", "model": "tiny-llama \u00e9"}
write(os.path.join(out, "llama.safetensors"), llama, meta)
layer = sum(math.prod(s) for nm, (_, s, _) in llama.items() if nm.startswith("model.layers.0."))
oracle["llama"] = {"params": numel, "tensors": len(llama), "layers": L, "layer_params": layer,
                   "metadata": meta, "bytes": sum(len(b) for _, _, b in llama.values())}
with open(os.path.join(out, "oracle.json"), "w") as f:
    json.dump(oracle, f)
