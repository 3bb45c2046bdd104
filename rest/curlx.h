/* The libcurl side of both channels: set-up (TLS, timeouts, body cap), the REST transfer, errors.
 */
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
	double timeout;   /* seconds per request (total); the connect timeout is derived */
	int idle_timeout; /* timeout bounds a silence (no byte for that long), not the whole */
	int insecure, negotiate;
	int compressed; /* REST: ask for compressed answers; libcurl decodes them */
};

struct hb_curlx_heads;

/* Where a response body goes: into buf, or into file f when it is set (n counts the bytes
 * written; a failed write sets write_error), failing the transfer past max bytes
 * (overflow = 1); or, when stream_push is set and the answer is a 200 that stream_wants, to
 * the stream piece by piece (decided at the body's first byte). */
struct hb_curlx_sink {
	struct hb_buf *buf;
	size_t max;
	int overflow;
	FILE *f;
	size_t n;
	int write_error;
	const struct hb_curlx_heads *heads;
	int (*stream_wants)(const char *content_type);
	/* start: the first byte of this attempt's body is coming; push: its next bytes. A
	 * non-zero return (an HB_E* code, with stream_err set) stops the transfer. */
	int (*stream_start)(void *ctx, struct hb_error *err);
	int (*stream_push)(void *ctx, const char *p, size_t n, struct hb_error *err);
	void *stream_ctx;
	int streaming; /* -1 undecided, 0 kept as above, 1 streamed */
	int stream_rc; /* the code a stream callback stopped the transfer with, else 0 */
	struct hb_error stream_err;
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

/* The response headers a REST request reads, each NUL-terminated and cut to its size (the
 * sizes of struct hb_rest_resp's fields). */
struct hb_curlx_heads {
	long status; /* of the last status line read, 0 before one */
	char content_type[128];
	char location[2048];
	double retry_after; /* seconds from a Retry-After header, -1 when absent */
	char challenge[64]; /* the WWW-Authenticate schemes, space-separated */
};

/* One REST request as it goes on the wire (the strings and the body are the caller's). */
struct hb_curlx_request {
	const char *method, *url;
	struct curl_slist *hdrs;
	const void *body; /* NULL: none (a POST or PUT then sends an empty one) */
	size_t len;
};

/*
 * The REST channel's libcurl handle, kept for the run, and what its last transfer reported.
 * The caller points sink at the body's place before each transfer; hb_curlx_transfer fills
 * errbuf, gss_note, heads and status.
 */
struct hb_curlx_xfer {
	CURL *h;
	int cookies_on;                             /* the handle's cookie engine is on */
	void (*trace)(void *ctx, const char *line); /* -v lines, or NULL */
	void *trace_ctx;
	struct hb_curlx_sink sink;
	char errbuf[CURL_ERROR_SIZE];
	char gss_note[200]; /* why libcurl could not make a SPNEGO token ("" when it could) */
	struct hb_curlx_heads heads;
	long status;  /* the HTTP status of a transfer that completed, else 0 */
	int answered; /* an HTTP status line came back on some transfer of the run: the server
	               * speaks plain HTTP or TLS as the URL says */
};

/* Zeroes x and opens its handle; trace (may be NULL) gets the -v lines. HB_ENOMEM. */
int hb_curlx_xfer_init(struct hb_curlx_xfer *x, void (*trace)(void *ctx, const char *line),
                       void *trace_ctx);
/* Closes the handle (its cookies go with it); the struct itself is the caller's. */
void hb_curlx_xfer_release(struct hb_curlx_xfer *x);

/* Hands one -v line (printf-style, cut to 1023 bytes) to x's trace callback, if there is one. */
void hb_curlx_tracef(struct hb_curlx_xfer *x, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/*
 * One attempt of a REST request on x's handle. Sets the handle up: hb_curlx_setup with conf,
 * compressed bodies, keep-alive, the method and body, and the credentials of conf, either
 * Basic or Kerberos SPNEGO (offered only when the server asks, with the hadoop.auth cookie
 * kept on the handle so that SPNEGO runs once a run, not once a request). Then traces line,
 * performs the transfer (stopped when a signal asks hbtab to stop; -v shows the headers with
 * credentials and cookies redacted) and reads its status. Returns -1 when the handle cannot
 * be set up (nothing was sent), else 0 with the transfer's outcome in *e.
 */
int hb_curlx_transfer(struct hb_curlx_xfer *x, const struct hb_curlx_conf *conf,
                      const struct hb_curlx_request *req, const char *line, CURLcode *e);

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
/* The same, knowing whether the server answered with an HTTP status earlier in the run
 * (answered: then it speaks the URL's scheme, and no scheme hint is given). */
const char *hb_curlx_hint_after(const char *url, CURLcode e, const char *errbuf, int answered);

#endif
