/* The cluster: /version/rest, /version/cluster and /status/cluster (JSON, or protobuf read as it
 * arrives). */
#include "rest/status.h"
#include "core/restpb_status.h"
#include "core/vec.h"
#include "rest/jsonhelp.h"
#include "rest/jsonpull.h"
#include "rest/resource.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int decode_version(void *out, const struct hb_rest_resp *r, const char *what,
                          struct hb_error *err)
{
	return hb_rest_decode_version(r->body.data, r->body.len, what, out, err);
}

int hb_rest_get_version(struct hb_rest *c, struct hb_rest_version *out, struct hb_error *err)
{
	memset(out, 0, sizeof(*out));
	return hb_rest_get_decoded(c, "/version/rest", NULL, 0, decode_version, out, NULL, err);
}

static int decode_cluster_version(void *out, const struct hb_rest_resp *r, const char *what,
                                  struct hb_error *err)
{
	return hb_rest_decode_cluster_version(r->body.data, r->body.len, what, out, err);
}

int hb_rest_get_cluster_version(struct hb_rest *c, char **out, struct hb_error *err)
{
	*out = NULL;
	return hb_rest_get_decoded(c, "/version/cluster", NULL, 0, decode_cluster_version, out,
	                           NULL, err);
}

struct status_want {
	struct hb_cluster_status *out;
	int regions;
	hb_region_load_fn fn;
	void *ctx;
};

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

/* StorageClusterStatus read as it arrives (core/restpb_status.h hb_statuspb_stream) into w->out, as
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
	return hb_rest_is_protobuf(content_type);
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
		return hb_rest_get_decoded(c, path, NULL, 1, decode_status, &w, NULL, err);
	memset(&st, 0, sizeof(st));
	st.w = &w;
	snprintf(what, sizeof(what), "GET %s", path);
	hb_statuspb_stream_init(&st.ps, what, &fns);
	hb_rest_resp_init(&r);
	/* a JSON answer (protobuf refused) is kept in a temporary file and mapped */
	r.spool = 1;
	r.stream = &ops;
	rc = hb_rest_get_protobuf(c, path, &r, what, sizeof(what), err);
	if (!rc && !r.streamed && hb_rest_is_protobuf(r.content_type)) {
		/* an answer with no byte to stream (an empty body) is read as it is */
		size_t blen;
		const char *body = hb_rest_resp_body(&r, &blen);

		rc = status_start(&st, err);
		if (!rc)
			rc = hb_statuspb_stream_push(&st.ps, body, blen, err);
	}
	if (!rc && (r.streamed || hb_rest_is_protobuf(r.content_type))) {
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

/* ---- /version/rest ---- */

void hb_rest_version_release(struct hb_rest_version *v)
{
	free(v->rest);
	free(v->jvm);
	free(v->os);
	free(v->server);
	free(v->jersey);
	memset(v, 0, sizeof(*v));
}

int hb_rest_decode_version(const char *json, size_t len, const char *what,
                           struct hb_rest_version *out, struct hb_error *err)
{
	static const char *const keys[] = {"REST", "JVM", "OS", "Server", "Jersey"};
	char **dst[5];
	cJSON *root;
	size_t i;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	dst[0] = &out->rest;
	dst[1] = &out->jvm;
	dst[2] = &out->os;
	dst[3] = &out->server;
	dst[4] = &out->jersey;
	root = hb_json_parse_object(json, len, what, err);
	if (!root)
		return HB_ESERVER;
	for (i = 0; i < 5 && !rc; i++) {
		const char *s;

		rc = hb_json_get_str(root, keys[i], &s, "", what, err);
		if (!rc && s && !(*dst[i] = strdup(s)))
			rc = hb_json_oom(err);
	}
	cJSON_Delete(root);
	if (rc)
		hb_rest_version_release(out);
	return rc;
}

/* A cluster version is non-empty printable ASCII without spaces ("2.5.8", "2.4.17-SNAPSHOT"). */
static int version_ok(const char *s, size_t len)
{
	size_t i;

	if (!len)
		return 0;
	for (i = 0; i < len; i++)
		if (s[i] < 0x21 || s[i] > 0x7e)
			return 0;
	return 1;
}

/* StorageClusterVersionModel answers {"Version":"2.5.8"} (docs/hbase-wire.md §1); a bare JSON
 * string and text/plain's bare version are accepted too. */
int hb_rest_decode_cluster_version(const char *json, size_t len, const char *what, char **out,
                                   struct hb_error *err)
{
	const cJSON *v;
	cJSON *root;
	int rc = 0;

	*out = NULL;
	while (len && (json[len - 1] == '\n' || json[len - 1] == '\r' || json[len - 1] == ' '))
		len--;
	if (!len)
		return HB_BAD("empty body");
	if (json[0] != '"' && json[0] != '{') {
		/* text/plain from an old gateway: the bare version, printable ASCII only. */
		if (json[0] == '[' || !version_ok(json, len))
			return HB_BAD("expected {\"Version\":\"...\"} or a version string");
		*out = strndup(json, len);
		return *out ? 0 : hb_json_oom(err);
	}
	root = hb_json_parse(json, len, what, err);
	if (!root)
		return HB_ESERVER;
	v = cJSON_IsObject(root) ? cJSON_GetObjectItemCaseSensitive(root, "Version") : root;
	if (!cJSON_IsString(v) || !v->valuestring ||
	    !version_ok(v->valuestring, strlen(v->valuestring)))
		rc = HB_BAD(cJSON_IsObject(root)
		                ? "expected a 'Version' string in the object"
		                : "expected {\"Version\":\"...\"} or a version string");
	else if (!(*out = strdup(v->valuestring)))
		rc = hb_json_oom(err);
	cJSON_Delete(root);
	return rc;
}

/* ---- /status/cluster ---- */

void hb_cluster_status_release(struct hb_cluster_status *s)
{
	size_t i, j;

	for (i = 0; i < s->nlive; i++) {
		for (j = 0; j < s->live[i].nregions; j++)
			free(s->live[i].regions[j].name);
		free(s->live[i].regions);
		free(s->live[i].name);
	}
	free(s->live);
	for (i = 0; i < s->ndead; i++)
		free(s->dead[i]);
	free(s->dead);
	for (i = 0; i < s->nstale; i++)
		free(s->stale[i]);
	free(s->stale);
	memset(s, 0, sizeof(*s));
}

/*
 * /status/cluster lists every region of the cluster (a few hundred bytes each), so it is read
 * with the pull parser (after the text and syntax checks of the whole body, as cJSON did)
 * instead of a tree; of repeated members the first counts, and the errors come in the order
 * the tree gave them: LiveNodes and DeadNodes types, then each live node (its name, its
 * Region type, then its regions in order), then each dead node. Without want_regions the
 * regions are only checked, not kept (hb_node.regions stays empty).
 */
struct st_scratch {
	struct hb_jr_val v[8];
	struct hb_buf name, b;
};

static void st_reset(struct st_scratch *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		hb_jr_val_reset(&s->v[i]);
}

/* Reads the members of the object at j->p (syntax known good) whose names are in names[]
 * into s->v[] (first occurrence) and the positions of the containers named in cont[] into
 * pos[] (NULL when absent). */
static int st_members(struct hb_jr *j, struct st_scratch *s, const char *const *names, size_t n,
                      const char *const *cont, const char **pos, size_t nc)
{
	size_t i;
	int more, rc;

	for (i = 0; i < nc; i++)
		pos[i] = NULL;
	st_reset(s, n);
	j->p++; /* '{' */
	more = hb_jr_peek(j) == '}' ? (j->p++, 0) : 1;
	while (more == 1) {
		if ((rc = hb_jr_string(j, &s->name)))
			return rc;
		hb_jr_peek(j);
		j->p++; /* ':' */
		for (i = 0; i < n && strcmp(s->name.data, names[i]); i++)
			;
		if (i < n) {
			if ((rc = hb_jr_read(j, &s->v[i])))
				return rc;
		} else {
			for (i = 0; i < nc && strcmp(s->name.data, cont[i]); i++)
				;
			if (i < nc && !pos[i])
				pos[i] = (hb_jr_peek(j), j->p);
			if (hb_jr_skip(j, 3))
				return -1;
		}
		more = hb_jr_next(j, '}');
	}
	return 0;
}

/* A counter as get_i64 reads it when lenient: anything unreadable is 0. */
static int64_t st_i64(const struct hb_jr_val *v)
{
	int64_t x = 0;

	if (v->kind == HB_JR_STRING) {
		char *end;
		long long ll;

		errno = 0;
		ll = strtoll(v->buf.data, &end, 10);
		if (v->buf.data[0] && !*end && !errno)
			x = ll;
	} else if (v->kind == HB_JR_NUMBER && isfinite(v->num) && v->num >= -0x1p63 &&
	           v->num < 0x1p63) {
		x = (int64_t)v->num;
	}
	return x;
}

static int st_oom_or_bad(int rc, struct hb_jr *j, const char *json, const char *what,
                         struct hb_error *err)
{
	return rc == HB_ENOMEM ? hb_json_oom(err) : hb_jr_invalid(j, json, what, err);
}

/* One element of a node's Region array (at rj): its load, the name decoded into s->b. */
static int st_region_load(struct hb_jr *rj, struct st_scratch *s, const char *rctx,
                          struct hb_region_load *rl, const char *json, const char *what,
                          struct hb_error *err)
{
	static const char *const rn[] = {
	    "name",   "readRequestsCount", "writeRequestsCount", "cpRequestsCount",
	    "stores", "storefiles",        "storefileSizeMB",    "memStoreSizeMB"};
	static const char *const rn2[] = {"memstoreSizeMB"};
	const char *obj = rj->p, *dummy;
	int rc;

	if ((rc = st_members(rj, s, rn, 8, NULL, &dummy, 0)))
		return st_oom_or_bad(rc, rj, json, what, err);
	if ((rc = hb_jr_b64(&s->v[0], &s->b, NULL, rctx, "name", what, err)))
		return rc;
	memset(rl, 0, sizeof(*rl));
	rl->read_requests = st_i64(&s->v[1]);
	rl->write_requests = st_i64(&s->v[2]);
	rl->cp_requests = st_i64(&s->v[3]);
	rl->stores = st_i64(&s->v[4]);
	rl->storefiles = st_i64(&s->v[5]);
	rl->storefile_size_mb = st_i64(&s->v[6]);
	rl->memstore_size_mb = st_i64(&s->v[7]);
	if (!rl->memstore_size_mb) {
		/* the 1.x counter name is read in a second look at the object */
		struct hb_jr oj = *rj;

		oj.p = obj;
		if ((rc = st_members(&oj, s, rn2, 1, NULL, &dummy, 0)))
			return st_oom_or_bad(rc, &oj, json, what, err);
		rl->memstore_size_mb = st_i64(&s->v[0]);
	}
	return 0;
}

/* Keeps region load k (its name in s->b) in node->regions. */
static int st_keep_region(struct hb_node *node, size_t *cap, size_t k, const struct st_scratch *s,
                          struct hb_region_load *rl)
{
	if (HB_VEC_GROW(node->regions, *cap, k + 1, 16))
		return HB_ENOMEM;
	rl->name_len = s->b.len;
	if (!(rl->name = malloc(s->b.len + 1)))
		return HB_ENOMEM;
	memcpy(rl->name, s->b.len ? s->b.data : "", s->b.len);
	rl->name[s->b.len] = 0;
	node->regions[k] = *rl;
	node->nregions = k + 1;
	return 0;
}

/* A node's Region array (at regs, read again after the node was skipped over): each load
 * handed to fn, or kept in node when want_regions. */
static int st_node_regions(const struct hb_jr *j, struct st_scratch *s, struct hb_node *node,
                           const char *regs, const char *ctx, int want_regions,
                           hb_region_load_fn fn, void *fn_ctx, const char *json, const char *what,
                           struct hb_error *err)
{
	struct hb_jr rj = *j;
	size_t k = 0, cap = 0;
	int m, rc;

	rj.p = regs + 1;
	rj.drop = hb_json_drop_from(j->drop, regs);
	m = hb_jr_peek(&rj) == ']' ? (rj.p++, 0) : 1;
	for (; m == 1; k++, m = hb_jr_next(&rj, ']')) {
		struct hb_region_load rl;
		char rctx[96];

		snprintf(rctx, sizeof(rctx), "%sRegion[%zu].", ctx, k);
		if (hb_jr_peek(&rj) != '{')
			return HB_BAD("%sRegion[%zu] is not an object", ctx, k);
		if ((rc = st_region_load(&rj, s, rctx, &rl, json, what, err)))
			return rc;
		if (fn) {
			rl.name = (unsigned char *)(s->b.len ? s->b.data : "");
			rl.name_len = s->b.len;
			if ((rc = fn(fn_ctx, node, &rl, err)))
				return rc;
		} else if (want_regions && st_keep_region(node, &cap, k, s, &rl)) {
			return hb_json_oom(err);
		}
	}
	return 0;
}

static int st_node(struct hb_jr *j, struct st_scratch *s, struct hb_node *node, size_t idx,
                   int want_regions, hb_region_load_fn fn, void *fn_ctx, const char *json,
                   const char *what, struct hb_error *err)
{
	static const char *const nn[] = {"name", "startCode", "requests", "heapSizeMB",
	                                 "maxHeapSizeMB"};
	static const char *const regcont[] = {"Region"};
	const char *regs;
	char ctx[64];
	int rc;

	snprintf(ctx, sizeof(ctx), "LiveNodes[%zu].", idx);
	if (hb_jr_peek(j) != '{')
		return HB_BAD("LiveNodes[%zu] is not an object", idx);
	if ((rc = st_members(j, s, nn, 5, regcont, &regs, 1)))
		return st_oom_or_bad(rc, j, json, what, err);
	if (s->v[0].kind != HB_JR_ABSENT && s->v[0].kind != HB_JR_NULL &&
	    s->v[0].kind != HB_JR_STRING)
		return HB_BAD("%sname is not a string", ctx);
	if (s->v[0].kind != HB_JR_STRING)
		return HB_BAD("%sname is missing", ctx);
	if (!(node->name = strdup(s->v[0].buf.data)))
		return hb_json_oom(err);
	node->start_code = st_i64(&s->v[1]);
	node->requests = st_i64(&s->v[2]);
	node->heap_mb = st_i64(&s->v[3]);
	node->max_heap_mb = st_i64(&s->v[4]);
	if (!regs || *regs == 'n')
		return 0;
	if (*regs != '[')
		return HB_BAD("%sRegion is not an array", ctx);
	return st_node_regions(j, s, node, regs, ctx, want_regions, fn, fn_ctx, json, what, err);
}

int hb_rest_decode_status_each(const char *json, size_t len, const char *what,
                               struct hb_cluster_status *out, int want_regions, int mapped,
                               hb_region_load_fn fn, void *ctx, struct hb_error *err)
{
	static const char *const tn[] = {"regions", "requests", "averageLoad"};
	static const char *const tc[] = {"LiveNodes", "DeadNodes"};
	struct st_scratch s;
	const char *pos[2];
	size_t i, cap = 0;
	struct hb_jr j;
	int rc = 0, m;

	memset(out, 0, sizeof(*out));
	if ((rc = hb_jr_open_object(&j, json, len, mapped, what, err)))
		return rc;
	memset(&s, 0, sizeof(s));
	if ((rc = st_members(&j, &s, tn, 3, tc, pos, 2))) {
		rc = st_oom_or_bad(rc, &j, json, what, err);
		goto done;
	}
	out->regions = st_i64(&s.v[0]);
	out->requests = st_i64(&s.v[1]);
	out->average_load = s.v[2].kind == HB_JR_NUMBER ? s.v[2].num : 0;
	for (i = 0; i < 2; i++)
		if (pos[i] && *pos[i] != 'n' && *pos[i] != '[') {
			rc = HB_BAD("%s is not an array", tc[i]);
			goto done;
		}
	if (pos[0] && *pos[0] == '[') {
		j.p = pos[0] + 1;
		j.drop = mapped ? json : NULL;
		m = hb_jr_peek(&j) == ']' ? (j.p++, 0) : 1;
		for (i = 0; m == 1; i++) {
			if (HB_VEC_GROW(out->live, cap, i + 1, 8)) {
				rc = hb_json_oom(err);
				goto done;
			}
			memset(&out->live[i], 0, sizeof(out->live[i]));
			out->nlive = i + 1;
			rc = st_node(&j, &s, &out->live[i], i, want_regions, fn, ctx, json, what,
			             err);
			if (rc)
				goto done;
			m = hb_jr_next(&j, ']');
		}
	}
	if (pos[1] && *pos[1] == '[') {
		cap = 0;
		j.p = pos[1] + 1;
		m = hb_jr_peek(&j) == ']' ? (j.p++, 0) : 1;
		while (m == 1) {
			hb_jr_val_reset(&s.v[0]);
			if ((rc = hb_jr_read(&j, &s.v[0]))) {
				rc = st_oom_or_bad(rc, &j, json, what, err);
				goto done;
			}
			if (s.v[0].kind != HB_JR_STRING) {
				rc = HB_BAD("DeadNodes[%zu] is not a string", out->ndead);
				goto done;
			}
			if (HB_VEC_GROW(out->dead, cap, out->ndead + 1, 8) ||
			    !(out->dead[out->ndead] = strdup(s.v[0].buf.data))) {
				rc = hb_json_oom(err);
				goto done;
			}
			out->ndead++;
			m = hb_jr_next(&j, ']');
		}
	}
done:
	for (i = 0; i < HB_ARRAY_LEN(s.v); i++)
		hb_buf_release(&s.v[i].buf);
	hb_buf_release(&s.name);
	hb_buf_release(&s.b);
	if (rc)
		hb_cluster_status_release(out);
	return rc;
}

int hb_rest_decode_status(const char *json, size_t len, const char *what,
                          struct hb_cluster_status *out, struct hb_error *err)
{
	return hb_rest_decode_status_each(json, len, what, out, 1, 0, NULL, NULL, err);
}
