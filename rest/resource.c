/* One GET of a REST resource: the path, the media type asked for and expected, JSON or protobuf,
 * the body handed to its decoder. */
#include "rest/resource.h"
#include "core/key.h"
#include "core/restpb.h"
#include "core/restpb_status.h"
#include "rest/rest_priv.h"

#include <stdio.h>
#include <string.h>

/* "/" + escaped table + suffix into *path. */
int hb_rest_table_path(struct hb_buf *path, const char *table, const char *suffix,
                       struct hb_error *err)
{
	hb_buf_reset(path);
	if (hb_buf_addc(path, '/') || hb_rest_path_escape(path, table, strlen(table)) ||
	    (suffix && hb_buf_adds(path, suffix)))
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	return 0;
}

/* A header value for a message, as toStringBinary: no raw control bytes reach the terminal. */
const char *hb_rest_shown_header(struct hb_buf *b, const char *s)
{
	hb_buf_reset(b);
	if (hb_tsb_append(b, s, strlen(s)) || hb_buf_add(b, "", 0))
		return "?";
	return b->data;
}

/* A 2xx JSON body is expected: anything else (a proxy's HTML page) is a server error. */
int hb_rest_expect_json(const char *method, const char *path, const struct hb_rest_resp *r,
                        struct hb_error *err)
{
	struct hb_buf b = HB_BUF_INIT;
	int rc;

	if (!strncmp(r->content_type, HB_JSON_TYPE, strlen(HB_JSON_TYPE)))
		return 0;
	rc = hb_error_set(err, HB_ESERVER,
	                  "unexpected content type '%s' from %s %s%s (expected %s; is --rest "
	                  "pointing at an HBase REST gateway?)",
	                  r->content_type[0] ? hb_rest_shown_header(&b, r->content_type) : "none",
	                  method, r->prefix, path, HB_JSON_TYPE);
	hb_buf_release(&b);
	return rc;
}

/* GET path expecting 200 + JSON; what receives "GET path" for decoder messages. */
int hb_rest_get_json(struct hb_rest *c, const char *path, struct hb_rest_resp *r, char *what,
                     size_t what_cap, struct hb_error *err)
{
	int rc = hb_rest_request(c, "GET", path, NULL, NULL, 0, 1, r, err);

	snprintf(what, what_cap, "GET %s", path);
	if (rc)
		return rc;
	if (r->status != 200)
		return hb_rest_status_error("GET", path, r, err);
	return hb_rest_expect_json("GET", path, r, err);
}

/*
 * GET path and decode its body with decode. accept NULL asks for JSON and expects a JSON 200;
 * HB_PROTOBUF_TYPE asks for protobuf as hb_rest_get_protobuf does. spool: the body may be large
 * (proportional to the cluster or the table), so it goes to a temporary file and is mapped.
 * *status (when not NULL) gets the last answer's HTTP status, 0 without one.
 */
int hb_rest_get_decoded(struct hb_rest *c, const char *path, const char *accept, int spool,
                        hb_rest_body_decoder decode, void *out, long *status, struct hb_error *err)
{
	struct hb_rest_resp r;
	char what[600];
	int rc;

	hb_rest_resp_init(&r);
	r.spool = spool;
	rc = accept ? hb_rest_get_protobuf(c, path, &r, what, sizeof(what), err)
	            : hb_rest_get_json(c, path, &r, what, sizeof(what), err);
	if (status)
		*status = r.status;
	if (!rc)
		rc = decode(out, &r, what, err);
	hb_rest_resp_release(&r);
	return rc;
}

/* Whether a content type is one of the protobuf types HBase answers with. */
int hb_rest_is_type(const char *ct, const char *type)
{
	size_t n = strlen(type);

	return !strncmp(ct, type, n) && (!ct[n] || ct[n] == ';' || ct[n] == ' ');
}

int hb_rest_is_protobuf(const char *ct)
{
	return hb_rest_is_type(ct, HB_PROTOBUF_TYPE) || hb_rest_is_type(ct, HB_PROTOBUF_TYPE_IETF);
}

/* An answer to a protobuf GET that says to ask for JSON instead: refused (406, 415) or a 200
 * of a type that is neither protobuf nor JSON (docs/hbase-wire.md §3.1). */
int hb_rest_pb_refused(const struct hb_rest_resp *r)
{
	return r->status == 406 || r->status == 415 ||
	       (r->status == 200 && !hb_rest_is_protobuf(r->content_type) &&
	        !hb_rest_is_type(r->content_type, HB_JSON_TYPE));
}

/*
 * GET path asking for protobuf (/T/regions' TableInfo, a stateless scan's CellSet chunks:
 * about half the bytes of the JSON and no base64). A gateway or proxy that refuses it (406,
 * 415) or answers another type is asked again for JSON, unless its answer is JSON already,
 * and asked for JSON from the start for the rest of the run (docs/hbase-wire.md §3.1).
 */
int hb_rest_get_protobuf(struct hb_rest *c, const char *path, struct hb_rest_resp *r, char *what,
                         size_t what_cap, struct hb_error *err)
{
	int rc;

	if (!hb_rest_protobuf_refused(c)) {
		r->accept = HB_PROTOBUF_TYPE;
		rc = hb_rest_request(c, "GET", path, NULL, NULL, 0, 1, r, err);
		snprintf(what, what_cap, "GET %s", path);
		if (rc)
			return rc;
		if (!hb_rest_pb_refused(r))
			return r->status == 200 ? 0 : hb_rest_status_error("GET", path, r, err);
		hb_rest_note_protobuf_refused(c);
	}
	r->accept = NULL;
	return hb_rest_get_json(c, path, r, what, what_cap, err);
}

/*
 * Bytes that reach HBase unchanged through a URL: TableResource hands the stateless scan's
 * startrow/endrow/column parameters, and RowSpec the row and columns of a path, to
 * Bytes.toBytes(String) after percent-decoding as UTF-8, so only text round-trips. hbtab
 * sends those only when every byte is printable ASCII.
 */
int hb_rest_url_safe(const void *p, size_t n)
{
	const unsigned char *b = p;
	size_t i;

	for (i = 0; i < n; i++)
		if (b[i] < 0x20 || b[i] > 0x7e)
			return 0;
	return 1;
}
