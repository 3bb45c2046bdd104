/* Scans: stateful scanners (POST, GET batches, DELETE) and stateless scans (one GET, protobuf
 * chunks read as they arrive). */
#include "rest/scan.h"
#include "core/interrupt.h"
#include "core/key.h"
#include "core/restpb.h"
#include "core/restpb_cells.h"
#include "rest/cells.h"
#include "rest/jsonhelp.h"
#include "rest/resource.h"
#include "rest/rest_priv.h"
#include "rest/tempfile.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* ---- Stateful scanners ---- */

void hb_scan_state_init(struct hb_scan_state *st, struct hb_rest *c, hb_scan_row_fn fn, void *ctx)
{
	memset(st, 0, sizeof(*st));
	st->fn = fn;
	st->ctx = ctx;
	st->c = c;
	st->json = c && hb_rest_protobuf_refused(c);
	hb_row_init(&st->pending);
	hb_buf_init(&st->last_done, 0);
}

void hb_scan_state_release(struct hb_scan_state *st)
{
	hb_row_release(&st->pending);
	hb_buf_release(&st->last_done);
}

int hb_scan_flush_pending(struct hb_scan_state *st, struct hb_error *err)
{
	int rc;

	if (!st->have_pending)
		return 0;
	rc = st->fn(st->ctx, &st->pending, err);
	hb_buf_reset(&st->last_done);
	if (!rc && hb_buf_add(&st->last_done, st->pending.key, st->pending.key_len))
		rc = hb_error_set(err, HB_ENOMEM, "out of memory");
	st->have_done = 1;
	hb_row_release(&st->pending);
	st->have_pending = 0;
	st->rows++;
	return rc;
}

/* Fragments of one row that a cell limit split across responses are merged here. */
static int on_fragment(void *ctx, struct hb_row *frag, struct hb_error *err)
{
	struct hb_scan_state *st = ctx;
	size_t i;
	int rc;

	if (st->skipping) {
		if (frag->key_len == st->last_done.len &&
		    !memcmp(frag->key, st->last_done.data, frag->key_len)) {
			st->skip_seen = 1;
			return 0;
		}
		if (!st->skip_seen)
			return 0;
		st->skipping = 0;
	}

	if (st->have_pending && st->pending.key_len == frag->key_len &&
	    !memcmp(st->pending.key, frag->key, frag->key_len)) {
		for (i = 0; i < frag->ncells; i++)
			if (hb_row_add_cell(&st->pending, frag->cells[i].column,
			                    frag->cells[i].column_len, frag->cells[i].value,
			                    frag->cells[i].value_len, frag->cells[i].timestamp))
				return hb_error_set(err, HB_ENOMEM, "out of memory");
		return 0;
	}
	if ((rc = hb_scan_flush_pending(st, err)))
		return rc;
	st->pending = *frag; /* take ownership */
	hb_row_init(frag);
	st->have_pending = 1;
	return 0;
}

int hb_rest_b64_field(cJSON *o, const char *name, const void *p, size_t n)
{
	struct hb_buf b = HB_BUF_INIT;
	int ok;

	if (hb_b64_encode(&b, p, n) || hb_buf_add(&b, "", 0))
		return 0;
	ok = cJSON_AddStringToObject(o, name, b.data) != NULL;
	hb_buf_release(&b);
	return ok;
}

static int scanner_body(const struct hb_scan_spec *spec, const void *start, size_t start_len,
                        char **out)
{
	cJSON *o = cJSON_CreateObject(), *cols;
	size_t i;
	int ok = o != NULL;

	*out = NULL;
	ok = ok && hb_rest_b64_field(o, "startRow", start, start_len);
	if (ok && spec->end_len)
		ok = hb_rest_b64_field(o, "endRow", spec->end, spec->end_len);
	if (ok && spec->columns) {
		cols = cJSON_AddArrayToObject(o, "column");
		ok = cols != NULL;
		for (i = 0; ok && spec->columns[i]; i++) {
			struct hb_buf b = HB_BUF_INIT;

			ok = !hb_b64_encode(&b, spec->columns[i], strlen(spec->columns[i])) &&
			     !hb_buf_add(&b, "", 0) &&
			     cJSON_AddItemToArray(cols, cJSON_CreateString(b.data));
			hb_buf_release(&b);
		}
	}
	ok = ok &&
	     cJSON_AddNumberToObject(o, "batch", (double)(spec->batch > 0 ? spec->batch : 1000));
	ok = ok && cJSON_AddNumberToObject(
	               o, "maxVersions", (double)(spec->max_versions > 0 ? spec->max_versions : 1));
	if (ok && spec->caching > 0)
		ok = cJSON_AddNumberToObject(o, "caching", (double)spec->caching) != NULL;
	/* ScannerModel.filter is a String holding the FilterModel's JSON, not a nested object */
	if (ok && spec->filter)
		ok = cJSON_AddStringToObject(o, "filter", spec->filter) != NULL;
	if (ok)
		*out = cJSON_PrintUnformatted(o);
	cJSON_Delete(o);
	return *out ? 0 : HB_ENOMEM;
}

/* The scanner's path from its Location header, relative to our base URL. */
static int location_path(struct hb_buf *out, const char *loc, const char *scan_path)
{
	const char *p = strstr(loc, "://");
	const char *sp = strstr(scan_path, "/scanner");

	hb_buf_reset(out);
	if (p)
		p = strchr(p + 3, '/');
	else if (loc[0] == '/')
		p = loc;
	if (!p || !sp)
		return HB_EINVAL;
	/* Keep the part from our own "/<table>/scanner/" on: a gateway behind a path prefix or
	 * proxy may report a different host or prefix. */
	{
		const char *id = strstr(p, "/scanner/");

		if (!id || !id[9] || strchr(id + 9, '/') || strchr(id + 9, '?'))
			return HB_EINVAL;
		if (hb_buf_add(out, scan_path, (size_t)(sp - scan_path)) || hb_buf_adds(out, id))
			return HB_ENOMEM;
	}
	return 0;
}

/*
 * Deletes a scanner. The request is idempotent, so transient failures (502/503/504, resets)
 * are retried; a DELETE that still fails leaves the scanner open on the gateway, which the
 * operator hears of as a notice (the data read is complete, so the run does not fail).
 * HBase answers an empty 200; a 404 means the scanner is gone already.
 */
static void scanner_delete(struct hb_rest *c, const char *path)
{
	struct hb_rest_resp r;
	struct hb_error err;
	char msg[HB_ERRMSG_MAX + 80];
	int rc;

	hb_rest_resp_init(&r);
	memset(&err, 0, sizeof(err));
	/* Runs even after SIGINT/SIGTERM/SIGPIPE: the scanner must not outlive hbtab. */
	hb_interrupt_shield(1);
	rc = hb_rest_request(c, "DELETE", path, NULL, NULL, 0, 1, &r, &err);
	hb_interrupt_shield(0);
	if (!rc && (r.status == 200 || r.status == 204) && r.body.len)
		hb_error_set(&err, HB_ESERVER,
		             "unexpected answer to DELETE %s: HTTP %ld with a %zu-byte body (HBase "
		             "answers an empty 200)",
		             path, r.status, r.body.len);
	else if (!rc && r.status != 200 && r.status != 204 && r.status != 404)
		hb_rest_status_error("DELETE", path, &r, &err);
	else if (!rc)
		err.code = 0;
	if (rc || err.code) {
		snprintf(msg, sizeof(msg),
		         "%s: the scanner may stay open on the gateway, holding server resources",
		         err.msg);
		hb_rest_report_notice(c, msg);
	}
	hb_rest_resp_release(&r);
}

/* One scanner from start to the end (or a failure). *resumable = 1 when a transport fault
 * hit a GET, so the caller may reopen from where this one stopped. */
/* POSTs the scanner (shielded from signals, so that a scanner it opens is known) and
 * reads its path from the Location header into spath. */
static int scanner_open(struct hb_rest *c, const char *path, const struct hb_scan_spec *spec,
                        const char *body, struct hb_rest_resp *r, struct hb_buf *spath,
                        struct hb_error *err)
{
	int rc;

	hb_interrupt_shield(1);
	rc = hb_rest_request(c, "POST", path, HB_JSON_TYPE, body, strlen(body), 0, r, err);
	hb_interrupt_shield(0);
	if (rc)
		return rc;
	if (r->status == 403)
		return hb_error_set(
		    err, HB_ESERVER,
		    "POST %s: HTTP 403 Forbidden (the REST gateway refuses to open a "
		    "scanner, which this read needs: the gateway is read-only "
		    "(hbase.rest.readonly) or you lack permission. hbtab opens one only "
		    "%s; against a read-only gateway %s)",
		    path,
		    spec->filter ? "to sample a live table (--sample-table)"
		                 : "for row keys that are not printable ASCII",
		    spec->filter ? "sample the keys elsewhere and give --sample-file"
		                 : "use a printable --metadata-row");
	if (r->status != 201)
		return hb_rest_status_error("POST", path, r, err);
	if (location_path(spath, r->location, path))
		return hb_error_set(
		    err, HB_ESERVER,
		    "malformed response from POST %s: bad scanner Location '%.200s'", path,
		    hb_rest_shown_header(spath, r->location));
	return 0;
}

/* ---- A stateful scanner's batches kept as they came (hb_rest_scan_kept) ---- */

/* Past this many bytes in memory the batches move to a temporary file. */
#define KEEP_IN_MEMORY (16u << 20)

struct hb_scan_keep {
	struct hb_rest_resp *out;
	FILE *f; /* the temporary file they go to, or NULL: out->body */
	size_t n;
};

static int keep_file(struct hb_scan_keep *k, const char *spath, struct hb_error *err)
{
	if (!(k->f = hb_temp_file()))
		return hb_error_set(err, HB_EINVAL,
		                    "cannot create a temporary file in '%s' for the batches of "
		                    "%s: %s (TMPDIR names the directory)",
		                    hb_temp_dir(), spath, strerror(errno));
	return 0;
}

static int keep_write(struct hb_scan_keep *k, const char *spath, const void *p, size_t n,
                      struct hb_error *err)
{
	if (n && fwrite(p, 1, n, k->f) != n)
		return hb_error_set(err, HB_EINVAL,
		                    "cannot write the batches of %s to a temporary file: %s", spath,
		                    strerror(errno));
	k->n += n;
	return 0;
}

/* One batch (a 200) kept after its length (4 bytes, big-endian); it must be protobuf. */
static int scan_keep(struct hb_scan_keep *k, const char *spath, const struct hb_rest_resp *r,
                     struct hb_error *err)
{
	struct hb_buf *mem = &k->out->body;
	unsigned char len[4];
	int rc;

	if (r->body.len > 0xffffffffu)
		return hb_error_set(err, HB_ESERVER, "GET %s: a batch of %zu bytes", spath,
		                    r->body.len);
	len[0] = (unsigned char)(r->body.len >> 24);
	len[1] = (unsigned char)(r->body.len >> 16);
	len[2] = (unsigned char)(r->body.len >> 8);
	len[3] = (unsigned char)r->body.len;

	if (!hb_rest_is_protobuf(r->content_type))
		return hb_error_set(
		    err, HB_ESERVER,
		    "GET %s: an answer of type '%.100s' where protobuf was asked for", spath,
		    r->content_type);
	if (!k->f && mem->len + r->body.len > KEEP_IN_MEMORY) {
		if ((rc = keep_file(k, spath, err)) ||
		    (rc = keep_write(k, spath, mem->data, mem->len, err)))
			return rc;
		hb_buf_release(mem);
	}
	if (k->f)
		return (rc = keep_write(k, spath, len, sizeof(len), err))
		           ? rc
		           : keep_write(k, spath, r->body.data, r->body.len, err);
	return hb_buf_add(mem, len, sizeof(len)) || hb_buf_add(mem, r->body.data, r->body.len)
	           ? hb_error_set(err, HB_ENOMEM, "out of memory")
	           : 0;
}

/* The batches complete: a file's are mapped (out's body is hb_scan_decode_kept's to read). */
static int keep_finish(struct hb_scan_keep *k, struct hb_error *err)
{
	struct hb_rest_resp *out = k->out;
	void *m;

	if (k->f && k->n) {
		if (fflush(k->f))
			return hb_error_set(err, HB_EINVAL,
			                    "cannot write scanner batches to a temporary file: %s",
			                    strerror(errno));
		m = mmap(NULL, k->n, PROT_READ, MAP_PRIVATE, fileno(k->f), 0);
		if (m == MAP_FAILED)
			return hb_error_set(err, HB_ENOMEM,
			                    "cannot map the scanner batches kept in a temporary "
			                    "file (%zu bytes): %s",
			                    k->n, strerror(errno));
		out->map = m;
		out->map_len = k->n;
	}
	out->status = 200;
	return 0;
}

int hb_scan_decode_kept(const struct hb_rest_resp *r, const char *what, struct hb_scan_state *st,
                        struct hb_error *err)
{
	size_t blen, off = 0, n;
	const char *body = hb_rest_resp_body(r, &blen), *drop = r->map ? body : NULL;
	const unsigned char *u = (const unsigned char *)body;
	int rc = 0;

	while (!rc && off < blen) {
		if (blen - off < 4)
			return hb_error_set(err, HB_EINVAL, "%s: a kept batch's length cut short",
			                    what);
		n = (size_t)u[off] << 24 | (size_t)u[off + 1] << 16 | (size_t)u[off + 2] << 8 |
		    u[off + 3];
		off += 4;
		if (n > blen - off)
			return hb_error_set(err, HB_EINVAL, "%s: a kept batch cut short", what);
		rc = hb_rest_decode_cellset_pb(body + off, n, what, on_fragment, st, err);
		off += n;
		hb_rest_drop_behind(&drop, body + off);
	}
	return rc;
}

/* GETs the open scanner at spath until it is exhausted (204), each batch decoded into st.
 * *open becomes 0 when the server removed the scanner itself; *resumable says a failure
 * may be resumed with a new scanner. */
static int scanner_read(struct hb_rest *c, const char *table, const char *spath,
                        struct hb_scan_state *st, struct hb_rest_resp *r, int *open, int *resumable,
                        struct hb_error *err)
{
	char what[700];
	int rc;

	snprintf(what, sizeof(what), "GET %s", spath);
	for (;;) {
		if (hb_interrupt_stop())
			return hb_error_set(err, HB_ENET, "GET %s: interrupted", spath);
		/* Not idempotent: a scanner GET advances the scanner, so a lost response cannot
		 * simply be asked for again (the caller reopens a scanner instead). */
		r->accept = st->json ? NULL : HB_PROTOBUF_TYPE;
		rc = hb_rest_request(c, "GET", spath, NULL, NULL, 0, 0, r, err);
		if (rc) {
			*resumable = rc == HB_ENET;
			return rc;
		}
		if (r->status == 204)
			return hb_scan_flush_pending(st, err);
		/* HBase opens a scanner lazily: the POST succeeds for any table, and the first
		 * GET says what was wrong. 410: the table is not enabled (ScannerInstanceResource
		 * has removed the scanner itself); 404: there is no such table. */
		if (r->status == 410) {
			*open = 0;
			return hb_error_set(err, HB_ESERVER,
			                    "table '%s' is disabled: its scanner ended at once "
			                    "(GET %s: HTTP 410)",
			                    table, spath);
		}
		if (r->status == 404 && !st->rows)
			return hb_error_set(err, HB_ENOTFOUND,
			                    "table '%s' not found (GET %s: HTTP 404)", table,
			                    spath);
		if (!st->json && hb_rest_pb_refused(r)) {
			/* The batch may have been read and lost (a proxy that passed the GET on):
			 * a new scanner, asked for JSON, goes on after the last whole row. */
			hb_rest_note_protobuf_refused(c);
			st->json = st->reopen = *resumable = 1;
			return hb_error_set(err, HB_ESERVER, "GET %s: protobuf refused (HTTP %ld)",
			                    spath, r->status);
		}
		if (r->status != 200) {
			*resumable = r->status == 502 || r->status == 503 || r->status == 504;
			return hb_rest_status_error("GET", spath, r, err);
		}
		if (st->keep)
			rc = scan_keep(st->keep, spath, r, err);
		else if (hb_rest_is_protobuf(r->content_type))
			rc = hb_rest_decode_cellset_pb(r->body.data, r->body.len, what, on_fragment,
			                               st, err);
		else if (!(rc = hb_rest_expect_json("GET", spath, r, err)))
			rc = hb_rest_decode_cellset(r->body.data, r->body.len, what, on_fragment,
			                            st, err);
		if (rc)
			return rc;
		hb_rest_report_progress(c, st->rows, 0);
	}
}

static int scan_once(struct hb_rest *c, const char *table, const struct hb_scan_spec *spec,
                     const void *start, size_t start_len, struct hb_scan_state *st, int *resumable,
                     struct hb_error *err)
{
	struct hb_buf path = HB_BUF_INIT, spath = HB_BUF_INIT;
	struct hb_rest_resp r;
	char *body = NULL;
	int rc, open = 0;

	*resumable = 0;
	hb_rest_resp_init(&r);
	rc = hb_rest_table_path(&path, table, "/scanner", err);
	if (!rc && scanner_body(spec, start, start_len, &body))
		rc = hb_error_set(err, HB_ENOMEM, "out of memory");
	if (rc)
		goto done_unheld;
	/* From here until the scanner is deleted a signal must not end hbtab on the spot. The
	 * POST runs to its end even then, so that a scanner it opens is known and deleted. */
	if (hb_interrupt_stop()) {
		rc = hb_error_set(err, HB_ENET, "POST %s: interrupted", path.data);
		goto done_unheld;
	}
	hb_interrupt_hold();
	rc = scanner_open(c, path.data, spec, body, &r, &spath, err);
	if (rc && r.status >= 400 && spec->open_refused)
		*spec->open_refused = 1;
	if (!rc) {
		open = 1;
		rc = scanner_read(c, table, spath.data, st, &r, &open, resumable, err);
	}
	if (open)
		scanner_delete(c, spath.data);
	/* The last release after a signal ends the process (core/interrupt.h). */
	hb_interrupt_release();
done_unheld:
	free(body);
	hb_rest_resp_release(&r);
	hb_buf_release(&path);
	hb_buf_release(&spath);
	return rc;
}

/* A stateless scan can express the spec: printable bounds and columns. */
int hb_scan_stateless_ok(const struct hb_scan_spec *spec)
{
	const char *const *col;

	/* A FilterModel (JSON) has no stateless form: the filter language lacks some filters
	 * (RandomRowFilter is not registered in ParseFilter). */
	if (spec->filter)
		return 0;
	if (spec->lang_filter && !hb_rest_url_safe(spec->lang_filter, strlen(spec->lang_filter)))
		return 0;
	if ((spec->start && !hb_rest_url_safe(spec->start, spec->start_len)) ||
	    (spec->end && !hb_rest_url_safe(spec->end, spec->end_len)))
		return 0;
	for (col = spec->columns; col && *col; col++)
		if (!hb_rest_url_safe(*col, strlen(*col)))
			return 0;
	return 1;
}

static int scan_row(void *ctx, struct hb_scanpb_reader *rd, const unsigned char *key,
                    size_t key_len, struct hb_error *err)
{
	return hb_rest_pb_row(rd, key, key_len, on_fragment, ctx, err);
}

static int scan_wants(const char *content_type)
{
	return hb_rest_is_protobuf(content_type);
}

/* The answer is read again from its start: the row held (it may have had more cells to come)
 * is dropped, and the rows up to the last one handed on are passed over. */
static void scan_forget(struct hb_scan_stream *ss)
{
	struct hb_scan_state *st = ss->st;

	hb_row_release(&st->pending);
	st->have_pending = 0;
	st->skipping = st->have_done;
	st->skip_seen = 0;
	hb_scanpb_stream_reset(&ss->ps);
}

static int scan_start(void *ctx, struct hb_error *err)
{
	struct hb_scan_stream *ss = ctx;

	(void)err;
	if (ss->started)
		scan_forget(ss);
	ss->started = 1;
	return 0;
}

/* A chunk that cannot be framed (HB_EINVAL) ends the request and is noted. */
static int scan_noted(struct hb_scan_stream *ss, int rc)
{
	if (rc == HB_EINVAL)
		ss->unframeable = 1;
	return rc;
}

static int scan_push(void *ctx, const char *p, size_t n, struct hb_error *err)
{
	struct hb_scan_stream *ss = ctx;

	return scan_noted(ss, hb_scanpb_stream_push(&ss->ps, p, n, scan_row, ss->st, err));
}

/* The protobuf answer's end: a streamed one's last chunks, or the whole of one that was kept
 * (an empty body brings no byte to stream; a body mapped from its spool file is read a MiB at
 * a time, the pages read given back). */
int hb_scan_pb_end(struct hb_scan_stream *ss, const struct hb_rest_resp *r, struct hb_error *err)
{
	int rc = 0;

	if (!r->streamed) {
		size_t blen, off, piece;
		const char *body = hb_rest_resp_body(r, &blen), *drop = r->map ? body : NULL;

		scan_start(ss, err);
		for (off = 0; !rc && off < blen; off += piece) {
			piece = blen - off < (1u << 20) ? blen - off : (1u << 20);
			rc = scan_noted(ss, hb_scanpb_stream_push(&ss->ps, body + off, piece,
			                                          scan_row, ss->st, err));
			hb_rest_drop_behind(&drop, body + off + piece);
		}
	}
	return rc ? rc : scan_noted(ss, hb_scanpb_stream_end(&ss->ps, scan_row, ss->st, err));
}

/* The stateless scan's path for spec: /T/\*?startrow=&endrow=&maxversions=[&limit=]
 * [&column=..][&filter=]. */
int hb_scan_stateless_path(struct hb_buf *path, const char *table, const struct hb_scan_spec *spec,
                           struct hb_error *err)
{
	const char *const *col;
	int rc = hb_rest_table_path(path, table, "/*?startrow=", err);

	if (!rc && ((spec->start && hb_rest_path_escape(path, spec->start, spec->start_len)) ||
	            hb_buf_adds(path, "&endrow=") ||
	            (spec->end && hb_rest_path_escape(path, spec->end, spec->end_len)) ||
	            hb_buf_addf(path, "&maxversions=%d",
	                        spec->max_versions > 0 ? spec->max_versions : 1) ||
	            (spec->limit > 0 && hb_buf_addf(path, "&limit=%ld", spec->limit))))
		rc = hb_error_set(err, HB_ENOMEM, "out of memory");
	for (col = spec->columns; !rc && col && *col; col++)
		if (hb_buf_adds(path, "&column=") || hb_rest_path_escape(path, *col, strlen(*col)))
			rc = hb_error_set(err, HB_ENOMEM, "out of memory");
	if (!rc && spec->lang_filter &&
	    (hb_buf_adds(path, "&filter=") ||
	     hb_rest_path_escape(path, spec->lang_filter, strlen(spec->lang_filter))))
		rc = hb_error_set(err, HB_ENOMEM, "out of memory");
	return rc;
}

/* A stateless scan's JSON answer, kept whole (in memory or mapped from its spool file). */
int hb_scan_decode_cellset_kept(const struct hb_rest_resp *r, const char *what,
                                struct hb_scan_state *st, struct hb_error *err)
{
	size_t blen;
	const char *body = hb_rest_resp_body(r, &blen);

	return r->map ? hb_rest_decode_cellset_mapped(body, blen, what, on_fragment, st, err)
	              : hb_rest_decode_cellset(body, blen, what, on_fragment, st, err);
}

/*
 * GET /T/\*?startrow=&endrow=&column=&maxversions= (TableResource.getScanResource): one
 * idempotent request, no server-side state, and allowed on a read-only gateway
 * (hbase.rest.readonly refuses scanner creation). The whole range comes in one answer, read
 * as it arrives in protobuf.
 */
static int stateless_scan(struct hb_rest *c, const char *table, const struct hb_scan_spec *spec,
                          struct hb_scan_state *st, struct hb_error *err)
{
	struct hb_buf path = HB_BUF_INIT;
	struct hb_rest_resp r;
	struct hb_scan_stream ss;
	struct hb_rest_stream ops = {scan_wants, scan_start, scan_push, &ss};
	char what[700];
	int rc;

	hb_rest_resp_init(&r);
	memset(&ss, 0, sizeof(ss));
	ss.st = st;
	if ((rc = hb_scan_stateless_path(&path, table, spec, err)))
		goto done;
	snprintf(what, sizeof(what), "GET %s", path.data);
	hb_scanpb_stream_init(&ss.ps, what);
	/* a JSON answer (about 600 bytes a region for a meta scan) is kept in a temporary file */
	r.spool = 1;
	r.stream = &ops;
	rc = spec->json ? hb_rest_get_json(c, path.data, &r, what, sizeof(what), err)
	                : hb_rest_get_protobuf(c, path.data, &r, what, sizeof(what), err);
	if (!rc && (r.streamed || hb_rest_is_protobuf(r.content_type)))
		rc = hb_scan_pb_end(&ss, &r, err);
	/* A chunk of 64 KiB or more has a wrapped length that may not be framed
	 * (docs/hbase-wire.md §3.1): the scan is asked for again as JSON, the rows handed on
	 * so far passed over. */
	if (rc == HB_EINVAL && ss.unframeable) {
		r.accept = NULL;
		rc = hb_rest_get_json(c, path.data, &r, what, sizeof(what), err);
	}
	if (!rc && !r.streamed && !hb_rest_is_protobuf(r.content_type)) {
		/* JSON after protobuf that was read in part (cut, or not framed) */
		if (ss.started)
			scan_forget(&ss);
		rc = hb_scan_decode_cellset_kept(&r, what, st, err);
	}
	if (!rc && st->skipping && !st->skip_seen)
		rc =
		    hb_error_set(err, HB_ESERVER,
		                 "%s: the answer asked for again no longer lists the last row read "
		                 "before the first one was cut",
		                 what);
	if (!rc)
		rc = hb_scan_flush_pending(st, err);
	hb_rest_report_progress(c, st->rows, 0);
	hb_scanpb_stream_release(&ss.ps);
done:
	hb_rest_resp_release(&r);
	hb_buf_release(&path);
	return rc;
}

int hb_rest_scan(struct hb_rest *c, const char *table, const struct hb_scan_spec *spec,
                 hb_scan_row_fn fn, void *ctx, struct hb_error *err)
{
	struct hb_scan_state st;
	struct hb_buf start = HB_BUF_INIT;
	int rc, resumable;
	long tries = 0;

	hb_scan_state_init(&st, c, fn, ctx);
	if (!spec->stateful && hb_scan_stateless_ok(spec)) {
		rc = stateless_scan(c, table, spec, &st, err);
		hb_scan_state_release(&st);
		return rc;
	}
	if (spec->lang_filter)
		return hb_error_set(err, HB_EINVAL,
		                    "a scan filter needs printable bounds and columns");
	if (hb_buf_add(&start, spec->start ? spec->start : "", spec->start ? spec->start_len : 0))
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	for (;;) {
		rc = scan_once(c, table, spec, start.data, start.len, &st, &resumable, err);
		if (!rc || !resumable || (!st.reopen && tries++ >= hb_rest_retry_budget(c)))
			break;
		st.reopen = 0;
		/* Reopen after the last complete row; a partly received row is read again. */
		hb_row_release(&st.pending);
		st.have_pending = 0;
		hb_buf_reset(&start);
		if (st.have_done && (hb_buf_add(&start, st.last_done.data, st.last_done.len) ||
		                     hb_buf_addc(&start, 0))) {
			rc = hb_error_set(err, HB_ENOMEM, "out of memory");
			break;
		}
		if (!st.have_done && hb_buf_add(&start, spec->start ? spec->start : "",
		                                spec->start ? spec->start_len : 0)) {
			rc = hb_error_set(err, HB_ENOMEM, "out of memory");
			break;
		}
	}
	hb_scan_state_release(&st);
	hb_buf_release(&start);
	return rc;
}

int hb_rest_scan_kept(struct hb_rest *c, const char *table, const struct hb_scan_spec *spec,
                      struct hb_rest_resp *out, struct hb_error *err)
{
	struct hb_scan_state st;
	struct hb_scan_keep k;
	int rc, resumable;

	hb_scan_state_init(&st, c, NULL, NULL);
	memset(&k, 0, sizeof(k));
	k.out = out;
	st.keep = &k;
	rc = st.json ? hb_error_set(err, HB_ESERVER,
	                            "the REST gateway refused protobuf, which a kept scan needs")
	             : 0;
	if (!rc && out->spool)
		rc = keep_file(&k, table, err);
	if (!rc)
		rc = scan_once(c, table, spec, spec->start, spec->start_len, &st, &resumable, err);
	if (!rc)
		rc = keep_finish(&k, err);
	if (k.f)
		fclose(k.f);
	hb_scan_state_release(&st);
	return rc;
}
