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
    assert_int_equal(err.status, 2);
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
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
