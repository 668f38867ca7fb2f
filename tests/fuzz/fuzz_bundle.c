/* fuzz_bundle.c - the tensor-bundle reader: the input is a SavedModel's
 * variables/variables.index followed by its data shard, laid out in a
 * temporary folder beside a fixed, minimal saved_model.pb; the folder is
 * opened as a SavedModel and every variable's info and values are touched.
 *
 * The input is cut after the last occurrence of the table magic (the last 8
 * bytes of a real index): what comes before, magic included, is
 * variables.index; what follows is variables.data-00000-of-00001. Without a
 * magic the whole input is the index and the shard is empty. So a real index
 * followed by its data shard is a seed as it is.
 *
 * A mutation almost always breaks a block's checksum, and the reader stops
 * there; so before the index is written, the checksum after every block the
 * footer and a plain index block name is made right again (the mismatch path
 * is the unit tests'). The rest of the reader then sees the mutated bytes. */
#include "fuzz_common.h"

#include <fcntl.h>
#include <sys/stat.h>

#include "tf.h"

/* SavedModel { saved_model_schema_version: 1, meta_graphs { meta_info_def
 * { tags: "serve" } graph_def { } } }: the variables become the empty
 * graph's initialisers. */
static const uint8_t SAVED_MODEL[] = {0x08, 0x01, 0x12, 0x0b, 0x0a, 0x07, 0x22, 0x05, 's',
                                      'e',  'r',  'v',  'e',  0x12, 0x00};
static const uint8_t MAGIC[8] = {0x57, 0xfb, 0x80, 0x8b, 0x24, 0x75, 0x47, 0xdb};

static char dir[64];
static volatile uint8_t sink;

static int put_file(const char *name, const uint8_t *p, size_t n)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        return -1;
    size_t off = 0;
    while (off < n) {
        ssize_t w = write(fd, p + off, n - off);
        if (w <= 0) {
            close(fd);
            return -1;
        }
        off += (size_t)w;
    }
    return close(fd);
}

static void remove_dir(void)
{
    char path[128];
    const char *names[] = {"variables/variables.index", "variables/variables.data-00000-of-00001",
                           "variables", "saved_model.pb", ""};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        remove(path);
    }
}

static int varint(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
    *v = 0;
    for (int shift = 0; shift < 64 && *p < end; shift += 7) {
        uint8_t c = *(*p)++;
        *v |= (uint64_t)(c & 0x7f) << shift;
        if (!(c & 0x80))
            return 0;
    }
    return -1;
}

/* The masked CRC-32C of the block at (off, len) and its type byte, written
 * after them; 0 when the block lies in the file. */
static int fix_block(uint8_t *f, size_t n, uint64_t off, uint64_t len)
{
    if (off > n || len > n - off || n - off - len < 5)
        return -1;
    uint8_t type = f[off + len];
    uint32_t c = nnav_tf_crc_mask(nnav_tf_crc32c(nnav_tf_crc32c(0, f + off, len), &type, 1));
    for (int i = 0; i < 4; i++)
        f[off + len + 1 + (uint64_t)i] = (uint8_t)(c >> (8 * i));
    return 0;
}

static void fix_checksums(uint8_t *f, size_t n)
{
    if (n < 48)
        return;
    const uint8_t *p = f + n - 48, *end = f + n - 8;
    uint64_t moff, mlen, ioff, ilen;
    if (varint(&p, end, &moff) || varint(&p, end, &mlen) || varint(&p, end, &ioff) ||
        varint(&p, end, &ilen))
        return;
    fix_block(f, n, moff, mlen);
    if (fix_block(f, n, ioff, ilen) != 0 || f[ioff + ilen] != 0 || ilen < 4)
        return;
    /* A plain index block: each entry's value is a data block's handle. */
    const uint8_t *q = f + ioff, *bend = f + ioff + ilen - 4;
    uint32_t nrest = (uint32_t)bend[0] | (uint32_t)bend[1] << 8 | (uint32_t)bend[2] << 16 |
                     (uint32_t)bend[3] << 24;
    if (nrest > (ilen - 4) / 4)
        return;
    bend -= 4 * (size_t)nrest;
    for (int k = 0; k < 100000 && q < bend; k++) {
        uint64_t shared, unshared, vlen, off, len;
        if (varint(&q, bend, &shared) || varint(&q, bend, &unshared) || varint(&q, bend, &vlen) ||
            unshared > (uint64_t)(bend - q) || vlen > (uint64_t)(bend - q) - unshared)
            return;
        q += unshared;
        const uint8_t *v = q;
        q += vlen;
        if (varint(&v, q, &off) == 0 && varint(&v, q, &len) == 0)
            fix_block(f, n, off, len);
    }
    /* The data blocks' checksums may have overwritten the index block's. */
    fix_block(f, n, ioff, ilen);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    snprintf(dir, sizeof dir, "%s/nnav-fuzz-bundle-XXXXXX", base);
    char sub[96];
    int ok = mkdtemp(dir) != NULL;
    snprintf(sub, sizeof sub, "%s/variables", dir);
    if (!ok || mkdir(sub, 0755) != 0 ||
        put_file("saved_model.pb", SAVED_MODEL, sizeof SAVED_MODEL) != 0) {
        perror("fuzz_bundle: cannot lay out the SavedModel folder");
        abort();
    }
    atexit(remove_dir);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t cut = size;
    for (size_t i = size >= 8 ? size - 8 + 1 : 0; i-- > 0;)
        if (memcmp(data + i, MAGIC, 8) == 0) {
            cut = i + 8;
            break;
        }
    uint8_t *index = malloc(cut ? cut : 1);
    if (!index)
        return 0;
    memcpy(index, data, cut);
    fix_checksums(index, cut);
    int bad = put_file("variables/variables.index", index, cut) != 0 ||
              put_file("variables/variables.data-00000-of-00001", data + cut, size - cut) != 0;
    free(index);
    if (bad)
        abort();
    nnav_open_opts o = {0};
    o.force = 1 + NNAV_FMT_TF_SAVEDMODEL;
    nnav_model *m;
    nnav_error err;
    if (nnav_model_open(dir, &o, &m, &err) == 0) {
        fuzz_touch(m);
        /* Each variable's values again, more of them, with both ends of
         * every string read (a span past its mapping faults here). */
        for (uint32_t t = 0; t < nnav_tensor_count(m); t++) {
            double v[64];
            nnav_span s[64];
            nnav_values out = {.v = v, .s = s};
            if (nnav_tensor_values(m, t, 64, 1, &out, &err) == 0 &&
                nnav_tensor_get(m, t)->dtype == 8)
                for (size_t i = 0; i < out.count; i++)
                    if (s[i].n)
                        sink ^= s[i].p[0] ^ s[i].p[s[i].n - 1];
        }
        nnav_model_close(m);
    }
    return 0;
}
