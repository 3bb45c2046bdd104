/* A file replaced whole or not at all: what a reader or a rerun finds is the old file or the new.
 */
#ifndef HB_FILEREPLACE_H
#define HB_FILEREPLACE_H

#include "core/hb.h"

#include <stddef.h>
#include <sys/types.h>

/*
 * Replaces path with the n bytes of data: written to a temporary file beside it
 * (".NAME.XXXXXX", registered with core/interrupt.h so a signal removes it), given mode
 * whatever the umask, fsynced, renamed over path, and the directory fsynced so the rename
 * reaches the disk too. On failure path is as it was and no temporary file is left.
 * HB_ENOMEM; HB_EINVAL "cannot write 'PATH': REASON".
 */
int hb_file_replace(const char *path, const void *data, size_t n, mode_t mode,
                    struct hb_error *err);
/* fsyncs the directory that holds path, so a rename or removal there reaches the disk
 * (best effort: a directory that cannot be opened is left as it is). */
void hb_file_sync_dir(const char *path);

#endif
