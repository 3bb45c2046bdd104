/* Thrift2 over HTTP: libcurl POSTs of TBinaryProtocol messages, replies decoded by core/thrift. */
#include "rest/thrift2.h"

#include <curl/curl.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#define DEFAULT_MAX_BODY ((size_t)64 << 20)

struct hb_thrift2 {
	CURL *h;
	char *url;
	struct hb_thrift2_opts o;
	char *user, *password, *cacert, *cert, *key;
	int32_t seqid;
	struct hb_buf *sink;
	int overflow;
	char errbuf[CURL_ERROR_SIZE];
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

static char *dup_opt(const char *s, int *fail)
{
	char *d;

	if (!s)
		return NULL;
	d = strdup(s);
	if (!d)
		*fail = 1;
	return d;
}

int hb_thrift2_new(struct hb_thrift2 **out, const struct hb_thrift2_opts *o, struct hb_error *err)
{
	struct hb_thrift2 *c;
	int fail = 0;

	*out = NULL;
	if (!o->url || (strncasecmp(o->url, "http://", 7) && strncasecmp(o->url, "https://", 8)))
		return hb_error_set(
		    err, HB_EINVAL,
		    "invalid Thrift2 URL '%s': expected http://HOST:PORT/ or https://",
		    o->url ? o->url : "");
	if (strchr(o->url, '@'))
		return hb_error_set(err, HB_EINVAL,
		                    "invalid Thrift2 URL: credentials in the URL are not allowed "
		                    "(use --user and HBTAB_PASSWORD)");
	if (curl_global_init(CURL_GLOBAL_DEFAULT))
		return hb_error_set(err, HB_ENOMEM, "cannot initialise libcurl");
	c = calloc(1, sizeof(*c));
	if (!c)
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	c->o = *o;
	c->url = dup_opt(o->url, &fail);
	c->user = dup_opt(o->user, &fail);
	c->password = dup_opt(o->password, &fail);
	c->cacert = dup_opt(o->cacert, &fail);
	c->cert = dup_opt(o->cert, &fail);
	c->key = dup_opt(o->key, &fail);
	c->h = curl_easy_init();
	if (fail || !c->h) {
		hb_thrift2_free(c);
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	}
	if (!c->o.max_body)
		c->o.max_body = DEFAULT_MAX_BODY;
	if (!(c->o.timeout > 0))
		c->o.timeout = 30;
	*out = c;
	return 0;
}

void hb_thrift2_free(struct hb_thrift2 *c)
{
	if (!c)
		return;
	if (c->h)
		curl_easy_cleanup(c->h);
	if (c->password) {
		volatile char *p = c->password;

		while (*p)
			*p++ = 0;
	}
	free(c->url);
	free(c->user);
	free(c->password);
	free(c->cacert);
	free(c->cert);
	free(c->key);
	free(c);
}

int32_t hb_thrift2_next_seqid(struct hb_thrift2 *c)
{
	if (c->seqid == INT32_MAX)
		c->seqid = 0;
	return ++c->seqid;
}

static size_t on_body(char *p, size_t size, size_t nmemb, void *ud)
{
	struct hb_thrift2 *c = ud;
	size_t n = size * nmemb;

	if (c->sink->len + n > c->o.max_body) {
		c->overflow = 1;
		return 0;
	}
	if (hb_buf_add(c->sink, p, n))
		return 0;
	return n;
}

static int setup(struct hb_thrift2 *c, struct curl_slist *hdrs, const void *msg, size_t len)
{
	CURL *h = c->h;
	long tmo_ms = (long)(c->o.timeout * 1000.0), conn_ms = tmo_ms < 10000 ? tmo_ms : 10000;
	CURLcode e = CURLE_OK;

	curl_easy_reset(h);
#define SET(opt, val)                                                                              \
	do {                                                                                       \
		if (e == CURLE_OK)                                                                 \
			e = curl_easy_setopt(h, opt, val);                                         \
	} while (0)
	SET(CURLOPT_URL, c->url);
	SET(CURLOPT_PROTOCOLS_STR, "http,https");
	SET(CURLOPT_NOSIGNAL, 1L);
	SET(CURLOPT_TIMEOUT_MS, tmo_ms > 0 ? tmo_ms : 1L);
	SET(CURLOPT_CONNECTTIMEOUT_MS, conn_ms > 0 ? conn_ms : 1L);
	SET(CURLOPT_USERAGENT, "hbtab/" HB_VERSION);
	SET(CURLOPT_HTTPHEADER, hdrs);
	SET(CURLOPT_WRITEFUNCTION, on_body);
	SET(CURLOPT_WRITEDATA, c);
	SET(CURLOPT_ERRORBUFFER, c->errbuf);
	SET(CURLOPT_FOLLOWLOCATION, 0L);
	if (c->cacert)
		SET(CURLOPT_CAINFO, c->cacert);
	if (c->cert) {
		SET(CURLOPT_SSLCERT, c->cert);
		if (c->key)
			SET(CURLOPT_SSLKEY, c->key);
	}
	if (c->o.insecure) {
		SET(CURLOPT_SSL_VERIFYPEER, 0L);
		SET(CURLOPT_SSL_VERIFYHOST, 0L);
	}
	if (c->o.negotiate) {
		SET(CURLOPT_HTTPAUTH, (long)CURLAUTH_NEGOTIATE);
		SET(CURLOPT_USERPWD, ":");
	} else if (c->user) {
		SET(CURLOPT_USERNAME, c->user);
		if (c->password)
			SET(CURLOPT_PASSWORD, c->password);
		else
			SET(CURLOPT_NETRC, (long)CURL_NETRC_OPTIONAL);
		SET(CURLOPT_HTTPAUTH, (long)CURLAUTH_BASIC);
	}
	SET(CURLOPT_POST, 1L);
	SET(CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)len);
	SET(CURLOPT_POSTFIELDS, (const char *)msg);
#undef SET
	return e == CURLE_OK ? 0 : -1;
}

static const char *reason(CURLcode e, const char *errbuf)
{
	switch (e) {
	case CURLE_OPERATION_TIMEDOUT:
		return "timed out";
	case CURLE_COULDNT_CONNECT:
		return "connection refused";
	case CURLE_GOT_NOTHING:
	case CURLE_RECV_ERROR:
	case CURLE_SEND_ERROR:
		return "connection reset by the server";
	case CURLE_PARTIAL_FILE:
		return "connection closed before the whole response arrived";
	case CURLE_PEER_FAILED_VERIFICATION:
		return "TLS certificate verification failed (use --cacert, or --insecure)";
	default:
		return *errbuf ? errbuf : curl_easy_strerror(e);
	}
}

static void sleep_s(double s)
{
	struct timespec ts;

	ts.tv_sec = (time_t)s;
	ts.tv_nsec = (long)((s - (double)ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static int transient(CURLcode e)
{
	return e == CURLE_COULDNT_CONNECT || e == CURLE_OPERATION_TIMEDOUT ||
	       e == CURLE_SEND_ERROR || e == CURLE_RECV_ERROR || e == CURLE_GOT_NOTHING ||
	       e == CURLE_PARTIAL_FILE;
}

int hb_thrift2_call(struct hb_thrift2 *c, const char *method, int32_t seqid, const void *msg,
                    size_t len, int idempotent, struct hb_buf *reply_body,
                    struct hb_thrift_reply *r, struct hb_error *err)
{
	struct curl_slist *hdrs = NULL, *t;
	long status = 0;
	int attempt, rc = 0;

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
	for (attempt = 0;; attempt++) {
		CURLcode e;

		hb_buf_reset(reply_body);
		c->sink = reply_body;
		c->overflow = 0;
		c->errbuf[0] = 0;
		if (setup(c, hdrs, msg, len)) {
			rc = hb_error_set(err, HB_EINVAL, "thrift2 %s: cannot set up the request",
			                  method);
			goto done;
		}
		tracef(c, "thrift2 %s: POST %s (%zu bytes, attempt %d)", method, c->url, len,
		       attempt + 1);
		e = curl_easy_perform(c->h);
		c->sink = NULL;
		if (e == CURLE_OK)
			break;
		if (c->overflow) {
			rc =
			    hb_error_set(err, HB_ESERVER, "thrift2 %s: reply larger than %zu bytes",
			                 method, c->o.max_body);
			goto done;
		}
		/* A refused connection never reached the server, so even createTable may be resent.
		 */
		if (attempt < c->o.retries && transient(e) &&
		    (idempotent || e == CURLE_COULDNT_CONNECT)) {
			double wait = 0.2 * (double)(1 << (attempt < 4 ? attempt : 4));

			tracef(c, "thrift2 %s: %s; retrying in %.1f s", method,
			       reason(e, c->errbuf), wait);
			sleep_s(wait);
			continue;
		}
		rc = hb_error_set(err, HB_ENET, "thrift2 %s: cannot POST %s: %s", method, c->url,
		                  reason(e, c->errbuf));
		goto done;
	}
	curl_easy_getinfo(c->h, CURLINFO_RESPONSE_CODE, &status);
	tracef(c, "thrift2 %s: HTTP %ld, %zu bytes", method, status, reply_body->len);
	if (status != 200) {
		const char *b = hb_buf_str(reply_body);
		size_t n = strcspn(b, "\r\n"), i;
		char first[160];

		if (n >= sizeof(first))
			n = sizeof(first) - 1;
		for (i = 0; i < n; i++)
			first[i] = (b[i] >= 0x20 && b[i] < 0x7f) ? b[i] : '?';
		first[n] = 0;
		if (status == 401)
			rc = hb_error_set(err, HB_ESERVER,
			                  "thrift2 %s: HTTP 401: authentication failed%s%s", method,
			                  n ? ": " : "", first);
		else
			rc = hb_error_set(err, HB_ESERVER, "thrift2 %s: HTTP %ld%s%s", method,
			                  status, n ? ": " : "", first);
		goto done;
	}
	rc = hb_thrift_reply_parse(r, reply_body->data ? reply_body->data : "", reply_body->len,
	                           method, seqid, err);
	if (rc)
		hb_error_prefix(err, rc, "thrift2 %s", method);
done:
	curl_slist_free_all(hdrs);
	return rc;
}

int hb_thrift2_create_table(struct hb_thrift2 *c, const struct hb_schema *s,
                            const struct hb_keys *splits, enum hb_thrift_outcome *outcome,
                            struct hb_error *err)
{
	struct hb_buf msg = HB_BUF_INIT, body = HB_BUF_INIT;
	struct hb_thrift_reply r;
	int32_t seqid = hb_thrift2_next_seqid(c);
	int rc;

	hb_thrift_reply_init(&r);
	rc = hb_thrift_encode_create_table(&msg, seqid, s, splits, err);
	if (!rc)
		rc = hb_thrift2_call(c, "createTable", seqid, msg.data, msg.len, 0, &body, &r, err);
	if (!rc) {
		if (outcome)
			*outcome = r.outcome;
		rc = hb_thrift_reply_error(&r, "createTable", err);
	}
	hb_thrift_reply_release(&r);
	hb_buf_release(&msg);
	hb_buf_release(&body);
	return rc;
}

/* Runs a one-TTableName call (or getAllRegionLocations) and leaves the reply in r/body. */
static int table_call(struct hb_thrift2 *c, const char *method, const char *table,
                      struct hb_buf *body, struct hb_thrift_reply *r, struct hb_error *err)
{
	struct hb_buf msg = HB_BUF_INIT;
	int32_t seqid = hb_thrift2_next_seqid(c);
	int rc;

	if (!strcmp(method, "getAllRegionLocations"))
		rc = hb_thrift_encode_region_locations(&msg, seqid, table, err);
	else
		rc = hb_thrift_encode_table_call(&msg, method, seqid, table, err);
	if (!rc)
		rc = hb_thrift2_call(c, method, seqid, msg.data, msg.len, 1, body, r, err);
	if (!rc)
		rc = hb_thrift_reply_error(r, method, err);
	hb_buf_release(&msg);
	return rc;
}

int hb_thrift2_table_exists(struct hb_thrift2 *c, const char *table, int *exists,
                            struct hb_error *err)
{
	struct hb_buf body = HB_BUF_INIT;
	struct hb_thrift_reply r;
	int rc;

	hb_thrift_reply_init(&r);
	rc = table_call(c, "tableExists", table, &body, &r, err);
	if (!rc)
		rc = hb_thrift_reply_bool(&r, exists, err);
	hb_thrift_reply_release(&r);
	hb_buf_release(&body);
	return rc;
}

int hb_thrift2_region_locations(struct hb_thrift2 *c, const char *table, struct hb_regions *out,
                                struct hb_error *err)
{
	struct hb_buf body = HB_BUF_INIT;
	struct hb_thrift_reply r;
	int rc;

	hb_thrift_reply_init(&r);
	rc = table_call(c, "getAllRegionLocations", table, &body, &r, err);
	if (!rc)
		rc = hb_thrift_reply_regions(&r, out, err);
	if (!rc)
		hb_regions_sort(out);
	hb_thrift_reply_release(&r);
	hb_buf_release(&body);
	return rc;
}

int hb_thrift2_table_descriptor(struct hb_thrift2 *c, const char *table, struct hb_schema *out,
                                struct hb_error *err)
{
	struct hb_buf body = HB_BUF_INIT;
	struct hb_thrift_reply r;
	int rc;

	hb_thrift_reply_init(&r);
	rc = table_call(c, "getTableDescriptor", table, &body, &r, err);
	if (!rc)
		rc = hb_thrift_reply_table_desc(&r, out, err);
	hb_thrift_reply_release(&r);
	hb_buf_release(&body);
	return rc;
}
