"""st_write.py - a safetensors file written from the format's spec
(huggingface/safetensors, safetensors/src/tensor.rs): the 8-byte length,
the JSON header padded with spaces to 8 bytes, tensors sorted by alignment
then name, their data end to end. Debian 12 has no python3-safetensors, so
the tests' files are written here."""
import json
import struct

ALIGN = {"F64": 8, "I64": 8, "U64": 8, "C64": 8, "F32": 4, "I32": 4, "U32": 4, "F16": 2,
         "BF16": 2, "I16": 2, "U16": 2}


def write(path, tensors, meta=None):
    """tensors: name -> (dtype, shape, bytes), laid out as tensor.rs does."""
    order = sorted(tensors, key=lambda n: (-ALIGN.get(tensors[n][0], 1), n))
    hdr, blobs, off = {}, [], 0
    if meta is not None:
        hdr["__metadata__"] = meta
    for n in order:
        dt, shape, b = tensors[n]
        hdr[n] = {"dtype": dt, "shape": list(shape), "data_offsets": [off, off + len(b)]}
        off += len(b)
        blobs.append(b)
    h = json.dumps(hdr, separators=(",", ":")).encode()
    h += b" " * ((8 - len(h) % 8) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(h)) + h + b"".join(blobs))
