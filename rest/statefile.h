/*
 * What hbtab keeps on disk across runs while a step that destroys it is under way: the metadata
 * row a truncate takes out of the table and writes back afterwards. One JSON file per cluster
 * and table under the user's state directory ($XDG_STATE_HOME/hbtab, else
 * ~/.local/state/hbtab, made 0700), mode 0600, written to a temporary name, fsynced, renamed,
 * the directory fsynced: a crash leaves either the old file or the new one, whole. The cells
 * are kept exactly (base64), with when and by what they were saved.
 */
#ifndef HB_REST_STATEFILE_H
#define HB_REST_STATEFILE_H

#include "core/buf.h"
#include "core/hb.h"
#include "rest/hbase.h"

/* A state file as read back. */
struct hb_statefile {
	char *cluster;     /* the REST URL it was saved for */
	char *table;       /* the table, as given to the command */
	char *saved;       /* ISO-8601 UTC time it was written */
	char *operation;   /* "truncate" */
	long pid;          /* the process that wrote it */
	struct hb_row row; /* the row, every cell (timestamps 0) */
};

void hb_statefile_init(struct hb_statefile *s);
void hb_statefile_release(struct hb_statefile *s);

/* The directory: $XDG_STATE_HOME/hbtab when XDG_STATE_HOME is an absolute path, else
 * $HOME/.local/state/hbtab. HB_EINVAL when neither can be named. */
int hb_statefile_dir(struct hb_buf *out, struct hb_error *err);

/* The file of (cluster, table): DIR/OPERATION-HOST-HASH-NS.QUALIFIER.json, HOST the URL's host
 * and port with anything but letters, digits, '.' and '-' made '_' (at most 48 bytes), HASH 8
 * hex digits of the whole URL (scheme and host lower-cased, trailing '/' dropped), NS the
 * namespace ("default" for a bare name). table must be a valid table name. */
int hb_statefile_path(struct hb_buf *out, const char *operation, const char *cluster,
                      const char *table, struct hb_error *err);

/* Writes row to path (directory created 0700 when missing) as described above. HB_EINVAL
 * with the reason when it cannot be written (nothing is left behind then). */
int hb_statefile_save(const char *path, const char *operation, const char *cluster,
                      const char *table, const struct hb_row *row, struct hb_error *err);

/* Reads path: *found 0 (s untouched) when there is no such file; HB_EINVAL when it cannot be
 * read or is not a state file of (operation, cluster, table). s must be initialised. */
int hb_statefile_load(const char *path, const char *operation, const char *cluster,
                      const char *table, struct hb_statefile *s, int *found, struct hb_error *err);

/* Removes path (none is fine) and fsyncs its directory. HB_EINVAL. */
int hb_statefile_remove(const char *path, struct hb_error *err);

/* 1 when a and b hold the same cells (column and value, in any order; timestamps ignored). */
int hb_row_same_cells(const struct hb_row *a, const struct hb_row *b);

/* 1 when a holds every cell of b (column and value; timestamps ignored). */
int hb_row_has_cells(const struct hb_row *a, const struct hb_row *b);

/* Appends the row's cells as one printable line: FAMILY:QUALIFIER='VALUE' separated by
 * spaces, in the row's order, each in toStringBinary form (\xHH for anything else, the quote
 * too). HB_ENOMEM. */
int hb_row_describe(struct hb_buf *out, const struct hb_row *row);

#endif
