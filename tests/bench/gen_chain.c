/* gen_chain.c - synthetic ONNX models for the benchmarks:
 *   gen_chain chain N OUT        N Relu nodes in a chain (names n0..nN-1, values v0..vN)
 *   gen_chain weights BYTES OUT  a small graph whose one initializer holds BYTES of raw
 *                                data, written sparse (a hole) so a 5 GB file costs no disk
 *   gen_chain tfchain N OUT      a TensorFlow GraphDef of N nodes: a Placeholder n0, then
 *                                Relu nodes n1..nN-1, each reading the one before
 * Written with the wire format directly, streaming, so that 10 million nodes need
 * no protobuf-c message tree in memory. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static size_t varint(uint8_t *b, uint64_t v)
{
    size_t n = 0;
    do {
        b[n++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
        v >>= 7;
    } while (v);
    return n;
}

static size_t varint_len(uint64_t v)
{
    uint8_t b[10];
    return varint(b, v);
}

static void put_tag_len(FILE *f, unsigned field, uint64_t len)
{
    uint8_t b[20];
    size_t n = varint(b, (uint64_t)field << 3 | 2);
    n += varint(b + n, len);
    fwrite(b, 1, n, f);
}

static void put_str(FILE *f, unsigned field, const char *s)
{
    put_tag_len(f, field, strlen(s));
    fwrite(s, 1, strlen(s), f);
}

static void put_varint_field(FILE *f, unsigned field, uint64_t v)
{
    uint8_t b[20];
    size_t n = varint(b, (uint64_t)field << 3);
    n += varint(b + n, v);
    fwrite(b, 1, n, f);
}

static uint64_t str_field_len(unsigned field, size_t n)
{
    return varint_len((uint64_t)field << 3 | 2) + varint_len(n) + n;
}

static void names(uint64_t i, char *node, char *in, char *out)
{
    sprintf(node, "n%" PRIu64, i);
    sprintf(in, "v%" PRIu64, i);
    sprintf(out, "v%" PRIu64, i + 1);
}

static uint64_t node_len(uint64_t i)
{
    char a[32], b[32], c[32];
    names(i, a, b, c);
    return str_field_len(1, strlen(b)) + str_field_len(2, strlen(c)) + str_field_len(3, strlen(a)) +
           str_field_len(4, 4);
}

static void header(FILE *f)
{
    put_varint_field(f, 1, 8);
    put_str(f, 2, "nnav-bench");
    put_tag_len(f, 8, 2 + 2); /* opset_import { version: 17 } */
    fputc(0x10, f), fputc(17, f), fputc(0x0a, f), fputc(0, f);
}

static uint64_t vinfo_len(const char *name)
{
    /* ValueInfo{name, type{tensor_type{elem_type FLOAT}}} */
    return str_field_len(1, strlen(name)) + 2 + 2 + 2;
}

static void vinfo(FILE *f, unsigned field, const char *name)
{
    put_tag_len(f, field, vinfo_len(name));
    put_str(f, 1, name);
    put_tag_len(f, 2, 4);
    put_tag_len(f, 1, 2);
    fputc(0x08, f), fputc(1, f);
}

static int chain(uint64_t n, FILE *f)
{
    char a[32], b[32], c[32], last[32];
    sprintf(last, "v%" PRIu64, n);
    uint64_t glen = str_field_len(2, 5) + varint_len(11 << 3 | 2) + varint_len(vinfo_len("v0")) +
                    vinfo_len("v0") + varint_len(12 << 3 | 2) + varint_len(vinfo_len(last)) +
                    vinfo_len(last);
    for (uint64_t i = 0; i < n; i++) {
        uint64_t l = node_len(i);
        glen += 1 + varint_len(l) + l;
    }
    header(f);
    put_tag_len(f, 7, glen);
    put_str(f, 2, "chain");
    vinfo(f, 11, "v0");
    for (uint64_t i = 0; i < n; i++) {
        names(i, a, b, c);
        put_tag_len(f, 1, node_len(i));
        put_str(f, 1, b);
        put_str(f, 2, c);
        put_str(f, 3, a);
        put_str(f, 4, "Relu");
    }
    vinfo(f, 12, last);
    return 0;
}

static int weights(uint64_t bytes, FILE *f, const char *path)
{
    uint64_t elems = bytes / 4;
    uint8_t hdr[64];
    /* TensorProto{dims elems, data_type FLOAT, name "w", raw_data <bytes>} */
    uint64_t tlen = 1 + varint_len(elems) + 2 + str_field_len(8, 1) + 1 + varint_len(elems * 4) +
                    elems * 4;
    uint64_t nlen = str_field_len(1, 1) + str_field_len(1, 1) + str_field_len(2, 1) +
                    str_field_len(3, 3) + str_field_len(4, 3);
    uint64_t glen = (1 + varint_len(nlen) + nlen) + str_field_len(2, 7) +
                    (1 + varint_len(tlen) + tlen) + 1 + varint_len(vinfo_len("x")) +
                    vinfo_len("x") + 1 + varint_len(vinfo_len("y")) + vinfo_len("y");
    header(f);
    put_tag_len(f, 7, glen);
    put_tag_len(f, 1, nlen);
    put_str(f, 1, "x");
    put_str(f, 1, "w");
    put_str(f, 2, "y");
    put_str(f, 3, "add");
    put_str(f, 4, "Add");
    put_str(f, 2, "weights");
    vinfo(f, 11, "x");
    put_tag_len(f, 5, tlen);
    size_t n = varint(hdr, 1 << 3);
    n += varint(hdr + n, elems);
    fwrite(hdr, 1, n, f);
    put_varint_field(f, 2, 1);
    put_str(f, 8, "w");
    put_tag_len(f, 9, elems * 4);
    fflush(f);
    /* The payload is a hole: the file is sparse, reads of it return zeros. */
    if (fseeko(f, (off_t)(elems * 4), SEEK_CUR) != 0)
        return -1;
    vinfo(f, 12, "y");
    (void)path;
    return 0;
}

/* A map<string, AttrValue> entry of NodeDef.attr whose value is a type
 * (AttrValue.type, field 6): {key, value {type: dtype}}. */
static uint64_t type_attr_len(const char *key)
{
    return str_field_len(1, strlen(key)) + 1 + 1 + 2;
}

static void type_attr(FILE *f, const char *key, unsigned dtype)
{
    put_tag_len(f, 5, type_attr_len(key));
    put_str(f, 1, key);
    put_tag_len(f, 2, 2);
    put_varint_field(f, 6, dtype);
}

/* GraphDef: field 1 NodeDef{1 name, 2 op, 3 input, 5 attr}, field 4 versions.
 * The GraphDef is the whole file, so nodes stream out with no outer length. */
static int tfchain(uint64_t n, FILE *f)
{
    enum { DT_FLOAT = 1 };
    char name[32], in[32];
    for (uint64_t i = 0; i < n; i++) {
        sprintf(name, "n%" PRIu64, i);
        const char *op = i ? "Relu" : "Placeholder", *key = i ? "T" : "dtype";
        uint64_t len = str_field_len(1, strlen(name)) + str_field_len(2, strlen(op)) +
                       1 + varint_len(type_attr_len(key)) + type_attr_len(key);
        if (i) {
            sprintf(in, "n%" PRIu64, i - 1);
            len += str_field_len(3, strlen(in));
        }
        put_tag_len(f, 1, len);
        put_str(f, 1, name);
        put_str(f, 2, op);
        if (i)
            put_str(f, 3, in);
        type_attr(f, key, DT_FLOAT);
    }
    put_tag_len(f, 4, 2); /* versions { producer: 27 } */
    put_varint_field(f, 1, 27);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: gen_chain chain N OUT | weights BYTES OUT | tfchain N OUT\n");
        return 1;
    }
    uint64_t n = strtoull(argv[2], NULL, 10);
    FILE *f = fopen(argv[3], "wb");
    if (!f) {
        perror(argv[3]);
        return 1;
    }
    int rc = !strcmp(argv[1], "chain")     ? chain(n, f)
             : !strcmp(argv[1], "tfchain") ? tfchain(n, f)
                                           : weights(n, f, argv[3]);
    if (fclose(f) != 0 || rc != 0) {
        perror(argv[3]);
        return 1;
    }
    return 0;
}
