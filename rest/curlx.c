/* The libcurl side of both channels: set-up (TLS, timeouts, body cap), the REST transfer, errors.
 */
#include "rest/curlx.h"

#include "core/activity.h"
#include "core/interrupt.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

static int curl_ready;

int hb_curlx_global_init(struct hb_error *err)
{
	if (!curl_ready) {
		CURLcode rc = curl_global_init(CURL_GLOBAL_DEFAULT);

		/* libcurl's own words, or that the library could not be loaded (rest/curlload.c) */
		if (rc)
			return hb_error_set(err, HB_ENOMEM, "cannot initialise libcurl: %s",
			                    curl_easy_strerror(rc));
		curl_ready = 1;
	}
	return 0;
}

static char *dup_or_null(const char *s, int *fail)
{
	char *d;

	if (!s)
		return NULL;
	d = strdup(s);
	if (!d)
		*fail = 1;
	return d;
}

int hb_curlx_conf_copy(struct hb_curlx_conf *conf, const char *user, const char *password,
                       const char *cacert, const char *cert, const char *key)
{
	int fail = 0;

	memset(conf, 0, sizeof(*conf));
	conf->user = dup_or_null(user, &fail);
	conf->password = dup_or_null(password, &fail);
	conf->cacert = dup_or_null(cacert, &fail);
	conf->cert = dup_or_null(cert, &fail);
	conf->key = dup_or_null(key, &fail);
	return fail ? HB_ENOMEM : 0;
}

void hb_curlx_conf_release(struct hb_curlx_conf *conf)
{
	if (conf->password) {
		volatile char *p = conf->password;

		while (*p)
			*p++ = 0;
	}
	free(conf->user);
	free(conf->password);
	free(conf->cacert);
	free(conf->cert);
	free(conf->key);
	conf->user = conf->password = conf->cacert = conf->cert = conf->key = NULL;
}

/* The first byte of a body: whether it goes to the sink's stream (a 200 it wants). */
static int decide_stream(struct hb_curlx_sink *s)
{
	s->streaming = s->stream_push && s->heads && s->heads->status == 200 &&
	               s->stream_wants(s->heads->content_type);
	if (s->streaming && (s->stream_rc = s->stream_start(s->stream_ctx, &s->stream_err)))
		return 0;
	return 1;
}

static size_t on_body(char *p, size_t size, size_t nmemb, void *ud)
{
	struct hb_curlx_sink *s = ud;
	size_t n = size * nmemb;

	if (s->streaming < 0 && !decide_stream(s))
		return 0;
	if (s->streaming) {
		if (s->n + n > s->max) {
			s->overflow = 1;
			return 0;
		}
		s->n += n;
		if (n && (s->stream_rc = s->stream_push(s->stream_ctx, p, n, &s->stream_err)))
			return 0;
		return n;
	}
	if (s->f) {
		if (s->n + n > s->max) {
			s->overflow = 1;
			return 0;
		}
		if (n && fwrite(p, 1, n, s->f) != n) {
			s->write_error = 1;
			return 0;
		}
		s->n += n;
		return n;
	}
	if (s->buf->len + n > s->max) {
		s->overflow = 1;
		return 0;
	}
	if (hb_buf_add(s->buf, p, n))
		return 0;
	return n;
}

/* Stops the transfer when a signal asks hbtab to stop (libcurl calls this at least about
 * once a second, also while it waits). */
static int on_xfer(void *ud, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal,
                   curl_off_t ulnow)
{
	(void)ud;
	(void)dltotal;
	(void)dlnow;
	(void)ultotal;
	(void)ulnow;
	hb_activity_tick();
	return hb_interrupt_stop();
}

/* Sets one option on h unless an earlier one failed (e, a CURLcode, in scope). */
#define SET(opt, val)                                                                              \
	do {                                                                                       \
		if (e == CURLE_OK)                                                                 \
			e = curl_easy_setopt(h, opt, val);                                         \
	} while (0)

CURLcode hb_curlx_setup(CURL *h, const struct hb_curlx_conf *conf, const char *url,
                        struct curl_slist *hdrs, struct hb_curlx_sink *sink, char *errbuf)
{
	long tmo_ms = (long)(conf->timeout * 1000.0), conn_ms = tmo_ms < 10000 ? tmo_ms : 10000;
	CURLcode e = CURLE_OK;

	curl_easy_reset(h);
	SET(CURLOPT_URL, url);
	SET(CURLOPT_PROTOCOLS_STR, "http,https");
	/* libcurl leaves the signal dispositions alone: without this it would swap hbtab's
	 * SIGPIPE handler for SIG_IGN during each transfer. A SIGPIPE a socket still raises is
	 * told apart from a closed stdout by cli/signals.c (hb_interrupt_transfer). */
	SET(CURLOPT_NOSIGNAL, 1L);
	if (conf->idle_timeout) {
		/* a streamed answer of any length, as long as it keeps coming */
		SET(CURLOPT_TIMEOUT_MS, 0L);
		SET(CURLOPT_LOW_SPEED_LIMIT, 1L);
		SET(CURLOPT_LOW_SPEED_TIME, tmo_ms > 1000 ? (tmo_ms + 999) / 1000 : 1L);
	} else {
		SET(CURLOPT_TIMEOUT_MS, tmo_ms > 0 ? tmo_ms : 1L);
	}
	SET(CURLOPT_CONNECTTIMEOUT_MS, conn_ms > 0 ? conn_ms : 1L);
	SET(CURLOPT_USERAGENT, "hbtab/" HB_VERSION);
	SET(CURLOPT_HTTPHEADER, hdrs);
	SET(CURLOPT_WRITEFUNCTION, on_body);
	SET(CURLOPT_WRITEDATA, sink);
	SET(CURLOPT_ERRORBUFFER, errbuf);
	SET(CURLOPT_FOLLOWLOCATION, 0L);
	SET(CURLOPT_XFERINFOFUNCTION, on_xfer);
	SET(CURLOPT_NOPROGRESS, 0L);
	if (conf->cacert)
		SET(CURLOPT_CAINFO, conf->cacert);
	if (conf->cert) {
		SET(CURLOPT_SSLCERT, conf->cert);
		if (conf->key)
			SET(CURLOPT_SSLKEY, conf->key);
	}
	if (conf->insecure) {
		SET(CURLOPT_SSL_VERIFYPEER, 0L);
		SET(CURLOPT_SSL_VERIFYHOST, 0L);
	}
	return e;
}

const char *hb_curlx_reason(CURLcode e, const char *errbuf)
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
		/* OpenSSL's name check (curl's "no alternative certificate subject name matches
		 * target host name", "subject name ... does not match target host name"): the
		 * certificate may well come from the right CA */
		if (strstr(errbuf, "target host name"))
			return "TLS certificate verification failed: the certificate is not for "
			       "the "
			       "host name of the URL (use the name or address it was issued for)";
		return "TLS certificate verification failed (use --cacert, or --insecure)";
	default:
		return *errbuf ? errbuf : curl_easy_strerror(e);
	}
}

int hb_curlx_local_tls(CURLcode e)
{
	switch (e) {
	case CURLE_SSL_CACERT_BADFILE:
	case CURLE_SSL_CERTPROBLEM:
	case CURLE_SSL_CRL_BADFILE:
	case CURLE_SSL_ENGINE_NOTFOUND:
	case CURLE_SSL_ENGINE_SETFAILED:
		return 1;
	default:
		return 0;
	}
}

/* A TLS record where an HTTP status line was expected: the client spoke TLS to a plain port. */
static int plain_port_reply(const char *errbuf)
{
	static const char *const said[] = {
	    "wrong version number",   /* OpenSSL 1.1 and 3.0 */
	    "packet length too long", /* OpenSSL 3.2 and later */
	    "record layer failure",   /* OpenSSL 3.2 and later */
	    "unknown protocol",       /* OpenSSL 1.0 */
	};
	size_t i;

	for (i = 0; i < HB_ARRAY_LEN(said); i++)
		if (strstr(errbuf, said[i]))
			return 1;
	return 0;
}

const char *hb_curlx_hint(const char *url, CURLcode e, const char *errbuf)
{
	return hb_curlx_hint_after(url, e, errbuf, 0);
}

const char *hb_curlx_hint_after(const char *url, CURLcode e, const char *errbuf, int answered)
{
	int tls = !strncasecmp(url, "https://", 8);

	if (hb_curlx_local_tls(e))
		return " (bad local TLS material: check the files of --cacert, --cert and --key)";
	if (tls && e == CURLE_SSL_CONNECT_ERROR && plain_port_reply(errbuf))
		return " (the server does not speak TLS on this port: use an http:// URL)";
	/* A TLS server sent an alert (HTTP/0.9 to libcurl), nothing, or a reset to plain HTTP.
	 * A server that has answered plain HTTP in this run does not speak TLS: its reset is
	 * a reset. */
	if (!tls && !answered &&
	    (e == CURLE_GOT_NOTHING || e == CURLE_RECV_ERROR || e == CURLE_UNSUPPORTED_PROTOCOL ||
	     e == CURLE_WEIRD_SERVER_REPLY))
		return " (if the server speaks TLS on this port, use an https:// URL)";
	return "";
}

size_t hb_curlx_first_line(char *first, size_t cap, const char *body)
{
	size_t n = strcspn(body, "\r\n"), i;

	if (n >= cap)
		n = cap - 1;
	for (i = 0; i < n; i++)
		first[i] = (body[i] >= 0x20 && body[i] < 0x7f) ? body[i] : '?';
	first[n] = '\0';
	return n;
}

/* The URL's part, or NULL (absent, or out of memory: *oom set). Free with curl_free. */
static char *url_part(CURLU *u, CURLUPart what, int *oom)
{
	char *s = NULL;
	CURLUcode rc = curl_url_get(u, what, &s, 0);

	if (rc == CURLUE_OUT_OF_MEMORY)
		*oom = 1;
	return rc == CURLUE_OK ? s : NULL;
}

int hb_curlx_url_host(char *host, size_t cap, const char *url)
{
	CURLU *u = curl_url();
	char *h = NULL;
	int oom = 0, rc = -1;
	size_t n;

	if (u && curl_url_set(u, CURLUPART_URL, url, CURLU_NON_SUPPORT_SCHEME) == CURLUE_OK)
		h = url_part(u, CURLUPART_HOST, &oom);
	if (h) {
		const char *p = h;

		n = strlen(p);
		if (n >= 2 && p[0] == '[' && p[n - 1] == ']') {
			p++;
			n -= 2;
		}
		if (n && n < cap) {
			memcpy(host, p, n);
			host[n] = '\0';
			rc = 0;
		}
	}
	curl_free(h);
	curl_url_cleanup(u);
	return rc;
}

int hb_curlx_server_url(char **out, const char *url, const char *what, struct hb_error *err)
{
	CURLU *u = curl_url();
	CURLUcode rc;
	char *scheme = NULL, *user = NULL, *password = NULL, *full = NULL;
	/* a URL with user information is not repeated: it may hold a password */
	const char *shown = !url ? "" : strchr(url, '@') ? "(not shown: it has an '@')" : url;
	const char *auth;
	int oom = 0, st = 0, scheme_bad = 0;

	*out = NULL;
	if (!u)
		return hb_error_set(err, HB_ENOMEM, "out of memory");
	/* any scheme parses, so that ftp:// is told apart from a malformed URL */
	rc = curl_url_set(u, CURLUPART_URL, url ? url : "", CURLU_NON_SUPPORT_SCHEME);
	if (rc == CURLUE_OUT_OF_MEMORY) {
		st = hb_error_set(err, HB_ENOMEM, "out of memory");
	} else if (rc == CURLUE_BAD_SCHEME || rc == CURLUE_NO_SCHEME || rc == CURLUE_BAD_SLASHES) {
		/* "h:8080" reads as scheme "h" without the slashes */
		scheme_bad = 1;
	} else if (rc != CURLUE_OK) {
		st = hb_error_set(err, HB_EINVAL, "invalid %s URL '%.200s': %s", what, shown,
		                  curl_url_strerror(rc));
	} else {
		scheme = url_part(u, CURLUPART_SCHEME, &oom);
		user = url_part(u, CURLUPART_USER, &oom);
		password = url_part(u, CURLUPART_PASSWORD, &oom);
		full = url_part(u, CURLUPART_URL, &oom);
		/* libcurl reads "http:///x" as host "x": an empty authority is a missing host */
		auth = strstr(url, "://");
		if (oom || !full)
			st = hb_error_set(err, HB_ENOMEM, "out of memory");
		else if (!scheme || (strcmp(scheme, "http") && strcmp(scheme, "https")))
			scheme_bad = 1;
		else if (user || password)
			st = hb_error_set(
			    err, HB_EINVAL,
			    "credentials in the %s URL are not allowed; use --user with "
			    "HBTAB_PASSWORD or ~/.netrc",
			    what);
		else if (!auth || strchr("/?#", auth[3]))
			st = hb_error_set(err, HB_EINVAL, "%s URL without a host", what);
		else if (!(*out = strdup(full)))
			st = hb_error_set(err, HB_ENOMEM, "out of memory");
	}
	if (scheme_bad)
		st = hb_error_set(err, HB_EINVAL,
		                  "invalid %s URL '%.200s': expected http://HOST:PORT or "
		                  "https://HOST:PORT",
		                  what, shown);
	curl_free(scheme);
	curl_free(user);
	curl_free(password);
	curl_free(full);
	curl_url_cleanup(u);
	return st;
}

int hb_curlx_escape(struct hb_buf *out, const void *p, size_t n)
{
	char *e;
	int rc;

	if (n > INT_MAX)
		return HB_ENOMEM;
	/* libcurl ignores the handle since 7.82 */
	e = curl_easy_escape(NULL, n ? p : "", (int)n);
	if (!e)
		return HB_ENOMEM;
	rc = hb_buf_adds(out, e);
	curl_free(e);
	return rc;
}

/* ---- The REST transfer: one attempt of a request, from set-up to status ---- */

void hb_curlx_tracef(struct hb_curlx_xfer *x, const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	if (!x->trace)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	x->trace(x->trace_ctx, line);
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

static void heads_reset(struct hb_curlx_heads *r)
{
	r->content_type[0] = '\0';
	r->location[0] = '\0';
	r->retry_after = -1;
	r->challenge[0] = '\0';
	r->status = 0;
}

static size_t on_header(char *p, size_t size, size_t nmemb, void *ud)
{
	struct hb_curlx_heads *r = ud;
	size_t n = size * nmemb;
	char tmp[256];

	/* A new status line (auth challenge, 100-continue): forget the previous headers. */
	if (n >= 5 && !strncmp(p, "HTTP/", 5)) {
		const char *sp = memchr(p, ' ', n);
		size_t k = sp ? (size_t)(sp - p) + 1 : n;

		heads_reset(r);
		/* the status code: three digits after the version */
		for (; k < n && p[k] >= '0' && p[k] <= '9' && r->status < 1000; k++)
			r->status = r->status * 10 + (p[k] - '0');
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

/* For a libcurl debug text line: when it reports a GSS-API failure, copies the reason into
 * note (cap bytes, NUL-terminated, non-printable bytes as '?') and returns 1; otherwise 0. */
static int gss_note(char *note, size_t cap, const char *line, size_t len)
{
	static const char *const marks[] = {
	    "gss_init_sec_context() failed: ", "gss_accept_sec_context() failed: ",
	    "gss_inquire_context() failed: ", "gss_import_name() failed: "};
	size_t i, j, m;

	if (!cap)
		return 0;
	for (i = 0; i < sizeof(marks) / sizeof(marks[0]); i++) {
		m = strlen(marks[i]);
		if (len < m || memcmp(line, marks[i], m))
			continue;
		line += m;
		len -= m;
		while (len && (line[len - 1] == '\n' || line[len - 1] == '\r' ||
		               line[len - 1] == ' ' || line[len - 1] == '.'))
			len--;
		if (len >= cap)
			len = cap - 1;
		for (j = 0; j < len; j++)
			note[j] = (line[j] >= 0x20 && line[j] < 0x7f) ? line[j] : '?';
		note[len] = '\0';
		return 1;
	}
	return 0;
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

/* One -v line of libcurl's headers or text, with credentials and cookie values redacted. */
static void trace_line(struct hb_curlx_xfer *x, curl_infotype type, const char *dir,
                       const char *line, size_t len)
{
	size_t k;

	if ((len >= 14 && !strncasecmp(line, "Authorization:", 14)) ||
	    (len >= 20 && !strncasecmp(line, "Proxy-Authorization:", 20)))
		hb_curlx_tracef(x, "%s%.*s: <redacted>", dir, (int)strcspn(line, ":"), line);
	else if ((len >= 7 && !strncasecmp(line, "Cookie:", 7)) ||
	         (len >= 11 && !strncasecmp(line, "Set-Cookie:", 11)))
		hb_curlx_tracef(x, "%s%.*s: <redacted>", dir, (int)strcspn(line, ":"), line);
	else if (type == CURLINFO_TEXT && (k = find_word(line, len, "cookie ")) < len)
		/* libcurl's "Added cookie NAME="VALUE" for domain ..." */
		hb_curlx_tracef(x, "%s%.*s<redacted>", dir, (int)(k + 7), line);
	else
		hb_curlx_tracef(x, "%s%.*s", dir, (int)(len > 900 ? 900 : len), line);
}

/* libcurl's debug output: the SPNEGO failure note, and for -v the headers line by line. */
static int on_debug(CURL *h, curl_infotype type, char *data, size_t size, void *ud)
{
	struct hb_curlx_xfer *x = ud;
	const char *dir;
	size_t i = 0;

	(void)h;
	if (type == CURLINFO_TEXT)
		gss_note(x->gss_note, sizeof(x->gss_note), data, size);
	if (!x->trace)
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
		if (len)
			trace_line(x, type, dir, line, len);
	}
	return 0;
}

/*
 * Kerberos SPNEGO for the next transfer on h: the ticket cache named by KRB5CCNAME, the
 * service principal HTTP/<host of the URL>. Negotiate is offered only when the server asks
 * for it (401 with WWW-Authenticate: Negotiate), and the in-memory cookie engine is on, so the
 * hadoop.auth cookie the server sets after one negotiation is sent with every later request
 * of the run on this handle: SPNEGO runs once, not per request.
 */
static CURLcode negotiate(CURL *h, int *cookies_on)
{
	CURLcode e;

	/* CURLAUTH_ONLY: libcurl otherwise sends a token with the first request of every
	 * transfer, whether or not the server wants one (it has our cookie). */
	e = curl_easy_setopt(h, CURLOPT_HTTPAUTH, (long)(CURLAUTH_NEGOTIATE | CURLAUTH_ONLY));
	if (e == CURLE_OK)
		e = curl_easy_setopt(h, CURLOPT_USERPWD, ":");
	/* The in-memory cookie engine, started once per handle; the cookies live as long as h
	 * (curl_easy_reset keeps them and the engine). Started by storing an already expired
	 * placeholder rather than with CURLOPT_COOKIEFILE "": libcurl 7.88 loses (leaks) the
	 * file list that option queues when the handle is reset. */
	if (e == CURLE_OK && !*cookies_on) {
		e = curl_easy_setopt(h, CURLOPT_COOKIELIST,
		                     "localhost\tFALSE\t/\tFALSE\t1\thbtab.start\t-");
		if (e == CURLE_OK)
			*cookies_on = 1;
	}
	return e;
}

#define AUTH_COOKIE "hadoop.auth"

/* Splits a Netscape cookie line in place into its 7 tab-separated fields. */
static int cookie_fields(char *line, char *f[7])
{
	int i;

	for (i = 0; i < 7; i++) {
		f[i] = line;
		line = strchr(line, '\t');
		if (i < 6) {
			if (!line)
				return -1;
			*line++ = '\0';
		}
	}
	return 0;
}

/* Files the cookie line l, when it is a hadoop.auth cookie without the path "/", under "/"
 * and expires its narrower copy. Returns 0 (also when there is nothing to do), -1 when libcurl
 * refused a store, -2 when out of memory. */
static int refile_auth_cookie(CURL *h, const char *l)
{
	char *f[7], *copy, *line;
	size_t n;
	int rc = 0;

	if (!strstr(l, "\t" AUTH_COOKIE "\t"))
		return 0;
	copy = strdup(l);
	if (!copy)
		return -2;
	/* domain, include-subdomains, path, secure, expires, name, value */
	if (cookie_fields(copy, f) || strcmp(f[5], AUTH_COOKIE) || !*f[6] || !strcmp(f[2], "/")) {
		free(copy);
		return 0;
	}
	n = strlen(l) + 32;
	line = malloc(n);
	if (!line) {
		free(copy);
		return -2;
	}
	snprintf(line, n, "%s\t%s\t/\t%s\t%s\t%s\t%s", f[0], f[1], f[3], f[4], f[5], f[6]);
	if (curl_easy_setopt(h, CURLOPT_COOKIELIST, line) != CURLE_OK)
		rc = -1;
	/* The narrower copy expires now, so one value is sent, not two. */
	snprintf(line, n, "%s\t%s\t%s\t%s\t1\t%s\t%s", f[0], f[1], f[2], f[3], f[5], f[6]);
	if (curl_easy_setopt(h, CURLOPT_COOKIELIST, line) != CURLE_OK)
		rc = -1;
	free(line);
	free(copy);
	return rc;
}

/*
 * After a transfer with SPNEGO: the server sets hadoop.auth without a Path, so libcurl would
 * keep it for the request's directory only; Hadoop's own client sends it with every request
 * to the server. This gives the cookie the path "/" (and drops the narrower copy). Returns 0,
 * or -1 when libcurl cannot list or store cookies.
 */
static int keep_auth_cookie(CURL *h)
{
	struct curl_slist *list = NULL, *l;
	int rc = 0, r = 0;

	if (curl_easy_getinfo(h, CURLINFO_COOKIELIST, &list) != CURLE_OK)
		return -1;
	for (l = list; l && r != -2; l = l->next)
		if ((r = refile_auth_cookie(h, l->data)))
			rc = -1;
	curl_slist_free_all(list);
	return rc;
}

/* The method and its body: a DELETE without a body sends none. */
static CURLcode set_method(CURL *h, const struct hb_curlx_request *req)
{
	CURLcode e = CURLE_OK;

	if (!strcmp(req->method, "GET")) {
		SET(CURLOPT_HTTPGET, 1L);
	} else if (!strcmp(req->method, "HEAD")) {
		SET(CURLOPT_NOBODY, 1L);
	} else {
		SET(CURLOPT_CUSTOMREQUEST, req->method);
		if (req->body || strcmp(req->method, "DELETE")) {
			SET(CURLOPT_POST, 1L);
			SET(CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)req->len);
			SET(CURLOPT_POSTFIELDS, req->body ? (const char *)req->body : "");
		}
	}
	return e;
}

/* Everything a REST request sets on the handle before it is sent. */
static CURLcode rest_setup(struct hb_curlx_xfer *x, const struct hb_curlx_conf *conf,
                           const struct hb_curlx_request *req)
{
	CURL *h = x->h;
	CURLcode e = hb_curlx_setup(h, conf, req->url, req->hdrs, &x->sink, x->errbuf);

	/* Compression costs the gateway and hbtab CPU (zlib inflates at a few hundred MB/s,
	 * more than decoding a TableInfo), and saves only on a slow link
	 * (docs/hbase-wire.md §1): asked for with --compressed. */
	if (conf->compressed)
		SET(CURLOPT_ACCEPT_ENCODING, "");
	SET(CURLOPT_HEADERFUNCTION, on_header);
	SET(CURLOPT_HEADERDATA, &x->heads);
	SET(CURLOPT_TCP_KEEPALIVE, 1L);
	if (conf->negotiate) {
		if (e == CURLE_OK)
			e = negotiate(h, &x->cookies_on);
	} else if (conf->user) {
		/* The caller resolves the credentials (HBTAB_PASSWORD, ~/.netrc): libcurl 7.88
		 * does not look a password up in ~/.netrc when CURLOPT_USERNAME is set. */
		SET(CURLOPT_USERNAME, conf->user);
		SET(CURLOPT_PASSWORD, conf->password ? conf->password : "");
		SET(CURLOPT_HTTPAUTH, (long)CURLAUTH_BASIC);
	}
	/* With SPNEGO, libcurl tells why it could not make a token only in its debug text. */
	if (x->trace || conf->negotiate) {
		SET(CURLOPT_VERBOSE, 1L);
		SET(CURLOPT_DEBUGFUNCTION, on_debug);
		SET(CURLOPT_DEBUGDATA, x);
	}
	if (e == CURLE_OK)
		e = set_method(h, req);
	return e;
}

int hb_curlx_xfer_init(struct hb_curlx_xfer *x, void (*trace)(void *ctx, const char *line),
                       void *trace_ctx)
{
	memset(x, 0, sizeof(*x));
	x->trace = trace;
	x->trace_ctx = trace_ctx;
	x->h = curl_easy_init();
	return x->h ? 0 : HB_ENOMEM;
}

void hb_curlx_xfer_release(struct hb_curlx_xfer *x)
{
	if (x->h)
		curl_easy_cleanup(x->h);
	x->h = NULL;
}

int hb_curlx_transfer(struct hb_curlx_xfer *x, const struct hb_curlx_conf *conf,
                      const struct hb_curlx_request *req, const char *line, CURLcode *e)
{
	x->errbuf[0] = '\0';
	x->gss_note[0] = '\0';
	heads_reset(&x->heads);
	x->status = 0;
	x->sink.heads = &x->heads;
	x->sink.streaming = -1;
	x->sink.stream_rc = 0;
	if (rest_setup(x, conf, req) != CURLE_OK)
		return -1;
	hb_curlx_tracef(x, "%s", line);
	hb_interrupt_transfer(1);
	hb_activity_begin(NULL);
	*e = curl_easy_perform(x->h);
	hb_activity_end();
	hb_interrupt_transfer(0);
	x->sink.buf = NULL;
	x->sink.f = NULL;
	if (conf->negotiate && keep_auth_cookie(x->h))
		hb_curlx_tracef(x, "cannot keep the hadoop.auth cookie for later requests");
	if (*e == CURLE_OK)
		curl_easy_getinfo(x->h, CURLINFO_RESPONSE_CODE, &x->status);
	if (x->heads.status > 0)
		x->answered = 1;
	return 0;
}
