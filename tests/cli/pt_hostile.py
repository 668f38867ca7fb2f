#!/usr/bin/env python3
"""Hostile PyTorch checkpoints and pickles for tests/cli/pt_checkpoint.sh,
written opcode by opcode as bytes (nothing here is ever unpickled), zipped
with the standard zipfile module and then damaged byte by byte.

  pt_hostile.py OUTDIR MARKER

MARKER is the file the shell commands inside would create: the test checks
it was not."""
import struct
import sys
import zipfile

out, marker = sys.argv[1], sys.argv[2]


def u(s):  # BINUNICODE
    b = s.encode()
    return b"X" + struct.pack("<I", len(b)) + b


def glob(mod, name):  # GLOBAL (protocol 0 text)
    return b"c" + mod.encode() + b"\n" + name.encode() + b"\n"


# A tensor by hand: _rebuild_tensor_v2(storage('0', FloatStorage, 4), 0,
# (2, 2), (2, 1), False, OrderedDict())
TENSOR = (glob("torch._utils", "_rebuild_tensor_v2") + b"(" +
          b"(" + u("storage") + glob("torch", "FloatStorage") + u("0") + u("cpu") +
          b"K\x04t" + b"Q" + b"K\x00" + b"K\x02K\x02\x86" + b"K\x02K\x01\x86" + b"\x89" +
          glob("collections", "OrderedDict") + b")R" + b"tR")
WEIGHTS = struct.pack("<4f", 1.5, -2.0, 3.25, 0.0)


def ckpt(path, pkl, storages=(WEIGHTS,), deflate=()):
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as z:
        z.writestr("archive/data.pkl", pkl,
                   zipfile.ZIP_DEFLATED if "data.pkl" in deflate else zipfile.ZIP_STORED)
        for i, s in enumerate(storages):
            z.writestr("archive/data/%d" % i, s,
                       zipfile.ZIP_DEFLATED if str(i) in deflate else zipfile.ZIP_STORED)
        z.writestr("archive/version", b"3\n")


def save(name, data):
    with open(out + "/" + name, "wb") as f:
        f.write(data)


cmd = "touch " + marker
# {'w': tensor, 'x': posix.system('touch MARKER')}
ckpt(out + "/system.pt", b"\x80\x02}(" + u("w") + TENSOR + u("x") +
     glob("posix", "system") + u(cmd) + b"\x85R" + b"u.")
# a clean one: {'w': tensor}
ckpt(out + "/clean.pt", b"\x80\x02}(" + u("w") + TENSOR + b"u.")
# protocol 0 os.system, as a bare pickle file
save("os_system.pkl", b"cos\nsystem\n(S'" + cmd.encode() + b"'\ntR.")
# builtins.exec through STACK_GLOBAL (protocol 4)
save("exec.pkl", b"\x80\x04" + u("builtins") + u("exec") + b"\x93" +
     u("import os; os.system('" + cmd + "')") + b"\x85R.")
# subprocess.Popen(['touch', MARKER]) inside a checkpoint
ckpt(out + "/popen.pt", b"\x80\x02}(" + u("w") + TENSOR + u("p") +
     glob("subprocess", "Popen") + b"]" + b"(" + u("touch") + u(marker) + b"e" + b"\x85R" +
     b"u.")
# a reduce chain: getattr(__import__('os'), 'system')('touch MARKER')
save("chain.pkl", b"\x80\x02" + glob("builtins", "getattr") + b"(" +
     glob("builtins", "__import__") + u("os") + b"\x85R" + u("system") + b"tR" +
     u(cmd) + b"\x85R.")
# NEWOBJ and BUILD of a class outside the allowlist
save("newobj.pkl", b"\x80\x02" + glob("evil", "Payload") + b")\x81}" + u("cmd") + u(cmd) +
     b"sb.")
# memo: BINGET of an index never set; LONG_BINPUT far ahead
save("memo_get.pkl", b"\x80\x02N" + b"j\x9f\x86\x01\x00" + b".")
save("memo_put.pkl", b"\x80\x02Nr\xf0\xff\xff\xff.")
# deep nesting: 5000 MARKs; a stack of a million and more empty lists
save("marks.pkl", b"\x80\x02" + b"(" * 5000 + b".")
save("stack.pkl", b"\x80\x02" + b"]" * ((1 << 20) + 8) + b".")
# truncated: a checkpoint whose pickle stops half way
ckpt(out + "/truncated.pt", (b"\x80\x02}(" + u("w") + TENSOR + b"u.")[:60])
# an entry past the end: the central directory says data/0 holds 1 GB
ckpt(out + "/past_end.pt", b"\x80\x02}(" + u("w") + TENSOR + b"u.")
b = bytearray(open(out + "/past_end.pt", "rb").read())
cd = b.find(b"PK\x01\x02archive/data/0"[:4], b.find(b"PK\x01\x02") + 1)  # 2nd entry
b[cd + 20:cd + 28] = struct.pack("<II", 1 << 30, 1 << 30)
save("past_end.pt", bytes(b))
# overlapping entries: data/0's local header offset set to data.pkl's
ckpt(out + "/overlap.pt", b"\x80\x02}(" + u("w") + TENSOR + b"u.")
b = bytearray(open(out + "/overlap.pt", "rb").read())
cd1 = b.find(b"PK\x01\x02")
cd2 = b.find(b"PK\x01\x02", cd1 + 1)
b[cd2 + 42:cd2 + 46] = b[cd1 + 42:cd1 + 46]
save("overlap.pt", bytes(b))
# deflate: the pickle itself, and (a zip bomb's way) one storage of 64 MB zeros
ckpt(out + "/deflate_pkl.pt", b"\x80\x02}(" + u("w") + TENSOR + b"u.", deflate=("data.pkl",))
ckpt(out + "/bomb.pt", b"\x80\x02}(" + u("w") + TENSOR + b"u.",
     storages=(b"\0" * (64 << 20),), deflate=("0",))
# a legacy (torch < 1.6) checkpoint's start: its magic number pickled
save("legacy.pt", b"\x80\x02\x8a\x0al\xfc\x9cF\xf9 j\xa8P\x19.\x80\x02M\xe9\x03.")
