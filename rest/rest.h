/* The HBase REST (Stargate) client: one keep-alive connection per run, retries, TLS, auth. */
#ifndef HB_REST_H
#define HB_REST_H

#include "core/buf.h"
#include "core/hb.h"
#include "core/region.h"
#include "core/schema.h"

#include <stddef.h>
#include <stdint.h>

struct hb_rest;

/* Called for each -v trace line (never contains secrets). */
typedef void (*hb_rest_trace_fn)(void *ctx, const char *line);
/* Progress for long listings: items so far, total if known (0 = unknown). */
typedef void (*hb_rest_progress_fn)(void *ctx, size_t done, size_t total);
/* A problem that fails nothing hbtab was asked to do but leaves something behind on the
 * server (a scanner that could not be deleted): the operator must hear of it. */
typedef void (*hb_rest_notice_fn)(void *ctx, const char *msg);

struct hb_rest_opts {
	const char *base_url; /* e.g. http://localhost:8080 (no userinfo allowed) */
	double timeout;       /* seconds, per request (total); connect timeout derived */
	long retries;         /* extra attempts for idempotent requests */
	const char *cacert, *cert, *key;
	int insecure;
	int compressed;            /* ask for gzip'd answers (Accept-Encoding) */
	const char *user;          /* basic auth user or NULL (then no credentials are sent) */
	const char *password;      /* its password, or NULL */
	const char *password_from; /* where the password came from, for messages */
	int negotiate;             /* Kerberos SPNEGO */
	size_t max_body;           /* response size cap in bytes; 0 = default (256 MiB) */
	double max_retry_after;    /* cap on a server's Retry-After in seconds; 0 = default (30) */
	hb_rest_trace_fn trace;
	void *trace_ctx;
};

/* Takes a body as it arrives (struct hb_rest_resp's stream). start is called at the first
 * byte of each attempt's body (so an attempt after a cut one starts afresh), push with each
 * piece; a non-zero return (an HB_E* code, err set) ends the request with that error. */
struct hb_rest_stream {
	int (*wants)(const char *content_type);
	int (*start)(void *ctx, struct hb_error *err);
	int (*push)(void *ctx, const char *p, size_t n, struct hb_error *err);
	void *ctx;
};

struct hb_rest_resp {
	long status;
	struct hb_buf body;
	/* Set by the caller before a request that may bring a large body (kept by
	 * hb_rest_resp_release, cleared by hb_rest_resp_init): the body goes to an anonymous
	 * temporary file instead of memory, and a 200's body is then mapped read-only at map
	 * (map_len bytes; body stays empty); other statuses' bodies are read back into body.
	 * Read it through hb_rest_resp_body. Spooled bodies may be up to 64 times the size cap. */
	int spool;
	/* Set by the caller like spool: the Accept header's value (a static string), NULL for
	 * "application/json". */
	const char *accept;
	/* Set by the caller like spool (NULL: none): a 200 whose Content-Type the stream wants is
	 * handed to it as it arrives, and is then neither in body nor mapped (streamed is set). */
	const struct hb_rest_stream *stream;
	int streamed;
	const char *map;
	size_t map_len;
	char content_type[128];
	char location[2048];
	double retry_after; /* seconds from a Retry-After header, -1 when absent */
	/* With SPNEGO and a 401/403: why libcurl made no token, "-" when it made one. */
	char auth_note[200];
	/* With a 401/403, for the message: the schemes the server asked for (WWW-Authenticate,
	 * space-separated), the user name sent ("" without one), where its password came from
	 * ("" without one), and the server's host. */
	char challenge[64];
	char login[64];
	char password_from[32];
	char host[256];
	/* The path of the base URL (--rest https://host/prefix: "/prefix", else ""), so a
	 * message names the whole path the request went to. */
	char prefix[256];
};

/* Creates a client; *out is freed with hb_rest_free. HB_EINVAL (bad URL/options), HB_ENOMEM. */
int hb_rest_new(struct hb_rest **out, const struct hb_rest_opts *o, struct hb_error *err);
/* Closes the connection and frees the client; NULL is a no-op. */
void hb_rest_free(struct hb_rest *c);

/* Prepares / frees a response record (reusable after release). */
void hb_rest_resp_init(struct hb_rest_resp *r);
void hb_rest_resp_release(struct hb_rest_resp *r);
/* The body's bytes wherever they are (memory or the spool's mapping); *len gets its size. */
const char *hb_rest_resp_body(const struct hb_rest_resp *r, size_t *len);

/*
 * One request. path is already URL-encoded (use hb_rest_path_escape) and starts with '/'.
 * Retries (with backoff, jitter and a capped Retry-After) on connect failures, resets,
 * timeouts and 502/503/504 only when idempotent. Any HTTP status is returned in resp (not an
 * error); transport failures give HB_ENET with "cannot METHOD PATH: reason" and a body over
 * the size cap gives HB_ESERVER. After a signal asked hbtab to stop (core/interrupt.h) a
 * request is clean-up: one attempt, at most HB_REST_CLEANUP_TIMEOUT seconds.
 */
#define HB_REST_CLEANUP_TIMEOUT 5.0
int hb_rest_request(struct hb_rest *c, const char *method, const char *path,
                    const char *content_type, const void *body, size_t len, int idempotent,
                    struct hb_rest_resp *resp, struct hb_error *err);

/* Number of requests sent on the wire so far (attempts, including retries). */
unsigned long hb_rest_attempts(const struct hb_rest *c);

/* Sets the progress callback used by long listings (meta scans); fn may be NULL. */
void hb_rest_set_progress(struct hb_rest *c, hb_rest_progress_fn fn, void *ctx);
/* Sets the callback for notices (hb_rest_notice_fn); fn may be NULL. */
void hb_rest_set_notice(struct hb_rest *c, hb_rest_notice_fn fn, void *ctx);

/* Appends n bytes percent-encoded for one URL path segment or query value (everything but
 * unreserved characters, NUL bytes included), NUL-terminated. HB_ENOMEM. */
int hb_rest_path_escape(struct hb_buf *out, const void *p, size_t n);

/*
 * Fills err from a non-2xx response: "METHOD PATH: HTTP 404 Not found" using only the
 * first line of the body (never the Java stack trace). Codes: HB_ENOTFOUND for 404,
 * HB_ESERVER otherwise (a 403 on a write says the gateway may be read-only). Returns the code.
 */
int hb_rest_status_error(const char *method, const char *path, const struct hb_rest_resp *r,
                         struct hb_error *err);

#endif
