/* tui.c - placeholder until the explorer lands: keeps `nnav MODEL` linking. */
#include "tui.h"

#include <stdio.h>

int nnav_tui_run(const char *path)
{
    (void)path;
    fprintf(stderr, "nnav: the explorer is not built yet\n");
    return 1;
}
