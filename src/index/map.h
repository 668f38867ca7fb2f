/* map.h - read-only file maps that survive the file shrinking under them. */
#ifndef NNAV_MAP_H
#define NNAV_MAP_H

#include <stdint.h>
#include <sys/types.h>
#include <time.h>
#include "nnav.h"

typedef struct nnav_map {
    const uint8_t *base;
    uint64_t size;
    dev_t dev;
    ino_t ino;
    struct timespec mtime, ctime; /* when mapped: a later change is seen by comparing */
    int slot; /* in the SIGBUS guard's table, -1 when not guarded */
} nnav_map;

/* Map `path` read-only. Refuses non-regular files. An empty file maps to
 * base == NULL, size 0 (the caller decides what that means). */
int nnav_map_open(const char *path, nnav_map *m, nnav_error *err);
/* Map an already-open descriptor (used for external data, opened safely). */
int nnav_map_fd(int fd, const char *what, nnav_map *m, nnav_error *err);
void nnav_map_close(nnav_map *m);
/* Nonzero once a page of this map faulted because the file shrank. */
int nnav_map_truncated(const nnav_map *m);

#endif
