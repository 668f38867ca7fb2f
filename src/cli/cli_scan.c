/* cli_scan.c - nnav scan FILE: what loading a PyTorch checkpoint (or any
 * pickle) would run, read without running anything (ptscan.h), in the words
 * of report.h's nnav_pt_scan_text/_yaml. Exit status 2 when the
 * file would run code outside torch's weights_only allowlist (or could not
 * be read to its end), 0 when clean. */
#include <stdio.h>
#include <string.h>

#include "cli_int.h"
#include "ptscan.h"
#include "report.h"

static int scan_yaml(const char *path, const nnav_pt_scan *s, FILE *f)
{
    nnav_yw w;
    if (nnav_yw_open(&w, f) < 0)
        return -1;
    nnav_yw_map(&w);
    nnav_yw_key(&w, "file"), nnav_yw_cstr(&w, path);
    nnav_pt_scan_yaml(&w, s);
    nnav_yw_map_end(&w);
    return nnav_yw_close(&w);
}

int cmd_scan(const nnav_model *m, const opts *o)
{
    (void)m;
    nnav_pt_scan *s;
    nnav_error err;
    if (nnav_pt_scan_open(o->arg, &s, &err) < 0)
        return fail_model(o->arg, &err);
    char p[1024];
    nnav_text_escape_cstr(o->arg, p, sizeof p);
    int rc = 0;
    if (o->yaml) {
        if (scan_yaml(o->arg, s, stdout) < 0)
            rc = EXIT_BADINPUT;
    } else {
        printf("%s: %u global%s in %u pickle%s\n", p, s->count, s->count == 1 ? "" : "s",
               s->pickles, s->pickles == 1 ? "" : "s");
        nnav_pt_scan_text(s, stdout, "");
    }
    if (s->would_run || s->failed)
        rc = EXIT_BADINPUT;
    nnav_pt_scan_free(s);
    return rc;
}

