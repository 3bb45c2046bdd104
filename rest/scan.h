/* Scans of a table's rows: stateful scanners and stateless scans. */
#ifndef HB_REST_SCAN_H
#define HB_REST_SCAN_H

#include "core/key.h"
#include "core/restpb_cells.h"
#include "rest/cells.h"
#include "rest/rest.h"

#include <cjson/cJSON.h>
#include <stddef.h>

/* A scanner request: keys are raw bytes (sent base64 in the body, never in the URL). */
struct hb_scan_spec {
	const void *start; /* NULL/0 = from the first row */
	size_t start_len;
	const void *end; /* exclusive; NULL/0 = to the last row */
	size_t end_len;
	const char *const *columns; /* "family" or "family:qualifier", NULL-terminated, or NULL */
	long batch;                 /* cells per GET; 0 = 1000 */
	int max_versions;           /* 0 = 1 */
	const char *filter;         /* ScannerModel's filter: a FilterModel as JSON text, or NULL */
	long limit; /* a stateless scan's limit= (rows at most); 0 = none. A stateful scan sends no
	             * limit: its callback stops it (a positive return) */
	/* a stateless scan's filter= (ParseFilter's language), or NULL; a spec with one is
	 * scanned statelessly or not at all (HB_EINVAL) */
	const char *lang_filter;
	/* a stateless scan asked for as JSON, not protobuf: the gateway closes its scanner at
	 * limit= only on its JSON path (docs/hbase-wire.md §6.6) */
	int json;
	/* a stateful scanner even where a stateless scan would do; its region-server fetch
	 * (ScannerModel's caching: rows a call; 0 = the gateway's default) */
	int stateful;
	long caching;
	/* set to 1 when the gateway answered the scanner's POST with an HTTP error (no scanner
	 * was opened, no row read), or NULL */
	int *open_refused;
};

/* Called once per complete row, in key order; a non-zero return stops the scan with it. */
typedef int (*hb_scan_row_fn)(void *ctx, const struct hb_row *row, struct hb_error *err);

/* Stateful scanner over [start, end) calling fn per complete row; the scanner is always
 * deleted afterwards. Creation is not retried (POST is not idempotent). */
int hb_rest_scan(struct hb_rest *c, const char *table, const struct hb_scan_spec *spec,
                 hb_scan_row_fn fn, void *ctx, struct hb_error *err);

struct hb_scan_keep;

/*
 * A stateful scanner over [start, end) whose batches are kept whole, one after another, in
 * out's body (in memory, or in a temporary file mapped at the end when out->spool is set or
 * they outgrow 16 MiB), for a reader that hands the rows on later with hb_scan_decode_kept
 * (rest/metaranges.c: the ranges of a large hbase:meta listing). The batches are protobuf,
 * each after its length. Not reopened after a failure and never asked for as JSON: the caller
 * reads the range again another way. The scanner is always deleted.
 */
int hb_rest_scan_kept(struct hb_rest *c, const char *table, const struct hb_scan_spec *spec,
                      struct hb_rest_resp *out, struct hb_error *err);

struct hb_scan_state {
	hb_scan_row_fn fn;
	void *ctx;
	struct hb_row pending; /* the last row seen; it may continue in the next batch */
	int have_pending;
	struct hb_buf last_done; /* key of the last row handed to fn */
	int have_done;
	size_t rows;
	struct hb_rest *c;
	int json;   /* scanner batches are asked for as JSON: protobuf was refused */
	int reopen; /* the scanner ended to ask for JSON from a new one: not a failure */
	/* A stateless scan's answer read again after rows were handed on: the rows up to the
	 * last one handed on (last_done, met when skip_seen) are passed over. */
	int skipping, skip_seen;
	/* hb_rest_scan_kept: the batches are kept as they came, not decoded */
	struct hb_scan_keep *keep;
};

/* A stateless scan's protobuf answer read as it arrives (core/restpb_cells.h hb_scanpb_stream). */
struct hb_scan_stream {
	struct hb_scan_state *st;
	struct hb_scanpb_stream ps;
	int started;
	int unframeable; /* a chunk could not be framed: the scan is asked for as JSON */
};

/* For rest/row.c (a base64 member), rest/sample.c (what a stateless scan can express) and
 * hbase:meta's listing in ranges (rest/metaranges.c: a scan's state and its stateless answer). */
int hb_rest_b64_field(cJSON *o, const char *name, const void *p, size_t n);
int hb_scan_stateless_ok(const struct hb_scan_spec *spec);
void hb_scan_state_init(struct hb_scan_state *st, struct hb_rest *c, hb_scan_row_fn fn, void *ctx);
void hb_scan_state_release(struct hb_scan_state *st);
int hb_scan_flush_pending(struct hb_scan_state *st, struct hb_error *err);
int hb_scan_pb_end(struct hb_scan_stream *ss, const struct hb_rest_resp *r, struct hb_error *err);
int hb_scan_stateless_path(struct hb_buf *path, const char *table, const struct hb_scan_spec *spec,
                           struct hb_error *err);
int hb_scan_decode_cellset_kept(const struct hb_rest_resp *r, const char *what,
                                struct hb_scan_state *st, struct hb_error *err);
/* hb_rest_scan_kept's batches handed to st's fn row by row (a row a batch split is merged),
 * the pages read of a mapped body given back as the reader moves on. */
int hb_scan_decode_kept(const struct hb_rest_resp *r, const char *what, struct hb_scan_state *st,
                        struct hb_error *err);

#endif
