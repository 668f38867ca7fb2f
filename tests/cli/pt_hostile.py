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
import tarfile
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
    f.update(legacy_cases(cmd))
    f.update(bomb_cases())
    return f


# ---- issue 29: code where a scanner stopping at the first non-PROTO pickle
# would not look, and pickles whose walk costs more than their bytes ----

MAGIC2 = b"\x80\x02\x8a\x0al\xfc\x9cF\xf9 j\xa8P\x19."  # protocol 2, as torch writes it
MAGIC0 = b"L119547037146038801333356L\n."                 # the same number in protocol 0
VERSION2 = b"\x80\x02M\xe9\x03."
VERSION0 = b"I1001\n."
SYSINFO2 = (b"\x80\x02}(" + u("protocol_version") + b"M\xe9\x03" + u("little_endian") + b"\x88" +
            u("type_sizes") + b"}(" + u("short") + b"K\x02" + u("int") + b"K\x04" + u("long") +
            b"K\x04uu.")
# {'w': tensor} as torch < 1.6 pickled it: the storage's persistent id has
# a sixth item, its view metadata (None)
LTENSOR = (glob("torch._utils", "_rebuild_tensor_v2") + b"(" +
           b"(" + u("storage") + glob("torch", "FloatStorage") + u("0") + u("cpu") +
           b"K\x04Nt" + b"Q" + b"K\x00" + b"K\x02K\x02\x86" + b"K\x02K\x01\x86" + b"\x89" +
           glob("collections", "OrderedDict") + b")R" + b"tR")
OBJECT2 = b"\x80\x02}(" + u("w") + LTENSOR + b"u."
KEYS2 = b"\x80\x02]" + u("0") + b"a."
STORAGE = struct.pack("<Q", 4) + WEIGHTS


def p0_call(cmd):
    """posix.system(cmd) in protocol 0, its result left on the stack."""
    return b"cposix\nsystem\n(S'" + cmd.encode() + b"'\ntR"


def legacy(magic=MAGIC2, version=VERSION2, sysinfo=SYSINFO2, obj=OBJECT2, keys=KEYS2,
           storages=STORAGE):
    return magic + version + sysinfo + obj + keys + storages


def tarred(*members):
    """A tar of (name, bytes) members, dated 0: the same bytes every run."""
    b = io.BytesIO()
    with tarfile.open(fileobj=b, mode="w", format=tarfile.USTAR_FORMAT) as t:
        for name, data in members:
            ti = tarfile.TarInfo(name)
            ti.size, ti.mtime = len(data), 0
            t.addfile(ti, io.BytesIO(data))
    return b.getvalue()


def legacy_cases(cmd):
    f = {}
    f["legacy_clean.pt"] = legacy()
    # the object pickle in protocol 0: {'w': posix.system(cmd)}, no storages
    f["legacy_p0_object.pt"] = legacy(obj=b"(dS'w'\n" + p0_call(cmd) + b"s.", keys=b"(l.",
                                      storages=b"")
    # the magic number's pickle runs the call, drops it (POP) and gives the number
    f["legacy_p0_magic.pt"] = legacy(magic=p0_call(cmd) + b"0" + MAGIC0)
    # the version and sys_info in protocol 0 and 1, a call in sys_info
    f["legacy_p1_sysinfo.pt"] = legacy(
        version=VERSION0,
        sysinfo=p0_call(cmd) + b"0}(U\rlittle_endianI01\nu.")
    # the storage keys' pickle: a call, dropped, then the list
    f["legacy_p0_keys.pt"] = legacy(keys=p0_call(cmd) + b"0(lS'0'\na.")
    # a zip checkpoint with a second pickle beside data.pkl that torch.load
    # does not read, but a loader of the archive's .pkl files would
    b = io.BytesIO()
    with zipfile.ZipFile(b, "w", zipfile.ZIP_STORED) as z:
        def put(name, data):
            z.writestr(zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0)), data)
        put("archive/data.pkl", b"\x80\x02}(" + u("w") + TENSOR + b"u.")
        put("archive/data/0", WEIGHTS)
        put("archive/extra.pkl", b"\x80\x02" + glob("posix", "system") + u(cmd) + b"\x85R.")
        put("archive/version", b"3\n")
    f["zip_second_pkl.pt"] = b.getvalue()
    # a tar checkpoint (torch < 0.4): the call in its pickle member, after
    # the storages and tensors members with none
    f["tar_pickle.pt"] = tarred(
        ("storages", b"\x80\x02K\x01." +
         b"\x80\x02(" + u("0") + u("cpu") + glob("torch", "FloatStorage") + b"t." + STORAGE +
         b"\x80\x02]."),
        ("tensors", b"\x80\x02K\x00."),
        ("pickle", b"\x80\x02}(" + u("x") + glob("posix", "system") + u(cmd) + b"\x85Ru."))
    # ...and one whose second storage's pickle calls, past the first's bytes
    f["tar_storage_call.pt"] = tarred(
        ("storages", b"\x80\x02K\x02." +
         b"\x80\x02(" + u("0") + u("cpu") + glob("torch", "FloatStorage") + b"t." + STORAGE +
         p0_call(cmd) + b"0(S'1'\nS'cpu'\n" + glob("torch", "FloatStorage") + b"t." + STORAGE +
         b"\x80\x02]."),
        ("tensors", b"\x80\x02K\x00."),
        ("pickle", b"\x80\x02}."))
    # a pickle file of two: a clean one, then one in protocol 0 that calls
    f["two_pickles.pkl"] = b"\x80\x02K\x01." + p0_call(cmd) + b"."
    # a checkpoint whose call names a global and a key with terminal escapes
    f["escapes.pt"] = zipped(b"\x80\x02}(" + u("w\x1b]0;PWNED\x07") + TENSOR + u("x") +
                             glob("posix\x1b]0;PWNED\x07\x1b[31m", "system") + u(cmd) +
                             b"\x85R" + b"u.")
    return f


def binput(i):
    return b"q" + bytes([i]) if i < 256 else b"r" + struct.pack("<I", i)


def binget(i):
    return b"h" + bytes([i]) if i < 256 else b"j" + struct.pack("<I", i)


def bomb_cases():
    f = {}
    # memo chains: level i is [level i-1, level i-1, level i-2], a tensor at
    # the bottom: 2^200 and more key paths from 5 KB
    body = TENSOR + binput(0) + b"0" + TENSOR + binput(1) + b"0"
    for i in range(2, 250):
        body += b"(" + binget(i - 1) + binget(i - 1) + binget(i - 2) + b"l" + binput(i) + b"0"
    f["bomb_memo.pt"] = zipped(b"\x80\x02}(" + u("w") + body + binget(249) + b"u.")
    # DUP chains: (x, x) of (x, x) ... 250 deep from 500 bytes
    f["bomb_dup.pt"] = zipped(b"\x80\x02}(" + u("w") + TENSOR + b"2\x86" * 250 + b"u.")
    # a list that holds itself 2,000 times (4 KB)
    f["bomb_selflist.pt"] = zipped(b"\x80\x02]q\x00(" + b"h\x00" * 2000 + b"e.")
    # a dict that holds itself under 40 keys, and a tensor
    body = b"\x80\x02}q\x00(" + u("w") + TENSOR
    for i in range(40):
        body += u("k%d" % i) + b"h\x00"
    f["bomb_selfdict.pt"] = zipped(body + b"u.")
    # a storage of one float viewed as 2^20 x 2^20 elements with strides 0
    st0 = (glob("torch._utils", "_rebuild_tensor_v2") + b"(" +
           b"(" + u("storage") + glob("torch", "FloatStorage") + u("0") + u("cpu") +
           b"K\x01t" + b"Q" + b"K\x00" + b"J\x00\x00\x10\x00J\x00\x00\x10\x00\x86" +
           b"K\x00K\x00\x86" + b"\x89" + glob("collections", "OrderedDict") + b")R" + b"tR")
    f["bomb_stride0.pt"] = zipped(b"\x80\x02}(" + u("w") + st0 + b"u.",
                                  storages=(struct.pack("<f", 2.5),))
    # windows that overlap: 4096 x 4096 elements with strides (1, 1) over a
    # storage of 8192: 16 million logical elements from 32 KB
    ov = (glob("torch._utils", "_rebuild_tensor_v2") + b"(" +
          b"(" + u("storage") + glob("torch", "FloatStorage") + u("0") + u("cpu") +
          b"M\x00\x20t" + b"Q" + b"K\x00" + b"M\x00\x10M\x00\x10\x86" +
          b"K\x01K\x01\x86" + b"\x89" + glob("collections", "OrderedDict") + b")R" + b"tR")
    f["bomb_overlap.pt"] = zipped(b"\x80\x02}(" + u("w") + ov + b"u.",
                                  storages=(struct.pack("<8192f", *range(8192)),))
    return f


if __name__ == "__main__":
    for name, data in make(sys.argv[2]).items():
        with open(sys.argv[1] + "/" + name, "wb") as fh:
            fh.write(data)
