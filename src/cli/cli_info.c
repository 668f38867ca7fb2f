/* cli_info.c - nnav info: the model's facts (report.h's nnav_info_write,
 * which the explorer's model details show too). */
#include "cli_int.h"

#include <stdio.h>

#include "report.h"

int cmd_info(const nnav_model *m, const opts *o)
{
    if (nnav_info_write(m, (o->yaml ? NNAV_INFO_YAML : 0) | (o->verbose ? NNAV_INFO_VERBOSE : 0),
                        stdout) < 0)
        return EXIT_BADINPUT;
    return 0;
}
