/* HBase REST resources (cluster, tables, schema, regions, hbase:meta, cells) as core types. */
#ifndef HB_REST_HBASE_H
#define HB_REST_HBASE_H

#include "core/key.h"
#include "rest/rest.h"

#include <stddef.h>
#include <stdint.h>

/* GET /version/rest: every field is a malloc'ed string or NULL when the server left it out. */
struct hb_rest_version {
	char *rest, *jvm, *os, *server, *jersey;
};

/* Per-region load from /status/cluster (counters are 0 when the server did not send them). */
struct hb_region_load {
	unsigned char *name; /* full region name bytes (decoded from base64) */
	size_t name_len;
	int64_t read_requests, write_requests, cp_requests;
	int64_t stores, storefiles, storefile_size_mb, memstore_size_mb;
};

struct hb_node;
/* Called with each region load of a /status/cluster read and the node listing it (whose
 * fields are set, its regions not kept); a non-zero return stops the read with it. */
typedef int (*hb_region_load_fn)(void *ctx, const struct hb_node *node,
                                 const struct hb_region_load *l, struct hb_error *err);

/* A live region server with its regions. */
struct hb_node {
	char *name; /* "host:port" */
	int64_t start_code, requests;
	int64_t heap_mb, max_heap_mb;
	struct hb_region_load *regions;
	size_t nregions;
};

/* GET /status/cluster. dead[] holds "host,port,startcode" strings. */
struct hb_cluster_status {
	int64_t regions, requests;
	double average_load;
	struct hb_node *live;
	size_t nlive;
	char **dead;
	size_t ndead;
	/* node names of an answer that was cut and asked for again, kept while the status lives
	 * (a load callback may hold them) */
	char **stale;
	size_t nstale;
};

/* Called with each region of a listing (r and its strings valid during the call only); a
 * non-zero return stops the listing with it. */
typedef int (*hb_region_fn)(void *ctx, const struct hb_region *r, struct hb_error *err);

/* A list of malloc'ed C strings (table names). */
struct hb_names {
	char **v;
	size_t n, cap;
};

/* One cell: column is "family:qualifier" bytes, value raw bytes (both NUL-terminated copies;
 * in a row built by hb_row_add_cell they share one allocation, freed with the column). */
struct hb_cell {
	unsigned char *column;
	size_t column_len;
	unsigned char *value;
	size_t value_len;
	int64_t timestamp; /* 0 when unknown / server-assigned */
};

/* One row with its cells, as read by a scanner (fragments of one row are merged). */
struct hb_row {
	unsigned char *key;
	size_t key_len;
	struct hb_cell *cells;
	size_t ncells, cap;
};

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
};

/* Called once per complete row, in key order; a non-zero return stops the scan with it. */
typedef int (*hb_scan_row_fn)(void *ctx, const struct hb_row *row, struct hb_error *err);

void hb_rest_version_release(struct hb_rest_version *v);
void hb_cluster_status_release(struct hb_cluster_status *s);
void hb_names_init(struct hb_names *n);
void hb_names_release(struct hb_names *n);
/* Appends a copy of s. HB_ENOMEM. */
int hb_names_push(struct hb_names *n, const char *s);
void hb_row_init(struct hb_row *r);
void hb_row_release(struct hb_row *r);
/* Appends a copy of a cell to r. HB_ENOMEM. */
int hb_row_add_cell(struct hb_row *r, const void *col, size_t col_len, const void *val,
                    size_t val_len, int64_t ts);
/* The first cell of r whose column equals col (bytes), or NULL. */
const struct hb_cell *hb_row_cell(const struct hb_row *r, const char *col);

/* ---- Resources. All fill err with "METHOD PATH: ..." and return 0 or HB_E*. ---- */

/* GET /version/rest. */
int hb_rest_get_version(struct hb_rest *c, struct hb_rest_version *out, struct hb_error *err);
/* GET /version/cluster: *out is a malloc'ed version string such as "2.5.8". */
int hb_rest_get_cluster_version(struct hb_rest *c, char **out, struct hb_error *err);
/* GET /status/cluster; release *out with hb_cluster_status_release. */
int hb_rest_get_status(struct hb_rest *c, struct hb_cluster_status *out, struct hb_error *err);
/* The same without the regions' loads (every node's regions empty): the live and dead nodes
 * at no memory cost per region. */
/* ... and with each region's load handed to fn as it is read (no region kept). An answer cut
 * part-way and asked for again hands its loads again from the first: fn keeps the last load
 * it is given for a region (node names it was given stay valid until *out is released). */
int hb_rest_get_status_each(struct hb_rest *c, struct hb_cluster_status *out, hb_region_load_fn fn,
                            void *ctx, struct hb_error *err);
int hb_rest_get_status_nodes(struct hb_rest *c, struct hb_cluster_status *out,
                             struct hb_error *err);
/* GET /: user table names ("ns:t" outside default), sorted; out must be initialised. */
int hb_rest_list_tables(struct hb_rest *c, struct hb_names *out, struct hb_error *err);
/* GET /namespaces: *exists = 1 when namespace ns is listed, 0 when not. HB_ESERVER for an
 * answer that is not the list. */
int hb_rest_namespace_exists(struct hb_rest *c, const char *ns, int *exists, struct hb_error *err);
/* POST /namespaces/NS (NamespacesInstanceResource): creates namespace ns. Not retried (not
 * idempotent: a lost 201 would read as 403 "already exists" the second time). */
int hb_rest_create_namespace(struct hb_rest *c, const char *ns, struct hb_error *err);
/* GET /T/exists: *exists = 1/0 (404 is not an error here). A 200 with a body is not
 * HBase's answer (it sends an empty 200): HB_ESERVER. */
int hb_rest_table_exists(struct hb_rest *c, const char *table, int *exists, struct hb_error *err);
/* GET /T/schema into an initialised schema. HB_ENOTFOUND when the table does not exist. */
int hb_rest_get_schema(struct hb_rest *c, const char *table, struct hb_schema *out,
                       struct hb_error *err);
/*
 * PUT /T/schema creating a single-region table. DANGER: on an existing table PUT replaces
 * the descriptor and drops unlisted families, so call this ONLY after verifying absence
 * (hb_rest_table_exists). 201 → 0; 304 (someone created it first) → HB_ESAFETY.
 */
int hb_rest_create_schema(struct hb_rest *c, const struct hb_schema *s, struct hb_error *err);
/* Dropping a table: rest/drop.h (hb_rest_drop_checked). */
/* GET /T/regions into an initialised list, sorted by start key. HB_ENOTFOUND when absent;
 * HB_ENOLOCATION for HTTP 500 (a region that never opened has no location). */
int hb_rest_get_regions(struct hb_rest *c, const char *table, struct hb_regions *out,
                        struct hb_error *err);
/* GET /T/regions handing each region to fn in the server's order, nothing kept (errors as
 * hb_rest_get_regions; regions before an error have been handed over). */
int hb_rest_regions_scan(struct hb_rest *c, const char *table, hb_region_fn fn, void *ctx,
                         struct hb_error *err);
/* Forgets every region handed on so far (a cut answer is read again from its start). */
typedef int (*hb_region_restart_fn)(void *ctx);
/* hb_rest_regions_scan decoding a protobuf answer as it arrives, with no copy of the body
 * kept: restart(ctx) is called before the first region of each attempt's answer. */
int hb_rest_regions_stream(struct hb_rest *c, const char *table, hb_region_fn fn,
                           hb_region_restart_fn restart, void *ctx, struct hb_error *err);
/* Reads TABLE's table:state row in hbase:meta into *state (HB_TABLE_*), -1 when there is none
 * (a missing table, or 1.x meta where the state lives in ZooKeeper). */
int hb_rest_table_state(struct hb_rest *c, const char *table, int *state, struct hb_error *err);
/* The scan of TABLE's rows in hbase:meta, [TABLE, TABLE" ,,") (docs/hbase-wire.md §6.1), with
 * the columns cols, 1000 cells a batch, one version: spec filled, its keys held in start and
 * end (initialised buffers the caller releases). HB_ENOMEM. */
int hb_rest_meta_table_spec(struct hb_scan_spec *spec, struct hb_buf *start, struct hb_buf *end,
                            const char *table, const char *const *cols, struct hb_error *err);
/*
 * Scans hbase:meta from "T,," to "T ,," (batch by batch, with the client's progress callback)
 * into an initialised list in key order, with encoded name, id, server, state and the
 * offline/split flags. The table-state row is skipped; *state_out (may be NULL) receives the
 * TableState (HB_TABLE_* from core/regioninfo.h) or -1 when there was no state row. A large
 * table's rows are read in ranges side by side; a listing whose ranges do not meet at a seam
 * (hbase:meta changed between their reads) is read again as one scan: the list is always
 * one view of hbase:meta.
 */
int hb_rest_meta_regions(struct hb_rest *c, const char *table, struct hb_regions *out,
                         int *state_out, struct hb_error *err);
/* Called with each region row of a meta scan, decoded (r and its strings are valid during the
 * call only), in meta's key order; a non-zero return stops the scan with it. */
typedef hb_region_fn hb_meta_region_fn;
/* hb_rest_meta_regions one region at a time: nothing is kept, and (fn cannot start again)
 * the listing is one scan, never read in ranges. */
int hb_rest_meta_scan(struct hb_rest *c, const char *table, hb_meta_region_fn fn, void *ctx,
                      int *state_out, struct hb_error *err);
/* hb_rest_meta_scan for an fn that restart (called with ctx) empties of what it was given:
 * a large table's listing may then be read in ranges and, to stay one view of hbase:meta,
 * read again from its start (as hb_rest_meta_regions). */
int hb_rest_meta_scan_restart(struct hb_rest *c, const char *table, hb_meta_region_fn fn,
                              hb_region_restart_fn restart, void *ctx, int *state_out,
                              struct hb_error *err);
/*
 * hb_rest_meta_scan asking meta for info:state alone: each region row is handed on with its
 * name, encoded name, start key, id and replica id as the name holds them, and its state (no
 * end key, server or flags); for joining states onto regions read from REST. last_name (may
 * be NULL) names the table's last region: a listing that ends with it is whole, any other is
 * checked as hb_rest_meta_scan's is.
 */
int hb_rest_meta_states(struct hb_rest *c, const char *table, const void *last_name,
                        size_t last_name_len, hb_meta_region_fn fn, void *ctx, int *state_out,
                        struct hb_error *err);
/*
 * hb_rest_meta_states asking only for the region rows whose info:state is not OPEN, those
 * without one (handed on with a NULL state) and the row of last_name (docs/hbase-wire.md
 * §6.5): a row not handed on had OPEN when meta was read. Returns 1, having handed on what it
 * read, when that answer proves nothing (no usable last_name, or the row of last_name was not
 * in it: the listing may be short or the last region changed), and HB_ESERVER when the
 * gateway refused the filter; then hb_rest_meta_states is the way to ask.
 */
int hb_rest_meta_states_not_open(struct hb_rest *c, const char *table, const void *last_name,
                                 size_t last_name_len, hb_meta_region_fn fn, void *ctx,
                                 int *state_out, struct hb_error *err);
/* Stateful scanner over [start, end) calling fn per complete row; the scanner is always
 * deleted afterwards. Creation is not retried (POST is not idempotent). */
int hb_rest_scan(struct hb_rest *c, const char *table, const struct hb_scan_spec *spec,
                 hb_scan_row_fn fn, void *ctx, struct hb_error *err);
/*
 * Samples up to max_rows row keys of table, uniformly, into out (initialised; sorted on
 * return), through scanners with RandomRowFilter + FirstKeyOnlyFilter + KeyOnlyFilter, so
 * one empty cell per chosen row travels. The chance starts at 1 and halves (the keys kept so
 * far thinned to match) whenever 2 * max_rows keys are held. *rows_seen gets the number of
 * rows the final chance let through before the last thinning. seed makes it repeatable.
 * hbtab's metadata row (HB_METAROW_ROW) is never part of the sample.
 */
int hb_rest_sample_keys(struct hb_rest *c, const char *table, size_t max_rows, uint64_t seed,
                        struct hb_keys *out, struct hb_error *err);
/* hb_rest_sample_keys over the rows in [start, end) only (end_len 0 = to the last row). */
int hb_rest_sample_range(struct hb_rest *c, const char *table, const void *start, size_t start_len,
                         const void *end, size_t end_len, size_t max_rows, uint64_t seed,
                         struct hb_keys *out, struct hb_error *err);
/* Builds the FilterModel JSON (text) for the sampler's filter at chance (1 = no
 * RandomRowFilter) into out. HB_ENOMEM. */
int hb_rest_sample_filter(struct hb_buf *out, double chance);

/* Reads one row (binary-safe: a scanner over [row, row+"\0")) restricted to columns (may be
 * NULL = all). *found = 0 and out empty when the row has no cells. out must be initialised. */
int hb_rest_get_row(struct hb_rest *c, const char *table, const void *row, size_t row_len,
                    const char *const *columns, struct hb_row *out, int *found,
                    struct hb_error *err);
/* Writes cells to one row; the key goes in the JSON body (dummy path row). */
int hb_rest_put_row(struct hb_rest *c, const char *table, const void *row, size_t row_len,
                    const struct hb_cell *cells, size_t ncells, struct hb_error *err);
/*
 * checkAndPut (?check=put): writes cells if column check_col currently holds exactly
 * check_val. cells must include a cell for check_col. *applied = 1 on 200, 0 on 304.
 */
int hb_rest_check_and_put(struct hb_rest *c, const char *table, const void *row, size_t row_len,
                          const struct hb_cell *cells, size_t ncells, const char *check_col,
                          const void *check_val, size_t check_len, int *applied,
                          struct hb_error *err);

/* ---- JSON decoders (pure; exposed for tests). what names the request in messages, e.g.
 * "GET /t/regions"; malformed input gives HB_ESERVER "malformed response from WHAT: ...". */

int hb_rest_decode_version(const char *json, size_t len, const char *what,
                           struct hb_rest_version *out, struct hb_error *err);
/* A bare JSON string ("2.5.8"); a plain-text body is accepted too. */
int hb_rest_decode_cluster_version(const char *json, size_t len, const char *what, char **out,
                                   struct hb_error *err);
int hb_rest_decode_status(const char *json, size_t len, const char *what,
                          struct hb_cluster_status *out, struct hb_error *err);
int hb_rest_decode_tables(const char *json, size_t len, const char *what, struct hb_names *out,
                          struct hb_error *err);
int hb_rest_decode_schema(const char *json, size_t len, const char *what, struct hb_schema *out,
                          struct hb_error *err);
/* Appends the regions of a /T/regions body to out (not sorted); a refused body appends none. */
int hb_rest_decode_regions(const char *json, size_t len, const char *what, struct hb_regions *out,
                           struct hb_error *err);
/* hb_rest_decode_regions that also requires the body's top-level "name" to be table (a
 * "default:" prefix on either side aside); a body naming another table is HB_ESERVER. */
int hb_rest_decode_table_regions(const char *json, size_t len, const char *what, const char *table,
                                 struct hb_regions *out, struct hb_error *err);
/* Calls fn for every Row fragment of a CellSet body (rows split across bodies are not
 * merged here); rows before a content error are handed on first, none before a syntax
 * error. HB_ESERVER for a malformed body; fn's error stops the body. */
int hb_rest_decode_cellset(const char *json, size_t len, const char *what,
                           int (*fn)(void *ctx, struct hb_row *frag, struct hb_error *err),
                           void *ctx, struct hb_error *err);
/* One hbase:meta row of a scan for table: a region row of table ("table,start,id.enc.") with
 * an info:regioninfo cell is appended to out; the table's state row sets *state (-1 when
 * undecodable; state may be NULL); other rows are skipped. HB_ESERVER for a malformed
 * RegionInfo, HB_ENOMEM. */
int hb_meta_row_decode(const struct hb_row *row, const char *table, struct hb_regions *out,
                       int *state, struct hb_error *err);
/* Encodes a schema as TableSchema JSON (malloc'ed, NUL-terminated) into *out. */
int hb_rest_encode_schema(const struct hb_schema *s, char **out, struct hb_error *err);

#endif
