#!/usr/bin/env python3
"""Write SavedModel folders whose variables/ checkpoint is built byte by byte.

No TensorFlow is needed (nor used): the tensor-bundle index is a LevelDB-format
table written here from the format itself, the standard library only.

  tf_bundle_gen.py KIND OUT_DIR SAVED_MODEL_PB

copies SAVED_MODEL_PB to OUT_DIR/saved_model.pb and writes OUT_DIR/variables/.
KIND is one of:
  strings     a string variable (DT_STRING, 6 elements, bytes that need escaping)
              and a float one, as TensorFlow lays them out in the data shard:
              varint lengths, a masked CRC-32C of the lengths, then the bytes.
  keybomb     prefix-compressed keys that each share the whole previous key and
              add one byte: an 860 KB index whose keys rebuilt in full are 4.4 GB.
  refbomb     one 140 KB data block named by 60,000 index entries.
  snappybomb  one Snappy block that decodes to 8 MB, named by 1,000 index entries.
  snappyonce  the same 8 MB Snappy block, named once: within budget, it opens.
  tinybomb    a Snappy block decoding to 8 MB of 3-byte entries (2.8 million
              variables out of a 390 KB index).

Table layout (LevelDB): data blocks, a metaindex block, an index block, a
48-byte footer (two block handles as varints, zero padding to 40 bytes, the
magic 0xdb4775248b80fb57 little-endian). Every block is followed by a type
byte (0 plain, 1 Snappy) and the masked CRC-32C of the block and that byte.
A block holds entries (varint shared, unshared, value length; the key's new
bytes; the value), then the restart offsets and their count (uint32 LE).
"""
import os
import shutil
import struct
import sys

MAGIC = 0xdb4775248b80fb57

_CRC = []
for _i in range(256):
    _c = _i
    for _ in range(8):
        _c = (_c >> 1) ^ 0x82f63b78 if _c & 1 else _c >> 1
    _CRC.append(_c)


def crc32c(data, crc=0):
    crc ^= 0xffffffff
    tab = _CRC
    for b in data:
        crc = tab[(crc ^ b) & 0xff] ^ (crc >> 8)
    return crc ^ 0xffffffff


def mask(c):
    return (((c >> 15) | (c << 17)) + 0xa282ead8) & 0xffffffff


def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7f
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def field_varint(num, v):
    return varint(num << 3) + varint(v)


def field_len(num, payload):
    return varint(num << 3 | 2) + varint(len(payload)) + payload


def field_fixed32(num, v):
    return varint(num << 3 | 5) + struct.pack('<I', v)


def shape(dims):
    return b''.join(field_len(2, field_varint(1, d) if d else b'') for d in dims)


def entry(dtype, dims, offset=0, size=0, crc=None, shard=0):
    """A BundleEntryProto: dtype 1, shape 2, shard_id 3, offset 4, size 5, crc32c 6."""
    out = field_varint(1, dtype) + field_len(2, shape(dims))
    if shard:
        out += field_varint(3, shard)
    if offset:
        out += field_varint(4, offset)
    if size:
        out += field_varint(5, size)
    if crc is not None:
        out += field_fixed32(6, crc)
    return out


def header(num_shards=1):
    """BundleHeaderProto: num_shards 1, endianness 2 (0 little), version 3."""
    return field_varint(1, num_shards) + field_len(3, field_varint(1, 1))


def block(entries, restart_every=16):
    """Entries (key, value) in order; a restart every `restart_every` (None: one)."""
    out = bytearray()
    restarts = []
    prev = b''
    for i, (key, value) in enumerate(entries):
        if i == 0 or (restart_every and i % restart_every == 0):
            restarts.append(len(out))
            shared = 0
        else:
            shared = 0
            while shared < min(len(prev), len(key)) and prev[shared] == key[shared]:
                shared += 1
        out += varint(shared) + varint(len(key) - shared) + varint(len(value))
        out += key[shared:] + value
        prev = key
    if not restarts:
        restarts = [0]
    for r in restarts:
        out += struct.pack('<I', r)
    out += struct.pack('<I', len(restarts))
    return bytes(out)


class Table:
    def __init__(self):
        self.out = bytearray()

    def add_block(self, contents, kind=0):
        """Write a block (already compressed if kind 1); its handle (offset, size)."""
        off = len(self.out)
        self.out += contents + bytes([kind])
        self.out += struct.pack('<I', mask(crc32c(bytes([kind]), crc32c(contents))))
        return off, len(contents)

    def finish(self, index_entries):
        """index_entries: (key, (offset, size)) per data block reference."""
        meta = self.add_block(block([]))
        idx = self.add_block(block([(k, varint(o) + varint(n)) for k, (o, n) in index_entries],
                                   restart_every=None))
        foot = varint(meta[0]) + varint(meta[1]) + varint(idx[0]) + varint(idx[1])
        foot += b'\0' * (40 - len(foot)) + struct.pack('<Q', MAGIC)
        self.out += foot
        return bytes(self.out)


def snappy_literal(data):
    """A Snappy literal element (any length up to 2^32)."""
    n = len(data) - 1
    if n < 60:
        return bytes([n << 2]) + data
    nb = (n.bit_length() + 7) // 8
    return bytes([(59 + nb) << 2]) + n.to_bytes(nb, 'little') + data


def snappy_runs(prefix, period, total, suffix):
    """A Snappy stream: `prefix` as a literal, then its last `period` bytes
    repeated up to `total` bytes by 64-byte copies, then `suffix`. Tiny input,
    large output: the shape of a compression bomb."""
    body = bytearray(varint(total) + snappy_literal(prefix))
    have = len(prefix)
    want = total - len(suffix)
    while have < want:
        n = min(64, want - have)  # a 2-byte-offset copy: 1 to 64 bytes
        body += bytes([((n - 1) << 2) | 2]) + struct.pack('<H', period)
        have += n
    body += snappy_literal(suffix)
    return bytes(body)


def string_tensor(strings):
    """TensorFlow's layout of a DT_STRING tensor in a data shard, and the
    entry's crc32c: varint lengths, a masked CRC-32C of the lengths (each as
    uint32 LE, uint64 past 2^32), then the bytes; the entry checksum runs over
    those lengths, the 4 checksum bytes and the string bytes."""
    lengths = b''.join(varint(len(s)) for s in strings)
    c = 0
    for s in strings:
        c = crc32c(struct.pack('<I' if len(s) <= 0xffffffff else '<Q', len(s)), c)
    ck = struct.pack('<I', mask(c))
    c = crc32c(ck, c)
    for s in strings:
        c = crc32c(s, c)
    return lengths + ck + b''.join(strings), mask(c)


STRINGS = [b'hello', b'', b'esc \x1b[31mred', 'na\u00efve \u2713'.encode(), b'tab\tnul\x00end',
           b'x' * 300]


def kind_strings():
    data, scrc = string_tensor(STRINGS)
    floats = struct.pack('<3f', 1.5, -2.0, 0.25)
    shard = floats + data
    t = Table()
    blk = block([(b'', header()),
                 (b'a_floats', entry(1, [3], 0, len(floats), mask(crc32c(floats)))),
                 (b'words', entry(7, [2, 3], len(floats), len(data), scrc))])
    h = t.add_block(blk)
    return t.finish([(b'words', h)]), shard


def kind_keybomb():
    # Written entry by entry (block() would rebuild the 4 GB of keys itself):
    # after the header and a 30,000-byte key, each entry shares the whole
    # previous key and adds one byte.
    value = entry(1, [])
    hdr = header()
    out = bytearray(varint(0) + varint(0) + varint(len(hdr)) + hdr)
    out += varint(0) + varint(30000) + varint(len(value)) + b'k' * 30000 + value
    for i in range(1, 72000):
        out += varint(30000 + i - 1) + varint(1) + varint(len(value))
        out += bytes([0x41 + i % 26]) + value
    out += struct.pack('<II', 0, 1)
    t = Table()
    h = t.add_block(bytes(out))
    return t.finish([(b'k', h)]), b''


def kind_refbomb():
    # One entry whose value carries 140 KB in an unknown field (15): the block
    # is 140 KB, and every reference to it copies it again in the old reader.
    value = entry(1, []) + field_len(15, b'\0' * 140000)
    t = Table()
    h = t.add_block(block([(b'', header()), (b'v', value)]))
    return t.finish([(b'v', h)] * 60000), b''


def bomb_block_8mb():
    """An 8 MB block, Snappy-compressed to 390 KB: the header entry and one
    variable "v" whose value holds megabytes of zeros in an unknown field (15)."""
    total = 8 << 20
    hdr = header()
    first = varint(0) + varint(0) + varint(len(hdr)) + hdr
    trailer = struct.pack('<II', 0, 1)  # one restart, at 0
    base = entry(1, [])
    n = total
    for _ in range(4):  # the zeros' length that makes it exactly 8 MB (varints settle)
        value_head = base + varint(15 << 3 | 2) + varint(n)
        head = first + varint(0) + varint(1) + varint(len(value_head) + n) + b'v' + value_head
        n = total - len(head) - len(trailer)
    assert len(head) + n + len(trailer) == total
    return snappy_runs(head + b'\0', 1, total, trailer)


def kind_snappy(refs):
    t = Table()
    h = t.add_block(bomb_block_8mb(), kind=1)
    return t.finish([(b'v', h)] * refs), b''


def kind_tinybomb():
    # Entries of 3 bytes (shared 1, unshared 0, value 0): each is key "a" again.
    total = 8 << 20
    hdr = header()
    head = varint(0) + varint(0) + varint(len(hdr)) + hdr
    head += varint(0) + varint(1) + varint(0) + b'a'
    trailer = struct.pack('<II', 0, 1)
    body = total - len(head) - len(trailer)
    body -= body % 3
    total = len(head) + body + len(trailer)
    stream = snappy_runs(head + b'\x01\x00\x00', 3, total, trailer)
    t = Table()
    h = t.add_block(stream, kind=1)
    return t.finish([(b'a', h)]), b''


KINDS = {
    'strings': kind_strings,
    'keybomb': kind_keybomb,
    'refbomb': kind_refbomb,
    'snappybomb': lambda: kind_snappy(1000),
    'snappyonce': lambda: kind_snappy(1),
    'tinybomb': kind_tinybomb,
}


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in KINDS:
        sys.exit('usage: tf_bundle_gen.py {%s} OUT_DIR SAVED_MODEL_PB' % ','.join(KINDS))
    kind, out, pb = sys.argv[1:]
    index, shard = KINDS[kind]()
    os.makedirs(os.path.join(out, 'variables'), exist_ok=True)
    shutil.copyfile(pb, os.path.join(out, 'saved_model.pb'))
    with open(os.path.join(out, 'variables', 'variables.index'), 'wb') as f:
        f.write(index)
    with open(os.path.join(out, 'variables', 'variables.data-00000-of-00001'), 'wb') as f:
        f.write(shard)


if __name__ == '__main__':
    main()
