/* Dropping a table only after a fresh check, and settling an unclear answer by looking again. */
#include "rest/drop.h"
#include "rest/metarow.h"
#include "rest/rest.h"

#include <string.h>

/* An unclear answer to the DELETE (a 200 with a body, of blen bytes): only a fresh existence
 * check can say whether the drop happened. */
static int settle(struct hb_rest *c, const char *table, const char *path, size_t blen,
                  struct hb_error *err)
{
	struct hb_error e2 = {0};
	int exists = 1;

	if (hb_rest_table_exists(c, table, &exists, &e2))
		return hb_error_set(err, HB_ESERVER,
		                    "unexpected answer to DELETE %s: HTTP 200 with a %zu-byte "
		                    "body (HBase answers an empty 200), and whether the table "
		                    "is gone cannot be checked: %s",
		                    path, blen, e2.msg);
	if (exists)
		return hb_error_set(err, HB_ESERVER,
		                    "unexpected answer to DELETE %s: HTTP 200 with a %zu-byte "
		                    "body (HBase answers an empty 200); table '%s' still exists",
		                    path, blen, table);
	return 0;
}

/* The DELETE got no answer (a timeout, a reset): the gateway may have dropped the table, may
 * still be dropping it, or never got the request. The table read back tells which of the
 * first can be said; err keeps the transfer's error. 0 when it is gone. */
static int after_lost_answer(struct hb_rest *c, const char *table, struct hb_error *err)
{
	struct hb_error e2 = {0}, lost = *err;
	int exists = 1;

	if (hb_rest_table_exists(c, table, &exists, &e2))
		return hb_error_set(err, HB_ENET,
		                    "%s; whether table '%s' was dropped is unknown (it cannot be "
		                    "read back: %s): see 'hbtab tables', or rerun the drop with "
		                    "--if-exists",
		                    lost.msg, table, e2.msg);
	if (exists)
		return hb_error_set(err, HB_ENET,
		                    "%s; table '%s' still exists, but the gateway may still be "
		                    "dropping it: see 'hbtab tables', or rerun the drop with "
		                    "--if-exists",
		                    lost.msg, table);
	return 0;
}

/* DELETE /T/schema: the gateway disables and deletes. HB_ENOTFOUND when absent. */
static int delete_table(struct hb_rest *c, const char *table, struct hb_error *err)
{
	struct hb_buf path = HB_BUF_INIT;
	struct hb_rest_resp r;
	int rc = 0;

	hb_rest_resp_init(&r);
	if (hb_buf_addc(&path, '/') || hb_rest_path_escape(&path, table, strlen(table)) ||
	    hb_buf_adds(&path, "/schema"))
		rc = hb_error_set(err, HB_ENOMEM, "out of memory");
	/* never retried: a repeated DELETE could drop a table made again meanwhile */
	if (!rc)
		rc = hb_rest_request(c, "DELETE", path.data, NULL, NULL, 0, 0, &r, err);
	if (!rc && r.status == 200 && r.body.len)
		rc = settle(c, table, path.data, r.body.len, err);
	else if (!rc && r.status != 200)
		rc = hb_rest_status_error("DELETE", path.data, &r, err);
	hb_rest_resp_release(&r);
	hb_buf_release(&path);
	return rc;
}

/* The fresh check: *exists, and with a mark whether the table must stay. */
static int check(struct hb_rest *c, const struct hb_drop_req *req, int *exists, int *keep, long *n,
                 struct hb_error *err)
{
	struct hb_metarow_mark mk;
	int rc;

	*keep = 0;
	*n = -1;
	if (!req->mark)
		return hb_rest_table_exists(c, req->table, exists, err);
	rc = hb_metarow_read_mark(c, req->table, req->mark, 0, &mk, err);
	*exists = !rc && !mk.gone;
	*keep = !rc && !mk.managed;
	*n = rc ? -1 : mk.n;
	return rc;
}

int hb_rest_drop_checked(struct hb_rest *c, const struct hb_drop_req *req, struct hb_drop_out *out,
                         struct hb_error *err)
{
	int exists = 1, keep = 0, rc;

	/* The table is known to exist (and to be the one meant) before the DELETE is sent: a
	 * drop whose answer is not HBase's is then settled by checking it is gone, and a table
	 * that never existed is never reported dropped. */
	rc = check(c, req, &exists, &keep, &out->n, err);
	if (rc)
		return rc;
	out->outcome = !exists ? HB_DROP_ABSENT : keep ? HB_DROP_KEPT : HB_DROP_WOULD;
	if (out->outcome != HB_DROP_WOULD || req->dry_run)
		return 0;
	if (req->before && (rc = req->before(req->before_ctx, req->table, err)))
		return hb_error_prefix(err, rc, "table '%s' not dropped", req->table);
	rc = delete_table(c, req->table, err);
	if (rc == HB_ENET)
		rc = after_lost_answer(c, req->table, err);
	if (rc == HB_ENOTFOUND) { /* dropped by someone else since the check */
		out->outcome = HB_DROP_VANISHED;
		return 0;
	}
	if (!rc)
		out->outcome = HB_DROP_DROPPED;
	return rc;
}
