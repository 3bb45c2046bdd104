/* The REST request engine: URL and headers, attempts with retries and backoff, the response
 * record and the status messages. Each attempt's transfer is rest/curlx.c's. */
#include "rest/rest.h"

#include "core/activity.h"
#include "rest/curlx.h"
#include "rest/rest_priv.h"
#include "rest/tempfile.h"

#include "core/interrupt.h"

#include <curl/curl.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <time.h>

#define DEFAULT_MAX_BODY        ((size_t)256 << 20)
#define DEFAULT_RETRY_AFTER_CAP 30.0
/* With hbtab's default of 8 retries: at least 13.75 s and at most 27.5 s of back-off in all
 * (cli/cli.h, CLI_DEFAULT_RETRIES). */
#define BACKOFF_BASE 0.5
#define BACKOFF_MAX  5.0

struct hb_rest {
	struct hb_curlx_xfer x; /* the handle, its trace and what its last transfer reported */
	char *base;             /* without a trailing '/' */
	const char *base_path;  /* its path part ("" without one), inside base */
	struct hb_curlx_conf conf;
	double max_retry_after;
	long retries;
	size_t max_body;
	hb_rest_progress_fn progress;
	void *progress_ctx;
	hb_rest_notice_fn notice;
	void *notice_ctx;
	unsigned long attempts;
	unsigned int seed;
	char password_from[32];
	int protobuf_refused; /* the gateway (or a proxy) refused protobuf once: ask for JSON */
};

/* Longest part of a request path quoted in a message; the reason after it must survive. */
#define PATH_SHOWN 160

/* printf arguments for a path cut to PATH_SHOWN bytes: use with "%.*s%s". */
#define SHOWN(p)                                                                                   \
	(int)(strlen(p) > PATH_SHOWN ? PATH_SHOWN : strlen(p)), (p),                               \
	    (strlen(p) > PATH_SHOWN ? "..." : "")

/* The path part of a base URL ("" without one), inside it. */
static const char *base_path_of(const char *base)
{
	const char *h = strstr(base, "://");

	h = h ? h + 3 : base;
	h += strcspn(h, "/?#");
	return *h == '/' ? h : "";
}

int hb_rest_new(struct hb_rest **out, const struct hb_rest_opts *o, struct hb_error *err)
{
	struct hb_rest *c;
	char *base;
	int fail, rc;
	size_t n;

	*out = NULL;
	if (!o->base_url)
		return hb_error_set(err, HB_EINVAL, "no REST URL given");
	/* credentials are refused there: on the command line they end up in ps and logs */
	if ((rc = hb_curlx_server_url(&base, o->base_url, "REST", err)))
		return rc;
	if (hb_curlx_global_init(err)) {
		free(base);
		return HB_ENOMEM;
	}
	c = calloc(1, sizeof(*c));
	if (!c) {
		free(base);
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	}
	fail = hb_curlx_xfer_init(&c->x, o->trace, o->trace_ctx);
	c->base = base;
	snprintf(c->password_from, sizeof(c->password_from), "%s",
	         o->password_from ? o->password_from : "the caller");
	if (hb_curlx_conf_copy(&c->conf, o->user, o->password, o->cacert, o->cert, o->key))
		fail = HB_ENOMEM;
	if (fail) {
		hb_rest_free(c);
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	}
	n = strlen(c->base);
	while (n > 0 && c->base[n - 1] == '/')
		c->base[--n] = '\0';
	c->base_path = base_path_of(c->base);
	c->conf.timeout = o->timeout > 0 ? o->timeout : 30;
	c->retries = o->retries < 0 ? 0 : o->retries;
	c->conf.insecure = o->insecure;
	c->conf.negotiate = o->negotiate;
	c->conf.compressed = o->compressed;
	c->max_body = o->max_body ? o->max_body : DEFAULT_MAX_BODY;
	c->max_retry_after = o->max_retry_after > 0 ? o->max_retry_after : DEFAULT_RETRY_AFTER_CAP;
	c->seed = (unsigned int)time(NULL) ^ (unsigned int)(size_t)c;
	*out = c;
	return 0;
}

void hb_rest_free(struct hb_rest *c)
{
	if (!c)
		return;
	hb_curlx_xfer_release(&c->x);
	free(c->base);
	hb_curlx_conf_release(&c->conf);
	free(c);
}

int hb_rest_sibling(struct hb_rest **out, const struct hb_rest *c, struct hb_error *err)
{
	struct hb_rest *s = calloc(1, sizeof(*s));
	int fail;

	*out = NULL;
	if (!s)
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	fail = hb_curlx_xfer_init(&s->x, c->x.trace, c->x.trace_ctx);
	s->base = strdup(c->base);
	if (hb_curlx_conf_copy(&s->conf, c->conf.user, c->conf.password, c->conf.cacert,
	                       c->conf.cert, c->conf.key) ||
	    !s->base)
		fail = HB_ENOMEM;
	if (fail) {
		hb_rest_free(s);
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	}
	s->base_path = base_path_of(s->base);
	s->conf.timeout = c->conf.timeout;
	s->conf.idle_timeout = c->conf.idle_timeout;
	s->conf.insecure = c->conf.insecure;
	s->conf.negotiate = c->conf.negotiate;
	s->conf.compressed = c->conf.compressed;
	s->retries = c->retries;
	s->max_body = c->max_body;
	s->max_retry_after = c->max_retry_after;
	s->seed = c->seed ^ (unsigned int)(size_t)s;
	s->protobuf_refused = c->protobuf_refused;
	memcpy(s->password_from, c->password_from, sizeof(s->password_from));
	*out = s;
	return 0;
}

int hb_rest_protobuf_refused(const struct hb_rest *c)
{
	return c->protobuf_refused;
}

void hb_rest_note_protobuf_refused(struct hb_rest *c)
{
	c->protobuf_refused = 1;
}

int hb_rest_streaming(const struct hb_rest *c)
{
	return c->x.sink.streaming == 1;
}

unsigned long hb_rest_attempts(const struct hb_rest *c)
{
	return c->attempts;
}

void hb_rest_set_progress(struct hb_rest *c, hb_rest_progress_fn fn, void *ctx)
{
	c->progress = fn;
	c->progress_ctx = ctx;
}

void hb_rest_report_progress(struct hb_rest *c, size_t done, size_t total)
{
	if (c->progress)
		c->progress(c->progress_ctx, done, total);
}

void hb_rest_set_notice(struct hb_rest *c, hb_rest_notice_fn fn, void *ctx)
{
	c->notice = fn;
	c->notice_ctx = ctx;
}

void hb_rest_report_notice(struct hb_rest *c, const char *msg)
{
	if (c->notice)
		c->notice(c->notice_ctx, msg);
}

void hb_rest_tracef(struct hb_rest *c, const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	hb_curlx_tracef(&c->x, "%s", line);
}

int hb_rest_idle_timeout(struct hb_rest *c, int on)
{
	int was = c->conf.idle_timeout;

	c->conf.idle_timeout = on;
	return was;
}

long hb_rest_retry_budget(const struct hb_rest *c)
{
	return c->retries;
}

void hb_rest_resp_init(struct hb_rest_resp *r)
{
	r->status = 0;
	hb_buf_init(&r->body, 0);
	r->spool = 0;
	r->accept = NULL;
	r->stream = NULL;
	r->streamed = 0;
	r->map = NULL;
	r->map_len = 0;
	r->content_type[0] = '\0';
	r->location[0] = '\0';
	r->retry_after = -1;
	r->auth_note[0] = '\0';
	r->challenge[0] = '\0';
	r->login[0] = '\0';
	r->password_from[0] = '\0';
	r->host[0] = '\0';
	r->prefix[0] = '\0';
}

void hb_rest_resp_release(struct hb_rest_resp *r)
{
	int spool = r->spool;
	const char *accept = r->accept;
	const struct hb_rest_stream *stream = r->stream;

	hb_buf_release(&r->body);
	if (r->map)
		munmap((void *)r->map, r->map_len);
	hb_rest_resp_init(r);
	r->spool = spool;
	r->accept = accept;
	r->stream = stream;
}

const char *hb_rest_resp_body(const struct hb_rest_resp *r, size_t *len)
{
	if (r->map) {
		*len = r->map_len;
		return r->map;
	}
	*len = r->body.len;
	return r->body.data;
}

/* A spooled body costs disk, not memory: it may be 64 times the in-memory cap. */
static size_t spool_max(const struct hb_rest *c)
{
	return c->max_body > SIZE_MAX / 64 ? SIZE_MAX : c->max_body * 64;
}

/* The end of a spooled transfer: a 200's body mapped, another status's read back into
 * memory (at most max bytes). */
static int spool_finish(struct hb_rest_resp *r, FILE *f, size_t n, size_t max)
{
	void *m;

	if (fflush(f))
		return -1;
	if (r->status == 200 && n) {
		m = mmap(NULL, n, PROT_READ, MAP_PRIVATE, fileno(f), 0);
		if (m == MAP_FAILED)
			return -1;
		r->map = m;
		r->map_len = n;
		return 0;
	}
	if (n > max || fseek(f, 0, SEEK_SET) || hb_buf_grow(&r->body, n))
		return -1;
	if (n && fread(r->body.data, 1, n, f) != n)
		return -1;
	r->body.len = n;
	r->body.data[n] = 0;
	return 0;
}

int hb_rest_path_escape(struct hb_buf *out, const void *p, size_t n)
{
	return hb_curlx_escape(out, p, n);
}

/* Retries left to a request: none once a signal asks hbtab to stop (one clean-up attempt). */
static long retry_budget(const struct hb_rest *c)
{
	return hb_interrupted ? 0 : c->retries;
}

/* Transport failures worth another attempt (the server may not have seen the request). */
static int transient(CURLcode e)
{
	switch (e) {
	case CURLE_COULDNT_CONNECT:
	case CURLE_OPERATION_TIMEDOUT:
	case CURLE_SEND_ERROR:
	case CURLE_RECV_ERROR:
	case CURLE_GOT_NOTHING:
	case CURLE_PARTIAL_FILE:
	case CURLE_HTTP2:
	case CURLE_HTTP2_STREAM:
		return 1;
	default:
		return 0;
	}
}

static double backoff(struct hb_rest *c, int attempt, double retry_after)
{
	double b = BACKOFF_BASE, d;
	int i;

	for (i = 0; i < attempt && b < BACKOFF_MAX; i++)
		b *= 2;
	if (b > BACKOFF_MAX)
		b = BACKOFF_MAX;
	/* "Equal jitter": half fixed, half random, so clients spread out but still back off. */
	d = b / 2 + (b / 2) * ((double)rand_r(&c->seed) / RAND_MAX);
	if (retry_after >= 0) {
		if (retry_after > c->max_retry_after)
			retry_after = c->max_retry_after;
		if (retry_after > d)
			d = retry_after;
	}
	return d;
}

/* What a 401/403 message says about the credentials that were sent. */
static void note_login(const struct hb_rest *c, struct hb_rest_resp *r)
{
	const char *host = strstr(c->base, "://");
	size_t n;

	snprintf(r->login, sizeof(r->login), "%s", c->conf.user ? c->conf.user : "");
	snprintf(r->password_from, sizeof(r->password_from), "%s",
	         c->conf.password ? c->password_from : "");
	host = host ? host + 3 : c->base;
	n = strcspn(host, "/:?#");
	if (*host == '[') /* an IPv6 literal keeps its colons */
		n = strcspn(host, "]") + 1;
	snprintf(r->host, sizeof(r->host), "%.*s", (int)(n < sizeof(r->host) ? n : 0), host);
}

/* One request's fixed parts, kept for all of its attempts. */
struct request {
	const char *method, *path;
	int idempotent;
	struct hb_buf url;
	struct hb_curlx_request wire;
	struct hb_rest_resp *resp;
	FILE *spool_f; /* the current attempt's spool file, or NULL */
};

/* Another attempt is due: a value that neither an HB_E* code nor a stream's own positive
 * stop code (its callback's, handed back as the request's result) has. */
#define RETRY (-1000)

/* The URL and the headers: Accept, the CSRF header on writes, Content-Type, no Expect. */
static int request_build(const struct hb_rest *c, struct request *q, const char *content_type,
                         struct hb_error *err)
{
	struct hb_buf ct = HB_BUF_INIT;
	struct curl_slist *t = NULL;
	int is_write = strcmp(q->method, "GET") && strcmp(q->method, "HEAD");

	if (!hb_buf_adds(&q->url, c->base) && !hb_buf_adds(&q->url, q->path) &&
	    !hb_buf_addf(&ct, "Accept: %s", q->resp->accept ? q->resp->accept : "application/json"))
		t = q->wire.hdrs = curl_slist_append(NULL, hb_buf_str(&ct));
	hb_buf_reset(&ct);
	/* CSRF filter (docs/hbase-wire.md §7); harmless everywhere, needed on writes. */
	if (t && is_write)
		t = curl_slist_append(q->wire.hdrs, "X-XSRF-HEADER: 1");
	if (t && content_type) {
		if (hb_buf_addf(&ct, "Content-Type: %s", content_type))
			t = NULL;
		else
			t = curl_slist_append(q->wire.hdrs, hb_buf_str(&ct));
	}
	if (t)
		t = curl_slist_append(q->wire.hdrs, "Expect:"); /* no 100-continue round trip */
	hb_buf_release(&ct);
	if (!t)
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	q->wire.url = hb_buf_str(&q->url);
	return 0;
}

/* A transfer that ended with a status: the body kept, the login noted for a 401/403 message,
 * and another attempt when a gateway's 502/503/504 may pass and the request may be resent. */
static int answered(struct hb_rest *c, struct request *q, int attempt, struct hb_error *err)
{
	struct hb_rest_resp *resp = q->resp;
	long status = c->x.status;
	char label[160];
	double wait;
	int rc;

	resp->status = status;
	resp->streamed = c->x.sink.streaming == 1;
	errno = 0;
	if (q->spool_f && !resp->streamed &&
	    spool_finish(resp, q->spool_f, c->x.sink.n, c->max_body)) {
		rc = hb_error_set(
		    err, HB_ESERVER, "cannot keep the response to %s %.*s%s (%zu bytes): %s",
		    q->method, SHOWN(q->path), c->x.sink.n, errno ? strerror(errno) : "too large");
		hb_rest_resp_release(resp);
		return rc;
	}
	if (c->conf.negotiate && (status == 401 || status == 403))
		snprintf(resp->auth_note, sizeof(resp->auth_note), "%s",
		         c->x.gss_note[0] ? c->x.gss_note : "-");
	if (status == 401 || status == 403)
		note_login(c, resp);
	hb_curlx_tracef(&c->x, "%s %s: HTTP %ld, %zu bytes", q->method, q->path, status,
	                q->spool_f || resp->streamed ? c->x.sink.n : resp->body.len);
	if (!(status == 502 || status == 503 || status == 504) || !q->idempotent ||
	    attempt >= retry_budget(c))
		return 0;
	wait = backoff(c, attempt, resp->retry_after);
	hb_curlx_tracef(&c->x, "HTTP %ld; retrying in %.2f s", status, wait);
	snprintf(label, sizeof(label), "the gateway answered HTTP %ld; retrying", status);
	hb_activity_sleep(label, wait);
	return RETRY;
}

/* A transfer that ended without a status: another attempt when the failure is transient and
 * the request may be resent, else the error. */
static int failed(struct hb_rest *c, struct request *q, int attempt, CURLcode e,
                  struct hb_error *err)
{
	char label[160], tries[32] = "";
	double wait;
	int rc;

	if (e == CURLE_ABORTED_BY_CALLBACK && hb_interrupt_stop()) {
		rc =
		    hb_error_set(err, HB_ENET, "%s %.*s%s: interrupted", q->method, SHOWN(q->path));
		hb_rest_resp_release(q->resp);
		return rc;
	}
	if (c->x.sink.stream_rc) {
		/* the body as it arrived was not what was asked for: no attempt would mend it */
		rc = hb_error_set(err, c->x.sink.stream_rc, "%s", c->x.sink.stream_err.msg);
		hb_rest_resp_release(q->resp);
		return rc;
	}
	if (c->x.sink.overflow)
		return hb_error_set(err, HB_ESERVER,
		                    "response to %s %.*s%s is larger than %zu bytes", q->method,
		                    SHOWN(q->path), q->spool_f ? spool_max(c) : c->max_body);
	if (c->x.sink.write_error) {
		rc = hb_error_set(err, HB_EINVAL,
		                  "cannot write the response to %s %.*s%s to a temporary file: %s",
		                  q->method, SHOWN(q->path), strerror(errno));
		hb_rest_resp_release(q->resp);
		return rc;
	}
	/* A refused connection never reached the server, so even a POST may be resent. */
	if (attempt < retry_budget(c) && transient(e) &&
	    (q->idempotent || e == CURLE_COULDNT_CONNECT)) {
		wait = backoff(c, attempt, -1);
		hb_curlx_tracef(&c->x, "%s; retrying in %.2f s", hb_curlx_reason(e, c->x.errbuf),
		                wait);
		snprintf(label, sizeof(label), "%s; retrying", hb_curlx_reason(e, c->x.errbuf));
		hb_activity_sleep(label, wait);
		return RETRY;
	}
	if (attempt)
		snprintf(tries, sizeof(tries), " (%d attempts)", attempt + 1);
	rc = hb_error_set(err, hb_curlx_local_tls(e) ? HB_EINVAL : HB_ENET,
	                  "cannot %s %s%.*s%s: %s%s%s", q->method, c->base, SHOWN(q->path),
	                  hb_curlx_reason(e, c->x.errbuf),
	                  hb_curlx_hint_after(c->base, e, c->x.errbuf, c->x.answered), tries);
	hb_rest_resp_release(q->resp);
	return rc;
}

/* The response headers the transfer read, into the response record. */
static void take_heads(struct hb_rest_resp *r, const struct hb_curlx_heads *h)
{
	_Static_assert(sizeof(r->content_type) == sizeof(h->content_type), "content_type");
	_Static_assert(sizeof(r->location) == sizeof(h->location), "location");
	_Static_assert(sizeof(r->challenge) == sizeof(h->challenge), "challenge");
	memcpy(r->content_type, h->content_type, sizeof(r->content_type));
	memcpy(r->location, h->location, sizeof(r->location));
	r->retry_after = h->retry_after;
	memcpy(r->challenge, h->challenge, sizeof(r->challenge));
}

/* One attempt: a fresh response record and body place, the transfer, then its judgement.
 * Returns 0 (done), RETRY or an HB_E* code. */
static int attempt_once(struct hb_rest *c, struct request *q, int attempt, struct hb_error *err)
{
	struct hb_rest_resp *resp = q->resp;
	struct hb_curlx_conf conf = c->conf;
	char line[1024];
	CURLcode e;

	hb_rest_resp_release(resp);
	if (q->spool_f)
		fclose(q->spool_f);
	q->spool_f = NULL;
	if (resp->spool && !(q->spool_f = hb_temp_file()))
		return hb_error_set(err, HB_EINVAL,
		                    "cannot create a temporary file in '%s' for the response to "
		                    "%s %.*s%s: %s (TMPDIR names the directory)",
		                    hb_temp_dir(), q->method, SHOWN(q->path), strerror(errno));
	c->x.sink.buf = &resp->body;
	c->x.sink.max = q->spool_f ? spool_max(c) : c->max_body;
	c->x.sink.overflow = 0;
	c->x.sink.f = q->spool_f;
	c->x.sink.n = 0;
	c->x.sink.write_error = 0;
	c->x.sink.stream_wants = resp->stream ? resp->stream->wants : NULL;
	c->x.sink.stream_start = resp->stream ? resp->stream->start : NULL;
	c->x.sink.stream_push = resp->stream ? resp->stream->push : NULL;
	c->x.sink.stream_ctx = resp->stream ? resp->stream->ctx : NULL;
	if (hb_interrupt_stop())
		return hb_error_set(err, HB_ENET, "%s %.*s%s: interrupted", q->method,
		                    SHOWN(q->path));
	/* Once a signal asks hbtab to stop, what still runs is clean-up (deleting the open
	 * scanner): it gets a short timeout, so a gateway that hangs cannot hold the exit. */
	if (hb_interrupted && conf.timeout > HB_REST_CLEANUP_TIMEOUT)
		conf.timeout = HB_REST_CLEANUP_TIMEOUT;
	snprintf(line, sizeof(line), "%s %s (attempt %d)", q->method, q->path, attempt + 1);
	if (hb_curlx_transfer(&c->x, &conf, &q->wire, line, &e))
		return hb_error_set(err, HB_EINVAL, "cannot set up %s %.*s%s", q->method,
		                    SHOWN(q->path));
	c->attempts++;
	take_heads(resp, &c->x.heads);
	snprintf(resp->prefix, sizeof(resp->prefix), "%s", c->base_path);
	return e == CURLE_OK ? answered(c, q, attempt, err) : failed(c, q, attempt, e, err);
}

/* A request goes one way: request_build, then per attempt attempt_once, which hands the
 * transfer to hb_curlx_transfer (rest/curlx.c) and judges what came back in answered (a
 * status) or failed (none). */
int hb_rest_request(struct hb_rest *c, const char *method, const char *path,
                    const char *content_type, const void *body, size_t len, int idempotent,
                    struct hb_rest_resp *resp, struct hb_error *err)
{
	struct request q = {.method = method,
	                    .path = path,
	                    .idempotent = idempotent,
	                    .url = HB_BUF_INIT,
	                    .wire = {.method = method, .body = body, .len = len},
	                    .resp = resp};
	int attempt = 0, rc;

	hb_rest_resp_release(resp);
	rc = request_build(c, &q, content_type, err);
	while (!rc && (rc = attempt_once(c, &q, attempt, err)) == RETRY) {
		rc = 0;
		attempt++;
	}
	if (q.spool_f)
		fclose(q.spool_f);
	curl_slist_free_all(q.wire.hdrs);
	hb_buf_release(&q.url);
	return rc;
}

/* A 401 without SPNEGO: says which credentials are missing or were refused, and where the
 * password comes from. */
static int unauthorized(const char *method, const char *path, const struct hb_rest_resp *r,
                        struct hb_error *err)
{
	int negotiate = strstr(r->challenge, "Negotiate") != NULL;
	int basic = strstr(r->challenge, "Basic") != NULL || !r->challenge[0];

	if (negotiate && !basic)
		return hb_error_set(err, HB_ESERVER,
		                    "%s %s%.*s%s: HTTP 401 Unauthorized: the REST gateway wants "
		                    "Kerberos: get a ticket with kinit and add --negotiate",
		                    method, r->prefix, SHOWN(path));
	if (!r->login[0])
		return hb_error_set(
		    err, HB_ESERVER,
		    "%s %s%.*s%s: HTTP 401 Unauthorized: the REST gateway wants a "
		    "login: add --user NAME, with the password in HBTAB_PASSWORD or "
		    "~/.netrc%s",
		    method, r->prefix, SHOWN(path),
		    negotiate ? " (or kinit and --negotiate for Kerberos)" : "");
	if (r->password_from[0])
		return hb_error_set(
		    err, HB_ESERVER,
		    "%s %s%.*s%s: HTTP 401 Unauthorized: the REST gateway refused user "
		    "'%s' with the password from %s",
		    method, r->prefix, SHOWN(path), r->login, r->password_from);
	return hb_error_set(err, HB_ESERVER,
	                    "%s %s%.*s%s: HTTP 401 Unauthorized: no password for user '%s': "
	                    "HBTAB_PASSWORD is not set and ~/.netrc has no accepted entry for %s; "
	                    "set HBTAB_PASSWORD, or add 'machine %s login %s password ...' to "
	                    "~/.netrc",
	                    method, r->prefix, SHOWN(path), r->login, r->host, r->host, r->login);
}

int hb_rest_status_error(const char *method, const char *path, const struct hb_rest_resp *r,
                         struct hb_error *err)
{
	char first[200];
	/* Only the first line: the rest is a Java stack trace. Control bytes are dropped. */
	size_t n = hb_curlx_first_line(first, sizeof(first), hb_buf_str(&r->body));
	int code = r->status == 404 ? HB_ENOTFOUND : HB_ESERVER;
	char denied[400];

	/* HBase's own refusal (ResourceBase: "Forbidden" and the AccessDeniedException): the
	 * login worked, the identity lacks a permission */
	if (r->status == 403 && hb_error_denied(denied, sizeof(denied), hb_buf_str(&r->body)))
		return hb_error_set(err, code, "%s %s%.*s%s: HTTP 403: %s", method, r->prefix,
		                    SHOWN(path), denied);
	if ((r->status == 401 || r->status == 403) && r->auth_note[0]) {
		if (strcmp(r->auth_note, "-"))
			return hb_error_set(
			    err, code,
			    "%s %s%.*s%s: HTTP %ld: Kerberos SPNEGO failed: %s (check "
			    "the ticket with klist; kinit gets one)",
			    method, r->prefix, SHOWN(path), r->status, r->auth_note);
		if (r->status == 401)
			return hb_error_set(
			    err, code,
			    "%s %s%.*s%s: HTTP 401: the server wants Kerberos SPNEGO and "
			    "did not accept hbtab's attempt%s%s",
			    method, r->prefix, SHOWN(path), n ? ": " : "", first);
		return hb_error_set(
		    err, code,
		    "%s %s%.*s%s: HTTP 403: the server rejected the Kerberos ticket "
		    "(is the server's principal HTTP/<host of the URL>?)%s%s",
		    method, r->prefix, SHOWN(path), n ? ": " : "", first);
	}
	if (r->status == 401)
		return unauthorized(method, path, r, err);
	if (r->status == 403 && strcmp(method, "GET"))
		return hb_error_set(
		    err, code,
		    "%s %s%.*s%s: HTTP 403 %s (the REST gateway refuses writes; it may be "
		    "read-only or you may lack permission)",
		    method, r->prefix, SHOWN(path), n ? first : "Forbidden");
	if (r->status == 403)
		return hb_error_set(
		    err, code,
		    "%s %s%.*s%s: HTTP 403 %s (the REST gateway refuses this read: the identity it "
		    "reads as%s%s%s lacks READ permission on the table (HBase ACLs), or a proxy in "
		    "front of it refused the request)",
		    method, r->prefix, SHOWN(path), n ? first : "Forbidden",
		    r->login[0] ? " (user '" : "", r->login, r->login[0] ? "')" : "");
	if (r->status >= 300 && r->status < 400 && r->status != 304 && r->location[0])
		return hb_error_set(
		    err, code,
		    "%s %s%.*s%s: HTTP %ld: redirected to '%s', which hbtab does not "
		    "follow (give that server's URL instead)",
		    method, r->prefix, SHOWN(path), r->status, r->location);
	if (r->status >= 300 && r->status < 400 && r->status != 304)
		return hb_error_set(err, code,
		                    "%s %s%.*s%s: HTTP %ld: a redirect without a Location, which "
		                    "hbtab would not follow anyway",
		                    method, r->prefix, SHOWN(path), r->status);
	return hb_error_set(err, code, "%s %s%.*s%s: HTTP %ld%s%s", method, r->prefix, SHOWN(path),
	                    r->status, n ? " " : "", first);
}
