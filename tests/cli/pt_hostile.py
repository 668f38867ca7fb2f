#!/usr/bin/env python3
"""Hostile PyTorch checkpoints and pickles for tests/cli/pt_checkpoint.sh
and the adversarial suite (tests/adversarial/cases_pt.py), written opcode by
opcode as bytes (nothing here is ever unpickled), zipped with the standard
zipfile module (at a fixed date: the same bytes every run) and then damaged
byte by byte.

  pt_hostile.py OUTDIR MARKER

MARKER is the file the shell commands inside would create: the tests check
it was not."""
import io
import struct
import sys
import zipfile


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


def zipped(pkl, storages=(WEIGHTS,), deflate=()):
    b = io.BytesIO()
    with zipfile.ZipFile(b, "w", zipfile.ZIP_STORED) as z:
        def put(name, data, how):
            z.writestr(zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0)), data, how)
        put("archive/data.pkl", pkl,
            zipfile.ZIP_DEFLATED if "data.pkl" in deflate else zipfile.ZIP_STORED)
        for i, s in enumerate(storages):
            put("archive/data/%d" % i, s,
                zipfile.ZIP_DEFLATED if str(i) in deflate else zipfile.ZIP_STORED)
        put("archive/version", b"3\n", zipfile.ZIP_STORED)
    return b.getvalue()


def make(marker, big=True):
    """File name -> bytes; big adds the 1 MB stack and the zip bomb."""
    f = {}
    cmd = "touch " + marker
    # {'w': tensor, 'x': posix.system('touch MARKER')}
    f["system.pt"] = zipped(b"\x80\x02}(" + u("w") + TENSOR + u("x") +
                            glob("posix", "system") + u(cmd) + b"\x85R" + b"u.")
    # a clean one: {'w': tensor}
    f["clean.pt"] = zipped(b"\x80\x02}(" + u("w") + TENSOR + b"u.")
    # protocol 0 os.system, as a bare pickle file
    f["os_system.pkl"] = b"cos\nsystem\n(S'" + cmd.encode() + b"'\ntR."
    # builtins.exec through STACK_GLOBAL (protocol 4)
    f["exec.pkl"] = (b"\x80\x04" + u("builtins") + u("exec") + b"\x93" +
                     u("import os; os.system('" + cmd + "')") + b"\x85R.")
    # subprocess.Popen(['touch', MARKER]) inside a checkpoint
    f["popen.pt"] = zipped(b"\x80\x02}(" + u("w") + TENSOR + u("p") +
                           glob("subprocess", "Popen") + b"]" + b"(" + u("touch") + u(marker) +
                           b"e" + b"\x85R" + b"u.")
    # a reduce chain: getattr(__import__('os'), 'system')('touch MARKER')
    f["chain.pkl"] = (b"\x80\x02" + glob("builtins", "getattr") + b"(" +
                      glob("builtins", "__import__") + u("os") + b"\x85R" + u("system") + b"tR" +
                      u(cmd) + b"\x85R.")
    # NEWOBJ and BUILD of a class outside the allowlist
    f["newobj.pkl"] = (b"\x80\x02" + glob("evil", "Payload") + b")\x81}" + u("cmd") + u(cmd) +
                       b"sb.")
    # memo: BINGET of an index never set; LONG_BINPUT far ahead
    f["memo_get.pkl"] = b"\x80\x02N" + b"j\x9f\x86\x01\x00" + b"."
    f["memo_put.pkl"] = b"\x80\x02Nr\xf0\xff\xff\xff."
    # deep nesting: 5000 MARKs; a stack of a million and more empty lists
    f["marks.pkl"] = b"\x80\x02" + b"(" * 5000 + b"."
    if big:
        f["stack.pkl"] = b"\x80\x02" + b"]" * ((1 << 20) + 8) + b"."
    # truncated: a checkpoint whose pickle stops half way
    f["truncated.pt"] = zipped((b"\x80\x02}(" + u("w") + TENSOR + b"u.")[:60])
    # an entry past the end: the central directory says data/0 holds 1 GB
    b = bytearray(zipped(b"\x80\x02}(" + u("w") + TENSOR + b"u."))
    cd = b.find(b"PK\x01\x02", b.find(b"PK\x01\x02") + 1)  # 2nd entry
    b[cd + 20:cd + 28] = struct.pack("<II", 1 << 30, 1 << 30)
    f["past_end.pt"] = bytes(b)
    # overlapping entries: data/0's local header offset set to data.pkl's
    b = bytearray(zipped(b"\x80\x02}(" + u("w") + TENSOR + b"u."))
    cd1 = b.find(b"PK\x01\x02")
    cd2 = b.find(b"PK\x01\x02", cd1 + 1)
    b[cd2 + 42:cd2 + 46] = b[cd1 + 42:cd1 + 46]
    f["overlap.pt"] = bytes(b)
    # deflate: the pickle itself, and (a zip bomb's way) one storage of 64 MB zeros
    f["deflate_pkl.pt"] = zipped(b"\x80\x02}(" + u("w") + TENSOR + b"u.", deflate=("data.pkl",))
    if big:
        f["bomb.pt"] = zipped(b"\x80\x02}(" + u("w") + TENSOR + b"u.",
                              storages=(b"\0" * (64 << 20),), deflate=("0",))
    # a legacy (torch < 1.6) checkpoint's start: its magic number pickled
    f["legacy.pt"] = b"\x80\x02\x8a\x0al\xfc\x9cF\xf9 j\xa8P\x19.\x80\x02M\xe9\x03."
    return f


if __name__ == "__main__":
    for name, data in make(sys.argv[2]).items():
        with open(sys.argv[1] + "/" + name, "wb") as fh:
            fh.write(data)
