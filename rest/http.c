/* The libcurl transport: one reused handle, timeouts, retries with backoff, TLS, auth, traces. */
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
	CURL *h;
	char *base;            /* without a trailing '/' */
	const char *base_path; /* its path part ("" without one), inside base */
	struct hb_curlx_conf conf;
	double max_retry_after;
	long retries;
	size_t max_body;
	hb_rest_trace_fn trace;
	void *trace_ctx;
	hb_rest_progress_fn progress;
	void *progress_ctx;
	hb_rest_notice_fn notice;
	void *notice_ctx;
	unsigned long attempts;
	unsigned int seed;
	char errbuf[CURL_ERROR_SIZE];
	char gss_note[200]; /* why libcurl could not make a SPNEGO token ("" when it could) */
	int cookies_on;     /* the handle's cookie engine is on */
	char password_from[32];
	/* per attempt */
	struct hb_rest_resp *resp;
	struct hb_curlx_sink sink;
};

static void tracef(struct hb_rest *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void tracef(struct hb_rest *c, const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	if (!c->trace)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	c->trace(c->trace_ctx, line);
}

/* Longest part of a request path quoted in a message; the reason after it must survive. */
#define PATH_SHOWN 160

/* printf arguments for a path cut to PATH_SHOWN bytes: use with "%.*s%s". */
#define SHOWN(p)                                                                                   \
	(int)(strlen(p) > PATH_SHOWN ? PATH_SHOWN : strlen(p)), (p),                               \
	    (strlen(p) > PATH_SHOWN ? "..." : "")

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
	c->h = curl_easy_init();
	c->base = base;
	snprintf(c->password_from, sizeof(c->password_from), "%s",
	         o->password_from ? o->password_from : "the caller");
	fail = hb_curlx_conf_copy(&c->conf, o->user, o->password, o->cacert, o->cert, o->key);
	if (!c->h || fail) {
		hb_rest_free(c);
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	}
	n = strlen(c->base);
	while (n > 0 && c->base[n - 1] == '/')
		c->base[--n] = '\0';
	{
		const char *h = strstr(c->base, "://");

		h = h ? h + 3 : c->base;
		h += strcspn(h, "/?#");
		c->base_path = *h == '/' ? h : "";
	}
	c->conf.timeout = o->timeout > 0 ? o->timeout : 30;
	c->retries = o->retries < 0 ? 0 : o->retries;
	c->conf.insecure = o->insecure;
	c->conf.negotiate = o->negotiate;
	c->max_body = o->max_body ? o->max_body : DEFAULT_MAX_BODY;
	c->max_retry_after = o->max_retry_after > 0 ? o->max_retry_after : DEFAULT_RETRY_AFTER_CAP;
	c->trace = o->trace;
	c->trace_ctx = o->trace_ctx;
	c->seed = (unsigned int)time(NULL) ^ (unsigned int)(size_t)c;
	*out = c;
	return 0;
}

void hb_rest_free(struct hb_rest *c)
{
	if (!c)
		return;
	if (c->h)
		curl_easy_cleanup(c->h);
	free(c->base);
	hb_curlx_conf_release(&c->conf);
	free(c);
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

	hb_buf_release(&r->body);
	if (r->map)
		munmap((void *)r->map, r->map_len);
	hb_rest_resp_init(r);
	r->spool = spool;
	r->accept = accept;
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

static void copy_trimmed(char *dst, size_t cap, const char *v, size_t n)
{
	while (n && (v[0] == ' ' || v[0] == '\t')) {
		v++;
		n--;
	}
	while (n && (v[n - 1] == '\r' || v[n - 1] == '\n' || v[n - 1] == ' '))
		n--;
	if (n >= cap)
		n = cap - 1;
	memcpy(dst, v, n);
	dst[n] = '\0';
}

static double parse_retry_after(const char *v)
{
	char *end;
	double s;
	time_t t;

	errno = 0;
	s = strtod(v, &end);
	if (end != v && !*end && !errno && s >= 0)
		return s;
	t = curl_getdate(v, NULL);
	if (t < 0)
		return -1;
	s = difftime(t, time(NULL));
	return s < 0 ? 0 : s;
}

static size_t on_header(char *p, size_t size, size_t nmemb, void *ud)
{
	struct hb_rest *c = ud;
	size_t n = size * nmemb;
	struct hb_rest_resp *r = c->resp;
	char tmp[256];

	/* A new status line (auth challenge, 100-continue): forget the previous headers. */
	if (n >= 5 && !strncmp(p, "HTTP/", 5)) {
		r->content_type[0] = '\0';
		r->location[0] = '\0';
		r->retry_after = -1;
		r->challenge[0] = '\0';
	} else if (n > 17 && !strncasecmp(p, "WWW-Authenticate:", 17)) {
		size_t have = strlen(r->challenge), len;

		copy_trimmed(tmp, sizeof(tmp), p + 17, n - 17);
		len = strcspn(tmp, " \t,"); /* the scheme; its parameters are not needed */
		if (len && have + len + 2 < sizeof(r->challenge)) {
			if (have)
				r->challenge[have++] = ' ';
			memcpy(r->challenge + have, tmp, len);
			r->challenge[have + len] = '\0';
		}
	} else if (n > 13 && !strncasecmp(p, "Content-Type:", 13)) {
		copy_trimmed(r->content_type, sizeof(r->content_type), p + 13, n - 13);
	} else if (n > 9 && !strncasecmp(p, "Location:", 9)) {
		copy_trimmed(r->location, sizeof(r->location), p + 9, n - 9);
	} else if (n > 12 && !strncasecmp(p, "Retry-After:", 12)) {
		copy_trimmed(tmp, sizeof(tmp), p + 12, n - 12);
		r->retry_after = parse_retry_after(tmp);
	}
	return n;
}

/* Offset of word in line[0..len), len when absent. */
static size_t find_word(const char *line, size_t len, const char *word)
{
	size_t i, n = strlen(word);

	for (i = 0; i + n <= len; i++)
		if (!memcmp(line + i, word, n))
			return i;
	return len;
}

/* -v: request and response headers with credentials removed. */
static int on_debug(CURL *h, curl_infotype type, char *data, size_t size, void *ud)
{
	struct hb_rest *c = ud;
	const char *dir;
	size_t i = 0, k;

	(void)h;
	if (type == CURLINFO_TEXT)
		hb_curlx_gss_note(c->gss_note, sizeof(c->gss_note), data, size);
	if (!c->trace)
		return 0;
	if (type == CURLINFO_HEADER_OUT)
		dir = "> ";
	else if (type == CURLINFO_HEADER_IN)
		dir = "< ";
	else if (type == CURLINFO_TEXT)
		dir = "* ";
	else
		return 0;
	while (i < size) {
		size_t j = i, len;
		const char *line = data + i;

		while (j < size && data[j] != '\n')
			j++;
		len = j - i;
		if (len && line[len - 1] == '\r')
			len--;
		i = j + 1;
		if (!len)
			continue;
		if ((len >= 14 && !strncasecmp(line, "Authorization:", 14)) ||
		    (len >= 20 && !strncasecmp(line, "Proxy-Authorization:", 20)))
			tracef(c, "%s%.*s: <redacted>", dir, (int)strcspn(line, ":"), line);
		else if ((len >= 7 && !strncasecmp(line, "Cookie:", 7)) ||
		         (len >= 11 && !strncasecmp(line, "Set-Cookie:", 11)))
			tracef(c, "%s%.*s: <redacted>", dir, (int)strcspn(line, ":"), line);
		else if (type == CURLINFO_TEXT && (k = find_word(line, len, "cookie ")) < len)
			/* libcurl's "Added cookie NAME="VALUE" for domain ..." */
			tracef(c, "%s%.*s<redacted>", dir, (int)(k + 7), line);
		else
			tracef(c, "%s%.*s", dir, (int)(len > 900 ? 900 : len), line);
	}
	return 0;
}

/* Retries left to a request: none once a signal asks hbtab to stop (one clean-up attempt). */
static long retry_budget(const struct hb_rest *c)
{
	return hb_interrupted ? 0 : c->retries;
}

static int setup(struct hb_rest *c, const char *method, const char *url, struct curl_slist *hdrs,
                 const void *body, size_t len)
{
	CURL *h = c->h;
	struct hb_curlx_conf conf = c->conf;
	CURLcode e;

	/* Once a signal asks hbtab to stop, what still runs is clean-up (deleting the open
	 * scanner): it gets a short timeout, so a gateway that hangs cannot hold the exit. */
	if (hb_interrupted && conf.timeout > HB_REST_CLEANUP_TIMEOUT)
		conf.timeout = HB_REST_CLEANUP_TIMEOUT;
	e = hb_curlx_setup(h, &conf, url, hdrs, &c->sink, c->errbuf);

#define SET(opt, val)                                                                              \
	do {                                                                                       \
		if (e == CURLE_OK)                                                                 \
			e = curl_easy_setopt(h, opt, val);                                         \
	} while (0)
	SET(CURLOPT_ACCEPT_ENCODING, "");
	SET(CURLOPT_HEADERFUNCTION, on_header);
	SET(CURLOPT_HEADERDATA, c);
	SET(CURLOPT_TCP_KEEPALIVE, 1L);
	if (c->conf.negotiate) {
		if (e == CURLE_OK)
			e = hb_curlx_negotiate(h, &c->cookies_on);
	} else {
		/* The caller resolves the credentials (HBTAB_PASSWORD, ~/.netrc): libcurl 7.88
		 * does not look a password up in ~/.netrc when CURLOPT_USERNAME is set. */
		if (c->conf.user) {
			SET(CURLOPT_USERNAME, c->conf.user);
			SET(CURLOPT_PASSWORD, c->conf.password ? c->conf.password : "");
			SET(CURLOPT_HTTPAUTH, (long)CURLAUTH_BASIC);
		}
	}
	/* With SPNEGO, libcurl tells why it could not make a token only in its debug text. */
	if (c->trace || c->conf.negotiate) {
		SET(CURLOPT_VERBOSE, 1L);
		SET(CURLOPT_DEBUGFUNCTION, on_debug);
		SET(CURLOPT_DEBUGDATA, c);
	}
	if (!strcmp(method, "GET")) {
		SET(CURLOPT_HTTPGET, 1L);
	} else if (!strcmp(method, "HEAD")) {
		SET(CURLOPT_NOBODY, 1L);
	} else {
		SET(CURLOPT_CUSTOMREQUEST, method);
		if (body || strcmp(method, "DELETE")) {
			SET(CURLOPT_POST, 1L);
			SET(CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)len);
			SET(CURLOPT_POSTFIELDS, body ? (const char *)body : "");
		}
	}
#undef SET
	return e == CURLE_OK ? 0 : -1;
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

int hb_rest_request(struct hb_rest *c, const char *method, const char *path,
                    const char *content_type, const void *body, size_t len, int idempotent,
                    struct hb_rest_resp *resp, struct hb_error *err)
{
	struct curl_slist *hdrs = NULL, *t;
	struct hb_buf url = HB_BUF_INIT, ct = HB_BUF_INIT;
	FILE *spool_f = NULL;
	int attempt, rc = 0, is_write = strcmp(method, "GET") && strcmp(method, "HEAD");

	hb_rest_resp_release(resp);
	if (hb_buf_adds(&url, c->base) || hb_buf_adds(&url, path)) {
		rc = hb_error_set(err, HB_ENOMEM, "out of memory");
		goto done;
	}
	if (hb_buf_addf(&ct, "Accept: %s", resp->accept ? resp->accept : "application/json")) {
		rc = hb_error_set(err, HB_ENOMEM, "out of memory");
		goto done;
	}
	t = curl_slist_append(NULL, hb_buf_str(&ct));
	hdrs = t;
	hb_buf_reset(&ct);
	/* CSRF filter (docs/hbase-wire.md §7); harmless everywhere, needed on writes. */
	if (t && is_write)
		t = curl_slist_append(hdrs, "X-XSRF-HEADER: 1");
	if (t && content_type) {
		if (hb_buf_addf(&ct, "Content-Type: %s", content_type))
			t = NULL;
		else
			t = curl_slist_append(hdrs, hb_buf_str(&ct));
	}
	if (t)
		t = curl_slist_append(hdrs, "Expect:"); /* no 100-continue round trip */
	if (!t) {
		rc = hb_error_set(err, HB_ENOMEM, "out of memory");
		goto done;
	}
	for (attempt = 0;; attempt++) {
		CURLcode e;
		long status = 0;
		double wait;
		char label[160];

		hb_rest_resp_release(resp);
		if (spool_f)
			fclose(spool_f);
		spool_f = NULL;
		if (resp->spool && !(spool_f = hb_temp_file())) {
			rc = hb_error_set(
			    err, HB_EINVAL,
			    "cannot create a temporary file in '%s' for the response to "
			    "%s %.*s%s: %s (TMPDIR names the directory)",
			    hb_temp_dir(), method, SHOWN(path), strerror(errno));
			goto done;
		}
		c->resp = resp;
		c->sink.buf = &resp->body;
		c->sink.max = spool_f ? spool_max(c) : c->max_body;
		c->sink.overflow = 0;
		c->sink.f = spool_f;
		c->sink.n = 0;
		c->sink.write_error = 0;
		c->errbuf[0] = '\0';
		c->gss_note[0] = '\0';
		if (hb_interrupt_stop()) {
			rc = hb_error_set(err, HB_ENET, "%s %.*s%s: interrupted", method,
			                  SHOWN(path));
			goto done;
		}
		if (setup(c, method, hb_buf_str(&url), hdrs, body, len)) {
			rc = hb_error_set(err, HB_EINVAL, "cannot set up %s %.*s%s", method,
			                  SHOWN(path));
			goto done;
		}
		c->attempts++;
		tracef(c, "%s %s (attempt %d)", method, path, attempt + 1);
		hb_interrupt_transfer(1);
		hb_activity_begin(NULL);
		e = curl_easy_perform(c->h);
		hb_activity_end();
		hb_interrupt_transfer(0);
		c->resp = NULL;
		c->sink.buf = NULL;
		c->sink.f = NULL;
		snprintf(resp->prefix, sizeof(resp->prefix), "%s", c->base_path);
		if (c->conf.negotiate && hb_curlx_keep_auth_cookie(c->h))
			tracef(c, "cannot keep the hadoop.auth cookie for later requests");
		if (e == CURLE_OK) {
			curl_easy_getinfo(c->h, CURLINFO_RESPONSE_CODE, &status);
			resp->status = status;
			errno = 0;
			if (spool_f && spool_finish(resp, spool_f, c->sink.n, c->max_body)) {
				rc = hb_error_set(
				    err, HB_ESERVER,
				    "cannot keep the response to %s %.*s%s (%zu bytes): "
				    "%s",
				    method, SHOWN(path), c->sink.n,
				    errno ? strerror(errno) : "too large");
				hb_rest_resp_release(resp);
				goto done;
			}
			if (c->conf.negotiate && (status == 401 || status == 403))
				snprintf(resp->auth_note, sizeof(resp->auth_note), "%s",
				         c->gss_note[0] ? c->gss_note : "-");
			if (status == 401 || status == 403)
				note_login(c, resp);
			tracef(c, "%s %s: HTTP %ld, %zu bytes", method, path, status,
			       spool_f ? c->sink.n : resp->body.len);
			if (!(status == 502 || status == 503 || status == 504) || !idempotent ||
			    attempt >= retry_budget(c))
				break;
			wait = backoff(c, attempt, resp->retry_after);
			tracef(c, "HTTP %ld; retrying in %.2f s", status, wait);
			snprintf(label, sizeof(label), "the gateway answered HTTP %ld; retrying",
			         status);
			hb_activity_sleep(label, wait);
			continue;
		}
		if (e == CURLE_ABORTED_BY_CALLBACK && hb_interrupt_stop()) {
			rc = hb_error_set(err, HB_ENET, "%s %.*s%s: interrupted", method,
			                  SHOWN(path));
			hb_rest_resp_release(resp);
			goto done;
		}
		if (c->sink.overflow) {
			rc = hb_error_set(err, HB_ESERVER,
			                  "response to %s %.*s%s is larger than %zu bytes", method,
			                  SHOWN(path), spool_f ? spool_max(c) : c->max_body);
			goto done;
		}
		if (c->sink.write_error) {
			rc = hb_error_set(err, HB_EINVAL,
			                  "cannot write the response to %s %.*s%s to a temporary "
			                  "file: %s",
			                  method, SHOWN(path), strerror(errno));
			hb_rest_resp_release(resp);
			goto done;
		}
		/* A refused connection never reached the server, so even a POST may be resent. */
		if (attempt < retry_budget(c) && transient(e) &&
		    (idempotent || e == CURLE_COULDNT_CONNECT)) {
			wait = backoff(c, attempt, -1);
			tracef(c, "%s; retrying in %.2f s", hb_curlx_reason(e, c->errbuf), wait);
			snprintf(label, sizeof(label), "%s; retrying",
			         hb_curlx_reason(e, c->errbuf));
			hb_activity_sleep(label, wait);
			continue;
		}
		if (attempt)
			rc = hb_error_set(err, hb_curlx_local_tls(e) ? HB_EINVAL : HB_ENET,
			                  "cannot %s %s%.*s%s: %s%s (%d attempts)", method, c->base,
			                  SHOWN(path), hb_curlx_reason(e, c->errbuf),
			                  hb_curlx_hint(c->base, e, c->errbuf), attempt + 1);
		else
			rc = hb_error_set(err, hb_curlx_local_tls(e) ? HB_EINVAL : HB_ENET,
			                  "cannot %s %s%.*s%s: %s%s", method, c->base, SHOWN(path),
			                  hb_curlx_reason(e, c->errbuf),
			                  hb_curlx_hint(c->base, e, c->errbuf));
		hb_rest_resp_release(resp);
		goto done;
	}
done:
	if (spool_f)
		fclose(spool_f);
	curl_slist_free_all(hdrs);
	hb_buf_release(&url);
	hb_buf_release(&ct);
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
	return hb_error_set(err, code, "%s %s%.*s%s: HTTP %ld%s%s", method, r->prefix, SHOWN(path),
	                    r->status, n ? " " : "", first);
}
