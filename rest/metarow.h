/* The one owner of a table's metadata row over REST (names in core/metarow.h): finding it,
 * reading it, create's put-if-absent with read-back, meta set's checked puts, rotate's mark. */
#ifndef HB_REST_METAROW_H
#define HB_REST_METAROW_H

#include "core/buf.h"
#include "core/metarow.h"
#include "rest/hbase.h"
#include "rest/tell.h"

#include <stddef.h>

/* Where a table's metadata row lives. */
/* The family shown for a row found absent in every family (rest/metarow.c). */
#define HB_METAROW_ANY_FAMILY "(any)"

struct hb_metarow {
	const char *table;
	char *family;            /* the given family, else the table's first */
	int absent;              /* found absent in every family (the schema was refused) */
	struct hb_buf row;       /* the row key's bytes */
	struct hb_buf row_tsb;   /* ... as toStringBinary, NUL-terminated (JSON output) */
	struct hb_buf row_shown; /* ... for messages, between single quotes (' as \x27) */
};

/*
 * Fills m for table: row_tsb (NULL = HB_METAROW_ROW) is a toStringBinary row key of 1 to
 * HB_MAX_ROW_LENGTH bytes; family NULL = the table's first family. Reads the table's schema
 * (HB_ENOTFOUND "table 'T' not found", or a given family the table lacks). A schema HBase
 * refuses to the user (it needs CREATE or ADMIN; READ is enough for the row) is done without:
 * a given family is taken as given, else the row is read whole and its N names the family, or
 * the row is absent (m->absent: reads find nothing, writes are refused). HB_EINVAL names the
 * bad option. Release with hb_metarow_release even on failure.
 */
int hb_metarow_locate(struct hb_metarow *m, struct hb_rest *c, const char *table,
                      const char *family, const char *row_tsb, struct hb_error *err);
void hb_metarow_release(struct hb_metarow *m);
/* Fills m for a family and row the caller has checked (create's own options): no request.
 * Release with hb_metarow_release. HB_ENOMEM. */
int hb_metarow_given(struct hb_metarow *m, const char *table, const char *family, const void *row,
                     size_t row_len, struct hb_error *err);

/* Reads the row's cells in m's family into the initialised out; *found = 0 without a row. */
int hb_metarow_read(struct hb_rest *c, const struct hb_metarow *m, struct hb_row *out, int *found,
                    struct hb_error *err);

/* The cell of qualifier q in m's family, or NULL. */
const struct hb_cell *hb_metarow_cell(const struct hb_metarow *m, const struct hb_row *r,
                                      const char *q);

/* *out: a NUL-terminated copy of cell c's value (left as is when c is NULL, an absent cell);
 * a NUL inside the value is kept visible as \x00. HB_ENOMEM. */
int hb_metarow_cell_text(char **out, const struct hb_cell *c);

/* Reads the single cell family:q of the row into out (reset first); *found = 0 without it. */
int hb_metarow_read_cell(struct hb_rest *c, const struct hb_metarow *m, const char *q,
                         struct hb_buf *out, int *found, struct hb_error *err);

/* What create records in the row. */
struct hb_metarow_design {
	size_t n;             /* the number of regions */
	const char *keyspace; /* canonical key-space SPEC, or NULL (none given) */
	const char *splits;   /* the split spec as hbtab flags; "" records none */
	const char *rotate;   /* the rotate template, or NULL */
	int adopt;            /* a present row without a rotate mark receives rotate */
	int dry_run;          /* read only: *state says what would be done */
};

/*
 * Records d: a row that already holds N = d->n is left as it is ("present"; with adopt and
 * rotate an unmarked row gets the mark through a put checked on N: "adopted"); another N is
 * refused (HB_ESAFETY). Without N the row is written with a put-if-absent, read back and its
 * N compared ("written", or "present" when a concurrent writer won with the same N). *state
 * follows the steps (also on failure): "present", "adopted", "written", "would write",
 * "would adopt". HB_ESAFETY, HB_ESERVER, HB_ENET, HB_ENOMEM.
 */
int hb_metarow_record(struct hb_rest *c, const struct hb_metarow *m,
                      const struct hb_metarow_design *d, const struct hb_tell *tell,
                      const char **state, struct hb_error *err);

/*
 * meta set: N becomes n. An absent N is put if absent; a different N only with force, checked
 * against the value read, so a concurrent change is refused (HB_ESAFETY), not lost. prev gets
 * the stored N as toStringBinary (NUL-terminated), *had = 1 when there was one; *changed = 0
 * when it already was n.
 */
int hb_metarow_set_n(struct hb_rest *c, const struct hb_metarow *m, long n, int force,
                     struct hb_buf *prev, int *had, int *changed, struct hb_error *err);

/*
 * reshape: records N = n and the split spec spec in the row, put only if N still holds old
 * (old_len 0: the row had no N, then only if it still has none), so that of two reshapes of
 * one table only one is recorded. A row already holding n and spec (another run recorded the
 * same) is left as it is (*state "present"); else *state is "recorded". HB_ESAFETY when N
 * changed meanwhile, HB_ESERVER, HB_ENET, HB_ENOMEM.
 */
int hb_metarow_record_reshape(struct hb_rest *c, const struct hb_metarow *m, const void *old,
                              size_t old_len, size_t n, const char *spec, const char **state,
                              struct hb_error *err);

/* A table's rotate mark, read from the default row in any family. */
struct hb_metarow_mark {
	int managed;  /* its rotate qualifier is exactly the template */
	long n;       /* its N, -1 when absent or not a number */
	int gone;     /* the table does not exist (a 404 row GET, then a 404 /T/exists) */
	int disabled; /* no row because the table is disabled: the mark is unknown, not absent */
};

/*
 * Reads table's rotate mark against template tmpl. The REST gateway answers every row GET of
 * a missing or disabled table 404 (its RowResultGenerator swallows TableNotFoundException and
 * TableNotEnabledException): without a row /T/exists tells a dropped table, and, when
 * want_disabled, hbase:meta's state a disabled one (a drop stopped between its disable and its
 * delete leaves that).
 */
int hb_metarow_read_mark(struct hb_rest *c, const char *table, const char *tmpl, int want_disabled,
                         struct hb_metarow_mark *out, struct hb_error *err);

#endif
