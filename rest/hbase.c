/* The REST resources hbtab uses: cluster, tables, schema, regions, meta scans, rows. */
#include "rest/hbase.h"
#include "core/activity.h"
#include "core/interrupt.h"
#include "core/key.h"
#include "core/metarow.h"
#include "core/regioninfo.h"
#include "core/restpb.h"
#include "core/vec.h"
#include "rest/rest_priv.h"

#include <cjson/cJSON.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define JSON "application/json"

/* "/" + escaped table + suffix into *path. */
static int table_path(struct hb_buf *path, const char *table, const char *suffix,
                      struct hb_error *err)
{
	hb_buf_reset(path);
	if (hb_buf_addc(path, '/') || hb_rest_path_escape(path, table, strlen(table)) ||
	    (suffix && hb_buf_adds(path, suffix)))
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	return 0;
}

/* A header value for a message, as toStringBinary: no raw control bytes reach the terminal. */
static const char *shown_header(struct hb_buf *b, const char *s)
{
	hb_buf_reset(b);
	if (hb_tsb_append(b, s, strlen(s)) || hb_buf_add(b, "", 0))
		return "?";
	return b->data;
}

/* A 2xx JSON body is expected: anything else (a proxy's HTML page) is a server error. */
static int expect_json(const char *method, const char *path, const struct hb_rest_resp *r,
                       struct hb_error *err)
{
	struct hb_buf b = HB_BUF_INIT;
	int rc;

	if (!strncmp(r->content_type, JSON, strlen(JSON)))
		return 0;
	rc = hb_error_set(err, HB_ESERVER,
	                  "unexpected content type '%s' from %s %s%s (expected %s; is --rest "
	                  "pointing at an HBase REST gateway?)",
	                  r->content_type[0] ? shown_header(&b, r->content_type) : "none", method,
	                  r->prefix, path, JSON);
	hb_buf_release(&b);
	return rc;
}

/* GET path expecting 200 + JSON; what receives "GET path" for decoder messages. */
static int get_json(struct hb_rest *c, const char *path, struct hb_rest_resp *r, char *what,
                    size_t what_cap, struct hb_error *err)
{
	int rc = hb_rest_request(c, "GET", path, NULL, NULL, 0, 1, r, err);

	snprintf(what, what_cap, "GET %s", path);
	if (rc)
		return rc;
	if (r->status != 200)
		return hb_rest_status_error("GET", path, r, err);
	return expect_json("GET", path, r, err);
}

/* Decodes a fetched 200's body (hb_rest_resp_body; mapped from its spool file when r->map is
 * set) into out; what names the request ("GET PATH") in messages. */
typedef int (*body_decoder)(void *out, const struct hb_rest_resp *r, const char *what,
                            struct hb_error *err);

static int get_protobuf(struct hb_rest *c, const char *path, struct hb_rest_resp *r, char *what,
                        size_t what_cap, struct hb_error *err);

/*
 * GET path and decode its body with decode. accept NULL asks for JSON and expects a JSON 200;
 * HB_PROTOBUF_TYPE asks for protobuf as get_protobuf does. spool: the body may be large
 * (proportional to the cluster or the table), so it goes to a temporary file and is mapped.
 * *status (when not NULL) gets the last answer's HTTP status, 0 without one.
 */
static int get_decoded(struct hb_rest *c, const char *path, const char *accept, int spool,
                       body_decoder decode, void *out, long *status, struct hb_error *err)
{
	struct hb_rest_resp r;
	char what[600];
	int rc;

	hb_rest_resp_init(&r);
	r.spool = spool;
	rc = accept ? get_protobuf(c, path, &r, what, sizeof(what), err)
	            : get_json(c, path, &r, what, sizeof(what), err);
	if (status)
		*status = r.status;
	if (!rc)
		rc = decode(out, &r, what, err);
	hb_rest_resp_release(&r);
	return rc;
}

static int decode_version(void *out, const struct hb_rest_resp *r, const char *what,
                          struct hb_error *err)
{
	return hb_rest_decode_version(r->body.data, r->body.len, what, out, err);
}

int hb_rest_get_version(struct hb_rest *c, struct hb_rest_version *out, struct hb_error *err)
{
	memset(out, 0, sizeof(*out));
	return get_decoded(c, "/version/rest", NULL, 0, decode_version, out, NULL, err);
}

static int decode_cluster_version(void *out, const struct hb_rest_resp *r, const char *what,
                                  struct hb_error *err)
{
	return hb_rest_decode_cluster_version(r->body.data, r->body.len, what, out, err);
}

int hb_rest_get_cluster_version(struct hb_rest *c, char **out, struct hb_error *err)
{
	*out = NULL;
	return get_decoded(c, "/version/cluster", NULL, 0, decode_cluster_version, out, NULL, err);
}

struct status_want {
	struct hb_cluster_status *out;
	int regions;
	hb_region_load_fn fn;
	void *ctx;
};

static int is_protobuf(const char *ct);

/* A copy of n bytes with a NUL after them, or NULL. */
static char *strndup_bytes(const unsigned char *p, size_t n)
{
	char *s = malloc(n + 1);

	if (s) {
		memcpy(s, n ? (const void *)p : "", n);
		s[n] = 0;
	}
	return s;
}

/* A /status/cluster JSON body into w->out (the protobuf one is read as it arrives). */
static int decode_status(void *out, const struct hb_rest_resp *r, const char *what,
                         struct hb_error *err)
{
	const struct status_want *w = out;
	size_t blen;
	const char *body = hb_rest_resp_body(r, &blen);

	return hb_rest_decode_status_each(body, blen, what, w->out, w->regions, r->map != NULL,
	                                  w->fn, w->ctx, err);
}

/* StorageClusterStatus read as it arrives (core/restpb.h hb_statuspb_stream) into w->out, as
 * the JSON decoder fills it: nodes and dead names kept, each region's load handed to w->fn. */
struct status_stream {
	const struct status_want *w;
	struct hb_statuspb_stream ps;
	size_t lcap, dcap, scap;
	int started;
};

static int status_oom(struct hb_error *err)
{
	return hb_error_set(err, HB_ENOMEM, "out of memory");
}

/* A node name a callback may hold (audit's counts borrow them) kept until the status goes. */
static int keep_stale(struct status_stream *st, char *name)
{
	struct hb_cluster_status *out = st->w->out;

	if (HB_VEC_GROW(out->stale, st->scap, out->nstale + 1, 8))
		return HB_ENOMEM;
	out->stale[out->nstale++] = name;
	return 0;
}

static int status_node_pb(void *ctx, const struct hb_statuspb_node *n, struct hb_error *err)
{
	struct status_stream *st = ctx;
	struct hb_cluster_status *out = st->w->out;
	struct hb_node *node;

	if (n->index == out->nlive) {
		if (HB_VEC_GROW(out->live, st->lcap, out->nlive + 1, 8))
			return status_oom(err);
		node = &out->live[out->nlive];
		memset(node, 0, sizeof(*node));
		if (!(node->name = strndup_bytes(n->name, n->name_len)))
			return status_oom(err);
		out->nlive++;
	} else {
		node = &out->live[n->index];
		if (strlen(node->name) != n->name_len || memcmp(node->name, n->name, n->name_len)) {
			/* a name read again: the last one counts, the first stays for callbacks */
			char *name = strndup_bytes(n->name, n->name_len);

			if (!name || keep_stale(st, node->name)) {
				free(name);
				return status_oom(err);
			}
			node->name = name;
		}
	}
	node->start_code = n->start_code;
	node->requests = n->requests;
	node->heap_mb = n->heap_mb;
	node->max_heap_mb = n->max_heap_mb;
	return 0;
}

static int status_region_pb(void *ctx, const struct hb_statuspb_node *n,
                            const struct hb_statuspb_region *pr, struct hb_error *err)
{
	struct status_stream *st = ctx;
	struct hb_node *node = &st->w->out->live[n->index];
	struct hb_region_load rl;

	/* the node's counters as read so far (protobuf-java writes them before the regions) */
	node->start_code = n->start_code;
	node->requests = n->requests;
	node->heap_mb = n->heap_mb;
	node->max_heap_mb = n->max_heap_mb;
	if (!st->w->fn)
		return 0;
	memset(&rl, 0, sizeof(rl));
	rl.name = (unsigned char *)(pr->name_len ? pr->name : (const unsigned char *)"");
	rl.name_len = pr->name_len;
	rl.read_requests = pr->read_requests;
	rl.write_requests = pr->write_requests;
	rl.stores = pr->stores;
	rl.storefiles = pr->storefiles;
	rl.storefile_size_mb = pr->storefile_size_mb;
	rl.memstore_size_mb = pr->memstore_size_mb;
	return st->w->fn(st->w->ctx, node, &rl, err);
}

static int status_dead_pb(void *ctx, const unsigned char *name, size_t len, struct hb_error *err)
{
	struct status_stream *st = ctx;
	struct hb_cluster_status *out = st->w->out;

	if (HB_VEC_GROW(out->dead, st->dcap, out->ndead + 1, 8) ||
	    !(out->dead[out->ndead] = strndup_bytes(name, len)))
		return status_oom(err);
	out->ndead++;
	return 0;
}

static int status_wants(const char *content_type)
{
	return is_protobuf(content_type);
}

/* Each attempt's body from its first byte: what a cut attempt listed is forgotten (its node
 * names kept while the status lives: the callback may hold them). */
static int status_start(void *ctx, struct hb_error *err)
{
	struct status_stream *st = ctx;
	struct hb_cluster_status *out = st->w->out;
	size_t i;

	if (st->started) {
		for (i = 0; i < out->nlive; i++)
			if (keep_stale(st, out->live[i].name))
				return status_oom(err);
		out->nlive = 0;
		for (i = 0; i < out->ndead; i++)
			free(out->dead[i]);
		out->ndead = 0;
		hb_statuspb_stream_reset(&st->ps);
	}
	st->started = 1;
	return 0;
}

static int status_push(void *ctx, const char *p, size_t n, struct hb_error *err)
{
	return hb_statuspb_stream_push(&((struct status_stream *)ctx)->ps, p, n, err);
}

/* /status/cluster lists every region of the cluster: a few hundred bytes each in JSON, about
 * a hundred in protobuf. The status command's full listing stays JSON (its counters are read
 * by their JSON names in every version); the audit's reads ask for protobuf. */
static int get_status(struct hb_rest *c, struct hb_cluster_status *out, int want_regions,
                      hb_region_load_fn fn, void *ctx, struct hb_error *err)
{
	struct status_want w = {out, want_regions, fn, ctx};
	struct status_stream st;
	struct hb_statuspb_fns fns = {status_node_pb, status_region_pb, status_dead_pb, &st};
	struct hb_rest_stream ops = {status_wants, status_start, status_push, &st};
	static const char path[] = "/status/cluster";
	struct hb_rest_resp r;
	char what[600];
	int rc;

	memset(out, 0, sizeof(*out));
	if (want_regions)
		return get_decoded(c, path, NULL, 1, decode_status, &w, NULL, err);
	memset(&st, 0, sizeof(st));
	st.w = &w;
	snprintf(what, sizeof(what), "GET %s", path);
	hb_statuspb_stream_init(&st.ps, what, &fns);
	hb_rest_resp_init(&r);
	/* a JSON answer (protobuf refused) is kept in a temporary file and mapped */
	r.spool = 1;
	r.stream = &ops;
	rc = get_protobuf(c, path, &r, what, sizeof(what), err);
	if (!rc && !r.streamed && is_protobuf(r.content_type)) {
		/* an answer with no byte to stream (an empty body) is read as it is */
		size_t blen;
		const char *body = hb_rest_resp_body(&r, &blen);

		rc = status_start(&st, err);
		if (!rc)
			rc = hb_statuspb_stream_push(&st.ps, body, blen, err);
	}
	if (!rc && (r.streamed || is_protobuf(r.content_type))) {
		rc = hb_statuspb_stream_end(&st.ps, err);
		out->regions = st.ps.regions;
		out->requests = st.ps.requests;
		out->average_load = st.ps.average_load;
		if (rc)
			hb_cluster_status_release(out);
	} else if (!rc) {
		/* JSON after a protobuf attempt that was cut: that attempt's names are kept */
		struct hb_cluster_status cut = *out;
		size_t i;

		st.scap = 0;
		rc = decode_status(&w, &r, what, err);
		for (i = 0; i < cut.nlive + cut.nstale; i++) {
			char *name = i < cut.nlive ? cut.live[i].name : cut.stale[i - cut.nlive];

			if (rc || keep_stale(&st, name))
				free(name);
		}
		for (i = 0; i < cut.ndead; i++)
			free(cut.dead[i]);
		free(cut.live);
		free(cut.stale);
		free(cut.dead);
	} else {
		hb_cluster_status_release(out);
	}
	hb_rest_resp_release(&r);
	hb_statuspb_stream_release(&st.ps);
	return rc;
}

int hb_rest_get_status(struct hb_rest *c, struct hb_cluster_status *out, struct hb_error *err)
{
	return get_status(c, out, 1, NULL, NULL, err);
}

int hb_rest_get_status_nodes(struct hb_rest *c, struct hb_cluster_status *out, struct hb_error *err)
{
	return get_status(c, out, 0, NULL, NULL, err);
}

int hb_rest_get_status_each(struct hb_rest *c, struct hb_cluster_status *out, hb_region_load_fn fn,
                            void *ctx, struct hb_error *err)
{
	return get_status(c, out, 0, fn, ctx, err);
}

static int decode_tables(void *out, const struct hb_rest_resp *r, const char *what,
                         struct hb_error *err)
{
	return hb_rest_decode_tables(r->body.data, r->body.len, what, out, err);
}

int hb_rest_list_tables(struct hb_rest *c, struct hb_names *out, struct hb_error *err)
{
	return get_decoded(c, "/", NULL, 0, decode_tables, out, NULL, err);
}

struct namespace_find {
	const char *ns;
	int *exists;
};

/* {"Namespace": ["default", "hbase", ...]} (NamespacesModel): whether it lists ns. */
static int decode_namespaces(void *out, const struct hb_rest_resp *r, const char *what,
                             struct hb_error *err)
{
	const struct namespace_find *f = out;
	cJSON *doc = cJSON_ParseWithLength(r->body.data, r->body.len), *list, *it;
	int rc = 0;

	list = doc ? cJSON_GetObjectItemCaseSensitive(doc, "Namespace") : NULL;
	if (!cJSON_IsArray(list)) {
		rc = hb_error_malformed(err, what, "no Namespace list");
	} else {
		cJSON_ArrayForEach(it, list)
		{
			if (cJSON_IsString(it) && !strcmp(it->valuestring, f->ns))
				*f->exists = 1;
		}
	}
	cJSON_Delete(doc);
	return rc;
}

int hb_rest_namespace_exists(struct hb_rest *c, const char *ns, int *exists, struct hb_error *err)
{
	struct namespace_find f = {ns, exists};

	*exists = 0;
	return get_decoded(c, "/namespaces", NULL, 0, decode_namespaces, &f, NULL, err);
}

int hb_rest_create_namespace(struct hb_rest *c, const char *ns, struct hb_error *err)
{
	struct hb_buf path = HB_BUF_INIT;
	struct hb_rest_resp r;
	int rc = 0;

	hb_rest_resp_init(&r);
	if (hb_buf_adds(&path, "/namespaces/") || hb_rest_path_escape(&path, ns, strlen(ns)))
		rc = hb_error_set(err, HB_ENOMEM, "out of memory");
	if (!rc)
		rc = hb_rest_request(c, "POST", path.data, JSON, "{}", 2, 0, &r, err);
	if (!rc && r.status != 201 && r.status != 200)
		rc = hb_rest_status_error("POST", path.data, &r, err);
	hb_rest_resp_release(&r);
	hb_buf_release(&path);
	return rc;
}

int hb_rest_table_exists(struct hb_rest *c, const char *table, int *exists, struct hb_error *err)
{
	struct hb_buf path = HB_BUF_INIT;
	struct hb_rest_resp r;
	int rc;

	*exists = 0;
	hb_rest_resp_init(&r);
	rc = table_path(&path, table, "/exists", err);
	if (!rc)
		rc = hb_rest_request(c, "GET", path.data, NULL, NULL, 0, 1, &r, err);
	/* HBase's ExistsResource answers an empty 200 (exists), 404 "Not found" or 503. A 200
	 * with a body came from something else (a proxy page): it proves nothing, and taking it
	 * for "exists" would verify or skip a table that is not there. */
	if (!rc) {
		if (r.status == 200 && r.body.len)
			rc = hb_error_set(
			    err, HB_ESERVER,
			    "unexpected answer to GET %s: HTTP 200 with a %zu-byte body "
			    "(HBase answers an empty 200)",
			    path.data, r.body.len);
		else if (r.status == 200)
			*exists = 1;
		else if (r.status != 404)
			rc = hb_rest_status_error("GET", path.data, &r, err);
	}
	hb_rest_resp_release(&r);
	hb_buf_release(&path);
	return rc;
}

static int decode_schema(void *out, const struct hb_rest_resp *r, const char *what,
                         struct hb_error *err)
{
	return hb_rest_decode_schema(r->body.data, r->body.len, what, out, err);
}

int hb_rest_get_schema(struct hb_rest *c, const char *table, struct hb_schema *out,
                       struct hb_error *err)
{
	struct hb_buf path = HB_BUF_INIT;
	int rc = table_path(&path, table, "/schema", err);

	if (!rc)
		rc = get_decoded(c, path.data, NULL, 0, decode_schema, out, NULL, err);
	hb_buf_release(&path);
	return rc;
}

int hb_rest_create_schema(struct hb_rest *c, const struct hb_schema *s, struct hb_error *err)
{
	struct hb_buf path = HB_BUF_INIT;
	struct hb_rest_resp r;
	char *body = NULL;
	int rc;

	if (!s->table || !*s->table)
		return hb_error_set(err, HB_EINVAL, "schema without a table name");
	hb_rest_resp_init(&r);
	rc = table_path(&path, s->table, "/schema", err);
	if (!rc)
		rc = hb_rest_encode_schema(s, &body, err);
	/* Never retried: a repeated PUT on a table that now exists would replace it. */
	if (!rc)
		rc = hb_rest_request(c, "PUT", path.data, JSON, body, strlen(body), 0, &r, err);
	if (!rc) {
		if (r.status == 304)
			rc =
			    hb_error_set(err, HB_ESAFETY,
			                 "PUT %s: table '%s' was created by someone else meanwhile",
			                 path.data, s->table);
		else if (r.status == 200 && r.body.len)
			/* SchemaResource answers a create with 201 Created (docs/hbase-wire.md
			 * §2): a 200 with a body is some other page, and nothing says the table
			 * was made (the caller checks whether it exists now). */
			rc = hb_error_set(
			    err, HB_ESERVER,
			    "unexpected answer to PUT %s: HTTP 200 with a %zu-byte body "
			    "(HBase answers a create with 201 Created)",
			    path.data, r.body.len);
		/* A 201 counts whatever its body: SchemaResource sends it only after the
		 * create returned, and the read-back that follows decides. */
		else if (r.status != 201 && r.status != 200)
			rc = hb_rest_status_error("PUT", path.data, &r, err);
	}
	free(body);
	hb_rest_resp_release(&r);
	hb_buf_release(&path);
	return rc;
}

/*
 * REST builds each region name with Bytes.toString(startKey), which mangles binary start keys
 * (U+FFFD, NUL). The name is a pure function of (table, start key, id) (docs/hbase-wire.md §3,
 * §6.2), so each region is handed on with the exact bytes HBase has: "table,start,id.md5hex.".
 */
struct named_regions {
	const char *asked; /* the table as asked for, which the listing must name */
	const char *table; /* as in region names; NULL: system tables keep the old format */
	hb_region_fn fn;
	hb_region_restart_fn restart; /* NULL: fn cannot start again, so the body is kept whole */
	void *ctx;
	size_t n;
	struct hb_buf name;
	struct hb_buf prev; /* the previous region's start, end and id, to pass over replicas */
};

/* A table with region replicas lists every replica of a region in /T/regions, one after the
 * other, each with the primary's start, end, id and name (RegionsResource has no replica id;
 * seen on 2.6.1 with REGION_REPLICATION 2). The region is handed on once, as meta lists it. */
static int same_bytes(const void *a, const void *b, size_t n)
{
	return !n || !memcmp(a, b, n);
}

static int same_as_previous(struct named_regions *s, const struct hb_region *r, int *same)
{
	size_t head = 2 * sizeof(size_t) + sizeof(r->id);
	size_t n = head + r->start_len + r->end_len;

	*same = s->prev.len == n && same_bytes(s->prev.data, &r->start_len, sizeof(size_t)) &&
	        same_bytes(s->prev.data + sizeof(size_t), &r->end_len, sizeof(size_t)) &&
	        same_bytes(s->prev.data + 2 * sizeof(size_t), &r->id, sizeof(r->id)) &&
	        same_bytes(s->prev.data + head, r->start, r->start_len) &&
	        same_bytes(s->prev.data + head + r->start_len, r->end, r->end_len);
	if (*same)
		return 0;
	hb_buf_reset(&s->prev);
	return hb_buf_add(&s->prev, &r->start_len, sizeof(size_t)) ||
	       hb_buf_add(&s->prev, &r->end_len, sizeof(size_t)) ||
	       hb_buf_add(&s->prev, &r->id, sizeof(r->id)) ||
	       (r->start_len && hb_buf_add(&s->prev, r->start, r->start_len)) ||
	       (r->end_len && hb_buf_add(&s->prev, r->end, r->end_len));
}

/* The encoded part of the name the gateway sent into enc, when that name is exactly the
 * prefix built (n bytes) and ".<32 lower-case hex>.": a start key that is valid UTF-8 comes
 * through Bytes.toString unchanged, and HBase took the MD5 over those very bytes (§3), so it
 * need not be taken again. 0 when the name is anything else. */
static int sent_encoded(const struct hb_region *r, const char *prefix, size_t n, char enc[33])
{
	const unsigned char *p;
	unsigned hex = 1;
	size_t k;

	if (!r->name || r->name_len != n + 34 || memcmp(r->name, prefix, n) || r->name[n] != '.' ||
	    r->name[n + 33] != '.')
		return 0;
	p = r->name + n + 1;
	for (k = 0; k < 32; k++) /* no branch on the digits */
		hex &= (p[k] - (unsigned)'0' < 10u) | (p[k] - (unsigned)'a' < 6u);
	if (!hex)
		return 0;
	memcpy(enc, p, 32);
	enc[32] = 0;
	return 1;
}

/* Appends ",<id>" (decimal). */
static int add_id(struct hb_buf *b, uint64_t id)
{
	return hb_buf_addc(b, ',') || hb_buf_add_uint(b, id);
}

static int rebuild_name(void *ctx, const struct hb_region *r, struct hb_error *err)
{
	struct named_regions *s = ctx;
	struct hb_region with = *r;
	char enc[33];
	size_t prefix;
	int same;

	if (same_as_previous(s, r, &same))
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	if (same)
		return 0;
	s->n++;
	if (!s->table)
		return s->fn(s->ctx, r, err);
	hb_buf_reset(&s->name);
	if (hb_buf_adds(&s->name, s->table) || hb_buf_addc(&s->name, ',') ||
	    hb_buf_add(&s->name, r->start, r->start_len) || add_id(&s->name, r->id))
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	prefix = s->name.len;
	if (!sent_encoded(r, s->name.data, prefix, enc)) {
		int rc = hb_region_encoded_name(enc, s->name.data, prefix, err);

		if (rc)
			return rc;
	}
	if (hb_buf_addc(&s->name, '.') || hb_buf_add(&s->name, enc, 32) ||
	    hb_buf_addc(&s->name, '.'))
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	with.name = (unsigned char *)s->name.data;
	with.name_len = s->name.len;
	with.encoded = enc;
	with.name_canonical = r->replica_id <= 0; /* no _REPL part above */
	return s->fn(s->ctx, &with, err);
}

/* Whether a content type is one of the protobuf types HBase answers with. */
static int is_type(const char *ct, const char *type)
{
	size_t n = strlen(type);

	return !strncmp(ct, type, n) && (!ct[n] || ct[n] == ';' || ct[n] == ' ');
}

static int is_protobuf(const char *ct)
{
	return is_type(ct, HB_PROTOBUF_TYPE) || is_type(ct, HB_PROTOBUF_TYPE_IETF);
}

/* An answer to a protobuf GET that says to ask for JSON instead: refused (406, 415) or a 200
 * of a type that is neither protobuf nor JSON (docs/hbase-wire.md §3.1). */
static int pb_refused(const struct hb_rest_resp *r)
{
	return r->status == 406 || r->status == 415 ||
	       (r->status == 200 && !is_protobuf(r->content_type) &&
	        !is_type(r->content_type, JSON));
}

/* A TableInfo body, region by region (docs/hbase-wire.md §3.1); a mapped body's pages are
 * given back as the reader moves on. */
static int decode_regions_pb(const char *body, size_t blen, int mapped, const char *what,
                             const char *table, hb_region_fn fn, void *ctx, struct hb_error *err)
{
	struct hb_tableinfo_reader rd;
	struct hb_region reg;
	const char *drop = mapped ? body : NULL;
	int rc;

	hb_tableinfo_reader_init(&rd, body, blen, what, table);
	while ((rc = hb_tableinfo_next(&rd, &reg, err)) == 1) {
		if ((rc = fn(ctx, &reg, err)))
			break;
		hb_rest_drop_behind(&drop, body + rd.pos);
	}
	hb_tableinfo_reader_release(&rd);
	return rc;
}

/*
 * GET path asking for protobuf (/T/regions' TableInfo, a stateless scan's CellSet chunks:
 * about half the bytes of the JSON and no base64). A gateway or proxy that refuses it (406,
 * 415) or answers another type is asked again for JSON, unless its answer is JSON already,
 * and asked for JSON from the start for the rest of the run (docs/hbase-wire.md §3.1).
 */
static int get_protobuf(struct hb_rest *c, const char *path, struct hb_rest_resp *r, char *what,
                        size_t what_cap, struct hb_error *err)
{
	int rc;

	if (!hb_rest_protobuf_refused(c)) {
		r->accept = HB_PROTOBUF_TYPE;
		rc = hb_rest_request(c, "GET", path, NULL, NULL, 0, 1, r, err);
		snprintf(what, what_cap, "GET %s", path);
		if (rc)
			return rc;
		if (!pb_refused(r))
			return r->status == 200 ? 0 : hb_rest_status_error("GET", path, r, err);
		hb_rest_note_protobuf_refused(c);
	}
	r->accept = NULL;
	return get_json(c, path, r, what, what_cap, err);
}

/* A /T/regions body, protobuf (TableInfo) or JSON, each region renamed and handed on. */
static int decode_regions(void *out, const struct hb_rest_resp *r, const char *what,
                          struct hb_error *err)
{
	struct named_regions *s = out;
	size_t blen;
	const char *body = hb_rest_resp_body(r, &blen);
	int rc;

	if (is_protobuf(r->content_type))
		rc = decode_regions_pb(body, blen, r->map != NULL, what, s->asked, rebuild_name, s,
		                       err);
	else
		rc = hb_rest_decode_table_regions_each(body, blen, what, s->asked, r->map != NULL,
		                                       rebuild_name, s, err);
	/* Every table has a region: branch-1 RegionsResource answers 200 with none for a table
	 * that does not exist (no exists() check before the meta scan). */
	if (!rc && !s->n)
		rc = hb_error_set(err, HB_ENOTFOUND, "%s: no regions listed", what);
	return rc;
}

/* /T/regions' TableInfo read as it arrives, no copy of the body kept (core/restpb.h). */
struct regions_stream {
	struct named_regions *s;
	struct hb_tableinfo_stream ts;
};

static int stream_wants(const char *content_type)
{
	return is_protobuf(content_type);
}

static int stream_start(void *ctx, struct hb_error *err)
{
	struct regions_stream *st = ctx;

	hb_tableinfo_stream_reset(&st->ts);
	st->s->n = 0;
	hb_buf_reset(&st->s->prev);
	return st->s->restart(st->s->ctx) ? hb_error_set(err, HB_ENOMEM, "out of memory") : 0;
}

static int stream_push(void *ctx, const char *p, size_t n, struct hb_error *err)
{
	struct regions_stream *st = ctx;

	return hb_tableinfo_stream_push(&st->ts, p, n, rebuild_name, st->s, err);
}

/* GET /T/regions (path) into s, streamed when s can start again, else kept and decoded. */
static int get_regions(struct hb_rest *c, const char *path, struct named_regions *s, long *status,
                       struct hb_error *err)
{
	struct regions_stream st;
	struct hb_rest_stream ops = {stream_wants, stream_start, stream_push, &st};
	struct hb_rest_resp r;
	char what[600];
	int rc;

	st.s = s;
	snprintf(what, sizeof(what), "GET %s", path);
	hb_tableinfo_stream_init(&st.ts, what, s->asked);
	hb_rest_resp_init(&r);
	r.spool = 1;
	r.stream = s->restart ? &ops : NULL;
	rc = get_protobuf(c, path, &r, what, sizeof(what), err);
	*status = r.status;
	if (!rc && r.streamed) {
		rc = hb_tableinfo_stream_end(&st.ts, rebuild_name, s, err);
		if (!rc && !s->n)
			rc = hb_error_set(err, HB_ENOTFOUND, "%s: no regions listed", what);
	} else if (!rc) {
		rc = decode_regions(s, &r, what, err);
	}
	hb_rest_resp_release(&r);
	hb_tableinfo_stream_release(&st.ts);
	return rc;
}

int hb_rest_regions_scan(struct hb_rest *c, const char *table, hb_region_fn fn, void *ctx,
                         struct hb_error *err)
{
	return hb_rest_regions_stream(c, table, fn, NULL, ctx, err);
}

int hb_rest_regions_stream(struct hb_rest *c, const char *table, hb_region_fn fn,
                           hb_region_restart_fn restart, void *ctx, struct hb_error *err)
{
	struct hb_buf path = HB_BUF_INIT;
	struct named_regions s;
	long status = 0;
	int rc;

	memset(&s, 0, sizeof(s));
	s.asked = table;
	s.fn = fn;
	s.restart = restart;
	s.ctx = ctx;
	/* TableName.getName() omits the default namespace (docs/hbase-wire.md §3). */
	if (strncmp(table, "hbase:", 6))
		s.table = strncmp(table, "default:", 8) ? table : table + 8;
	rc = table_path(&path, table, "/regions", err);
	/* about 120 bytes a region in protobuf, 180 in JSON */
	if (!rc)
		rc = get_regions(c, path.data, &s, &status, err);
	/* RegionsResource dereferences the location of a region that never opened: 500 (NPE). */
	if (rc == HB_ESERVER && status == 500) {
		rc = HB_ENOLOCATION;
		if (err)
			err->code = rc;
	}
	hb_buf_release(&path);
	hb_buf_release(&s.name);
	hb_buf_release(&s.prev);
	return rc;
}

static int push_region(void *ctx, const struct hb_region *r, struct hb_error *err)
{
	return hb_regions_push(ctx, r) ? hb_error_set(err, HB_ENOMEM, "out of memory") : 0;
}

/* A list being filled, and where it started. */
struct list_from {
	struct hb_regions *rs;
	size_t n0;
};

static int push_to_list(void *ctx, const struct hb_region *r, struct hb_error *err)
{
	return push_region(((struct list_from *)ctx)->rs, r, err);
}

static int restart_list(void *ctx)
{
	struct list_from *l = ctx;

	hb_regions_truncate(l->rs, l->n0);
	return 0;
}

int hb_rest_get_regions(struct hb_rest *c, const char *table, struct hb_regions *out,
                        struct hb_error *err)
{
	struct list_from l = {out, out->n};
	int rc = hb_rest_regions_stream(c, table, push_to_list, restart_list, &l, err);

	if (rc)
		hb_regions_truncate(out, l.n0);
	else
		hb_regions_sort(out);
	return rc;
}

/* ---- Stateful scanners ---- */

struct scan_state {
	hb_scan_row_fn fn;
	void *ctx;
	struct hb_row pending; /* the last row seen; it may continue in the next batch */
	int have_pending;
	struct hb_buf last_done; /* key of the last row handed to fn */
	int have_done;
	size_t rows;
	struct hb_rest *c;
	int json;   /* scanner batches are asked for as JSON: protobuf was refused */
	int reopen; /* the scanner ended to ask for JSON from a new one: not a failure */
	/* A stateless scan's answer read again after rows were handed on: the rows up to the
	 * last one handed on (last_done, met when skip_seen) are passed over. */
	int skipping, skip_seen;
};

static void scan_state_init(struct scan_state *st, struct hb_rest *c, hb_scan_row_fn fn, void *ctx)
{
	memset(st, 0, sizeof(*st));
	st->fn = fn;
	st->ctx = ctx;
	st->c = c;
	st->json = c && hb_rest_protobuf_refused(c);
	hb_row_init(&st->pending);
	hb_buf_init(&st->last_done, 0);
}

static void scan_state_release(struct scan_state *st)
{
	hb_row_release(&st->pending);
	hb_buf_release(&st->last_done);
}

static int flush_pending(struct scan_state *st, struct hb_error *err)
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
	struct scan_state *st = ctx;
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
	if ((rc = flush_pending(st, err)))
		return rc;
	st->pending = *frag; /* take ownership */
	hb_row_init(frag);
	st->have_pending = 1;
	return 0;
}

static int b64_field(cJSON *o, const char *name, const void *p, size_t n)
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
	ok = ok && b64_field(o, "startRow", start, start_len);
	if (ok && spec->end_len)
		ok = b64_field(o, "endRow", spec->end, spec->end_len);
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
	rc = hb_rest_request(c, "POST", path, JSON, body, strlen(body), 0, r, err);
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
		    shown_header(spath, r->location));
	return 0;
}

typedef int (*fragment_fn)(void *ctx, struct hb_row *frag, struct hb_error *err);

/* The row a protobuf reader has just read (key) with its cells, handed to fn as the JSON
 * decoder hands a row. */
static int pb_row(struct hb_scanpb_reader *rd, const unsigned char *key, size_t key_len,
                  fragment_fn fn, void *ctx, struct hb_error *err)
{
	struct hb_pb_cell cell;
	struct hb_row frag;
	int rc;

	hb_row_init(&frag);
	if (!(frag.key = malloc(key_len + 1)))
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	if (key_len)
		memcpy(frag.key, key, key_len);
	frag.key[key_len] = 0;
	frag.key_len = key_len;
	while ((rc = hb_scanpb_next_cell(rd, &cell, err)) == 1)
		if (hb_row_add_cell(&frag, cell.column, cell.column_len, cell.value, cell.value_len,
		                    cell.timestamp)) {
			rc = hb_error_set(err, HB_ENOMEM, "out of memory");
			break;
		}
	if (!rc)
		rc = fn(ctx, &frag, err);
	hb_row_release(&frag);
	return rc;
}

/* Hands each Row a protobuf reader reads to fn. */
static int pb_rows(struct hb_scanpb_reader *rd, fragment_fn fn, void *ctx, struct hb_error *err)
{
	const unsigned char *key;
	size_t key_len;
	int rc;

	while ((rc = hb_scanpb_next_row(rd, &key, &key_len, err)) == 1)
		if ((rc = pb_row(rd, key, key_len, fn, ctx, err)))
			return rc;
	return rc;
}

/* A row GET's or scanner batch's protobuf body: one CellSet, no length in front. */
static int decode_cellset_pb(const char *body, size_t blen, const char *what, fragment_fn fn,
                             void *ctx, struct hb_error *err)
{
	struct hb_scanpb_reader rd;
	int rc = hb_cellsetpb_reader_init(&rd, body, blen, what, err);

	return rc ? rc : pb_rows(&rd, fn, ctx, err);
}

/* GETs the open scanner at spath until it is exhausted (204), each batch decoded into st.
 * *open becomes 0 when the server removed the scanner itself; *resumable says a failure
 * may be resumed with a new scanner. */
static int scanner_read(struct hb_rest *c, const char *table, const char *spath,
                        struct scan_state *st, struct hb_rest_resp *r, int *open, int *resumable,
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
			return flush_pending(st, err);
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
		if (!st->json && pb_refused(r)) {
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
		if (is_protobuf(r->content_type))
			rc = decode_cellset_pb(r->body.data, r->body.len, what, on_fragment, st,
			                       err);
		else if (!(rc = expect_json("GET", spath, r, err)))
			rc = hb_rest_decode_cellset(r->body.data, r->body.len, what, on_fragment,
			                            st, err);
		if (rc)
			return rc;
		hb_rest_report_progress(c, st->rows, 0);
	}
}

static int scan_once(struct hb_rest *c, const char *table, const struct hb_scan_spec *spec,
                     const void *start, size_t start_len, struct scan_state *st, int *resumable,
                     struct hb_error *err)
{
	struct hb_buf path = HB_BUF_INIT, spath = HB_BUF_INIT;
	struct hb_rest_resp r;
	char *body = NULL;
	int rc, open = 0;

	*resumable = 0;
	hb_rest_resp_init(&r);
	rc = table_path(&path, table, "/scanner", err);
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

/*
 * Bytes that reach HBase unchanged through a URL: TableResource hands the stateless scan's
 * startrow/endrow/column parameters, and RowSpec the row and columns of a path, to
 * Bytes.toBytes(String) after percent-decoding as UTF-8, so only text round-trips. hbtab
 * sends those only when every byte is printable ASCII.
 */
static int url_safe(const void *p, size_t n)
{
	const unsigned char *b = p;
	size_t i;

	for (i = 0; i < n; i++)
		if (b[i] < 0x20 || b[i] > 0x7e)
			return 0;
	return 1;
}

/* A stateless scan can express the spec: printable bounds and columns. */
static int stateless_ok(const struct hb_scan_spec *spec)
{
	const char *const *col;

	/* A FilterModel (JSON) has no stateless form: the filter language lacks some filters
	 * (RandomRowFilter is not registered in ParseFilter). */
	if (spec->filter)
		return 0;
	if (spec->lang_filter && !url_safe(spec->lang_filter, strlen(spec->lang_filter)))
		return 0;
	if ((spec->start && !url_safe(spec->start, spec->start_len)) ||
	    (spec->end && !url_safe(spec->end, spec->end_len)))
		return 0;
	for (col = spec->columns; col && *col; col++)
		if (!url_safe(*col, strlen(*col)))
			return 0;
	return 1;
}

/* A stateless scan's protobuf answer read as it arrives (core/restpb.h hb_scanpb_stream). */
struct scan_stream {
	struct scan_state *st;
	struct hb_scanpb_stream ps;
	int started;
	int unframeable; /* a chunk could not be framed: the scan is asked for as JSON */
};

static int scan_row(void *ctx, struct hb_scanpb_reader *rd, const unsigned char *key,
                    size_t key_len, struct hb_error *err)
{
	return pb_row(rd, key, key_len, on_fragment, ctx, err);
}

static int scan_wants(const char *content_type)
{
	return is_protobuf(content_type);
}

/* The answer is read again from its start: the row held (it may have had more cells to come)
 * is dropped, and the rows up to the last one handed on are passed over. */
static void scan_forget(struct scan_stream *ss)
{
	struct scan_state *st = ss->st;

	hb_row_release(&st->pending);
	st->have_pending = 0;
	st->skipping = st->have_done;
	st->skip_seen = 0;
	hb_scanpb_stream_reset(&ss->ps);
}

static int scan_start(void *ctx, struct hb_error *err)
{
	struct scan_stream *ss = ctx;

	(void)err;
	if (ss->started)
		scan_forget(ss);
	ss->started = 1;
	return 0;
}

/* A chunk that cannot be framed (HB_EINVAL) ends the request and is noted. */
static int scan_noted(struct scan_stream *ss, int rc)
{
	if (rc == HB_EINVAL)
		ss->unframeable = 1;
	return rc;
}

static int scan_push(void *ctx, const char *p, size_t n, struct hb_error *err)
{
	struct scan_stream *ss = ctx;

	return scan_noted(ss, hb_scanpb_stream_push(&ss->ps, p, n, scan_row, ss->st, err));
}

/* The protobuf answer's end: a streamed one's last chunks, or the whole of one that was kept
 * (an empty body brings no byte to stream; a body mapped from its spool file is read a MiB at
 * a time, the pages read given back). */
static int scan_pb_end(struct scan_stream *ss, const struct hb_rest_resp *r, struct hb_error *err)
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
static int stateless_path(struct hb_buf *path, const char *table, const struct hb_scan_spec *spec,
                          struct hb_error *err)
{
	const char *const *col;
	int rc = table_path(path, table, "/*?startrow=", err);

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
static int decode_cellset_kept(const struct hb_rest_resp *r, const char *what,
                               struct scan_state *st, struct hb_error *err)
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
                          struct scan_state *st, struct hb_error *err)
{
	struct hb_buf path = HB_BUF_INIT;
	struct hb_rest_resp r;
	struct scan_stream ss;
	struct hb_rest_stream ops = {scan_wants, scan_start, scan_push, &ss};
	char what[700];
	int rc;

	hb_rest_resp_init(&r);
	memset(&ss, 0, sizeof(ss));
	ss.st = st;
	if ((rc = stateless_path(&path, table, spec, err)))
		goto done;
	snprintf(what, sizeof(what), "GET %s", path.data);
	hb_scanpb_stream_init(&ss.ps, what);
	/* a JSON answer (about 600 bytes a region for a meta scan) is kept in a temporary file */
	r.spool = 1;
	r.stream = &ops;
	rc = spec->json ? get_json(c, path.data, &r, what, sizeof(what), err)
	                : get_protobuf(c, path.data, &r, what, sizeof(what), err);
	if (!rc && (r.streamed || is_protobuf(r.content_type)))
		rc = scan_pb_end(&ss, &r, err);
	/* A chunk of 64 KiB or more has a wrapped length that may not be framed
	 * (docs/hbase-wire.md §3.1): the scan is asked for again as JSON, the rows handed on
	 * so far passed over. */
	if (rc == HB_EINVAL && ss.unframeable) {
		r.accept = NULL;
		rc = get_json(c, path.data, &r, what, sizeof(what), err);
	}
	if (!rc && !r.streamed && !is_protobuf(r.content_type)) {
		/* JSON after protobuf that was read in part (cut, or not framed) */
		if (ss.started)
			scan_forget(&ss);
		rc = decode_cellset_kept(&r, what, st, err);
	}
	if (!rc && st->skipping && !st->skip_seen)
		rc =
		    hb_error_set(err, HB_ESERVER,
		                 "%s: the answer asked for again no longer lists the last row read "
		                 "before the first one was cut",
		                 what);
	if (!rc)
		rc = flush_pending(st, err);
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
	struct scan_state st;
	struct hb_buf start = HB_BUF_INIT;
	int rc, resumable;
	long tries = 0;

	scan_state_init(&st, c, fn, ctx);
	if (stateless_ok(spec)) {
		rc = stateless_scan(c, table, spec, &st, err);
		scan_state_release(&st);
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
	scan_state_release(&st);
	hb_buf_release(&start);
	return rc;
}

/* ---- Sampling row keys ---- */

/* splitmix64: a small deterministic generator for thinning decisions. */
static uint64_t mix_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

int hb_rest_sample_filter(struct hb_buf *out, double chance)
{
	cJSON *o = cJSON_CreateObject(), *list, *f;
	char *text = NULL;
	int ok = o != NULL;

	/* FilterModel: a FilterList (op = FilterList.Operator) of typed filters;
	 * RandomRowFilter's probability is the Float field "chance" */
	ok = ok && cJSON_AddStringToObject(o, "type", "FilterList");
	ok = ok && cJSON_AddStringToObject(o, "op", "MUST_PASS_ALL");
	list = ok ? cJSON_AddArrayToObject(o, "filters") : NULL;
	ok = list != NULL;
	if (ok && chance < 1) {
		f = cJSON_CreateObject();
		ok = f && cJSON_AddItemToArray(list, f) &&
		     cJSON_AddStringToObject(f, "type", "RandomRowFilter") &&
		     cJSON_AddNumberToObject(f, "chance", chance);
	}
	if (ok) {
		f = cJSON_CreateObject();
		ok = f && cJSON_AddItemToArray(list, f) &&
		     cJSON_AddStringToObject(f, "type", "FirstKeyOnlyFilter");
	}
	if (ok) {
		f = cJSON_CreateObject();
		ok = f && cJSON_AddItemToArray(list, f) &&
		     cJSON_AddStringToObject(f, "type", "KeyOnlyFilter");
	}
	if (ok)
		text = cJSON_PrintUnformatted(o);
	cJSON_Delete(o);
	if (!text)
		return HB_ENOMEM;
	hb_buf_reset(out);
	ok = !hb_buf_adds(out, text);
	free(text);
	return ok ? 0 : HB_ENOMEM;
}

struct sampler {
	struct hb_keys *keys;
	size_t max_rows;
	uint64_t rng;
	double chance;
	struct hb_buf last; /* the last key seen */
	int have_last;
};

#define SAMPLE_RESTART    1
#define SAMPLE_SHORT_ENDS 3 /* scans that ended early a sample goes on after */

/* Keeps each key with probability 1/2. */
static int thin_half(struct sampler *s)
{
	struct hb_keys kept;
	size_t i, kl;
	int rc = 0;

	hb_keys_init(&kept);
	for (i = 0; i < s->keys->n && !rc; i++) {
		const unsigned char *k = hb_keys_at(s->keys, i, &kl);

		if (mix_next(&s->rng) >> 63)
			rc = hb_keys_push(&kept, k, kl);
	}
	if (rc) {
		hb_keys_release(&kept);
		return rc;
	}
	hb_keys_release(s->keys);
	*s->keys = kept;
	return 0;
}

static int sample_row(void *ctx, const struct hb_row *row, struct hb_error *err)
{
	struct sampler *s = ctx;

	hb_buf_reset(&s->last);
	if (hb_buf_add(&s->last, row->key, row->key_len))
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	s->have_last = 1;
	/* hbtab's own metadata row is not data: every sampling command leaves it out */
	if (row->key_len == strlen(HB_METAROW_ROW) &&
	    !memcmp(row->key, HB_METAROW_ROW, row->key_len))
		return 0;
	if (hb_keys_push(s->keys, row->key, row->key_len))
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	if (s->keys->n < 2 * s->max_rows)
		return 0;
	/* Too many: halve the chance for the rest of the table and thin what we hold, so
	 * every row was kept with the same probability. */
	s->chance /= 2;
	if (thin_half(s))
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	return SAMPLE_RESTART;
}

/* The rows after the last one a sample's scan saw, counted up to a bound (that row itself, a
 * stateless scan's first, and hbtab's own metadata row left out, as the sample leaves it). */
struct tail_count {
	const struct hb_buf *last; /* NULL: none seen */
	size_t n, bound;
};

static int count_tail_row(void *ctx, const struct hb_row *row, struct hb_error *err)
{
	struct tail_count *t = ctx;

	(void)err;
	if ((row->key_len == strlen(HB_METAROW_ROW) &&
	     !memcmp(row->key, HB_METAROW_ROW, row->key_len)) ||
	    (t->last && row->key_len == t->last->len &&
	     !memcmp(row->key, t->last->data, row->key_len)))
		return 0;
	return ++t->n >= t->bound;
}

/*
 * Whether the sample's scan ended early. A stateful scanner whose region server failed ends
 * with a 204, as one that reached the end does (ScannerResultGenerator, docs/hbase-wire.md
 * §3), so the end is checked: at chance p a complete scan leaves the rows after the last one
 * it kept unsampled, k of them with probability (1-p)^k. At least as many rows after it as
 * makes that 1e-9 (one, at p = 1) mean the scan stopped short. *early = 1 then. The rows are
 * counted by one stateless scan from the last row where its key can be sent in a URL, else
 * by a scanner from just after it.
 */
static int sample_ended_early(struct hb_rest *c, const char *table, const struct sampler *s,
                              const struct hb_buf *from, const void *to, size_t to_len, int *early,
                              struct hb_error *err)
{
	struct hb_buf start = HB_BUF_INIT, filter = HB_BUF_INIT;
	struct hb_scan_spec spec;
	struct tail_count t = {NULL, 0, 0};
	double q = 1;
	int rc;

	*early = 0;
	/* 2^20 rows at most: a chance that low ends no sample hbtab takes (max_rows keys of
	 * 2 x max_rows held) */
	while (q > 1e-9 && t.bound < ((size_t)1 << 20)) {
		q *= 1 - s->chance;
		t.bound++;
	}
	memset(&spec, 0, sizeof(spec));
	spec.end = to_len ? to : NULL;
	spec.end_len = to_len;
	spec.max_versions = 1;
	spec.start = s->have_last ? s->last.data : from->data;
	spec.start_len = s->have_last ? s->last.len : from->len;
	spec.lang_filter = "FirstKeyOnlyFilter() AND KeyOnlyFilter()";
	spec.limit = (long)t.bound + 1;
	t.last = s->have_last ? &s->last : NULL;
	if (!stateless_ok(&spec)) {
		spec.lang_filter = NULL;
		spec.limit = 0;
		spec.batch = t.bound < 1000 ? (long)t.bound : 1000;
		if ((s->have_last &&
		     (hb_buf_add(&start, s->last.data, s->last.len) || hb_buf_addc(&start, 0))) ||
		    hb_rest_sample_filter(&filter, 1)) {
			hb_buf_release(&start);
			return hb_error_set(err, HB_ENOMEM, "out of memory");
		}
		if (s->have_last) {
			spec.start = start.data;
			spec.start_len = start.len;
		}
		spec.filter = filter.data;
	}
	rc = hb_rest_scan(c, table, &spec, count_tail_row, &t, err);
	if (rc > 0)
		rc = 0;
	*early = !rc && t.n >= t.bound;
	hb_buf_release(&filter);
	hb_buf_release(&start);
	return rc;
}

int hb_rest_sample_keys(struct hb_rest *c, const char *table, size_t max_rows, uint64_t seed,
                        struct hb_keys *out, struct hb_error *err)
{
	return hb_rest_sample_range(c, table, NULL, 0, NULL, 0, max_rows, seed, out, err);
}

int hb_rest_sample_range(struct hb_rest *c, const char *table, const void *from, size_t from_len,
                         const void *to, size_t to_len, size_t max_rows, uint64_t seed,
                         struct hb_keys *out, struct hb_error *err)
{
	struct sampler s;
	struct hb_scan_spec spec;
	struct hb_buf filter = HB_BUF_INIT, start = HB_BUF_INIT;
	int rc, short_ends = 0;

	if (!max_rows)
		return hb_error_set(err, HB_EINVAL, "nothing to sample (0 rows asked for)");
	memset(&s, 0, sizeof(s));
	s.keys = out;
	s.max_rows = max_rows;
	s.rng = seed;
	s.chance = 1;
	hb_buf_init(&s.last, 0);
	if (from_len && hb_buf_add(&start, from, from_len))
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	for (;;) {
		if (hb_rest_sample_filter(&filter, s.chance)) {
			rc = hb_error_set(err, HB_ENOMEM, "out of memory");
			break;
		}
		memset(&spec, 0, sizeof(spec));
		spec.start = start.data;
		spec.start_len = start.len;
		spec.end = to_len ? to : NULL;
		spec.end_len = to_len;
		spec.batch = 1000;
		spec.max_versions = 1;
		spec.filter = filter.data;
		rc = hb_rest_scan(c, table, &spec, sample_row, &s, err);
		if (!rc) {
			int early = 0;

			rc = sample_ended_early(c, table, &s, &start, to, to_len, &early, err);
			if (!rc && early && ++short_ends > SAMPLE_SHORT_ENDS)
				rc = hb_error_set(err, HB_ESERVER,
				                  "sampling table '%s': the gateway's scanner "
				                  "ended early %d times "
				                  "(rows remain after the last row it gave; a "
				                  "region server may be "
				                  "failing); no sample was taken",
				                  table, short_ends);
			else if (!rc && early)
				rc = SAMPLE_RESTART; /* on from the last row seen, at the same
				                        chance */
		}
		if (rc != SAMPLE_RESTART)
			break;
		/* go on after the last row seen (none seen: from where this scan began), at the
		 * chance now in force */
		if (!s.have_last)
			continue;
		hb_buf_reset(&start);
		if (hb_buf_add(&start, s.last.data, s.last.len) || hb_buf_addc(&start, 0)) {
			rc = hb_error_set(err, HB_ENOMEM, "out of memory");
			break;
		}
	}
	/* at most max_rows, chosen uniformly (a partial Fisher-Yates over the indexes) */
	if (!rc && out->n > max_rows) {
		struct hb_keys pick;
		size_t *idx = malloc(out->n * sizeof(*idx)), i, kl;

		hb_keys_init(&pick);
		if (!idx)
			rc = hb_error_set(err, HB_ENOMEM, "out of memory");
		for (i = 0; idx && i < out->n; i++)
			idx[i] = i;
		for (i = 0; idx && i < max_rows && !rc; i++) {
			size_t j = i + (size_t)(mix_next(&s.rng) % (out->n - i)), t = idx[i];
			const unsigned char *k;

			idx[i] = idx[j];
			idx[j] = t;
			k = hb_keys_at(out, idx[i], &kl);
			if (hb_keys_push(&pick, k, kl))
				rc = hb_error_set(err, HB_ENOMEM, "out of memory");
		}
		free(idx);
		if (!rc) {
			hb_keys_release(out);
			*out = pick;
		} else {
			hb_keys_release(&pick);
		}
	}
	if (!rc && hb_keys_sort(out))
		rc = hb_error_set(err, HB_ENOMEM, "out of memory");
	hb_buf_release(&s.last);
	hb_buf_release(&filter);
	hb_buf_release(&start);
	return rc;
}

/* ---- Rows ---- */

struct one_row {
	struct hb_row *out;
	const void *key;
	size_t key_len;
	int found;
};

static int take_row(void *ctx, const struct hb_row *row, struct hb_error *err)
{
	struct one_row *o = ctx;
	size_t i;

	if (row->key_len != o->key_len || memcmp(row->key, o->key, row->key_len))
		return 0; /* cannot happen with [row, row+\0); ignore defensively */
	for (i = 0; i < row->ncells; i++)
		if (hb_row_add_cell(o->out, row->cells[i].column, row->cells[i].column_len,
		                    row->cells[i].value, row->cells[i].value_len,
		                    row->cells[i].timestamp))
			return hb_error_set(err, HB_ENOMEM, "out of memory");
	o->found = row->ncells > 0;
	return 0;
}

static int take_fragment(void *ctx, struct hb_row *frag, struct hb_error *err)
{
	return take_row(ctx, frag, err);
}

/*
 * A row path RowSpec reads back as the same bytes: printable ASCII without '/' (an encoded
 * slash is refused by some Jetty builds) or '*' (a path ending in '*' is a scan), and not a
 * dot segment: libcurl removes "/." and "/.." from a path (RFC 3986 §5.2.4), so a row '.'
 * or '..' would be asked of another resource.
 */
static int row_path_ok(const void *row, size_t n, const char *const *columns)
{
	const char *const *col;

	if (!url_safe(row, n) || memchr(row, '/', n) || memchr(row, '*', n))
		return 0;
	if ((n == 1 && !memcmp(row, ".", 1)) || (n == 2 && !memcmp(row, "..", 2)))
		return 0;
	for (col = columns; col && *col; col++)
		if (!**col || !url_safe(*col, strlen(*col)) || strpbrk(*col, "/*"))
			return 0;
	return 1;
}

/* A row GET asks for protobuf (RowResource's CellSet, docs/hbase-wire.md §4.1) and again for
 * JSON when that is refused; it is idempotent, so asking twice reads nothing twice. */
static int row_request(struct hb_rest *c, const char *path, struct hb_rest_resp *r,
                       struct hb_error *err)
{
	int rc;

	r->accept = hb_rest_protobuf_refused(c) ? NULL : HB_PROTOBUF_TYPE;
	rc = hb_rest_request(c, "GET", path, NULL, NULL, 0, 1, r, err);
	if (rc || !r->accept || !pb_refused(r))
		return rc;
	hb_rest_note_protobuf_refused(c);
	r->accept = NULL;
	return hb_rest_request(c, "GET", path, NULL, NULL, 0, 1, r, err);
}

/* GET /T/row[/col,col...] (RowResource): 404 is "no such row" unless HBase names a missing
 * table or family in the body. */
static int row_get(struct hb_rest *c, const char *table, const void *row, size_t row_len,
                   const char *const *columns, struct one_row *o, struct hb_error *err)
{
	struct hb_buf path = HB_BUF_INIT;
	struct hb_rest_resp r;
	const char *const *col;
	char what[700];
	int rc;

	hb_rest_resp_init(&r);
	rc = table_path(&path, table, "/", err);
	if (!rc && hb_rest_path_escape(&path, row, row_len))
		rc = hb_error_set(err, HB_ENOMEM, "out of memory");
	for (col = columns; !rc && col && *col; col++)
		if (hb_buf_addc(&path, col == columns ? '/' : ',') ||
		    hb_rest_path_escape(&path, *col, strlen(*col)))
			rc = hb_error_set(err, HB_ENOMEM, "out of memory");
	if (!rc)
		rc = row_request(c, path.data, &r, err);
	snprintf(what, sizeof(what), "GET %s", path.data);
	if (!rc && r.status == 404 && !strstr(hb_buf_str(&r.body), "TableNotFoundException") &&
	    !strstr(hb_buf_str(&r.body), "NoSuchColumnFamilyException")) {
		o->found = 0;
	} else if (!rc && r.status != 200) {
		rc = hb_rest_status_error("GET", path.data, &r, err);
	} else if (!rc && is_protobuf(r.content_type)) {
		rc = decode_cellset_pb(r.body.data, r.body.len, what, take_fragment, o, err);
	} else if (!rc) {
		rc = expect_json("GET", path.data, &r, err);
		if (!rc)
			rc = hb_rest_decode_cellset(r.body.data, r.body.len, what, take_fragment, o,
			                            err);
	}
	hb_rest_resp_release(&r);
	hb_buf_release(&path);
	return rc;
}

int hb_rest_get_row(struct hb_rest *c, const char *table, const void *row, size_t row_len,
                    const char *const *columns, struct hb_row *out, int *found,
                    struct hb_error *err)
{
	struct hb_scan_spec spec;
	struct hb_buf end = HB_BUF_INIT;
	struct one_row o;
	int rc;

	*found = 0;
	hb_row_release(out);
	if (!row_len)
		return hb_error_set(err, HB_EINVAL, "empty row key");
	if (hb_buf_add(&end, row, row_len) || hb_buf_addc(&end, 0))
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	out->key = malloc(row_len + 1);
	if (!out->key) {
		hb_buf_release(&end);
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	}
	memcpy(out->key, row, row_len);
	out->key[row_len] = 0;
	out->key_len = row_len;
	o.out = out;
	o.key = row;
	o.key_len = row_len;
	o.found = 0;
	if (row_path_ok(row, row_len, columns)) {
		rc = row_get(c, table, row, row_len, columns, &o, err);
		*found = o.found;
		hb_buf_release(&end);
		return rc;
	}
	memset(&spec, 0, sizeof(spec));
	spec.start = row;
	spec.start_len = row_len;
	spec.end = end.data;
	spec.end_len = end.len;
	spec.columns = columns;
	spec.batch = 1000;
	spec.max_versions = 1;
	rc = hb_rest_scan(c, table, &spec, take_row, &o, err);
	*found = o.found;
	hb_buf_release(&end);
	return rc;
}

static int cellset_body(const void *row, size_t row_len, const struct hb_cell *cells, size_t ncells,
                        const char *check_col, const void *check_val, size_t check_len, char **out)
{
	cJSON *root = cJSON_CreateObject(), *rows, *r, *arr;
	size_t i;
	int ok = root != NULL;

	*out = NULL;
	rows = ok ? cJSON_AddArrayToObject(root, "Row") : NULL;
	r = cJSON_CreateObject();
	ok = rows && r && cJSON_AddItemToArray(rows, r);
	if (!ok)
		cJSON_Delete(r);
	ok = ok && b64_field(r, "key", row, row_len);
	arr = ok ? cJSON_AddArrayToObject(r, "Cell") : NULL;
	ok = arr != NULL;
	for (i = 0; ok && i <= ncells; i++) {
		cJSON *cell;

		if (i == ncells && !check_col)
			break;
		cell = cJSON_CreateObject();
		ok = cell && cJSON_AddItemToArray(arr, cell);
		if (!ok) {
			cJSON_Delete(cell);
			break;
		}
		if (i < ncells)
			ok = b64_field(cell, "column", cells[i].column, cells[i].column_len) &&
			     b64_field(cell, "$", cells[i].value, cells[i].value_len);
		else /* the check cell goes last (docs/hbase-wire.md §4 ?check=put) */
			ok = b64_field(cell, "column", check_col, strlen(check_col)) &&
			     b64_field(cell, "$", check_val, check_len);
	}
	if (ok)
		*out = cJSON_PrintUnformatted(root);
	cJSON_Delete(root);
	return *out ? 0 : HB_ENOMEM;
}

/* PUT /T/<dummy>[?check=put]: the dummy path row is overridden by the body key (docs/hbase-wire.md
 * §0.1). */
static int put_common(struct hb_rest *c, const char *table, const void *row, size_t row_len,
                      const struct hb_cell *cells, size_t ncells, const char *check_col,
                      const void *check_val, size_t check_len, int *applied, struct hb_error *err)
{
	struct hb_buf path = HB_BUF_INIT;
	struct hb_rest_resp r;
	char *body = NULL;
	int rc;

	if (!row_len || !ncells)
		return hb_error_set(err, HB_EINVAL, "a put needs a row key and at least one cell");
	hb_rest_resp_init(&r);
	rc = table_path(&path, table, check_col ? "/hbtab-row?check=put" : "/hbtab-row", err);
	if (!rc &&
	    cellset_body(row, row_len, cells, ncells, check_col, check_val, check_len, &body))
		rc = hb_error_set(err, HB_ENOMEM, "out of memory");
	/* A plain put is idempotent; a check-and-put is not (a lost 200 would read as 304). */
	if (!rc)
		rc = hb_rest_request(c, "PUT", path.data, JSON, body, strlen(body), !check_col, &r,
		                     err);
	if (!rc) {
		/* HBase's RowResource answers a put (and an applied check-and-put) with an empty
		 * 200; a body means something else answered (a proxy page), and the row may not
		 * have been written. */
		if ((r.status == 200 || r.status == 201) && r.body.len)
			rc = hb_error_set(
			    err, HB_ESERVER,
			    "unexpected answer to PUT %s: HTTP %ld with a %zu-byte body "
			    "(HBase answers an empty 200); the row may not be written",
			    path.data, r.status, r.body.len);
		else if (r.status == 200 || r.status == 201)
			*applied = 1;
		else if (r.status == 304 && check_col)
			*applied = 0;
		else
			rc = hb_rest_status_error("PUT", path.data, &r, err);
	}
	free(body);
	hb_rest_resp_release(&r);
	hb_buf_release(&path);
	return rc;
}

int hb_rest_put_row(struct hb_rest *c, const char *table, const void *row, size_t row_len,
                    const struct hb_cell *cells, size_t ncells, struct hb_error *err)
{
	int applied = 0;

	return put_common(c, table, row, row_len, cells, ncells, NULL, NULL, 0, &applied, err);
}

int hb_rest_check_and_put(struct hb_rest *c, const char *table, const void *row, size_t row_len,
                          const struct hb_cell *cells, size_t ncells, const char *check_col,
                          const void *check_val, size_t check_len, int *applied,
                          struct hb_error *err)
{
	*applied = 0;
	if (!check_col || !strchr(check_col, ':'))
		return hb_error_set(err, HB_EINVAL, "check column must be family:qualifier");
	return put_common(c, table, row, row_len, cells, ncells, check_col, check_val, check_len,
	                  applied, err);
}

/* ---- hbase:meta ---- */

struct meta_state {
	const char *table;
	size_t table_len;
	hb_meta_region_fn fn; /* called with each region row, decoded */
	void *ctx;
	int *state;
	struct hb_error *err;
	/* Only info:state was asked: a region is its row key and state (no RegionInfo), and
	 * the table's last region is known by its name (NULL: unknown). */
	int states_only;
	const unsigned char *last_name;
	size_t last_name_len;
	/* the ParseFilter text the scan is asked with (NULL: none); with one, a listing that does
	 * not end with last_name proves nothing and is not checked further */
	const char *filter;
	/* The last region row seen (NULL tracker: not kept), for the short-listing check. */
	struct hb_buf *last_key;
	int last_end_empty;
	size_t regions;
	/* A listing read in ranges (NULL: one scan): where the region rows handed on so far
	 * cover the table up to (the greatest end key of a region that is neither offline nor
	 * split; cover_inf: the empty one), and whether the next such row must start there
	 * (seam: the first row of another scan, opened at another instant). */
	struct hb_buf *cover;
	int cover_set, cover_inf, seam;
	int broken; /* a seam failed: the rest of the rows are passed over */
};

/* A range's first region does not start where the rows before it end: hbase:meta changed
 * between the ranges' reads (or the table has a hole or overlap there); the listing is read
 * again as one scan. META_AGAIN: read again as one scan, for another reason. */
#define META_SEAM  3
#define META_AGAIN 4

/* Whether a region row continues the ranges' cover where the scan before it stopped, and the
 * cover taken on past it. 0, META_SEAM or HB_ENOMEM. */
static int meta_cover(struct meta_state *ms, const struct hb_regioninfo *ri)
{
	if (ri->offline || ri->split || ri->replica_id > 0)
		return 0; /* not a region /T/regions or a client's locator lists */
	if (ms->seam) {
		ms->seam = 0;
		if (ms->cover_set &&
		    (ms->cover_inf ||
		     hb_key_cmp(ri->start, ri->start_len, (const unsigned char *)ms->cover->data,
		                ms->cover->len)))
			return META_SEAM;
	}
	if (ms->cover_inf)
		return 0;
	if (!ri->end_len) {
		ms->cover_inf = 1;
	} else if (!ms->cover_set ||
	           hb_key_cmp(ri->end, ri->end_len, (const unsigned char *)ms->cover->data,
	                      ms->cover->len) > 0) {
		hb_buf_reset(ms->cover);
		if (hb_buf_add(ms->cover, ri->end, ri->end_len))
			return HB_ENOMEM;
	}
	ms->cover_set = 1;
	return 0;
}

/* The region a meta row's info:regioninfo describes into reg (ri holds its keys): 1 when the
 * row has none (HBase's own visitor skips such rows too), HB_ESERVER when it is malformed. */
static int region_from_info(const struct hb_row *row, struct hb_regioninfo *ri,
                            struct hb_region *reg, struct hb_error *err)
{
	const struct hb_cell *c = hb_row_cell(row, "info:regioninfo");
	struct hb_buf tsb = HB_BUF_INIT;
	int rc;

	if (!c)
		return 1;
	if ((rc = hb_regioninfo_decode(ri, c->value, c->value_len, err))) {
		hb_tsb_append_quoted(&tsb, row->key, row->key_len);
		if (err)
			err->code = HB_ESERVER; /* the server's data, not the user's input */
		rc = hb_error_prefix(err, HB_ESERVER,
		                     "malformed info:regioninfo in hbase:meta row '%s'",
		                     hb_buf_str(&tsb));
		hb_buf_release(&tsb);
		return rc;
	}
	reg->start = ri->start;
	reg->start_len = ri->start_len;
	reg->end = ri->end;
	reg->end_len = ri->end_len;
	reg->id = ri->region_id;
	reg->replica_id = ri->replica_id;
	reg->offline = ri->offline;
	reg->split = ri->split;
	return 0;
}

/* The 2.x table-state row "<table>" (family table): its TableState into *ms->state. */
static void table_state_row(struct meta_state *ms, const struct hb_row *row)
{
	const struct hb_cell *c = hb_row_cell(row, "table:state");

	if (c && ms->state && row->key_len == ms->table_len &&
	    !memcmp(row->key, ms->table, row->key_len) &&
	    hb_tablestate_decode(ms->state, c->value, c->value_len, NULL))
		*ms->state = -1;
}

/* rn gets the name of a region row of ms's table: 0, or 1 for any other row (the state row,
 * another table's row: the range is by the meta comparator). */
static int table_region(const struct meta_state *ms, const struct hb_row *row,
                        struct hb_region_name *rn)
{
	return !memchr(row->key, ',', row->key_len) ||
	       hb_region_name_parse(rn, row->key, row->key_len, NULL) ||
	       rn->table_len != ms->table_len || memcmp(rn->table, ms->table, rn->table_len);
}

static int meta_row(void *ctx, const struct hb_row *row, struct hb_error *err)
{
	struct meta_state *ms = ctx;
	const struct hb_cell *c;
	struct hb_regioninfo ri;
	struct hb_region_name rn;
	struct hb_region reg;
	char enc[33];
	int rc;

	if (ms->broken)
		return 0;
	if (!memchr(row->key, ',', row->key_len)) {
		table_state_row(ms, row);
		return 0;
	}
	if (table_region(ms, row, &rn))
		return 0;
	memset(&reg, 0, sizeof(reg));
	hb_regioninfo_init(&ri);
	if (ms->states_only) {
		/* the start key and id as the name holds them (§6.2) */
		reg.start = row->key + (rn.start - row->key);
		reg.start_len = rn.start_len;
		reg.id = rn.id;
		reg.replica_id = rn.replica_id;
	} else if ((rc = region_from_info(row, &ri, &reg, err))) {
		return rc > 0 ? 0 : rc;
	} else if (ms->cover && (rc = meta_cover(ms, &ri))) {
		/* the rest of the answer is read, not broken off (a broken answer leaves the
		 * gateway's scanner open), and passed over */
		hb_regioninfo_release(&ri);
		ms->broken = 1;
		return rc == HB_ENOMEM ? hb_error_set(err, rc, "out of memory") : 0;
	}
	reg.name = row->key;
	reg.name_len = row->key_len;
	/* Derive the encoded name from the row key as RegionInfo.encodeRegionName does; HBase
	 * 2.3+ ignores RegionInfo's optional field 8 the same way (docs/hbase-versions.md). */
	if (rn.encoded_len == 32) {
		memcpy(enc, rn.encoded, 32);
		enc[32] = '\0';
	} else {
		/* Old-format name (no ".md5." suffix): the Jenkins hash of the whole name. */
		hb_region_encoded_name_old(enc, row->key, row->key_len);
	}
	reg.encoded = enc;
	c = hb_row_cell(row, "info:server");
	if (c && c->value_len && !memchr(c->value, 0, c->value_len))
		reg.server = (char *)c->value;
	c = hb_row_cell(row, "info:serverstartcode");
	if (c)
		hb_be64_decode(&reg.start_code, c->value, c->value_len);
	c = hb_row_cell(row, "info:state");
	if (c && c->value_len && !memchr(c->value, 0, c->value_len))
		reg.state = (char *)c->value;
	rc = ms->fn(ms->ctx, &reg, err);
	ms->regions++;
	/* a row read for its state alone says nothing of its end key but its name does; a split
	 * parent keeps its old end key until the janitor removes it, and its daughters sort after
	 * it: the parent of the last region ends nothing */
	ms->last_end_empty = ms->states_only ? ms->last_name && row->key_len == ms->last_name_len &&
	                                           !memcmp(row->key, ms->last_name, row->key_len)
	                                     : ri.end_len == 0 && !ri.split;
	if (!rc && ms->last_key) {
		hb_buf_reset(ms->last_key);
		if (hb_buf_add(ms->last_key, row->key, row->key_len))
			rc = hb_error_set(err, HB_ENOMEM, "out of memory");
	}
	hb_regioninfo_release(&ri);
	return rc;
}

/* A region row of the table after the listing's end: the listing was short. */
static int region_row_after(void *ctx, const struct hb_row *row, struct hb_error *err)
{
	const struct meta_state *ms = ctx;
	struct hb_region_name rn;

	(void)err;
	return !table_region(ms, row, &rn);
}

/* Whether hbase:meta holds a region row of the table between the last row the listing handed
 * on (or the table's start, when none) and end: 1 when it does, 0, or the scan's error. */
static int meta_rows_before(struct hb_rest *c, const struct meta_state *ms,
                            const struct hb_buf *end, struct hb_error *err)
{
	static const char *const cols[] = {"info:regioninfo", NULL};
	struct hb_buf start = HB_BUF_INIT;
	struct hb_scan_spec spec;
	int rc;

	/* After the last row seen, or from the first region row. A region name ends in '.' and
	 * nothing but a name with control bytes after it sorts between it and the name and a
	 * space, which a stateless scan can start from; a name that is not printable is
	 * followed by its key and a 0 byte, which only a scanner can carry. */
	if (ms->regions
	        ? hb_buf_add(&start, ms->last_key->data, ms->last_key->len) ||
	              hb_buf_addc(&start, url_safe(ms->last_key->data, ms->last_key->len) ? ' ' : 0)
	        : hb_buf_add(&start, ms->table, ms->table_len) || hb_buf_adds(&start, ","))
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	memset(&spec, 0, sizeof(spec));
	spec.start = start.data;
	spec.start_len = start.len;
	spec.end = end->data;
	spec.end_len = end->len;
	spec.columns = cols;
	spec.batch = 1000;
	spec.max_versions = 1;
	rc = hb_rest_scan(c, "hbase:meta", &spec, region_row_after, (void *)ms, err);
	hb_buf_release(&start);
	return rc;
}

/*
 * A stateless scan that fails part-way can still end as a 200 with valid JSON: HBase streams
 * the rows and Jackson closes the open arrays when the iterator throws (docs/hbase-wire.md
 * §5). A complete listing ends with the table's last region, whose end key is empty; when
 * this one does not, hbase:meta is asked whether any region row follows the last one seen.
 */
static int check_meta_listing(struct hb_rest *c, const struct meta_state *ms,
                              const struct hb_buf *end, struct hb_error *err)
{
	int rc;

	if (ms->regions && ms->last_end_empty)
		return 0;
	rc = meta_rows_before(c, ms, end, err);
	if (rc == 1) {
		struct hb_buf tsb = HB_BUF_INIT;

		if (ms->regions &&
		    (hb_buf_adds(&tsb, "row '") ||
		     hb_tsb_append_quoted(&tsb, ms->last_key->data, ms->last_key->len) ||
		     hb_buf_adds(&tsb, "'")))
			rc = HB_ENOMEM;
		rc = hb_error_set(err, rc == HB_ENOMEM ? HB_ENOMEM : HB_ESERVER,
		                  "hbase:meta's listing of table '%s' ended early (after %s): the "
		                  "gateway's scan failed part-way; nothing was concluded from it",
		                  ms->table, ms->regions ? hb_buf_str(&tsb) : "its state row");
		hb_buf_release(&tsb);
	}
	return rc;
}

int hb_meta_row_decode(const struct hb_row *row, const char *table, struct hb_regions *out,
                       int *state, struct hb_error *err)
{
	struct meta_state ms;

	memset(&ms, 0, sizeof(ms)); /* one row: no ranges, no seams, no short-listing check */
	ms.table = table;
	ms.table_len = strlen(table);
	ms.fn = push_region;
	ms.ctx = out;
	ms.state = state;
	ms.err = err;
	return meta_row(&ms, row, err);
}

int hb_rest_table_state(struct hb_rest *c, const char *table, int *state, struct hb_error *err)
{
	static const char *const cols[] = {"table:state", NULL};
	struct hb_row row;
	const struct hb_cell *cell;
	int found = 0, rc;

	*state = -1;
	if (!strncmp(table, "default:", 8))
		table += 8; /* the state row is keyed by TableName.getNameAsString() */
	hb_row_init(&row);
	rc = hb_rest_get_row(c, "hbase:meta", table, strlen(table), cols, &row, &found, err);
	if (!rc && found && (cell = hb_row_cell(&row, "table:state")) &&
	    hb_tablestate_decode(state, cell->value, cell->value_len, err))
		rc = hb_error_set(err, HB_ESERVER, "hbase:meta row '%s': malformed table:state",
		                  table);
	hb_row_release(&row);
	return rc;
}

static int meta_regions_scan(struct hb_rest *c, const char *table, hb_meta_region_fn fn,
                             hb_region_restart_fn restart, void *ctx, int *state_out,
                             struct hb_error *err);

int hb_rest_meta_regions(struct hb_rest *c, const char *table, struct hb_regions *out,
                         int *state_out, struct hb_error *err)
{
	struct list_from l = {out, out->n};
	int rc = meta_regions_scan(c, table, push_to_list, restart_list, &l, state_out, err);

	if (rc)
		hb_regions_truncate(out, l.n0);
	else
		hb_regions_sort(out);
	return rc;
}

int hb_rest_meta_table_spec(struct hb_scan_spec *spec, struct hb_buf *start, struct hb_buf *end,
                            const char *table, const char *const *cols, struct hb_error *err)
{
	if (hb_buf_adds(start, table) || hb_buf_adds(end, table) || hb_buf_adds(end, " ,,"))
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	memset(spec, 0, sizeof(*spec));
	spec->start = start->data;
	spec->start_len = start->len;
	spec->end = end->data;
	spec->end_len = end->len;
	spec->columns = cols;
	spec->batch = 1000;
	spec->max_versions = 1;
	return 0;
}

/* ---- hbase:meta's listing of a large table in ranges read side by side ---- */

/*
 * The gateway's stateless scan fetches hbase.rest.scan.fetchsize (10) rows per call to the
 * region server (docs/hbase-wire.md §3.2, §6.6), so one scan of a large table's meta rows is
 * mostly waiting. The listing starts as one stateless scan of at most RANGES_AFTER rows, asked
 * for as JSON: the gateway closes its region-server scanner at limit= only on its JSON path
 * (§6.6), so a table with more rows leaves nothing open behind it, and a table with fewer is
 * read whole by it. After it, a sample of the table's meta rows (those whose encoded name, an
 * MD5, ends in "00": about 1 in 256, spread evenly) gives boundaries after the last row read;
 * the ranges from the first boundary on are fetched side by side, each one more stateless scan
 * on its own connection, kept whole (memory or a temporary file), while the first connection
 * reads on from the last row to the first boundary. Every scan runs to its end row: nothing is
 * left open on the server, no answer is broken off, and a read-only gateway serves every
 * request. The scans are handed on in order, each boundary checked like the listing's end
 * (meta_rows_before), and the first region of each scan checked to start where the regions
 * handed on before it end (meta_cover): the scans read hbase:meta at different instants, and a
 * merge or split across a seam between two of them shows there as an overlap or a hole that no
 * one read of hbase:meta has. When either check fails the listing is read again, once, as one
 * scan: one read point, one view (META_SEAM). A sample that fails or gives no boundary leaves
 * the first connection to read on to the end; a range whose fetch failed is scanned again on
 * the first connection.
 */
#define RANGES_AFTER 4096
#define RANGES_MAX   4
#define RANGES_PER   8 /* sampled rows (about 2048 rows) a range gets at least */
/* A range expected to be larger than this (each sampled row stands for 256, of about 300
 * bytes each in protobuf) is kept in a temporary file: a million regions stay in the memory
 * of a few, and the file system's work is paid only where memory would not do. */
#define RANGES_IN_MEMORY (16u << 20)
#define RANGES_SAMPLE                                                                              \
	"RowFilter(=,'regexstring:00\\.$') AND FirstKeyOnlyFilter() AND KeyOnlyFilter()"

struct range {
	struct hb_buf from; /* "T,<start key>,": before every row of that start key */
	struct hb_buf path;
	struct hb_rest *c; /* its own connection */
	struct hb_rest_resp r;
	struct hb_error err;
	int rc;
	int running; /* its thread was started and is not joined yet */
	int spool;   /* its answer goes to a temporary file, not memory */
	pthread_t th;
	char what[700];
};

struct ranges {
	struct hb_rest *c;
	struct meta_state *ms;
	const struct hb_scan_spec *spec; /* the whole listing's */
	size_t rows;                     /* rows the first scan gave */
	struct hb_buf at;                /* the key of its last row */
	size_t n;                        /* ranges after the first connection's */
	struct range rg[RANGES_MAX - 1];
};

/* The start key of a region row of the table, or NULL (the state row, another table's). */
static const unsigned char *row_start(const struct meta_state *ms, const struct hb_row *row,
                                      size_t *len)
{
	struct hb_region_name rn;

	if (table_region(ms, row, &rn))
		return NULL;
	*len = rn.start_len;
	return row->key + (rn.start - row->key);
}

/* The sampled start keys after the first scan's last row that a stateless bound can carry
 * (printable). */
struct sample {
	const struct meta_state *ms;
	const unsigned char *after;
	size_t after_len;
	struct hb_keys keys;
};

static int sampled_row(void *ctx, const struct hb_row *row, struct hb_error *err)
{
	struct sample *sm = ctx;
	size_t len;
	const unsigned char *k = row_start(sm->ms, row, &len);

	if (!k || !url_safe(k, len) || hb_key_cmp(k, len, sm->after, sm->after_len) <= 0)
		return 0;
	return hb_keys_push(&sm->keys, k, len) ? hb_error_set(err, HB_ENOMEM, "out of memory") : 0;
}

/* Boundaries from the sample (in meta order, as the scan gave them): up to RANGES_MAX - 1,
 * evenly among the sampled keys, distinct. */
static int ranges_bounds(struct ranges *g, const struct sample *sm, struct hb_error *err)
{
	size_t parts = 1 + sm->keys.n / RANGES_PER, j, len, plen = 0;
	const unsigned char *k, *prev = NULL;

	if (parts > RANGES_MAX)
		parts = RANGES_MAX;
	for (j = 1; j < parts; j++, prev = k, plen = len) {
		struct range *r = &g->rg[g->n];

		k = hb_keys_at(&sm->keys, j * sm->keys.n / parts, &len);
		if (prev && hb_key_cmp(prev, plen, k, len) >= 0)
			continue;
		hb_buf_init(&r->from, 0);
		hb_buf_init(&r->path, 0);
		hb_rest_resp_init(&r->r);
		r->spool = (uint64_t)sm->keys.n / parts * 256 * 300 > RANGES_IN_MEMORY;
		g->n++;
		if (hb_buf_add(&r->from, g->ms->table, g->ms->table_len) ||
		    hb_buf_addc(&r->from, ',') || hb_buf_add(&r->from, k, len) ||
		    hb_buf_addc(&r->from, ','))
			return hb_error_set(err, HB_ENOMEM, "out of memory");
	}
	return 0;
}

/* Range i's scan: the listing's, from its boundary to the next one (or the listing's end). */
static struct hb_scan_spec range_spec(const struct ranges *g, size_t i)
{
	struct hb_scan_spec spec = *g->spec;

	spec.start = g->rg[i].from.data;
	spec.start_len = g->rg[i].from.len;
	if (i + 1 < g->n) {
		spec.end = g->rg[i + 1].from.data;
		spec.end_len = g->rg[i + 1].from.len;
	}
	return spec;
}

/* A range's fetch, in its own thread: the answer kept whole, in memory or a temporary file. */
static void *range_fetch(void *arg)
{
	struct range *r = arg;

	hb_activity_quiet_thread();
	r->r.spool = r->spool;
	r->rc = get_protobuf(r->c, r->path.data, &r->r, r->what, sizeof(r->what), &r->err);
	return NULL;
}

/* Range i's path and connection, and its thread started with every signal blocked (they are
 * the first thread's to handle). */
static int range_start(struct ranges *g, size_t i, struct hb_error *err)
{
	struct range *r = &g->rg[i];
	struct hb_scan_spec spec = range_spec(g, i);
	sigset_t all, old;
	int rc;

	if ((rc = stateless_path(&r->path, "hbase:meta", &spec, err)) ||
	    (!r->c && (rc = hb_rest_sibling(&r->c, g->c, err))))
		return rc;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	r->running = !pthread_create(&r->th, NULL, range_fetch, r);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	/* a range not started is scanned on the first connection */
	r->rc = r->running ? 0 : HB_ENOMEM;
	return 0;
}

/* Asks for the sample (on the connection of the first range), then starts the ranges; after
 * the first scan's last row. Nothing started: no ranges, nothing said. */
static void ranges_start(struct ranges *g)
{
	static const char *const cols[] = {"info:regioninfo", NULL};
	struct hb_buf start = HB_BUF_INIT;
	struct hb_rest *c = NULL;
	struct hb_scan_spec spec;
	struct hb_error err;
	struct hb_row at;
	struct sample sm;
	size_t i;

	memset(&sm, 0, sizeof(sm));
	sm.ms = g->ms;
	hb_keys_init(&sm.keys);
	memset(&at, 0, sizeof(at));
	at.key = (unsigned char *)g->at.data;
	at.key_len = g->at.len;
	sm.after = row_start(g->ms, &at, &sm.after_len);
	memset(&spec, 0, sizeof(spec));
	spec.columns = cols;
	spec.max_versions = 1;
	spec.lang_filter = RANGES_SAMPLE;
	spec.end = g->spec->end;
	spec.end_len = g->spec->end_len;
	if (!sm.after || hb_buf_add(&start, g->ms->table, g->ms->table_len) ||
	    hb_buf_addc(&start, ',') || hb_rest_sibling(&c, g->c, &err))
		goto done;
	spec.start = start.data;
	spec.start_len = start.len;
	if (hb_rest_scan(c, "hbase:meta", &spec, sampled_row, &sm, &err) ||
	    ranges_bounds(g, &sm, &err))
		g->n = 0;
	if (g->n) {
		g->rg[0].c = c;
		c = NULL;
		hb_interrupt_hold(); /* released once every range's thread is joined */
	}
	for (i = 0; i < g->n; i++)
		if (range_start(g, i, &err))
			g->rg[i].rc = HB_ENOMEM;
done:
	for (i = g->n; i < RANGES_MAX - 1 && g->rg[i].from.data; i++)
		hb_buf_release(&g->rg[i].from);
	hb_rest_free(c);
	hb_keys_release(&sm.keys);
	hb_buf_release(&start);
}

/* The first scan's rows, its last row's key kept. */
static int first_row(void *ctx, const struct hb_row *row, struct hb_error *err)
{
	struct ranges *g = ctx;

	g->rows++;
	hb_buf_reset(&g->at);
	if (hb_buf_add(&g->at, row->key, row->key_len))
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	return meta_row(g->ms, row, err);
}

/* A range's kept answer handed on row by row; the pages read are given back as the reader
 * moves on. *unframeable: a chunk could not be framed (the range must be asked for as JSON). */
static int range_decode(struct range *r, struct meta_state *ms, int *unframeable,
                        struct hb_error *err)
{
	struct scan_state st;
	struct scan_stream ss;
	int rc;

	scan_state_init(&st, NULL, meta_row, ms);
	memset(&ss, 0, sizeof(ss));
	ss.st = &st;
	if (is_protobuf(r->r.content_type)) {
		hb_scanpb_stream_init(&ss.ps, r->what);
		rc = scan_pb_end(&ss, &r->r, err);
		hb_scanpb_stream_release(&ss.ps);
	} else {
		rc = decode_cellset_kept(&r->r, r->what, &st, err);
	}
	if (!rc)
		rc = flush_pending(&st, err);
	*unframeable = rc == HB_EINVAL && ss.unframeable;
	scan_state_release(&st);
	return rc;
}

/* A range scanned again: its rows up to the last one handed on (when it handed any) are
 * passed over. */
struct rescan {
	struct meta_state *ms;
	struct hb_buf last;
	int skipping;
};

static int rescanned_row(void *ctx, const struct hb_row *row, struct hb_error *err)
{
	struct rescan *rs = ctx;

	if (rs->skipping) {
		rs->skipping = !(row->key_len == rs->last.len &&
		                 !memcmp(row->key, rs->last.data, row->key_len));
		return 0;
	}
	return meta_row(rs->ms, row, err);
}

/* Range i handed on: its kept answer, or (its fetch failed, or a chunk of it could not be
 * framed) the range scanned again on the first connection. */
static int range_hand_on(struct ranges *g, size_t i, struct hb_error *err)
{
	struct range *r = &g->rg[i];
	struct hb_scan_spec spec = range_spec(g, i);
	struct rescan rs;
	size_t before = g->ms->regions;
	int rc = r->rc, unframeable = 0, seam = g->ms->seam;

	if (!rc) {
		rc = range_decode(r, g->ms, &unframeable, err);
		if (!unframeable)
			return rc;
	}
	memset(&rs, 0, sizeof(rs));
	rs.ms = g->ms;
	rs.skipping = g->ms->regions > before;
	if (!rs.skipping)
		g->ms->seam = seam; /* the rescan is the range's first read */
	hb_buf_init(&rs.last, 0);
	if (rs.skipping && hb_buf_add(&rs.last, g->ms->last_key->data, g->ms->last_key->len))
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	rc = hb_rest_scan(g->c, "hbase:meta", &spec, rescanned_row, &rs, err);
	if (!rc && rs.skipping)
		rc = hb_error_set(
		    err, HB_ESERVER,
		    "hbase:meta, asked again for a range of table '%s', no longer lists "
		    "the last row read from it",
		    g->ms->table);
	hb_buf_release(&rs.last);
	return rc;
}

/* Whether the listing handed on so far reaches end: 0, META_SEAM when hbase:meta now holds a
 * region row before it that was not handed on, or the scan's error. */
static int ranges_reach(struct hb_rest *c, struct meta_state *ms, const struct hb_buf *end,
                        struct hb_error *err)
{
	int rc;

	if (ms->regions && ms->last_end_empty)
		return 0;
	rc = meta_rows_before(c, ms, end, err);
	return rc == 1 ? META_SEAM : rc;
}

/* From the first scan's last row on: to the first boundary (the ranges' reads then handed on
 * in order), or without ranges to the listing's end (end). */
static int ranges_read(struct ranges *g, const struct hb_buf *end, struct hb_error *err)
{
	struct meta_state *ms = g->ms;
	struct hb_scan_spec spec = *g->spec;
	struct hb_buf start = HB_BUF_INIT;
	size_t i;
	int rc;

	ranges_start(g);
	/* after the last row: that key and a space (§6.1), a bound the stateless scan carries */
	if (hb_buf_add(&start, g->at.data, g->at.len) || hb_buf_addc(&start, ' '))
		rc = hb_error_set(err, HB_ENOMEM, "out of memory");
	else {
		spec.start = start.data;
		spec.start_len = start.len;
		spec.limit = 0;
		spec.json = 0;
		if (g->n) {
			spec.end = g->rg[0].from.data;
			spec.end_len = g->rg[0].from.len;
		}
		ms->seam = 1;
		rc = hb_rest_scan(g->c, "hbase:meta", &spec, meta_row, ms, err);
		if (!rc && ms->broken)
			rc = META_SEAM;
		if (!rc)
			rc = ranges_reach(g->c, ms, g->n ? &g->rg[0].from : end, err);
	}
	for (i = 0; i < g->n; i++) {
		struct range *r = &g->rg[i];

		if (r->running)
			pthread_join(r->th, NULL);
		if (!rc) {
			ms->seam = 1;
			rc = range_hand_on(g, i, err);
		}
		if (!rc && ms->broken)
			rc = META_SEAM;
		if (!rc)
			rc = ranges_reach(g->c, ms, i + 1 < g->n ? &g->rg[i + 1].from : end, err);
		hb_rest_report_progress(g->c, ms->regions, 0);
		hb_rest_resp_release(&r->r);
		hb_rest_free(r->c);
		hb_buf_release(&r->path);
	}
	for (i = 0; i < g->n; i++)
		hb_buf_release(&g->rg[i].from);
	if (g->n)
		hb_interrupt_release();
	hb_buf_release(&start);
	return rc;
}

/* The whole listing (the listing's end row end): the first scan, then what follows it in
 * ranges. 0, 1 when the first scan was the whole listing (its end is still to be checked),
 * META_SEAM (read it again as one scan), or an error. */
static int meta_scan_ranged(struct hb_rest *c, struct meta_state *ms,
                            const struct hb_scan_spec *spec, const struct hb_buf *end,
                            struct hb_error *err)
{
	struct hb_scan_spec first = *spec;
	struct ranges g;
	int rc;

	memset(&g, 0, sizeof(g));
	g.c = c;
	g.ms = ms;
	g.spec = spec;
	hb_buf_init(&g.at, 0);
	first.limit = RANGES_AFTER;
	first.json = 1;
	rc = hb_rest_scan(c, "hbase:meta", &first, first_row, &g, err);
	if (!rc && g.rows < RANGES_AFTER)
		rc = 1; /* it ended before its limit: the whole listing */
	/* a row a stateless bound cannot follow: the listing is one scan, read again */
	else if (!rc && !url_safe(g.at.data, g.at.len))
		rc = META_AGAIN;
	else if (!rc)
		rc = ranges_read(&g, end, err);
	hb_buf_release(&g.at);
	return rc;
}

/*
 * The region rows of TABLE in hbase:meta with the columns cols, each handed to fn, then the
 * table-state row. Only the info family is named: 1.x meta has no "table" family, and naming
 * it fails the scan. how says what a row holds (states_only, last_name). With restart (which
 * empties what fn was given), a large table's listing may be read in ranges.
 */
static int meta_scan(struct hb_rest *c, const char *table, const char *const *cols,
                     const struct meta_state *how, hb_meta_region_fn fn,
                     hb_region_restart_fn restart, void *ctx, int *state_out, struct hb_error *err)
{
	struct hb_buf start = HB_BUF_INIT, end = HB_BUF_INIT, last = HB_BUF_INIT,
	              cover = HB_BUF_INIT;
	struct hb_scan_spec spec;
	struct meta_state ms;
	int rc, state = -1, idle = -1, check;

	/* [table, table" ,,") takes the state row and every region row */
	rc = hb_rest_meta_table_spec(&spec, &start, &end, table, cols, err);
	if (rc)
		goto done;
	spec.lang_filter = how->filter;
	memset(&ms, 0, sizeof(ms));
	ms.table = table;
	ms.table_len = strlen(table);
	ms.fn = fn;
	ms.ctx = ctx;
	ms.state = &state;
	ms.err = err;
	ms.states_only = how->states_only;
	ms.last_name = how->last_name;
	ms.last_name_len = how->last_name_len;
	ms.filter = how->filter;
	ms.last_key = &last;
	if (how->filter || how->states_only || !restart) {
		rc = hb_rest_scan(c, "hbase:meta", &spec, meta_row, &ms, err);
	} else {
		/* a listing's scans stream a row per region: at a million regions one takes
		 * minutes, so --timeout bounds the gateway's silence there, not the whole scan */
		idle = hb_rest_idle_timeout(c, 1);
		ms.cover = &cover;
		rc = meta_scan_ranged(c, &ms, &spec, &end, err);
		ms.cover = NULL;
		check = rc != 0;
		if (rc == META_SEAM || rc == META_AGAIN) {
			/* the ranges did not read one hbase:meta: one scan, one read point */
			if (rc == META_SEAM)
				hb_rest_tracef(
				    c,
				    "hbase:meta's listing of table '%s' in ranges is not one "
				    "view of it (it changed between the ranges' reads, or the "
				    "table has a hole or an overlap at a seam): read again as "
				    "one scan",
				    table);
			if (restart(ctx)) {
				rc = hb_error_set(err, HB_ENOMEM, "out of memory");
				goto done;
			}
			hb_buf_reset(&last);
			ms.regions = 0;
			ms.last_end_empty = 0;
			ms.broken = 0;
			rc = hb_rest_scan(c, "hbase:meta", &spec, meta_row, &ms, err);
		} else if (rc == 1) {
			rc = 0; /* one scan: its end is checked below */
		}
		hb_rest_idle_timeout(c, idle);
		idle = -1;
		if (!rc && !check)
			goto state_row; /* every boundary and the end were checked */
	}
	if (!rc && how->filter && !(ms.regions && ms.last_end_empty))
		rc = 1;
	else if (!rc)
		rc = check_meta_listing(c, &ms, &end, err);
state_row:
	if (!rc && state_out) {
		/* The 2.x table-state row "<table>" (table:state); 1.x has none (ZooKeeper). */
		struct hb_row srow;
		int found = 0;

		hb_row_init(&srow);
		rc = hb_rest_get_row(c, "hbase:meta", table, strlen(table), NULL, &srow, &found,
		                     err);
		if (!rc && found)
			meta_row(&ms, &srow, err);
		hb_row_release(&srow);
	}
done:
	if (idle >= 0)
		hb_rest_idle_timeout(c, idle);
	if (state_out)
		*state_out = state;
	hb_buf_release(&start);
	hb_buf_release(&end);
	hb_buf_release(&last);
	hb_buf_release(&cover);
	return rc;
}

/* what a region is made of: its RegionInfo, where it is open and its state */
static const char *const region_cols[] = {"info:regioninfo", "info:server", "info:serverstartcode",
                                          "info:state", NULL};

static int meta_regions_scan(struct hb_rest *c, const char *table, hb_meta_region_fn fn,
                             hb_region_restart_fn restart, void *ctx, int *state_out,
                             struct hb_error *err)
{
	struct meta_state how;

	memset(&how, 0, sizeof(how));
	return meta_scan(c, table, region_cols, &how, fn, restart, ctx, state_out, err);
}

int hb_rest_meta_scan(struct hb_rest *c, const char *table, hb_meta_region_fn fn, void *ctx,
                      int *state_out, struct hb_error *err)
{
	return meta_regions_scan(c, table, fn, NULL, ctx, state_out, err);
}

int hb_rest_meta_scan_restart(struct hb_rest *c, const char *table, hb_meta_region_fn fn,
                              hb_region_restart_fn restart, void *ctx, int *state_out,
                              struct hb_error *err)
{
	return meta_regions_scan(c, table, fn, restart, ctx, state_out, err);
}

int hb_rest_meta_states(struct hb_rest *c, const char *table, const void *last_name,
                        size_t last_name_len, hb_meta_region_fn fn, void *ctx, int *state_out,
                        struct hb_error *err)
{
	static const char *const cols[] = {"info:state", NULL};
	struct meta_state how;

	memset(&how, 0, sizeof(how));
	how.states_only = 1;
	how.last_name = last_name;
	how.last_name_len = last_name_len;
	return meta_scan(c, table, cols, &how, fn, NULL, ctx, state_out, err);
}

/* The filter of hb_rest_meta_states_not_open into f: 0, or 1 when last_name cannot be put in
 * one (the gateway reads the text as UTF-8 and a quote would need escaping). */
static int not_open_filter(struct hb_buf *f, const unsigned char *last_name, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (last_name[i] < 0x20 || last_name[i] > 0x7e || last_name[i] == '\'')
			return 1;
	if (hb_buf_adds(f, "SingleColumnValueFilter('info','state',!=,'binary:OPEN',false,true)"
	                   " OR RowFilter(=,'binary:") ||
	    hb_buf_add(f, last_name, n) || hb_buf_adds(f, "')"))
		return HB_ENOMEM;
	return 0;
}

int hb_rest_meta_states_not_open(struct hb_rest *c, const char *table, const void *last_name,
                                 size_t last_name_len, hb_meta_region_fn fn, void *ctx,
                                 int *state_out, struct hb_error *err)
{
	/* a row whose state is missing still has its RegionInfo, so it is in the answer */
	static const char *const cols[] = {"info:regioninfo", "info:state", NULL};
	struct hb_buf filter = HB_BUF_INIT;
	struct meta_state how;
	int rc;

	if (!last_name || !last_name_len)
		return 1;
	rc = not_open_filter(&filter, last_name, last_name_len);
	if (rc)
		return rc == HB_ENOMEM ? hb_error_set(err, rc, "out of memory") : rc;
	memset(&how, 0, sizeof(how));
	how.states_only = 1;
	how.last_name = last_name;
	how.last_name_len = last_name_len;
	how.filter = filter.data;
	rc = meta_scan(c, table, cols, &how, fn, NULL, ctx, state_out, err);
	hb_buf_release(&filter);
	return rc;
}
