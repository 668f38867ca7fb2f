/* test_pickle.c - the pickle interpreter that runs nothing (formats/pt),
 * on hand-written opcodes. Every input lives in a heap buffer of exactly its
 * own size, so under AddressSanitizer a read one byte past it is reported.
 * Offsets in errors are asserted to the byte. */
#include "testutil.h"

#include "dtype.h"
#include "pt/pt.h"

typedef struct res {
    pk_state st;
    nnav_error err;
    int rc;
    uint8_t *buf;
} res;

static void run_bytes(res *r, const void *bytes, size_t n)
{
    memset(r, 0, sizeof *r);
    r->buf = malloc(n ? n : 1);
    assert_non_null(r->buf);
    memcpy(r->buf, bytes, n);
    r->st.base = r->buf;
    r->st.what = "t";
    r->rc = pk_run(&r->st, (nnav_span){r->buf, n}, NULL, &r->err);
    pk_calls_fix(&r->st); /* as pt_pickles_read does once every pickle has run */
}
#define RUN(r, lit) run_bytes((r), (lit), sizeof(lit) - 1)

static void done(res *r)
{
    pk_free(&r->st);
    free(r->buf);
}

static const pk_obj *obj(const res *r, uint32_t id) { return &r->st.objs.v[id]; }
static const pk_obj *item_k(const res *r, const pk_obj *c, uint32_t k)
{
    uint32_t l = c->head;
    while (k-- && l != NNAV_NONE)
        l = r->st.links.v[l].next;
    assert_int_not_equal(l, NNAV_NONE);
    return obj(r, r->st.links.v[l].obj);
}

static void expect_fail(const void *bytes, size_t n, uint64_t off, const char *phrase)
{
    res r;
    run_bytes(&r, bytes, n);
    assert_int_equal(r.rc, -1);
    if (!strstr(r.err.msg, phrase))
        fail_msg("wanted '%s' in '%s'", phrase, r.err.msg);
    assert_int_equal(r.err.offset, off);
    char path[32];
    snprintf(path, sizeof path, "t@%llu", (unsigned long long)off);
    assert_string_equal(r.err.path, path);
    done(&r);
}

/* Protocol 0: text opcodes build a list of plain values. */
static void test_protocol0(void **s)
{
    (void)s;
    res r;
    RUN(&r, "(lp0\nI1\naI01\naF1.5\naS'ab'\naL-7L\naNa(I3\nI4\ntp1\nag1\na.");
    assert_int_equal(r.rc, 0);
    const pk_obj *l = obj(&r, r.st.root);
    assert_int_equal(l->kind, PK_LIST);
    assert_int_equal(l->count, 8);
    assert_int_equal(item_k(&r, l, 0)->kind, PK_INT);
    assert_int_equal(item_k(&r, l, 0)->i, 1);
    assert_int_equal(item_k(&r, l, 1)->kind, PK_BOOL);
    assert_true(item_k(&r, l, 2)->f == 1.5);
    assert_true(nnav_span_eqs(item_k(&r, l, 3)->s, "ab"));
    assert_int_equal(item_k(&r, l, 4)->i, -7);
    assert_int_equal(item_k(&r, l, 5)->kind, PK_NONE);
    assert_int_equal(item_k(&r, l, 6)->kind, PK_TUPLE);
    /* GET 1 is the same tuple object, not a copy. */
    assert_ptr_equal(item_k(&r, l, 6), item_k(&r, l, 7));
    done(&r);
}

/* Binary numbers: BININT sign, LONG1 two's complement, a LONG past 64 bits,
 * BINFLOAT big-endian. */
static void test_numbers(void **s)
{
    (void)s;
    res r;
    RUN(&r, "\x80\x02(J\xff\xff\xff\xff\x8a\x01\xff\x8a\x09\x01\x02\x03\x04\x05\x06\x07\x08\x09"
            "G\x3f\xf8\x00\x00\x00\x00\x00\x00M\x34\x12t.");
    assert_int_equal(r.rc, 0);
    const pk_obj *t = obj(&r, r.st.root);
    assert_int_equal(t->count, 5);
    assert_int_equal(item_k(&r, t, 0)->i, -1);
    assert_int_equal(item_k(&r, t, 1)->i, -1);
    assert_int_equal(item_k(&r, t, 2)->big, 1);
    assert_true(item_k(&r, t, 3)->f == 1.5);
    assert_int_equal(item_k(&r, t, 4)->i, 0x1234);
    done(&r);
}

#define U(s) "X" s

/* A tensor as torch writes it: rebuilt from its storage, nothing called. */
static void test_tensor(void **s)
{
    (void)s;
    res r;
    RUN(&r, "\x80\x02}q\x00X\x01\x00\x00\x00w"
            "ctorch._utils\n_rebuild_tensor_v2\n"
            "((X\x07\x00\x00\x00storagectorch\nHalfStorage\nX\x01\x00\x00\x00" "7X\x03\x00\x00\x00" "cpuK\x06tQ"
            "K\x02K\x02K\x02\x86K\x02K\x01\x86\x89" "ccollections\nOrderedDict\n)RtRs.");
    assert_int_equal(r.rc, 0);
    const pk_obj *d = obj(&r, r.st.root);
    assert_int_equal(d->kind, PK_DICT);
    const pk_obj *t = item_k(&r, d, 1);
    assert_int_equal(t->kind, PK_TENSOR);
    assert_int_equal(t->dtype, NNAV_DT_FLOAT16);
    assert_int_equal(t->i, 2);
    assert_int_equal(obj(&r, t->size)->count, 2);
    const pk_obj *st = obj(&r, t->a);
    assert_true(nnav_span_eqs(st->s, "7"));
    assert_int_equal(st->i, 6);
    assert_int_equal(r.st.globals.n, 3);
    for (uint32_t i = 0; i < r.st.globals.n; i++) {
        assert_int_equal(r.st.globals.v[i].allowed, 1);
        assert_null(r.st.globals.v[i].call);
    }
    done(&r);
}

/* A call outside the allowlist: written down with its arguments, never made. */
static void test_dangerous_call(void **s)
{
    (void)s;
    res r;
    RUN(&r, "\x80\x02" "cposix\nsystem\nX\x02\x00\x00\x00ls\x85R.");
    assert_int_equal(r.rc, 0);
    assert_int_equal(r.st.globals.n, 1);
    const nnav_load_ref *g = &r.st.globals.v[0];
    assert_int_equal(g->allowed, 0);
    assert_int_equal(g->offset, 2);
    assert_int_equal(g->op, 'R');
    assert_int_equal(g->call_offset, 24);
    assert_string_equal(g->call, "posix.system('ls')");
    assert_int_equal(obj(&r, r.st.root)->kind, PK_OBJ);
    done(&r);
    /* STACK_GLOBAL, and a call on a call's result. */
    RUN(&r, "\x80\x04" U("\x08\x00\x00\x00" "builtins") U("\x07\x00\x00\x00getattr") "\x93"
            U("\x08\x00\x00\x00" "builtins") U("\x04\x00\x00\x00" "eval") "\x93)R"
            U("\x01\x00\x00\x00x") "\x86R)R.");
    assert_int_equal(r.rc, 0);
    assert_string_equal(r.st.globals.v[1].call, "builtins.eval()");
    assert_int_equal(r.st.globals.n, 3); /* getattr called twice: an entry per call */
    assert_string_equal(r.st.globals.v[2].call, "builtins.getattr(builtins.eval(), 'x')()");
    done(&r);
}

/* torch's legacy magic number, however pickled (issue 29): LONG1 as torch
 * writes it (under protocol 2 or 4), protocol 0's text with a sign. */
static void test_legacy_magic(void **s)
{
    (void)s;
    static const char *const yes[] = {
        "\x80\x02\x8a\x0al\xfc\x9c" "F\xf9 j\xa8P\x19.", "\x80\x04\x8a\x0al\xfc\x9c" "F\xf9 j\xa8P\x19.",
        "L119547037146038801333356L\n.", "L+119547037146038801333356\n.",
        "I119547037146038801333356\n."};
    static const char *const no[] = {
        "\x80\x02\x8a\x0al\xfc\x9c" "F\xf9 j\xa8P\x18.", "L119547037146038801333357L\n.",
        "L-119547037146038801333356L\n.", "\x80\x02M\xe9\x03.", "\x80\x02U\x01L."};
    for (size_t k = 0; k < 5; k++) {
        res r;
        run_bytes(&r, yes[k], strlen(yes[k]));
        assert_int_equal(r.rc, 0);
        assert_true(pk_is_magic(&r.st, r.st.root));
        done(&r);
        run_bytes(&r, no[k], strlen(no[k]));
        assert_int_equal(r.rc, 0);
        assert_false(pk_is_magic(&r.st, r.st.root));
        done(&r);
    }
}

static void test_memo_and_marks(void **s)
{
    (void)s;
    expect_fail("\x80\x02Nh\x07.", 5, 3, "BINGET memo index 7 not set");
    expect_fail("\x80\x02Nr\xff\xff\xff\x7f.", 9, 3, "LONG_BINPUT memo index 2147483647 jumps");
    expect_fail("\x80\x02t.", 4, 2, "TUPLE with no MARK");
    expect_fail("\x80\x02N(R.", 5, 4, "REDUCE on an empty stack (or past a MARK)");
    expect_fail("\x80\x02NN.", 5, 4, "STOP with 2 items");
    expect_fail("\x80\x06N.", 4, 0, "pickle protocol 6");
    expect_fail("\x80\x02\xff.", 4, 2, "opcode 0xff");
    expect_fail("\x80\x02X\xff\xff\xff\x7f", 7, 2, "BINUNICODE needs 2147483647 bytes");
    expect_fail("\x80\x02\x97.", 4, 2, "NEXT_BUFFER");
    size_t n = 2 + 4100 + 1;
    char *m = malloc(n);
    memcpy(m, "\x80\x02", 2);
    memset(m + 2, '(', 4100);
    m[n - 1] = '.';
    expect_fail(m, n, 2 + 4096, "more than 4096 MARKs");
    free(m);
}

/* Every prefix of a good pickle is an error, never a read past its end. */
static void test_every_prefix(void **s)
{
    (void)s;
    static const char good[] =
        "\x80\x02}q\x00(X\x01\x00\x00\x00" "aq\x01]q\x02(K\x01K\x02" "eX\x01\x00\x00\x00" "bG@\x09"
        "\x21\xfb\x54\x44\x2d\x18u.";
    for (size_t k = 0; k < sizeof good - 1; k++) {
        res r;
        run_bytes(&r, good, k);
        assert_int_equal(r.rc, -1);
        assert_true(r.err.offset <= k);
        done(&r);
    }
    res r;
    RUN(&r, good);
    assert_int_equal(r.rc, 0);
    assert_int_equal(obj(&r, r.st.root)->count, 4);
    done(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_protocol0),     cmocka_unit_test(test_numbers),
        cmocka_unit_test(test_tensor),        cmocka_unit_test(test_dangerous_call),
        cmocka_unit_test(test_memo_and_marks), cmocka_unit_test(test_legacy_magic), cmocka_unit_test(test_every_prefix),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
