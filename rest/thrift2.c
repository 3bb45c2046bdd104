/* Thrift2 over HTTP: libcurl POSTs of TBinaryProtocol messages, replies decoded by core/thrift. */
#include "rest/thrift2.h"

#include "rest/curlx.h"

#include "core/activity.h"
#include "core/interrupt.h"

#include <curl/curl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define DEFAULT_MAX_BODY ((size_t)64 << 20)

struct hb_thrift2 {
	CURL *h;
	char *url;
	struct hb_thrift2_opts o;
	struct hb_curlx_conf conf;
	int32_t seqid;
	struct hb_curlx_sink sink;
	char errbuf[CURL_ERROR_SIZE];
	int answered; /* an HTTP answer came back earlier in the run: the server speaks the URL's
	               * scheme, and a reset is no sign of TLS */
};

static void tracef(struct hb_thrift2 *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void tracef(struct hb_thrift2 *c, const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	if (!c->o.trace)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	c->o.trace(c->o.trace_ctx, line);
}

int hb_thrift2_new(struct hb_thrift2 **out, const struct hb_thrift2_opts *o, struct hb_error *err)
{
	struct hb_thrift2 *c;
	char *url;
	int fail, rc;

	*out = NULL;
	if ((rc = hb_curlx_server_url(&url, o->url, "Thrift2", err)))
		return rc;
	if (hb_curlx_global_init(err)) {
		free(url);
		return HB_ENOMEM;
	}
	c = calloc(1, sizeof(*c));
	if (!c) {
		free(url);
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	}
	c->o = *o;
	c->url = url;
	fail = hb_curlx_conf_copy(&c->conf, o->user, o->password, o->cacert, o->cert, o->key);
	c->h = curl_easy_init();
	if (fail || !c->h) {
		hb_thrift2_free(c);
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	}
	if (!c->o.max_body)
		c->o.max_body = DEFAULT_MAX_BODY;
	if (!(c->o.timeout > 0))
		c->o.timeout = 30;
	c->conf.timeout = c->o.timeout;
	c->conf.insecure = c->o.insecure;
	c->conf.negotiate = c->o.negotiate;
	*out = c;
	return 0;
}

void hb_thrift2_free(struct hb_thrift2 *c)
{
	if (!c)
		return;
	if (c->h)
		curl_easy_cleanup(c->h);
	free(c->url);
	hb_curlx_conf_release(&c->conf);
	free(c);
}

int32_t hb_thrift2_next_seqid(struct hb_thrift2 *c)
{
	if (c->seqid == INT32_MAX)
		c->seqid = 0;
	return ++c->seqid;
}

static int setup(struct hb_thrift2 *c, struct curl_slist *hdrs, const void *msg, size_t len)
{
	CURL *h = c->h;
	CURLcode e = hb_curlx_setup(h, &c->conf, c->url, hdrs, &c->sink, c->errbuf);

#define SET(opt, val)                                                                              \
	do {                                                                                       \
		if (e == CURLE_OK)                                                                 \
			e = curl_easy_setopt(h, opt, val);                                         \
	} while (0)
	if (c->conf.negotiate) {
		SET(CURLOPT_HTTPAUTH, (long)CURLAUTH_NEGOTIATE);
		SET(CURLOPT_USERPWD, ":");
	} else if (c->conf.user) {
		/* the caller resolves the password (HBTAB_PASSWORD, ~/.netrc) */
		SET(CURLOPT_USERNAME, c->conf.user);
		SET(CURLOPT_PASSWORD, c->conf.password ? c->conf.password : "");
		SET(CURLOPT_HTTPAUTH, (long)CURLAUTH_BASIC);
	}
	SET(CURLOPT_POST, 1L);
	SET(CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)len);
	SET(CURLOPT_POSTFIELDS, (const char *)msg);
#undef SET
	return e == CURLE_OK ? 0 : -1;
}

#define THRIFT_CTYPE "application/x-thrift"

static int transient(CURLcode e)
{
	return e == CURLE_COULDNT_CONNECT || e == CURLE_OPERATION_TIMEDOUT ||
	       e == CURLE_SEND_ERROR || e == CURLE_RECV_ERROR || e == CURLE_GOT_NOTHING ||
	       e == CURLE_PARTIAL_FILE;
}

/* POSTs msg, resending on transient faults (any call whose request never reached the
 * server; an idempotent one also after that), until curl answers OK. */
static int post_with_retries(struct hb_thrift2 *c, struct curl_slist *hdrs, const char *method,
                             const void *msg, size_t len, int idempotent, struct hb_buf *reply_body,
                             struct hb_error *err)
{
	int attempt;

	for (attempt = 0;; attempt++) {
		CURLcode e;
		char label[160];
		double wait;

		hb_buf_reset(reply_body);
		c->sink.buf = reply_body;
		c->sink.max = c->o.max_body;
		c->sink.overflow = 0;
		c->errbuf[0] = 0;
		if (setup(c, hdrs, msg, len))
			return hb_error_set(err, HB_EINVAL, "thrift2 %s: cannot set up the request",
			                    method);
		tracef(c, "thrift2 %s: POST %s (%zu bytes, attempt %d)", method, c->url, len,
		       attempt + 1);
		hb_interrupt_transfer(1);
		hb_activity_begin(NULL);
		e = curl_easy_perform(c->h);
		hb_activity_end();
		hb_interrupt_transfer(0);
		c->sink.buf = NULL;
		if (e == CURLE_OK) {
			c->answered = 1;
			return 0;
		}
		if (c->sink.overflow)
			return hb_error_set(err, HB_ESERVER,
			                    "thrift2 %s: reply larger than %zu bytes", method,
			                    c->o.max_body);
		/* A refused connection never reached the server, so even createTable may be
		 * resent. */
		if (!(attempt < c->o.retries && transient(e) &&
		      (idempotent || e == CURLE_COULDNT_CONNECT)))
			return hb_error_set(err, hb_curlx_local_tls(e) ? HB_EINVAL : HB_ENET,
			                    "thrift2 %s: cannot POST %s: %s%s", method, c->url,
			                    hb_curlx_reason(e, c->errbuf),
			                    hb_curlx_hint_after(c->url, e, c->errbuf, c->answered));
		wait = 0.2 * (double)(1 << (attempt < 4 ? attempt : 4));
		tracef(c, "thrift2 %s: %s; retrying in %.1f s", method,
		       hb_curlx_reason(e, c->errbuf), wait);
		snprintf(label, sizeof(label), "thrift2 %s: %s; retrying", method,
		         hb_curlx_reason(e, c->errbuf));
		hb_activity_sleep(label, wait);
	}
}

/* A status other than 200, with the answer's first line and, for 401, what to do. */
static int status_error(struct hb_thrift2 *c, const char *method, long status,
                        const struct hb_buf *reply_body, struct hb_error *err)
{
	char first[160];
	size_t n = hb_curlx_first_line(first, sizeof(first), hb_buf_str(reply_body));

	if (status != 401)
		return hb_error_set(err, HB_ESERVER, "thrift2 %s: HTTP %ld%s%s", method, status,
		                    n ? ": " : "", first);
	if (c->conf.user && c->conf.password && !c->conf.negotiate)
		return hb_error_set(err, HB_ESERVER,
		                    "thrift2 %s: HTTP 401: authentication failed%s%s (user '%s' "
		                    "was refused with the password from %s)",
		                    method, n ? ": " : "", first, c->conf.user,
		                    c->o.password_from ? c->o.password_from : "the caller");
	return hb_error_set(err, HB_ESERVER, "thrift2 %s: HTTP 401: authentication failed%s%s (%s)",
	                    method, n ? ": " : "", first,
	                    c->conf.negotiate
	                        ? "check the Kerberos ticket with klist; kinit gets one"
	                    : !c->conf.user ? "the Thrift2 server wants a login: add --user NAME, "
	                                      "with the password in HBTAB_PASSWORD or ~/.netrc"
	                                    : "no password: set HBTAB_PASSWORD, or add a "
	                                      "'machine HOST login NAME password ...' line to "
	                                      "~/.netrc");
}

/* A reply that did not parse: when its content type is not Thrift's (a proxy's or a web
 * server's page), say what it is; otherwise the parser's message for method. */
static int reply_error(struct hb_thrift2 *c, const char *method, int rc, struct hb_error *err)
{
	char *ctype = NULL, shown[128];
	size_t i;

	if (curl_easy_getinfo(c->h, CURLINFO_CONTENT_TYPE, &ctype) != CURLE_OK || !ctype ||
	    !strncasecmp(ctype, THRIFT_CTYPE, strlen(THRIFT_CTYPE))) {
		hb_error_prefix(err, rc, "thrift2 %s", method);
		return rc;
	}
	snprintf(shown, sizeof(shown), "%s", ctype);
	for (i = 0; shown[i]; i++)
		if ((unsigned char)shown[i] < 0x20 || (unsigned char)shown[i] >= 0x7f)
			shown[i] = '?';
	return hb_error_set(err, HB_ESERVER,
	                    "thrift2 %s: unexpected content type '%s' from POST %s (expected "
	                    "%s; is --thrift pointing at a Thrift2 server in HTTP mode?)",
	                    method, shown, c->url, THRIFT_CTYPE);
}

int hb_thrift2_call(struct hb_thrift2 *c, const char *method, int32_t seqid, const void *msg,
                    size_t len, int idempotent, struct hb_buf *reply_body,
                    struct hb_thrift_reply *r, struct hb_error *err)
{
	struct curl_slist *hdrs = NULL, *t;
	long status = 0;
	int rc;

	t = curl_slist_append(NULL, "Content-Type: application/x-thrift");
	hdrs = t;
	if (t)
		t = curl_slist_append(hdrs, "Accept: application/x-thrift");
	if (t)
		t = curl_slist_append(hdrs, "Expect:");
	if (!t) {
		curl_slist_free_all(hdrs);
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	}
	rc = post_with_retries(c, hdrs, method, msg, len, idempotent, reply_body, err);
	curl_slist_free_all(hdrs);
	if (rc)
		return rc;
	curl_easy_getinfo(c->h, CURLINFO_RESPONSE_CODE, &status);
	tracef(c, "thrift2 %s: HTTP %ld, %zu bytes", method, status, reply_body->len);
	if (status != 200)
		return status_error(c, method, status, reply_body, err);
	rc = hb_thrift_reply_parse(r, reply_body->data ? reply_body->data : "", reply_body->len,
	                           method, seqid, err);
	return rc ? reply_error(c, method, rc, err) : 0;
}

/* Sends a DDL call (msg, encoded with seqid) once and judges its reply: *outcome (and
 * *app_type) as the reply says, when given. */
static int ddl_call(struct hb_thrift2 *c, const char *method, int32_t seqid,
                    const struct hb_buf *msg, enum hb_thrift_outcome *outcome, int32_t *app_type,
                    struct hb_error *err)
{
	struct hb_buf body = HB_BUF_INIT;
	struct hb_thrift_reply r;
	int rc;

	hb_thrift_reply_init(&r);
	rc = hb_thrift2_call(c, method, seqid, msg->data, msg->len, 0, &body, &r, err);
	if (!rc) {
		if (outcome)
			*outcome = r.outcome;
		if (app_type)
			*app_type = r.app_type;
		rc = hb_thrift_reply_error(&r, method, err);
	}
	hb_thrift_reply_release(&r);
	hb_buf_release(&body);
	return rc;
}

int hb_thrift2_create_table(struct hb_thrift2 *c, const struct hb_schema *s,
                            const struct hb_keys *splits, enum hb_thrift_outcome *outcome,
                            struct hb_error *err)
{
	struct hb_buf msg = HB_BUF_INIT;
	int32_t seqid = hb_thrift2_next_seqid(c);
	int rc = hb_thrift_encode_create_table(&msg, seqid, s, splits, err);

	if (!rc)
		rc = ddl_call(c, "createTable", seqid, &msg, outcome, NULL, err);
	hb_buf_release(&msg);
	return rc;
}

/* What a query's reply holds, decoded into out. */
typedef int (*reply_decode_fn)(const struct hb_thrift_reply *r, void *out, struct hb_error *err);

static int decode_bool(const struct hb_thrift_reply *r, void *out, struct hb_error *err)
{
	return hb_thrift_reply_bool(r, out, err);
}

static int decode_regions(const struct hb_thrift_reply *r, void *out, struct hb_error *err)
{
	int rc = hb_thrift_reply_regions(r, out, err);

	if (!rc)
		hb_regions_sort(out);
	return rc;
}

static int decode_table_desc(const struct hb_thrift_reply *r, void *out, struct hb_error *err)
{
	return hb_thrift_reply_table_desc(r, out, err);
}

/* Runs a one-TTableName query (or getAllRegionLocations), its reply decoded into out. */
static int table_call(struct hb_thrift2 *c, const char *method, const char *table,
                      reply_decode_fn decode, void *out, struct hb_error *err)
{
	struct hb_buf msg = HB_BUF_INIT, body = HB_BUF_INIT;
	struct hb_thrift_reply r;
	int32_t seqid = hb_thrift2_next_seqid(c);
	int rc;

	hb_thrift_reply_init(&r);
	if (!strcmp(method, "getAllRegionLocations"))
		rc = hb_thrift_encode_region_locations(&msg, seqid, table, err);
	else
		rc = hb_thrift_encode_table_call(&msg, method, seqid, table, err);
	if (!rc)
		rc = hb_thrift2_call(c, method, seqid, msg.data, msg.len, 1, &body, &r, err);
	if (!rc)
		rc = hb_thrift_reply_error(&r, method, err);
	if (!rc)
		rc = decode(&r, out, err);
	hb_thrift_reply_release(&r);
	hb_buf_release(&msg);
	hb_buf_release(&body);
	return rc;
}

int hb_thrift2_table_exists(struct hb_thrift2 *c, const char *table, int *exists,
                            struct hb_error *err)
{
	return table_call(c, "tableExists", table, decode_bool, exists, err);
}

int hb_thrift2_is_table_enabled(struct hb_thrift2 *c, const char *table, int *enabled,
                                struct hb_error *err)
{
	return table_call(c, "isTableEnabled", table, decode_bool, enabled, err);
}

int hb_thrift2_is_table_disabled(struct hb_thrift2 *c, const char *table, int *disabled,
                                 struct hb_error *err)
{
	return table_call(c, "isTableDisabled", table, decode_bool, disabled, err);
}

int hb_thrift2_is_table_available(struct hb_thrift2 *c, const char *table, int *available,
                                  struct hb_error *err)
{
	return table_call(c, "isTableAvailable", table, decode_bool, available, err);
}

/* A DDL call with a void result (enableTable, disableTable, truncateTable): sent once. */
static int void_call(struct hb_thrift2 *c, const char *method, const char *table, int truncate,
                     int preserve, enum hb_thrift_outcome *outcome, int32_t *app_type,
                     struct hb_error *err)
{
	struct hb_buf msg = HB_BUF_INIT;
	int32_t seqid = hb_thrift2_next_seqid(c);
	int rc;

	if (outcome)
		*outcome = HB_TR_VOID;
	if (app_type)
		*app_type = -1;
	rc = truncate ? hb_thrift_encode_truncate_table(&msg, seqid, table, preserve, err)
	              : hb_thrift_encode_table_call(&msg, method, seqid, table, err);
	if (!rc)
		rc = ddl_call(c, method, seqid, &msg, outcome, app_type, err);
	hb_buf_release(&msg);
	return rc;
}

int hb_thrift2_enable_table(struct hb_thrift2 *c, const char *table,
                            enum hb_thrift_outcome *outcome, int32_t *app_type,
                            struct hb_error *err)
{
	return void_call(c, "enableTable", table, 0, 0, outcome, app_type, err);
}

int hb_thrift2_disable_table(struct hb_thrift2 *c, const char *table,
                             enum hb_thrift_outcome *outcome, int32_t *app_type,
                             struct hb_error *err)
{
	return void_call(c, "disableTable", table, 0, 0, outcome, app_type, err);
}

int hb_thrift2_truncate_table(struct hb_thrift2 *c, const char *table, int preserve_splits,
                              enum hb_thrift_outcome *outcome, int32_t *app_type,
                              struct hb_error *err)
{
	return void_call(c, "truncateTable", table, 1, preserve_splits, outcome, app_type, err);
}

int hb_thrift2_region_locations(struct hb_thrift2 *c, const char *table, struct hb_regions *out,
                                struct hb_error *err)
{
	return table_call(c, "getAllRegionLocations", table, decode_regions, out, err);
}

int hb_thrift2_table_descriptor(struct hb_thrift2 *c, const char *table, struct hb_schema *out,
                                struct hb_error *err)
{
	return table_call(c, "getTableDescriptor", table, decode_table_desc, out, err);
}
