/* tf_bundle.c - a SavedModel's variables: the tensor-bundle index
 * (variables/variables.index), a LevelDB-format sorted table whose values are
 * BundleEntryProto messages.
 *
 * Only the index is read, at open; the data files are opened when values are
 * asked for (as external data, through extdata.c). Nothing in the table is
 * trusted: every block handle is checked against the file, every block's
 * checksum is verified, Snappy streams are decoded into buffers of the size
 * they declare and no more, and keys are rebuilt within what the block holds.
 * The blocks needed (decompressed or copied) live in the reader's arena, so
 * names are spans into it and the index file is unmapped before open ends.
 *
 * What an index may cost is bounded by its size, so that a small hostile
 * index cannot ask for gigabytes (keys that each repeat the whole previous
 * key, one block named by thousands of index entries, a Snappy block that
 * expands 20-fold):
 *  - the index block names data blocks in file order, each once, none
 *    overlapping another (as every table writer lays them out): each block is
 *    checked and decoded once, and the compressed bytes decoded add up to at
 *    most the file's size;
 *  - a key that shares nothing with the previous one is a span into its
 *    block; only a key that shares a prefix is rebuilt (a copy);
 *  - everything open keeps for the index (decoded or copied blocks, rebuilt
 *    keys, and per variable one tensor record and its dims) is charged to a
 *    budget of BUDGET_BASE + BUDGET_PER_BYTE x the index file's size (16 MiB
 *    + 32 bytes per byte). A real index needs a fifth of that or less (a
 *    variable's entry of 20 to 60 bytes becomes a 136-byte record, its key
 *    and dims); past it the index is refused with an error that names the
 *    budget, the file and the byte offset reached. The budget also bounds
 *    the variables a small index can declare (a 900 KB one, 340,000), and so
 *    the work every later command does for them.
 *
 * Table layout: data blocks, a metaindex block, an index block, and a 48-byte
 * footer (two block handles as varints, padding, the 8-byte magic). Each
 * block is followed by a type byte (0 plain, 1 Snappy) and a masked CRC-32C of
 * the block and that byte. A block holds prefix-compressed entries (shared,
 * unshared and value lengths as varints, the key's new bytes, the value),
 * then restart offsets (uint32 each) and their count (uint32). */
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dtype.h"
#include "map.h"
#include "tf.h"
#include "wire.h"
#include "tensorflow/tensor_bundle.pb-c.h"

#define BUNDLE_INDEX "variables/variables.index"
#define MAGIC 0xdb4775248b80fb57ull
#define MAX_BLOCK (64u << 20) /* a table block larger than this is not a real one */
#define BUDGET_BASE (16ull << 20)
#define BUDGET_PER_BYTE 32u
#define BLOCK_TRAILER 5 /* type byte and masked CRC-32C after every block */

/* ---- CRC-32C ---- */

static uint32_t crc_table[256];
static int crc_ready;

uint32_t nnav_tf_crc32c(uint32_t crc, const uint8_t *p, uint64_t n)
{
    if (!crc_ready) {
        for (uint32_t i = 0; i < 256; i++) {
            uint32_t c = i;
            for (int k = 0; k < 8; k++)
                c = c & 1 ? (c >> 1) ^ 0x82f63b78u : c >> 1;
            crc_table[i] = c;
        }
        crc_ready = 1;
    }
    crc = ~crc;
    for (uint64_t i = 0; i < n; i++)
        crc = crc_table[(crc ^ p[i]) & 0xff] ^ (crc >> 8);
    return ~crc;
}

uint32_t nnav_tf_crc_mask(uint32_t crc)
{
    return ((crc >> 15) | (crc << 17)) + 0xa282ead8u;
}

/* ---- Snappy ---- */

int nnav_tf_snappy_length(const uint8_t *p, uint64_t n, uint64_t *out_n, uint64_t *hdr)
{
    const uint8_t *q = p;
    if (nnav_wire_varint(&q, p + n, out_n) != 0 || *out_n > 0xffffffffu)
        return -1;
    *hdr = (uint64_t)(q - p);
    return 0;
}

int nnav_tf_snappy(const uint8_t *p, uint64_t n, uint8_t *out, uint64_t out_n)
{
    uint64_t total, i, o = 0;
    if (nnav_tf_snappy_length(p, n, &total, &i) != 0 || total != out_n)
        return -1;
    while (i < n) {
        uint8_t tag = p[i++];
        uint64_t len, off;
        if ((tag & 3) == 0) {
            len = tag >> 2;
            if (len >= 60) {
                unsigned extra = (unsigned)len - 59;
                if (n - i < extra)
                    return -1;
                len = 0;
                for (unsigned b = 0; b < extra; b++)
                    len |= (uint64_t)p[i + b] << (8 * b);
                i += extra;
            }
            len++;
            if (len > n - i || len > out_n - o)
                return -1;
            memcpy(out + o, p + i, len);
            i += len;
            o += len;
            continue;
        }
        if ((tag & 3) == 1) {
            if (n - i < 1)
                return -1;
            len = 4 + ((tag >> 2) & 7);
            off = ((uint64_t)(tag >> 5) << 8) | p[i];
            i += 1;
        } else if ((tag & 3) == 2) {
            if (n - i < 2)
                return -1;
            len = (uint64_t)(tag >> 2) + 1;
            off = (uint64_t)p[i] | (uint64_t)p[i + 1] << 8;
            i += 2;
        } else {
            if (n - i < 4)
                return -1;
            len = (uint64_t)(tag >> 2) + 1;
            off = (uint64_t)p[i] | (uint64_t)p[i + 1] << 8 | (uint64_t)p[i + 2] << 16 |
                  (uint64_t)p[i + 3] << 24;
            i += 4;
        }
        if (off == 0 || off > o || len > out_n - o)
            return -1;
        /* Copies may overlap their source (a run): byte by byte. */
        for (uint64_t b = 0; b < len; b++, o++)
            out[o] = out[o - off];
    }
    return o == out_n ? 0 : -1;
}

/* ---- the table ---- */

typedef struct bundle {
    nnav_model *m;
    nnav_error *err;
    const uint8_t *base; /* the index file, mapped */
    uint64_t size;
    uint64_t budget, spent; /* bytes open may keep for the index, and kept so far */
} bundle;

static int bfail(bundle *b, uint64_t off, const char *where, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int bfail(bundle *b, uint64_t off, const char *where, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    nnav_err_set(b->err, off, 1, "%s", msg);
    snprintf(b->err->path, sizeof b->err->path, "%s%s%s", BUNDLE_INDEX, where[0] ? ": " : "",
             where);
    return -1;
}

/* Count n more bytes kept for the index against its budget. */
static int charge(bundle *b, uint64_t n, uint64_t off, const char *where)
{
    if (n <= b->budget - b->spent) {
        b->spent += n;
        return 0;
    }
    return bfail(b, off, where, "the index needs more memory than its budget of %llu bytes "
                                "(%llu MiB + %u bytes per byte of its %llu) for its blocks, "
                                "keys and variables; no real index comes near it",
                 (unsigned long long)b->budget, (unsigned long long)(BUDGET_BASE >> 20),
                 BUDGET_PER_BYTE, (unsigned long long)b->size);
}

/* Read a block handle (offset, size varints) at *p < end. */
static int handle(const uint8_t **p, const uint8_t *end, uint64_t *off, uint64_t *len)
{
    return nnav_wire_varint(p, end, off) || nnav_wire_varint(p, end, len) ? -1 : 0;
}

/* The contents of the block at (off, len): checked, uncompressed, in the arena
 * (charged to the budget). *plain: the contents are the file's bytes as they
 * are (not Snappy), so an offset in them is an offset in the file. */
static int block(bundle *b, uint64_t off, uint64_t len, const char *what, nnav_span *out,
                 int *plain)
{
    if (off > b->size || len > b->size - off || b->size - off - len < BLOCK_TRAILER)
        return bfail(b, off, what, "a block of %llu bytes at offset %llu runs past the end of "
                                   "the file (%llu bytes)", (unsigned long long)len,
                     (unsigned long long)off, (unsigned long long)b->size);
    const uint8_t *p = b->base + off;
    uint8_t type = p[len];
    uint32_t stored = (uint32_t)p[len + 1] | (uint32_t)p[len + 2] << 8 |
                      (uint32_t)p[len + 3] << 16 | (uint32_t)p[len + 4] << 24;
    uint32_t crc = nnav_tf_crc_mask(nnav_tf_crc32c(nnav_tf_crc32c(0, p, len), &type, 1));
    if (crc != stored)
        return bfail(b, off + len + 1, what, "block checksum 0x%08x does not match its "
                                             "contents (0x%08x): the file is damaged",
                     stored, crc);
    *plain = type == 0;
    if (type == 0) {
        if (charge(b, len, off, what) < 0)
            return -1;
        uint8_t *copy = nnav_tf_alloc(nnav_tf_state(b->m), len ? len : 1);
        if (!copy)
            return bfail(b, off, what, "out of memory");
        if (len)
            memcpy(copy, p, len);
        *out = (nnav_span){copy, len};
        return 0;
    }
    if (type != 1)
        return bfail(b, off + len, what, "block compression type %u is not one nnav reads "
                                         "(0 none, 1 Snappy)", type);
    uint64_t ulen, hdr;
    if (nnav_tf_snappy_length(p, len, &ulen, &hdr) != 0 || ulen > MAX_BLOCK)
        return bfail(b, off, what, "a Snappy block declares %s", ulen > MAX_BLOCK
                                                                     ? "more than 64 MiB"
                                                                     : "a malformed length");
    /* Snappy's densest element is a 3-byte copy of 64 bytes. */
    if (ulen > (len - hdr) / 3 * 64 + 64)
        return bfail(b, off, what, "a Snappy block of %llu bytes declares %llu bytes, more "
                                   "than Snappy can expand it to",
                     (unsigned long long)len, (unsigned long long)ulen);
    if (charge(b, ulen, off, what) < 0)
        return -1;
    uint8_t *dst = nnav_tf_alloc(nnav_tf_state(b->m), ulen ? ulen : 1);
    if (!dst)
        return bfail(b, off, what, "out of memory");
    if (nnav_tf_snappy(p, len, dst, ulen) != 0)
        return bfail(b, off, what, "malformed Snappy data in a block");
    *out = (nnav_span){dst, ulen};
    return 0;
}

/* One entry: its key, its value, and its offset (in the file when its block
 * is plain; the block's offset when the block was decompressed). */
typedef int (*entry_fn)(bundle *b, nnav_span key, nnav_span value, uint64_t off, uint32_t idx,
                        void *ctx);

/* Each entry of a block. With `keys`, each key is rebuilt from its shared
 * prefix: a span into the block when it shares nothing, a copy charged to the
 * budget when it does. Without, only the new bytes are handed on (the index
 * block's keys are separators nnav has no use for) and nothing is copied. */
static int entries(bundle *b, nnav_span blk, uint64_t block_off, int plain, int keys,
                   const char *what, entry_fn fn, void *ctx)
{
    if (blk.n < 4)
        return bfail(b, block_off, what, "a block too short for its restart count");
    uint64_t nrest = (uint64_t)blk.p[blk.n - 4] | (uint64_t)blk.p[blk.n - 3] << 8 |
                     (uint64_t)blk.p[blk.n - 2] << 16 | (uint64_t)blk.p[blk.n - 1] << 24;
    if (nrest > (blk.n - 4) / 4)
        return bfail(b, block_off, what, "a block's restart count %llu does not fit it",
                     (unsigned long long)nrest);
    const uint8_t *p = blk.p, *end = blk.p + blk.n - 4 - 4 * nrest;
    nnav_span prev = {(const uint8_t *)"", 0};
    uint32_t idx = 0;
    while (p < end) {
        uint64_t shared, unshared, vlen;
        uint64_t at = block_off + (plain ? (uint64_t)(p - blk.p) : 0);
        char where[96];
        snprintf(where, sizeof where, "%s entry[%u]", what, idx);
        if (nnav_wire_varint(&p, end, &shared) || nnav_wire_varint(&p, end, &unshared) ||
            nnav_wire_varint(&p, end, &vlen))
            return bfail(b, at, where, "a malformed entry header");
        if (shared > prev.n || unshared > (uint64_t)(end - p) || vlen > (uint64_t)(end - p) - unshared)
            return bfail(b, at, where, "an entry's key or value runs past its block");
        nnav_span k = {p, shared + unshared};
        if (keys && shared) {
            if (charge(b, shared + unshared, at, where) < 0)
                return -1;
            uint8_t *key = nnav_tf_alloc(nnav_tf_state(b->m), shared + unshared);
            if (!key)
                return bfail(b, at, where, "out of memory");
            memcpy(key, prev.p, shared);
            if (unshared)
                memcpy(key + shared, p, unshared);
            k.p = key;
        } else if (!keys) {
            k.n = unshared; /* prev.n stays the key's length; its bytes are not needed */
        }
        p += unshared;
        nnav_span v = {p, vlen};
        p += vlen;
        if (fn(b, k, v, at, idx, ctx) < 0)
            return -1;
        prev = (nnav_span){k.p, shared + unshared};
        idx++;
    }
    return 0;
}

typedef struct bundle_ctx {
    uint32_t graph;
    int64_t shards;
    int big_endian;
    uint32_t count;
    int64_t loc_shard;  /* the shard ext_location names (-1: none yet), shared */
    nnav_span location; /* by the variables of one shard */
    uint64_t block_off; /* the data block being read, for error paths */
} bundle_ctx;

/* Field-level errors inside a BundleEntryProto / BundleHeaderProto: the wire
 * reader's offsets are relative to the entry's value, so the error has the
 * entry's offset and the path says which block and entry. */
static int entry_fail(bundle *b, nnav_error *e, uint64_t off, const char *where)
{
    return bfail(b, off, where, "%s", e->msg);
}

static int read_header(bundle *b, nnav_span v, uint64_t off, bundle_ctx *c)
{
    nnav_wire r;
    nnav_field f;
    nnav_error e;
    int k;
    memset(&e, 0, sizeof e);
    nnav_wire_init(&r, v.p, v);
    while ((k = nnav_wire_next(&r, &f, &e)) == 1) {
        if (f.num == NNAV_TF_BUNDLEHEADERPROTO_NUM_SHARDS || f.num == NNAV_TF_BUNDLEHEADERPROTO_ENDIANNESS) {
            if (f.wt != NNAV_WT_VARINT)
                return bfail(b, off, "header", "field %u has wire type %u, expected 0",
                             f.num, f.wt);
            if (f.num == NNAV_TF_BUNDLEHEADERPROTO_NUM_SHARDS) {
                c->shards = (int32_t)f.v;
                c->location = (nnav_span){0}; /* its "-of-N" may change */
            } else
                c->big_endian = f.v == 1;
        }
    }
    return k < 0 ? entry_fail(b, &e, off, "header") : 0;
}

static int on_entry(bundle *b, nnav_span key, nnav_span v, uint64_t off, uint32_t idx,
                    void *ctx)
{
    bundle_ctx *c = ctx;
    nnav_model *m = b->m;
    char where[200], kb[96];
    if (key.n == 0)
        return read_header(b, v, off, c);
    nnav_text_escape(key.p, key.n, kb, 64);
    snprintf(where, sizeof where, "data block @%llu entry[%u] \"%s\"",
             (unsigned long long)c->block_off, idx, kb);
    /* The tensor record and its dims are what a variable costs beyond its key. */
    if (charge(b, sizeof(nnav_tensor), off, where) < 0)
        return -1;
    nnav_tensor t;
    memset(&t, 0, sizeof t);
    t.name = key;
    t.graph = c->graph;
    t.owner = NNAV_TOWN_INITIALIZER;
    t.owner_id = NNAV_NONE;
    t.msg = v;
    t.dims_first = m->dims.n;
    t.ext_offset = 0;
    t.ext_length = 0;
    int64_t shard = 0;
    int has_shape = 0, slices = 0;
    nnav_span shape = {0};
    nnav_wire r;
    nnav_field f;
    nnav_error e;
    int k;
    memset(&e, 0, sizeof e);
    nnav_wire_init(&r, v.p, v);
    while ((k = nnav_wire_next(&r, &f, &e)) == 1) {
        const ProtobufCFieldDescriptor *fd =
            protobuf_c_message_descriptor_get_field(&tensorflow__bundle_entry_proto__descriptor, f.num);
        uint8_t want = f.num == NNAV_TF_BUNDLEENTRYPROTO_SHAPE || f.num == NNAV_TF_BUNDLEENTRYPROTO_SLICES
                           ? NNAV_WT_LEN
                       : f.num == NNAV_TF_BUNDLEENTRYPROTO_CRC32C ? NNAV_WT_I32
                                                                   : NNAV_WT_VARINT;
        if (fd && f.wt != want) {
            char w2[260];
            snprintf(w2, sizeof w2, "%s.%s", where, fd->name);
            return bfail(b, off, w2, "field %u (%s) has wire type %u, expected %u", f.num,
                         fd->name, f.wt, want);
        }
        switch (f.num) {
        case NNAV_TF_BUNDLEENTRYPROTO_DTYPE: t.dtype = nnav_tf_dtype(f.v); break;
        case NNAV_TF_BUNDLEENTRYPROTO_SHAPE: shape = f.s; has_shape = 1; break;
        case NNAV_TF_BUNDLEENTRYPROTO_SHARD_ID: shard = (int64_t)f.v; break;
        case NNAV_TF_BUNDLEENTRYPROTO_OFFSET: t.ext_offset = (int64_t)f.v; break;
        case NNAV_TF_BUNDLEENTRYPROTO_SIZE: t.ext_length = (int64_t)f.v; break;
        case NNAV_TF_BUNDLEENTRYPROTO_SLICES: slices++; break;
        default: break;
        }
    }
    if (k < 0)
        return entry_fail(b, &e, off, where);
    if (has_shape) {
        nnav_wire s;
        nnav_field d;
        nnav_wire_init(&s, v.p, shape);
        while ((k = nnav_wire_next(&s, &d, &e)) == 1) {
            if (d.num == NNAV_TF_TENSORSHAPEPROTO_UNKNOWN_RANK && d.wt == NNAV_WT_VARINT && d.v) {
                t.warn |= NNAV_TW_BAD_DIMS; /* a stored tensor's rank must be known */
                continue;
            }
            if (d.num != NNAV_TF_TENSORSHAPEPROTO_DIM)
                continue;
            if (d.wt != NNAV_WT_LEN)
                return bfail(b, off, where, "shape.dim has wire type %u, expected 2", d.wt);
            int64_t size = 0;
            nnav_wire dd;
            nnav_field g;
            int kk;
            nnav_wire_init(&dd, v.p, d.s);
            while ((kk = nnav_wire_next(&dd, &g, &e)) == 1)
                if (g.num == NNAV_TF_TENSORSHAPEPROTO_DIM_SIZE && g.wt == NNAV_WT_VARINT)
                    size = (int64_t)g.v;
            if (kk < 0)
                return entry_fail(b, &e, off, where);
            if (m->dims.n - t.dims_first >= 1024)
                return bfail(b, off, where, "a shape with more than 1024 dims");
            if (charge(b, sizeof(int64_t), off, where) < 0)
                return -1;
            int64_t *slot = nnav_vec_push(m->dims);
            if (!slot)
                return bfail(b, off, where, "out of memory");
            *slot = size;
        }
        if (k < 0)
            return entry_fail(b, &e, off, where);
    }
    t.ndims = m->dims.n - t.dims_first;
    nnav_tensor_sizes(m, &t, UINT64_MAX); /* strings: their stored size, below */
    if (slices) {
        /* A partitioned tensor: its slices are entries of their own. */
        t.storage = NNAV_STORE_NONE;
        t.ext_offset = t.ext_length = -1;
        t.stored = 0;
    } else {
        t.storage = NNAV_STORE_EXTERNAL;
        if (t.ext_offset < 0 || t.ext_length < 0 || shard < 0 ||
            (c->shards > 0 && shard >= c->shards))
            t.warn |= NNAV_TW_BAD_EXTERNAL;
        t.stored = t.ext_length >= 0 ? (uint64_t)t.ext_length : UINT64_MAX;
        if (t.dtype == NNAV_DT_STRING)
            t.nbytes = t.stored; /* length-prefixed strings: the stored size is the size */
        else if (t.nbytes != UINT64_MAX && t.stored != t.nbytes)
            t.warn |= NNAV_TW_SIZE_MISMATCH;
        if (shard != c->loc_shard || !c->location.p) {
            c->location = nnav_tf_printf(nnav_tf_state(m), "variables/variables.data-%05lld-of-%05lld",
                                         (long long)shard,
                                         (long long)(c->shards > 0 ? c->shards : 1));
            if (!c->location.p)
                return bfail(b, off, where, "out of memory");
            c->loc_shard = shard;
            if (charge(b, c->location.n + 1, off, where) < 0)
                return -1;
        }
        t.ext_location = c->location;
    }
    nnav_tensor *slot = nnav_vec_push(m->tensors);
    if (!slot)
        return bfail(b, off, where, "out of memory");
    *slot = t;
    c->count++;
    return 0;
}

typedef struct index_ctx {
    bundle_ctx *c;
    uint64_t next; /* where the previous data block's trailer ends */
    uint32_t prev; /* the index entry that named it */
} index_ctx;

static int on_index(bundle *b, nnav_span key, nnav_span v, uint64_t at, uint32_t idx,
                    void *ctx)
{
    index_ctx *ic = ctx;
    const uint8_t *p = v.p;
    uint64_t off, len;
    char what[64];
    (void)key;
    if (handle(&p, v.p + v.n, &off, &len) < 0)
        return bfail(b, at, "index block", "entry[%u] holds a malformed block handle", idx);
    /* Blocks in file order, each named once: each is decoded once, and what
     * is decoded never adds up to more than the file. */
    if (idx > 0 && off < ic->next)
        return bfail(b, at, "index block",
                     "entry[%u] names the data block at offset %llu, which is not past the "
                     "block entry[%u] named (it ends at %llu): a table names its data "
                     "blocks once each, in file order",
                     idx, (unsigned long long)off, ic->prev, (unsigned long long)ic->next);
    nnav_span blk;
    int plain;
    snprintf(what, sizeof what, "data block @%llu", (unsigned long long)off);
    if (block(b, off, len, what, &blk, &plain) < 0)
        return -1;
    ic->next = off + len + BLOCK_TRAILER; /* within the file: block() checked */
    ic->prev = idx;
    ic->c->block_off = off;
    return entries(b, blk, off, plain, 1, what, on_entry, ic->c);
}

/* Open DIR/variables/variables.index one component at a time, never through
 * a symbolic link. -1 with errno when absent or refused. */
static int open_index(const char *dir)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    int sub = openat(fd, "variables", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    int e = errno;
    close(fd);
    if (sub < 0) {
        errno = e;
        return -1;
    }
    fd = openat(sub, "variables.index", O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    e = errno;
    close(sub);
    errno = e;
    return fd;
}

int nnav_tf_bundle_read(nnav_model *m, uint32_t graph, nnav_error *err)
{
    int fd = open_index(m->dir);
    if (fd < 0) {
        if (errno == ENOENT)
            return 0; /* a SavedModel without variables */
        return nnav_tf_warn(m, "%s not read: %s", BUNDLE_INDEX,
                            errno == ELOOP || errno == ENOTDIR
                                ? "it is, or passes through, a symbolic link"
                                : strerror(errno));
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return nnav_tf_warn(m, "%s not read: not a regular file", BUNDLE_INDEX);
    }
    nnav_map map;
    map.slot = -1;
    int r = nnav_map_fd(fd, BUNDLE_INDEX, &map, err);
    close(fd);
    if (r < 0) {
        snprintf(err->path, sizeof err->path, "%s", BUNDLE_INDEX);
        return -1;
    }
    bundle b = {m, err, map.base, map.size, 0, 0};
    /* 16 MiB + 32 bytes per byte of index, saturating (an index of petabytes
     * is not mapped anyway). */
    b.budget = map.size > (UINT64_MAX - BUDGET_BASE) / BUDGET_PER_BYTE
                   ? UINT64_MAX
                   : BUDGET_BASE + BUDGET_PER_BYTE * map.size;
    bundle_ctx c = {graph, -1, 0, 0, -1, {0}, 0};
    index_ctx ic = {&c, 0, 0};
    int rc = -1;
    if (map.size < 48) {
        bfail(&b, 0, "", "%llu bytes: too short for a table footer (48 bytes)",
              (unsigned long long)map.size);
        goto out;
    }
    const uint8_t *foot = map.base + map.size - 48;
    uint64_t magic = 0;
    for (int i = 7; i >= 0; i--)
        magic = magic << 8 | foot[40 + i];
    if (magic != MAGIC) {
        bfail(&b, map.size - 8, "footer", "no table magic number: not a tensor-bundle index");
        goto out;
    }
    const uint8_t *p = foot;
    uint64_t moff, mlen, ioff, ilen;
    if (handle(&p, foot + 40, &moff, &mlen) < 0 || handle(&p, foot + 40, &ioff, &ilen) < 0) {
        bfail(&b, map.size - 48, "footer", "malformed block handles");
        goto out;
    }
    nnav_span index;
    int plain;
    if (block(&b, ioff, ilen, "index block", &index, &plain) < 0 ||
        entries(&b, index, ioff, plain, 0, "index block", on_index, &ic) < 0)
        goto out;
    if (nnav_map_truncated(&map)) {
        nnav_err_set(err, 0, 0, "the file shrank while it was being read");
        snprintf(err->path, sizeof err->path, "%s", BUNDLE_INDEX);
        goto out;
    }
    nnav_tf_state(m)->bundle_path = (nnav_span){(const uint8_t *)BUNDLE_INDEX, sizeof BUNDLE_INDEX - 1};
    nnav_tf_state(m)->variables = c.count;
    nnav_tf_state(m)->bundle_shards = c.shards > 0 ? (uint32_t)c.shards : 1;
    if (c.big_endian &&
        nnav_tf_warn(m, "%s: the variables are stored big-endian; their values are shown as "
                        "read, little-endian", BUNDLE_INDEX))
        goto out;
    rc = 0;
out:
    nnav_map_close(&map);
    return rc;
}
