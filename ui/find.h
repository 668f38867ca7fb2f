/* find.h - `/` search: incremental, stepped between keystrokes so a search
 * over a million nodes never freezes the screen; n/N walk the hits. */
#ifndef NNAV_UI_FIND_H
#define NNAV_UI_FIND_H

#include <stddef.h>

#include "ui.h"

void find_begin(ui *u);              /* the prompt opened */
void find_update(ui *u);             /* the pattern (u->pbuf) changed */
void find_commit(ui *u);             /* Enter: jump to the hit */
void find_cancel(ui *u);             /* Esc: back to where the search began */
int find_pending(ui *u);             /* work remains */
void find_work(ui *u, unsigned ms);  /* step for up to ms milliseconds */
void find_next(ui *u, int dir);      /* n (+1) and N (-1) */
/* "3/120", "searching 45%, 12 hits", "no hits" into buf; "" with no search. */
const char *find_status(ui *u, char *buf, size_t n);
void find_free(ui *u);

#endif
