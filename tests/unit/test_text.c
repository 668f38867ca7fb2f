/* test_text.c - the sanitiser between file bytes and a terminal.
 *
 * Besides fixed cases, every output is checked against three independent
 * properties written here from the definitions (not from text.c):
 *   - safe: valid UTF-8, no C0 control, DEL, C1 control, bidi control or
 *     other invisible formatting character the header promises to escape;
 *   - lossless: a small unescaper written from the documented forms (\\, \n,
 *     \t, \r, \xNN, \u{N...}) gives back exactly the input bytes;
 *   - cut cleanly: into a buffer of any size the output is the longest run of
 *     whole escapes that fits, NUL-terminated, never half an escape or half a
 *     UTF-8 character. */
#include "testutil.h"

/* ---- independent helpers ---- */

/* One UTF-8 sequence at p (strict: no overlongs, surrogates or > U+10FFFF).
 * Returns its length and code point, or 0 when invalid. */
static int utf8_dec(const uint8_t *p, size_t len, uint32_t *cp)
{
    if (len == 0)
        return 0;
    uint8_t b = p[0];
    if (b < 0x80) {
        *cp = b;
        return 1;
    }
    int n;
    uint32_t c, min;
    if (b >= 0xc2 && b <= 0xdf)
        n = 2, c = b & 0x1f, min = 0x80;
    else if (b >= 0xe0 && b <= 0xef)
        n = 3, c = b & 0x0f, min = 0x800;
    else if (b >= 0xf0 && b <= 0xf4)
        n = 4, c = b & 0x07, min = 0x10000;
    else
        return 0;
    if ((size_t)n > len)
        return 0;
    for (int i = 1; i < n; i++) {
        if (p[i] < 0x80 || p[i] > 0xbf)
            return 0;
        c = c << 6 | (p[i] & 0x3f);
    }
    if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
        return 0;
    *cp = c;
    return n;
}

/* Code points the header says must never reach a terminal as themselves. */
static int cp_forbidden(uint32_t c)
{
    return c < 0x20 || c == 0x7f || (c >= 0x80 && c <= 0x9f) ||  /* C0, DEL, C1 */
           (c >= 0x202a && c <= 0x202e) ||                         /* LRE..RLO */
           (c >= 0x2066 && c <= 0x2069) ||                         /* LRI..PDI */
           c == 0x200e || c == 0x200f || c == 0x061c ||            /* LRM RLM ALM */
           c == 0x2028 || c == 0x2029 || c == 0xfeff ||
           (c >= 0x200b && c <= 0x200d) ||                         /* ZWSP ZWNJ ZWJ */
           (c >= 0x2060 && c <= 0x2064) || c == 0x00ad ||          /* WJ, invisible ops, SHY */
           (c >= 0x206a && c <= 0x206f) || c == 0x180e ||          /* deprecated formats, MVS */
           c == 0xe0001 || (c >= 0xe0020 && c <= 0xe007f);         /* tags */
}

/* Combining marks that stack on the character before them (a subset: the
 * general blocks, Zalgo's favourites). */
static int cp_mark(uint32_t c)
{
    return (c >= 0x0300 && c <= 0x036f) || (c >= 0x0483 && c <= 0x0489) ||
           (c >= 0x1ab0 && c <= 0x1abe) || (c >= 0x1dc0 && c <= 0x1dff) ||
           (c >= 0x20d0 && c <= 0x20f0) || (c >= 0xfe20 && c <= 0xfe2f);
}

/* Length of the escape at s[i] (s[i] == '\\'): \\ \n \t \r \xNN \u{N...}; 0 if
 * malformed or cut. */
static size_t escape_len(const char *s, size_t n, size_t i)
{
    if (i + 1 >= n)
        return 0;
    char c = s[i + 1];
    if (c == '\\' || c == 'n' || c == 't' || c == 'r')
        return 2;
    if (c == 'x')
        return i + 4 <= n ? 4 : 0;
    if (c != 'u' || i + 2 >= n || s[i + 2] != '{')
        return 0;
    size_t j = i + 3;
    while (j < n && s[j] != '}' && j - i < 12)
        j++;
    return j < n && s[j] == '}' ? j + 1 - i : 0;
}

/* NULL when s is safe for a terminal, else what is wrong with it. Besides
 * the forbidden code points: no combining mark opens the text or follows an
 * escape (it would sit on whatever the terminal drew before it, or on the
 * escape's last character), and at most two follow one character. */
static const char *unsafe(const char *s, size_t n)
{
    static char why[64];
    const uint8_t *p = (const uint8_t *)s;
    int marks = -1; /* marks on the last character; -1: no character to sit on */
    for (size_t i = 0; i < n;) {
        uint32_t cp;
        if (p[i] == '\\') {
            size_t e = escape_len(s, n, i);
            i += e ? e : 1;
            marks = -1;
            continue;
        }
        int k = utf8_dec(p + i, n - i, &cp);
        if (k == 0) {
            snprintf(why, sizeof why, "invalid UTF-8 byte 0x%02X at %zu", p[i], i);
            return why;
        }
        if (cp_forbidden(cp)) {
            snprintf(why, sizeof why, "U+%04X at %zu", cp, i);
            return why;
        }
        if (cp_mark(cp)) {
            if (marks < 0 || marks >= 2) {
                snprintf(why, sizeof why, "combining U+%04X at %zu (%s)", cp, i,
                         marks < 0 ? "on nothing" : "a third mark");
                return why;
            }
            marks++;
        } else {
            marks = 0;
        }
        i += (size_t)k;
    }
    return NULL;
}

static size_t utf8_enc(uint32_t c, uint8_t *o)
{
    if (c < 0x80)
        return o[0] = (uint8_t)c, 1;
    if (c < 0x800)
        return o[0] = (uint8_t)(0xc0 | c >> 6), o[1] = (uint8_t)(0x80 | (c & 0x3f)), 2;
    if (c < 0x10000) {
        o[0] = (uint8_t)(0xe0 | c >> 12), o[1] = (uint8_t)(0x80 | (c >> 6 & 0x3f));
        o[2] = (uint8_t)(0x80 | (c & 0x3f));
        return 3;
    }
    o[0] = (uint8_t)(0xf0 | c >> 18), o[1] = (uint8_t)(0x80 | (c >> 12 & 0x3f));
    o[2] = (uint8_t)(0x80 | (c >> 6 & 0x3f)), o[3] = (uint8_t)(0x80 | (c & 0x3f));
    return 4;
}

static int hexval(char c)
{
    return c >= '0' && c <= '9' ? c - '0'
           : c >= 'A' && c <= 'F' ? c - 'A' + 10
           : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* Undo the escaping. Returns the byte count, or -1 on a malformed or partial
 * escape (which a cut must never leave behind). */
static long unescape(const char *s, size_t n, uint8_t *out, size_t cap)
{
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        if (o + 4 > cap)
            return -1;
        if (s[i] != '\\') {
            out[o++] = (uint8_t)s[i++];
            continue;
        }
        if (i + 1 >= n)
            return -1;
        char c = s[i + 1];
        if (c == '\\' || c == 'n' || c == 't' || c == 'r') {
            out[o++] = c == '\\' ? '\\' : c == 'n' ? '\n' : c == 't' ? '\t' : '\r';
            i += 2;
        } else if (c == 'x') {
            if (i + 4 > n || hexval(s[i + 2]) < 0 || hexval(s[i + 3]) < 0)
                return -1;
            out[o++] = (uint8_t)(hexval(s[i + 2]) * 16 + hexval(s[i + 3]));
            i += 4;
        } else if (c == 'u') {
            if (i + 2 >= n || s[i + 2] != '{')
                return -1;
            size_t j = i + 3;
            uint32_t cp = 0;
            int digits = 0;
            while (j < n && hexval(s[j]) >= 0 && digits < 7)
                cp = cp * 16 + (uint32_t)hexval(s[j++]), digits++;
            if (j >= n || s[j] != '}' || digits < 4 || cp > 0x10ffff)
                return -1;
            o += utf8_enc(cp, out + o);
            i = j + 1;
        } else {
            return -1;
        }
    }
    return (long)o;
}

/* Escape into an exactly sized heap buffer; returns the length. */
static size_t esc(const void *in, size_t len, char **out, size_t n)
{
    *out = malloc(n ? n : 1);
    assert_non_null(*out);
    return nnav_text_escape((const uint8_t *)in, len, *out, n);
}

/* The full check of one input: safe, lossless, and correctly cut at every
 * buffer size. `boundaries` mode is cheap enough for short inputs only. */
static void check_all(const uint8_t *in, size_t len, int cuts)
{
    size_t big = len * 10 + 1;
    char *full;
    size_t fl = esc(in, len, &full, big);
    assert_int_equal(strlen(full), fl);
    const char *why = unsafe(full, fl);
    if (why) {
        fail_msg("escaping %zu bytes (first 0x%02X) left %s: \"%s\"", len, len ? in[0] : 0, why,
                 full);
    }
    uint8_t *back = malloc(len + 8);
    assert_non_null(back);
    long bl = unescape(full, fl, back, len + 8);
    if (bl != (long)len || memcmp(back, in, len) != 0)
        fail_msg("\"%s\" does not unescape to the %zu input bytes (got %ld)", full, len, bl);
    if (cuts) {
        /* Unit boundaries in the output (whole escapes, whole characters),
         * from our own reading of the documented forms: how a character is
         * shown may depend on the ones before it (a third combining mark),
         * so the output is cut up, not each input character escaped alone. */
        size_t *bound = malloc((fl + 2) * sizeof *bound);
        size_t nb = 0, o = 0;
        bound[nb++] = 0;
        while (o < fl) {
            uint32_t cp;
            size_t k = full[o] == '\\' ? escape_len(full, fl, o)
                                       : (size_t)utf8_dec((const uint8_t *)full + o, fl - o, &cp);
            if (k == 0)
                fail_msg("\"%s\": no whole escape or character at %zu", full, o);
            o += k;
            bound[nb++] = o;
        }
        for (size_t n = 1; n <= fl + 2; n++) {
            char *cut;
            size_t cl = esc(in, len, &cut, n);
            size_t want = 0;
            for (size_t b = 0; b < nb; b++)
                if (bound[b] < n)
                    want = bound[b];
            if (cl != want || strlen(cut) != cl || memcmp(cut, full, cl) != 0)
                fail_msg("into %zu bytes: got %zu \"%s\", want the first %zu of \"%s\"", n, cl,
                         cut, want, full);
            free(cut);
        }
        free(bound);
    }
    free(back);
    free(full);
}

/* ---- fixed cases ---- */

static void expect_escape(const char *in, size_t len, const char *want)
{
    char *out;
    size_t n = esc(in, len, &out, 256);
    if (strcmp(out, want) != 0)
        fail_msg("escape gave \"%s\", want \"%s\"", out, want);
    assert_int_equal(n, strlen(want));
    free(out);
    check_all((const uint8_t *)in, len, 1);
}
#define EXPECT(lit, want) expect_escape(lit, sizeof(lit) - 1, want)

static void test_kept(void **state)
{
    (void)state;
    EXPECT("", "");
    EXPECT("conv1.weight", "conv1.weight");
    EXPECT(" !\"#$%&'()*+,-./0123456789:;<=>?@AZ[]^_`az{|}~",
           " !\"#$%&'()*+,-./0123456789:;<=>?@AZ[]^_`az{|}~");
    EXPECT("Gr\xc3\xb6\xc3\x9f" "e", "Gr\xc3\xb6\xc3\x9f" "e");     /* Größe */
    EXPECT("\xe6\xa8\xa1\xe5\x9e\x8b", "\xe6\xa8\xa1\xe5\x9e\x8b"); /* 模型 */
    EXPECT("\xf0\x9f\x99\x82!", "\xf0\x9f\x99\x82!");               /* emoji */
    EXPECT("\xd7\xa9\xd7\x9c\xd7\x95\xd7\x9d", "\xd7\xa9\xd7\x9c\xd7\x95\xd7\x9d"); /* Hebrew */
    EXPECT("\xc2\xa0\xc2\xa9", "\xc2\xa0\xc2\xa9"); /* U+00A0, U+00A9: just past C1 */
    EXPECT("\xf4\x8f\xbf\xbf", "\xf4\x8f\xbf\xbf"); /* U+10FFFF, the last code point */
    EXPECT("\xef\xbf\xbd", "\xef\xbf\xbd");         /* U+FFFD itself */
}

static void test_controls(void **state)
{
    (void)state;
    EXPECT("a\x1b[31mred", "a\\x1B[31mred");
    EXPECT("\x1b]0;title\x07", "\\x1B]0;title\\x07");
    EXPECT("x\x00y", "x\\x00y"); /* NUL inside a span */
    EXPECT("\x00", "\\x00");
    EXPECT("\x01\x08\x0b\x0c\x1f", "\\x01\\x08\\x0B\\x0C\\x1F");
    EXPECT("a\nb\tc\rd", "a\\nb\\tc\\rd");
    EXPECT("\x7f", "\\x7F");
    EXPECT("back\\slash", "back\\\\slash");
    EXPECT("\\x1B", "\\\\x1B"); /* a literal backslash-x is not an escape */
    /* Every C0 control and DEL, one by one. */
    for (int c = 0; c < 0x20; c++) {
        uint8_t b = (uint8_t)c;
        check_all(&b, 1, 1);
    }
}

static void test_c1_and_bidi(void **state)
{
    (void)state;
    EXPECT("\xc2\x80", "\\u{0080}");
    EXPECT("\xc2\x9b" "31m", "\\u{009B}31m"); /* CSI */
    EXPECT("\xc2\x9d", "\\u{009D}");           /* OSC */
    EXPECT("\xc2\x9f", "\\u{009F}");
    EXPECT("abc\xe2\x80\xae" "cba", "abc\\u{202E}cba"); /* RLO */
    EXPECT("\xe2\x80\xaa\xe2\x80\xab\xe2\x80\xac\xe2\x80\xad",
           "\\u{202A}\\u{202B}\\u{202C}\\u{202D}");
    EXPECT("\xe2\x81\xa6" "x" "\xe2\x81\xa9", "\\u{2066}x\\u{2069}"); /* LRI .. PDI */
    EXPECT("\xe2\x81\xa7\xe2\x81\xa8", "\\u{2067}\\u{2068}");
    EXPECT("\xe2\x80\x8e\xe2\x80\x8f\xd8\x9c", "\\u{200E}\\u{200F}\\u{061C}");
    EXPECT("\xe2\x80\xa8\xe2\x80\xa9", "\\u{2028}\\u{2029}");
    EXPECT("\xef\xbb\xbf" "x", "\\u{FEFF}x");
    /* Raw C1 bytes (not UTF-8) are invalid bytes. */
    EXPECT("\x9b", "\\x9B");
}

/* Invisible characters: two names that differ only by one look the same, and
 * a zero-width character shifts the columns after it. */
static void test_zero_width(void **state)
{
    (void)state;
    EXPECT("a\xe2\x80\x8d" "b", "a\\u{200D}b");                 /* ZWJ */
    EXPECT("a\xe2\x80\x8b" "b", "a\\u{200B}b");                 /* ZWSP */
    EXPECT("a\xe2\x80\x8c" "b", "a\\u{200C}b");                 /* ZWNJ */
    EXPECT("a\xe2\x81\xa0" "b", "a\\u{2060}b");                 /* word joiner */
    EXPECT("a\xe2\x81\xa2" "b", "a\\u{2062}b");                 /* invisible times */
    EXPECT("conv\xef\xbb\xbf", "conv\\u{FEFF}");                /* BOM at the end */
    EXPECT("soft\xc2\xad" "hyphen", "soft\\u{00AD}hyphen");     /* SHY */
    EXPECT("\xe1\xa0\x8e", "\\u{180E}");                        /* Mongolian vowel sep. */
    EXPECT("t\xf3\xa0\x81\x81" "g", "t\\u{E0041}g");            /* tag LATIN A */
    EXPECT("\xf3\xa0\x80\x81", "\\u{E0001}");                   /* language tag */
    /* An emoji family keeps its pictures; the joiners between show. */
    EXPECT("\xf0\x9f\x91\xa8\xe2\x80\x8d\xf0\x9f\x91\xa9",
           "\xf0\x9f\x91\xa8\\u{200D}\xf0\x9f\x91\xa9");
    /* Two look-alike names do not look alike once shown. */
    char a[64], b[64];
    nnav_text_escape((const uint8_t *)"weight", 6, a, sizeof a);
    nnav_text_escape((const uint8_t *)"wei\xe2\x80\x8bght", 9, b, sizeof b);
    assert_string_not_equal(a, b);
}

/* Combining marks: one or two on a character is normal text (an accent,
 * Vietnamese's two) and kept; from the third on, and a mark with no
 * character before it to sit on, they are escaped. */
static void test_combining_marks(void **state)
{
    (void)state;
    EXPECT("e\xcc\x81", "e\xcc\x81");                            /* e + acute */
    EXPECT("e\xcc\xa3\xcc\x82", "e\xcc\xa3\xcc\x82");            /* Vietnamese, decomposed */
    EXPECT("e\xcc\x81\xcc\x82\xcc\x83", "e\xcc\x81\xcc\x82\\u{0303}");
    EXPECT("Z\xcd\x91\xcd\x8b\xcd\x8c\xcd\x8a\xcc\xbd" "a",
           "Z\xcd\x91\xcd\x8b\\u{034C}\\u{034A}\\u{033D}a"); /* Zalgo */
    /* The count starts again at each character. */
    EXPECT("a\xcc\x81\xcc\x81\xcc\x81" "b\xcc\x81",
           "a\xcc\x81\xcc\x81\\u{0301}b\xcc\x81");
    /* Nothing to sit on: at the start, and after an escape. */
    EXPECT("\xcc\x81" "x", "\\u{0301}x");
    EXPECT("\x1b\xcc\x81", "\\x1B\\u{0301}");
    EXPECT("\\\xcc\x81", "\\\\\\u{0301}");
    EXPECT("a\xe2\x80\x8d\xcc\x81", "a\\u{200D}\\u{0301}");
    /* Marks of other blocks count too: Hebrew points, an enclosing circle,
     * Devanagari signs. */
    EXPECT("\xd7\xa9\xd7\x81\xd6\xbc", "\xd7\xa9\xd7\x81\xd6\xbc"); /* shin, dot, dagesh */
    EXPECT("\xd7\xa9\xd7\x81\xd6\xbc\xd6\xb8\xd6\xb8", "\xd7\xa9\xd7\x81\xd6\xbc\\u{05B8}\\u{05B8}");
    EXPECT("x\xe2\x83\x9d\xe2\x83\x9d\xe2\x83\x9d", "x\xe2\x83\x9d\xe2\x83\x9d\\u{20DD}");
    EXPECT("\xe0\xa4\x95\xe0\xa5\x8d\xe0\xa4\xb7", "\xe0\xa4\x95\xe0\xa5\x8d\xe0\xa4\xb7"); /* क्ष */
    /* An emoji with its presentation selector, a keycap: one and two marks. */
    EXPECT("\xe2\x9d\xa4\xef\xb8\x8f", "\xe2\x9d\xa4\xef\xb8\x8f");
    EXPECT("1\xef\xb8\x8f\xe2\x83\xa3", "1\xef\xb8\x8f\xe2\x83\xa3");
    /* Precomposed accents and CJK are not marks at all. */
    EXPECT("\xc3\xa9\xc3\xa9\xc3\xa9\xe6\xa8\xa1", "\xc3\xa9\xc3\xa9\xc3\xa9\xe6\xa8\xa1");
    /* A long run stays bounded on screen: each further mark is 8 columns
     * of plain text, never a pile on one cell. */
    uint8_t z[2 + 2 * 60];
    z[0] = 'o';
    for (int i = 0; i < 60; i++)
        z[1 + 2 * i] = 0xcd, z[2 + 2 * i] = (uint8_t)(0x80 + i % 0x30);
    z[1 + 2 * 60] = 'k';
    check_all(z, sizeof z, 1);
}

static void test_invalid_utf8(void **state)
{
    (void)state;
    EXPECT("\x80", "\\x80");                        /* lone continuation */
    EXPECT("a\xbf" "b", "a\\xBFb");
    EXPECT("\xc0\xaf", "\\xC0\\xAF");               /* overlong '/' */
    EXPECT("\xc1\xbf", "\\xC1\\xBF");
    EXPECT("\xe0\x80\xaf", "\\xE0\\x80\\xAF");      /* 3-byte overlong */
    EXPECT("\xf0\x80\x80\xaf", "\\xF0\\x80\\x80\\xAF");
    EXPECT("\xed\xa0\x80", "\\xED\\xA0\\x80");      /* surrogate D800 */
    EXPECT("\xed\xbf\xbf", "\\xED\\xBF\\xBF");      /* surrogate DFFF */
    EXPECT("\xe6\xa8", "\\xE6\\xA8");               /* truncated at the end */
    EXPECT("\xe6\xa8" "A", "\\xE6\\xA8A");          /* truncated mid-string */
    EXPECT("\xf0\x9f\x99", "\\xF0\\x9F\\x99");
    EXPECT("\xc3", "\\xC3");
    EXPECT("\xf4\x90\x80\x80", "\\xF4\\x90\\x80\\x80"); /* > U+10FFFF */
    EXPECT("\xf5\x80\x80\x80", "\\xF5\\x80\\x80\\x80");
    EXPECT("\xf8\x88\x80\x80\x80", "\\xF8\\x88\\x80\\x80\\x80");
    EXPECT("\xfe\xff", "\\xFE\\xFF");
    /* A bad byte must not swallow the good character after it. */
    EXPECT("\xc3" "\xc3\xb6", "\\xC3\xc3\xb6");
    EXPECT("\xe2\x80" "\xe2\x80\xae", "\\xE2\\x80\\u{202E}");
}

/* Every one- and two-byte input, and every three-byte input led by E0..EF or
 * C2..DF: the properties hold for all of them. */
static void test_exhaustive_short(void **state)
{
    (void)state;
    uint8_t b[4];
    for (int i = 0; i < 256; i++) {
        b[0] = (uint8_t)i;
        check_all(b, 1, 1);
    }
    for (int i = 0; i < 65536; i++) {
        b[0] = (uint8_t)(i >> 8), b[1] = (uint8_t)i;
        check_all(b, 2, 0);
    }
    for (int lead = 0xc2; lead <= 0xef; lead++)
        for (int x = 0x70; x < 0xc8; x++)
            for (int y = 0x70; y < 0xc8; y++) {
                b[0] = (uint8_t)lead, b[1] = (uint8_t)x, b[2] = (uint8_t)y;
                check_all(b, 3, 0);
            }
}

static void test_random(void **state)
{
    (void)state;
    static const uint8_t pool[] = {'a', '\\', 0x1b, 0x00, 0x7f, '\n', 0xc2, 0x80, 0x9b, 0xe2,
                                   0x80, 0xae, 0x81, 0xa6, 0xf0, 0x9f, 0x99, 0x82, 0xed, 0xa0,
                                   0xc3, 0xb6, 0xe6, 0xa8, 0xa1, 0xf4, 0x90, 0xf5, 0xbf, 0xef,
                                   0xbb, 0xc0, 0xaf, 'x', '{', '}',
                                   /* combining marks (CC xx, CD 8F) and ZWJ (E2 80 8D) */
                                   0xcc, 0xcc, 0xcc, 0x81, 0xcd, 0x8f, 0x8d};
    uint32_t s = 2024;
    uint8_t buf[24];
    for (int iter = 0; iter < 60000; iter++) {
        s = s * 1664525u + 1013904223u;
        size_t n = (s >> 20) % sizeof buf;
        for (size_t i = 0; i < n; i++) {
            s = s * 1664525u + 1013904223u;
            buf[i] = (s >> 28) < 13 ? pool[(s >> 8) % sizeof pool] : (uint8_t)(s >> 12);
        }
        check_all(buf, n, iter % 16 == 0);
    }
}

static void test_small_buffers(void **state)
{
    (void)state;
    /* n == 0 writes nothing at all. */
    char sentinel[2] = {'#', '#'};
    assert_int_equal(nnav_text_escape((const uint8_t *)"abc", 3, sentinel, 0), 0);
    assert_int_equal(sentinel[0], '#');
    /* n == 1: only the terminator fits. */
    char *out;
    assert_int_equal(esc("abc", 3, &out, 1), 0);
    assert_int_equal(out[0], 0);
    free(out);
    /* "\x1B" needs 5 bytes with its terminator: with 4 nothing of it shows. */
    assert_int_equal(esc("\x1b", 1, &out, 4), 0);
    assert_string_equal(out, "");
    free(out);
    assert_int_equal(esc("\x1b", 1, &out, 5), 4);
    assert_string_equal(out, "\\x1B");
    free(out);
    assert_int_equal(esc("ab\xe2\x80\xae", 5, &out, 10), 2);
    assert_string_equal(out, "ab");
    free(out);
    assert_int_equal(esc("ab\xe2\x80\xae", 5, &out, 11), 10);
    assert_string_equal(out, "ab\\u{202E}");
    free(out);
    /* A 4-byte character is kept whole or not at all. */
    assert_int_equal(esc("\xf0\x9f\x99\x82", 4, &out, 4), 0);
    free(out);
    assert_int_equal(esc("\xf0\x9f\x99\x82", 4, &out, 5), 4);
    free(out);
    /* Mixed input, every size (boundaries checked by check_all). */
    static const char mix[] = "Gr\xc3\xb6\xc3\x9f" "e\x1b[0m\\\xe2\x80\xae\xe6\xa8\xa1\xc2\x9b"
                              "\xff\x00\n\xf0\x9f\x99\x82" "end";
    check_all((const uint8_t *)mix, sizeof mix - 1, 1);
}

static void test_cstr(void **state)
{
    (void)state;
    char buf[64];
    assert_int_equal(nnav_text_escape_cstr("a\x1b" "b\xc3\xb6", buf, sizeof buf), 8);
    assert_string_equal(buf, "a\\x1Bb\xc3\xb6");
    assert_int_equal(nnav_text_escape_cstr("", buf, sizeof buf), 0);
    assert_string_equal(buf, "");
}

/* ---- nnav_error_format ---- */

static void test_error_format(void **state)
{
    (void)state;
    nnav_error e;
    memset(&e, 0, sizeof e);
    snprintf(e.msg, sizeof e.msg, "name \"\x1b[2Jboom\n\" is bad \xc2\x9b");
    snprintf(e.path, sizeof e.path, "graph.node[3].name\xe2\x80\xae");
    e.offset = 4242;
    e.has_offset = 1;
    e.kind = NNAV_ERR_INPUT;
    const char *file = "/tmp/\x1b]0;evil\x07\xc3\xb6.onnx";
    char out[2048];
    nnav_error_format(&e, file, out, sizeof out);
    const char *why = unsafe(out, strlen(out));
    if (why)
        fail_msg("error line \"%s\" holds %s", out, why);
    tu_assert_contains(out, "/tmp/\\x1B]0;evil\\x07\xc3\xb6.onnx");
    tu_assert_contains(out, "\\x1B[2Jboom\\n");
    tu_assert_contains(out, "\\u{009B}");
    tu_assert_contains(out, "graph.node[3].name\\u{202E}");
    tu_assert_contains(out, "offset 4242");

    /* No offset: none is invented. No path: no empty ": :" pair. */
    e.has_offset = 0;
    e.path[0] = 0;
    nnav_error_format(&e, "m.onnx", out, sizeof out);
    assert_null(strstr(out, "offset"));
    assert_null(strstr(out, ": :"));
    tu_assert_contains(out, "m.onnx: ");
    assert_null(unsafe(out, strlen(out)));
    /* A NULL file name is allowed. */
    nnav_error_format(&e, NULL, out, sizeof out);
    assert_null(unsafe(out, strlen(out)));
    tu_assert_contains(out, "is bad");
}

/* Cut to any buffer size, the line stays safe for a terminal: no control
 * bytes and no half UTF-8 character at the end. */
static void test_error_format_small(void **state)
{
    (void)state;
    nnav_error e;
    memset(&e, 0, sizeof e);
    snprintf(e.msg, sizeof e.msg, "bad \xc3\xb6\xe6\xa8\xa1 \x1b!");
    snprintf(e.path, sizeof e.path, "graph.node[0]");
    e.offset = 7;
    e.has_offset = 1;
    const char *file = "Gr\xc3\xb6\xc3\x9f" "e\xf0\x9f\x99\x82.onnx";
    char full[512];
    nnav_error_format(&e, file, full, sizeof full);
    size_t fl = strlen(full);
    for (size_t n = 1; n <= fl + 1; n++) {
        char *out = malloc(n);
        assert_non_null(out);
        nnav_error_format(&e, file, out, n);
        size_t ol = strnlen(out, n);
        assert_true(ol < n);
        const char *why = unsafe(out, ol);
        char shown[600];
        if (why)
            nnav_text_escape((const uint8_t *)out, ol, shown, sizeof shown);
        free(out);
        if (why)
            fail_msg("cut to %zu bytes, \"%s\" holds %s", n, shown, why);
    }
}

/* nnav_text_elide_mid: over strings of ASCII, wide characters and
 * combining marks, at every width from 3 to 40, the result fits, is the
 * text itself when that fits, else a start of it, the ellipsis and an end
 * of it (never starting with a mark) that leave at most one column (a wide
 * character's) unused. */
static void test_elide_mid(void **state)
{
    (void)state;
    static const char *const parts[] = {"a", "Z", "_", "/", "\xe4\xb8\xad", "e\xcc\x81"};
    unsigned seed = 7;
    for (int round = 0; round < 400; round++) {
        char s[256] = "";
        size_t sl = 0;
        int n = (int)((seed = seed * 1103515245u + 12345u) >> 16) % 40;
        for (int i = 0; i < n; i++) {
            const char *p = parts[((seed = seed * 1103515245u + 12345u) >> 16) % 6];
            memcpy(s + sl, p, strlen(p) + 1);
            sl += strlen(p);
        }
        int whole = nnav_text_cols(s);
        for (int cols = 3; cols <= 40; cols++) {
            char out[300];
            const char *r = nnav_text_elide_mid(s, cols, out, sizeof out);
            int rc = nnav_text_cols(r);
            if (whole <= cols) {
                assert_string_equal(r, s);
                continue;
            }
            assert_true(rc <= cols);
            assert_true(rc >= cols - 1);
            const char *e = strstr(r, "\xe2\x80\xa6");
            assert_non_null(e);
            size_t head = (size_t)(e - r), tail = strlen(e + 3);
            assert_memory_equal(r, s, head);
            assert_string_equal(e + 3, s + sl - tail);
            assert_false(tail >= 2 && (unsigned char)e[3] == 0xcc); /* no mark first */
        }
    }
    /* "ab…op" takes 8 bytes with its NUL: in 8 it is cut, in 7 not. */
    char small[8];
    assert_string_equal(nnav_text_elide_mid("abcdefghijklmnop", 5, small, 8), "ab\xe2\x80\xa6op");
    assert_string_equal(nnav_text_elide_mid("abcdefghijklmnop", 5, small, 7), "abcdef");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kept),
        cmocka_unit_test(test_controls),
        cmocka_unit_test(test_c1_and_bidi),
        cmocka_unit_test(test_zero_width),
        cmocka_unit_test(test_combining_marks),
        cmocka_unit_test(test_invalid_utf8),
        cmocka_unit_test(test_exhaustive_short),
        cmocka_unit_test(test_random),
        cmocka_unit_test(test_small_buffers),
        cmocka_unit_test(test_cstr),
        cmocka_unit_test(test_error_format),
        cmocka_unit_test(test_error_format_small),
        cmocka_unit_test(test_elide_mid),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
