/* zip.c - a zip's central directory read in place (pt.h). Only what a
 * PyTorch checkpoint needs: stored entries are handed out as spans of the
 * map; a compressed entry is named, never inflated (so no zip bomb can
 * cost anything). Every offset and size from the file is checked against
 * the file and against the other entries before it is used. */
#include <stdio.h>
#include <string.h>

#include "pt.h"

enum {
    EOCD_LEN = 22, CDH_LEN = 46, LFH_LEN = 30, Z64_LOC_LEN = 20, Z64_EOCD_LEN = 56,
    MAX_ENTRIES = 1u << 20,
};

static uint32_t le16(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8; }
static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static uint64_t le64(const uint8_t *p) { return le32(p) | (uint64_t)le32(p + 4) << 32; }

static int zerr(nnav_error *err, uint64_t off, const char *what, const char *msg)
{
    nnav_err_set(err, off, 1, "%s", msg);
    snprintf(err->path, sizeof err->path, "%s", what);
    err->kind = NNAV_ERR_INPUT;
    return -1;
}

/* The zip64 extra field (id 1) of a central directory entry: the values the
 * 32-bit fields hold 0xffffffff for, in order usize, csize, offset. */
static int zip64_extra(const uint8_t *x, uint32_t xn, uint64_t *usize, uint64_t *csize,
                       uint64_t *off, int need_u, int need_c, int need_o)
{
    uint32_t i = 0;
    while (xn - i >= 4) {
        uint32_t id = le16(x + i), len = le16(x + i + 2);
        if (len > xn - i - 4)
            return -1;
        if (id == 1) {
            const uint8_t *p = x + i + 4, *e = p + len;
            if (need_u) {
                if (e - p < 8) return -1;
                *usize = le64(p), p += 8;
            }
            if (need_c) {
                if (e - p < 8) return -1;
                *csize = le64(p), p += 8;
            }
            if (need_o) {
                if (e - p < 8) return -1;
                *off = le64(p);
            }
            return 0;
        }
        i += 4 + len;
    }
    return need_u || need_c || need_o ? -1 : 0;
}

static int by_start(const void *a, const void *b)
{
    const pt_zip_entry *x = a, *y = b;
    return x->hdr_off < y->hdr_off ? -1 : x->hdr_off > y->hdr_off;
}

int pt_zip_read(const uint8_t *base, uint64_t n, pt_zip *z, nnav_error *err)
{
    memset(z, 0, sizeof *z);
    /* The end record: the last "PK\5\6" within its 64 KiB comment reach. */
    if (n < EOCD_LEN)
        return zerr(err, 0, "zip", "too short for a zip end record");
    uint64_t lo = n - EOCD_LEN > 65535 ? n - EOCD_LEN - 65535 : 0, eo = UINT64_MAX;
    for (uint64_t i = n - EOCD_LEN + 1; i-- > lo;)
        if (!memcmp(base + i, "PK\5\6", 4) && le16(base + i + 20) == n - i - EOCD_LEN) {
            eo = i;
            break;
        }
    if (eo == UINT64_MAX)
        return zerr(err, n, "zip", "no zip end record (the file is cut short?)");
    const uint8_t *e = base + eo;
    uint64_t count = le16(e + 10), cd_size = le32(e + 12), cd_off = le32(e + 16);
    if (le16(e + 4) || le16(e + 6))
        return zerr(err, eo, "zip end record", "a zip split over several disks");
    if (count == 0xffff || cd_size == 0xffffffffu || cd_off == 0xffffffffu) {
        if (eo < Z64_LOC_LEN || memcmp(base + eo - Z64_LOC_LEN, "PK\6\7", 4))
            return zerr(err, eo, "zip end record", "zip64 values but no zip64 locator");
        uint64_t zo = le64(base + eo - Z64_LOC_LEN + 8);
        if (zo > eo - Z64_LOC_LEN || eo - Z64_LOC_LEN - zo < Z64_EOCD_LEN ||
            memcmp(base + zo, "PK\6\6", 4))
            return zerr(err, eo - Z64_LOC_LEN + 8, "zip64 locator",
                        "the zip64 end record it points at is not there");
        count = le64(base + zo + 32);
        cd_size = le64(base + zo + 40);
        cd_off = le64(base + zo + 48);
        eo = zo;
    }
    if (cd_off > eo || cd_size > eo - cd_off)
        return zerr(err, eo, "zip end record", "the central directory lies past the end record");
    if (count > MAX_ENTRIES || count > cd_size / CDH_LEN)
        return zerr(err, eo, "zip end record", "more entries than the central directory can hold");
    z->cd_off = cd_off;
    z->cd_size = cd_size;
    if (nnav_vec_reserve(z->e, (uint32_t)count + 1))
        return zerr(err, 0, "zip", "out of memory");
    uint64_t p = cd_off, end = cd_off + cd_size;
    for (uint64_t k = 0; k < count; k++) {
        char path[64];
        snprintf(path, sizeof path, "zip central directory[%llu]", (unsigned long long)k);
        if (end - p < CDH_LEN || memcmp(base + p, "PK\1\2", 4))
            return zerr(err, p, path, "not a central directory entry");
        const uint8_t *c = base + p;
        uint32_t nl = le16(c + 28), xl = le16(c + 30), cl = le16(c + 32);
        if ((uint64_t)nl + xl + cl > end - p - CDH_LEN)
            return zerr(err, p, path, "the entry's name and extra fields run past the directory");
        pt_zip_entry *en = nnav_vec_push(z->e);
        en->method = (uint16_t)le16(c + 10);
        en->csize = le32(c + 20);
        en->usize = le32(c + 24);
        en->hdr_off = le32(c + 42);
        en->name = (nnav_span){c + CDH_LEN, nl};
        if (zip64_extra(c + CDH_LEN + nl, xl, &en->usize, &en->csize, &en->hdr_off,
                        en->usize == 0xffffffffu, en->csize == 0xffffffffu,
                        en->hdr_off == 0xffffffffu) < 0)
            return zerr(err, p + CDH_LEN + nl, path, "a zip64 entry without its zip64 sizes");
        if (le16(c + 8) & 1)
            return zerr(err, p + 8, path, "an encrypted zip entry");
        /* Its local header, then its data, must lie before the directory. */
        uint64_t h = en->hdr_off;
        if (h > cd_off || cd_off - h < LFH_LEN || memcmp(base + h, "PK\3\4", 4))
            return zerr(err, p + 42, path, "the entry's local header is not where it says");
        uint64_t lnl = le16(base + h + 26), lxl = le16(base + h + 28);
        if (lnl + lxl > cd_off - h - LFH_LEN)
            return zerr(err, h, path, "the entry's local header runs past the directory");
        en->data_off = h + LFH_LEN + lnl + lxl;
        if (en->csize > cd_off - en->data_off) {
            char m[160];
            snprintf(m, sizeof m, "the entry's %llu bytes at offset %llu run past the end of "
                     "the data (the directory starts at %llu)", (unsigned long long)en->csize,
                     (unsigned long long)en->data_off, (unsigned long long)cd_off);
            return zerr(err, en->data_off, path, m);
        }
        if (en->method == 0 && en->csize != en->usize)
            return zerr(err, p + 20, path, "a stored entry whose two sizes differ");
        p += CDH_LEN + nl + xl + cl;
    }
    /* No two entries share bytes: sorted by header, each ends before the next. */
    pt_zip_entry *s = malloc(((size_t)z->e.n + 1) * sizeof *s);
    if (!s)
        return zerr(err, 0, "zip", "out of memory");
    memcpy(s, z->e.v, (size_t)z->e.n * sizeof *s);
    qsort(s, z->e.n, sizeof *s, by_start);
    for (uint32_t k = 1; k < z->e.n; k++)
        if (s[k].hdr_off < s[k - 1].data_off + s[k - 1].csize) {
            char m[512], a[160], b[160];
            nnav_text_escape(s[k - 1].name.p, s[k - 1].name.n, a, sizeof a);
            nnav_text_escape(s[k].name.p, s[k].name.n, b, sizeof b);
            snprintf(m, sizeof m, "zip entry '%s' at offset %llu overlaps entry '%s' (offset "
                     "%llu, %llu bytes)", b, (unsigned long long)s[k].hdr_off, a,
                     (unsigned long long)s[k - 1].hdr_off, (unsigned long long)s[k - 1].csize);
            uint64_t at = s[k].hdr_off;
            free(s);
            return zerr(err, at, "zip", m);
        }
    free(s);
    if (pt_zip_index(z) < 0)
        return zerr(err, 0, "zip", "out of memory");
    return 0;
}

void pt_zip_free(pt_zip *z)
{
    nnav_vec_free(z->e);
    free(z->by_name);
    z->by_name = NULL;
}

static int name_cmp(nnav_span a, const uint8_t *b, uint64_t bn)
{
    int c = memcmp(a.p, b, (size_t)(a.n < bn ? a.n : bn));
    return c ? c : (a.n > bn) - (a.n < bn);
}

static int by_name(const void *x, const void *y)
{
    const pt_zip_named *a = x, *b = y;
    int c = name_cmp(a->name, b->name.p, b->name.n);
    return c ? c : (a->k > b->k) - (a->k < b->k); /* of equal names, the first first */
}

int pt_zip_index(pt_zip *z)
{
    free(z->by_name);
    z->by_name = malloc(((size_t)z->e.n + 1) * sizeof *z->by_name);
    if (!z->by_name)
        return -1;
    for (uint32_t k = 0; k < z->e.n; k++)
        z->by_name[k] = (pt_zip_named){z->e.v[k].name, k};
    qsort(z->by_name, z->e.n, sizeof *z->by_name, by_name);
    return 0;
}

const pt_zip_entry *pt_zip_find(const pt_zip *z, const char *name, size_t len)
{
    size_t lo = 0, hi = z->by_name ? z->e.n : 0;
    while (lo < hi) { /* the first of equal names */
        size_t mid = lo + (hi - lo) / 2;
        if (name_cmp(z->by_name[mid].name, (const uint8_t *)name, len) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < (z->by_name ? z->e.n : 0) &&
        !name_cmp(z->by_name[lo].name, (const uint8_t *)name, len))
        return &z->e.v[z->by_name[lo].k];
    return NULL;
}

int pt_zip_data(const uint8_t *base, const pt_zip_entry *e, nnav_span *out, nnav_error *err)
{
    if (e->method != 0) {
        char m[400], nm[200];
        nnav_text_escape(e->name.p, e->name.n, nm, sizeof nm);
        snprintf(m, sizeof m, "zip entry '%s' is compressed (%s, %llu bytes to %llu): nnav "
                 "reads stored entries in place and inflates none", nm,
                 e->method == 8 ? "deflate" : "method", (unsigned long long)e->csize,
                 (unsigned long long)e->usize);
        if (e->method != 8)
            snprintf(m + strlen(m), sizeof m - strlen(m), " (method %u)", e->method);
        return zerr(err, e->hdr_off, "zip", m);
    }
    *out = (nnav_span){base + e->data_off, e->csize};
    return 0;
}
