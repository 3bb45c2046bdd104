/* Finding and reading a table's metadata row over REST (names in core/metarow.h). */
#ifndef HB_REST_METAROW_H
#define HB_REST_METAROW_H

#include "core/buf.h"
#include "core/metarow.h"
#include "rest/hbase.h"

/* Where a table's metadata row lives. */
struct hb_metarow {
	const char *table;
	char *family;            /* the given family, else the table's first */
	struct hb_buf row;       /* the row key's bytes */
	struct hb_buf row_tsb;   /* ... as toStringBinary, NUL-terminated (JSON output) */
	struct hb_buf row_shown; /* ... for messages, between single quotes (' as \x27) */
};

/*
 * Fills m for table: row_tsb (NULL = HB_METAROW_ROW) is a toStringBinary row key of 1 to
 * HB_MAX_ROW_LENGTH bytes; family NULL = the table's first family. Reads the table's schema
 * (HB_ENOTFOUND "table 'T' not found", or a given family the table lacks). HB_EINVAL names
 * the bad option. Release with hb_metarow_release even on failure.
 */
int hb_metarow_locate(struct hb_metarow *m, struct hb_rest *c, const char *table,
                      const char *family, const char *row_tsb, struct hb_error *err);
void hb_metarow_release(struct hb_metarow *m);

/* Reads the row's cells in m's family into the initialised out; *found = 0 without a row. */
int hb_metarow_read(struct hb_rest *c, const struct hb_metarow *m, struct hb_row *out, int *found,
                    struct hb_error *err);

/* The cell of qualifier q in m's family, or NULL. */
const struct hb_cell *hb_metarow_cell(const struct hb_metarow *m, const struct hb_row *r,
                                      const char *q);

#endif
