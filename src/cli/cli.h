/* cli.h - the command-line face. */
#ifndef NNAV_CLI_H
#define NNAV_CLI_H

#include <stdio.h>

#include "diff.h"

int nnav_cli_is_command(const char *s);
/* The command closest to a mistyped word (report.h's nnav_suggest), into
 * buf: 1, else 0. */
int nnav_cli_suggest_command(const char *word, char *buf, size_t n);
/* argv[1] is the command. Returns the exit status. */
int nnav_cli_run(int argc, char **argv);
void nnav_cli_usage(FILE *f);

/* `nnav diff A B` on a terminal opens the explorer's compare mode, which the
 * CLI does not know: main.c hands it this function (NULL without a TUI).
 * It returns the exit status as `nnav diff` would. */
typedef int (*nnav_cli_compare_fn)(const char *a, const char *b, const nnav_diff_opts *o,
                                   int follow_links);
void nnav_cli_set_compare(nnav_cli_compare_fn fn);
nnav_cli_compare_fn nnav_cli_compare(void);

#endif
