/* cli.h - the command-line face. */
#ifndef NNAV_CLI_H
#define NNAV_CLI_H

#include <stdio.h>

int nnav_cli_is_command(const char *s);
/* argv[1] is the command. Returns the exit status. */
int nnav_cli_run(int argc, char **argv);
void nnav_cli_usage(FILE *f);

#endif
