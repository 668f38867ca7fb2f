#!/usr/bin/env python3
"""st_shards_gen.py OUTDIR - a sharded Llama-shaped model as transformers'
save_pretrained lays one out (model-0000K-of-0000N.safetensors, each under
a maximum shard size in the order of the state_dict, an index
model.safetensors.index.json of {"metadata": {"total_size"}, "weight_map"},
config.json beside), the same in a Hugging Face cache (hub/models--org--
tiny-llama/{blobs/SHA256, refs/main, snapshots/REV/NAME -> ../../blobs/SHA256}),
and what a reader must find: OUTDIR/oracle.json (every tensor's dtype,
shape, shard, and the first values of one as torch reads them).

  sharded/        3 shards, bf16 (norms f32), config.json
  hub/...         the same files as huggingface_hub caches them
  missing/        the index names a shard that is not there
  stray/          a fourth shard the index does not name
  wrongmap/       the index maps a tensor to a shard that does not hold it
"""
import hashlib
import json
import math
import os
import shutil
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from st_write import write  # noqa: E402

out = sys.argv[1]
torch.manual_seed(33)
H, I, V, L = 16, 32, 64, 32
state = {}
state["model.embed_tokens.weight"] = torch.randn(V, H).to(torch.bfloat16)
for i in range(L):
    p = "model.layers.%d." % i
    for k in ("q_proj", "k_proj", "v_proj", "o_proj"):
        state[p + "self_attn.%s.weight" % k] = torch.randn(H, H).to(torch.bfloat16)
    state[p + "mlp.gate_proj.weight"] = torch.randn(I, H).to(torch.bfloat16)
    state[p + "mlp.up_proj.weight"] = torch.randn(I, H).to(torch.bfloat16)
    state[p + "mlp.down_proj.weight"] = torch.randn(H, I).to(torch.bfloat16)
    state[p + "input_layernorm.weight"] = torch.rand(H)
    state[p + "post_attention_layernorm.weight"] = torch.rand(H)
state["model.norm.weight"] = torch.rand(H)
state["lm_head.weight"] = torch.randn(V, H).to(torch.bfloat16)

DT = {torch.bfloat16: "BF16", torch.float32: "F32"}


def raw(t):
    return (t.view(torch.int16) if t.dtype == torch.bfloat16 else t).numpy().tobytes()


# Shards as transformers' shard_checkpoint makes them: in order, a new
# shard when the next tensor would pass the maximum size.
MAX = 24000
shards, cur, size = [], {}, 0
for name, t in state.items():
    b = raw(t)
    if cur and size + len(b) > MAX:
        shards.append(cur)
        cur, size = {}, 0
    cur[name] = (DT[t.dtype], tuple(t.shape), b)
    size += len(b)
shards.append(cur)
N = len(shards)
names = ["model-%05d-of-%05d.safetensors" % (k + 1, N) for k in range(N)]
config = {"architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": H,
          "intermediate_size": I, "num_hidden_layers": L, "num_attention_heads": 4,
          "num_key_value_heads": 2, "vocab_size": V, "torch_dtype": "bfloat16",
          "rope_scaling": None, "tie_word_embeddings": False,
          "quantization_config": {"quant_method": "fp8", "bits": 8}}


def folder(path, names_=names, shards_=shards, index_extra=None):
    os.makedirs(path, exist_ok=True)
    wm = {}
    for nm, sh in zip(names_, shards_):
        write(os.path.join(path, nm), sh, {"format": "pt"})
        for t in sh:
            wm[t] = nm
    total = sum(len(b) for sh in shards_ for (_, _, b) in sh.values())
    idx = {"metadata": {"total_size": total}, "weight_map": wm}
    if index_extra:
        index_extra(idx)
    with open(os.path.join(path, "model.safetensors.index.json"), "w") as f:
        json.dump(idx, f, indent=2)
    with open(os.path.join(path, "config.json"), "w") as f:
        json.dump(config, f, indent=2)


folder(os.path.join(out, "sharded"))

# The Hugging Face cache: every file a blob named by its sha256.
repo = os.path.join(out, "hub", "models--org--tiny-llama")
rev = "89abcdef0123456789abcdef0123456789abcdef"
snap = os.path.join(repo, "snapshots", rev)
os.makedirs(os.path.join(repo, "blobs"), exist_ok=True)
os.makedirs(os.path.join(repo, "refs"), exist_ok=True)
os.makedirs(snap, exist_ok=True)
with open(os.path.join(repo, "refs", "main"), "w") as f:
    f.write(rev)
src = os.path.join(out, "sharded")
for nm in sorted(os.listdir(src)):
    data = open(os.path.join(src, nm), "rb").read()
    sha = hashlib.sha256(data).hexdigest()
    with open(os.path.join(repo, "blobs", sha), "wb") as f:
        f.write(data)
    os.symlink("../../blobs/" + sha, os.path.join(snap, nm))

# Broken folders.
shutil.copytree(src, os.path.join(out, "missing"))
os.remove(os.path.join(out, "missing", names[1]))
shutil.copytree(src, os.path.join(out, "stray"))
write(os.path.join(out, "stray", "model-00004-of-00004.safetensors"),
      {"extra.weight": ("F32", (2,), b"\0" * 8)})


def wrong(idx):
    idx["weight_map"]["model.norm.weight"] = names[0]


folder(os.path.join(out, "wrongmap"), index_extra=wrong)

probe = "model.layers.17.mlp.down_proj.weight"
oracle = {
    "tensors": len(state), "params": sum(t.numel() for t in state.values()),
    "bytes": sum(t.numel() * t.element_size() for t in state.values()),
    "layers": L, "shards": names,
    "layer_params": sum(t.numel() for n, t in state.items() if n.startswith("model.layers.0.")),
    "dtype": {n: DT[t.dtype] for n, t in state.items()},
    "shape": {n: list(t.shape) for n, t in state.items()},
    "shard": {t: nm for nm, sh in zip(names, shards) for t in sh},
    "probe": probe, "probe_values": [float(x) for x in state[probe].float().flatten()[:6]],
    "probe_min": float(state[probe].float().min()), "probe_max": float(state[probe].float().max()),
    "config": config,
}
assert all(math.isfinite(x) for x in oracle["probe_values"])
with open(os.path.join(out, "oracle.json"), "w") as f:
    json.dump(oracle, f)
