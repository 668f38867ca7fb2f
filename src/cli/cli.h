/* cli.h - the command-line face. */
#ifndef NNAV_CLI_H
#define NNAV_CLI_H

#include <stdio.h>

int nnav_cli_is_command(const char *s);
/* argv[1] is the command. Returns the exit status. */
int nnav_cli_run(int argc, char **argv);
void nnav_cli_usage(FILE *f);

struct nnav_model;
/* What `nnav info MODEL` prints (the text, not --yaml), into out: the
 * explorer's model details (i) show the same facts from this one function.
 * Returns 0, or -1 when writing to out failed. */
int nnav_cli_info_text(const struct nnav_model *m, FILE *out);

#endif
