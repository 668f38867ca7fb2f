/* cli_scan.c - nnav scan FILE: what loading the file with its framework's
 * loader would run, read without running anything (loadscan.h), in the
 * words of report.h's nnav_load_scan_write. Exit status 2 when the file
 * would run code outside the loader's allowlist (or could not be read to
 * its end), 0 when clean. */
#include <stdio.h>
#include <string.h>

#include "cli_int.h"
#include "loadscan.h"
#include "report.h"

int cmd_scan(const nnav_model *m, const opts *o)
{
    (void)m;
    nnav_load_scan *s;
    nnav_error err;
    if (nnav_load_scan_open(o->arg, &s, &err) < 0)
        return fail_model(o->arg, &err);
    char p[1024], line[1200];
    nnav_text_escape_cstr(o->arg, p, sizeof p);
    int rc = 0;
    nnav_rw w;
    if (nnav_rw_open(&w, stdout, o->yaml ? NNAV_RW_YAML : NNAV_RW_TEXT) < 0) {
        nnav_load_scan_free(s);
        return EXIT_BADINPUT;
    }
    nnav_rw_map(&w, 0);
    nnav_rw_sentence(&w);
    snprintf(line, sizeof line, "%s: %u global%s in %u %s%s", p, s->count, s->count == 1 ? "" : "s",
             s->units, s->words->unit, s->units == 1 ? "" : "s");
    nnav_rw_key(&w, "file"), nnav_rw_cstr(&w, o->arg, line);
    nnav_rw_sentence_end(&w);
    nnav_load_scan_write(&w, s, "");
    nnav_rw_map_end(&w);
    if (nnav_rw_close(&w) < 0)
        rc = EXIT_BADINPUT;
    if (s->would_run || s->failed)
        rc = EXIT_BADINPUT;
    nnav_load_scan_free(s);
    return rc;
}
