/* Anonymous temporary files: the large server answers hbtab reads (a table's region list, a
 * scan of hbase:meta, the cluster status) live on disk, not in memory. */
#ifndef HB_REST_TEMPFILE_H
#define HB_REST_TEMPFILE_H

#include <stdio.h>

/* 1 when d names a directory this process can create files in. */
int hb_dir_usable(const char *d);
/* Where temporary files go: $TMPDIR when it names a directory hbtab can write, else /tmp. */
const char *hb_temp_dir(void);

/* A new temporary file in hb_temp_dir(), open for reading and writing, mode 0600, and
 * already unlinked: nothing is left behind whatever ends the process. NULL with errno set
 * when it cannot be made. */
FILE *hb_temp_file(void);

#endif
