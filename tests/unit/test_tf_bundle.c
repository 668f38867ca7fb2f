/* test_tf_bundle.c - a SavedModel's variables.index under hostile shapes, and
 * string variables in its data shards.
 *
 * Every index here is written by the test itself with a small table writer
 * (LevelDB layout: blocks with restart arrays, a type byte and a masked
 * CRC-32C after each, a 48-byte footer), so the offset of every entry is
 * known and the errors can be held to it. The CRC-32C used to write them is
 * the reader's, checked against the standard check value in test_tf.c's
 * test_snappy_and_crc. The string layout follows TensorFlow's tensor_bundle
 * (varint lengths, a masked CRC-32C of the lengths as uint32 LE, the bytes);
 * the corpus' TF2 SavedModel holds a real one, compared with the Const in its
 * graph that carries the same bytes. */
#include "testutil.h"

#include "dtype.h"
#include "tf.h"

/* ---- a growing byte buffer ---- */

typedef struct buf {
    uint8_t *p;
    size_t n, cap;
} buf;

static void put(buf *b, const void *p, size_t n)
{
    if (b->n + n > b->cap) {
        b->cap = (b->n + n) * 2 + 64;
        b->p = realloc(b->p, b->cap);
        assert_non_null(b->p);
    }
    if (n)
        memcpy(b->p + b->n, p, n);
    b->n += n;
}

static void put_byte(buf *b, uint8_t c) { put(b, &c, 1); }

static void put_varint(buf *b, uint64_t v)
{
    while (v >= 0x80) {
        put_byte(b, (uint8_t)(v | 0x80));
        v >>= 7;
    }
    put_byte(b, (uint8_t)v);
}

static void put_u32(buf *b, uint32_t v)
{
    uint8_t le[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    put(b, le, 4);
}

static void buf_free(buf *b)
{
    free(b->p);
    memset(b, 0, sizeof *b);
}

/* ---- table writer ---- */

/* One entry: shared prefix length, the key's new bytes, the value. */
static void put_entry(buf *blk, uint64_t shared, const void *key, size_t kn, const buf *value)
{
    put_varint(blk, shared);
    put_varint(blk, kn);
    put_varint(blk, value ? value->n : 0);
    put(blk, key, kn);
    if (value)
        put(blk, value->p, value->n);
}

/* The restart array: one restart, at 0. */
static void end_block(buf *blk)
{
    put_u32(blk, 0);
    put_u32(blk, 1);
}

typedef struct handle { uint64_t off, len; } handle;

/* The block's bytes into the file with their type byte and checksum. */
static handle add_block(buf *file, const buf *blk, uint8_t type)
{
    handle h = {file->n, blk->n};
    put(file, blk->p, blk->n);
    put_byte(file, type);
    uint32_t crc = nnav_tf_crc32c(nnav_tf_crc32c(0, blk->p, blk->n), &type, 1);
    put_u32(file, nnav_tf_crc_mask(crc));
    return h;
}

/* The metaindex, an index block naming `hs` in that order, the footer.
 * *index_entry (when given) gets each index entry's offset in the file. */
static void finish_table(buf *file, const handle *hs, size_t n, uint64_t *index_entry)
{
    buf meta = {0}, idx = {0}, foot = {0};
    end_block(&meta);
    handle mh = add_block(file, &meta, 0);
    uint64_t at = file->n; /* the index block is plain: entry offsets are file offsets */
    for (size_t i = 0; i < n; i++) {
        buf v = {0};
        put_varint(&v, hs[i].off);
        put_varint(&v, hs[i].len);
        if (index_entry)
            index_entry[i] = at + idx.n;
        put_entry(&idx, 0, "k", 1, &v);
        buf_free(&v);
    }
    end_block(&idx);
    handle ih = add_block(file, &idx, 0);
    put_varint(&foot, mh.off);
    put_varint(&foot, mh.len);
    put_varint(&foot, ih.off);
    put_varint(&foot, ih.len);
    while (foot.n < 40)
        put_byte(&foot, 0);
    put_u32(&foot, 0x8b80fb57u); /* 0xdb4775248b80fb57, little-endian */
    put_u32(&foot, 0xdb477524u);
    put(file, foot.p, foot.n);
    buf_free(&meta);
    buf_free(&idx);
    buf_free(&foot);
}

/* BundleHeaderProto {num_shards: 1} and BundleEntryProto {dtype, shape,
 * offset, size}. */
static void header_value(buf *v)
{
    put_byte(v, 0x08);
    put_byte(v, 1);
}

static void entry_value(buf *v, int dtype, const int64_t *dims, int nd, uint64_t off,
                        uint64_t size)
{
    buf shape = {0};
    for (int i = 0; i < nd; i++) {
        buf dim = {0};
        if (dims[i]) {
            put_byte(&dim, 0x08);
            put_varint(&dim, (uint64_t)dims[i]);
        }
        put_byte(&shape, 0x12);
        put_varint(&shape, dim.n);
        put(&shape, dim.p, dim.n);
        buf_free(&dim);
    }
    put_byte(v, 0x08);
    put_varint(v, (uint64_t)dtype);
    put_byte(v, 0x12);
    put_varint(v, shape.n);
    put(v, shape.p, shape.n);
    if (off) {
        put_byte(v, 0x20);
        put_varint(v, off);
    }
    if (size) {
        put_byte(v, 0x28);
        put_varint(v, size);
    }
    buf_free(&shape);
}

/* A copy of the SavedModel sample with this index and data shard. */
static const char *model_with(const char *sub, const buf *index, const buf *shard)
{
    static char d[4096];
    snprintf(d, sizeof d, "%s", tu_tmpdir(sub));
    size_t pn;
    uint8_t *pb = tu_read(tu_join(tu_sample("tf_saved_model"), "saved_model.pb"), &pn);
    tu_write(tu_join(d, "saved_model.pb"), pb, pn);
    free(pb);
    char vdir[4096];
    snprintf(vdir, sizeof vdir, "%s/variables", d);
    mkdir(vdir, 0755);
    tu_write(tu_join(vdir, "variables.index"), index->p, index->n);
    if (shard)
        tu_write(tu_join(vdir, "variables.data-00000-of-00001"), shard->p, shard->n);
    return d;
}

static uint32_t variables(const nnav_model *m)
{
    return nnav_graph_get(m, 0)->init_count;
}

/* ---- keys ---- */

/* Keys that each share the whole previous key and add a byte: `first` bytes
 * of 'k', then `count` entries. Entry offsets (in the file: the block is
 * plain and first in the file) go to at[] when given. */
static void key_chain(buf *file, size_t first, size_t count, uint64_t *at)
{
    buf blk = {0}, v = {0}, h = {0};
    header_value(&h);
    put_entry(&blk, 0, NULL, 0, &h);
    entry_value(&v, 1, NULL, 0, 0, 0);
    char *k = malloc(first);
    assert_non_null(k);
    memset(k, 'k', first);
    for (size_t i = 0; i < count; i++) {
        if (at)
            at[i] = blk.n;
        if (i == 0) {
            put_entry(&blk, 0, k, first, &v);
        } else {
            char c = (char)('A' + i % 26);
            put_entry(&blk, first + i - 1, &c, 1, &v);
        }
    }
    end_block(&blk);
    handle hb = add_block(file, &blk, 0);
    finish_table(file, &hb, 1, NULL);
    free(k);
    buf_free(&blk);
    buf_free(&v);
    buf_free(&h);
}

static void test_long_shared_keys_within_budget(void **state)
{
    (void)state;
    /* 3,000 keys of 2,000 to 4,999 bytes: 10.5 MB rebuilt from a 23 KB
     * index, within the 16 MiB base of the budget; every key whole. */
    buf file = {0};
    key_chain(&file, 2000, 3000, NULL);
    assert_true(file.n < 30000);
    nnav_model *m = tu_open(model_with("tfb_keys_ok", &file, NULL));
    assert_int_equal(variables(m), 3000);
    uint32_t longest = 0;
    for (uint32_t t = 0; t < nnav_tensor_count(m); t++)
        if (nnav_tensor_get(m, t)->name.n > nnav_tensor_get(m, longest)->name.n)
            longest = t;
    nnav_span name = nnav_tensor_get(m, longest)->name;
    assert_int_equal(name.n, 2000 + 2999);
    assert_int_equal(name.p[0], 'k');
    assert_int_equal(name.p[1999], 'k');
    for (uint64_t i = 1; i < 3000; i++)
        assert_int_equal(name.p[2000 + i - 1], 'A' + i % 26);
    nnav_model_close(m);
    buf_free(&file);
}

static void test_key_bomb_refused(void **state)
{
    (void)state;
    /* 4,000 keys of 30,000 bytes and more: 128 MB to rebuild from 54 KB. */
    buf file = {0};
    uint64_t at[4000];
    key_chain(&file, 30000, 4000, at);
    nnav_error err;
    tu_open_fails(model_with("tfb_keys_bomb", &file, NULL), NULL, &err);
    char want[200];
    snprintf(want, sizeof want,
             "needs more memory than its budget of %llu bytes (16 MiB + 32 bytes per byte of "
             "its %zu)",
             (16ull << 20) + 32ull * file.n, file.n);
    tu_assert_contains(err.msg, want);
    tu_assert_contains(err.path, "variables/variables.index: data block @0 entry[");
    /* The offset is the entry where the budget ran out, as the path says. */
    assert_true(err.has_offset);
    unsigned idx = 0;
    assert_int_equal(sscanf(strstr(err.path, "entry[") + 6, "%u", &idx), 1);
    assert_true(idx >= 1 && idx <= 4000); /* entry 0 is the header */
    assert_int_equal(err.offset, at[idx - 1]);
    buf_free(&file);
}

/* ---- blocks ---- */

/* A plain data block with one variable `name` (float32 scalar). */
static void var_block(buf *blk, const char *name, int with_header)
{
    buf v = {0};
    if (with_header) {
        header_value(&v);
        put_entry(blk, 0, NULL, 0, &v);
        v.n = 0;
    }
    entry_value(&v, 1, NULL, 0, 0, 4);
    put_entry(blk, 0, name, strlen(name), &v);
    end_block(blk);
    buf_free(&v);
}

static void test_blocks_in_order(void **state)
{
    (void)state;
    buf file = {0}, a = {0}, b = {0};
    var_block(&a, "a", 1);
    var_block(&b, "b", 0);
    handle h[2];
    h[0] = add_block(&file, &a, 0);
    h[1] = add_block(&file, &b, 0);
    finish_table(&file, h, 2, NULL);
    nnav_model *m = tu_open(model_with("tfb_order_ok", &file, NULL));
    assert_int_equal(variables(m), 2);
    tu_tensor(m, "a");
    tu_tensor(m, "b");
    nnav_model_close(m);
    buf_free(&file);
    buf_free(&a);
    buf_free(&b);
}

/* The index names (first, second); the error must point at index entry[1]. */
static void assert_order_refused(const char *sub, handle first, handle second, buf *file)
{
    uint64_t at[2];
    handle h[2] = {first, second};
    finish_table(file, h, 2, at);
    nnav_error err;
    tu_open_fails(model_with(sub, file, NULL), NULL, &err);
    char want[160];
    snprintf(want, sizeof want, "entry[1] names the data block at offset %llu, which is not past "
                                "the block entry[0] named (it ends at %llu)",
             (unsigned long long)second.off,
             (unsigned long long)(first.off + first.len + 5));
    tu_assert_contains(err.msg, want);
    tu_assert_contains(err.msg, "a table names its data blocks once each, in file order");
    tu_assert_contains(err.path, "variables/variables.index: index block");
    assert_true(err.has_offset);
    assert_int_equal(err.offset, at[1]);
}

static void test_blocks_repeated_or_overlapping(void **state)
{
    (void)state;
    buf a = {0}, b = {0}, file = {0};
    var_block(&a, "a", 1);
    var_block(&b, "b", 0);
    /* The same block twice. */
    handle ha = add_block(&file, &a, 0);
    assert_order_refused("tfb_order_twice", ha, ha, &file);
    /* A block inside the first (its last bytes, as a handle). */
    file.n = 0;
    ha = add_block(&file, &a, 0);
    handle inner = {ha.off + 2, ha.len - 2};
    assert_order_refused("tfb_order_inside", ha, inner, &file);
    /* Two good blocks named backwards. */
    file.n = 0;
    ha = add_block(&file, &a, 0);
    handle hb = add_block(&file, &b, 0);
    assert_order_refused("tfb_order_backwards", hb, ha, &file);
    buf_free(&a);
    buf_free(&b);
    buf_free(&file);
}

static void test_snappy_block_claims(void **state)
{
    (void)state;
    /* A Snappy block of 12 bytes declaring 60 MiB: refused before anything
     * is allocated for it. */
    buf blk = {0}, file = {0};
    put_varint(&blk, 60u << 20);
    for (int i = 0; i < 8; i++)
        put_byte(&blk, 0);
    handle h = add_block(&file, &blk, 1);
    finish_table(&file, &h, 1, NULL);
    nnav_error err;
    tu_open_fails(model_with("tfb_snappy_claim", &file, NULL), NULL, &err);
    tu_assert_contains(err.msg, "declares 62914560 bytes, more than Snappy can expand it to");
    tu_assert_contains(err.path, "variables/variables.index: data block @0");
    /* A real Snappy block (one literal holding the plain block) reads. */
    buf plain = {0}, snappy = {0};
    var_block(&plain, "zipped", 1);
    put_varint(&snappy, plain.n);
    assert_true(plain.n <= 60);
    put_byte(&snappy, (uint8_t)((plain.n - 1) << 2));
    put(&snappy, plain.p, plain.n);
    file.n = 0;
    h = add_block(&file, &snappy, 1);
    finish_table(&file, &h, 1, NULL);
    nnav_model *m = tu_open(model_with("tfb_snappy_ok", &file, NULL));
    assert_int_equal(variables(m), 1);
    tu_tensor(m, "zipped");
    nnav_model_close(m);
    buf_free(&blk);
    buf_free(&file);
    buf_free(&plain);
    buf_free(&snappy);
}

static void test_header_after_variables(void **state)
{
    (void)state;
    /* The header sorts first (its key is empty); one placed after a variable
     * changes the shard count for those after it only. */
    buf blk = {0}, v = {0}, file = {0};
    entry_value(&v, 1, NULL, 0, 0, 4);
    put_entry(&blk, 0, "a", 1, &v);
    v.n = 0;
    put_byte(&v, 0x08);
    put_byte(&v, 2); /* num_shards: 2 */
    put_entry(&blk, 0, NULL, 0, &v);
    v.n = 0;
    entry_value(&v, 1, NULL, 0, 0, 4);
    put_entry(&blk, 0, "b", 1, &v);
    end_block(&blk);
    handle h = add_block(&file, &blk, 0);
    finish_table(&file, &h, 1, NULL);
    nnav_model *m = tu_open(model_with("tfb_late_header", &file, NULL));
    tu_assert_span(nnav_tensor_get(m, tu_tensor(m, "a"))->ext_location,
                   "variables/variables.data-00000-of-00001");
    tu_assert_span(nnav_tensor_get(m, tu_tensor(m, "b"))->ext_location,
                   "variables/variables.data-00000-of-00002");
    nnav_model_close(m);
    buf_free(&blk);
    buf_free(&v);
    buf_free(&file);
}

/* ---- strings ---- */

/* TensorFlow's layout of a string tensor: varint lengths, the masked CRC-32C
 * of the lengths (as uint32 LE each), the bytes. `bad_crc` flips it. */
static void put_strings(buf *shard, const char *const *s, size_t n, int bad_crc)
{
    uint32_t crc = 0;
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(s[i]);
        put_varint(shard, len);
        uint8_t le[4] = {(uint8_t)len, (uint8_t)(len >> 8), (uint8_t)(len >> 16),
                         (uint8_t)(len >> 24)};
        crc = nnav_tf_crc32c(crc, le, 4);
    }
    put_u32(shard, nnav_tf_crc_mask(crc) ^ (bad_crc ? 1u : 0u));
    for (size_t i = 0; i < n; i++)
        put(shard, s[i], strlen(s[i]));
}

/* A checkpoint whose variables are string tensors "s0", "s1", ... in one
 * shard, each declared with `dims` (NULL: a vector of its strings). */
typedef struct strvar {
    const char *const *s;
    size_t n;
    int bad_crc;
    int64_t dim;  /* -1: n */
    int64_t size; /* -1: the bytes written */
} strvar;

static const char *strings_model(const char *sub, const strvar *vars, size_t nv)
{
    buf shard = {0}, blk = {0}, v = {0}, file = {0};
    header_value(&v);
    put_entry(&blk, 0, NULL, 0, &v);
    for (size_t i = 0; i < nv; i++) {
        uint64_t off = shard.n;
        put_strings(&shard, vars[i].s, vars[i].n, vars[i].bad_crc);
        int64_t dim = vars[i].dim >= 0 ? vars[i].dim : (int64_t)vars[i].n;
        uint64_t size = vars[i].size >= 0 ? (uint64_t)vars[i].size : shard.n - off;
        v.n = 0;
        entry_value(&v, 7, &dim, 1, off, size);
        char key[16];
        snprintf(key, sizeof key, "s%zu", i);
        put_entry(&blk, 0, key, strlen(key), &v);
    }
    end_block(&blk);
    handle h = add_block(&file, &blk, 0);
    finish_table(&file, &h, 1, NULL);
    const char *d = model_with(sub, &file, &shard);
    buf_free(&shard);
    buf_free(&blk);
    buf_free(&v);
    buf_free(&file);
    return d;
}

static const char *const WORDS[] = {"hello", "", "esc \x1b[31mred", "tab\tnul", "last"};

static void test_string_variable(void **state)
{
    (void)state;
    strvar sv = {WORDS, 5, 0, -1, -1};
    nnav_model *m = tu_open(strings_model("tfb_strings", &sv, 1));
    uint32_t t = tu_tensor(m, "s0");
    assert_int_equal(nnav_tensor_get(m, t)->dtype, NNAV_DT_STRING);
    double v[8];
    nnav_span s[8];
    nnav_values vals = {.v = v, .s = s};
    nnav_error err;
    assert_int_equal(nnav_tensor_values(m, t, 8, 1, &vals, &err), 0);
    assert_int_equal(vals.count, 5);
    assert_int_equal(vals.total, 5);
    assert_false(vals.has_stats);
    for (int i = 0; i < 5; i++)
        tu_assert_span(s[i], WORDS[i]);
    /* Fewer asked for: the first ones, the total still known. */
    assert_int_equal(nnav_tensor_values(m, t, 2, 0, &vals, &err), 0);
    assert_int_equal(vals.count, 2);
    assert_int_equal(vals.total, 5);
    tu_assert_span(s[1], "");
    /* No span array: counted only. */
    nnav_values counted = {.v = v};
    assert_int_equal(nnav_tensor_values(m, t, 8, 0, &counted, &err), 0);
    assert_int_equal(counted.count, 5);
    nnav_model_close(m);
}

static void test_string_spans_outlive_later_reads(void **state)
{
    (void)state;
    /* Nine string variables: after the first is read, seven more reads keep
     * its mapping (eight are kept); its spans still hold its strings. */
    strvar sv[9];
    for (int i = 0; i < 9; i++)
        sv[i] = (strvar){WORDS + (i % 5), 1, 0, -1, -1};
    nnav_model *m = tu_open(strings_model("tfb_strings_nine", sv, 9));
    nnav_span first[1], other[1];
    double v[1];
    nnav_values a = {.v = v, .s = first}, b = {.v = v, .s = other};
    nnav_error err;
    assert_int_equal(nnav_tensor_values(m, tu_tensor(m, "s0"), 1, 0, &a, &err), 0);
    for (int i = 1; i < 8; i++) {
        char name[8];
        snprintf(name, sizeof name, "s%d", i);
        assert_int_equal(nnav_tensor_values(m, tu_tensor(m, name), 1, 0, &b, &err), 0);
        tu_assert_span(other[0], WORDS[i % 5]);
    }
    tu_assert_span(first[0], "hello");
    /* The ninth read takes the oldest mapping's place; closing releases all
     * (a leak would be reported by LeakSanitizer). */
    assert_int_equal(nnav_tensor_values(m, tu_tensor(m, "s8"), 1, 0, &b, &err), 0);
    tu_assert_span(other[0], WORDS[8 % 5]);
    nnav_model_close(m);
}

static void test_damaged_strings(void **state)
{
    (void)state;
    static const char *const none[] = {NULL};
    strvar sv[] = {
        {WORDS, 5, 1, -1, -1},    /* the lengths' checksum wrong */
        {WORDS, 5, 0, 1000, -1},  /* 1,000 strings declared, 5 written */
        {WORDS, 5, 0, -1, 30},    /* stored size cut: 28 bytes of strings in 21 */
        {none, 0, 0, -1, -1},     /* no strings at all: fine */
        {WORDS, 2, 0, 5, -1},     /* 5 declared, 2 written: lengths run into the checksum */
    };
    nnav_model *m = tu_open(strings_model("tfb_strings_bad", sv, 5));
    double v[8];
    nnav_span s[8];
    nnav_values vals = {.v = v, .s = s};
    nnav_error err;
    /* s0: the checksum sits after five one-byte lengths, at byte 5. */
    assert_int_equal(nnav_tensor_values(m, tu_tensor(m, "s0"), 8, 0, &vals, &err), -1);
    tu_assert_contains(err.msg, "the strings' lengths do not match their checksum");
    tu_assert_contains(err.msg, "at byte 5 of variables/variables.data-00000-of-00001");
    assert_int_equal(nnav_tensor_values(m, tu_tensor(m, "s1"), 8, 0, &vals, &err), -1);
    tu_assert_contains(err.msg, "1000 strings cannot be held in the");
    assert_int_equal(nnav_tensor_values(m, tu_tensor(m, "s2"), 8, 0, &vals, &err), -1);
    tu_assert_contains(err.msg, "the strings need 28 bytes, 21 are stored");
    vals.count = 99;
    assert_int_equal(nnav_tensor_values(m, tu_tensor(m, "s3"), 8, 0, &vals, &err), 0);
    assert_int_equal(vals.count, 0);
    assert_int_equal(vals.total, 0);
    /* s4: what follows the two lengths is read as lengths: refused, whichever
     * check sees it first. */
    assert_int_equal(nnav_tensor_values(m, tu_tensor(m, "s4"), 8, 0, &vals, &err), -1);
    tu_assert_contains(err.msg, "of variables/variables.data-00000-of-00001");
    nnav_model_close(m);
}

static void test_corpus_object_graph(void **state)
{
    (void)state;
    const char *p = tu_corpus("tensorflow/saved_model_half_plus_two_tf2_cpu");
    if (!p) {
        skip();
        return;
    }
    /* TensorFlow 2.14 wrote the object graph twice: as a checkpoint string
     * (619 bytes stored: a 2-byte length, 4 checksum bytes, 613 bytes) and as
     * the string of the graph's Const node. */
    nnav_model *m = tu_open(p);
    nnav_span a[2], b[2];
    double v[2];
    nnav_values va = {.v = v, .s = a}, vb = {.v = v, .s = b};
    nnav_error err;
    assert_int_equal(nnav_tensor_values(m, tu_tensor(m, "_CHECKPOINTABLE_OBJECT_GRAPH"), 2, 0,
                                        &va, &err), 0);
    assert_int_equal(va.count, 1);
    assert_int_equal(a[0].n, 613);
    assert_int_equal(nnav_tensor_values(m, tu_tensor(m, "Const"), 2, 0, &vb, &err), 0);
    assert_int_equal(vb.count, 1);
    assert_int_equal(b[0].n, 613);
    assert_memory_equal(a[0].p, b[0].p, 613);
    nnav_model_close(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_long_shared_keys_within_budget),
        cmocka_unit_test(test_key_bomb_refused),
        cmocka_unit_test(test_blocks_in_order),
        cmocka_unit_test(test_blocks_repeated_or_overlapping),
        cmocka_unit_test(test_snappy_block_claims),
        cmocka_unit_test(test_header_after_variables),
        cmocka_unit_test(test_string_variable),
        cmocka_unit_test(test_string_spans_outlive_later_reads),
        cmocka_unit_test(test_damaged_strings),
        cmocka_unit_test(test_corpus_object_graph),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
