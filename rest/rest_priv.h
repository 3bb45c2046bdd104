/* Between the HTTP client (http.c) and the REST resources (hbase.c): not for other callers. */
#ifndef HB_REST_REST_PRIV_H
#define HB_REST_REST_PRIV_H

#include "rest/hbase.h"
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

/* For a body mapped from its spool file, read up to upto: gives back the pages from *next to
 * upto's page once they are a few MiB, moving *next on (nothing when *next is NULL). */
void hb_rest_drop_behind(const char **next, const char *upto);

/* hb_rest_decode_table_regions handing each region to fn (its strings valid during the call
 * only; a non-zero return stops the decoding with it) instead of keeping it; regions before
 * an error have been handed over. mapped: the body is mapped from its spool file
 * (hb_rest_resp_body with spool set) and the pages read are given back as the parser moves
 * on. The other decoders of rest/hbase.h for such a body follow. */
int hb_rest_decode_table_regions_each(const char *json, size_t len, const char *what,
                                      const char *table, int mapped, hb_region_fn fn, void *ctx,
                                      struct hb_error *err);
int hb_rest_decode_cellset_mapped(const char *json, size_t len, const char *what,
                                  int (*fn)(void *ctx, struct hb_row *frag, struct hb_error *err),
                                  void *ctx, struct hb_error *err);
/* ... and /status/cluster (mapped as above, or not); without want_regions the nodes' regions
 * are checked, not kept; with fn each region's load is handed to fn instead (its name valid
 * during the call only). */
int hb_rest_decode_status_each(const char *json, size_t len, const char *what,
                               struct hb_cluster_status *out, int want_regions, int mapped,
                               hb_region_load_fn fn, void *ctx, struct hb_error *err);

#endif
