/* fuzz_auto.c - open and index a file whose format is decided by its content, then
 * decode everything the index offers, and write info's report in both forms
 * (the record writer over whatever the file holds). */
#include "fuzz_common.h"

#include "report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64];
    int fd = fuzz_file(data, size, path, sizeof path);
    if (fd < 0)
        return 0;
    nnav_open_opts o = {0};
    o.force = 0; /* by content */
    nnav_model *m;
    nnav_error err;
    if (nnav_model_open(path, &o, &m, &err) == 0) {
        fuzz_touch(m);
        FILE *null = fopen("/dev/null", "w");
        if (null) {
            nnav_info_write(m, 0, null);
            nnav_info_write(m, 1, null);
            fclose(null);
        }
        nnav_model_close(m);
    }
    close(fd);
    return 0;
}
