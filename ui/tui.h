/* tui.h - the ncurses explorer, as src/main.c sees it. */
#ifndef NNAV_UI_TUI_H
#define NNAV_UI_TUI_H

/* Opens the model at path (showing progress for a long open), runs the
 * explorer until the user quits, restores the terminal, and returns the exit
 * status: 0, or 2 when the model cannot be opened (the error is printed to
 * stderr with the terminal in its normal state). follow_links: as
 * nnav_open_opts.follow_links (the user's --follow-links). */
int nnav_tui_run(const char *path, int follow_links);

#endif
