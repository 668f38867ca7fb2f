/* test_extdata.c - external tensor data is read from the model's own folder
 * and nowhere else.
 *
 * Each case writes a model and its data into a folder of its own under
 * NNAV_TMP. The data file holds the tensor's 16 floats at offset 64, with
 * "poison" bytes (0xEE) before and after: a value read from outside the
 * declared range shows up as a poison float, not as a plausible number.
 * Refusals must come with a message that says why (a key phrase is checked)
 * and must not depend on what the refused file holds. */
#include "testutil.h"

#include <signal.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/un.h>
#include <time.h>

#define NVALS 16
#define DATA_OFF 64

typedef struct kv {
    const char *k;
    const char *v;
    size_t vlen; /* 0: strlen(v) */
} kv;

static float want_value(int i)
{
    return (float)i * 0.5f - 3.0f;
}

/* 64 poison bytes, the 16 floats, 32 poison bytes. */
static void write_data(const char *path)
{
    uint8_t b[DATA_OFF + NVALS * 4 + 32];
    memset(b, 0xEE, sizeof b);
    for (int i = 0; i < NVALS; i++) {
        float f = want_value(i);
        uint32_t x;
        memcpy(&x, &f, 4);
        for (int k = 0; k < 4; k++)
            b[DATA_OFF + 4 * i + k] = (uint8_t)(x >> (8 * k));
    }
    tu_write(path, b, sizeof b);
}

/* A TensorProto "w", FLOAT [n], data_location EXTERNAL with the given keys. */
static void ext_tensor(tu_pb *t, const char *name, int64_t n, const kv *keys, size_t nk)
{
    tu_pb_int(t, 1, (uint64_t)n);
    tu_pb_int(t, 2, 1);
    tu_pb_str(t, 8, name);
    for (size_t i = 0; i < nk; i++) {
        tu_pb e = {0};
        tu_pb_str(&e, 1, keys[i].k);
        tu_pb_bytes(&e, 2, keys[i].v, keys[i].vlen ? keys[i].vlen : strlen(keys[i].v));
        tu_pb_msg(t, 13, &e);
    }
    tu_pb_int(t, 14, 1);
}

/* dir/model.onnx holding one external initializer "w" of n floats. */
static const char *ext_model(const char *dir, int64_t n, const kv *keys, size_t nk)
{
    tu_pb model = {0}, graph = {0}, t = {0}, node = {0};
    ext_tensor(&t, "w", n, keys, nk);
    tu_pb_msg(&graph, 5, &t);
    tu_pb_node(&node, "neg", "Neg", "w", "y");
    tu_pb_msg(&graph, 1, &node);
    tu_pb_model(&model, &graph);
    const char *path = tu_join(dir, "model.onnx");
    tu_write(path, model.p, model.n);
    tu_pb_free(&model);
    return path;
}

/* The usual keys: location LOC, offset 64, length 64. */
static const char *std_model(const char *dir, const char *loc)
{
    kv keys[] = {{"location", loc, 0}, {"offset", "64", 0}, {"length", "64", 0}};
    return ext_model(dir, NVALS, keys, 3);
}

/* Values of tensor "w" must be refused with a message holding `phrase`;
 * nnav_tensor_bytes must refuse too. The model itself opens: external data
 * is not touched at open. */
static void expect_refused(const char *model_path, const char *phrase, int warn_at_open)
{
    nnav_model *m = tu_open(model_path);
    uint32_t t = tu_tensor(m, "w");
    const nnav_tensor *tt = nnav_tensor_get(m, t);
    assert_int_equal(tt->storage, NNAV_STORE_EXTERNAL);
    if (warn_at_open >= 0)
        assert_int_equal(!!(tt->warn & NNAV_TW_BAD_EXTERNAL), warn_at_open);
    double v[NVALS];
    nnav_values vals = {.v = v};
    nnav_error err;
    memset(&err, 0, sizeof err);
    int r = nnav_tensor_values(m, t, NVALS, 1, &vals, &err);
    char msg[sizeof err.msg];
    memcpy(msg, err.msg, sizeof msg);
    nnav_span bytes = {NULL, 0};
    void *cookie = (void *)1;
    nnav_error err2;
    memset(&err2, 0, sizeof err2);
    int r2 = nnav_tensor_bytes(m, t, &bytes, &cookie, &err2);
    if (r2 == 0)
        nnav_tensor_bytes_release(cookie);
    nnav_model_close(m);
    if (r != -1)
        fail_msg("values were read (%zu of them) where \"%s\" was expected", vals.count, phrase);
    assert_int_equal(err.kind, NNAV_ERR_INPUT);
    tu_assert_contains(msg, phrase);
    tu_assert_contains(msg, "refused");
    if (r2 != -1)
        fail_msg("nnav_tensor_bytes gave %llu bytes where \"%s\" was expected",
                 (unsigned long long)bytes.n, phrase);
    assert_null(cookie);
    tu_assert_contains(err2.msg, phrase);
}

/* ---- what works ---- */

static void check_good_values(nnav_model *m, size_t expect)
{
    uint32_t t = tu_tensor(m, "w");
    double v[NVALS + 4];
    nnav_values vals = {.v = v};
    nnav_error err;
    if (nnav_tensor_values(m, t, NVALS + 4, 1, &vals, &err) != 0)
        fail_msg("values: %s", err.msg);
    assert_int_equal(vals.count, expect);
    for (size_t i = 0; i < expect; i++)
        if (v[i] != want_value((int)i))
            fail_msg("w[%zu] = %g, want %g", i, v[i], (double)want_value((int)i));
    assert_true(vals.min == want_value(0));
    assert_true(vals.max == want_value((int)expect - 1));
}

static void test_good(void **state)
{
    (void)state;
    const char *dir = tu_tmpdir("ext_good");
    write_data(tu_join(dir, "w.bin"));
    nnav_model *m = tu_open(std_model(dir, "w.bin"));
    const nnav_tensor *t = nnav_tensor_get(m, tu_tensor(m, "w"));
    assert_int_equal(t->warn, 0);
    assert_int_equal(t->ext_offset, DATA_OFF);
    assert_int_equal(t->ext_length, NVALS * 4);
    check_good_values(m, NVALS);
    /* The exported bytes are exactly the declared range. */
    nnav_span b;
    void *cookie = NULL;
    nnav_error err;
    assert_int_equal(nnav_tensor_bytes(m, tu_tensor(m, "w"), &b, &cookie, &err), 0);
    assert_non_null(cookie);
    assert_int_equal(b.n, NVALS * 4);
    float f0, f15;
    memcpy(&f0, b.p, 4);
    memcpy(&f15, b.p + 60, 4);
    assert_true(f0 == want_value(0) && f15 == want_value(15));
    nnav_tensor_bytes_release(cookie);
    nnav_model_close(m);

    /* In a subfolder, and through "./". */
    mkdir(tu_join(dir, "sub"), 0755);
    write_data(tu_join(dir, "sub/w.bin"));
    m = tu_open(std_model(dir, "sub/w.bin"));
    check_good_values(m, NVALS);
    nnav_model_close(m);
    m = tu_open(std_model(dir, "./sub/w.bin"));
    check_good_values(m, NVALS);
    nnav_model_close(m);

    /* No length: to the end of the file, of which dims x dtype is read. */
    kv nolen[] = {{"location", "w.bin", 0}, {"offset", "64", 0}};
    m = tu_open(ext_model(dir, NVALS, nolen, 2));
    check_good_values(m, NVALS);
    nnav_model_close(m);
}

/* A length shorter than dims x dtype: flagged at open, and the values stop
 * where the declared range ends instead of running into the poison. */
static void test_short_length_stays_inside(void **state)
{
    (void)state;
    const char *dir = tu_tmpdir("ext_short");
    write_data(tu_join(dir, "w.bin"));
    kv keys[] = {{"location", "w.bin", 0}, {"offset", "64", 0}, {"length", "32", 0}};
    nnav_model *m = tu_open(ext_model(dir, NVALS, keys, 3));
    assert_true(nnav_tensor_get(m, tu_tensor(m, "w"))->warn & NNAV_TW_SIZE_MISMATCH);
    check_good_values(m, 8);
    nnav_model_close(m);
    /* An offset at the very end of the file: nothing to read, nothing past
     * the end touched. */
    kv keys2[] = {{"location", "w.bin", 0}, {"offset", "160", 0}};
    m = tu_open(ext_model(dir, NVALS, keys2, 2));
    double v[NVALS];
    nnav_values vals = {.v = v};
    nnav_error err;
    assert_int_equal(nnav_tensor_values(m, tu_tensor(m, "w"), NVALS, 0, &vals, &err), 0);
    assert_int_equal(vals.count, 0); /* offset == size: nothing to read */
    nnav_model_close(m);
}

/* ---- a data file that shrinks while it is read ---- */

/* The cut comes at a set moment, not by racing a reader: this program's own
 * mmap (the core is linked in statically, so its calls come here instead of
 * libc's) cuts the armed file right after it is mapped, before a byte of the
 * mapping is read. */
static char cut_path[4096];
static off_t cut_to;
static int cuts_done;

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
    void *p = (void *)syscall(SYS_mmap, addr, len, prot, flags, fd, off);
    struct stat a, b;
    if (cut_path[0] && fd >= 0 && p != MAP_FAILED && fstat(fd, &a) == 0 &&
        stat(cut_path, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino &&
        truncate(cut_path, cut_to) == 0)
        cuts_done++;
    return p;
}

/* Cut to nothing, the mapped pages are gone (a read faults, the guard puts
 * zeros there); cut inside the page that holds the tensor, the rest of that
 * page reads as zeros without any fault. Either way the values are not the
 * file's: an error naming the data file and the tensor, not zeros. */
static void test_shrinks_while_read(void **state)
{
    (void)state;
    const char *dir = tu_tmpdir("ext_shrink");
    static const off_t cuts[] = {0, 100, DATA_OFF};
    for (size_t i = 0; i < sizeof cuts / sizeof *cuts; i++) {
        for (int stats = 0; stats <= 1; stats++) {
            write_data(tu_join(dir, "w.bin"));
            nnav_model *m = tu_open(std_model(dir, "w.bin"));
            uint32_t t = tu_tensor(m, "w");
            double v[NVALS];
            nnav_values vals = {.v = v};
            nnav_error err;
            memset(&err, 0, sizeof err);
            snprintf(cut_path, sizeof cut_path, "%s", tu_join(dir, "w.bin"));
            cut_to = cuts[i];
            cuts_done = 0;
            int r = nnav_tensor_values(m, t, NVALS, stats, &vals, &err);
            cut_path[0] = 0;
            nnav_model_close(m);
            assert_int_equal(cuts_done, 1);
            if (r == 0)
                fail_msg("cut to %lld bytes while read: %zu values given (first %g, min %g, "
                         "max %g), no error",
                         (long long)cuts[i], vals.count, vals.count ? v[0] : 0.0, vals.min,
                         vals.max);
            assert_int_equal(err.kind, NNAV_ERR_INPUT);
            tu_assert_contains(err.msg, "\"w.bin\"");
            tu_assert_contains(err.msg, "tensor \"w\"");
            tu_assert_contains(err.msg, "shrank");
        }
    }
    /* Untouched, the same read is fine: the check does not cry wolf. */
    write_data(tu_join(dir, "w.bin"));
    nnav_model *m = tu_open(std_model(dir, "w.bin"));
    check_good_values(m, NVALS);
    nnav_model_close(m);
}

/* ---- what is refused ---- */

static void test_dotdot(void **state)
{
    (void)state;
    const char *top = tu_tmpdir("ext_dotdot");
    char model_dir[4096];
    snprintf(model_dir, sizeof model_dir, "%s/model", top);
    mkdir(model_dir, 0755);
    write_data(tu_join(top, "w.bin")); /* a real file, one level up */
    mkdir(tu_join(model_dir, "sub"), 0755);
    write_data(tu_join(model_dir, "w.bin"));
    expect_refused(std_model(model_dir, "../w.bin"), "would leave", 1);
    expect_refused(std_model(model_dir, "sub/../../w.bin"), "would leave", 1);
    expect_refused(std_model(model_dir, "sub/../w.bin"), "would leave", 1);
    expect_refused(std_model(model_dir, "..\\w.bin"), "would leave", 1);
    expect_refused(std_model(model_dir, ".."), "would leave", 1);
}

static void test_absolute(void **state)
{
    (void)state;
    const char *dir = tu_tmpdir("ext_abs");
    write_data(tu_join(dir, "w.bin"));
    char abs[4096];
    if (!realpath(tu_join(dir, "w.bin"), abs))
        fail_msg("realpath: %s", strerror(errno));
    expect_refused(std_model(dir, abs), "absolute", 1);
    expect_refused(std_model(dir, "/etc/passwd"), "absolute", 1);
    expect_refused(std_model(dir, "//etc/passwd"), "absolute", 1);
}

static void test_symlinked_file(void **state)
{
    (void)state;
    const char *dir = tu_tmpdir("ext_symlink");
    write_data(tu_join(dir, "real.bin"));
    /* A link to a good file beside the model is refused all the same. */
    assert_int_equal(symlink("real.bin", tu_join(dir, "w.bin")), 0);
    expect_refused(std_model(dir, "w.bin"), "symbolic link", 0);
    /* And one that leads out. */
    assert_int_equal(symlink("/etc/passwd", tu_join(dir, "out.bin")), 0);
    expect_refused(std_model(dir, "out.bin"), "symbolic link", 0);
    /* A dangling one. */
    assert_int_equal(symlink("nowhere.bin", tu_join(dir, "dangling.bin")), 0);
    expect_refused(std_model(dir, "dangling.bin"), "symbolic link", 0);
}

static void test_symlinked_folder(void **state)
{
    (void)state;
    const char *dir = tu_tmpdir("ext_symdir");
    mkdir(tu_join(dir, "real"), 0755);
    write_data(tu_join(dir, "real/w.bin"));
    assert_int_equal(symlink("real", tu_join(dir, "sub")), 0);
    expect_refused(std_model(dir, "sub/w.bin"), "symbolic link", 0);
    /* A link deeper down the path. */
    mkdir(tu_join(dir, "a"), 0755);
    assert_int_equal(symlink("../real", tu_join(dir, "a/b")), 0);
    expect_refused(std_model(dir, "a/b/w.bin"), "symbolic link", 0);
    /* A link to a folder outside. */
    assert_int_equal(symlink("/etc", tu_join(dir, "etc")), 0);
    expect_refused(std_model(dir, "etc/passwd"), "symbolic link", 0);
}

static void test_hard_link(void **state)
{
    (void)state;
    const char *dir = tu_tmpdir("ext_hardlink");
    write_data(tu_join(dir, "real.bin"));
    if (link(tu_join(dir, "real.bin"), tu_join(dir, "w.bin")) != 0)
        fail_msg("link: %s", strerror(errno));
    expect_refused(std_model(dir, "w.bin"), "hard link", 0);
    /* Either name: both have two links. */
    expect_refused(std_model(dir, "real.bin"), "hard link", 0);
}

static void on_alarm(int sig)
{
    (void)sig;
    static const char msg[] = "test_extdata: reading external data blocked\n";
    if (write(2, msg, sizeof msg - 1) < 0)
        _exit(1);
    _exit(1);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void test_fifo(void **state)
{
    (void)state;
    const char *dir = tu_tmpdir("ext_fifo");
    if (mkfifo(tu_join(dir, "w.bin"), 0644) != 0)
        fail_msg("mkfifo: %s", strerror(errno));
    const char *model = std_model(dir, "w.bin");
    /* Opening a FIFO for reading without O_NONBLOCK waits for a writer that
     * never comes: the alarm turns a hang into a failure. */
    signal(SIGALRM, on_alarm);
    alarm(10);
    double t0 = now();
    expect_refused(model, "not a regular file", 0);
    alarm(0);
    assert_true(now() - t0 < 5.0);
}

static void test_socket(void **state)
{
    (void)state;
    const char *dir = tu_tmpdir("ext_socket");
    int s = socket(AF_UNIX, SOCK_STREAM, 0);
    assert_true(s >= 0);
    struct sockaddr_un a;
    memset(&a, 0, sizeof a);
    a.sun_family = AF_UNIX;
    const char *p = tu_join(dir, "w.bin");
    if (strlen(p) >= sizeof a.sun_path) {
        close(s);
        printf("SKIP: socket path too long for sun_path\n");
        skip();
        return;
    }
    strcpy(a.sun_path, p);
    assert_int_equal(bind(s, (struct sockaddr *)&a, sizeof a), 0);
    expect_refused(std_model(dir, "w.bin"), "refused", 0);
    close(s);
}

static void test_offset_length_bounds(void **state)
{
    (void)state;
    const char *dir = tu_tmpdir("ext_bounds");
    write_data(tu_join(dir, "w.bin")); /* 160 bytes */
    kv past[] = {{"location", "w.bin", 0}, {"offset", "100000", 0}, {"length", "64", 0}};
    expect_refused(ext_model(dir, NVALS, past, 3), "offset lies past the end", 0);
    kv past1[] = {{"location", "w.bin", 0}, {"offset", "161", 0}};
    expect_refused(ext_model(dir, NVALS, past1, 2), "past the end", 0);
    kv over[] = {{"location", "w.bin", 0}, {"offset", "64", 0}, {"length", "1000", 0}};
    expect_refused(ext_model(dir, NVALS, over, 3), "runs past the end", -1);
    kv over1[] = {{"location", "w.bin", 0}, {"offset", "64", 0}, {"length", "97", 0}};
    expect_refused(ext_model(dir, NVALS, over1, 3), "runs past the end", -1);
    /* Sums that overflow 64 bits if added without care. */
    kv wrap[] = {{"location", "w.bin", 0},
                 {"offset", "9223372036854775807", 0},
                 {"length", "9223372036854775807", 0}};
    expect_refused(ext_model(dir, NVALS, wrap, 3), "past the end", -1);
    kv wrap2[] = {{"location", "w.bin", 0},
                  {"offset", "8", 0},
                  {"length", "9223372036854775807", 0}};
    expect_refused(ext_model(dir, NVALS, wrap2, 3), "runs past the end", -1);
    kv wrap3[] = {{"location", "w.bin", 0},
                  {"offset", "159", 0},
                  {"length", "9223372036854775807", 0}};
    expect_refused(ext_model(dir, NVALS, wrap3, 3), "runs past the end", -1);
    /* Exactly to the end is fine. */
    kv edge[] = {{"location", "w.bin", 0}, {"offset", "96", 0}, {"length", "64", 0}};
    nnav_model *m = tu_open(ext_model(dir, NVALS, edge, 3));
    double v[NVALS];
    nnav_values vals = {.v = v};
    nnav_error err;
    assert_int_equal(nnav_tensor_values(m, tu_tensor(m, "w"), NVALS, 0, &vals, &err), 0);
    assert_int_equal(vals.count, NVALS);
    assert_true(v[0] == want_value(8)); /* offset 96 is element 8 */
    nnav_model_close(m);
}

static void test_malformed_numbers(void **state)
{
    (void)state;
    const char *dir = tu_tmpdir("ext_numbers");
    write_data(tu_join(dir, "w.bin"));
    static const char *bad[] = {"0x40", "-64", "64abc", " 64", "64 ", "+64", "",
                                "6.4e1", "18446744073709551616", "99999999999999999999",
                                "9223372036854775808"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        kv keys[] = {{"location", "w.bin", 0}, {"offset", bad[i], 0}, {"length", "64", 0}};
        const char *p = ext_model(dir, NVALS, keys, 3);
        nnav_model *m = tu_open(p);
        int flagged = !!(nnav_tensor_get(m, tu_tensor(m, "w"))->warn & NNAV_TW_BAD_EXTERNAL);
        nnav_model_close(m);
        if (!flagged)
            fail_msg("offset \"%s\" not flagged as malformed", bad[i]);
        expect_refused(p, "malformed", 1);
        kv keys2[] = {{"location", "w.bin", 0}, {"offset", "64", 0}, {"length", bad[i], 0}};
        expect_refused(ext_model(dir, NVALS, keys2, 3), "malformed", 1);
    }
    /* Leading zeros are still decimal. */
    kv ok[] = {{"location", "w.bin", 0}, {"offset", "00064", 0}, {"length", "064", 0}};
    nnav_model *m = tu_open(ext_model(dir, NVALS, ok, 3));
    check_good_values(m, NVALS);
    nnav_model_close(m);
}

static void test_duplicate_and_foreign_keys(void **state)
{
    (void)state;
    const char *dir = tu_tmpdir("ext_keys");
    write_data(tu_join(dir, "w.bin"));
    write_data(tu_join(dir, "evil.bin"));
    kv dup_loc[] = {{"location", "w.bin", 0},
                    {"offset", "64", 0},
                    {"location", "evil.bin", 0}};
    expect_refused(ext_model(dir, NVALS, dup_loc, 3), "malformed", 1);
    kv dup_same[] = {{"location", "w.bin", 0}, {"location", "w.bin", 0}};
    expect_refused(ext_model(dir, NVALS, dup_same, 2), "malformed", 1);
    kv dup_off[] = {{"location", "w.bin", 0}, {"offset", "64", 0}, {"offset", "0", 0}};
    expect_refused(ext_model(dir, NVALS, dup_off, 3), "malformed", 1);
    kv dup_len[] = {{"location", "w.bin", 0}, {"length", "64", 0}, {"length", "64", 0}};
    expect_refused(ext_model(dir, NVALS, dup_len, 3), "malformed", 1);
    kv basepath[] = {{"location", "w.bin", 0}, {"offset", "64", 0}, {"basepath", "/etc", 0}};
    expect_refused(ext_model(dir, NVALS, basepath, 3), "basepath", 1);
    kv basepath2[] = {{"basepath", ".", 0}, {"location", "w.bin", 0}, {"offset", "64", 0}};
    expect_refused(ext_model(dir, NVALS, basepath2, 3), "malformed", 1);
    /* checksum is a known key and harmless. */
    kv checksum[] = {{"location", "w.bin", 0}, {"offset", "64", 0}, {"checksum", "abc", 0}};
    nnav_model *m = tu_open(ext_model(dir, NVALS, checksum, 3));
    assert_int_equal(nnav_tensor_get(m, tu_tensor(m, "w"))->warn, 0);
    check_good_values(m, NVALS);
    nnav_model_close(m);
}

static void test_odd_locations(void **state)
{
    (void)state;
    const char *dir = tu_tmpdir("ext_odd");
    write_data(tu_join(dir, "w.bin"));
    mkdir(tu_join(dir, "sub"), 0755);
    /* A NUL byte that would cut the name short in C. */
    kv nul[] = {{"location", "w.bin\0/../../etc/passwd", 23}, {"offset", "64", 0}};
    expect_refused(ext_model(dir, NVALS, nul, 2), "NUL", 1);
    /* No location at all. */
    kv noloc[] = {{"offset", "64", 0}, {"length", "64", 0}};
    expect_refused(ext_model(dir, NVALS, noloc, 2), "location", 1);
    /* Empty location. */
    kv empty[] = {{"location", "", 0}, {"offset", "64", 0}};
    expect_refused(ext_model(dir, NVALS, empty, 2), "location", 1);
    /* Folders are not data files. */
    expect_refused(std_model(dir, "sub"), "refused", -1);
    expect_refused(std_model(dir, "sub/"), "folder", -1);
    expect_refused(std_model(dir, "."), "folder", -1);
    /* A file that is not there. */
    expect_refused(std_model(dir, "missing.bin"), "cannot open", 0);
    /* The model file itself is a regular file in the folder: allowed, and
     * reading it as floats stays within it. */
    kv self[] = {{"location", "model.onnx", 0}};
    nnav_model *m = tu_open(ext_model(dir, 2, self, 1));
    double v[2];
    nnav_values vals = {.v = v};
    nnav_error err;
    assert_int_equal(nnav_tensor_values(m, tu_tensor(m, "w"), 2, 0, &vals, &err), 0);
    assert_int_equal(vals.count, 2);
    nnav_model_close(m);
}

/* How the model is named does not matter: a relative path, and a path
 * through a symlinked folder the user chose, both find the data beside it;
 * the location shown is escaped. */
static void test_model_path_forms(void **state)
{
    (void)state;
    const char *dir = tu_tmpdir("ext_paths");
    write_data(tu_join(dir, "w.bin"));
    std_model(dir, "w.bin");
    char cwd[4096];
    assert_non_null(getcwd(cwd, sizeof cwd));
    assert_int_equal(chdir(dir), 0);
    nnav_model *m = tu_open("model.onnx");
    check_good_values(m, NVALS);
    nnav_model_close(m);
    assert_int_equal(chdir(cwd), 0);

    const char *top = tu_tmpdir("ext_paths_alias");
    char target[4096];
    if (!realpath(dir, target))
        fail_msg("realpath: %s", strerror(errno));
    assert_int_equal(symlink(target, tu_join(top, "alias")), 0);
    m = tu_open(tu_join(top, "alias/model.onnx"));
    check_good_values(m, NVALS);
    nnav_model_close(m);

    write_data(tu_join(dir, "\x1b[31m.bin"));
    m = tu_open(std_model(dir, "\x1b[31m.bin"));
    char buf[256];
    nnav_tensor_storage_format(m, tu_tensor(m, "w"), buf, sizeof buf);
    assert_string_equal(buf, "external \\x1B[31m.bin @64 +64");
    check_good_values(m, NVALS);
    nnav_model_close(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_good),
        cmocka_unit_test(test_short_length_stays_inside),
        cmocka_unit_test(test_shrinks_while_read),
        cmocka_unit_test(test_dotdot),
        cmocka_unit_test(test_absolute),
        cmocka_unit_test(test_symlinked_file),
        cmocka_unit_test(test_symlinked_folder),
        cmocka_unit_test(test_hard_link),
        cmocka_unit_test(test_fifo),
        cmocka_unit_test(test_socket),
        cmocka_unit_test(test_offset_length_bounds),
        cmocka_unit_test(test_malformed_numbers),
        cmocka_unit_test(test_duplicate_and_foreign_keys),
        cmocka_unit_test(test_odd_locations),
        cmocka_unit_test(test_model_path_forms),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
