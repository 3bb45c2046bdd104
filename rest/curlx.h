/* libcurl set-up shared by the REST and Thrift2 channels: TLS, timeouts, body cap, errors. */
#ifndef HB_REST_CURLX_H
#define HB_REST_CURLX_H

#include "core/buf.h"
#include "core/hb.h"

#include <curl/curl.h>
#include <stddef.h>
#include <stdio.h>

/* Connection settings both channels copy from their options (strings owned, may be NULL). */
struct hb_curlx_conf {
	char *user, *password, *cacert, *cert, *key;
	double timeout; /* seconds per request (total); the connect timeout is derived */
	int insecure, negotiate;
};

/* Where a response body goes: into buf, or into file f when it is set (n counts the bytes
 * written; a failed write sets write_error), failing the transfer past max bytes
 * (overflow = 1). */
struct hb_curlx_sink {
	struct hb_buf *buf;
	size_t max;
	int overflow;
	FILE *f;
	size_t n;
	int write_error;
};

/* Initialises libcurl once per process. HB_ENOMEM "cannot initialise libcurl". */
int hb_curlx_global_init(struct hb_error *err);

/* Copies the strings into conf (zeroed first; timeout and flags are left 0). HB_ENOMEM. */
int hb_curlx_conf_copy(struct hb_curlx_conf *conf, const char *user, const char *password,
                       const char *cacert, const char *cert, const char *key);
/* Frees the strings, wiping the password first; the struct itself is the caller's. */
void hb_curlx_conf_release(struct hb_curlx_conf *conf);

/*
 * Resets h and sets what every request needs: URL (http/https only), no signals, the
 * timeouts from conf, user agent, headers, the body sink, errbuf (CURL_ERROR_SIZE), no
 * redirects, and the TLS options of conf. Authentication is left to the caller.
 * Returns the first failing CURLcode or CURLE_OK.
 */
CURLcode hb_curlx_setup(CURL *h, const struct hb_curlx_conf *conf, const char *url,
                        struct curl_slist *hdrs, struct hb_curlx_sink *sink, char *errbuf);

/*
 * Kerberos SPNEGO for the next transfer on h (after hb_curlx_setup): the ticket cache named
 * by KRB5CCNAME, the service principal HTTP/<host of the URL>. Negotiate is offered only
 * when the server asks for it (401 with WWW-Authenticate: Negotiate), and the in-memory
 * cookie engine is on, so the hadoop.auth cookie the server sets after one negotiation is
 * sent with every later request of the run on this handle: SPNEGO runs once, not per request.
 * *cookies_on (0 for a new handle) records that the engine is on.
 */
CURLcode hb_curlx_negotiate(CURL *h, int *cookies_on);

/*
 * After a transfer with hb_curlx_negotiate: the server sets hadoop.auth without a Path, so
 * libcurl would keep it for the request's directory only; Hadoop's own client sends it with
 * every request to the server. This gives the cookie the path "/" (and drops the narrower
 * copy). Returns 0, or -1 when libcurl cannot list or store cookies (nothing changed).
 */
int hb_curlx_keep_auth_cookie(CURL *h);

/*
 * For a libcurl debug text line: when it reports a GSS-API failure, copies the reason into
 * note (cap bytes, NUL-terminated, non-printable bytes as '?') and returns 1; otherwise 0.
 */
int hb_curlx_gss_note(char *note, size_t cap, const char *line, size_t len);

/*
 * Reads a server's URL with libcurl's URL API (curl_url): the scheme http or https in any
 * case, a host, no user name or password. *out is the URL as libcurl writes it (the scheme in
 * lower case, "/" for an empty path), malloc'ed. HB_EINVAL naming what ("REST", "Thrift2")
 * and the fault, so bad input is not mistaken for a network error; HB_ENOMEM.
 */
int hb_curlx_server_url(char **out, const char *url, const char *what, struct hb_error *err);

/* Copies the host of a server URL into host (cap bytes; an IPv6 literal without its brackets,
 * as ~/.netrc names it). Returns 0, or -1 when the URL has no host or it does not fit. */
int hb_curlx_url_host(char *host, size_t cap, const char *url);

/* Appends n bytes percent-encoded as one URL path segment or query value (curl_easy_escape:
 * everything but A-Z a-z 0-9 - . _ ~; NUL bytes too), NUL-terminated. HB_ENOMEM. */
int hb_curlx_escape(struct hb_buf *out, const void *p, size_t n);

/* 1 when the transfer failed on the client's own TLS files (CA bundle, client certificate or
 * key unreadable, not PEM, or a key that does not match): bad input, not a network failure. */
int hb_curlx_local_tls(CURLcode e);
/* A short reason for a failed transfer ("timed out", "connection refused", ...). */
const char *hb_curlx_reason(CURLcode e, const char *errbuf);

/*
 * Copies the first line of body into first (cap bytes, NUL-terminated), non-printable
 * bytes as '?': the rest of an error page is usually a stack trace. Returns its length.
 */
size_t hb_curlx_first_line(char *first, size_t cap, const char *body);
/* What to do when a transport failure on url looks like the wrong scheme for the port
 * (https:// to plain HTTP, http:// to TLS): " (...)" to append to the reason, or "". */
const char *hb_curlx_hint(const char *url, CURLcode e, const char *errbuf);

#endif
