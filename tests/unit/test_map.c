/* A model or data file cut short while nnav has it mapped: reads of the lost
 * pages must give a stale view and an error, never SIGBUS. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "nnav.h"

static char tmp[4096], samples[4096];

static void copy_file(const char *from, const char *to)
{
    FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
    assert_non_null(in);
    assert_non_null(out);
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0)
        assert_int_equal(fwrite(buf, 1, n, out), n);
    fclose(in);
    assert_int_equal(fclose(out), 0);
}

static uint32_t tensor_named(const nnav_model *m, const char *name)
{
    for (uint32_t i = 0; i < nnav_tensor_count(m); i++)
        if (nnav_span_eqs(nnav_tensor_get(m, i)->name, name))
            return i;
    fail_msg("no tensor %s", name);
    return NNAV_NONE;
}

static void test_model_truncated_while_open(void **state)
{
    char path[8192];
    snprintf(path, sizeof path, "%s/trunc_model.onnx", tmp);
    char src[8192];
    snprintf(src, sizeof src, "%s/cnn.onnx", samples);
    copy_file(src, path);
    nnav_model *m;
    nnav_error err;
    assert_int_equal(nnav_model_open(path, NULL, &m, &err), 0);
    assert_false(nnav_model_truncated(m));
    /* The last weight lies in the last pages; cut the file to its first page. */
    uint32_t t = tensor_named(m, "conv2.weight");
    double v[4];
    nnav_values vals = {.v = v};
    assert_int_equal(nnav_tensor_values(m, t, 4, 1, &vals, &err), 0);
    assert_int_equal(truncate(path, 100), 0);
    /* Names are spans into the map: reading one now gives zeros or the old
     * bytes (the tail of a partial page reads as zeros), never a signal. */
    nnav_span name = nnav_tensor_get(m, t)->name;
    unsigned sum = 0;
    for (uint64_t i = 0; i < name.n; i++)
        sum += name.p[i];
    (void)sum;
    memset(&vals, 0, sizeof vals);
    vals.v = v;
    int rc = nnav_tensor_values(m, t, 4, 1, &vals, &err);
    assert_int_equal(rc, -1);
    assert_non_null(strstr(err.msg, "shrank"));
    assert_true(nnav_model_truncated(m));
    nnav_model_close(m);
    /* Once closed and reopened, the cut file is an ordinary bad input. */
    assert_int_equal(nnav_model_open(path, NULL, &m, &err), -1);
    assert_int_equal(err.kind, NNAV_ERR_INPUT);
    unlink(path);
}

static void test_external_truncated_while_reading(void **state)
{
    char dir[8192], path[8192], data[8192], src[8192];
    snprintf(dir, sizeof dir, "%s/trunc_ext", tmp);
    mkdir(dir, 0700);
    snprintf(path, sizeof path, "%s/external.onnx", dir);
    snprintf(data, sizeof data, "%s/external.onnx.data", dir);
    snprintf(src, sizeof src, "%s/external.onnx", samples);
    copy_file(src, path);
    snprintf(src, sizeof src, "%s/external.onnx.data", samples);
    copy_file(src, data);
    nnav_model *m;
    nnav_error err;
    assert_int_equal(nnav_model_open(path, NULL, &m, &err), 0);
    uint32_t t = tensor_named(m, "fc2.weight");
    nnav_span bytes;
    void *cookie;
    assert_int_equal(nnav_tensor_bytes(m, t, &bytes, &cookie, &err), 0);
    assert_true(bytes.n > 4096);
    assert_int_equal(truncate(data, 10), 0);
    /* Touch every page of the mapped range: zeros, no signal. */
    unsigned sum = 0;
    for (uint64_t i = 0; i < bytes.n; i += 512)
        sum += bytes.p[i];
    (void)sum;
    nnav_tensor_bytes_release(cookie);
    /* A fresh read now refuses: offset past the end of the data file. */
    double v[2];
    nnav_values vals = {.v = v};
    assert_int_equal(nnav_tensor_values(m, t, 2, 0, &vals, &err), -1);
    assert_non_null(strstr(err.msg, "past the end"));
    nnav_model_close(m);
    unlink(data);
    unlink(path);
    rmdir(dir);
}

/* nnav_model_changed: the file on disk against what was opened. */
static void test_model_changed(void **state)
{
    char path[8192], other[8192], src[8192], why[128];
    snprintf(path, sizeof path, "%s/changed_model.onnx", tmp);
    snprintf(other, sizeof other, "%s/changed_other.onnx", tmp);
    snprintf(src, sizeof src, "%s/cnn.onnx", samples);
    copy_file(src, path);
    nnav_model *m;
    nnav_error err;
    assert_int_equal(nnav_model_open(path, NULL, &m, &err), 0);
    assert_int_equal(nnav_model_changed(m, why, sizeof why), 0);
    /* Read again, nothing written: unchanged. */
    copy_file(path, other);
    assert_int_equal(nnav_model_changed(m, NULL, 0), 0);
    /* One byte written in place, the size kept: the modification time moves
     * (set here, so no clock granularity is waited for). */
    int fd = open(path, O_WRONLY);
    assert_true(fd >= 0);
    assert_int_equal(pwrite(fd, "x", 1, 200), 1);
    struct timespec ts[2] = {{0, UTIME_OMIT}, {1000000000, 0}};
    assert_int_equal(futimens(fd, ts), 0);
    close(fd);
    assert_int_equal(nnav_model_changed(m, why, sizeof why), 1);
    assert_string_equal(why, "it was written to");
    nnav_model_close(m);

    /* Only the inode's status: a new hard link. */
    copy_file(src, path);
    assert_int_equal(nnav_model_open(path, NULL, &m, &err), 0);
    unlink(other);
    struct stat before, after;
    assert_int_equal(stat(path, &before), 0);
    for (int i = 0; i < 200; i++) {
        /* ctime has the kernel's coarse clock: link until it moves. */
        unlink(other);
        assert_int_equal(link(path, other), 0);
        assert_int_equal(stat(path, &after), 0);
        if (after.st_ctim.tv_sec != before.st_ctim.tv_sec ||
            after.st_ctim.tv_nsec != before.st_ctim.tv_nsec)
            break;
        usleep(1000);
    }
    assert_int_equal(nnav_model_changed(m, why, sizeof why), 1);
    assert_string_equal(why, "its inode changed");
    unlink(other);
    /* Grown: the size. */
    FILE *f = fopen(path, "ab");
    assert_non_null(f);
    fputc(0, f);
    fclose(f);
    assert_int_equal(nnav_model_changed(m, why, sizeof why), 1);
    assert_string_equal(why, "its size changed");
    nnav_model_close(m);

    /* Another file renamed over it; then gone. */
    copy_file(src, path);
    assert_int_equal(nnav_model_open(path, NULL, &m, &err), 0);
    copy_file(src, other);
    assert_int_equal(rename(other, path), 0);
    assert_int_equal(nnav_model_changed(m, why, sizeof why), 1);
    assert_string_equal(why, "another file took its name");
    unlink(path);
    assert_int_equal(nnav_model_changed(m, why, sizeof why), 1);
    assert_string_equal(why, "it was removed or renamed");
    nnav_model_close(m);
}

int main(void)
{
    const char *t = getenv("NNAV_TMP"), *s = getenv("NNAV_SAMPLES");
    if (!t || !s) {
        printf("SKIP: NNAV_TMP and NNAV_SAMPLES not set (run through ctest)\n");
        return 77;
    }
    snprintf(tmp, sizeof tmp, "%s", t);
    snprintf(samples, sizeof samples, "%s", s);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_model_truncated_while_open),
        cmocka_unit_test(test_external_truncated_while_reading),
        cmocka_unit_test(test_model_changed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
