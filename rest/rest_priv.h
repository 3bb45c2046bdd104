/* What the HTTP client (http.c) lends the REST resource files and the flows: not for cli/. */
#ifndef HB_REST_REST_PRIV_H
#define HB_REST_REST_PRIV_H

#include "rest/rest.h"

#include <stddef.h>

/* Passes scan progress to the callback set with hb_rest_set_progress, if any. */
void hb_rest_report_progress(struct hb_rest *c, size_t done, size_t total);
/* Passes a notice to the callback set with hb_rest_set_notice, if any. */
void hb_rest_report_notice(struct hb_rest *c, const char *msg);
/* A second client like c (its server, credentials, TLS, timeouts, retries and trace), with a
 * connection of its own, for requests made beside c's in another thread; hb_rest_free frees
 * it. HB_ENOMEM. */
int hb_rest_sibling(struct hb_rest **out, const struct hb_rest *c, struct hb_error *err);
/* Whether c's gateway (or a proxy before it) has refused protobuf, and noting that it has: a
 * client that noted it asks for JSON from the start for the rest of the run, as does a
 * sibling made after it (docs/hbase-wire.md §3.1). */
int hb_rest_protobuf_refused(const struct hb_rest *c);
void hb_rest_note_protobuf_refused(struct hb_rest *c);
/* 1 while c's current answer is handed to its stream as it arrives (struct hb_rest_stream). */
int hb_rest_streaming(const struct hb_rest *c);
/* Hands one -v line (printf-style) to c's trace, if it has one. */
void hb_rest_tracef(struct hb_rest *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* How many times a broken scan may be reopened (the --retries budget). */
long hb_rest_retry_budget(const struct hb_rest *c);
/* on: the connection's --timeout bounds how long an answer may stay silent (no byte), not
 * its whole transfer (a streamed listing of any length); returns the setting before. */
int hb_rest_idle_timeout(struct hb_rest *c, int on);

#endif
