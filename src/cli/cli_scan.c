/* cli_scan.c - nnav scan FILE: what loading a PyTorch checkpoint (or any
 * pickle) would run, read without running anything (ptscan.h), in the words
 * of report.h's nnav_pt_scan_write. Exit status 2 when the
 * file would run code outside torch's weights_only allowlist (or could not
 * be read to its end), 0 when clean. */
#include <stdio.h>
#include <string.h>

#include "cli_int.h"
#include "ptscan.h"
#include "report.h"

int cmd_scan(const nnav_model *m, const opts *o)
{
    (void)m;
    nnav_pt_scan *s;
    nnav_error err;
    if (nnav_pt_scan_open(o->arg, &s, &err) < 0)
        return fail_model(o->arg, &err);
    char p[1024], line[1200];
    nnav_text_escape_cstr(o->arg, p, sizeof p);
    int rc = 0;
    nnav_rw w;
    if (nnav_rw_open(&w, stdout, o->yaml ? NNAV_RW_YAML : NNAV_RW_TEXT) < 0) {
        nnav_pt_scan_free(s);
        return EXIT_BADINPUT;
    }
    nnav_rw_map(&w, 0);
    nnav_rw_sentence(&w);
    snprintf(line, sizeof line, "%s: %u global%s in %u pickle%s", p, s->count, s->count == 1 ? "" : "s",
             s->pickles, s->pickles == 1 ? "" : "s");
    nnav_rw_key(&w, "file"), nnav_rw_cstr(&w, o->arg, line);
    nnav_rw_sentence_end(&w);
    nnav_pt_scan_write(&w, s, "");
    nnav_rw_map_end(&w);
    if (nnav_rw_close(&w) < 0)
        rc = EXIT_BADINPUT;
    if (s->would_run || s->failed)
        rc = EXIT_BADINPUT;
    nnav_pt_scan_free(s);
    return rc;
}
