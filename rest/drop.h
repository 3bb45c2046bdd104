/* Dropping a table only after a fresh check: the one place hbtab sends DELETE /T/schema. */
#ifndef HB_REST_DROP_H
#define HB_REST_DROP_H

#include "rest/hbase.h"

/* Called once the table is known to exist and is to be dropped, before the DELETE (e.g. to
 * take a snapshot); a non-zero return stops the drop with it: nothing is deleted. */
typedef int (*hb_drop_before_fn)(void *ctx, const char *table, struct hb_error *err);

struct hb_drop_req {
	const char *table;
	const char *mark;         /* the rotate template the table must still carry, or NULL */
	hb_drop_before_fn before; /* NULL: none */
	void *before_ctx;
	int dry_run; /* everything up to the DELETE except before; nothing is changed */
};

enum hb_drop_outcome {
	HB_DROP_DROPPED,  /* deleted: HBase's own answer, or an unclear one and the table is gone */
	HB_DROP_ABSENT,   /* the fresh check found no table; nothing was sent */
	HB_DROP_VANISHED, /* it existed at the check and was gone at the DELETE (dropped meanwhile)
	                   */
	HB_DROP_KEPT,     /* it no longer carries req->mark: left alone, nothing was sent */
	HB_DROP_WOULD,    /* a dry run: it exists and would be dropped */
};

struct hb_drop_out {
	enum hb_drop_outcome outcome;
	long n; /* with req->mark: N of the fresh read of the row, -1 unknown */
};

/*
 * Drops req->table in one order: the fresh check (GET /T/exists; with req->mark the metadata
 * row's rotate mark, rest/metarow.h, whose read also proves the table is there), req->before,
 * then DELETE /T/schema (disable and delete, never retried). HBase answers a drop with an
 * empty 200; any other 200 counts only when a fresh GET /T/exists then says the table is gone,
 * otherwise HB_ESERVER. *out says what happened when 0 is returned; errors as the requests'.
 */
int hb_rest_drop_checked(struct hb_rest *c, const struct hb_drop_req *req, struct hb_drop_out *out,
                         struct hb_error *err);

#endif
