/* diff_core.c - the cost of the comparison core alone (nnav_diff_run), for
 * tests/bench/diff.sh:
 *   diff_core [--no-values] [--tolerance T] A B
 * opens both models, compares them, and prints one line of figures
 *   open_ms diff_ms nodes_a anon_open_kib anon_diff_kib hwm_kib
 * (the anonymous resident memory after both opens and after the comparison,
 * the diff still held; the process's peak resident set), then the summary
 * line and up to 10 node and 10 initializer entries (names escaped). Exit
 * status as diff(1): 0 the same, 1 differences, 2 trouble.
 * Built by diff.sh against the build's static libraries; never run by ctest. */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "diff.h"
#include "nnav.h"

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* A field of /proc/self/status in KiB ("RssAnon:", "VmHWM:"), 0 if absent. */
static long status_kib(const char *key)
{
    char line[256];
    long v = 0;
    FILE *f = fopen("/proc/self/status", "r");
    if (!f)
        return 0;
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, key, strlen(key)))
            v = strtol(line + strlen(key), NULL, 10);
    fclose(f);
    return v;
}

static const char *esc(nnav_span s, char *buf, size_t n)
{
    size_t k = 0;
    for (uint64_t i = 0; i < s.n && k + 5 < n; i++) {
        unsigned c = s.p[i];
        k += (size_t)snprintf(buf + k, n - k, c >= 0x20 && c < 0x7f ? "%c" : "\\x%02x", c);
    }
    buf[k] = 0;
    return buf;
}

static void words(unsigned what, char *buf, size_t n)
{
    size_t k = 0;
    buf[0] = 0;
    for (unsigned i = 0; nnav_diff_word(i) && k < n; i++) /* word i names bit i */
        if (what & (1u << i))
            k += (size_t)snprintf(buf + k, n - k, "%s%s", k ? "," : "", nnav_diff_word(i));
}

int main(int argc, char **argv)
{
    nnav_diff_opts o = {0};
    int i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (!strcmp(argv[i], "--no-values"))
            o.no_values = 1;
        else if (!strcmp(argv[i], "--tolerance") && i + 1 < argc)
            o.tolerance = strtod(argv[++i], NULL);
        else
            break;
    }
    if (argc - i != 2) {
        fprintf(stderr, "usage: diff_core [--no-values] [--tolerance T] A B\n");
        return 2;
    }
    nnav_model *m[2] = {NULL, NULL};
    nnav_error err;
    char line[2048];
    double t0 = now_ms();
    for (int s = 0; s < 2; s++)
        if (nnav_model_open(argv[i + s], NULL, &m[s], &err) != 0) {
            nnav_error_format(&err, argv[i + s], line, sizeof line);
            fprintf(stderr, "diff_core: %s\n", line);
            return 2;
        }
    double t1 = now_ms();
    long anon_open = status_kib("RssAnon:");
    nnav_diff *d = NULL;
    if (nnav_diff_run(m[0], m[1], &o, &d, &err) != 0) {
        nnav_error_format(&err, argv[i], line, sizeof line);
        fprintf(stderr, "diff_core: %s\n", line);
        return 2;
    }
    double t2 = now_ms();
    long anon_diff = status_kib("RssAnon:");
    printf("%.1f %.1f %u %ld %ld %ld\n", t1 - t0, t2 - t1, nnav_node_count(m[0]), anon_open,
           anon_diff, status_kib("VmHWM:"));
    nnav_diff_summary(d, line, sizeof line);
    printf("%s\n", line);
    char name[256], w[256];
    for (size_t k = 0; k < nnav_diff_node_count(d) && k < 10; k++) {
        const nnav_diff_node *e = nnav_diff_node_get(d, k);
        int s = e->b != NNAV_NONE;
        words(e->what, w, sizeof w);
        printf("node %s (#%u -> #%u): %s\n",
               esc(nnav_node_get(m[s], s ? e->b : e->a)->name, name, sizeof name),
               e->a == NNAV_NONE ? 0 : nnav_node_index(m[0], e->a),
               e->b == NNAV_NONE ? 0 : nnav_node_index(m[1], e->b), w);
    }
    for (size_t k = 0; k < nnav_diff_tensor_count(d) && k < 10; k++) {
        const nnav_diff_tensor *t = nnav_diff_tensor_get(d, k);
        int s = t->b != NNAV_NONE;
        words(t->what, w, sizeof w);
        printf("initializer %s: %s ndiff %" PRIu64 " max_abs %g at %" PRIu64 "\n",
               esc(nnav_tensor_get(m[s], s ? t->b : t->a)->name, name, sizeof name), w, t->ndiff,
               t->max_abs, t->at_abs);
    }
    int any = nnav_diff_any(d);
    nnav_diff_free(d);
    nnav_model_close(m[0]);
    nnav_model_close(m[1]);
    return any ? 1 : 0;
}
